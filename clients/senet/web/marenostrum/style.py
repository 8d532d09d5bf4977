"""Colours and short words of the Mare Nostrum board.

Each civilization has a strong colour (a tile's header, a unit's chip), the ink that
reads on it (contrast 4.5:1 or better) and a light tint (the body of a tile under its
influence). Colour never carries a fact alone: chips and headers also carry the
civilization's letter, and every shape has a tooltip in words.
"""

from __future__ import annotations

from typing import NamedTuple

from senet.text.marenostrum.names import CARD_NAMES, CIV_LETTERS


class CivColours(NamedTuple):
    strong: str
    ink: str
    tint: str


#: By ``MareNostrumCivilization`` value - 1 (Rome .. Atlantis).
CIV_COLOURS: tuple[CivColours, ...] = (
    CivColours("#b03a2e", "#ffffff", "#f6d5d0"),  # Rome
    CivColours("#1f5fbf", "#ffffff", "#d6e2f8"),  # Greece
    CivColours("#c99a06", "#111111", "#f8ecb8"),  # Egypt
    CivColours("#7d3c98", "#ffffff", "#ead9f1"),  # Carthage
    CivColours("#1e7b45", "#ffffff", "#d2ebdb"),  # Babylon
    CivColours("#0f7285", "#ffffff", "#cbe9ef"),  # Atlantis
)
#: A province under nobody's influence.
NOBODY = CivColours("#6b5d40", "#ffffff", "#f4ecd6")

INK = "#1b1b1b"
WATER = "#cfe4f4"
SEA_FILL = "#a9cfec"
SEA_LINE = "#2f6796"
SEA_INK = "#0d2f4f"
BRIDGE = "#a8874a"
#: Marks of the military phase: a battle to resolve, one fought, the blockade's chain.
BATTLE = "#c0392b"
FOUGHT = "#6e2c00"
CHAIN = "#d35400"


def civ_colours(civilization: int) -> CivColours:
    """The colours of a ``MareNostrumCivilization`` value; :data:`NOBODY`'s for none."""
    if 1 <= civilization <= len(CIV_COLOURS):
        return CIV_COLOURS[civilization - 1]
    return NOBODY


def civ_letter(civilization: int) -> str:
    """``R`` for Rome, as on the text client's map; ``-`` for nobody."""
    if 1 <= civilization <= len(CIV_LETTERS):
        return CIV_LETTERS[civilization - 1]
    return "-"


def card_short(card: int) -> str:
    """Three letters of a ``MareNostrumCard`` value (``tax``, ``win``, ``pap``)."""
    if 1 <= card <= len(CARD_NAMES):
        return CARD_NAMES[card - 1][:3]
    return "?"
