"""Action objects found by identity, and a mask made from indexes.

A rules core that hands out the same action objects again (Mykerinos' move tables)
lets the action space find an action's index without hashing it: by the object's
identity. :class:`ActionIds` maps objects to indexes by identity and keeps each
object it maps alive, so that no other object can take its place (and its id) while
it is mapped. :func:`mask` makes the bytes of an action mask from indexes.

This module is the reference. ``identity.c`` beside it is the same in C, built by
:mod:`senet.rl.native` into a twin that :func:`senet.rl.native.preferred` hands out:
there a lookup probes a table of addresses, without making an int per action, and a
mask is set without the interpreter. The tests hold the two to the same results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class ActionIds:
    """Indexes of action objects, by identity; each object mapped is kept alive."""

    def __init__(self) -> None:
        self._by_id: dict[int, int] = {}
        self._kept: list[object] = []

    def __len__(self) -> int:
        """How many objects are mapped (and kept alive)."""
        return len(self._kept)

    def find(self, actions: Sequence[object]) -> list[int | None]:
        """Each action's index, ``None`` for an object not mapped."""
        return list(map(self._by_id.get, map(id, actions)))

    def add(self, action: object, index: int) -> None:
        """Map ``action`` (this very object) to ``index``, and keep it alive."""
        if id(action) not in self._by_id:
            self._kept.append(action)
        self._by_id[id(action)] = index

    def clear(self) -> None:
        """Forget every object (and let them go)."""
        self._by_id = {}
        self._kept = []


def mask(size: int, indexes: Iterable[int]) -> bytearray:
    """``size`` bytes: 1 at each of ``indexes``, 0 elsewhere.

    Raises:
        IndexError: an index outside ``range(size)``.
    """
    out = bytearray(size)
    for i in indexes:
        if i < 0:
            raise IndexError(f"index {i} outside a mask of {size}")
        out[i] = 1
    return out
