"""Mare Nostrum position evaluation for the bots, in heroes and wonders.

The ``marenostrum`` plug-in of ``senet.bot_heuristics`` (see :mod:`senet.bots.heuristics`):
:func:`marenostrum_values` is the evaluator. The score is heroes and wonders owned
(four win; the Pyramids win at once), so every other holding is priced as a share of
one hero: what it brings in before the match ends (provinces, buildings), what it
defends or conquers (units), and the cards that will pay for the next purchase.

A purchase being paid counts as made, less the cards still to pay: the choice to
build or buy comes one ply before the payment, and greedy must see both the gain
and its price at that ply. The same worths price a finished building, so paying
card by card never looks like a loss of what was bought.

:func:`marenostrum_search_values`, MCTS's evaluator, adds a forecast: the cards each
seat's empire will bring in at its next revenues. The fixed worths above price a
temple the same in a province without a city as beside one, and a caravan of a
commodity the seat already produces the same as one of a kind it lacks; the forecast
tells them apart, and it is what makes a construction plan pay. (Measured with
greedy, one ply: the forecast alone turns an equal share of the wins into about
two thirds of them against three plain greedy bots.)

Hidden parts (other hands, pending offers) are read from the state as given:
strategies only ever evaluate determinized copies, so nothing hidden leaks.
"""

from __future__ import annotations

from senet.bots.heuristics import GameHeuristics, score_values
from senet.games import GameState
from senet.games.marenostrum import MareState
from senet.games.marenostrum.board import ICONS, PROVINCES
from senet.games.marenostrum.cards import (
    GOD_IDS,
    INCOME,
    OWNABLE,
    PYRAMIDS_INDEX,
    SILENCE,
    effects_of,
)
from senet.games.marenostrum.civilizations import CIVS
from senet.games.marenostrum.commodities import CARD_TYPES, COMMODITY_TYPES, TAX
from senet.games.marenostrum.constants import (
    COMMERCE,
    CONSTRUCTION,
    MILITARY,
    NOBODY,
    OVER,
    PAY,
    ROLE_TIE,
    SPELL_POWER,
)
from senet.games.marenostrum.gods import hermes_left
from senet.games.marenostrum.rules import at_war, claims, set_spare
from senet.games.marenostrum.tokens import CARAVAN_ITEM, CITY_ITEM, ITEMS, MARKET_ITEM, TEMPLE_ITEM

# Worths in heroes (one hero or wonder = 1.0), hand-set so that a building pays for
# its cards (three cards are about a quarter of a hero) and greedy keeps a set whole.

#: A card in hand (a hero costs a set of nine).
CARD_WORTH = 0.04
#: Each card of the largest set the hand makes (tax cards, or different commodities):
#: only a set pays for a purchase, so a card that grows it is worth more.
SET_WORTH = 0.03
#: Taken cards join the hand at the end of the trade; offered ones leave it.
FACE_DOWN_SHARE = 1.0
#: A province under the seat's influence: income, a step toward the empire's
#: neighbours, and the turn-limit ranking's tie-break.
PROVINCE_WORTH = 0.35
CITY_WORTH = 0.3
CARAVAN_WORTH = 0.3
TEMPLE_WORTH = 0.5
MARKET_WORTH = 0.5
FORTRESS_WORTH = 0.15
LEGION_WORTH = 0.15
CREATURE_WORTH = 0.35
TRIREME_WORTH = 0.12
#: An enemy province the seat occupies (it claims the income) or is converting.
OCCUPIED_WORTH = 0.25
CONVERTING_WORTH = 0.25
#: Each card a revenue brings the occupier from the buildings his units hold (so that
#: he puts them where the income is, ruling R10).
CLAIM_WORTH = 0.02
#: A role held: it orders a phase (the Director sets the trade and takes first).
ROLE_WORTH = 0.2
#: Being one hero or wonder short of victory: the next purchase wins.
NEAR_VICTORY = 0.3
#: The Pyramids win the match.
WIN_WORTH = 10.0
#: A god held and unused, by id (what its power brings its holder).
GOD_WORTH = {
    "athena": 0.1,
    "baal": 0.2,
    "hermes": 0.3,
    "isis": 0.05,
    "ishtar": 0.15,
    "mars": 0.2,
    "poseidon": 0.15,
    "vulcan": 0.2,
}
#: Circe's spell not yet cast this military phase (ruling R23): a legion's die kept
#: from rolling in a later battle, about a third of a legion.
SPELL_WORTH = 0.05
#: What a purchase being paid is worth once made, by item name.
ITEM_WORTH = {
    "influence": PROVINCE_WORTH,
    "city": CITY_WORTH,
    "caravan": CARAVAN_WORTH,
    "temple": TEMPLE_WORTH,
    "market": MARKET_WORTH,
    "fortress": FORTRESS_WORTH,
    "legion": LEGION_WORTH,
    "trireme": TRIREME_WORTH,
    "creature": CREATURE_WORTH,
}
_BUY_ITEM = len(ITEMS)
_GOD_ITEM = _BUY_ITEM + 1
_CONVERT_ITEM = _BUY_ITEM + 2


