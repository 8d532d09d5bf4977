"""Stores that live beside the match store: in the same Redis, or in memory.

The player store and the ladder store follow the match store's choice: on Redis
they are built on its connection; otherwise each in-memory match store gets one
in-memory companion of each kind, kept as long as the match store lives, so that
replicas sharing a match store in one process (tests) share its companions too.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from senet.store.base import MatchStore

if TYPE_CHECKING:
    from senet.store.redis_store import RedisStore

T = TypeVar("T")

_IN_MEMORY: weakref.WeakKeyDictionary[MatchStore, dict[Any, Any]] = weakref.WeakKeyDictionary()


def beside(store: MatchStore, on_redis: Callable[[RedisStore], T], in_memory: Callable[[], T]) -> T:
    """The companion of ``store`` that ``on_redis`` builds on a Redis store, or the
    one ``in_memory`` built for this in-memory store (made on first use)."""
    from senet.store.redis_store import RedisStore

    if isinstance(store, RedisStore):
        return on_redis(store)
    kept = _IN_MEMORY.setdefault(store, {})
    if in_memory not in kept:
        kept[in_memory] = in_memory()
    found: T = kept[in_memory]
    return found
