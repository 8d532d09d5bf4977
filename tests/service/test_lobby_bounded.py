"""The lobby index stays bounded without anyone listing it: once matches expire,
their entries leave the index (order, hints and deadlines) through the replicas'
sweeps, on the embedded store, Redis and Redis Cluster. An entry past its
deadline whose match is still alive (its TTL renewed by a commit, which writes
no lobby entry) is kept and checked again at the match's own expiry."""

from __future__ import annotations

import asyncio
import time

import pytest

from senet.service.lobby import LobbyFilter, MatchPage
from senet.service.matches import Caller
from senet.service.records import SeatPlan
from senet.service.server import create_server
from senet.service.settings import Settings
from senet.store import ClaimWrite, MatchStore, NewMatch
from senet.store.base import LobbyCursor, LobbyEntry, LobbyHint
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from tests.service.test_lobby import FakeClock, lobby_kind, make_store

__all__ = ["lobby_kind"]  # the fixture, parametrized over every store kind

#: Every TTL of the stores under test (waiting, idle, finished).
TTL_S = 1.0
#: How long the index may take to empty once every match has expired.
WITHIN_S = 30.0


async def index_size(store: MatchStore) -> int:
    """Entries, hints and deadlines the lobby index holds, all together."""
    if isinstance(store, MemoryStore):
        return len(store._lobby) + len(store._lobby_order) + len(store._lobby_deadlines)
    assert isinstance(store, RedisStore)
    order, hints, deadlines = store.lobby_keys()
    client = store._client
    sizes = await asyncio.gather(client.zcard(order), client.hlen(hints), client.zcard(deadlines))
    return sum(int(size) for size in sizes)


@pytest.mark.slow
async def test_the_index_empties_once_matches_expire_without_any_listing(
    lobby_kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = make_store(lobby_kind, request, ttl_s=TTL_S)
    settings = Settings(
        port=0,
        log_json=False,
        client_creates_per_min=0,
        waiting_ttl_s=1,
        idle_ttl_s=1,
        finished_ttl_s=1,
        lobby_sweep_s=0.05,
    )
    server = await create_server(settings, store, health_interval_s=0.2)
    service = server.servicer.service
    try:

        async def no_listing(*args: object) -> MatchPage:
            raise AssertionError("the test must not list matches")

        monkeypatch.setattr(service, "list_matches", no_listing)
        made = []
        for n in range(40):
            snapshot = await service.create_match(
                Caller(), "pebbles", {}, [SeatPlan("open"), SeatPlan("open")], seed=n
            )
            made.append(snapshot.summary.match_id)
            if n % 2:  # half of them started: another TTL, another hint
                for seat in (0, 1):
                    await service.join(Caller(), made[-1], seat, f"p{seat}")
        assert await index_size(store) > 0
        deadline = time.monotonic() + WITHIN_S
        while await index_size(store) > 0:
            assert time.monotonic() < deadline, f"{await index_size(store)} left"
            await asyncio.sleep(0.05)
        page = await service.lobby.page(LobbyFilter(), 200, "")
        assert page.matches == []
    finally:
        await asyncio.wait_for(server.stop(), 10)


async def test_a_live_match_past_its_entry_deadline_keeps_its_entry() -> None:
    clock = FakeClock()
    store = MemoryStore(waiting_ttl_s=5, idle_ttl_s=10, finished_ttl_s=10, clock=clock)
    cursor = LobbyCursor(round(time.time() * 1e6), "m1")
    await store.lobby_put(LobbyEntry(cursor, LobbyHint("pebbles", "active", 2)))
    await store.create(NewMatch("m1", "{}", "{}", waiting=True))
    clock.now += 3
    # The claim that starts it: the idle TTL from now on, and no lobby write.
    assert await store.claim_seat("m1", ClaimWrite(0, "{}"), starting=[0])
    clock.now += 3  # past the entry's deadline (waiting TTL), not the match's expiry
    assert await store.lobby_sweep(10) == 1
    assert "m1" in store._lobby
    assert await store.lobby_sweep(10) == 0  # checked again at the match's expiry only
    clock.now += 8  # the match has expired
    assert await store.lobby_sweep(10) == 1
    assert store._lobby == {} and store._lobby_deadlines == {}