def _god_worth(state: MareState, seat: int, god: str) -> float:
    """An unused god, as long as his holder can still invoke him before the gods go
    back to the heavens (the next offering phase): nothing once his moment is past,
    so that a bot spends him rather than holding him to the end. The commerce phase
    is the last moment (its ``trade_god`` step); Ishtar's is the role step."""
    if state.phase == COMMERCE or (god == "ishtar" and state.step == ROLE_TIE):
        # Ishtar acts only before the roles move; once they do, she is spent or lost.
        return 0.0
    return GOD_WORTH.get(god, 0.1)


def _hand_worth(hand: list[float], spare: int = 0) -> float:
    """Cards, and the largest set they make; ``spare`` cards the Temple of Artemis adds
    to a set of different commodities."""
    distinct = sum(1 for t in COMMODITY_TYPES if hand[t])
    return CARD_WORTH * sum(hand) + SET_WORTH * max(hand[TAX], distinct + spare)


def _purchase_worth(state: MareState) -> float:
    """The purchase being paid, as made, less the cards still to pay."""
    item, a = state.purchase[0], state.purchase[1]
    if item == _BUY_ITEM:
        gain = WIN_WORTH if a == PYRAMIDS_INDEX else 1.0
    elif item == _GOD_ITEM:
        gain = GOD_WORTH.get(GOD_IDS[a], 0.1)
    elif item == _CONVERT_ITEM:
        gain = PROVINCE_WORTH
    else:
        gain = ITEM_WORTH.get(ITEMS[item], 0.1)
    return gain - (CARD_WORTH + SET_WORTH) * state.pay_left


def _claimed_cards(state: MareState, p: int) -> int:
    """Cards a revenue brings the occupier of ``p`` from the buildings he holds."""
    cities, caravans, temple, market = claims(state, p)
    return cities * (2 if temple else 1) + caravans.bit_count() * (2 if market else 1)


def _board_worths(state: MareState) -> list[float]:
    """Per civilization: provinces, buildings in them, and units on the map.

    One pass over the provinces for every civilization at once: the evaluator runs
    thousands of times per search, and this is most of its work.
    """
    worths = [0.0] * CIVS
    influence, occupier, converter = state.influence, state.occupier, state.converter
    cities, caravans, temples = state.cities, state.caravans, state.temples
    markets, fortresses = state.markets, state.fortresses
    for p in range(PROVINCES):
        owner = influence[p]
        if owner != NOBODY:
            worths[owner] += (
                PROVINCE_WORTH
                + CITY_WORTH * cities[p]
                + CARAVAN_WORTH * caravans[p].bit_count()
                + TEMPLE_WORTH * temples[p]
                + MARKET_WORTH * markets[p]
                + FORTRESS_WORTH * fortresses[p]
            )
        if occupier[p] != NOBODY:
            worths[occupier[p]] += OCCUPIED_WORTH + CLAIM_WORTH * _claimed_cards(state, p)
        if converter[p] != NOBODY:
            worths[converter[p]] += CONVERTING_WORTH
    for civ in range(CIVS):
        worths[civ] += LEGION_WORTH * sum(state.legions[civ])
        worths[civ] += CREATURE_WORTH * sum(state.creatures[civ])
        worths[civ] += TRIREME_WORTH * sum(state.triremes[civ])
    return worths


