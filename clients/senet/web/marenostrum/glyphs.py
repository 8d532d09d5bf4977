"""Small pictures of the Mare Nostrum map: buildings and chips with words in them.

Shapes are drawn at a given point so that tiles, the legend and the panels share
them; the legend under the map says what each means.
"""

from __future__ import annotations

from senet.web.boards import svg
from senet.web.marenostrum.style import INK

#: Advance of one character of the chips' 10px bold text (a little generous, so
#: that a chip never clips its words).
CHAR_WIDTH = 6.4


def chip(x: float, y: float, words: str, fill: str, ink: str, **extra: object) -> tuple[str, float]:
    """A rounded label with its left edge at x, its baseline at y; returns it and its width."""
    width = len(words) * CHAR_WIDTH + 6
    parts = svg.rect(x, y - 10, width, 13, rx=3, fill=fill, **extra) + svg.text(
        x + 3, y, words, class_="mn-chip", fill=ink
    )
    return parts, width


def city(x: float, y: float, hollow: bool = False) -> str:
    """A house: the city token (its left edge at x, its foot at y); hollow, a free site."""
    return svg.polygon(
        [(x, y), (x, y - 6), (x + 4.5, y - 10), (x + 9, y - 6), (x + 9, y)],
        fill="none" if hollow else "#7a4b24",
        stroke="#5b4a2a" if hollow else INK,
        stroke_width=1 if hollow else 0.8,
        stroke_dasharray="2 1.5" if hollow else None,
    )


def temple(x: float, y: float) -> str:
    """A pediment over columns: the temple token."""
    return svg.polygon(
        [
            (x, y),
            (x, y - 6),
            (x - 0.5, y - 6),
            (x + 4.5, y - 10.5),
            (x + 9.5, y - 6),
            (x + 9, y - 6),
            (x + 9, y),
        ],
        fill="#f0f0f0",
        stroke=INK,
        stroke_width=1,
    ) + svg.line(x + 4.5, y - 5, x + 4.5, y, stroke=INK, stroke_width=1)


def market(x: float, y: float) -> str:
    """A coin: the market token."""
    return svg.circle(x + 4.5, y - 4.5, 4.5, fill="#e2b007", stroke=INK, stroke_width=1)


def fortress(x: float, y: float) -> str:
    """A crenellated tower: the fortress."""
    return svg.polygon(
        [
            (x, y),
            (x, y - 10),
            (x + 2, y - 10),
            (x + 2, y - 8),
            (x + 4, y - 8),
            (x + 4, y - 10),
            (x + 6, y - 10),
            (x + 6, y - 8),
            (x + 8, y - 8),
            (x + 8, y - 10),
            (x + 10, y - 10),
            (x + 10, y),
        ],
        fill="#8c8c8c",
        stroke=INK,
        stroke_width=0.8,
    )


#: Drawers of the building kinds, in the order a tile lists them.
BUILDINGS = {"city": city, "temple": temple, "market": market, "fortress": fortress}
