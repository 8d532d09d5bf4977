"""Mare Nostrum set-up and economy as the rule text says (issue 33, part A).

Each test quotes the line of ``mare-nostrum-mythology.txt`` it pins (L = line number)
and names the ruling of ``docs/rules/mare-nostrum.md`` it rests on. Positions are
built from a seeded match and arranged by hand; decisions go through the checked
``apply`` with notation, as a client's would.
"""

from __future__ import annotations

from itertools import product

from senet.codec.marenostrum import view_to_proto
from senet.games import Rng
from senet.games.interface import Event
from senet.games.marenostrum import MARENOSTRUM, MareState
from senet.games.marenostrum import rules as r
from senet.games.marenostrum.board import LAND_NEIGHBOURS, SPACE_IDS, space_index
from senet.games.marenostrum.cards import PYRAMIDS_INDEX
from senet.games.marenostrum.civilizations import (
    ATLANTIS,
    BABYLON,
    CAPITALS,
    CARTHAGE,
    CIVS,
    EGYPT,
    GREECE,
    ROME,
    in_match,
)
from senet.games.marenostrum.commodities import CARD_TYPES, TAX, card_type
from senet.games.marenostrum.constants import (
    COMMERCE_ROLE,
    COMPENSATE,
    GROUND,
    MILITARY,
    MILITARY_ROLE,
    POLITICAL_ROLE,
    PRIEST_ROLE,
    ROLE_TIE,
    SETUP_BUILD,
    SETUP_CAPITAL,
    TRADE_SIZE,
)
from senet.games.marenostrum.set_up import role_tie_breaks
from senet.games.marenostrum.tokens import CITY, HERO_COST, ITEM_COST, ITEMS, TEMPLE
from tests.marenostrum.helpers import legal_notations, own

P = space_index


def _match(seats: int = 6, seed: int = 1, **options: object) -> MareState:
    state = MARENOSTRUM.new_match(seats, options, seed)
    assert isinstance(state, MareState)
    return state


# ------------------------------------------------------------------ revenue at war
def test_r36_a_province_at_war_pays_the_influence_owner_not_the_occupier() -> None:
    """Ruling R36. L146: "A province "At War" still collects revenue for the influence
    token owner, but no building can occur there." L149: the occupier places a unit
    "on each City or Caravan to claim income"."""
    state = _match(6)
    greece, rome = state.seat_of[GREECE], state.seat_of[ROME]
    pelo = P("pelo")  # Greek, with the city of Sparta
    state.temples[pelo] = 1
    state.legions[ROME][pelo] = 2
    state.occupier[pelo] = ROME
    state.held[pelo][CITY] = state.held[pelo][TEMPLE] = 1
    # Occupied and at peace: Rome's legions claim the city and the temple's doubling.
    greek_base = r.revenue(state, greece)[1][TAX]
    roman_base = r.revenue(state, rome)[1][TAX]
    state.legions[GREECE][pelo] = 1
    assert r.at_war(state, pelo)
    assert r.revenue(state, greece)[1][TAX] == greek_base + 2
    assert r.revenue(state, rome)[1][TAX] == roman_base - 2


# ------------------------------------------------------------------ free set-up
def _points(events: list[Event]) -> int:
    """Construction points the events of one set-up decision spent."""
    spent = 0
    for event in events:
        if event.kind == "built":
            spent += ITEM_COST[ITEMS.index(event.data["item"])]
        elif event.kind == "bought":
            spent += HERO_COST
    return spent


def test_r37_free_setup_spends_all_45_points_nine_a_round() -> None:
    """Ruling R37. L30: "each player picks and places 9 construction points' worth of
    items on the board. This continues until each player has built 5 times, spending
    all 45 construction points." L31: "During this building phase, each player MUST
    place at least one influence marker on their capital." """
    for seats, seed in ((3, 0), (4, 1), (5, 2), (6, 3)):
        state = _match(seats, seed=seed, free_setup=True)
        rng = Rng(seed)
        spent = [0] * seats
        rounds = [0] * seats
        while state.step in (SETUP_BUILD, SETUP_CAPITAL):
            seat = state.current_seat()
            assert seat is not None
            this_round = 0
            while state.current_seat() == seat and state.step in (SETUP_BUILD, SETUP_CAPITAL):
                legal = state.legal_actions()
                assert "done" not in [a.notation() for a in legal] or len(legal) == 1
                this_round += _points(state.apply(seat, rng.choice(legal)))
                if this_round == 9:
                    break
            assert this_round == 9, f"seat {seat} spent {this_round} in a round"
            spent[seat] += this_round
            rounds[seat] += 1
        assert spent == [45] * seats and rounds == [5] * seats
        for civ in state.civ_of:
            assert state.influence[state.capital[civ]] == civ


