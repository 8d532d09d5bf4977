"""Action objects found by identity (:mod:`senet.rl.identity`) and its C twin.

Both map the very objects added (an equal object is not found), keep each one alive
while mapped, and make the same masks; the C twin gives what the reference gives
over random sequences of additions and lookups.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.rl import identity, native

_twin = native.current_twin("senet.rl.identity")
MODULES: list[Any] = [identity] + ([] if _twin is None else [_twin])


class _Action:
    """An object that can be weakly referenced (named tuples cannot)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Action) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_the_very_object_is_found_and_kept_alive(module: Any) -> None:
    ids = module.ActionIds()
    action = _Action("a")
    alive = weakref.ref(action)
    ids.add(action, 7)
    assert ids.find([action, _Action("a"), "other"]) == [7, None, None]
    assert len(ids) == 1
    ids.add(action, 8)  # mapped again: the latest index, still one object
    assert ids.find([action]) == [8] and len(ids) == 1
    del action
    gc.collect()
    assert alive() is not None  # kept while mapped
    ids.clear()
    gc.collect()
    assert alive() is None and len(ids) == 0
    assert ids.find([_Action("a")]) == [None]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_a_mask_marks_its_indexes_and_refuses_others(module: Any) -> None:
    assert module.mask(5, [0, 3, 3]) == bytearray([1, 0, 0, 1, 0])
    assert module.mask(3, iter([])) == bytearray(3)
    for bad in ([5], [-1]):
        with pytest.raises(IndexError):
            module.mask(5, bad)


@pytest.mark.skipif(_twin is None, reason="no compiled twin is built here")
@settings(max_examples=100, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.booleans(), st.integers(0, 300), st.integers(0, 10_000)), max_size=400
    )
)
def test_the_c_twin_finds_what_the_reference_finds(steps: list[tuple[bool, int, int]]) -> None:
    """Additions past the table's growth and lookups of objects mapped or not."""
    assert _twin is not None
    objects = [_Action(str(n)) for n in range(301)]
    engines = [identity.ActionIds(), _twin.ActionIds()]
    for add, which, index in steps:
        if add:
            for ids in engines:
                ids.add(objects[which], index)
        else:
            probe = [objects[which], objects[(which * 7) % 301], _Action(str(which))]
            assert engines[0].find(probe) == engines[1].find(probe)
        assert len(engines[0]) == len(engines[1])
    assert engines[0].find(objects) == engines[1].find(objects)