def marenostrum_values(state: GameState) -> list[float]:
    """Expected standing per seat of a Mare Nostrum position, in heroes and wonders.

    A finished match is its ranking: the winner far ahead, then heroes and wonders,
    with provinces, roles and cities as the small tie-breaks the ranking uses.
    """
    if not isinstance(state, MareState):
        return score_values(state)
    over = state.step == OVER
    need = state.victory_cards()
    boards = [] if over else _board_worths(state)
    values = []
    for seat in range(state.seat_count):
        civ = state.civ_of[seat]
        owned = state.owned[seat]
        heroes = float(len([c for c in owned if c != PYRAMIDS_INDEX]))
        if PYRAMIDS_INDEX in owned or state.winner == seat:
            heroes += WIN_WORTH
        if over:
            provinces = state.influence.count(civ)
            cities = sum(state.cities[p] for p in range(PROVINCES) if state.influence[p] == civ)
            ties = 0.01 * provinces + 0.001 * state.roles.count(seat) + 0.0001 * cities
            values.append(heroes + ties)
            continue
        value = heroes + (NEAR_VICTORY if len(owned) == need - 1 else 0.0)
        value += boards[civ]
        value += ROLE_WORTH * state.roles.count(seat)
        for god, holder in enumerate(state.god_holder):
            if holder == seat and not state.god_used[god]:
                value += _god_worth(state, seat, GOD_IDS[god])
        # Hermes's cards still to pick (the ``gift`` step): as good as in hand, so that
        # invoking him is not seen as giving the god up for nothing.
        value += hermes_left(state, seat) * (CARD_WORTH + SET_WORTH)
        if state.phase == MILITARY and not state.powers_used[seat] & SPELL_POWER:
            value += SPELL_WORTH * len(effects_of(owned, SILENCE))
        taken = state.face_down[seat]
        hand = [h + FACE_DOWN_SHARE * d for h, d in zip(state.hands[seat], taken, strict=True)]
        # The Temple of Artemis's spare card as its next construction phase will see it
        # (priced in every phase, so that the phase changing moves no value).
        spare = set_spare(owned, state.powers_used[seat], CONSTRUCTION)
        value += _hand_worth(hand, spare if any(hand[t] for t in COMMODITY_TYPES) else 0)
        if state.step == PAY and state.purchase and state.actor == seat:
            value += _purchase_worth(state)
        values.append(value)
    return values


# ------------------------------------------------------------------ the forecast
#: A card of revenue, per revenue still to come (a card in hand is worth about
#: CARD_WORTH + SET_WORTH, and revenue is a card every turn).
INCOME_CARD_WORTH = 0.05
#: Each commodity kind in the revenue, on top: sets of different commodities need kinds.
INCOME_KIND_WORTH = 0.05
#: Revenues counted at most: further ones are too uncertain (the map changes hands).
FORECAST_TURNS = 3


#: Per province and caravan bits, the commodities its caravans bring (in icon order).
_CARAVAN_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(icon for i, icon in enumerate(icons) if mask >> i & 1)
        for mask in range(1 << len(icons))
    )
    for icons in ICONS
)