def test_r37_the_capital_marker_leaves_six_points_for_the_first_round() -> None:
    """Ruling R37. L31: the compulsory influence marker on the capital is the first
    purchase; L30: the round is still worth 9 points, so 6 remain to spend at once."""
    state = _match(4, seed=1, free_setup=True)
    seat = state.current_seat()
    assert seat is not None
    while state.step == SETUP_CAPITAL:
        state.apply(seat, state.legal_actions()[0])
    capital = state.capital[state.civ_of[seat]]
    state.apply(seat, f"build influence {SPACE_IDS[capital]}")
    assert state.current_seat() == seat and state.points_left == 6
    notations = [a.notation() for a in state.legal_actions()]
    assert f"build legion {SPACE_IDS[capital]}" in notations
    assert "done" not in notations


# ------------------------------------------------------------------ trading
def _four_civs(wanted: set[int]) -> MareState:
    """A 4-player match whose players are the civilizations ``wanted``."""
    for seed in range(200):
        state = _match(4, seed=seed)
        if set(state.civ_of) == wanted:
            return state
    raise AssertionError("no seed draws those civilizations")


def _hand(state: MareState, seat: int, **cards: int) -> None:
    """Give ``seat`` exactly ``cards`` (names to counts), through the bank."""
    for card, count in enumerate(state.hands[seat]):
        state.bank[card] += count
    state.hands[seat] = [0] * CARD_TYPES
    for name, count in cards.items():
        state._draw(seat, card_type(name), count)


def test_r8_a_stalled_take_chain_gets_the_make_up_card_from_the_director() -> None:
    """Ruling R8. L76: "If the player from whom the last card was taken is one card
    short, the Director of Commerce must choose a card from their own hand (either
    face down or in hand) and give it to the shorted player." The issue's example:
    offers of 2; the takes stall when Egypt's last card is the only one face up."""
    state = _four_civs({ROME, GREECE, CARTHAGE, EGYPT})
    rome, greece, carthage, egypt = (state.seat_of[c] for c in (ROME, GREECE, CARTHAGE, EGYPT))
    state.roles[COMMERCE_ROLE] = rome
    state.actor = rome
    _hand(state, rome, tax=2)
    _hand(state, greece, grain=2)
    _hand(state, carthage, wine=2)
    _hand(state, egypt, fish=2)
    state.apply(rome, "size 2")
    for seat in (rome, greece, carthage, egypt):
        while seat in state.deciding_seats():
            state.apply(seat, state.legal_actions_for(seat)[0])
    takes = [
        (rome, greece, "grain"),
        (greece, rome, "tax"),
        (rome, carthage, "wine"),
        (carthage, rome, "tax"),
        (rome, greece, "grain"),
        (greece, carthage, "wine"),
        (carthage, egypt, "fish"),
    ]
    for taker, victim, card in takes:
        state.apply(taker, f"take {victim} {card}")
    # Egypt's other fish is the only card face up: Egypt cannot take, the chain stalls.
    assert state.step == COMPENSATE and state.current_seat() == rome
    gives = {a.notation() for a in state.legal_actions()}
    assert gives == {"give grain", "give wine"}, "the cards Rome took face down"
    state.apply(rome, "give wine")
    assert [state.hand_size(s) for s in (rome, greece, carthage, egypt)] == [2, 2, 2, 2]
    assert state.hands[egypt][card_type("fish")] == 1
    assert state.hands[egypt][card_type("wine")] == 1


