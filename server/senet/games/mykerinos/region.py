"""Geometry of the excavation region.

A plot is 2 columns by 3 rows; a scoring area is two plots side by side (4 x 3);
areas stand in 2 columns and 2 rows (3 rows in the final campaign). The region is
therefore a grid 8 columns wide and 6 (or 9) rows high, and every space is
orthogonally adjacent to its neighbours across plot and area borders.

Spaces are numbered row-major from the top-left (``index = row * 8 + column``) and
written like chess squares: a column letter ``a``-``h`` then a row number counted
from the top, ``1``-``9``. Areas are numbered in scoring order: row by row, left to
right. Plot *slots* are numbered ``2 * area + side`` (side 0 = left, 1 = right).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from senet.games.errors import MalformedActionError
from senet.games.mykerinos.plots import PLOT_COLUMNS, PLOT_ROWS
from senet.games.notation import read_number

COLUMNS = 8
AREA_COLUMNS = 2
AREA_WIDTH = 2 * PLOT_COLUMNS
MAX_AREA_ROWS = 3

_COLUMN_LETTERS = "abcdefgh"


@dataclass(frozen=True)
class RegionShape:
    """Static facts of a region with ``area_rows`` rows of areas."""

    area_rows: int
    size: int
    rows: int
    neighbours: tuple[tuple[int, ...], ...]
    area_of: tuple[int, ...]
    slot_of: tuple[int, ...]
    cell_of: tuple[tuple[int, int], ...]
    area_spaces: tuple[tuple[int, ...], ...]
    #: Each space's neighbours with a higher index (right, then below): every
    #: adjacent pair once, which the Curator's move generation walks.
    forward: tuple[tuple[int, ...], ...] = ()

    @property
    def areas(self) -> int:
        return self.area_rows * AREA_COLUMNS

    @property
    def slots(self) -> int:
        return 2 * self.areas


@cache
def region_shape(area_rows: int) -> RegionShape:
    """Return the (cached) shape of a region with ``area_rows`` rows of areas."""
    rows = area_rows * PLOT_ROWS
    size = rows * COLUMNS
    neighbours: list[tuple[int, ...]] = []
    area_of: list[int] = []
    slot_of: list[int] = []
    cell_of: list[tuple[int, int]] = []
    for index in range(size):
        y, x = divmod(index, COLUMNS)
        adjacent = []
        for nx, ny in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)):
            if 0 <= nx < COLUMNS and 0 <= ny < rows:
                adjacent.append(ny * COLUMNS + nx)
        neighbours.append(tuple(adjacent))
        area = (y // PLOT_ROWS) * AREA_COLUMNS + x // AREA_WIDTH
        area_of.append(area)
        slot_of.append(2 * area + (x % AREA_WIDTH) // PLOT_COLUMNS)
        cell_of.append((y % PLOT_ROWS, x % PLOT_COLUMNS))
    areas = area_rows * AREA_COLUMNS
    area_spaces = tuple(tuple(i for i in range(size) if area_of[i] == a) for a in range(areas))
    return RegionShape(
        area_rows,
        size,
        rows,
        tuple(neighbours),
        tuple(area_of),
        tuple(slot_of),
        tuple(cell_of),
        area_spaces,
        tuple(tuple(n for n in adjacent if n > i) for i, adjacent in enumerate(neighbours)),
    )


#: Spaces of the largest region (three rows of areas).
MAX_SPACES = MAX_AREA_ROWS * PLOT_ROWS * COLUMNS


def _space_name(index: int) -> str:
    y, x = divmod(index, COLUMNS)
    return f"{chr(ord('a') + x)}{y + 1}"


#: Every space's name by index: events and notation name spaces on every action.
SPACE_NAMES: tuple[str, ...] = tuple(_space_name(i) for i in range(MAX_SPACES))


def space_name(index: int) -> str:
    """``13`` -> ``"f2"``."""
    if type(index) is int and 0 <= index < MAX_SPACES:
        return SPACE_NAMES[index]
    return _space_name(index)  # off the region (or not an int): as computed before


@lru_cache(maxsize=512)
def parse_space(text: str) -> int:
    """``"f2"`` -> ``13``.

    Raises:
        MalformedActionError: not a space name.
    """
    lowered = text.lower()
    column = _COLUMN_LETTERS.find(lowered[:1]) if lowered else -1
    row = read_number(lowered[1:], 1, MAX_SPACES // COLUMNS)
    if column < 0 or row is None:
        raise MalformedActionError(
            f"{text!r} is not a space: use a column a-h and a row 1-9, like c2"
        )
    return (row - 1) * COLUMNS + column
