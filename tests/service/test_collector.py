"""The server freezes what start-up built, and still collects what calls make."""

from __future__ import annotations

import gc
import weakref

from senet.service.server import settle_heap


class _Node:
    def __init__(self) -> None:
        self.me = self


def test_startup_objects_are_frozen_and_later_garbage_is_still_collected() -> None:
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0
        later = _Node()  # a reference cycle made after start-up, then dropped
        gone = weakref.ref(later)
        del later
        gc.collect()
        assert gone() is None
    finally:
        gc.unfreeze()
