"""Mare Nostrum scenarios: the rule text's examples and the rulings, one test each.

Positions are built from a seeded match and then arranged by hand; every decision
goes through the checked ``apply`` with notation, as a client's would.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.games import Rng
from senet.games.errors import IllegalActionError, MalformedActionError
from senet.games.marenostrum import MARENOSTRUM, MareState
from senet.games.marenostrum import rules as r
from senet.games.marenostrum.board import (
    LAND_NEIGHBOURS,
    PROVINCES,
    SEA_NEIGHBOURS,
    SHORES,
    space_index,
)
from senet.games.marenostrum.civilizations import CIVS, EGYPT, ROME
from senet.games.marenostrum.commodities import CARD_TYPES, bank_start, card_type
from senet.games.marenostrum.constants import (
    COMMERCE_ROLE,
    MILITARY_ROLE,
    OFFER,
    POLITICAL_ROLE,
    TAKE,
    TRADE_SIZE,
)
from senet.games.marenostrum.tokens import (
    BUILDING_STOCK,
    BUY_ITEM,
    CARAVAN,
    CITY,
    LEGION,
    MAX_LEGIONS,
)
from tests.marenostrum.helpers import own

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


def test_each_die_rolled_is_reported_beside_the_total() -> None:
    """Three legions and two creatures: three faces rolled (1-6), the creatures
    count as sixes, and the total is the faces' sum plus 12."""
    state = _match(6)
    etru = P("etru")
    state.legions[EGYPT][etru] = 3
    state.creatures[EGYPT][etru] = 2
    dice: list[int] = []
    total = r.battle_total(state, EGYPT, etru, attacking=True, dice=dice)
    assert len(dice) == 3 and all(1 <= face <= 6 for face in dice)
    assert total == sum(dice) + 12
    fleet: list[int] = []
    tyr = P("tyr")
    state.triremes[EGYPT][tyr] = 2
    assert r.naval_total(state, EGYPT, tyr, fleet) == sum(fleet) and len(fleet) == 2


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


def test_vulcan_destroys_a_city_but_never_a_capitals_last() -> None:
    from senet.games.marenostrum import gods

    state = _match(6)
    seat = _seat_of(state, ROME)
    _hold(state, "vulcan", seat)
    targets = {a.notation() for a in gods.invoke_options(state, seat)}
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
    targets = {a.notation() for a in gods.invoke_options(state, seat)}
    assert not any(t.endswith(("aegy", "theb", "cyre")) for t in targets)


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
    events = state.apply(greece, "blockade ion")
    held = any(e.kind == "blockade_held" for e in events)
    assert state.triremes[ROME][P("ion")] == (4 if held else 5), "only the carrier fights"
    assert state.legions[ROME][P("pelo")] == (0 if held else 1) and state.step == "ground"


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
def test_occupier_claims_the_buildings_his_units_hold() -> None:
    """Ruling R10, text (L149): "Place a single Legion or Creature Token on each City or
    Caravan to claim income": a unit per city or caravan it stands on."""
    state = _match(6)
    camp = P("camp")  # Rome: a grain caravan; a city built at Neapolis
    state.cities[camp] = 1
    state.legions[ROME][camp] = 0
    state.legions[EGYPT][camp] = 1
    state.occupier[camp] = EGYPT
    state.held[camp][CITY] = 1
    assert r.claims(state, camp) == (1, 0, 0, 0)
    egypt = _seat_of(state, EGYPT)
    rome = _seat_of(state, ROME)
    assert r.revenue(state, rome)[1][card_type("grain")] == 1  # the caravan stays Rome's
    before = r.revenue(state, egypt)[1][0]
    state.occupier[camp] = -1
    assert r.revenue(state, egypt)[1][0] == before - 1
    state.occupier[camp] = EGYPT
    state.legions[EGYPT][camp] = 2
    state.held[camp][CARAVAN] = 1
    assert r.claims(state, camp) == (1, 1, 0, 0)
    assert r.revenue(state, rome)[1][card_type("grain")] == 0
    state.legions[EGYPT][camp] = 1  # one left: the caravan is freed before the city
    assert r.claims(state, camp) == (1, 0, 0, 0)


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


