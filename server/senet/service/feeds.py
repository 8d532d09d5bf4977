"""Live update feeds: shared store readers for the matches watched on this replica.

Every WatchMatch and PlayMatch stream needs the match's new versions as soon as any
replica commits them. Reading the store once per stream would cost one blocking
Redis connection and one read per watcher per commit; instead each replica reads
each watched match once and fans its batches out to the match's watchers here.

When the store can wait on many matches at once (``multi_read_limit``: standalone
Redis), one reader task per *group* of up to that many watched matches waits
for commits to any of them, so a replica watching thousands of matches holds a
handful of blocking connections, not one per match. A match joins a group's
next wait: the group waits at most ``_GROUP_WAIT_MS`` at a time, so a newly
watched match is read within that long. Otherwise (the memory store, Redis
Cluster, where matches live in different slots) each watched match has a reader
task of its own, which follows the feed's version
(:meth:`~senet.store.MatchStore.events_following`): on a store in this process
(the memory store) it sleeps through the commits this replica publishes itself
(:meth:`FeedHub.committed_here`), instead of waking for each only to find it
published.

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

from senet.service.cancellation import stop_if_cancelled
from senet.store import EventBatch, MatchNotFound, MatchStore, StoreError

log = logging.getLogger("senet.feeds")

_KEEP = 512  # recent batches kept per match, for watchers slightly behind
_READ_LIMIT = 256
_RETRY_S = 0.5
#: A shared reader's failed reads in a row before its watchers are told: one
#: slow read on a loaded store is retried unseen, an outage still ends them.
_FAILURES_TOLD = 2
_GROUP_WAIT_MS = 250


#: A watcher's push hook: given the batch after its cursor, whether it delivered
#: it then and there (see :meth:`FeedHub.updates`).
Push = Callable[[EventBatch], bool]

#: A waiting watcher, with the future it waits on now: a watcher that waited
#: before and waits again is a new entry, so a stale one is told apart.
_Waiting = tuple["_Watcher", "asyncio.Future[None]"]


@dataclass(eq=False)
class _Feed:
    """Shared state of one match's reader and its watchers."""

    version: int
    batches: dict[int, EventBatch] = field(default_factory=dict)
    #: The watchers waiting now, by the seat they watch for (None: no seat), so
    #: that one seat's watchers can be reached before the others and a
    #: watcher's heartbeat wakes it alone.
    waiters: dict[int | None, list[_Waiting]] = field(default_factory=dict)
    error: BaseException | None = None
    watchers: int = 0
    task: asyncio.Task[None] | None = None

    def publish(self, batches: list[EventBatch], first: int | None = None) -> None:
        """Keep ``batches`` for the watchers and hand them on: with ``first``,
        to that seat's watchers now and to the others on the next loop turn.
        Batches it already holds reach nobody (a reader finds again what
        :meth:`FeedHub.committed_here` published)."""
        before = self.version
        for batch in batches:
            if batch.version <= self.version:
                continue  # already published, or read from an older cursor
            self.batches[batch.version] = batch
            self.version = batch.version
        if self.version == before:
            return
        while len(self.batches) > _KEEP:
            del self.batches[min(self.batches)]
        waiting, self.waiters = self.waiters, {}
        if first is None or first not in waiting:  # None: the seatless watchers' key
            self._reach_all(waiting)
            return
        self._reach(waiting.pop(first))
        # The others a loop turn later; a watcher that starts to wait meanwhile
        # finds the batch before it waits.
        asyncio.get_running_loop().call_soon(self._reach_all, waiting)

    def _reach_all(self, waiting: dict[int | None, list[_Waiting]]) -> None:
        for entries in waiting.values():
            self._reach(entries)

    def _reach(self, entries: list[_Waiting]) -> None:
        """Hand each waiting watcher what it has not had: pushed where its hook
        takes it (it goes on waiting), else by waking it."""
        # One reading of the clock for every watcher reached (their idle time
        # starts again when they have something): this runs on every commit.
        now = asyncio.get_running_loop().time()
        for entry in entries:
            watcher, waiter = entry
            if waiter.done():
                continue  # its heartbeat woke it, or it was cancelled
            if watcher.push is not None and self._pushed(watcher, now):
                self.waiters.setdefault(watcher.seat, []).append(entry)
            else:
                waiter.set_result(None)

    def _pushed(self, watcher: _Watcher, now: float) -> bool:
        """Push the batches after ``watcher``'s cursor through its hook (marking
        it as having had something at ``now``); False where it must wake
        instead (a batch the hook declines, or one this feed no longer holds)."""
        push = watcher.push
        assert push is not None
        while watcher.cursor < self.version:
            batch = self.batches.get(watcher.cursor + 1)
            if batch is None:
                return False
            try:
                if not push(batch):
                    return False
            except Exception:  # the watcher's own path meets it again, and reports it
                log.exception("a watcher's push failed; it reads the batch itself")
                return False
            watcher.cursor = batch.version
            watcher.sent(now)
        return True

    def wait(self, watcher: _Watcher) -> asyncio.Future[None]:
        """A future that the next batch (unless pushed) or signal resolves."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiters.setdefault(watcher.seat, []).append((watcher, waiter))
        return waiter

    def forget(self, watcher: _Watcher, waiter: asyncio.Future[None]) -> None:
        """Drop ``watcher``'s wait on ``waiter`` if nothing took it (its heartbeat
        woke it, or it was cancelled), so an idle watcher's waits do not pile up."""
        entries = self.waiters.get(watcher.seat)
        if entries is not None and (watcher, waiter) in entries:
            entries.remove((watcher, waiter))
            if not entries:
                del self.waiters[watcher.seat]

    def signal(self) -> None:
        """Wake every watcher (an error, or the server drains)."""
        waiting, self.waiters = self.waiters, {}
        for entries in waiting.values():
            for _, waiter in entries:
                if not waiter.done():
                    waiter.set_result(None)


