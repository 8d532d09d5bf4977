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

Hidden parts (other hands, pending offers) are read from the state as given:
strategies only ever evaluate determinized copies, so nothing hidden leaks.
"""

from __future__ import annotations

from senet.bots.heuristics import GameHeuristics, score_values
from senet.games import GameState
from senet.games.marenostrum import MareState
from senet.games.marenostrum.board import PROVINCES
from senet.games.marenostrum.cards import GOD_IDS, PYRAMIDS_INDEX
from senet.games.marenostrum.civilizations import CIVS
from senet.games.marenostrum.commodities import COMMODITY_TYPES, TAX
from senet.games.marenostrum.constants import CONSTRUCTION, NOBODY, OVER, PAY
from senet.games.marenostrum.rules import set_spare
from senet.games.marenostrum.tokens import ITEMS

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
            worths[occupier[p]] += OCCUPIED_WORTH
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
                value += GOD_WORTH.get(GOD_IDS[god], 0.1)
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


MARENOSTRUM_HEURISTICS = GameHeuristics("marenostrum", marenostrum_values)