# ------------------------------------------------------------------ heroes and wonders
def _hand(state: MareState, seat: int, **cards: int) -> None:
    """Give ``seat`` exactly ``cards`` (names to counts), through the bank."""
    for card, count in enumerate(state.hands[seat]):
        state.bank[card] += count
    state.hands[seat] = [0] * CARD_TYPES
    for name, count in cards.items():
        state._draw(seat, card_type(name), count)


def test_temple_of_artemis_counts_in_one_commodity_set_a_phase() -> None:
    """Ruling R20: once a construction phase, a set of different commodities its owner
    chooses counts one card more."""
    state = _match(6)
    seat = _building(state, ROME)
    _hand(state, seat, grain=1, fruit=1)
    assert "build caravan etru wine" not in {a.notation() for a in state.legal_actions()}
    own(state, seat, "artemis")
    assert "build caravan etru wine" in {a.notation() for a in state.legal_actions()}
    state.apply(seat, "build caravan etru wine")
    legal = {a.notation() for a in state.legal_actions()}
    assert legal == {"pay grain artemis"}, "two cards make a set of three only with the temple"
    with pytest.raises(IllegalActionError, match="can take now: pay grain artemis"):
        state.apply(seat, "pay grain")
    viewer = (seat + 1) % state.seat_count
    for seed in range(5):  # another seat's guess at the hand can still pay the set
        guess = MareState.from_view(MARENOSTRUM, state.view(viewer), seed)
        assert guess.legal_actions() and state.determinize(viewer, seed).legal_actions()
    events = state.apply(seat, "pay grain artemis")
    assert any(e.kind == "card_power" and e.data["card"] == "artemis" for e in events)
    assert state.pay_left == 1
    state.apply(seat, "pay fruit")
    assert state.step == "build" and state.caravans[P("etru")] == 0b11
    assert sum(state.hands[seat]) == 0, "two cards paid a set of three"
    _hand(state, seat, gems=1, gold=1)
    assert "build caravan camp fruit" not in {a.notation() for a in state.legal_actions()}


def test_temple_of_artemis_is_saved_for_the_set_its_owner_chooses() -> None:
    """Ruling R20: the owner chooses the set the temple helps; a set paid in full
    leaves it ready for a later one (here a hero's set, one commodity short)."""
    state = _match(6)
    seat = _building(state, ROME)
    own(state, seat, "artemis")
    names = ["grain", "fruit", "gems", "slaves", "oil", "metal", "gold", "papyrus", "perfume"]
    _hand(state, seat, **{name: 1 for name in names[:8]}, wine=1, fish=1, pottery=1)
    state.apply(seat, "build caravan etru wine")
    legal = {a.notation() for a in state.legal_actions()}
    assert {"pay grain", "pay grain artemis"} <= legal, "with the temple, or without it"
    for card in ("fish", "wine", "pottery"):
        state.apply(seat, f"pay {card}")
    assert state.step == "build" and not state.powers_used[seat] & 4, "the temple is unused"
    hero = next(a for a in state.legal_actions() if a.kind == "buy")
    assert state.cost(seat, BUY_ITEM, hero.a) == 9
    state.apply(seat, hero)
    assert "pay grain" not in {a.notation() for a in state.legal_actions()}
    state.apply(seat, "pay grain artemis")
    for name in names[1:8]:
        state.apply(seat, f"pay {name}")
    assert hero.a in state.owned[seat] and state.step in ("build", "over")


def test_temple_of_artemis_is_no_reduced_cost_and_helps_a_reduced_one() -> None:
    """Ruling R20: L113 keeps one reduced cost, the best; the Temple of Artemis reduces
    none (the set counts one card more), so Caesar's legion (2) is paid with one
    commodity."""
    state = _match(6)
    seat = _building(state, ROME)
    assert state.cost(seat, LEGION) == 2, "Caesar: a legion for two"
    _hand(state, seat, grain=1)
    assert "build legion lati" not in {a.notation() for a in state.legal_actions()}
    own(state, seat, "artemis")
    assert state.cost(seat, LEGION) == 2, "the temple changes no cost"
    legions = state.legions[ROME][P("lati")]
    state.apply(seat, "build legion lati")
    state.apply(seat, "pay grain artemis")
    assert state.step == "build" and state.legions[ROME][P("lati")] == legions + 1
    assert sum(state.hands[seat]) == 0, "one card paid a set of two"


