"""FeedHub: every watcher gets every version once, in order, even when a commit
lands while the watcher is reading the store itself.

The store here is a stand-in whose reads the test holds and releases, so the
interleavings that are rare on a real server happen on every run.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Set

from senet.service.feeds import FeedHub
from senet.store import EventBatch
from tests.sync import eventually

HEARTBEAT_S = 30.0  # far beyond the test: a watcher woken only by it has missed a commit
PATIENCE_S = 2.0


class HeldStore:
    """Versions committed by the test; each read waits until the test lets it go.

    A catch-up read (no ``block_ms``) answers with what the store held when it
    was called, after its gate opens: the read happened before what the test
    commits meanwhile. The reader's blocking read returns once a version after
    its cursor exists and its gate is open.
    """

    def __init__(self) -> None:
        self.batches: list[EventBatch] = []
        self.catch_up_open = asyncio.Event()
        self.reader_open = asyncio.Event()
        self.catch_up_started = asyncio.Event()
        self._changed = asyncio.Condition()

    async def commit(self, version: int) -> None:
        async with self._changed:
            self.batches.append(EventBatch(version, f'[{{"v": {version}}}]'))
            self._changed.notify_all()

    def _after(self, after: int, limit: int) -> list[EventBatch]:
        return [b for b in self.batches if b.version > after][:limit]

    async def events_after(
        self, match_id: str, after: int, limit: int, block_ms: int | None = None
    ) -> list[EventBatch]:
        if block_ms is None:
            found = self._after(after, limit)
            self.catch_up_started.set()
            await self.catch_up_open.wait()
            return found
        await self.reader_open.wait()
        async with self._changed:
            await self._changed.wait_for(lambda: bool(self._after(after, limit)))
        return self._after(after, limit)

    async def events_following(
        self, match_id: str, cursor: Callable[[], int], limit: int, block_ms: int
    ) -> list[EventBatch]:
        """The reader's read (MatchStore's default: after the cursor at the call)."""
        return await self.events_after(match_id, cursor(), limit, block_ms)


async def _next(feed: AsyncIterator[EventBatch | None]) -> EventBatch | None:
    return await asyncio.wait_for(anext(feed), PATIENCE_S)


async def test_a_commit_during_a_watchers_catch_up_read_still_wakes_it() -> None:
    store = HeldStore()
    hub = FeedHub(store)  # type: ignore[arg-type]  # a stand-in with the reads FeedHub makes
    await store.commit(1)
    # The first watcher starts the match's feed at version 0; the reader is held.
    first = hub.updates("m1", 0, HEARTBEAT_S)
    first_next = asyncio.create_task(_next(first))
    await asyncio.sleep(0)
    # The second starts at version 1, ahead of the feed: it reads the store itself.
    second = hub.updates("m1", 1, HEARTBEAT_S)
    second_next = asyncio.create_task(_next(second))
    await asyncio.wait_for(store.catch_up_started.wait(), PATIENCE_S)
    # Version 2 is committed and published while that read is out.
    await store.commit(2)
    store.reader_open.set()
    first_batch = await first_next
    assert first_batch is not None and first_batch.version == 1
    store.catch_up_open.set()  # the read answers what it found: nothing after 1

    second_batch = await second_next
    assert second_batch is not None and second_batch.version == 2
    batch = await _next(first)
    assert batch is not None and batch.version == 2
    await first.aclose()  # type: ignore[attr-defined]
    await second.aclose()  # type: ignore[attr-defined]
    await hub.close()


async def test_a_watcher_woken_by_its_heartbeat_leaves_no_waiter_behind() -> None:
    store = HeldStore()
    hub = FeedHub(store)  # type: ignore[arg-type]
    watcher = hub.updates("m1", 0, 0.01)
    for _ in range(20):
        assert await _next(watcher) is None  # a heartbeat
    feed = hub._feeds["m1"]
    assert sum(len(waiters) for waiters in feed.waiters.values()) <= 1
    await watcher.aclose()  # type: ignore[attr-defined]
    await hub.close()


class Recorder:
    """A push hook that takes the versions it is told to and declines the rest."""

    def __init__(self, declines: Set[int] = frozenset(), raises: Set[int] = frozenset()) -> None:
        self.declines = set(declines)
        self.raises = set(raises)
        self.order: list[tuple[str, int]] = []

    def __call__(self, batch: EventBatch) -> bool:
        if batch.version in self.raises:
            self.raises.discard(batch.version)
            raise RuntimeError("a bug in the hook")
        if batch.version in self.declines:
            return False
        self.order.append(("pushed", batch.version))
        return True


@contextlib.asynccontextmanager
async def _watching(
    store: HeldStore, seat: int | None, recorder: Recorder
) -> AsyncIterator[FeedHub]:
    """A hub over ``store`` with one watcher of m1 from version 0 for ``seat``,
    pushing through ``recorder`` and recording what it yields there too."""
    hub = FeedHub(store)  # type: ignore[arg-type]  # a stand-in with the reads FeedHub makes

    async def pull() -> None:
        async for batch in hub.updates("m1", 0, HEARTBEAT_S, seat, recorder):
            assert batch is not None
            recorder.order.append(("yielded", batch.version))

    pulling = asyncio.create_task(pull())
    await _settle()
    try:
        yield hub
    finally:
        pulling.cancel()
        await asyncio.gather(pulling, return_exceptions=True)
        await hub.close()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_pushed_batches_are_not_yielded_and_declined_ones_are_in_order() -> None:
    recorder = Recorder(declines={3})
    async with _watching(HeldStore(), 1, recorder) as hub:
        for version in range(1, 7):
            hub.committed_here("m1", EventBatch(version, "[]"), seat=1 if version % 2 else 2)
            await _settle()
    # Declined, version 3 is yielded; the watcher waits again after it, and the
    # hook takes the rest.
    assert recorder.order == [
        ("pushed", 1), ("pushed", 2), ("yielded", 3), ("pushed", 4), ("pushed", 5), ("pushed", 6),
    ]  # fmt: skip


async def test_batches_published_together_are_pushed_in_order_until_one_is_declined() -> None:
    store = HeldStore()
    recorder = Recorder(declines={2})
    async with _watching(store, None, recorder):
        for version in range(1, 5):
            await store.commit(version)
        store.reader_open.set()  # the reader finds all four at once
        await eventually(lambda: len(recorder.order) == 4, PATIENCE_S)
    # Once the hook declined version 2, the watcher yields it and what follows it
    # in the feed: each version once, in order.
    assert recorder.order == [("pushed", 1), ("yielded", 2), ("yielded", 3), ("yielded", 4)]


async def test_a_hook_that_fails_leaves_the_batch_to_the_watcher() -> None:
    recorder = Recorder(raises={2})
    async with _watching(HeldStore(), 0, recorder) as hub:
        for version in (1, 2, 3):
            hub.committed_here("m1", EventBatch(version, "[]"), seat=0)
            await _settle()
    assert recorder.order == [("pushed", 1), ("yielded", 2), ("pushed", 3)]
