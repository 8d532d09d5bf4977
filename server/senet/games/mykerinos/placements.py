"""Which spaces a placement may use: the chain rules of actions A and B and the patrons.

Pure functions over the board arrays, kept apart from the state so that the move
generator (hot in search) and the rules text sit side by side.

Terms: *free* spaces are empty, not pyramids and open to the placing colour;
*open pyramids* are empty pyramid spaces open to it; the *frontier* of a colour is
the set of free spaces orthogonally adjacent to one of its archaeologists.

The move generator runs once per decision, and a Python loop over the 48 or 72
spaces of the region was most of its cost. So, as chess engines do with
bitboards, sets of spaces are *masks*: Python ints with one byte per space
(space ``i`` is byte ``i``, little-endian, holding 0 or 1). Building a mask from
the board, shifting it to the neighbouring spaces, intersecting masks and
listing the spaces of a mask all run in C (``array``, ``bytes.translate``,
``int`` arithmetic, ``itertools.compress``). A space's right neighbour is one
byte up, the one below it a row of bytes up; the column masks stop a shift from
wrapping around a row's end. Placements come out as *selectors*: bytes that pick,
with ``compress``, from tables of actions laid out in sorted order (see
``actions``), so the lists come out sorted without sorting.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from struct import Struct

from senet.games.mykerinos.region import COLUMNS, MAX_SPACES

#: Bits of one space's byte, of one row's bytes.
_SPACE_BITS = 8
_ROW_BITS = _SPACE_BITS * COLUMNS


#: Every space but those of the last (first) column: what may shift right (left).
_NOT_LAST_COLUMN = int.from_bytes(
    bytes(i % COLUMNS != COLUMNS - 1 for i in range(MAX_SPACES)), "little"
)
_NOT_FIRST_COLUMN = int.from_bytes(bytes(i % COLUMNS != 0 for i in range(MAX_SPACES)), "little")
_NOT_LAST_TWO_COLUMNS = int.from_bytes(
    bytes(i % COLUMNS < COLUMNS - 2 for i in range(MAX_SPACES)), "little"
)


def cells(board: Sequence[int]) -> bytes:
    """The board as bytes, one per space (colours, and EMPTY as the byte 255)."""
    return _packer(len(board)).pack(*board)


@cache
def _packer(size: int) -> Struct:
    """Packs ``size`` small ints into as many signed bytes (faster than ``array``)."""
    return Struct(f"{size}b")


@cache
def _matching(value: int) -> bytes:
    """A ``bytes.translate`` table: 1 for the byte ``value`` is stored as, else 0."""
    return bytes(byte == value & 0xFF for byte in range(256))


def mask(board_cells: bytes, value: int) -> int:
    """The spaces of ``board_cells`` that hold ``value`` (a colour, or EMPTY)."""
    return int.from_bytes(board_cells.translate(_matching(value)), "little")


def flag_mask(flags: Sequence[bool]) -> int:
    """The spaces whose flag is set (``flags`` holds bools, one per space)."""
    return int.from_bytes(bytes(flags), "little")


def selectors(spaces: int, size: int) -> bytes:
    """``spaces`` as one 0/1 byte per space of a region of ``size`` spaces."""
    return spaces.to_bytes(size, "little")


def adjacent(spaces: int) -> int:
    """Spaces orthogonally adjacent to one of ``spaces``.

    Unbounded: it may name spaces past the region's end, so intersect it with a
    mask of the region's spaces before listing it.
    """
    return (
        ((spaces & _NOT_LAST_COLUMN) << _SPACE_BITS)
        | ((spaces & _NOT_FIRST_COLUMN) >> _SPACE_BITS)
        | (spaces << _ROW_BITS)
        | (spaces >> _ROW_BITS)
    )


#: Adjacent pairs by their lower space ``i``, in sorted order: the offsets of the
#: other space (right, below). Selector byte ``2 i + k`` picks shape ``k`` at ``i``.
PAIR_SHAPES: tuple[tuple[int, ...], ...] = ((1,), (COLUMNS,))
#: Chains of three spaces by their lowest space ``i``, in sorted order: the offsets
#: of the other two (a row, four L shapes, a column). A grid has no triangles, so
#: each chain has one middle space, adjacent to the two ends.
TRIPLE_SHAPES: tuple[tuple[int, ...], ...] = (
    (1, 2),
    (1, COLUMNS),
    (1, COLUMNS + 1),
    (COLUMNS - 1, COLUMNS),
    (COLUMNS, COLUMNS + 1),
    (COLUMNS, 2 * COLUMNS),
)


def pair_masks(first: int, second: int, touching: int) -> tuple[int, int]:
    """Adjacent pairs ``(i, j)``, ``i < j``, with ``i`` in ``first``, ``j`` in ``second``
    and ``i`` or ``j`` in ``touching`` (``-1``: no such condition).

    Returned as masks of ``i``, one per shape of :data:`PAIR_SHAPES`.
    """
    right = (
        first & (second >> _SPACE_BITS) & _NOT_LAST_COLUMN & (touching | (touching >> _SPACE_BITS))
    )
    down = first & (second >> _ROW_BITS) & (touching | (touching >> _ROW_BITS))
    return right, down


def pairs_covering(pairs: tuple[int, int], spaces: int) -> tuple[int, int]:
    """The pairs of ``pairs`` (masks from :func:`pair_masks`) with a space in ``spaces``."""
    right, down = pairs
    return (
        right & (spaces | (spaces >> _SPACE_BITS)),
        down & (spaces | (spaces >> _ROW_BITS)),
    )


def triple_masks(free: int, starts: int) -> tuple[int, ...]:
    """Chains of three free spaces that may start in ``starts`` (action B's chain
    rule with three archaeologists: the Colonel).

    The first space must be an end of the chain (each next space is adjacent to
    the one placed before it), so a chain qualifies when either end is in
    ``starts``. Returned as masks of the chain's lowest space, one per shape of
    :data:`TRIPLE_SHAPES`.
    """

    def up(mask: int, spaces: int) -> int:
        return mask >> (_SPACE_BITS * spaces)

    row = COLUMNS
    square = free & up(free, 1) & _NOT_LAST_COLUMN  # i and its right neighbour free
    return (
        square & up(free, 2) & _NOT_LAST_TWO_COLUMNS & (starts | up(starts, 2)),
        square & up(free, row) & (up(starts, 1) | up(starts, row)),
        square & up(free, row + 1) & (starts | up(starts, row + 1)),
        free
        & up(free, row - 1)
        & up(free, row)
        & _NOT_FIRST_COLUMN
        & (starts | up(starts, row - 1)),
        free
        & up(free, row)
        & up(free, row + 1)
        & _NOT_LAST_COLUMN
        & (starts | up(starts, row + 1)),
        free & up(free, row) & up(free, 2 * row) & (starts | up(starts, 2 * row)),
    )


def shape_selectors(masks: Sequence[int], size: int) -> bytearray:
    """Shape masks as selectors: byte ``len(masks) * i + k`` is 1 when shape ``k``
    fits at space ``i``, the shapes' sorted order (see :data:`PAIR_SHAPES`)."""
    count = len(masks)
    out = bytearray(count * size)
    for k, shape_mask in enumerate(masks):
        out[k::count] = shape_mask.to_bytes(size, "little")
    return out