class _Watcher:
    """One watcher of a feed: its cursor, its push hook, and its heartbeat
    timer, set once, not on every wait. Fired before the watcher has been idle
    ``heartbeat_s``, the timer sets itself again for then; after, it wakes the
    watcher if it waits.

    A small object of its own, not a closure: a stream's frames live on in the
    cyclic garbage its cancellation leaves, and a closure's cells would go with
    them (collection pauses showed in the streams' p99)."""

    __slots__ = ("cursor", "heartbeat_s", "loop", "push", "seat", "sent_at", "timer", "waiting")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        heartbeat_s: float,
        cursor: int,
        seat: int | None,
        push: Push | None,
    ) -> None:
        self.loop = loop
        self.heartbeat_s = heartbeat_s
        #: The last version the watcher had, yielded or pushed.
        self.cursor = cursor
        self.seat = seat
        self.push = push
        #: When the watcher last had something (or started).
        self.sent_at = loop.time()
        #: What the watcher waits on now, if it waits.
        self.waiting: asyncio.Future[None] | None = None
        self.timer: asyncio.TimerHandle | None = None

    def sent(self, now: float | None = None) -> None:
        """The watcher had something: its idle time starts again (at ``now``,
        the loop's time, when the caller has read it already)."""
        self.sent_at = self.loop.time() if now is None else now

    def due(self) -> bool:
        """Whether the watcher has been idle ``heartbeat_s``."""
        return self.loop.time() - self.sent_at >= self.heartbeat_s

    def arm(self) -> None:
        if self.timer is None:
            self.timer = self.loop.call_at(self.sent_at + self.heartbeat_s, self._fire)

    def _fire(self) -> None:
        self.timer = None
        if not self.due():
            self.arm()
            return
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(None)

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


@dataclass(eq=False)
class _Group:
    """Matches one shared reader task waits on."""

    matches: set[str]
    task: asyncio.Task[None] | None = None