def test_the_temple_of_artemis_helps_no_tax_set_and_needs_a_card() -> None:
    """Ruling R20: the temple counts in a set of commodities only, and is never the
    whole set: a set of one card is paid with a card."""
    state = _match(6)
    seat = _building(state, ROME)
    own(state, seat, "artemis")
    _hand(state, seat, tax=3, grain=1, fruit=1)
    state.apply(seat, "build caravan etru wine")
    legal = {a.notation() for a in state.legal_actions()}
    assert "pay tax" in legal and "pay grain artemis" in legal
    assert not any(n.startswith("pay tax ") for n in legal)
    with pytest.raises(MalformedActionError, match="not tax"):
        state.apply(seat, "pay tax artemis")
    with pytest.raises(MalformedActionError, match="counts in no set"):
        state.apply(seat, "pay grain caesar")
    state.apply(seat, "pay tax")
    assert {a.notation() for a in state.legal_actions()} == {"pay tax"}


def test_ulysses_barters_one_card_after_the_trading() -> None:
    """Ruling R21: after the trading (none here), a card for any commodity of the bank
    ("any 1 commodity", notes 5.7), a second of a kind held too: it may begin a
    second set of different commodities."""
    state = _match(6)
    seat = _seat_of(state, EGYPT)
    own(state, seat, "ulysses")
    _hand(state, seat, tax=2, wine=1)
    state.apply(state.roles[COMMERCE_ROLE], "size 0")
    assert state.step == "barter" and state.current_seat() == seat
    legal = {a.notation() for a in state.legal_actions()}
    assert "barter tax gold" in legal and "barter wine gold" in legal and "pass" in legal
    assert "barter tax wine" in legal and "barter wine wine" not in legal
    state.apply(seat, "barter tax gold")
    assert state.hands[seat][0] == 1 and state.hands[seat][card_type("gold")] == 1
    assert state.step == "order"


def test_antigone_guards_temples_from_sack_and_their_provinces_from_gods() -> None:
    """Ruling R22."""
    from senet.games.marenostrum.civilizations import BABYLON

    state = _match(6)
    assy = P("assy")
    state.cities[assy] = state.temples[assy] = 1
    rome, babylon = _seat_of(state, ROME), _seat_of(state, BABYLON)
    _hold(state, "vulcan", rome)
    assert "invoke vulcan assy" in {a.notation() for a in gods_options(state, rome)}
    assert "sack temple" in {a.notation() for a in r.after_battle_options(state, assy)}
    own(state, babylon, "antigone")
    assert "invoke vulcan assy" not in {a.notation() for a in gods_options(state, rome)}
    options = {a.notation() for a in r.after_battle_options(state, assy)}
    assert "sack temple" not in options and "sack city" in options


def gods_options(state: MareState, seat: int) -> list:  # type: ignore[type-arg]
    from senet.games.marenostrum import gods

    return gods.invoke_options(state, seat)


def test_circe_keeps_one_enemy_legion_from_rolling_in_the_battle_she_enchants() -> None:
    """Ruling R23: owning Circe silences nothing until her spell is on the battle."""
    from senet.games.marenostrum.constants import SPELLBOUND

    state = _match(6)
    etru = P("etru")  # one Roman legion, no fortress
    egypt = _seat_of(state, EGYPT)
    own(state, egypt, "circe")
    assert r.battle_total(state, ROME, etru, attacking=False, enemy=EGYPT) > 0
    state.powers_used[egypt] |= SPELLBOUND
    assert r.battle_total(state, ROME, etru, attacking=False, enemy=EGYPT) == 0


