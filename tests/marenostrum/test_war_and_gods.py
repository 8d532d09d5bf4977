"""Mare Nostrum as the rule text says: war, the after-battle choice, gods and ships.

Each test pins one line (or a few) of ``mare-nostrum-mythology.txt`` (quoted in its
docstring as ``L<n>``) or a ruling of ``docs/rules/mare-nostrum.md`` built on it.
Positions are built from a seeded match and arranged by hand; decisions go through
the checked ``apply`` with notation, as a client's would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from senet.games.errors import MalformedActionError
from senet.games.interface import Event
from senet.games.marenostrum import MARENOSTRUM, MareState, gods
from senet.games.marenostrum import rules as r
from senet.games.marenostrum.board import ICONS, space_index
from senet.games.marenostrum.civilizations import EGYPT, GREECE, ROME
from senet.games.marenostrum.commodities import CARD_NAMES, card_type
from senet.games.marenostrum.constants import (
    AFTER_BATTLE,
    BUILD,
    CONSTRUCTION,
    GROUND,
    MILITARY,
    NAVAL,
    OCCUPATION,
    SPELL_POWER,
    SPELLBOUND,
)
from senet.games.marenostrum.tokens import CARAVAN, CITY, TEMPLE
from tests.marenostrum.helpers import give_tax, hold_god, legal_notations, new_mare, own

P = space_index


def _match(seats: int = 6, seed: int = 1) -> MareState:
    return new_mare(seats, seed)


def _building(state: MareState, civ: int) -> int:
    seat = state.seat_of[civ]
    state.phase, state.step, state.queue, state.actor = CONSTRUCTION, BUILD, [seat], seat
    return seat


def _converting_camp(state: MareState) -> int:
    """Egypt's legion sits on Rome's marker in Campania, next to Egypt's Magna Graecia."""
    camp = P("camp")
    state.legions[ROME][camp] = 0
    state.legions[EGYPT][camp] = 1
    state.converter[camp] = EGYPT
    state.influence[P("magn")] = EGYPT
    return camp


def _kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


# ----------------------------------------------------------- conversion (item 1)
def test_no_conversion_is_completed_in_a_province_at_war() -> None:
    """L150: the invader "MAY construct their own influence marker to replace the
    existing one, respecting normal construction rules"; L111: "Players cannot build
    in a province "at war" or under military occupation"."""
    state = _match()
    camp = _converting_camp(state)
    seat = _building(state, EGYPT)
    give_tax(state, seat, tax=3)
    assert f"convert {'camp'}" in legal_notations(state)
    state.legions[ROME][camp] = 1  # Rome attacked it and both survived: at war
    assert r.at_war(state, camp)
    assert camp not in r.convertible(state, EGYPT)
    assert "convert camp" not in legal_notations(state)


# ----------------------------------------------------- conversion lapses (R41)
def test_a_conversion_lapses_after_the_next_building_phase() -> None:
    """L150: "During the next building phase, the invading player MAY construct their
    own influence marker to replace the existing one" (ruling R41: not later)."""
    state = _match()
    camp = _converting_camp(state)
    seat = _building(state, EGYPT)
    give_tax(state, seat, tax=3)
    assert "convert camp" in legal_notations(state)
    events = state.apply(seat, "done")  # the last builder: the building is over
    assert state.converter[camp] == -1
    lapsed = [e for e in events if e.kind == "conversion_lapsed"]
    assert [e.data for e in lapsed] == [{"seat": seat, "province": "camp"}]
    assert state.legions[EGYPT][camp] == 1, "the unit on the marker stays"
    while state.step == "keep":  # ruling R48: the tax cards kept, then the war
        state.apply(state.actor, "done")
    assert state.phase == MILITARY
    _building(state, EGYPT)
    assert "convert camp" not in legal_notations(state)


def test_a_conversion_completed_in_time_does_not_lapse() -> None:
    """L150: "The province and its buildings will then be controlled by the new
    owner"."""
    state = _match()
    camp = _converting_camp(state)
    seat = _building(state, EGYPT)
    give_tax(state, seat, tax=3)
    state.apply(seat, "convert camp")
    for _ in range(3):
        state.apply(seat, "pay tax")
    assert state.influence[camp] == EGYPT
    events = state.apply(seat, "done")
    assert "conversion_lapsed" not in _kinds(events)


