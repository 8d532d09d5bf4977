"""The Nile expansion's nine cards, as data, and where they lie on the region.

The rulebook shows the Nile cards only in pictures (see ``shared/rules/README.md``),
so their layouts are *designed* here. What the rulebook fixes:

* 9 cards of 6 spaces: 5 with the Governor patron on the back, 4 with a neutral
  back whose effects are 1 point + 1 archaeologist, 2 archaeologists, a tie card
  and 8 points (the special card, the one with 5 river spaces);
* some spaces are river, the others land (with or without a pyramid).

Designed here (ruling N-1 in ``docs/rules/mykerinos.md``): a Nile card is 2 columns
by 3 rows like a plot, and lies across the border of one row of areas, covering
the inner column of the left area (``d``) and of the right area (``e``). As laid,
its left column is the left bank, its right column the right bank: a land space
belongs to the area whose column it covers, so a bank archaeologist, moved onto
the covered space beneath it in phase 3, never changes area. Every river is one
orthogonally connected stream from the card's top row to its bottom row. Like a
plot, a Nile card may be laid rotated half a turn (ruling N-2), which swaps its
banks; the stream still crosses it from top to bottom.

A layout is three rows of two cells, top row first: ``~`` river, ``.`` land,
``P`` land with a pyramid. Replace the rows of ``_CARDS`` with the printed values;
keep five Governor cards and the four effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from senet.games.mykerinos.plots import PLOT_COLUMNS, PLOT_ROWS
from senet.games.mykerinos.region import AREA_WIDTH, COLUMNS

#: Effects of the neutral-backed cards (stable codes, used in views and events).
GOVERNOR = "governor"
POINT_AND_ARCHAEOLOGIST = "point_and_archaeologist"
TWO_ARCHAEOLOGISTS = "two_archaeologists"
TIE_WINNER = "tie_winner"
EIGHT_POINTS = "eight_points"

RIVER, LAND, PYRAMID = "~", ".", "P"

#: The two columns a Nile card covers: the left area's inner column (d) and the
#: right area's inner column (e).
NILE_FIRST_COLUMN = AREA_WIDTH - 1


@dataclass(frozen=True)
class NileCard:
    """One Nile card.

    Attributes:
        id: 0-8; ids 0-4 carry the Governor, 5-8 a neutral back.
        effect: ``GOVERNOR`` or one of the neutral effects.
        points: Prestige scored when the card is claimed.
        cells: Six cells, row-major from the top-left: ``~``, ``.`` or ``P``.
    """

    id: int
    effect: str
    points: int
    cells: str

    @property
    def governor(self) -> bool:
        return self.effect == GOVERNOR

    def cell(self, row: int, column: int) -> str:
        return self.cells[row * PLOT_COLUMNS + column]


#: (effect, points, layout "row|row|row").
_CARDS: tuple[tuple[str, int, str], ...] = (
    (GOVERNOR, 3, "~.|~P|~."),
    (GOVERNOR, 2, ".~|P~|.~"),
    (GOVERNOR, 2, "~.|~~|.~"),
    (GOVERNOR, 0, ".~|~~|~."),
    (GOVERNOR, 0, "P~|.~|~~"),
    (POINT_AND_ARCHAEOLOGIST, 1, "~.|~.|~P"),
    (TWO_ARCHAEOLOGISTS, 0, ".~|.~|P~"),
    (TIE_WINNER, 0, "~~|.~|.~"),
    (EIGHT_POINTS, 8, "~~|.~|~~"),
)

NILE_CARDS: tuple[NileCard, ...] = tuple(
    NileCard(i, effect, points, layout.replace("|", ""))
    for i, (effect, points, layout) in enumerate(_CARDS)
)
GOVERNOR_DECK: tuple[int, ...] = tuple(c.id for c in NILE_CARDS if c.governor)
NEUTRAL_DECK: tuple[int, ...] = tuple(c.id for c in NILE_CARDS if not c.governor)
#: The special card always lies at the bottom of the neutral deck.
SPECIAL_CARD: int = next(c.id for c in NILE_CARDS if c.effect == EIGHT_POINTS)


def covered_spaces(row: int) -> tuple[int, ...]:
    """Region spaces covered by the Nile card of area row ``row``, row-major."""
    return tuple(
        (row * PLOT_ROWS + r) * COLUMNS + NILE_FIRST_COLUMN + c
        for r in range(PLOT_ROWS)
        for c in range(PLOT_COLUMNS)
    )


def laid_cells(card_id: int, rotated: bool) -> str:
    """The card's six cells as laid, row-major from the top-left: half a turn
    reverses that order (the top-left cell goes to the bottom right)."""
    cells = NILE_CARDS[card_id].cells
    return cells[::-1] if rotated else cells


def terrain(card_id: int, row: int, rotated: bool) -> dict[int, str]:
    """What the card on area row ``row`` shows on each space it covers."""
    cells = laid_cells(card_id, rotated)
    return {space: cells[i] for i, space in enumerate(covered_spaces(row))}


def _check() -> None:
    """Fail at import if the designed data breaks the rulebook's facts."""
    assert len(GOVERNOR_DECK) == 5 and len(NEUTRAL_DECK) == 4
    special = NILE_CARDS[SPECIAL_CARD]
    assert special.cells.count(RIVER) == 5 and special.points == 8
    for card in NILE_CARDS:
        assert len(card.cells) == PLOT_ROWS * PLOT_COLUMNS
        assert set(card.cells) <= {RIVER, LAND, PYRAMID}
        river = {i for i, c in enumerate(card.cells) if c == RIVER}
        assert river & {0, 1} and river & {4, 5}, f"card {card.id}: river must cross the card"
        seen, todo = set(), [min(river)]
        while todo:
            i = todo.pop()
            if i in seen:
                continue
            seen.add(i)
            r, c = divmod(i, PLOT_COLUMNS)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = nr * PLOT_COLUMNS + nc
                if 0 <= nr < PLOT_ROWS and 0 <= nc < PLOT_COLUMNS and j in river:
                    todo.append(j)
        assert seen == river, f"card {card.id}: the river must be one stream"


_check()
