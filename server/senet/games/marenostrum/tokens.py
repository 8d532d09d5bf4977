"""Token counts: buildings by player count, pieces per colour, construction costs.

The chart of building tokens by player count and the Construction Cost Chart are in
the printed manual only (notes 2); the numbers here are designed (notes 5.3, 5.5).
"""

from __future__ import annotations

# Building kinds (indexes into the stock lists).
CARAVAN, MARKET, CITY, TEMPLE = range(4)
BUILDING_NAMES = ("caravan", "market", "city", "temple")

# Designed (notes 5.3): the full stock with 6 players; 5 players use the 2003 base
# stock; fewer players remove tokens in proportion.
BUILDING_STOCK: dict[int, tuple[int, int, int, int]] = {
    6: (33, 14, 14, 7),
    5: (28, 12, 12, 6),
    4: (25, 11, 11, 6),
    3: (22, 10, 10, 5),
}

# Pieces per colour ([C2] 5 triremes, 8 legions, 8 fortresses, 12 influence; [TEXT] 3
# creatures).
MAX_TRIREMES = 5
MAX_LEGIONS = 8
MAX_FORTRESSES = 8
MAX_INFLUENCE = 12
MAX_CREATURES = 3

# Constructible items (build notation names) and their cost in cards (text: sets of
# 3 and 6; the free set-up's cost in points is the same number, notes 5.5).
ITEMS = (
    "influence",
    "city",
    "caravan",
    "temple",
    "market",
    "fortress",
    "legion",
    "trireme",
    "creature",
)
(
    INFLUENCE,
    CITY_ITEM,
    CARAVAN_ITEM,
    TEMPLE_ITEM,
    MARKET_ITEM,
    FORTRESS,
    LEGION,
    TRIREME,
    CREATURE,
) = range(len(ITEMS))
ITEM_COST = (3, 3, 3, 6, 6, 3, 3, 3, 6)
#: Pseudo item numbers after ``ITEMS``, for the purchases paid like builds: a hero or
#: wonder, an offering to a god, a conversion.
BUY_ITEM = len(ITEMS)
GOD_ITEM = BUY_ITEM + 1
CONVERT_ITEM = BUY_ITEM + 2
#: Heroes and wonders cost a set of 9; the Pyramids 12 (13 in the long game).
HERO_COST = 9
PYRAMIDS_COST = 12
PYRAMIDS_COST_LONG = 13
#: Heroes and wonders needed to win (5 in the long game).
VICTORY_CARDS = 4
VICTORY_CARDS_LONG = 5

# Free set-up (text): 45 points, 5 rounds of 9.
FREE_SETUP_ROUNDS = 5
FREE_SETUP_POINTS = 9

#: Tax cards a player may keep after the construction phase (text).
KEEP_TAX = 2