# ------------------------------------------------ the lone invader chooses (R40)
def _greek_turn_against_a_roman_army() -> tuple[MareState, int, int]:
    """Rome's two creatures are at war with a Greek legion in Peloponnesus; Greece is
    about to end its ground moves (its legion must fight: L130)."""
    state = _match()
    pelo = P("pelo")
    greece, rome = state.seat_of[GREECE], state.seat_of[ROME]
    state.owned[greece] = []
    state.owned[rome] = []
    state.fortresses[pelo] = 0
    state.legions[GREECE][pelo] = 1
    state.creatures[GREECE][pelo] = 0
    state.creatures[ROME][pelo] = 2
    state.phase, state.step, state.queue, state.actor = MILITARY, GROUND, [greece], greece
    return state, greece, rome


def test_a_lone_surviving_invader_chooses_at_the_end_of_the_battle() -> None:
    """L147: "Only one invading player survives: The invader chooses one of three
    options for remaining legions" (ruling R40: the invader left alone chooses at the
    end of the battle that left him alone, in whoever's turn it was fought)."""
    state, greece, rome = _greek_turn_against_a_roman_army()
    pelo = P("pelo")
    events = state.apply(greece, "done")
    assert "battle" in _kinds(events)
    assert state.legions[GREECE][pelo] == 0 and state.creatures[ROME][pelo] >= 1
    assert state.step == AFTER_BATTLE and state.current_seat() == rome
    legal = legal_notations(state)
    assert {"sack city", "occupy", "convert"} <= legal
    events = state.apply(rome, "occupy")
    assert state.occupier[pelo] == ROME
    assert [e.data for e in events if e.kind == "occupied"] == [{"seat": rome, "province": "pelo"}]
    assert state.step != AFTER_BATTLE and greece not in state.queue, "Greece's turn is over"


# --------------------------------------------------- three options only (R42)
def test_after_a_battle_there_are_three_options_and_no_fourth() -> None:
    """L147: "The invader chooses one of three options": sack, occupy, convert."""
    state, greece, _ = _greek_turn_against_a_roman_army()
    state.apply(greece, "done")
    kinds = {a.kind for a in state.legal_actions()}
    assert kinds == {"sack", "occupy", "convert"}
    with pytest.raises(MalformedActionError):
        MARENOSTRUM.parse_action("leave")


def test_an_enemy_unit_left_standing_stops_building_there() -> None:
    """L111: "Players cannot build in a province "at war" or under military
    occupation, except in their own Capital Province" (ruling R42: an enemy unit
    standing alone in the province, whatever it chose, is a military occupation)."""
    state = _match()
    camp = P("camp")
    state.legions[ROME][camp] = 0
    state.legions[EGYPT][camp] = 1  # it sacked, say: neither occupier nor converter
    assert state.occupier[camp] == -1 and state.converter[camp] == -1
    assert not state.can_place(ROME, camp)
    seat = _building(state, ROME)
    give_tax(state, seat, tax=3)
    assert not any(a.endswith(" camp") for a in legal_notations(state) if a.startswith("build"))
    state.legions[EGYPT][P("lati")] = 1
    assert state.can_place(ROME, P("lati")), "the capital is exempt"
    state.legions[EGYPT][camp] = 0
    assert state.can_place(ROME, camp)


# ------------------------------------------------------ ships just built (R43)
def test_a_trireme_just_built_moves_to_an_adjacent_sea() -> None:
    """L124: "Triremes just constructed move to an adjacent sea space"; L110: "They
    move to an adjacent sea space during the Military Phase" (ruling R43: the launch
    is not optional; the naval moves end only once it is made)."""
    from senet.games.marenostrum.constants import NAVAL

    state = _match()
    rome = state.seat_of[ROME]
    lati, tyr = P("lati"), P("tyr")
    state.triremes[ROME][lati] = 1
    state.phase, state.step, state.queue, state.actor = MILITARY, NAVAL, [rome], rome
    legal = legal_notations(state)
    assert "sail lati tyr" in legal and "done" not in legal
    assert (
        state.describe("sail lati tyr") == "Launch the trireme built in Latium into Mare Tyrrhenum"
    )
    state.apply(rome, "sail lati tyr")
    assert state.triremes[ROME][lati] == 0 and state.triremes[ROME][tyr] >= 1
    assert "done" in legal_notations(state)