# ------------------------------------------------------------------ set-up roles
def test_r9_tied_roles_go_so_that_nobody_holds_two() -> None:
    """Ruling R9. L22: "In case of a tie, tied players randomly determine who receives
    the role, but avoid giving one player two roles during setup." Holders are listed
    in ``ROLE_IDS`` order (commerce, priest, political, military). The issue's case:
    Carthage and Atlantis tie for the military role, Carthage alone leads commerce;
    the only tie-break giving four players a role each hands military to Atlantis."""
    carthage, atlantis, egypt, babylon = 0, 1, 2, 3
    leaders = [[0]] * 4
    leaders[COMMERCE_ROLE] = [carthage]
    leaders[MILITARY_ROLE] = [carthage, atlantis]
    leaders[POLITICAL_ROLE] = [egypt]
    leaders[PRIEST_ROLE] = [babylon, carthage]
    assert role_tie_breaks(leaders) == [(carthage, babylon, egypt, atlantis)]
    # Two ways avoid a double role: the match draws between them and only them.
    leaders[PRIEST_ROLE] = [babylon, egypt, carthage]
    leaders[POLITICAL_ROLE] = [egypt, babylon]
    assert sorted(role_tie_breaks(leaders)) == [
        (carthage, egypt, babylon, atlantis),
        (carthage, babylon, egypt, atlantis),
    ]
    # Three players, four roles: one must hold two, but never one holds three.
    assert all(len(set(a)) == 3 for a in role_tie_breaks([[0, 1, 2]] * 4))


def test_r9_seeded_setups_give_distinct_roles_whenever_a_tie_break_allows() -> None:
    """Ruling R9. L22: "avoid giving one player two roles during setup", checked on
    seeded set-ups of every size against every tie-break the role counts allow."""
    for seats in range(3, 7):
        for seed in range(50):
            state = _match(seats, seed=seed)
            counts = [r.role_counts(state, s) for s in range(seats)]
            leaders = [
                [s for s in range(seats) if counts[s][role] == max(c[role] for c in counts)]
                for role in range(4)
            ]
            possible = max(len(set(a)) for a in product(*leaders))
            assert all(state.roles[role] in leaders[role] for role in range(4))
            assert len(set(state.roles)) == possible, (seats, seed, leaders, state.roles)


# ------------------------------------------------------------------ neutrals
def _with(seats: int, players: set[int], neutrals: set[int], **options: object) -> MareState:
    """A seeded match where ``players`` are played and ``neutrals`` are not."""
    for seed in range(400):
        state = _match(seats, seed=seed, **options)
        if players <= set(state.civ_of) and not neutrals & set(state.civ_of):
            return state
    raise AssertionError("no seed draws those civilizations")


def test_r3_neutrals_garrison_the_capital_and_every_bordering_province() -> None:
    """Ruling R3. L21: "For each neutral civilization, place 1 influence marker, 1
    mythological creature pawn, 1 legion, and 1 fortress in its capital province.
    Additionally, place 1 influence marker, 1 legion, and 1 fortress in each region
    adjacent to that capital." Neutral Greece holds Macedonia (it borders Attica),
    not Creta (an island across the sea)."""
    state = _with(3, {ROME, CARTHAGE}, {GREECE})
    athens = CAPITALS[GREECE]
    assert state.creatures[GREECE][athens] == 1
    assert set(LAND_NEIGHBOURS[athens]) == {P("mace"), P("pelo")}
    for p in (athens, P("mace"), P("pelo")):
        assert state.influence[p] == GREECE
        assert state.legions[GREECE][p] == 1 and state.fortresses[p] == 1
    assert state.influence[P("cret")] == -1
    # Ruling R2: a player's three creature pawns start in reserve, off the map.
    assert all(sum(state.creatures[civ]) == 0 for civ in state.civ_of)
    for civ in range(CIVS):
        if civ in state.civ_of or not in_match(civ, 3):
            continue
        for p in LAND_NEIGHBOURS[CAPITALS[civ]]:
            assert state.influence[p] != -1, f"{SPACE_IDS[p]} borders a neutral capital"
            owner = state.influence[p]
            assert state.legions[owner][p] == 1 and state.fortresses[p] == 1
            assert state.creatures[owner][p] == 0


