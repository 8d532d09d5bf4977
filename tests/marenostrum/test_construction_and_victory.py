"""Mare Nostrum's construction phase and the win, as the rule text says.

Each test pins a line of ``mare-nostrum-mythology.txt`` (quoted as ``L<n>``) or a
ruling of ``docs/rules/mare-nostrum.md`` built on it. Positions are built from a
seeded match and arranged by hand; decisions go through the checked ``apply`` with
notation, as a client's would.
"""

from __future__ import annotations

from senet.games.marenostrum import MARENOSTRUM, MareState
from senet.games.marenostrum import rules as r
from senet.games.marenostrum.board import space_index
from senet.games.marenostrum.cards import OWNABLE_IDS
from senet.games.marenostrum.civilizations import EGYPT, GREECE, ROME
from senet.games.marenostrum.commodities import CARD_TYPES
from senet.games.marenostrum.constants import BUILD, CONSTRUCTION, MILITARY
from tests.marenostrum.helpers import give_tax

P = space_index


def _match(seats: int = 6, seed: int = 1, **options: object) -> MareState:
    state = MARENOSTRUM.new_match(seats, options, seed)
    assert isinstance(state, MareState)
    return state


def _legal(state: MareState) -> set[str]:
    return {a.notation() for a in state.legal_actions()}


def _building(state: MareState, civ: int) -> int:
    """``civ``'s seat begins its construction turn, the last of the phase."""
    seat = state.seat_of[civ]
    assert seat >= 0, "a civilization a player plays"
    state.phase, state.queue = CONSTRUCTION, [seat]
    state._begin_player()
    assert state.step == BUILD and state.current_seat() == seat
    return seat


def _pay_all(state: MareState, seat: int) -> None:
    while state.step == "pay":
        state.apply(seat, state.legal_actions()[0])


# ------------------------------------------------------------------ L112
def test_a_hero_bought_in_construction_gives_its_free_build_at_once() -> None:
    """L112: "Advantages from a Hero or Wonder are conferred immediately upon
    purchase." Spartacus (a free legion each construction phase) bought in his
    owner's construction turn gives that turn's free legion."""
    state = _match()
    seat = _building(state, ROME)
    spartacus = OWNABLE_IDS.index("spartacus")
    if spartacus not in state.available:
        state.available.append(spartacus)
    give_tax(state, seat, 9)
    state.apply(seat, "buy spartacus")
    _pay_all(state, seat)
    assert spartacus in state.owned[seat] and sum(state.hands[seat]) == 0
    assert "build legion lati" in _legal(state), "the free legion, with an empty hand"
    before = state.legions[ROME][P("lati")]
    state.apply(seat, "build legion lati")
    assert state.step == BUILD and state.legions[ROME][P("lati")] == before + 1
    assert "build legion lati" not in _legal(state), "one free legion a phase"


# ------------------------------------------------------------------ L111
def test_no_influence_marker_where_another_civilization_stands() -> None:
    """L111: "Players cannot build in a province "at war" or under military
    occupation"; placing an influence marker is building (L108, L150: "construct
    their own influence marker"). Ruling R47: a free province where another
    civilization's legions or creatures stand takes no marker of anyone else."""
    state = _match()
    seat = _building(state, ROME)
    give_tax(state, seat, 3)
    gcis = P("gcis")
    assert "build influence gcis" in _legal(state)
    state.legions[EGYPT][gcis] = 1
    state.legions[GREECE][gcis] = 1
    assert r.at_war(state, gcis)
    assert "build influence gcis" not in _legal(state), "at war"
    state.legions[GREECE][gcis] = 0
    assert "build influence gcis" not in _legal(state), "an enemy legion holds it"
    state.legions[EGYPT][gcis] = 0
    state.creatures[EGYPT][gcis] = 1
    assert "build influence gcis" not in _legal(state), "an enemy creature holds it"
    state.creatures[EGYPT][gcis] = 0
    state.legions[ROME][gcis] = 1
    assert "build influence gcis" in _legal(state), "his own legion does not stop him"