# ---------------------------------------------------------------- gods (R18)
_hold = hold_god


def _battle(events: list[Event]) -> Mapping[str, Any]:
    return next(e.data for e in events if e.kind == "battle")


def test_mars_is_invoked_after_the_dice_at_his_holders_choice() -> None:
    """L82: "At any point while holding the God card, the player can activate its
    power" (ruling R18: once the dice of a battle he fights are seen, Mars's holder,
    defender too, invokes him or keeps him for a later battle)."""
    state, greece, rome = _greek_turn_against_a_roman_army()
    pelo = P("pelo")
    state.legions[GREECE][pelo] = 3  # Rome's two creatures (12) destroy only two
    _hold(state, "mars", rome)
    events = state.apply(greece, "done")
    assert "battle" not in _kinds(events), "the losses wait on Mars's holder"
    assert state.step == "war_god" and state.current_seat() == rome
    (attack, *attack_dice), (defence, *defence_dice) = state.rolled
    assert len(attack_dice) == 3 and defence == 12 and defence_dice == []
    assert legal_notations(state) == {"invoke mars pelo", "pass"}
    assert state.describe("invoke mars pelo") == (
        f"Invoke Mars: +6 to your 12 against {attack} in this battle (Peloponnesus)"
    )
    assert state.describe("pass") == "Keep Mars for a later battle"
    view = state.view(greece)["state"]
    assert view["rolled"] == state.rolled, "everyone sees the dice"
    twin = state.clone()
    kept = _battle(twin.apply(rome, "pass"))
    assert kept["defence"] == 12 and kept["defender_losses"] == min(attack // 5, 2)
    assert kept["attacker_losses"] == 2 and twin.rolled == [] and not twin.god_used[5]
    events = state.apply(rome, "invoke mars pelo")
    assert "god_invoked" in _kinds(events)
    battle = _battle(events)
    assert battle["defence"] == 18 and battle["attacker_losses"] == 3 and state.god_used[5]
    assert battle["attack"] == attack and battle["attack_dice"] == attack_dice
    assert state.legions[GREECE][pelo] == 0


def test_mars_is_not_asked_where_his_bonus_changes_nothing() -> None:
    """Ruling R18: the dice seen, Mars's holder is asked only where +6 would destroy
    one more unit of the other side (here Rome's 12 already destroys Greece's one
    legion)."""
    state, greece, rome = _greek_turn_against_a_roman_army()
    _hold(state, "mars", rome)
    events = state.apply(greece, "done")
    assert state.step != "war_god" and "battle" in _kinds(events)
    assert not state.god_used[5]


def test_mars_is_not_asked_about_battles_he_cannot_join() -> None:
    """L82: the power is the holder's; a battle between two others is not his."""
    state, greece, _ = _greek_turn_against_a_roman_army()
    state.legions[GREECE][P("pelo")] = 3
    _hold(state, "mars", state.seat_of[EGYPT])
    state.apply(greece, "done")
    assert state.step != "war_god"


def _clear(state: MareState, province: int) -> None:
    """No unit and no fortress in ``province``."""
    for civ in range(len(state.legions)):
        state.legions[civ][province] = state.creatures[civ][province] = 0
    state.fortresses[province] = 0


def test_circe_casts_her_spell_once_a_military_phase_at_her_owners_choice() -> None:
    """Notes 5.7: "Circe once per military phase one enemy legion in your battle does
    not roll" (ruling R23: before each ground battle she fights, defending too, her
    owner casts the spell on it or keeps it for a later battle of the phase)."""
    state, greece, rome = _greek_turn_against_a_roman_army()
    mace = P("mace")
    _clear(state, mace)
    state.legions[GREECE][mace] = 1
    state.creatures[ROME][mace] = 2
    own(state, rome, "circe")
    state.apply(greece, "done")
    assert state.step == "spell" and state.current_seat() == rome
    assert legal_notations(state) == {"enchant mace", "pass"}  # Macedonia's battle comes first
    assert state.describe("pass") == "Keep Circe's spell for a later battle this phase"
    kept = _battle(state.apply(rome, "pass"))
    assert kept["province"] == "mace" and len(kept["attack_dice"]) == 1
    # The next battle of the phase: the spell is still hers to cast.
    assert state.step == "spell" and legal_notations(state) == {"enchant pelo", "pass"}
    assert state.describe("enchant pelo") == (
        "Circe: a legion of Greece does not roll in this battle (Peloponnesus)"
    )
    events = state.apply(rome, "enchant pelo")
    cast = _battle(events)
    assert cast["province"] == "pelo" and cast["attack"] == 0 and cast["attack_dice"] == []
    assert [e.data.get("card") for e in events if e.kind == "card_power"] == ["circe"]
    assert state.powers_used[rome] & SPELL_POWER and not state.powers_used[rome] & SPELLBOUND
    # Once a military phase: not again in this one, her owner's own turn included.
    state.legions[GREECE][mace] = 1
    assert r.spell_caster(state, GREECE, ROME, mace) == -1
    state.queue, state.actor = [rome], rome
    state._begin_player()
    assert state.powers_used[rome] & SPELL_POWER
    # The next military phase gives it back.
    state._start_phase(MILITARY)
    state.legions[GREECE][mace] = 1
    assert r.spell_caster(state, GREECE, ROME, mace) == rome


def test_circe_is_asked_only_where_a_legion_of_the_other_side_would_roll() -> None:
    """Ruling R23: the spell keeps a legion from rolling; against creatures and
    fortresses alone (L138-139: they "automatically 'roll' a 6") it does nothing."""
    state, greece, rome = _greek_turn_against_a_roman_army()
    pelo = P("pelo")
    state.legions[GREECE][pelo], state.creatures[GREECE][pelo] = 0, 1
    own(state, rome, "circe")
    state.apply(greece, "done")
    assert state.step != "spell" and not state.powers_used[rome] & SPELL_POWER


def test_circes_spell_is_cast_before_the_dice_and_mars_invoked_after() -> None:
    """Rulings R23 and R18: Circe's owner decides before the dice (her spell keeps a
    legion from rolling), Mars's holder once they are seen."""
    state, greece, rome = _greek_turn_against_a_roman_army()
    pelo = P("pelo")
    state.creatures[ROME][pelo], state.legions[ROME][pelo] = 0, 2
    state.legions[GREECE][pelo] = 3
    own(state, greece, "circe")
    _hold(state, "mars", rome)
    state.apply(greece, "done")
    assert state.step == "spell" and state.current_seat() == greece
    assert state.rolled == []
    assert state.describe("enchant pelo") == (
        "Circe: a legion of Rome does not roll in this battle (Peloponnesus)"
    )
    state.apply(greece, "enchant pelo")
    assert state.step == "war_god" and state.current_seat() == rome
    assert len(state.rolled[1]) == 2, "one Roman die: the spell is on the battle"
    battle = _battle(state.apply(rome, "invoke mars pelo"))
    assert len(battle["defence_dice"]) == 1 and battle["defence"] == battle["defence_dice"][0] + 6
    assert len(battle["attack_dice"]) == 3


def _take_hermes(state: MareState, seat: int) -> list[str]:
    """Invoke Hermes for ``seat`` and pick his cards (the first kind offered each
    time); return the labels of the picks."""
    state.apply(seat, "invoke hermes")
    labels = []
    while state.step == "gift":
        pick = sorted(legal_notations(state))[0]
        labels.append(state.describe(pick))
        state.apply(seat, pick)
    return labels


def test_hermes_and_isis_are_invoked_in_the_holders_construction_turn() -> None:
    """L82: "At any point while holding the God card, the player can activate its
    power. The God's effects are applied immediately" (ruling R18: Hermes and Isis
    are offered where cards are spent, in the holder's construction turn)."""
    state = _match()
    seat = _building(state, ROME)
    _hold(state, "hermes", seat)
    _hold(state, "isis", seat)
    legal = legal_notations(state)
    assert {"invoke hermes", "invoke isis"} <= legal
    before = sum(state.hands[seat])
    _take_hermes(state, seat)
    assert sum(state.hands[seat]) == before + 3
    assert "invoke hermes" not in legal_notations(state) and state.step == BUILD
    others = [sum(h) for h in state.hands]
    state.apply(seat, "invoke isis")
    assert [sum(h) for h in state.hands] == [n + 1 for n in others]
    with pytest.raises(MalformedActionError):
        MARENOSTRUM.parse_action("invoke athena")


def test_hermes_holder_picks_his_three_cards_among_the_kinds_he_produces() -> None:
    """Notes 3.7: Hermes brings "3 extra resource cards among the types you produce"
    (rulings R18 and R55): the holder picks each card among the kinds his cities and
    caravans produce that the bank holds; with one such kind left the rest is of it,
    with none of them left he picks any kind the bank holds."""
    state = _match()
    seat = _building(state, ROME)
    _hold(state, "hermes", seat)
    income = r.revenue(state, seat)[1]
    produced = {CARD_NAMES[c] for c in range(len(income)) if income[c]}
    assert "tax" in produced and len(produced) >= 3
    state.apply(seat, "invoke hermes")
    assert state.step == "gift" and state.current_seat() == seat
    assert legal_notations(state) == {f"gift {kind}" for kind in produced}
    first = sorted(produced)[0]
    label = state.describe(f"gift {first}")
    assert label.startswith("Hermes: take ") and label.endswith(
        " card from the bank (2 more to take)"
    )
    assert first in label
    for kind in produced - {first}:
        state.bank[card_type(kind)] = 0
    hand = state.hands[seat][card_type(first)]
    state.apply(seat, f"gift {first}")
    assert state.step == BUILD, "one kind left: the other two are of it"
    assert state.hands[seat][card_type(first)] == hand + 3


def test_hermes_brings_tax_cards_to_a_holder_whose_cities_alone_produce_r55() -> None:
    """L70: resource cards are "taxes and commodities", so a holder whose cities
    alone produce takes tax cards (R55)."""
    state = _match()
    seat = _building(state, EGYPT)
    for province, caravans in enumerate(state.caravans):
        if caravans and state.influence[province] == EGYPT:
            state.caravans[province] = 0
    assert [c for c, n in enumerate(r.revenue(state, seat)[1]) if n] == [card_type("tax")]
    _hold(state, "hermes", seat)
    tax = state.hands[seat][card_type("tax")]
    state.apply(seat, "invoke hermes")
    assert state.step == BUILD, "one kind to take: not asked"
    assert state.hands[seat][card_type("tax")] == tax + 3


def test_every_god_with_a_power_to_invoke_is_offered_in_both_turns_of_his_holder() -> None:
    """L82: "At any point while holding the God card, the player can activate its
    power." The card stays "until the next Offering Phase", so the holder's naval moves
    of the military phase are his turn too (ruling R18): Hermes's cards drawn there are
    kept (commodities go back only at the end of the construction phase), Baal and
    Vulcan strike what the players after him built, and Poseidon may sink a trireme in
    the construction turn, before a fleet that moves ahead of his in the military
    phase sails."""
    state = _match()
    rome = state.seat_of[ROME]
    for god in ("hermes", "isis", "baal", "vulcan", "poseidon"):
        _hold(state, god, rome)
    twin = state.clone()
    _building(twin, ROME)
    building = legal_notations(twin)
    assert {"invoke hermes", "invoke isis", "invoke poseidon aeg greece"} <= building
    assert {"invoke vulcan pelo", "invoke baal atti oil"} <= building
    state.phase, state.step, state.queue, state.actor = MILITARY, NAVAL, [rome], rome
    naval = legal_notations(state)
    assert {"invoke hermes", "invoke isis", "invoke poseidon aeg greece"} <= naval
    assert {"invoke vulcan pelo", "invoke baal atti oil"} <= naval
    before = sum(state.hands[rome])
    _take_hermes(state, rome)
    assert sum(state.hands[rome]) == before + 3 and state.step == NAVAL
    state.apply(rome, "invoke vulcan pelo")
    assert state.cities[P("pelo")] == 0 and state.step == NAVAL


def test_held_gods_are_offered_before_the_trade_in_seat_order_from_the_director() -> None:
    """L82: "At any point while holding the God card"; the card stays "until the next
    Offering Phase", so the commerce phase is the holder's last moment (ruling R18).
    Once the income is in, before the Director sizes the trade, each holder of a god
    with a power to use decides, in seat order from the Director: Hermes's cards join
    the trade. One who invokes is asked again while he holds another god."""
    from senet.games.marenostrum.constants import COMMERCE_ROLE, TRADE_GOD, TRADE_SIZE

    state = _match()
    director = state.roles[COMMERCE_ROLE]
    first, second = director, (director + 2) % state.seat_count
    _hold(state, "baal", second)
    _hold(state, "hermes", first)
    _hold(state, "isis", first)
    state._start_commerce()
    assert state.step == TRADE_GOD and state.current_seat() == first
    assert {"invoke hermes", "invoke isis", "pass"} <= legal_notations(state)
    assert state.legal_actions_for(second) == [], "one holder at a time"
    before = sum(state.hands[first])
    _take_hermes(state, first)
    assert sum(state.hands[first]) == before + 3
    assert state.step == TRADE_GOD and state.current_seat() == first, "Isis is still held"
    assert "invoke hermes" not in legal_notations(state)
    state.apply(first, "pass")
    assert state.current_seat() == second
    baal = sorted(n for n in legal_notations(state) if n.startswith("invoke baal"))
    assert baal and "pass" in legal_notations(state)
    state.apply(second, "pass")
    assert state.step == TRADE_SIZE and state.current_seat() == director


def test_no_one_is_asked_before_the_trade_without_a_god_to_use() -> None:
    """Ruling R18: a used god, or one whose power has nothing to act on, asks nothing."""
    from senet.games.marenostrum.constants import COMMERCE_ROLE, TRADE_SIZE

    state = _match()
    director = state.roles[COMMERCE_ROLE]
    _hold(state, "hermes", director)
    state.god_used[gods.HERMES] = 1
    _hold(state, "mars", (director + 1) % state.seat_count)
    state._start_commerce()
    assert state.step == TRADE_SIZE and state.current_seat() == director


# ------------------------------------------------ the blockade's chain (R19, R34)
def _egypt_sailing_for_peloponnesus(greek_in_crt: int = 1) -> tuple[MareState, int, int]:
    """Egypt, in its ground moves, with a legion in Cyrenaica and triremes in Mare
    Creticum, Libycum and Ionium; Greece has a trireme in Mare Creticum."""
    state = _match()
    egypt, greece = state.seat_of[EGYPT], state.seat_of[GREECE]
    for row in (state.triremes[EGYPT], state.triremes[GREECE]):
        row[:] = [0] * len(row)
    for sea in ("crt", "lib", "ion"):
        state.triremes[EGYPT][P(sea)] = 1
    state.triremes[GREECE][P("crt")] = greek_in_crt
    state.legions[EGYPT][P("cyre")] = 1
    state.phase, state.step, state.queue, state.actor = MILITARY, GROUND, [egypt], egypt
    return state, egypt, greece


def test_the_attacker_chooses_the_chain_among_his_triremes() -> None:
    """L154: "the attacker must declare they are attempting to break the Greek
    blockade and specify units and triremes" (ruling R19: he chooses the chain, sea
    by sea, where the choice changes which Greek ships may attack it)."""
    state, egypt, greece = _egypt_sailing_for_peloponnesus()
    state.apply(egypt, "move l cyre pelo")
    assert state.step == "declare" and state.current_seat() == egypt
    assert legal_notations(state) == {"via crt", "via lib"}
    assert state.describe("via lib") == "Carry the legion by Mare Libycum"
    events = state.apply(egypt, "via lib")
    declared = next(e.data for e in events if e.kind == "blockade_declared")
    assert declared["chain"] == ["lib", "ion"]
    assert state.step == "ground" and state.legions[EGYPT][P("pelo")] == 1, (
        "no Greek trireme on that chain: the crossing goes through"
    )
    state, egypt, greece = _egypt_sailing_for_peloponnesus()
    state.apply(egypt, "move l cyre pelo")
    state.apply(egypt, "via crt")
    assert state.step == "blockade" and legal_notations(state, greece) == {"blockade crt", "done"}


def test_the_greek_player_attacks_only_the_carrying_trireme() -> None:
    """L154: "This attack is only against transporting triremes" (ruling R19: one
    trireme of the chain per sea carries; the mover's others there do not fight)."""
    state, egypt, greece = _egypt_sailing_for_peloponnesus(greek_in_crt=3)
    crt = P("crt")
    state.triremes[EGYPT][crt] = 3
    state.apply(egypt, "move l cyre pelo")
    state.apply(egypt, "via crt")
    events = state.apply(greece, "blockade crt")
    fight = next(e.data for e in events if e.kind == "blockade_battle")
    assert len(fight["invader_dice"]) == 1 and fight["invader_losses"] <= 1
    assert state.triremes[EGYPT][crt] >= 2


# ------------------------------------------------- occupation is placed (R10)
def _roman_victory_in_pelo(legions: int) -> tuple[MareState, int, int]:
    """Rome's ``legions`` stand alone in Greek Peloponnesus after the battle, in
    Greece's turn, and Rome chooses what follows; the province has its city (Sparta),
    a caravan on its first icon and a temple."""
    state = _match()
    pelo = P("pelo")
    greece, rome = state.seat_of[GREECE], state.seat_of[ROME]
    state.fortresses[pelo] = 0
    state.legions[GREECE][pelo] = state.creatures[GREECE][pelo] = 0
    state.legions[ROME][pelo] = legions
    state.caravans[pelo], state.temples[pelo] = 1, 1
    state.phase, state.queue, state.pending = MILITARY, [greece], []
    state.step, state.actor, state.after_space = AFTER_BATTLE, rome, pelo
    return state, rome, pelo


def test_the_occupier_places_his_units_and_may_take_the_city_and_its_temple() -> None:
    """L149: "Occupy the Province: Place a single Legion or Creature Token on each City
    or Caravan to claim income. Place a single Legion or Creature Token on each Market
    or Temple to double income" (ruling R10: the occupier chooses where each unit
    stands; two legions may hold the city and the temple, leaving the caravan)."""
    state, rome, pelo = _roman_victory_in_pelo(legions=2)
    icon = CARD_NAMES[ICONS[pelo][0]]
    state.apply(rome, "occupy")
    assert state.step == OCCUPATION and state.current_seat() == rome
    assert legal_notations(state) == {"hold city", f"hold caravan {icon}"}
    assert state.describe("hold city") == "Put a legion on the city of Peloponnesus"
    state.apply(rome, "hold city")
    assert legal_notations(state) == {f"hold caravan {icon}", "hold temple"}
    assert state.describe("hold temple") == "Put the legion on the temple of Peloponnesus"
    state.apply(rome, "hold temple")
    assert state.step != OCCUPATION and state.occupier[pelo] == ROME
    assert r.claims(state, pelo) == (1, 0, 1, 0)
    view = state.view(rome)["state"]["held"][pelo]
    assert view[CITY] == 1 and view[TEMPLE] == 1 and view[CARAVAN] == 0
    greece = state.seat_of[GREECE]
    assert r.revenue(state, greece)[1][ICONS[pelo][0]] >= 1, "the caravan stays Greek"
    twin, _, _ = _roman_victory_in_pelo(legions=2)
    twin.apply(rome, "occupy")
    twin.apply(rome, f"hold caravan {icon}")  # the second legion can only go on the temple
    assert twin.step != OCCUPATION and r.claims(twin, pelo) == (0, 1, 1, 0)


def test_the_occupier_is_not_asked_where_there_is_one_way_to_stand() -> None:
    """L149: a unit "on each City or Caravan ... on each Market or Temple": with a unit
    for every building, or only cities free, the placing is no choice (ruling R10)."""
    state, rome, pelo = _roman_victory_in_pelo(legions=3)
    state.apply(rome, "occupy")
    assert state.step != OCCUPATION and r.claims(state, pelo) == (1, 1, 1, 0)
    state, rome, pelo = _roman_victory_in_pelo(legions=1)
    state.caravans[pelo] = state.temples[pelo] = 0
    state.cities[pelo] = 2
    state.apply(rome, "occupy")
    assert state.step != OCCUPATION and r.claims(state, pelo) == (1, 0, 0, 0)


def test_an_occupation_that_ends_frees_the_buildings() -> None:
    """L149: "Control reverts to the legitimate owner when invader units leave"."""
    state, rome, pelo = _roman_victory_in_pelo(legions=3)
    state.apply(rome, "occupy")
    state.legions[ROME][pelo] = 0
    r.refresh_control(state)
    assert state.occupier[pelo] == -1 and not any(state.held[pelo])


def test_a_match_saved_before_placements_were_kept_reads_them_in_placing_order() -> None:
    """A snapshot without ``held`` (saved before ruling R10 let the occupier choose)
    still loads: its occupiers stand on cities, then caravans, then the temple and
    the market, as they did when it was saved, so a match in flight keeps its
    incomes across the upgrade."""
    state, rome, pelo = _roman_victory_in_pelo(legions=2)
    state.apply(rome, "occupy")
    state.apply(rome, "hold city")
    state.apply(rome, "hold temple")
    data = state.to_data()
    del data["held"]
    older = type(state).from_data(state.game, data)
    assert r.claims(older, pelo) == (1, 1, 0, 0)
    assert older.legal_actions() == state.legal_actions()


# ------------------------------------------------------------ Ishtar (R18)
def test_ishtar_is_invoked_at_the_role_step_at_her_holders_choice() -> None:
    """L82: "At any point while holding the God card, the player can activate its
    power" (ruling R18: Ishtar's +2 to one role count, offered at the role step for
    the roles whose outcome it changes, or kept unused)."""
    state = _match()  # seed 1: role counts per seat; seat 5 has 3, 0, 1, 4
    seat = 5
    _hold(state, "ishtar", seat)
    state._start_turn()
    assert state.step == "role_god" and state.current_seat() == seat
    # Political: 1 + 2 ties its holder's 3, and the holder keeps a tied role.
    assert legal_notations(state) == {
        "invoke ishtar commerce",
        "invoke ishtar priest",
        "invoke ishtar military",
        "pass",
    }
    assert state.describe("invoke ishtar military") == (
        "Invoke Ishtar: +2 to your count for Military Leader"
    )
    assert state.describe("pass") == "Leave Ishtar's power unused"
    twin = state.clone()
    twin.apply(seat, "pass")
    assert twin.roles[3] != seat
    events = state.apply(seat, "invoke ishtar military")
    assert "god_invoked" in _kinds(events) and state.roles[3] == seat
    assert state.step != "role_god"


def test_ishtar_is_not_asked_where_her_bonus_changes_nothing() -> None:
    """L82: the power is the holder's to use where it applies; a +2 that moves no role
    is not offered (ruling R18)."""
    state = _match()
    _hold(state, "ishtar", 0)  # seat 0 holds military with 5 already
    options = {a.notation() for a in gods.ishtar_options(state, 0)}
    assert "invoke ishtar military" not in options
    state.god_used[gods.ISHTAR] = 1
    state._start_turn()
    assert state.step != "role_god"


def test_god_labels_say_what_the_power_does() -> None:
    """The clients show each ``invoke`` with what it does (issue 33)."""
    state = _match()
    assert state.describe("invoke poseidon tyr carthage") == (
        "Invoke Poseidon: sink a trireme of Carthage in Mare Tyrrhenum"
    )
    assert state.describe("invoke vulcan etru") == "Invoke Vulcan: destroy a city of Etruria"