def test_r3_a_province_two_neutrals_claim_goes_to_one_drawn_at_random() -> None:
    """Ruling R3. L21: "each region adjacent to that capital": Judaea borders both
    Aegyptus and Babylonia, and one province holds one influence marker, so one of
    the two neutrals, drawn with the match's generator, garrisons it."""
    judaea = P("juda")
    assert CAPITALS[EGYPT] in LAND_NEIGHBOURS[judaea]
    assert CAPITALS[BABYLON] in LAND_NEIGHBOURS[judaea]
    owners = set()
    for seed in range(400):
        state = _match(3, seed=seed)
        if EGYPT in state.civ_of or BABYLON in state.civ_of:
            continue
        owner = state.influence[judaea]
        assert owner in (EGYPT, BABYLON)
        assert state.legions[owner][judaea] == 1 and state.fortresses[judaea] == 1
        assert state.legions[EGYPT + BABYLON - owner][judaea] == 0
        owners.add(owner)
    assert owners == {EGYPT, BABYLON}


def test_r3_a_players_own_setup_wins_over_a_neutral() -> None:
    """Ruling R3. L29: a player builds in "Capital Provinces and immediately adjacent
    provinces"; L21 garrisons the provinces adjacent to a neutral capital. Where the
    two meet (Judaea, between a played Egypt and a neutral Babylon in the free
    set-up), the province is left to the player's own set-up."""
    state = _with(4, {EGYPT}, {BABYLON}, free_setup=True)
    judaea = P("juda")
    assert state.influence[judaea] == -1
    assert state.influence[P("syri")] == BABYLON and state.influence[P("assy")] == BABYLON
    predetermined = _with(4, {EGYPT}, {BABYLON})
    assert predetermined.influence[judaea] == BABYLON, "not in Egypt's printed start"


# ------------------------------------------------------------------ Atlantis
def test_r1_atlantis_plays_only_at_six_players() -> None:
    """Ruling R1. L12: "If playing with 6 players, the civilization of Atlantis is
    introduced, with its starting capital at Poseidonis." With fewer players nobody
    draws Atlantis, it is not neutral either, and its provinces stay empty; the view
    tells clients which civilizations are in the match."""
    atlantis_provinces = {CAPITALS[ATLANTIS], *LAND_NEIGHBOURS[CAPITALS[ATLANTIS]]}
    for seats in (3, 4, 5):
        for seed in range(30):
            state = _match(seats, seed=seed)
            assert ATLANTIS not in state.civ_of
            for p in atlantis_provinces:
                assert state.influence[p] == -1
                assert state.legions[ATLANTIS][p] == state.fortresses[p] == 0
            assert sum(state.creatures[ATLANTIS]) == 0
            message = view_to_proto(state.view(0))
            listed = {c.civilization - 1: c.absent for c in message.civilizations}
            assert listed == {civ: civ == ATLANTIS for civ in range(CIVS)}
    drawn = {civ for seed in range(30) for civ in _match(6, seed=seed).civ_of}
    assert drawn == set(range(CIVS))
    six = view_to_proto(_match(6).view(None))
    assert not any(c.absent for c in six.civilizations)


def test_r13_free_setup_builds_only_in_the_capital_and_bordering_provinces() -> None:
    """Ruling R13. L29: "All items built may only be placed in the players' Capital
    Provinces and immediately adjacent provinces": adjacent by a border, so Rome may
    not build in Magna Graecia, across the Tyrrhenian Sea from Latium. In the round
    Latium is founded it is no base for influence yet (ruling R37, L107)."""
    state = _with(4, {ROME}, set(), free_setup=True)
    rome = state.seat_of[ROME]
    latium = CAPITALS[ROME]
    assert r.setup_area(state, ROME) == {latium, P("etru"), P("camp")}
    assert P("magn") not in r.setup_area(state, ROME), "only across the sea"

    def to_romes_round() -> None:
        while state.current_seat() != rome or state.step != SETUP_BUILD:
            seat = state.current_seat()
            assert seat is not None
            state.apply(seat, state.legal_actions()[-1])

    to_romes_round()
    state.apply(rome, "build influence lati")
    assert {a.b for a in state.legal_actions() if a.kind == "build"} == {latium}
    while state.current_seat() == rome:
        state.apply(rome, "build legion lati")
    to_romes_round()
    places = {a.b for a in state.legal_actions() if a.kind == "build"}
    assert places <= {latium, P("etru"), P("camp")}
    assert {P("etru"), P("camp")} <= places


