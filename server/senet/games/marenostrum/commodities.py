"""Resource cards: the tax card and the thirteen commodities.

A hand, the bank and every pile of cards in a match is a list of counts indexed by
card type: index 0 is the tax card, 1 to 13 the commodities. The 2003 game has the
first twelve commodities; the Mythology expansion adds pottery (notes 3.2).
"""

from __future__ import annotations

TAX = 0
#: Commodity names, in card-type order (card type = position + 1).
COMMODITIES = (
    "livestock",
    "grain",
    "fruit",
    "gems",
    "slaves",
    "oil",
    "metal",
    "gold",
    "papyrus",
    "perfume",
    "fish",
    "wine",
    "pottery",
)
#: Every card type's notation: ``tax`` then the commodities.
CARD_NAMES = ("tax", *COMMODITIES)
CARD_TYPES = len(CARD_NAMES)
COMMODITY_TYPES = tuple(range(1, CARD_TYPES))

# Designed (notes 5.4): the printed counts are not public. 40 tax cards and ten of each
# commodity keep the bank finite without running dry in an ordinary game.
BANK_TAX = 40
BANK_PER_COMMODITY = 10


def bank_start() -> list[int]:
    """The full bank: every resource card of the game."""
    return [BANK_TAX, *([BANK_PER_COMMODITY] * len(COMMODITIES))]


def draw(bank: list[int], hand: list[int], card: int, count: int) -> int:
    """Move up to ``count`` cards of ``card`` from ``bank`` to ``hand``; return how many.

    The bank is finite: a draw from an empty pile gets fewer cards, never an error."""
    got = min(count, bank[card])
    bank[card] -= got
    hand[card] += got
    return got


def card_type(name: str) -> int:
    """The card type named ``name`` (``tax``, ``grain``...); ``-1`` when unknown."""
    try:
        return CARD_NAMES.index(name)
    except ValueError:
        return -1
