"""Mare Nostrum scenarios: the rule text's examples and the rulings, one test each.

Positions are built from a seeded match and then arranged by hand; every decision
goes through the checked ``apply`` with notation, as a client's would.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from senet.games import Rng
from senet.games.marenostrum import MARENOSTRUM, MareState
from senet.games.marenostrum import rules as r
from senet.games.marenostrum.board import (
    LAND_NEIGHBOURS,
    PROVINCES,
    SEA_NEIGHBOURS,
    SHORES,
    space_index,
)
from senet.games.marenostrum.civilizations import CIVS, EGYPT, ROME, START
from senet.games.marenostrum.commodities import CARD_TYPES, bank_start, card_type
from senet.games.marenostrum.constants import (
    COMMERCE_ROLE,
    MILITARY_ROLE,
    OFFER,
    POLITICAL_ROLE,
    TAKE,
    TRADE_SIZE,
)
from senet.games.marenostrum.tokens import BUILDING_STOCK, MAX_LEGIONS

P = space_index


def _match(seats: int = 6, seed: int = 1, **options: object) -> MareState:
    state = MARENOSTRUM.new_match(seats, options, seed)
    assert isinstance(state, MareState)
    return state


def _seat_of(state: MareState, civ: int) -> int:
    return state.seat_of[civ]


# ------------------------------------------------------------------ map data
def test_map_is_symmetric_and_has_the_designed_counts() -> None:
    assert PROVINCES == 33 + 11
    for p, ns in enumerate(LAND_NEIGHBOURS):
        assert all(p in LAND_NEIGHBOURS[q] for q in ns)
    for s, ns in enumerate(SEA_NEIGHBOURS):
        assert all(s in SEA_NEIGHBOURS[q] for q in ns)
    assert all(SHORES[p] or LAND_NEIGHBOURS[p] for p in range(PROVINCES))


def test_predetermined_setup_roles_follow_the_criteria() -> None:
    """Ruling R9: Rome military, Egypt political, Carthage commerce at 6 players."""
    state = _match(6)
    assert state.roles[MILITARY_ROLE] == _seat_of(state, ROME)
    assert state.roles[POLITICAL_ROLE] == _seat_of(state, EGYPT)
    assert len(set(state.roles)) == 4, "nobody gets two roles at set-up"


def test_neutrals_hold_capital_and_starting_provinces() -> None:
    """Ruling R3: a neutral holds its three starting provinces, creature in the capital."""
    state = _match(3)
    for civ in range(CIVS):
        if state.seat_of[civ] != -1:
            continue
        capital, *others = START[civ].provinces
        assert state.creatures[civ][capital] == 1
        for p in (capital, *others):
            assert state.influence[p] == civ
            assert state.legions[civ][p] == 1 and state.fortresses[p] == 1


# ------------------------------------------------------------------ commerce
def test_revenue_doubles_with_temple_and_market() -> None:
    state = _match(6)
    seat = _seat_of(state, ROME)
    lati = P("lati")
    base = r.revenue(state, seat)[1]
    state.temples[lati] = 1
    state.markets[lati] = 1
    doubled = r.revenue(state, seat)[1]
    assert doubled[0] == base[0] + 1  # one city in Latium: 2 tax with a temple
    assert doubled[card_type("wine")] == base[card_type("wine")] + 1


def _to_offers(state: MareState, size: int) -> None:
    assert state.step == TRADE_SIZE
    director = state.roles[COMMERCE_ROLE]
    state.apply(director, f"size {size}")


def test_offers_are_hidden_until_all_are_chosen() -> None:
    state = _match(6)
    _to_offers(state, 1)
    assert state.step == OFFER
    deciding = state.deciding_seats()
    assert len(deciding) == 6 and state.current_seat() == deciding[0]
    last = deciding[-1]
    events = state.apply(last, "offer tax")
    assert all(e.kind != "offers_revealed" for e in events)
    public = [e for e in events if e.visible_to(deciding[0])]
    assert all("card" not in e.data for e in public)
    assert state.view(deciding[0])["offer_sizes"][last] == 1
    assert state.view(deciding[0])["offer"] == [0] * CARD_TYPES
    for seat in deciding[:-1]:
        events = state.apply(seat, "offer tax")
    assert state.step == TAKE
    assert any(e.kind == "offers_revealed" for e in events)


def test_take_chain_and_two_in_a_row_limit() -> None:
    """Text steps 4-6: the victim takes next; at most two trades in a row per pair."""
    state = _match(6)
    _to_offers(state, 2)
    for seat in state.deciding_seats():
        while seat in state.deciding_seats():
            state.apply(seat, state.legal_actions_for(seat)[0])
    director = state.roles[COMMERCE_ROLE]
    assert state.taker == director
    other = next(s for s in state.traders if s != director)
    state.apply(director, f"take {other} tax")
    assert state.taker == other
    state.apply(other, f"take {director} tax")
    assert state.taker == director
    # Director took from `other`, `other` took back: the director may not take from
    # `other` a third time in a row while anyone else has a face-up card.
    assert all(a.a != other for a in state.legal_actions())


def test_trade_conserves_cards_and_ends_balanced() -> None:
    state = _match(4, seed=5)
    _to_offers(state, 2)
    rng = Rng(3)
    while state.step in (OFFER, TAKE, "compensate"):
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions()))
    total = [state.bank[c] + sum(h[c] for h in state.hands) for c in range(CARD_TYPES)]
    assert total == bank_start()


# ------------------------------------------------------------------ construction
def test_influence_only_next_to_a_province_held_at_turn_start() -> None:
    state = _match(6)
    civ = ROME
    targets = r.influence_targets(state, civ)
    assert P("magn") in targets and P("gcis") in targets
    assert P("mace") not in targets
    state.new_influence[P("etru")] = 1
    assert P("gcis") not in r.influence_targets(state, civ), "no chaining off a new marker"


def test_nothing_is_built_where_at_war_except_the_capital() -> None:
    state = _match(6)
    etru = P("etru")
    state.legions[EGYPT][etru] = 1
    assert r.at_war(state, etru)
    assert not state.can_place(ROME, etru)
    state.legions[EGYPT][P("lati")] = 1
    assert state.can_place(ROME, P("lati"))


def test_sets_are_tax_only_or_different_commodities() -> None:
    state = _match(6)
    seat = 0
    state.hands[seat] = [2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert not state.can_pay(seat, 3)
    state.hands[seat][3] = 1
    assert state.can_pay(seat, 3)


def test_best_single_cost_reduction_applies() -> None:
    state = _match(6)
    seat = _seat_of(state, ROME)  # Caesar: legions cost 2
    legion = 6
    assert state.cost(seat, legion) == 2
    state.owned[seat].append(next(i for i, c in enumerate(r_cards()) if c.id == "hamilcar"))
    assert state.cost(seat, legion) == 2, "reductions do not stack"


def r_cards() -> tuple:  # type: ignore[type-arg]
    from senet.games.marenostrum.cards import OWNABLE

    return OWNABLE


# ------------------------------------------------------------------ military
def test_battle_losses_are_one_per_five_points() -> None:
    state = _match(6)
    etru = P("etru")
    state.legions[EGYPT][etru] = 0
    state.creatures[EGYPT][etru] = 2  # two creatures: 12 points, always
    total = r.battle_total(state, EGYPT, etru, attacking=True)
    assert total == 12 and total // 5 == 2


def test_fortress_counts_as_a_six() -> None:
    state = _match(6)
    lati = P("lati")
    state.legions[ROME][lati] = 0
    assert r.battle_total(state, ROME, lati, attacking=False) == 6


# ------------------------------------------------------------------ victory
def test_four_heroes_win_at_once_and_long_game_needs_five() -> None:
    for long_game, needed in ((False, 4), (True, 5)):
        state = _match(6, long_game=long_game)
        seat = 0
        pool = list(state.available)
        state.owned[seat] = [state.civ_of[seat], *pool[: needed - 2]]
        state._check_victory(seat, pool[0])
        assert not state.is_over()
        state.owned[seat].append(pool[needed - 2])
        state._check_victory(seat, pool[needed - 2])
        assert state.is_over() and state.ranking()[seat] == 1


def test_turn_limit_ends_random_games() -> None:
    for seats in range(3, 7):
        state = _match(seats, seed=seats, turn_limit=2)
        rng = Rng(seats)
        while not state.is_over():
            state.apply_unchecked(rng.choice(state.legal_actions()))
        assert state.turn == 3 and state.winner in (-1, *range(seats))


def test_free_setup_starts_with_the_capital() -> None:
    state = _match(4, free_setup=True)
    seat = state.current_seat()
    assert seat is not None
    notations = [a.notation() for a in state.legal_actions()]
    assert all(n.startswith(("build influence", "capital", "done")) for n in notations)


# ------------------------------------------------------------------ invariants
@settings(max_examples=10, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(3, 6), free=st.booleans())
def test_pieces_buildings_and_cards_stay_within_their_counts(
    seed: int, seats: int, free: bool
) -> None:
    state = _match(seats, seed=seed, free_setup=free, turn_limit=3)
    rng = Rng(seed)
    stock = BUILDING_STOCK[seats]
    while not state.is_over():
        state.apply_unchecked(rng.choice(state.legal_actions()))
        for civ in range(CIVS):
            if state.seat_of[civ] == -1:
                continue
            assert sum(state.legions[civ]) <= MAX_LEGIONS
            assert sum(state.triremes[civ]) <= 5
            assert sum(state.creatures[civ]) <= 3
            assert state.influence.count(civ) <= 12
        built = [
            sum(bin(c).count("1") for c in state.caravans),
            sum(state.markets),
            sum(state.cities),
            sum(state.temples),
        ]
        assert all(b + s == full for b, s, full in zip(built, state.stock, stock, strict=True))
        cards = [
            state.bank[c]
            + sum(
                row[c]
                for t in (state.hands, state.offers, state.face_up, state.face_down)
                for row in t
            )
            for c in range(CARD_TYPES)
        ]
        assert cards == bank_start()


def test_public_notation_hides_the_offered_card() -> None:
    assert MARENOSTRUM.public_notation("offer grain") == "offer"
    assert MARENOSTRUM.public_notation("give tax") == "give"
    assert MARENOSTRUM.public_notation("take 2 grain") == "take 2 grain"


def test_determinized_payer_can_still_finish_its_set() -> None:
    """A hidden hand paying a set is dealt cards that complete it."""
    rng = Rng(4)
    state = _match(5, seed=4)
    checked = 0
    while not state.is_over() and checked < 30:
        if state.step == "pay":
            payer = state.actor
            viewer = (payer + 1) % state.seat_count
            for seed in range(5):
                assert state.determinize(viewer, seed).legal_actions()
            checked += 1
        state.apply_unchecked(rng.choice(state.legal_actions()))
    assert checked


# ------------------------------------------------------------------ gods
def _hold(state: MareState, god: str, seat: int) -> int:
    from senet.games.marenostrum.cards import GOD_IDS

    index = GOD_IDS.index(god)
    state.god_holder[index] = seat
    state.god_used[index] = 0
    return index


def test_mars_adds_six_once() -> None:
    from senet.games.marenostrum import gods

    state = _match(6)
    mars = _hold(state, "mars", _seat_of(state, ROME))
    assert gods.mars_bonus(state, ROME) == 6
    assert state.god_used[mars] == 1
    assert gods.mars_bonus(state, ROME) == 0


def test_vulcan_destroys_a_city_but_never_a_capitals_last() -> None:
    from senet.games.marenostrum import gods

    state = _match(6)
    seat = _seat_of(state, ROME)
    _hold(state, "vulcan", seat)
    targets = {a.notation() for a in gods.invoke_options(state, seat, naval=False)}
    assert "invoke vulcan pelo" in targets  # Sparta, not Greece's capital
    assert "invoke vulcan atti" not in targets  # Athens: the capital's last city
    assert "invoke vulcan aegy" in targets  # Egypt's capital has two cities
    before = state.stock[2]
    gods.invoke(state, MARENOSTRUM.parse_action("invoke vulcan pelo"))
    assert state.cities[P("pelo")] == 0 and state.stock[2] == before + 1


def test_athena_guards_her_holder_from_other_gods() -> None:
    from senet.games.marenostrum import gods

    state = _match(6)
    seat = _seat_of(state, ROME)
    _hold(state, "vulcan", seat)
    _hold(state, "athena", _seat_of(state, EGYPT))
    targets = {a.notation() for a in gods.invoke_options(state, seat, naval=False)}
    assert not any(t.endswith(("aegy", "theb", "cyre")) for t in targets)


def test_hermes_gives_three_cards_after_revenue() -> None:
    from senet.games.marenostrum import gods

    state = _match(6)
    seat = _seat_of(state, ROME)
    _hold(state, "hermes", seat)
    before = sum(state.hands[seat])
    produced = [[0] * CARD_TYPES for _ in range(6)]
    produced[seat][card_type("wine")] = 1
    gods.after_revenue(state, produced)
    assert sum(state.hands[seat]) == before + 3


# ------------------------------------------------------------------ Greek blockade
def _rome_crossing(greek_ships: int, roman_ships: int) -> tuple[MareState, int, int]:
    """Rome, in its ground moves, about to cross the Ionian Sea into Peloponnesus."""
    from senet.games.marenostrum.civilizations import GREECE
    from senet.games.marenostrum.constants import GROUND, MILITARY

    state = _match(6)
    rome, greece = _seat_of(state, ROME), _seat_of(state, GREECE)
    ion, aeg = P("ion"), P("aeg")
    state.triremes[GREECE][aeg] = 0
    state.triremes[GREECE][ion] = greek_ships
    state.triremes[ROME][P("tyr")] = 0
    state.triremes[ROME][ion] = roman_ships
    state.legions[ROME][P("magn")] = 1
    state.phase, state.step = MILITARY, GROUND
    state.queue, state.actor = [rome], rome
    return state, rome, greece


def test_blockade_is_declared_and_may_be_let_through() -> None:
    state, rome, greece = _rome_crossing(1, 1)
    events = state.apply(rome, "move l magn pelo")
    assert state.step == "blockade" and state.current_seat() == greece
    assert any(e.kind == "blockade_declared" for e in events)
    state.apply(greece, "done")
    assert state.step == "ground" and state.legions[ROME][P("pelo")] == 1


def test_blockade_that_sinks_the_carrier_sends_the_unit_back() -> None:
    """Text: the invading unit is not lost; it returns and may move again."""
    state, rome, greece = _rome_crossing(5, 1)
    state.apply(rome, "move l magn pelo")
    state.apply(greece, "blockade ion")
    assert state.triremes[ROME][P("ion")] == 0
    assert state.legions[ROME][P("magn")] == 1 and state.legions[ROME][P("pelo")] == 0
    assert state.step == "ground" and state.current_seat() == rome
    assert "move l magn etru" in {a.notation() for a in state.legal_actions()}


def test_blockade_that_fails_lets_the_move_go_on() -> None:
    """Notes 6: if the Greek player fails, the units land and fight as usual."""
    state, rome, greece = _rome_crossing(1, 5)
    state.apply(rome, "move l magn pelo")
    state.apply(greece, "blockade ion")
    assert state.triremes[ROME][P("ion")] >= 4
    assert state.legions[ROME][P("pelo")] == 1 and state.step == "ground"


def test_no_blockade_by_land_or_against_a_neutral_greece() -> None:
    state = _match(3, seed=2)
    from senet.games.marenostrum.civilizations import GREECE

    if state.seat_of[GREECE] == -1:
        action = MARENOSTRUM.parse_action("move l magn pelo")
        assert not state._blockade_starts(0, action)


# ------------------------------------------------------------------ card powers
def _building(state: MareState, civ: int) -> int:
    from senet.games.marenostrum.constants import BUILD, CONSTRUCTION

    seat = _seat_of(state, civ)
    state.phase, state.step, state.queue, state.actor = CONSTRUCTION, BUILD, [seat], seat
    return seat


def test_cleopatra_swaps_one_card_with_the_bank_once_per_phase() -> None:
    state = _match(6)
    seat = _building(state, EGYPT)
    state.hands[seat][card_type("grain")] += 1
    state.bank[card_type("grain")] -= 1
    legal = {a.notation() for a in state.legal_actions()}
    assert "swap grain tax" in legal and "swap tax wine" in legal
    state.apply(seat, "swap grain tax")
    assert not any(a.notation().startswith("swap") for a in state.legal_actions())


def test_midas_turns_a_commodity_into_two_tax_cards() -> None:
    from senet.games.marenostrum.cards import OWNABLE_IDS

    state = _match(6)
    seat = _building(state, ROME)
    state.owned[seat].append(OWNABLE_IDS.index("midas"))
    wine = card_type("wine")
    state.hands[seat][wine] += 1
    state.bank[wine] -= 1
    tax, wines = state.hands[seat][0], state.hands[seat][wine]
    state.apply(seat, "gild wine")
    assert state.hands[seat][0] == tax + 2 and state.hands[seat][wine] == wines - 1


def test_jason_and_ariadne_move_two_spaces() -> None:
    from senet.games.marenostrum.cards import OWNABLE_IDS

    state = _match(6)
    seat = _seat_of(state, ROME)
    sails = {a.notation() for a in r.naval_options(state, ROME)}
    assert "sail tyr ion" in sails and "sail tyr crt" not in sails
    state.owned[seat] += [OWNABLE_IDS.index("jason"), OWNABLE_IDS.index("ariadne")]
    sails = {a.notation() for a in r.naval_options(state, ROME)}
    assert "sail tyr crt" in sails  # Tyrrhenum - Ionium - Creticum
    moves = {a.notation() for a in r.ground_options(state, ROME)}
    assert "move l lati magn" in moves and "move l etru illy" in moves


# ------------------------------------------------------------------ after battle
def test_occupier_claims_cities_then_caravans_then_doublings() -> None:
    """Ruling R10, text: a unit per city or caravan claims its income."""
    state = _match(6)
    camp = P("camp")  # Rome: a grain caravan; a city built at Neapolis
    state.cities[camp] = 1
    state.legions[ROME][camp] = 0
    state.legions[EGYPT][camp] = 1
    state.occupier[camp] = EGYPT
    assert r.claims(state, camp) == (1, 0, 0, 0)
    egypt = _seat_of(state, EGYPT)
    rome = _seat_of(state, ROME)
    assert r.revenue(state, rome)[1][card_type("grain")] == 1  # the caravan stays Rome's
    before = r.revenue(state, egypt)[1][0]
    state.occupier[camp] = -1
    assert r.revenue(state, egypt)[1][0] == before - 1
    state.occupier[camp] = EGYPT
    state.legions[EGYPT][camp] = 2
    assert r.claims(state, camp) == (1, 1, 0, 0)
    assert r.revenue(state, rome)[1][card_type("grain")] == 0


def test_occupation_ends_when_the_invader_leaves() -> None:
    state = _match(6)
    camp = P("camp")
    state.legions[EGYPT][camp] = 1
    state.occupier[camp] = EGYPT
    state.legions[EGYPT][camp] = 0
    r.refresh_control(state)
    assert state.occupier[camp] == -1


def test_sack_returns_the_building_to_the_stock() -> None:
    state = _match(6)
    lati = P("lati")
    cities = state.stock[2]
    r.sack(state, lati, 2, -1)
    assert state.cities[lati] == 0 and state.stock[2] == cities + 1
    caravans = state.stock[0]
    r.sack(state, lati, 0, card_type("wine"))
    assert state.caravans[lati] == 0 and state.stock[0] == caravans + 1


def test_conversion_is_completed_in_construction_next_to_the_empire() -> None:
    """Text: a unit on the marker; next construction the invader may replace it."""
    state = _match(6)
    camp = P("camp")
    state.legions[ROME][camp] = 0
    state.legions[EGYPT][camp] = 1
    state.converter[camp] = EGYPT
    assert camp not in r.convertible(state, EGYPT), "Campania is not next to Egypt"
    state.influence[P("magn")] = EGYPT
    assert camp in r.convertible(state, EGYPT)
