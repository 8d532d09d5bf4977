"""Leaving a waiting match and the join that starts it exclude each other.

LeaveMatch reopens the seat only while the match waits for players. The check
and the reopening are one step in the store, and so are the last open seat's
claim and the start: whichever lands first decides. A leave that loses answers
as a leave from a started match (its policy applies), never REOPENED, so a
started match never has an open seat again, its newcomer's deal stands, and
the lobby never offers it to a stranger.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import pytest

from senet.service.matches import Caller, MatchService
from senet.service.records import SeatClaim, SeatPlan
from senet.service.settings import Settings
from senet.store import MatchStore, ReopenOutcome
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from tests.conftest import STORE_BUDGET_S

TRIALS = 200


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[MatchStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    url = request.getfixturevalue("redis_url" if request.param == "redis" else "redis_cluster_url")
    # The suite's budget for a loaded machine: these races are about order, not speed,
    # and 200 trials on the cluster beside the other workers once ran past the default 2 s.
    redis = RedisStore.from_url(
        url,
        key_prefix=request.getfixturevalue("redis_key_prefix"),
        socket_timeout_s=STORE_BUDGET_S,
    )
    try:
        yield redis
    finally:
        await redis.close()


class JoinBeforeReopen:
    """A store that lets ``join`` (once set) run just before the next reopen:
    the last join lands between the leave's load and its reopening."""

    def __init__(self, inner: MatchStore) -> None:
        self.inner = inner
        self.join: Callable[[], Awaitable[Any]] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def reopen_seat(self, match_id: str, seat: int, expected_json: str) -> ReopenOutcome:
        if self.join is not None:
            join, self.join = self.join, None
            await join()
        return await self.inner.reopen_seat(match_id, seat, expected_json)


async def waiting_match(service: MatchService) -> tuple[str, Caller]:
    """A two-seat match with seat 0 joined: its id and seat 0's caller."""
    created = await service.create_match(
        Caller(is_admin=True), "mykerinos", {}, [SeatPlan("open"), SeatPlan("open")], None
    )
    match_id = created.summary.match_id
    _seat, token, summary = await service.join(Caller(), match_id, 0, "leaver")
    assert not summary.started
    return match_id, Caller(token=token)


async def test_a_leave_overtaken_by_the_starting_join_does_not_reopen(
    store: MatchStore,
) -> None:
    racing = JoinBeforeReopen(store)
    service = MatchService(cast(MatchStore, racing), Settings())
    match_id, leaver = await waiting_match(service)
    joined: list[bool] = []

    async def last_join() -> None:
        _seat, _token, summary = await service.join(Caller(), match_id, 1, "newcomer")
        joined.append(summary.started)

    racing.join = last_join
    outcome, summary = await service.leave(leaver, match_id)

    assert joined == [True]
    assert outcome == "resigned"  # the match's leave policy: it had started
    assert summary.started and all(seat.claimed for seat in summary.seats)
    stored = await store.load(match_id)
    assert SeatClaim.from_json(stored.seats[0]).takeover == "zombie"
    (start,) = await store.events_after(match_id, -1)
    assert start.is_start


async def test_leaving_races_the_starting_join_without_a_seat_reopening_late(
    store: MatchStore,
) -> None:
    """Many trials of a leave and the last join sent together: each ends one way
    or the other, and the replies agree with each other and with the store."""
    service = MatchService(store, Settings())
    rng = random.Random(31)
    seen: Counter[str] = Counter()

    async def yield_a_few(n: int) -> None:
        for _ in range(n):
            await asyncio.sleep(0)

    async def trial() -> None:
        match_id, leaver = await waiting_match(service)
        leave_first = rng.random() < 0.5
        delays = (rng.randrange(4), rng.randrange(4))

        async def leave() -> str:
            await yield_a_few(delays[0])
            outcome, _summary = await service.leave(leaver, match_id)
            return outcome

        async def join() -> bool:
            await yield_a_few(delays[1])
            _seat, _token, summary = await service.join(Caller(), match_id, 1, "newcomer")
            return summary.started

        if leave_first:
            outcome, started = await asyncio.gather(leave(), join())
        else:
            started, outcome = await asyncio.gather(join(), leave())
        seen[outcome] += 1
        stored = await store.load(match_id)
        marks = await store.events_after(match_id, -1)
        if outcome == "reopened":
            assert not started
            assert sorted(stored.seats) == [1]
            assert marks == []
        else:
            assert outcome == "resigned" and started
            assert sorted(stored.seats) == [0, 1]
            assert SeatClaim.from_json(stored.seats[0]).takeover == "zombie"
            assert [b.is_start for b in marks] == [True]

    for _ in range(TRIALS // 20):
        await asyncio.gather(*(trial() for _ in range(20)))
    assert sum(seen.values()) == TRIALS
    if isinstance(store, MemoryStore):  # one event loop, no I/O: the same each run
        assert set(seen) == {"reopened", "resigned"}, seen
