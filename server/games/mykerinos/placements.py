"""Which spaces a placement may use: the chain rules of actions A and B and the patrons.

Pure functions over the board arrays, kept apart from the state so that the move
generator (hot in search) and the rules text sit side by side. Every function
returns placements as sorted tuples of space indices, without duplicates.

Terms: *free* spaces are empty, not pyramids and open to the placing colour;
*open pyramids* are empty pyramid spaces open to it; the *frontier* of a colour is
the set of free spaces orthogonally adjacent to one of its archaeologists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Neighbours = Sequence[Sequence[int]]


def frontier(
    board: Sequence[int], colour: int, neighbours: Neighbours, targets: set[int]
) -> set[int]:
    """Spaces of ``targets`` adjacent to an archaeologist of ``colour``."""
    out: set[int] = set()
    for index, occupant in enumerate(board):
        if occupant == colour:
            for n in neighbours[index]:
                if n in targets:
                    out.add(n)
    return out


def singles(spaces: Iterable[int]) -> list[tuple[int, ...]]:
    """One-space placements (action A, Explorer start)."""
    return [(i,) for i in sorted(spaces)]


def adjacent_pairs(free: set[int], neighbours: Neighbours) -> list[tuple[int, ...]]:
    """Two adjacent free spaces anywhere (Curator)."""
    pairs: list[tuple[int, ...]] = []
    for i in sorted(free):
        for n in neighbours[i]:
            if n > i and n in free:
                pairs.append((i, n))
    return pairs


def expansions(
    starts: Iterable[int], free: set[int], neighbours: Neighbours, length: int
) -> list[tuple[int, ...]]:
    """Chains of ``length`` free spaces whose first is in ``starts``.

    Each later space is adjacent to the one placed just before it (action B: 2,
    Colonel: 3). Returned sorted and deduplicated.
    """
    found: set[tuple[int, ...]] = set()
    for first in starts:
        for second in neighbours[first]:
            if second not in free:
                continue
            if length == 2:
                found.add((first, second) if first < second else (second, first))
                continue
            for third in neighbours[second]:
                if third != first and third in free:
                    found.add(tuple(sorted((first, second, third))))
    return sorted(found)


def explorer_expansions(
    own_frontier_free: set[int],
    own_frontier_pyramids: set[int],
    free: set[int],
    pyramids: set[int],
    neighbours: Neighbours,
) -> list[tuple[int, ...]]:
    """Explorer expansions: two chained spaces, exactly one of them a pyramid.

    Either the first (adjacent to your archaeologists) is free and the second an
    open pyramid, or the first is an open pyramid and the second free.
    """
    found: set[tuple[int, ...]] = set()
    for first, targets in ((own_frontier_free, pyramids), (own_frontier_pyramids, free)):
        for f in first:
            for s in neighbours[f]:
                if s in targets:
                    found.add((f, s) if f < s else (s, f))
    return sorted(found)