def test_medusa_turns_an_enemy_legion_to_stone_once_a_military_phase() -> None:
    from senet.games.marenostrum.constants import GROUND, MILITARY

    state = _match(6)
    rome = _seat_of(state, ROME)
    etru = P("etru")
    state.legions[EGYPT][etru] = 2
    state.legions[ROME][P("aegy")] = 1  # beside Egypt's legion in its capital
    state.phase, state.step, state.queue, state.actor = MILITARY, GROUND, [rome], rome
    assert not any(a.kind == "gaze" for a in state.legal_actions())
    own(state, rome, "medusa")
    legal = {a.notation() for a in state.legal_actions()}
    assert "gaze etru egypt" in legal and "gaze aegy egypt" not in legal
    state.apply(rome, "gaze etru egypt")
    assert state.legions[EGYPT][etru] == 1
    assert not any(a.kind == "gaze" for a in state.legal_actions())


def test_moses_builds_in_his_own_provinces_at_war() -> None:
    """Ruling R25."""
    state = _match(6)
    seat = _building(state, ROME)
    _hand(state, seat, tax=6)
    state.legions[EGYPT][P("etru")] = 1
    assert "build legion etru" not in {a.notation() for a in state.legal_actions()}
    own(state, seat, "moses")
    assert "build legion etru" in {a.notation() for a in state.legal_actions()}


def test_penthesilea_raids_across_one_sea_without_triremes() -> None:
    """Ruling R26: only to attack, and no Greek blockade (no ship is used)."""
    state = _match(6)
    seat = _seat_of(state, ROME)
    state.triremes[ROME] = [0] * len(state.triremes[ROME])
    state.legions[EGYPT][P("sici")] = 1
    moves = {a.notation() for a in r.ground_options(state, ROME)}
    assert "move l lati sici" not in moves
    own(state, seat, "penthesilea")
    moves = {a.notation() for a in r.ground_options(state, ROME)}
    assert "move l lati sici" in moves and "move l lati sard" not in moves
    assert "move c lati sici" not in moves, "a raid is for legions"
    from senet.games.marenostrum.civilizations import GREECE

    state.triremes[ROME][P("ion")] = state.triremes[GREECE][P("ion")] = 1
    state.legions[ROME][P("magn")] = 1
    raid = MARENOSTRUM.parse_action("move l magn pelo")
    assert P("pelo") in r.raid_targets(state, ROME, P("magn"))
    assert not state._blockade_starts(seat, raid), "no ship carries a raid"


# ------------------------------------------------------------------ creatures
def test_pegasus_flies_two_spaces_and_is_never_carried() -> None:
    """Ruling R27: over land and sea, occupied or not; a chain of ships does not help."""
    from senet.games.marenostrum.civilizations import GREECE

    state = _match(6)
    state.creatures[ROME][P("magn")] = 1
    state.legions[ROME][P("magn")] = 1
    state.triremes[ROME][P("ion")] = 1
    state.triremes[ROME][P("crt")] = 1
    moves = {a.notation() for a in r.ground_options(state, ROME)}
    assert {"move c magn pelo", "move c magn epir", "move c magn sici"} <= moves
    assert "move c magn cret" not in moves, "three spaces away, reached only by ship"
    assert "move l magn cret" in moves
    state.triremes[GREECE][P("ion")] = 1
    assert not state._blockade_starts(
        _seat_of(state, ROME), MARENOSTRUM.parse_action("move c magn pelo")
    )


def test_centaur_destroys_an_enemy_legion_before_the_dice() -> None:
    from senet.games.marenostrum.civilizations import GREECE

    state = _match(6)
    etru = P("etru")
    state.legions[ROME][etru] = 2
    state.creatures[GREECE][etru] = 1
    state.queue = [_seat_of(state, GREECE)]
    state._ground_battle(GREECE, ROME, etru)
    assert state.legions[ROME][etru] == 1


def test_sphinx_riddle_forbids_sack_and_conversion_where_it_defended() -> None:
    """Ruling R29: the invader may only occupy (here: Thebes's city) or leave."""
    state = _match(6)
    theb = P("theb")
    state.legions[EGYPT][theb] = 0
    state.creatures[EGYPT][theb] = 1
    state.legions[ROME][theb] = 3
    state.queue = [_seat_of(state, ROME)]
    state._ground_battle(ROME, EGYPT, theb)
    assert theb in state.cursed
    assert [a.notation() for a in r.after_battle_options(state, theb)] == ["occupy"]
    state.cursed = []
    assert "convert" in {a.notation() for a in r.after_battle_options(state, theb)}


