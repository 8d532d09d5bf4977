"""Mare Nostrum war rulings: Mars after the dice, at sea too; the invader left alone;
Ariadne's legions stop where they must fight; Poseidon breaks a crossing.

Each test pins a line of ``mare-nostrum-mythology.txt`` (quoted as ``L<n>``) and the
ruling of ``docs/rules/mare-nostrum.md`` built on it. Positions are built from a
seeded match and arranged by hand; decisions go through the checked ``apply`` with
notation, as a client's would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from senet.games.interface import Event
from senet.games.marenostrum import MARENOSTRUM, MareState
from senet.games.marenostrum.board import PROVINCES, SPACES, space_index
from senet.games.marenostrum.cards import GOD_IDS
from senet.games.marenostrum.civilizations import CIVS, EGYPT, GREECE, ROME
from senet.games.marenostrum.constants import GROUND, MILITARY, NAVAL
from senet.games.marenostrum.snapshot import state_from_data
from tests.marenostrum.helpers import hold_god, legal_notations, new_mare, own

P = space_index
MARS = GOD_IDS.index("mars")


def _match(seed: int = 1) -> MareState:
    state = new_mare(6, seed)
    for civ in range(CIVS):
        for p in range(PROVINCES):
            state.legions[civ][p] = state.creatures[civ][p] = 0
        for sp in range(SPACES):
            state.triremes[civ][sp] = 0
    state.fortresses = [0] * PROVINCES
    state.owned = [[] for _ in range(state.seat_count)]
    return state


def _turn(state: MareState, civ: int, step: str) -> int:
    """``civ``'s military turn begins at ``step``."""
    seat = state.seat_of[civ]
    state.phase, state.queue = MILITARY, [seat]
    state._begin_player()
    state.step = step
    return seat


def _hold_mars(state: MareState, seat: int) -> None:
    hold_god(state, "mars", seat)


def _event(events: list[Event], kind: str) -> Mapping[str, Any]:
    return next(e.data for e in events if e.kind == kind)


def _round_trips(state: MareState) -> None:
    """The decision survives a restore and a spectator's view."""
    twin = state_from_data(MareState, MARENOSTRUM, state.to_data())
    assert twin == state and twin.legal_actions() == state.legal_actions()
    seen = MareState.from_view(MARENOSTRUM, state.view(None), seed=3)
    assert seen.rolled == state.rolled and seen.chosen_by == state.chosen_by


