"""Mare Nostrum construction and economy rulings (R6, R37, R51, R53, R54).

Each test quotes the line of ``mare-nostrum-mythology.txt`` it pins (L = line number)
and names the ruling of ``docs/rules/mare-nostrum.md`` it rests on. Positions are
built from a seeded match and arranged by hand; decisions go through the checked
``apply`` with notation, as a client's would.
"""

from __future__ import annotations

from senet.games import Rng
from senet.games.interface import Event
from senet.games.marenostrum import MareState, occupation
from senet.games.marenostrum import rules as r
from senet.games.marenostrum.board import LAND_NEIGHBOURS, SPACE_IDS, space_index
from senet.games.marenostrum.civilizations import BABYLON, CARTHAGE, EGYPT, ROME
from senet.games.marenostrum.commodities import TAX
from senet.games.marenostrum.constants import (
    COMMERCE,
    COMMERCE_ROLE,
    CONSTRUCTION,
    MILITARY_ROLE,
    NOBODY,
    POLITICAL_ROLE,
    PRIEST_ROLE,
    SETUP_BUILD,
    SETUP_CAPITAL,
)
from senet.games.marenostrum.tokens import CARAVAN, CITY, HERO_COST, ITEM_COST, ITEMS, TEMPLE
from tests.marenostrum.helpers import give_tax, legal_notations, new_mare, own

P = space_index


_match = new_mare


def _construction_turn(state: MareState, civ: int) -> int:
    """``civ``'s player begins his construction turn (its free builds granted)."""
    seat = state.seat_of[civ]
    state.phase, state.queue = CONSTRUCTION, [seat]
    state._begin_player()
    return seat


# ------------------------------------------------------- Statue of Zeus (R53)
def test_r53_statue_of_zeus_lifts_the_temple_market_and_fortress_limits() -> None:
    """Ruling R53. L109: "Players cannot build more than one city per site, one caravan
    per resource, or more than one temple, market, or fortress per province (except
    with Statue of Zeus)": the exception follows the whole list."""
    state = _match()
    baby = P("baby")
    state.markets[baby] = 1
    state.stock[1] -= 1
    assert (state.temples[baby], state.markets[baby], state.fortresses[baby]) == (1, 1, 1)
    seat = _construction_turn(state, BABYLON)
    give_tax(state, seat, tax=6)
    limited = {"build temple baby", "build market baby", "build fortress baby"}
    assert not limited & legal_notations(state, seat), "one of each without the Statue"
    own(state, seat, "zeus")
    assert limited <= legal_notations(state, seat)
    priest = r.role_counts(state, seat)[PRIEST_ROLE]
    state.apply(seat, "build temple baby")
    for _ in range(6):
        state.apply(seat, "pay tax")
    assert state.temples[baby] == 2
    assert r.role_counts(state, seat)[PRIEST_ROLE] == priest + 1
    give_tax(state, seat, tax=6)
    offered = legal_notations(state, seat)
    assert "build temple baby" not in offered, "two of a kind, not more"
    assert {"build market baby", "build fortress baby"} <= offered


def test_r53_a_second_temple_keeps_the_owners_doubling_while_one_is_occupied() -> None:
    """Ruling R53. L62: "2 Tax cards if there is a Temple in the province"; L149: the
    occupier places "a single Legion or Creature Token on each Market or Temple to
    double income". Carthage's two legions hold a city and a temple of Etruria; where
    the Statue of Zeus gave Rome a second temple, Rome's other city stays doubled."""
    state = _match()
    rome, carthage = state.seat_of[ROME], state.seat_of[CARTHAGE]
    etru = P("etru")
    state.cities[etru] = 2
    state.legions[ROME][etru] = 0
    state.legions[CARTHAGE][etru] = 2
    state.occupier[etru] = CARTHAGE
    state.held[etru][CITY] = state.held[etru][TEMPLE] = 1
    state.held[etru][CARAVAN] = 0
    state.temples[etru] = 1
    rome_one, carthage_one = r.revenue(state, rome)[1][TAX], r.revenue(state, carthage)[1][TAX]
    state.temples[etru] = 2
    assert r.revenue(state, rome)[1][TAX] == rome_one + 1
    assert r.revenue(state, carthage)[1][TAX] == carthage_one
    # A third legion may stand on the second temple ("on each ... Temple"): Rome's
    # doubling goes, and Carthage's own doubles no more than before.
    state.legions[CARTHAGE][etru] = 3
    offered = occupation.hold_options(state, etru)
    assert [(a.a, a.b) for a in offered] == [(TEMPLE, NOBODY)]
    occupation.hold(state, etru, TEMPLE, NOBODY)
    assert occupation.claims(state, etru)[2] == 2
    assert r.revenue(state, rome)[1][TAX] == rome_one
    assert r.revenue(state, carthage)[1][TAX] == carthage_one