# ------------------------------------------------------------------ turn limit
def test_r17_no_turn_limit_by_default_and_a_bounded_one_for_tools() -> None:
    """Ruling R17. L5: "The winner is the first player to either build the Pyramids,
    or to own 4 Heroes and/or Wonders": a default match has no turn limit. Tools that
    need every match to end (arena, benchmarks, learning environments) use the
    game's ``bounded_match_options``, which end and rank it after 12 turns."""
    state = _match(3, seed=2)
    assert state.options["turn_limit"] == 0
    state.turn = 40
    state._start_turn()
    assert not state.is_over() and state.turn == 41
    bounded = dict(MARENOSTRUM.info.bounded_match_options)
    assert bounded == {"turn_limit": 12}
    limited = _match(3, seed=2, **bounded)
    limited.turn = 12
    limited._start_turn()
    assert limited.is_over() and limited.winner == -1


# ------------------------------------------------------------------ the role step
def test_a_tied_holder_keeps_his_role_and_hands_one_two_others_tie_for() -> None:
    """L43: "Role Cards are reassigned at the start of each new turn"; L50: "In case of
    a tie for a Role Card, the current owner keeps the card. If two or more OTHER
    players are tied, the current owner decides which of the tied players inherits the
    role." Six players, seed 1: Carthage directs commerce (4), Babylon is High Priest
    (1), Egypt Political Leader, Rome Military Leader (5)."""
    state = _match(6)
    rome, greece, carthage, egypt, babylon = (
        state.seat_of[c] for c in (ROME, GREECE, CARTHAGE, EGYPT, BABYLON)
    )
    assert state.roles == [carthage, babylon, egypt, rome]
    state.markets[P("lati")] = 1  # Rome ties Carthage for commerce (4)
    for province in ("atti", "pelo", "aegy", "theb"):
        state.temples[P(province)] = 1  # Greece and Egypt: 2 temples each, above Babylon
    state.legions[GREECE][P("atti")] += 1  # Greece ties Rome for the military role (5)
    counts = [r.role_counts(state, seat) for seat in range(6)]
    assert counts[rome][COMMERCE_ROLE] == counts[carthage][COMMERCE_ROLE] == 4
    assert counts[greece][PRIEST_ROLE] == counts[egypt][PRIEST_ROLE] == 2
    assert counts[greece][MILITARY_ROLE] == counts[rome][MILITARY_ROLE] == 5
    # The last decision of turn 1: the military phase ends, turn 2 begins.
    state.phase, state.step, state.queue, state.actor = MILITARY, GROUND, [rome], rome
    state.apply(rome, "done")
    assert state.turn == 2 and state.step == ROLE_TIE
    assert state.current_seat() == babylon
    assert {a.notation() for a in state.legal_actions()} == {f"grant {greece}", f"grant {egypt}"}
    # The prompt names the role and the count the seats tie at (a trial's player
    # could not tell which role was being handed on).
    assert {state.describe(a) for a in state.legal_actions()} == {
        f"Hand the High Priest role (tied at 2) to seat {seat}" for seat in (greece, egypt)
    }
    state.apply(babylon, f"grant {egypt}")
    assert state.roles == [carthage, egypt, egypt, rome]
    assert state.step == TRADE_SIZE


def test_a_short_bank_pays_in_seat_order_from_the_director() -> None:
    """L60: "The Director of Commerce gives each player their income". The bank is
    finite (designed, notes 5.4: "if a type runs out, income of that type is lost, paid
    in the Director's seating order"): the Director is paid first, then the seats after
    him in turn, each in full while the pile lasts."""
    state = _match(6)
    director = state.roles[COMMERCE_ROLE]
    owed = [r.revenue(state, seat)[1][TAX] for seat in range(6)]
    order = [(director + i) % 6 for i in range(6)]
    pile = owed[order[0]] + owed[order[1]] + 1
    assert owed[order[2]] > 1, "the third seat is owed more than the pile keeps for it"
    before = [state.hands[seat][TAX] for seat in range(6)]
    state.bank[TAX] = pile
    rome = state.seat_of[ROME]
    state.phase, state.step, state.queue, state.actor = MILITARY, GROUND, [rome], rome
    state.apply(rome, "done")
    assert state.turn == 2 and state.step == TRADE_SIZE
    got = [state.hands[seat][TAX] - before[seat] for seat in range(6)]
    assert [got[seat] for seat in order] == [owed[order[0]], owed[order[1]], 1, 0, 0, 0]
    assert state.bank[TAX] == 0