def test_hydra_survives_a_loss_on_four_or_more_once_a_battle() -> None:
    from senet.games.marenostrum.civilizations import CARTHAGE
    from senet.games.marenostrum.constants import CREATURE_UNIT

    outcomes = set()
    for seed in range(20):
        state = _match(6)
        afri = P("afri")
        state.creatures[CARTHAGE][afri] = 1
        state.queue = [_seat_of(state, ROME)]
        state.rng = Rng(seed)
        state.losses = [[CARTHAGE, afri, 2]]
        state.regrown = []
        state._lose(CREATURE_UNIT)
        survived = state.creatures[CARTHAGE][afri] == 1
        outcomes.add(survived)
        assert state.losses == [[CARTHAGE, afri, 1]]
        if survived:
            state._lose(CREATURE_UNIT)
            assert state.creatures[CARTHAGE][afri] == 0, "once a battle"
    assert outcomes == {True, False}


def test_behemoth_makes_fortresses_and_creatures_roll() -> None:
    from senet.games.marenostrum.civilizations import BABYLON

    state = _match(6)
    lati = P("lati")
    state.legions[ROME][lati] = 0
    state.creatures[ROME][lati] = 1
    totals = {r.battle_total(state, ROME, lati, False, enemy=BABYLON) for _ in range(10)}
    assert totals == {12}
    state.creatures[BABYLON][lati] = 1
    totals = {r.battle_total(state, ROME, lati, False, enemy=BABYLON) for _ in range(30)}
    assert len(totals) > 1 and all(2 <= t <= 12 for t in totals)


def test_kraken_fights_beside_its_fleet_and_keeps_to_the_coast() -> None:
    """Ruling R32."""
    from senet.games.marenostrum.civilizations import ATLANTIS

    state = _match(6)
    atl = P("atl")
    state.triremes[ATLANTIS][atl] = 0
    state.creatures[ATLANTIS][P("posi")] = 2
    assert r.naval_total(state, ATLANTIS, atl) == 0, "no fleet, no Kraken at sea"
    state.triremes[ATLANTIS][atl] = 1
    assert 13 <= r.naval_total(state, ATLANTIS, atl) <= 18
    state.creatures[ATLANTIS][P("syri")] = 1
    targets = r.creature_targets(state, ATLANTIS, P("syri"))
    assert P("cili") in targets and P("assy") not in targets and P("baby") not in targets


def test_mythology_hannibal_option_gives_a_free_legion() -> None:
    from senet.games.marenostrum.civilizations import CARTHAGE
    from senet.games.marenostrum.constants import CONSTRUCTION

    for option, cost in ((False, 3), (True, 0)):
        state = _match(6, mythology_hannibal=option)
        seat = _seat_of(state, CARTHAGE)
        state.phase, state.queue = CONSTRUCTION, [seat]
        state._begin_player()
        assert state.cost(seat, LEGION) == cost


# ------------------------------------------------------------------ blockade declaration
def test_blockade_declares_several_units_of_one_province_at_once() -> None:
    """Ruling R34: the units of one province cross together; the Greek answers once."""
    state, rome, greece = _rome_crossing(1, 1)
    state.legions[ROME][P("magn")] = 3
    state.apply(rome, "move l magn pelo")
    assert state.step == "declare" and state.current_seat() == rome
    state.apply(rome, "move l magn pelo")
    events = state.apply(rome, "done")
    declared = next(e for e in events if e.kind == "blockade_declared")
    assert declared.data["legions"] == 2 and state.current_seat() == greece
    state.apply(greece, "done")
    assert state.legions[ROME][P("pelo")] == 2 and state.legions[ROME][P("magn")] == 1


def test_a_sunk_carrier_sends_every_declared_unit_back() -> None:
    state, rome, greece = _rome_crossing(5, 1)
    state.legions[ROME][P("magn")] = 2
    state.apply(rome, "move l magn pelo")
    state.apply(rome, "move l magn pelo")
    assert state.current_seat() == greece
    state.apply(greece, "blockade ion")
    assert state.legions[ROME][P("magn")] == 2 and state.legions[ROME][P("pelo")] == 0
