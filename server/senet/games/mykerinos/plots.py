"""The 36 plot cards, as data.

The rulebook shows each plot only in pictures, and no public source lists the
printed layouts (see ``shared/rules/README.md``), so this deck is *designed*:

* 7 cards per patron and one card without a patron worth 5 prestige points.
* Every patron gets the same mix, so no patron is easier to win than another:
  four 0-point plots (with 0, 1, 1 and 2 pyramids), two 2-point plots (1 and 2
  pyramids) and one 3-point plot (2 pyramids). Richer plots are harder to dig.
* Pyramid positions differ from card to card so regions vary; plots are also
  rotated 180 degrees at random when dealt.

A layout is three rows of two cells, top row first, ``P`` for a pyramid and ``.``
for an open space. To use the printed values, replace the rows of ``_DECK`` (and
keep the card count at 36: the campaigns use 8 + 8 + 8 + 12 plots).
"""

from __future__ import annotations

from dataclasses import dataclass

from senet.games.mykerinos.patrons import Patron

PLOT_COLUMNS = 2
PLOT_ROWS = 3


@dataclass(frozen=True)
class PlotCard:
    """One plot card: its id, the patron on its back (None for the 5-point card),
    the prestige points in its cartouche and its six cells (True = pyramid),
    row-major from the top-left cell."""

    id: int
    patron: Patron | None
    points: int
    pyramids: tuple[bool, ...]

    def pyramid_at(self, row: int, column: int, rotated: bool) -> bool:
        """Whether the cell at (row, column) of the card as laid is a pyramid."""
        if rotated:
            row, column = PLOT_ROWS - 1 - row, PLOT_COLUMNS - 1 - column
        return self.pyramids[row * PLOT_COLUMNS + column]


#: (patron, points, layout "row|row|row").
_DECK: tuple[tuple[Patron | None, int, str], ...] = (
    (Patron.CURATOR, 0, "..|..|.."),
    (Patron.CURATOR, 0, "P.|..|.."),
    (Patron.CURATOR, 0, "..|.P|.."),
    (Patron.CURATOR, 0, "P.|..|.P"),
    (Patron.CURATOR, 2, "..|P.|.."),
    (Patron.CURATOR, 2, ".P|..|P."),
    (Patron.CURATOR, 3, "..|PP|.."),
    (Patron.COLONEL, 0, "..|..|.."),
    (Patron.COLONEL, 0, ".P|..|.."),
    (Patron.COLONEL, 0, "..|P.|.."),
    (Patron.COLONEL, 0, ".P|..|P."),
    (Patron.COLONEL, 2, "..|..|.P"),
    (Patron.COLONEL, 2, "P.|..|.P"),
    (Patron.COLONEL, 3, "PP|..|.."),
    (Patron.EXPLORER, 0, "..|..|.."),
    (Patron.EXPLORER, 0, "..|..|P."),
    (Patron.EXPLORER, 0, "..|.P|.."),
    (Patron.EXPLORER, 0, "P.|.P|.."),
    (Patron.EXPLORER, 2, "P.|..|.."),
    (Patron.EXPLORER, 2, "..|P.|.P"),
    (Patron.EXPLORER, 3, ".P|P.|.."),
    (Patron.HEIRESS, 0, "..|..|.."),
    (Patron.HEIRESS, 0, "..|..|.P"),
    (Patron.HEIRESS, 0, ".P|..|.."),
    (Patron.HEIRESS, 0, "..|PP|.."),
    (Patron.HEIRESS, 2, "..|.P|.."),
    (Patron.HEIRESS, 2, "P.|.P|.."),
    (Patron.HEIRESS, 3, "P.|..|P."),
    (Patron.DIRECTOR, 0, "..|..|.."),
    (Patron.DIRECTOR, 0, "..|P.|.."),
    (Patron.DIRECTOR, 0, "P.|..|.."),
    (Patron.DIRECTOR, 0, ".P|..|.P"),
    (Patron.DIRECTOR, 2, "..|..|P."),
    (Patron.DIRECTOR, 2, ".P|P.|.."),
    (Patron.DIRECTOR, 3, "..|.P|P."),
    (None, 5, ".P|..|P."),
)


def _parse_layout(layout: str) -> tuple[bool, ...]:
    rows = layout.split("|")
    if len(rows) != PLOT_ROWS or any(len(r) != PLOT_COLUMNS for r in rows):
        raise ValueError(f"bad plot layout {layout!r}")
    return tuple(cell == "P" for row in rows for cell in row)


PLOT_CARDS: tuple[PlotCard, ...] = tuple(
    PlotCard(i, patron, points, _parse_layout(layout))
    for i, (patron, points, layout) in enumerate(_DECK)
)

#: Id of the 5-point card without a patron (scored, then returned to the box).
SPECIAL_PLOT_ID: int = next(c.id for c in PLOT_CARDS if c.patron is None)