def test_a_province_being_converted_pays_its_owner_until_converted() -> None:
    """L63: "Buildings in provinces being converted produce revenue for the original
    owner until fully converted." Egypt's legion stands on Rome's marker in Campania
    (a caravan of grain); once the conversion is complete, Campania pays Egypt."""
    state = _match(6)
    rome, egypt = state.seat_of[ROME], state.seat_of[EGYPT]
    camp, grain = P("camp"), card_type("grain")
    rome_before = r.revenue(state, rome)[1]
    egypt_before = r.revenue(state, egypt)[1]
    state.legions[ROME][camp] = 0
    state.legions[EGYPT][camp] = 1
    state.converter[camp] = EGYPT
    assert r.revenue(state, rome)[1] == rome_before
    assert r.revenue(state, egypt)[1] == egypt_before
    state.influence[camp] = EGYPT
    state.converter[camp] = -1
    assert r.revenue(state, rome)[1][grain] == rome_before[grain] - 1
    assert r.revenue(state, egypt)[1][grain] == egypt_before[grain] + 1


def test_each_phase_order_is_set_whole_by_its_role_holder_before_anyone_plays() -> None:
    """Ruling R45. L43: "Players take their turns in a specific order during each phase,
    determined by a privileged player holding a special Role Card"; L80: "The High
    Priest determines the order in which players call upon a God". The holder names
    the seats one by one (himself included, anywhere), and the phase begins once the
    order is whole."""
    state = _match(4, seed=3)
    state.apply(state.roles[COMMERCE_ROLE], "size 0")
    priest = state.roles[PRIEST_ROLE]
    chosen: list[int] = []
    events: list[Event] = []
    while state.step == "order":
        assert state.current_seat() == priest
        offered = {a.a for a in state.legal_actions()}
        assert offered == set(range(4)) - set(chosen)
        seat = max(offered)
        chosen.append(seat)
        events = state.apply(priest, f"next {seat}")
    assert len(chosen) == 3
    order = next(e for e in events if e.kind == "order")
    assert order.data["seats"] == [*chosen, *(set(range(4)) - set(chosen))]
    assert state.step == "offering" and state.current_seat() == chosen[0]


# ------------------------------------------------- the cards that bring a commodity
def _produced(state: MareState, seat: int) -> set[str]:
    from senet.games.marenostrum.commodities import CARD_NAMES, COMMODITY_TYPES

    income = r.revenue(state, seat)[1]
    return {CARD_NAMES[c] for c in COMMODITY_TYPES if income[c]}


def test_r52_the_queen_of_sheba_brings_the_commodity_her_owner_chooses() -> None:
    """Ruling R52. Notes 5.7: "Queen of Sheba +1 commodity of any type each commerce
    phase": once the income is in, her owner takes the commodity he chooses from the
    bank, before the gods' holders decide and the Director sizes the trade."""
    from senet.games.marenostrum.commodities import COMMODITY_TYPES

    state = _match()
    director = state.roles[COMMERCE_ROLE]
    seat = (director + 1) % state.seat_count
    own(state, seat, "sheba")
    state.bank[card_type("wine")] = 0
    state._start_commerce()
    assert state.step == "gift" and state.current_seat() == seat
    offered = legal_notations(state)
    assert len(offered) == len(COMMODITY_TYPES) - 1 and "gift wine" not in offered
    assert state.describe("gift grain") == "Queen of Sheba: take a grain card from the bank"
    grain, bank = state.hands[seat][card_type("grain")], state.bank[card_type("grain")]
    events = state.apply(seat, "gift grain")
    assert state.hands[seat][card_type("grain")] == grain + 1
    assert state.bank[card_type("grain")] == bank - 1
    private = [e for e in events if e.kind == "revenue_cards"]
    assert private and private[0].audience == frozenset({seat}), "the hand stays hidden"
    assert state.step == TRADE_SIZE and state.current_seat() == director
    # The next commerce phase brings another.
    state._start_commerce()
    assert state.step == "gift" and state.current_seat() == seat


