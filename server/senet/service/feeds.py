"""Live update feeds: one store reader per watched match on this replica.

Every WatchMatch and PlayMatch stream needs the match's new versions as soon as any
replica commits them. Reading the store once per stream would cost one blocking
Redis connection and one read per watcher per commit; instead each replica runs one
reader task per match that has watchers here and fans its batches out to them.
Watchers that start behind the reader (resuming from an old version) catch up with
ordinary non-blocking reads first, so nobody misses a version or sees one twice.

The hub holds only recent batches of matches somebody here is watching; the store
stays the source of truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from senet.store import EventBatch, MatchNotFound, MatchStore, StoreError

log = logging.getLogger("senet.feeds")

_KEEP = 512  # recent batches kept per match, for watchers slightly behind
_READ_LIMIT = 256
_RETRY_S = 0.5


@dataclass(eq=False)
class _Feed:
    """Shared state of one match's reader and its watchers."""

    version: int
    batches: dict[int, EventBatch] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    error: BaseException | None = None
    watchers: int = 0
    task: asyncio.Task[None] | None = None

    def publish(self, batches: list[EventBatch]) -> None:
        for batch in batches:
            self.batches[batch.version] = batch
            self.version = batch.version
        while len(self.batches) > _KEEP:
            del self.batches[min(self.batches)]
        self.signal()

    def signal(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


class FeedHub:
    """Per-replica fan-out of committed batches to local watchers."""

    def __init__(self, store: MatchStore, block_ms: int = 5000) -> None:
        self.store = store
        self.block_ms = block_ms
        self._feeds: dict[str, _Feed] = {}
        self._interrupt: Callable[[], BaseException] | None = None

    def interrupt(self, error: Callable[[], BaseException]) -> None:
        """End every watcher, now and later, with ``error()`` (the server drains)."""
        self._interrupt = error
        for feed in self._feeds.values():
            feed.signal()

    @property
    def watched_matches(self) -> int:
        return len(self._feeds)

    async def updates(
        self, match_id: str, after: int, heartbeat_s: float
    ) -> AsyncIterator[EventBatch | None]:
        """Batches with version > ``after``, in order; ``None`` after each idle heartbeat_s.

        Raises the store's errors (StoreUnavailable, MatchNotFound) to the watcher.
        """
        feed = self._feeds.get(match_id)
        if feed is None:
            feed = self._feeds[match_id] = _Feed(version=after)
            feed.task = asyncio.create_task(self._read(match_id, feed))
        feed.watchers += 1
        cursor = after
        try:
            while True:
                if self._interrupt is not None:
                    raise self._interrupt()
                batch = feed.batches.get(cursor + 1)
                if batch is not None:
                    cursor = batch.version
                    yield batch
                    continue
                if feed.version > cursor or (feed.version < cursor and not feed.batches):
                    # Behind what the reader keeps (or it has not reached us yet):
                    # catch up straight from the store.
                    caught = await self.store.events_after(match_id, cursor, _READ_LIMIT)
                    for batch in caught:
                        cursor = batch.version
                        yield batch
                    if caught:
                        continue
                if feed.error is not None:
                    raise feed.error
                changed = feed.changed
                try:
                    await asyncio.wait_for(changed.wait(), heartbeat_s)
                except TimeoutError:
                    yield None
        finally:
            feed.watchers -= 1
            if feed.watchers == 0 and self._feeds.get(match_id) is feed:
                del self._feeds[match_id]
                if feed.task is not None:
                    feed.task.cancel()

    async def _read(self, match_id: str, feed: _Feed) -> None:
        """Wait for commits from any replica and publish them to this replica's watchers."""
        while True:
            try:
                batches = await self.store.events_after(
                    match_id, feed.version, _READ_LIMIT, block_ms=self.block_ms
                )
                feed.error = None
            except MatchNotFound as exc:
                feed.error = exc
                feed.signal()
                return
            except StoreError as exc:
                feed.error = exc
                feed.signal()
                await asyncio.sleep(_RETRY_S)
                continue
            if batches:
                feed.publish(batches)

    async def close(self) -> None:
        for feed in list(self._feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await feed.task
        self._feeds.clear()