# ------------------------------------------------------- Mars at sea (R18)
def test_mars_is_invoked_in_a_naval_battle_once_the_dice_are_seen() -> None:
    """L127: naval battles are "Conducted using the Rules for Battle"; L82: "At any
    point while holding the God card, the player can activate its power" (ruling R18:
    at sea too, his holder decides once the dice are seen)."""
    state = _match()
    ion = P("ion")
    state.triremes[ROME][ion], state.triremes[GREECE][ion] = 3, 3
    rome = _turn(state, ROME, NAVAL)
    _hold_mars(state, rome)
    events = state.apply(rome, "fight ion greece")
    assert "naval_battle" not in [e.kind for e in events]
    assert state.step == "war_god" and state.current_seat() == rome
    (attack, *attack_dice), (defence, *defence_dice) = state.rolled
    assert len(attack_dice) == 3 and len(defence_dice) == 3
    assert legal_notations(state) == {"invoke mars ion", "pass"}
    assert state.describe("invoke mars ion") == (
        f"Invoke Mars: +6 to your {attack} against {defence} in this battle (Mare Ionium)"
    )
    _round_trips(state)
    twin = state.clone()
    kept = _event(twin.apply(rome, "pass"), "naval_battle")
    assert kept["attack"] == attack and kept["defender_losses"] == min(attack // 5, 3)
    battle = _event(state.apply(rome, "invoke mars ion"), "naval_battle")
    assert battle["attack"] == attack + 6 and battle["defence"] == defence
    assert battle["defender_losses"] == min((attack + 6) // 5, 3)
    assert battle["attack_dice"] == attack_dice and battle["defence_dice"] == defence_dice
    assert state.triremes[GREECE][ion] == 3 - battle["defender_losses"]
    assert state.step == NAVAL and state.current_seat() == rome and state.rolled == []
    assert state.god_used[MARS]


def test_the_defending_fleet_invokes_mars_too() -> None:
    """Ruling R18: Mars's holder decides in any battle he fights, defending too."""
    state = _match()
    ion = P("ion")
    state.triremes[ROME][ion], state.triremes[GREECE][ion] = 3, 3
    rome = _turn(state, ROME, NAVAL)
    greece = state.seat_of[GREECE]
    _hold_mars(state, greece)
    state.apply(rome, "fight ion greece")
    assert state.step == "war_god" and state.current_seat() == greece
    defence = state.rolled[1][0]
    battle = _event(state.apply(greece, "invoke mars ion"), "naval_battle")
    assert battle["defence"] == defence + 6
    assert state.step == NAVAL and state.current_seat() == rome


def _greek_blockade(seed: int, mars: str) -> tuple[MareState, int, int]:
    """Rome's legion crosses from Magna Graecia to Greek Peloponnesus on its trireme
    in the Ionian Sea, where one Greek trireme waits; ``mars`` holds Mars."""
    state = _match(seed)
    ion = P("ion")
    state.influence[P("pelo")] = GREECE
    state.triremes[GREECE][ion], state.triremes[ROME][ion] = 1, 1
    state.legions[ROME][P("magn")] = 1
    rome = _turn(state, ROME, GROUND)
    greece = state.seat_of[GREECE]
    _hold_mars(state, greece if mars == "greece" else rome)
    state.apply(rome, "move l magn pelo")
    assert legal_notations(state, greece) == {"blockade ion", "done"}
    return state, rome, greece


def test_mars_is_invoked_in_a_blockade_battle_where_it_sinks_the_carrier() -> None:
    """L154: Greece "can then use their own triremes to attack" the carrier; a battle,
    so Mars's holder decides once the dice are seen, where his +6 changes the losses
    (ruling R18): Greece's one die sinks the carrier from 5 up, so below 5 he is asked."""
    asked = 0
    for seed in range(1, 12):
        state, rome, greece = _greek_blockade(seed, "greece")
        events = state.apply(greece, "blockade ion")
        if state.step != "war_god":
            fight = _event(events, "blockade_battle")
            assert fight["greek"] >= 5 and fight["invader_losses"] == 1
            continue
        asked += 1
        assert state.current_seat() == greece and state.rolled[0][0] < 5
        assert legal_notations(state) == {"invoke mars ion", "pass"}
        _round_trips(state)
        greek = state.rolled[0][0]
        twin = state.clone()
        kept = _event(twin.apply(greece, "pass"), "blockade_battle")
        assert kept["invader_losses"] == 0 and twin.legions[ROME][P("pelo")] == 1
        events = state.apply(greece, "invoke mars ion")
        fight = _event(events, "blockade_battle")
        assert fight["greek"] == greek + 6
        assert fight["invader_losses"] == 1 and "blockade_held" in [e.kind for e in events]
        assert state.legions[ROME][P("magn")] == 1 and state.legions[ROME][P("pelo")] == 0
        assert state.step == GROUND and state.current_seat() == rome
    assert asked, "some seed rolls Greece below 5"


def test_the_invader_invokes_mars_against_the_blockade() -> None:
    """Ruling R18: the carrier's owner fights the blockade battle, so he may invoke
    Mars in it, where +6 sinks the Greek trireme his own die would not."""
    asked = 0
    for seed in range(1, 12):
        state, rome, greece = _greek_blockade(seed, "rome")
        state.apply(greece, "blockade ion")
        if state.step != "war_god":
            continue
        asked += 1
        invader = state.rolled[1][0]
        assert state.current_seat() == rome and invader < 5
        fight = _event(state.apply(rome, "invoke mars ion"), "blockade_battle")
        assert fight["invader"] == invader + 6 and fight["greek_losses"] == 1
        assert state.triremes[GREECE][P("ion")] == 0
    assert asked, "some seed rolls Rome below 5"


# ----------------------------------------------- the invader left alone (R40)
def _greek_macedonia_at_war() -> tuple[MareState, int, int]:
    """Greece's legion and Rome's two are at war in Greek Macedonia (a city there)."""
    state = _match()
    mace = P("mace")
    state.influence[mace], state.cities[mace] = GREECE, 1
    state.caravans[mace] = state.temples[mace] = state.markets[mace] = 0
    state.legions[GREECE][mace], state.legions[ROME][mace] = 1, 2
    return state, state.seat_of[GREECE], state.seat_of[ROME]


def test_an_invader_left_alone_by_a_withdrawal_chooses_once() -> None:
    """L146: "Players in an "At War" province who haven't moved can move their
    Legions out"; L147: "Only one invading player survives: The invader chooses one of
    three options" (ruling R40: he chooses at the end of the ground moves that left him
    alone, and not again while he stands there)."""
    state, greece, rome = _greek_macedonia_at_war()
    mace = P("mace")
    _turn(state, GREECE, GROUND)
    state.apply(greece, "move l mace atti")
    state.apply(greece, "done")
    assert state.step == "after_battle" and state.current_seat() == rome
    assert legal_notations(state) == {"sack city", "occupy", "convert"}
    _round_trips(state)
    events = state.apply(rome, "sack city")
    assert _event(events, "sacked") == {"seat": rome, "province": "mace"}
    assert state.cities[mace] == 0 and state.chosen_by[mace] == ROME
    _round_trips(state)
    # Rome's own turn, and Greece's next: no second sack.
    for civ in (ROME, GREECE):
        seat = _turn(state, civ, GROUND)
        state.apply(seat, "done")
        assert state.step != "after_battle"
    # Rome leaves and comes back: a new invasion, a new choice.
    rome = _turn(state, ROME, GROUND)
    state.apply(rome, "move l mace thra")
    state.apply(rome, "move l mace thra")
    assert state.chosen_by[mace] == ROME, "forgotten only once he is gone"
    state.apply(rome, "done")
    assert state.chosen_by[mace] == -1
    _turn(state, ROME, GROUND)
    state.apply(rome, "move l thra mace")
    state.apply(rome, "done")
    assert state.step == "after_battle" and legal_notations(state) == {"convert"}, "no city"


def test_an_invader_whose_enemy_was_petrified_chooses() -> None:
    """L147 and ruling R40: Medusa's gaze leaving the invader alone is as a won battle."""
    state, _, rome = _greek_macedonia_at_war()
    own(state, rome, "medusa")
    _turn(state, ROME, GROUND)
    state.apply(rome, "gaze mace greece")
    events = state.apply(rome, "done")
    assert "battle" not in [e.kind for e in events]
    assert state.step == "after_battle" and state.current_seat() == rome
    state.apply(rome, "occupy")
    assert state.occupier[P("mace")] == ROME and state.chosen_by[P("mace")] == ROME


def test_a_match_saved_before_choices_were_kept_counts_every_lone_invader_as_chosen() -> None:
    """Ruling R40: a snapshot without ``chosen_by`` reads every invader standing alone
    in an enemy province as having chosen (so a sack is never repeated)."""
    state, _, _ = _greek_macedonia_at_war()
    mace = P("mace")
    state.legions[GREECE][mace] = 0
    data = state.to_data()
    del data["chosen_by"]
    twin = state_from_data(MareState, MARENOSTRUM, data)
    assert twin.chosen_by[mace] == ROME
    assert [p for p, c in enumerate(twin.chosen_by) if c != -1] == [mace]


# ---------------------------------------------------- Ariadne stops (R35)
def test_ariadnes_legion_stops_where_enemy_units_stand() -> None:
    """L130: "Legions and Creatures MUST fight when in a space occupied by opposing
    units (Legions, Creatures, or Fortresses)" (ruling R35: Ariadne's two provinces
    pass only through one where no other civilization's ground units stand)."""
    state = _match()
    etru, gcis = P("etru"), P("gcis")
    state.legions[ROME][etru] = 1
    rome = state.seat_of[ROME]
    own(state, rome, "ariadne")
    _turn(state, ROME, GROUND)
    assert {"move l etru gcis", "move l etru illy"} <= legal_notations(state)
    state.legions[EGYPT][gcis] = 1
    legal = legal_notations(state)
    assert "move l etru gcis" in legal and "move l etru illy" not in legal
    state.legions[EGYPT][gcis] = 0
    state.influence[gcis], state.fortresses[gcis] = EGYPT, 1
    legal = legal_notations(state)
    assert "move l etru gcis" in legal and "move l etru illy" not in legal
    state.legions[ROME][gcis] = 1
    assert "move l etru illy" not in legal_notations(state), "his own units do not open it"


def test_a_match_saved_while_mars_was_asked_before_the_dice_rolls_them_on_restore() -> None:
    """Ruling R18: a snapshot of Mars's step without the dice (an earlier release asked
    him before them) rolls them from the saved generator, and he decides after them."""
    state = _match()
    ion = P("ion")
    state.triremes[ROME][ion], state.triremes[GREECE][ion] = 3, 3
    rome = _turn(state, ROME, NAVAL)
    _hold_mars(state, rome)
    state.apply(rome, "fight ion greece")
    data = state.to_data()
    del data["rolled"]
    twin = state_from_data(MareState, MARENOSTRUM, data)
    assert twin.step == "war_god" and len(twin.rolled) == 2
    assert [len(side) for side in twin.rolled] == [4, 4], "three dice a side"
    assert twin.legal_actions() == state.legal_actions()


# ------------------------------------------- Poseidon breaks a crossing (R56)
POSEIDON = GOD_IDS.index("poseidon")
ATHENA = GOD_IDS.index("athena")


def _rome_crossing(
    poseidon: int, *, greek: bool = False, legions: int = 1
) -> tuple[MareState, int]:
    """Rome's ``legions`` in Magna Graecia may cross to Peloponnesus on its trireme in
    the Ionian Sea; Peloponnesus is free (Greek, with a Greek trireme in the Ionian
    Sea, when ``greek``); the civilization ``poseidon`` holds Poseidon unused."""
    state = _match()
    magn, pelo, ion = P("magn"), P("pelo"), P("ion")
    state.influence[pelo] = GREECE if greek else -1
    state.triremes[ROME][ion] = 1
    state.triremes[GREECE][ion] = int(greek)
    state.legions[ROME][magn] = legions
    rome = _turn(state, ROME, GROUND)
    if poseidon != -1:
        hold_god(state, "poseidon", state.seat_of[poseidon])
    return state, rome


def test_poseidons_holder_sinks_the_carrier_and_the_crossing_fails() -> None:
    """L82: "At any point while holding the God card, the player can activate its
    power"; notes 3.7: Poseidon destroys "an enemy trireme, even while it convoys"
    (ruling R56: asked as another's crossing is about to land; a sunk carrier breaks
    it, the units stay at their start and may move again, as L154's blockade)."""
    state, rome = _rome_crossing(EGYPT)
    egypt = state.seat_of[EGYPT]
    events = state.apply(rome, "move l magn pelo")
    assert "moved" not in [e.kind for e in events]
    assert state.step == "sea_god" and state.current_seat() == egypt
    assert legal_notations(state) == {"invoke poseidon ion rome", "pass"}
    assert state.describe("invoke poseidon ion rome") == (
        "Invoke Poseidon: sink the trireme of Rome carrying the crossing in Mare Ionium (it fails)"
    )
    assert state.describe("pass") == "Let the crossing land, keeping Poseidon"
    twin = state_from_data(MareState, MARENOSTRUM, state.to_data())
    assert twin == state and twin.legal_actions() == state.legal_actions()
    seen = MareState.from_view(MARENOSTRUM, state.view(None), seed=3)
    assert seen.crossing == state.crossing == [1, 0, P("magn"), P("pelo"), P("ion")]
    events = state.apply(egypt, "invoke poseidon ion rome")
    assert [e.kind for e in events] == ["god_invoked", "crossing_broken"]
    broken = _event(events, "crossing_broken")
    assert (broken["seat"], broken["sea"], broken["start"], broken["legions"]) == (
        rome,
        "ion",
        "magn",
        1,
    )
    assert state.triremes[ROME][P("ion")] == 0 and state.god_used[POSEIDON]
    assert state.legions[ROME][P("magn")] == 1 and state.legions[ROME][P("pelo")] == 0
    assert state.step == GROUND and state.current_seat() == rome and state.crossing == []
    assert "move l magn etru" in legal_notations(state), "the legion may move again"


def test_poseidons_holder_who_passes_lets_the_crossing_land() -> None:
    """Ruling R56: ``pass`` keeps Poseidon and the crossing lands as usual."""
    state, rome = _rome_crossing(EGYPT)
    state.apply(rome, "move l magn pelo")
    events = state.apply(state.seat_of[EGYPT], "pass")
    assert _event(events, "moved")["end"] == "pelo"
    assert state.legions[ROME][P("pelo")] == 1 and state.triremes[ROME][P("ion")] == 1
    assert not state.god_used[POSEIDON] and state.crossing == []
    assert state.step == GROUND and state.current_seat() == rome


def test_no_one_is_asked_without_a_holder_or_a_target() -> None:
    """Ruling R56: asked only where a holder of an unused Poseidon other than the mover
    has one of the mover's carriers to sink; a move by land has none."""
    for holder, used in ((-1, 0), (ROME, 0), (EGYPT, 1)):
        state, rome = _rome_crossing(holder)
        state.god_used[POSEIDON] = used
        state.apply(rome, "move l magn pelo")
        assert state.step == GROUND and state.legions[ROME][P("pelo")] == 1
    state, rome = _rome_crossing(EGYPT)
    state.apply(rome, "move l magn etru")
    assert state.step == GROUND and state.legions[ROME][P("etru")] == 1


def test_athena_keeps_the_crossing_from_poseidon() -> None:
    """Ruling R18: Athena's holder cannot be a god's target, so his crossing is not
    asked about (ruling R56)."""
    state, rome = _rome_crossing(EGYPT)
    state.god_holder[ATHENA] = rome
    state.apply(rome, "move l magn pelo")
    assert state.step == GROUND and state.legions[ROME][P("pelo")] == 1


def test_poseidon_breaks_a_blockaded_crossing_once_greece_has_answered() -> None:
    """L154 and ruling R56: Greece answers the declared crossing first; as it is about
    to land, Poseidon's holder (here Greece itself) may still sink its carrier, and
    every declared unit stays at its start."""
    state, rome = _rome_crossing(GREECE, greek=True, legions=2)
    greece = state.seat_of[GREECE]
    state.apply(rome, "move l magn pelo")
    state.apply(rome, "move l magn pelo")
    assert state.step == "blockade" and state.current_seat() == greece
    state.apply(greece, "done")
    assert state.step == "sea_god" and state.current_seat() == greece
    assert state.blockade == [] and state.crossing == [2, 0, P("magn"), P("pelo"), P("ion")]
    assert legal_notations(state) == {"invoke poseidon ion rome", "pass"}
    state.apply(greece, "invoke poseidon ion rome")
    assert state.legions[ROME][P("magn")] == 2 and state.legions[ROME][P("pelo")] == 0
    assert state.step == GROUND and state.current_seat() == rome


def test_a_match_saved_before_poseidon_was_asked_restores_with_no_crossing() -> None:
    """A snapshot without ``crossing`` (saved before ruling R56) has none waiting."""
    state, rome = _rome_crossing(EGYPT)
    data = state.to_data()
    del data["crossing"]
    twin = state_from_data(MareState, MARENOSTRUM, data)
    assert twin == state and twin.crossing == []
    twin.apply(rome, "move l magn pelo")
    assert twin.step == "sea_god"


# --------------------------------------- Poseidon before a sea battle (R57)
def _naval_fight(poseidon: int) -> tuple[MareState, int]:
    """Rome (two triremes) is about to attack Greece's one trireme in the Ionian Sea;
    the civilization ``poseidon`` holds Poseidon unused."""
    state = _match()
    ion = P("ion")
    state.triremes[ROME][ion], state.triremes[GREECE][ion] = 2, 1
    rome = _turn(state, ROME, NAVAL)
    hold_god(state, "poseidon", state.seat_of[poseidon])
    return state, rome


def test_poseidon_sinks_the_defender_before_a_naval_battle_and_none_is_fought() -> None:
    """L82: "At any point while holding the God card, the player can activate its
    power"; notes 3.7: Poseidon destroys "an enemy trireme, even while it convoys or
    fights" (ruling R57: asked before the dice; a side left with no trireme there
    fights no battle)."""
    state, rome = _naval_fight(EGYPT)
    egypt = state.seat_of[EGYPT]
    events = state.apply(rome, "fight ion greece")
    assert "naval_battle" not in [e.kind for e in events]
    assert state.step == "naval_god" and state.current_seat() == egypt
    assert legal_notations(state) == {
        "invoke poseidon ion greece",
        "invoke poseidon ion rome",
        "pass",
    }
    assert state.describe("invoke poseidon ion greece") == (
        "Invoke Poseidon: sink a trireme of Greece in Mare Ionium before the battle"
    )
    assert state.describe("pass") == "Let the battle be fought, keeping Poseidon"
    _round_trips(state)
    events = state.apply(egypt, "invoke poseidon ion greece")
    assert [e.kind for e in events] == ["god_invoked"]
    assert state.triremes[GREECE][P("ion")] == 0 and state.triremes[ROME][P("ion")] == 2
    assert state.step == NAVAL and state.current_seat() == rome and state.fought == []


def test_poseidon_sinks_one_of_the_attackers_and_the_battle_goes_on() -> None:
    """Ruling R57: the defender holding Poseidon may strike the attacking fleet; a
    side with a trireme left still fights."""
    state, rome = _naval_fight(GREECE)
    greece = state.seat_of[GREECE]
    state.apply(rome, "fight ion greece")
    assert state.step == "naval_god" and state.current_seat() == greece
    assert legal_notations(state) == {"invoke poseidon ion rome", "pass"}
    events = state.apply(greece, "invoke poseidon ion rome")
    battle = _event(events, "naval_battle")
    assert battle["attacker"] == "rome" and len(battle["attack_dice"]) == 1
    assert state.step == NAVAL and state.current_seat() == rome


def test_poseidons_holder_who_passes_lets_the_naval_battle_be_fought() -> None:
    """Ruling R57: ``pass`` keeps Poseidon and the battle is rolled as usual."""
    state, rome = _naval_fight(EGYPT)
    state.apply(rome, "fight ion greece")
    events = state.apply(state.seat_of[EGYPT], "pass")
    battle = _event(events, "naval_battle")
    assert len(battle["attack_dice"]) == 2 and len(battle["defence_dice"]) == 1
    assert not state.god_used[POSEIDON] and state.step == NAVAL


def test_poseidon_is_not_asked_before_a_sea_battle_without_a_target() -> None:
    """Ruling R57: not the mover (he could invoke him in his naval moves), not with
    the power used, never where both sides are his own or Athena's holder's."""
    for holder, used in ((ROME, 0), (EGYPT, 1)):
        state, rome = _naval_fight(holder)
        state.god_used[POSEIDON] = used
        events = state.apply(rome, "fight ion greece")
        assert "naval_battle" in [e.kind for e in events] or state.step == "war_god"
    state, rome = _naval_fight(GREECE)
    state.god_holder[ATHENA] = rome
    events = state.apply(rome, "fight ion greece")
    assert "naval_battle" in [e.kind for e in events]


def test_athena_keeps_her_holders_fleet_from_poseidon_before_a_battle() -> None:
    """Ruling R18: Athena's holder cannot be a god's target, so only the other side
    is offered (ruling R57)."""
    state, rome = _naval_fight(EGYPT)
    state.god_holder[ATHENA] = state.seat_of[GREECE]
    state.apply(rome, "fight ion greece")
    assert legal_notations(state) == {"invoke poseidon ion rome", "pass"}


def test_poseidon_sinks_the_carrier_before_greece_attacks_and_the_crossing_fails() -> None:
    """L154: "If a Greek player destroys a transporting trireme, the invading unit is
    not lost but returns to its starting space"; Poseidon's sinking before Greece's
    attack breaks it the same way (rulings R56 and R57)."""
    state, rome = _rome_crossing(EGYPT, greek=True)
    egypt, greece = state.seat_of[EGYPT], state.seat_of[GREECE]
    state.apply(rome, "move l magn pelo")
    state.apply(greece, "blockade ion")
    assert state.step == "naval_god" and state.current_seat() == egypt
    assert legal_notations(state) == {
        "invoke poseidon ion greece",
        "invoke poseidon ion rome",
        "pass",
    }
    _round_trips(state)
    events = state.apply(egypt, "invoke poseidon ion rome")
    assert [e.kind for e in events] == ["god_invoked", "crossing_broken"]
    assert _event(events, "crossing_broken") == {
        "seat": rome,
        "sea": "ion",
        "start": "magn",
        "end": "pelo",
        "legions": 1,
        "creatures": 0,
    }
    assert state.legions[ROME][P("magn")] == 1 and state.legions[ROME][P("pelo")] == 0
    assert state.step == GROUND and state.current_seat() == rome and state.blockade == []


def test_poseidon_sinks_the_greek_ship_and_the_crossing_lands() -> None:
    """Ruling R57: Greece left with no trireme in the sea has no attack there; the
    crossing goes on (Poseidon spent, nobody is asked again)."""
    state, rome = _rome_crossing(EGYPT, greek=True)
    state.apply(rome, "move l magn pelo")
    state.apply(state.seat_of[GREECE], "blockade ion")
    events = state.apply(state.seat_of[EGYPT], "invoke poseidon ion greece")
    assert "blockade_battle" not in [e.kind for e in events]
    assert _event(events, "moved")["end"] == "pelo"
    assert state.step == GROUND and state.legions[ROME][P("pelo")] == 1


def test_the_broken_crossing_event_converts_and_reads() -> None:
    """The ``crossing_broken`` event survives the codec and reads in the text client."""
    from senet.codec.marenostrum import event_from_proto, event_to_proto
    from senet.text.marenostrum.events import describe_event
    from senet.text.marenostrum.names import Seats
    from senet.v1 import mare_nostrum_pb2 as pb

    data = {"seat": 1, "sea": "ion", "start": "magn", "end": "pelo", "legions": 2}
    data["creatures"] = 1
    message = event_to_proto(Event("crossing_broken", data))
    assert event_from_proto(message) == Event("crossing_broken", data)
    line = describe_event(message, Seats(pb.MareNostrumView()))
    assert line is not None
    assert "sinks" in line and "ion" in line and "magn -> pelo fails" in line
    assert "2 legions and a creature stay in magn" in line