def _province_income(state: MareState, p: int, incomes: list[list[int]]) -> None:
    """Add province ``p``'s revenue to the civilizations it pays (``rules.revenue``'s
    split, province by province; ``incomes`` is indexed by civilization)."""
    owner, occupier = state.influence[p], state.occupier[p]
    if occupier != NOBODY and at_war(state, p):
        # Ruling R36: a province at war pays its influence marker's owner only.
        occupier = NOBODY
        if owner == NOBODY:
            return
    built = _CARAVAN_CARDS[p][state.caravans[p]]
    cities = state.cities[p]
    tax_each = 2 if state.temples[p] else 1
    goods_each = 2 if state.markets[p] else 1
    if occupier == NOBODY:
        row = incomes[owner]
        row[TAX] += cities * tax_each
        for card in built:
            row[card] += goods_each
        return
    c_cities, c_caravans, temple, market = claims(state, p)
    taker = incomes[occupier]
    taker[TAX] += c_cities * (2 if temple else 1)
    for card in _CARAVAN_CARDS[p][c_caravans]:
        taker[card] += 2 if market else 1
    if owner != NOBODY:
        row = incomes[owner]
        row[TAX] += (cities - c_cities) * (1 if temple else tax_each)
        for card in _CARAVAN_CARDS[p][state.caravans[p] & ~c_caravans]:
            row[card] += 1 if market else goods_each


def revenues(state: MareState) -> list[list[int]]:
    """Per seat, the cards its next commerce phase would bring as the board stands:
    ``rules.revenue`` for every seat in one pass over the provinces."""
    incomes = [[0] * CARD_TYPES for _ in range(CIVS)]
    for p in range(PROVINCES):
        if state.influence[p] != NOBODY or state.occupier[p] != NOBODY:
            _province_income(state, p, incomes)
    out = []
    for seat in range(state.seat_count):
        civ = state.civ_of[seat]
        cards = incomes[civ]
        for effect in effects_of(state.owned[seat], INCOME):
            if effect.arg == "tax":
                cards[TAX] += effect.amount
            elif effect.arg == "tax_per_temple":
                temples = sum(
                    state.temples[p] for p in range(PROVINCES) if state.influence[p] == civ
                )
                cards[TAX] += effect.amount * temples
        out.append(cards)
    return out


def _add_purchase_income(state: MareState, cards: list[int]) -> None:
    """The revenue the purchase being paid will add once made (it counts as made)."""
    item, a, b, c = state.purchase
    if item == CITY_ITEM:
        cards[TAX] += 2 if state.temples[b] else 1
    elif item == CARAVAN_ITEM:
        cards[c] += 2 if state.markets[b] else 1
    elif item == TEMPLE_ITEM:
        cards[TAX] += state.cities[b]
    elif item == MARKET_ITEM:
        for icon in _CARAVAN_CARDS[b][state.caravans[b]]:
            cards[icon] += 1
    elif item == _CONVERT_ITEM:
        cards[TAX] += state.cities[a] * (2 if state.temples[a] else 1)
        for icon in _CARAVAN_CARDS[a][state.caravans[a]]:
            cards[icon] += 2 if state.markets[a] else 1
    elif item == _BUY_ITEM:
        # A wonder's income (Colossus, Hanging Gardens, Sheba): about its amount a turn.
        cards[TAX] += sum(e.amount for e in OWNABLE[a].effects if e.kind == INCOME)


def revenues_to_come(state: MareState) -> int:
    """Commerce phases still ahead (this turn's revenue is collected as it begins),
    at most :data:`FORECAST_TURNS`; without a turn limit, always that many."""
    limit = int(state.options.get("turn_limit", 0))
    if not limit:
        return FORECAST_TURNS
    return max(0, min(FORECAST_TURNS, limit - max(state.turn, 1)))


def marenostrum_search_values(state: GameState) -> list[float]:
    """:func:`marenostrum_values` plus each seat's forecast revenue: per revenue still
    to come, its cards and its commodity kinds (the purchase being paid counts)."""
    values = marenostrum_values(state)
    if not isinstance(state, MareState) or state.step == OVER:
        return values
    turns = revenues_to_come(state)
    if not turns:
        return values
    paying = state.actor if state.step == PAY and state.purchase else NOBODY
    for seat, cards in enumerate(revenues(state)):
        if seat == paying:
            _add_purchase_income(state, cards)
        kinds = sum(1 for t in COMMODITY_TYPES if cards[t])
        values[seat] += turns * (INCOME_CARD_WORTH * sum(cards) + INCOME_KIND_WORTH * kinds)
    return values


MARENOSTRUM_HEURISTICS = GameHeuristics(
    "marenostrum", marenostrum_values, search_values=marenostrum_search_values
)