def test_r52_the_hanging_gardens_bring_a_commodity_the_owners_caravans_produce() -> None:
    """Ruling R52. Notes 3.6: "Hanging Gardens: +1 commodity each commerce phase, of a
    type one of your caravans produces": the owner chooses among those kinds; with one
    kind to take it is his at once, with none the gift is nothing."""
    state = _match()
    director = state.roles[COMMERCE_ROLE]
    seat = director
    own(state, seat, "gardens")
    kinds = _produced(state, seat)
    assert len(kinds) >= 2
    state._start_commerce()
    assert state.step == "gift" and state.current_seat() == seat
    assert legal_notations(state) == {f"gift {kind}" for kind in kinds}
    # One kind left in the bank: taken for him.
    keep = sorted(kinds)[0]
    for kind in kinds - {keep}:
        state.bank[card_type(kind)] = 0
    before = state.hands[seat][card_type(keep)]
    income = r.revenue(state, seat)[1][card_type(keep)]
    state._start_commerce()
    assert state.step == TRADE_SIZE
    assert state.hands[seat][card_type(keep)] == before + income + 1
    # None: nothing, and nobody is asked.
    state.bank[card_type(keep)] = 0
    before = state.hands[seat][card_type(keep)]
    state._start_commerce()
    assert state.step == TRADE_SIZE
    assert state.hands[seat][card_type(keep)] == before


def test_r52_both_gifts_are_chosen_one_after_the_other() -> None:
    """Ruling R52: an owner of both cards takes both commodities, one at a time."""
    state = _match()
    seat = state.roles[COMMERCE_ROLE]
    own(state, seat, "gardens", "sheba")
    state._start_commerce()
    first = state.describe(sorted(legal_notations(state))[0])
    state.apply(seat, sorted(legal_notations(state))[0])
    assert state.step == "gift" and state.current_seat() == seat
    second = state.describe(sorted(legal_notations(state))[0])
    assert {first.split(":")[0], second.split(":")[0]} == {"Hanging Gardens", "Queen of Sheba"}
    state.apply(seat, sorted(legal_notations(state))[0])
    assert state.step == TRADE_SIZE


# ------------------------------------------------------------------ R58, R59
def test_r58_the_pyramids_are_never_set_aside() -> None:
    """Ruling R58. L14: "8 Heroes and Wonders are randomly drawn from this pile and set
    aside"; L5: "The winner is the first player to either build the Pyramids, or to
    own 4 Heroes and/or Wonders". The Pyramids are a way to win of their own, which
    L5 gives every game, so they are never among the eight, and are for sale in every
    game."""
    for seats in (3, 4, 5, 6):
        for seed in range(50):
            state = _match(seats, seed=seed)
            assert len(state.set_aside) == 8
            assert PYRAMIDS_INDEX not in state.set_aside
            assert PYRAMIDS_INDEX not in state.available  # not in the pile at all


def test_r59_the_free_setup_places_the_neutrals_too() -> None:
    """Ruling R59. L26: "Players skip the predetermined setup and instead start with 45
    construction points"; L21: "If playing with fewer than 6 players, any unchosen
    civilizations become 'neutral civilizations.'" What the free set-up replaces is
    how the players place their own pieces; the unchosen civilizations are no
    players, and L21's condition is the number of players, so their garrisons stand
    in the free set-up as in the predetermined one."""
    for seed in range(20):
        free, dealt = _match(4, seed=seed, free_setup=True), _match(4, seed=seed)
        for civ in range(CIVS):
            if civ in free.civ_of or not in_match(civ, 4):
                continue
            capital = CAPITALS[civ]
            for state in (free, dealt):
                assert state.influence[capital] == civ
                assert state.legions[civ][capital] == 1 and state.fortresses[capital] == 1