# ------------------------------------------------------------ free set-up (R37)
def _to_first_round(state: MareState) -> tuple[int, int]:
    """The first builder founds his capital and places its marker: (seat, capital)."""
    seat = state.current_seat()
    assert seat is not None
    while state.step == SETUP_CAPITAL:
        state.apply(seat, state.legal_actions()[0])
    capital = state.capital[state.civ_of[seat]]
    assert legal_notations(state, seat) == {f"build influence {SPACE_IDS[capital]}"}
    state.apply(seat, f"build influence {SPACE_IDS[capital]}")
    return seat, capital


def test_r37_a_capital_founded_this_round_is_no_base_for_influence_until_the_next() -> None:
    """Ruling R37. L107: "Influence markers can only be placed in a province adjacent to
    a province already controlled at the beginning of the turn"; L29: in the free
    set-up "all normal construction rules apply". The capital takes buildings in its
    first round (L30's 45 points), but influence spreads from it only a round later."""
    for seats, seed in ((3, 0), (4, 1), (5, 3), (6, 2)):
        state = _match(seats, seed=seed, free_setup=True)
        seat, capital = _to_first_round(state)
        offered = legal_notations(state, seat)
        assert not [n for n in offered if n.startswith("build influence")]
        assert f"build legion {SPACE_IDS[capital]}" in offered
        assert state.points_left == 6
        while state.current_seat() == seat and state.setup_turns < seats:
            state.apply(seat, f"build legion {SPACE_IDS[capital]}")
        while state.current_seat() != seat:
            other = state.current_seat()
            assert other is not None
            state.apply(other, state.legal_actions()[0])
        assert state.step == SETUP_BUILD and state.setup_turns == seats
        neighbours = {
            f"build influence {SPACE_IDS[p]}"
            for p in LAND_NEIGHBOURS[capital]
            if state.influence[p] == -1 and not r.enemy_stands(state, state.civ_of[seat], p)
        }
        assert neighbours and neighbours <= legal_notations(state, seat)


def _spent(events: list[Event]) -> int:
    """Construction points the events of one set-up decision spent."""
    out = 0
    for event in events:
        if event.kind == "built":
            out += ITEM_COST[ITEMS.index(event.data["item"])]
        elif event.kind == "bought":
            out += HERO_COST
    return out


def test_r37_random_free_setups_spend_all_45_points_at_every_seat_count() -> None:
    """Ruling R37. L30: "each player picks and places 9 construction points' worth of
    items on the board. This continues until each player has built 5 times, spending
    all 45 construction points." Random choices at every seat count never leave a
    player stuck nor short of a point, and no marker but the capital's goes down in a
    player's first round (L107)."""
    for seats in range(3, 7):
        for seed in range(6):
            state = _match(seats, seed=seed, free_setup=True)
            rng = Rng(100 + seed)
            spent = [0] * seats
            while state.step in (SETUP_BUILD, SETUP_CAPITAL):
                seat = state.current_seat()
                assert seat is not None
                legal = state.legal_actions()
                assert legal
                action = rng.choice(legal)
                first_round = state.setup_turns < seats
                if first_round and action.kind == "build" and action.a == ITEMS.index("influence"):
                    assert action.b == state.capital[state.civ_of[seat]]
                spent[seat] += _spent(list(state.apply(seat, action)))
            assert spent == [45] * seats, (seats, seed, spent)
            assert state.phase == COMMERCE


# ------------------------------------------------------- occupation (R6, R51)
def _etruria_occupied_by_carthage(state: MareState) -> int:
    """Carthage's legion occupies Rome's Etruria and holds its caravan."""
    etru = P("etru")
    state.legions[ROME][etru] = 0
    state.legions[CARTHAGE][etru] = 1
    state.occupier[etru] = CARTHAGE
    state.held[etru][CARAVAN] = state.caravans[etru]
    return etru


def test_r51_an_occupied_province_is_no_base_for_influence() -> None:
    """Ruling R51. L107: "Influence markers can only be placed in a province adjacent
    to a province already controlled at the beginning of the turn"; L149: "Control
    reverts to the legitimate owner when invader units leave", so while they stand
    Rome does not control Etruria, nor does Carthage, whose marker is not there. Gallia
    Cisalpina's only Roman neighbour is Etruria."""
    state = _match()
    gcis = P("gcis")
    etru = _etruria_occupied_by_carthage(state)
    assert etru not in r.influence_targets(state, ROME) and gcis in LAND_NEIGHBOURS[etru]
    assert gcis not in r.influence_targets(state, ROME)
    assert gcis not in r.influence_targets(state, CARTHAGE)
    seat = _construction_turn(state, ROME)
    give_tax(state, seat, tax=3)
    assert "build influence gcis" not in legal_notations(state, seat)
    state.occupier[etru] = -1  # the invader left: control is Rome's again
    state.legions[CARTHAGE][etru] = 0
    assert "build influence gcis" in legal_notations(state, seat)