# ------------------------------------------------------------------ L95
def test_players_choose_how_many_tax_cards_to_keep() -> None:
    """L95: "All Commodity Cards not used to make sets must be discarded at the end
    of the Construction Phase. Players may keep two Tax Cards for subsequent turns.
    Cashed in and discarded Resource Cards are returned to the bank." Ruling R48:
    the commodities and the tax cards over the limit go back by themselves; then
    each player holding tax cards, in seat order, gives back what he will not keep
    (``pay tax``) and keeps the rest (``done``)."""
    state = _match(3)
    for seat in range(3):
        give_tax(state, seat, 0)
    state.hands[0] = [4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    state.hands[2] = [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    state.bank[0] -= 5
    state.bank[1] -= 1
    state.bank[3] -= 1
    bank = list(state.bank)
    seat = _building(state, state.civ_of[1])
    state.apply(seat, "done")  # the last builder: the phase ends
    assert state.step == "keep" and state.current_seat() == 0
    assert state.hands[0] == [2] + [0] * (CARD_TYPES - 1), "commodities and 2 tax back"
    assert state.hands[2] == [1] + [0] * (CARD_TYPES - 1)
    assert _legal(state) == {"pay tax", "done"}
    state.apply(0, "pay tax")
    assert state.current_seat() == 0 and state.hands[0][0] == 1, "he may give more"
    state.apply(0, "done")
    assert state.current_seat() == 2, "seat 1 holds no tax card: not asked"
    state.apply(2, "pay tax")  # his last tax card: nothing left to choose
    assert state.phase != CONSTRUCTION and state.step != "keep"
    assert [h[0] for h in state.hands] == [1, 0, 0]
    assert state.bank[0] == bank[0] + 4 and state.bank[1] == bank[1] + 1
    assert state.bank[3] == bank[3] + 1, "every card given back is in the bank"


# ------------------------------------------------------------------ L130
def test_a_lone_fortress_does_not_attack_in_its_owners_turn() -> None:
    """L130: "Legions and Creatures MUST fight when in a space occupied by opposing
    units (Legions, Creatures, or Fortresses)"; L138: fortresses "cannot move". A
    fortress is fought, it does not attack (ruling R49): in its owner's turn, a
    province at war where he has only a fortress sees no battle; in the invader's
    turn, the invader's legions fight it."""
    state = _match()
    rome, egypt = state.seat_of[ROME], state.seat_of[EGYPT]
    etru = P("etru")
    state.legions[ROME][etru] = 0
    state.fortresses[etru] = 1
    state.legions[EGYPT][etru] = 2
    assert r.at_war(state, etru)
    state.phase, state.queue = MILITARY, [rome, egypt]
    state._begin_player()
    state.apply(rome, "done")  # naval moves
    events = state.apply(rome, "done")  # ground moves: no battle
    assert "battle" not in [e.kind for e in events]
    assert state.fortresses[etru] == 1 and state.legions[EGYPT][etru] == 2
    assert state.current_seat() == egypt
    state.apply(egypt, "done")
    events = state.apply(egypt, "done")
    assert [e.data["province"] for e in events if e.kind == "battle"] == ["etru"]


# ------------------------------------------------------------------ L5
def test_the_fourth_hero_or_the_pyramids_win_at_the_purchase() -> None:
    """L5: "The winner is the first player to either build the Pyramids, or to own 4
    Heroes and/or Wonders"; L102: "12 Cards: The Pyramids (instant victory)". The
    match ends at the purchase, with players still to build. Ruling R50: the
    civilization hero each player holds from the start (L19) is one of the four."""
    state = _match()
    rome, egypt = state.seat_of[ROME], state.seat_of[EGYPT]
    heroes = [c for c in state.available if OWNABLE_IDS[c] not in ("spartacus",)][:3]
    state.owned[rome] = sorted([ROME, *heroes[:2]])  # Caesar and two more
    _building(state, ROME)
    state.queue = [rome, egypt]
    give_tax(state, rome, 9)
    state.apply(rome, f"buy {OWNABLE_IDS[heroes[2]]}")
    _pay_all(state, rome)
    assert state.is_over() and state.winner == rome and state.ranking()[rome] == 1

    for long_game, cost in ((False, 12), (True, 13)):
        state = _match(long_game=long_game)
        rome = state.seat_of[ROME]
        _building(state, ROME)
        give_tax(state, rome, cost - 1)
        assert "buy pyramids" not in _legal(state)
        give_tax(state, rome, cost)
        state.apply(rome, "buy pyramids")
        _pay_all(state, rome)
        assert state.is_over() and state.winner == rome


# ------------------------------------------------------------------ L107
def test_influence_goes_next_to_the_empire_by_a_border_or_a_chain_of_triremes() -> None:
    """L107: "Influence markers can only be placed in a province adjacent to a
    province already controlled at the beginning of the turn"; ruling R51: adjacent
    as for a move (L129: "through a shared border or a chain of Triremes"), from a
    province held since the turn began and still held."""
    state = _match()
    tyr = P("tyr")
    assert state.triremes[ROME][tyr] == 1
    assert {P("sici"), P("sard")} <= set(r.influence_targets(state, ROME)), "by sea"
    state.triremes[ROME][tyr] = 0
    targets = set(r.influence_targets(state, ROME))
    assert P("sici") not in targets and P("sard") not in targets
    assert P("magn") in targets, "by a border"
    state.influence[P("camp")] = EGYPT  # both neighbours lost during the phase
    state.influence[P("etru")] = EGYPT
    assert P("magn") not in r.influence_targets(state, ROME)


# ------------------------------------------------------------------ R60
def test_r60_a_hero_the_free_setup_left_unbought_is_bought_in_construction() -> None:
    """Ruling R60. L26: the free set-up spends its points on "...and/or their
    Civilization Specific Hero (but not General Heroes or Wonders)"; L86: in
    construction players "cash in one or more Sets of Resource Cards to purchase
    Heroes"; L101: "9 Cards: Heroes and Wonders". Only L14's eight cards "will not be
    used in the game", so a civilization hero left unbought in the set-up is still
    its civilization's to buy, at a hero's price, and by nobody else."""
    state = _match(6, seed=3, free_setup=True)
    while state.phase != CONSTRUCTION or state.step != BUILD:
        seat = state.current_seat()
        assert seat is not None
        legal = state.legal_actions()
        # Every set-up round spends its points on anything but the hero.
        unbought = [a for a in legal if a.kind != "buy"] or legal
        state.apply(seat, unbought[-1])
        if state.phase == CONSTRUCTION:
            break
    rome, egypt = state.seat_of[ROME], state.seat_of[EGYPT]
    assert ROME not in state.owned[rome] and EGYPT not in state.owned[egypt]
    _building(state, ROME)
    give_tax(state, rome, 8)
    assert "buy caesar" not in _legal(state)
    give_tax(state, rome, 9)
    assert "buy caesar" in _legal(state) and "buy cleopatra" not in _legal(state)
    state.apply(rome, "buy caesar")
    _pay_all(state, rome)
    assert ROME in state.owned[rome] and "buy caesar" not in _legal(state)
    # The predetermined set-up hands every player their hero: nothing to buy again.
    dealt = _match(6, seed=3)
    _building(dealt, ROME)
    give_tax(dealt, dealt.seat_of[ROME], 9)
    assert "buy caesar" not in _legal(dealt)
