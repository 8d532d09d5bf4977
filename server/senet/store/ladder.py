"""The ladder store: registered bots, ladders, their scheduling slots, head-to-head
tests and tournaments, as opaque JSON documents in named collections.

The ladder needs few guarantees from storage, and each is one atomic call here:

* a scheduling slot is taken once: :meth:`LadderStore.put_new` writes a key only
  if it is absent (``SET NX`` on Redis), so of several replicas scheduling the
  same slot exactly one wins, and only the winner's pairing is ever played;
* a result is listed and counted once: :meth:`LadderStore.push_once` pushes it
  and moves its counter only under a marker it sets in the same step, so every
  replica that finds a match over may list it, and one that dies halfway leaves
  nothing half done;
* a bot key maps to one bot: keys are stored hashed, in a collection.

Everything else (bots, ladders, results, tournaments) is a document in a
collection (:meth:`LadderStore.put` and friends) whose shape belongs to the
service. :class:`MemoryLadderStore` behaves like the Redis one
(:mod:`senet.store.redis_ladder`).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod


class LadderStore(ABC):
    """Collections of documents, single keys with atomic claims, and capped lists
    pushed to once per marker."""

    @abstractmethod
    async def put(self, collection: str, key: str, doc: str) -> None:
        """Write ``doc`` under ``key`` in ``collection`` (replacing it)."""

    @abstractmethod
    async def get(self, collection: str, key: str) -> str | None:
        """The document under ``key``, or None."""

    @abstractmethod
    async def all(self, collection: str) -> dict[str, str]:
        """Every document of ``collection`` by key (collections are small)."""

    @abstractmethod
    async def delete(self, collection: str, key: str) -> None:
        """Remove ``key`` from ``collection`` (absent: nothing happens)."""

    @abstractmethod
    async def put_new(self, name: str, value: str, ttl_ms: int | None = None) -> bool:
        """Set the single key ``name`` only if absent; whether this call set it."""

    @abstractmethod
    async def read(self, name: str) -> str | None:
        """The single key ``name``, or None."""

    @abstractmethod
    async def set(self, name: str, value: str) -> None:
        """Set the single key ``name`` (replacing it)."""

    @abstractmethod
    async def newest(self, name: str, limit: int) -> list[str]:
        """The newest ``limit`` documents of the list ``name``, newest first."""

    @abstractmethod
    async def push_once(
        self, marker: str, name: str, doc: str, keep: int, counter: str | None = None
    ) -> bool:
        """In one step, unless the single key ``marker`` is set: set it, prepend
        ``doc`` to the list ``name`` (keeping the newest ``keep``) and, given
        ``counter``, add one to that single key (absent: 0). Whether this call did
        it; any later call changes nothing."""


class MemoryLadderStore(LadderStore):
    """The ladder store in this process; every method is one step without an await."""

    def __init__(self) -> None:
        self._collections: dict[str, dict[str, str]] = {}
        self._keys: dict[str, tuple[str, float | None]] = {}
        self._lists: dict[str, list[str]] = {}

    async def put(self, collection: str, key: str, doc: str) -> None:
        self._collections.setdefault(collection, {})[key] = doc

    async def get(self, collection: str, key: str) -> str | None:
        return self._collections.get(collection, {}).get(key)

    async def all(self, collection: str) -> dict[str, str]:
        return dict(self._collections.get(collection, {}))

    async def delete(self, collection: str, key: str) -> None:
        self._collections.get(collection, {}).pop(key, None)

    def _live(self, name: str) -> str | None:
        held = self._keys.get(name)
        if held is None:
            return None
        value, expires = held
        if expires is not None and time.monotonic() >= expires:
            del self._keys[name]
            return None
        return value

    async def put_new(self, name: str, value: str, ttl_ms: int | None = None) -> bool:
        if self._live(name) is not None:
            return False
        expires = None if ttl_ms is None else time.monotonic() + ttl_ms / 1000
        self._keys[name] = (value, expires)
        return True

    async def read(self, name: str) -> str | None:
        return self._live(name)

    async def set(self, name: str, value: str) -> None:
        self._keys[name] = (value, None)

    async def newest(self, name: str, limit: int) -> list[str]:
        return list(self._lists.get(name, [])[:limit])

    async def push_once(
        self, marker: str, name: str, doc: str, keep: int, counter: str | None = None
    ) -> bool:
        if self._live(marker) is not None:
            return False
        self._keys[marker] = ("1", None)
        held = self._lists.setdefault(name, [])
        held.insert(0, doc)
        del held[keep:]
        if counter is not None:
            self._keys[counter] = (str(int(self._live(counter) or 0) + 1), None)
        return True