def test_r51_a_conversion_is_completed_only_next_to_a_controlled_province() -> None:
    """Ruling R51. L150: the invader may complete the conversion "respecting normal
    construction rules (province must be adjacent to empire, cost paid)": Rome's
    Etruria, occupied by Carthage, does not link Rome to Gallia Cisalpina."""
    state = _match()
    gcis = P("gcis")
    state.influence[gcis] = EGYPT
    state.legions[ROME][gcis] = 1
    state.converter[gcis] = ROME
    assert gcis in r.convertible(state, ROME)
    _etruria_occupied_by_carthage(state)
    assert gcis not in r.convertible(state, ROME)


def test_r6_an_occupied_provinces_buildings_still_count_for_its_owners_roles() -> None:
    """Ruling R6. L22: "Role Cards are assigned based on building possession"; L45-47
    count buildings "in their provinces". An occupier places his units "to claim
    income" (L149); the buildings pass to him only by conversion (L150: "The province
    and its buildings will then be controlled by the new owner")."""
    state = _match()
    rome, carthage = state.seat_of[ROME], state.seat_of[CARTHAGE]
    before = r.role_counts(state, rome), r.role_counts(state, carthage)
    _etruria_occupied_by_carthage(state)
    rome_now, carthage_now = r.role_counts(state, rome), r.role_counts(state, carthage)
    for role in (COMMERCE_ROLE, PRIEST_ROLE, POLITICAL_ROLE):
        assert rome_now[role] == before[0][role]
        assert carthage_now[role] == before[1][role]
    assert rome_now[MILITARY_ROLE] == before[0][MILITARY_ROLE] - 1, "the legion moved away"
    assert carthage_now[MILITARY_ROLE] == before[1][MILITARY_ROLE] + 1


# ---------------------------------------------- Hammurabi's free marker (R54)
def _babylon_converting_judaea(state: MareState) -> int:
    juda = P("juda")
    state.influence[juda] = EGYPT
    state.legions[BABYLON][juda] = 1
    state.converter[juda] = BABYLON
    return juda


def test_r54_hammurabis_free_marker_completes_a_conversion() -> None:
    """Ruling R54. L150: "the invading player MAY construct their own influence marker
    to replace the existing one ... (province must be adjacent to empire, cost paid)":
    completing a conversion is building an influence marker, so Hammurabi's free one
    pays it, as Aeneas's price does."""
    state = _match()
    juda = _babylon_converting_judaea(state)
    seat = _construction_turn(state, BABYLON)
    give_tax(state, seat, tax=0)
    assert state.cost(seat, ITEMS.index("influence")) == 0
    assert "convert juda" in legal_notations(state, seat)
    state.apply(seat, "convert juda")
    assert state.influence[juda] == BABYLON and state.converter[juda] == -1
    assert state.hands[seat][TAX] == 0
    give_tax(state, seat, tax=2)
    assert not [n for n in legal_notations(state, seat) if n.startswith("build influence")]
    assert state.cost(seat, ITEMS.index("influence")) == 3, "the free marker is spent"


def test_r54_a_free_marker_spent_on_a_new_province_leaves_the_conversion_to_pay() -> None:
    """Ruling R54: one free marker a turn (Hammurabi), whichever it pays first."""
    state = _match()
    _babylon_converting_judaea(state)
    seat = _construction_turn(state, BABYLON)
    give_tax(state, seat, tax=0)
    target = next(
        n for n in sorted(legal_notations(state, seat)) if n.startswith("build influence")
    )
    state.apply(seat, target)
    assert "convert juda" not in legal_notations(state, seat)
    give_tax(state, seat, tax=3)
    state.apply(seat, "convert juda")
    assert state.step == "pay" and state.pay_left == 3


def test_r54_aeneas_prices_a_conversion_as_an_influence_marker() -> None:
    """Ruling R54 (and R15: the best single reduction): Aeneas's influence markers cost
    2, the completion of a conversion too."""
    state = _match()
    _babylon_converting_judaea(state)
    seat = _construction_turn(state, BABYLON)
    state.free_left[seat] = [0] * len(ITEMS)
    own(state, seat, "aeneas")
    give_tax(state, seat, tax=2)
    state.apply(seat, "convert juda")
    assert state.step == "pay" and state.pay_left == 2