class FeedHub:
    """Per-replica fan-out of committed batches to local watchers."""

    def __init__(self, store: MatchStore, block_ms: int = 5000) -> None:
        self.store = store
        self.block_ms = block_ms
        self._feeds: dict[str, _Feed] = {}
        self._interrupt: Callable[[], BaseException] | None = None
        self._group_size = getattr(store, "multi_read_limit", 0)
        #: Reader groups (shared readers only): the matches each one reads.
        self._groups: list[_Group] = []

    def interrupt(self, error: Callable[[], BaseException]) -> None:
        """End every watcher, now and later, with ``error()`` (the server drains)."""
        self._interrupt = error
        for feed in self._feeds.values():
            feed.signal()

    def committed_here(self, match_id: str, batch: EventBatch, seat: int | None = None) -> None:
        """A commit this replica has just made (confirmed by the store): the match's
        watchers here get it at once, instead of after the reader's next store read,
        which finds it again and skips it. Only the very next version is taken, so a
        feed never skips one.

        ``seat``, the seat that acted, has its watchers woken first: its update
        is its reply, and it should not wait for every other stream's to be built."""
        feed = self._feeds.get(match_id)
        if feed is not None and batch.version == feed.version + 1:
            feed.publish([batch], first=seat)

    @property
    def watched_matches(self) -> int:
        return len(self._feeds)

    async def updates(
        self,
        match_id: str,
        after: int,
        heartbeat_s: float,
        seat: int | None = None,
        push: Push | None = None,
    ) -> AsyncIterator[EventBatch | None]:
        """Batches with version > ``after``, in order; ``None`` after each idle heartbeat_s.

        ``seat``: the seat the watcher streams for, if any (see :meth:`committed_here`).

        ``push``: a hook that takes the next batch while the watcher waits, where
        the batch is published, and says whether it dealt with it; a batch it
        dealt with is not yielded. What it declines (say, it would need a store
        read) is yielded as without a hook, and so is every later batch until
        the watcher waits again. A stream's messages are then made without
        waking its task and resuming the generators between it and the feed.

        Raises the store's errors (StoreUnavailable, MatchNotFound) to the watcher.
        """
        feed = self._feeds.get(match_id)
        if feed is None:
            feed = self._feeds[match_id] = _Feed(version=after)
            if self._group_size > 0:
                self._join_group(match_id)
            else:
                feed.task = asyncio.create_task(self._read(match_id, feed))
        feed.watchers += 1
        watcher = _Watcher(asyncio.get_running_loop(), heartbeat_s, after, seat, push)
        try:
            while True:
                if self._interrupt is not None:
                    raise self._interrupt()
                batch = feed.batches.get(watcher.cursor + 1)
                if batch is not None:
                    watcher.cursor = batch.version
                    yield batch
                    watcher.sent()
                    continue
                cursor = watcher.cursor
                if feed.version > cursor or (feed.version < cursor and not feed.batches):
                    # Behind what the reader keeps (or it has not reached us yet):
                    # catch up straight from the store.
                    published = feed.version
                    caught = await self.store.events_after(match_id, cursor, _READ_LIMIT)
                    for batch in caught:
                        watcher.cursor = batch.version
                        yield batch
                    if caught:
                        watcher.sent()
                        continue
                    if feed.version != published or self._interrupt is not None:
                        continue  # its signal came during the read, before this waits
                if feed.error is not None:
                    raise feed.error
                if watcher.due():
                    yield None
                    watcher.sent()
                    continue
                watcher.arm()
                waiter = watcher.waiting = feed.wait(watcher)
                try:
                    await waiter  # a batch not pushed, an error or the heartbeat
                finally:
                    watcher.waiting = None
                    feed.forget(watcher, waiter)
        finally:
            watcher.stop()
            feed.watchers -= 1
            if feed.watchers == 0 and self._feeds.get(match_id) is feed:
                del self._feeds[match_id]
                if feed.task is not None:
                    feed.task.cancel()
                    # The reader's frame holds the feed: were the feed to hold the
                    # task, its cancellation's traceback would close a cycle.
                    feed.task = None
                self._leave_group(match_id)

    async def _read(self, match_id: str, feed: _Feed) -> None:
        """Wait for commits from any replica and publish them to this replica's watchers."""

        def cursor() -> int:
            return feed.version

        while True:
            stop_if_cancelled()
            try:
                # Following the feed's version: where the store can, the reader
                # sleeps through this replica's own commits, which committed_here
                # has published already.
                batches = await self.store.events_following(
                    match_id, cursor, _READ_LIMIT, self.block_ms
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

    @property
    def reader_tasks(self) -> int:
        """Reader tasks running (each holds at most one blocking store call)."""
        tasks = [feed.task for feed in self._feeds.values()]
        tasks += [group.task for group in self._groups]
        return sum(1 for task in tasks if task is not None and not task.done())

    def _join_group(self, match_id: str) -> None:
        for group in self._groups:
            if len(group.matches) < self._group_size:
                group.matches.add(match_id)
                return
        group = _Group({match_id})
        group.task = asyncio.create_task(self._read_group(group))
        self._groups.append(group)

    def _leave_group(self, match_id: str) -> None:
        for group in self._groups:
            if match_id in group.matches:
                group.matches.discard(match_id)
                if not group.matches:
                    self._groups.remove(group)
                    if group.task is not None:
                        group.task.cancel()
                return

    async def _read_group(self, group: _Group) -> None:
        """Wait for commits to any match of ``group`` (one store call at a time)
        and publish them to their watchers here."""
        failures = 0
        while group.matches:
            stop_if_cancelled()
            cursors = {m: self._feeds[m].version for m in group.matches if m in self._feeds}
            try:
                found = await self.store.events_after_many(
                    cursors, _READ_LIMIT, block_ms=min(self.block_ms, _GROUP_WAIT_MS)
                )
            except StoreError as exc:
                failures += 1
                if failures >= _FAILURES_TOLD:
                    for match_id in cursors:
                        feed = self._feeds.get(match_id)
                        if feed is not None:
                            feed.error = exc
                            feed.signal()
                await asyncio.sleep(_RETRY_S)
                continue
            except Exception:  # never let one bad read stop every match of the group
                log.exception("watch reader failed; retrying", extra={"matches": len(cursors)})
                await asyncio.sleep(_RETRY_S)
                continue
            failures = 0
            for match_id in cursors:
                feed = self._feeds.get(match_id)
                if feed is None:
                    continue
                if feed.error is not None:
                    feed.error = None
                batches = found.get(match_id)
                if batches:
                    feed.publish(batches)

    async def close(self) -> None:
        for group in self._groups:
            if group.task is not None:
                group.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await group.task
        self._groups.clear()
        for feed in list(self._feeds.values()):
            if feed.task is not None:
                feed.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await feed.task
        self._feeds.clear()
