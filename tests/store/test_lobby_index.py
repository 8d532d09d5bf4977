"""The lobby index of every store, as a property: paging through it with any
limit and budget yields exactly the entries whose hints pass the query, newest
first, each once; memory and Redis (its Lua scan) agree on every example.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.store import MatchStore
from senet.store.base import LobbyCursor, LobbyEntry, LobbyHint, LobbyQuery
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore

#: Creation times of the generated entries, moved to the time of the example in
#: ``_page_through`` so that none is past the grace after which the Redis store
#: drops an entry whose match does not exist.
NOW_US = round(time.time() * 1_000_000)
entries_strategy = st.lists(
    st.builds(
        LobbyEntry,
        st.builds(
            LobbyCursor,
            st.integers(NOW_US, NOW_US + 4),  # ties on purpose
            st.text("abcdef", min_size=1, max_size=3),
        ),
        st.builds(
            LobbyHint,
            st.sampled_from(["mykerinos", "pebbles"]),
            st.sampled_from(["active", "finished"]),
            st.integers(0, 2),
        ),
    ),
    max_size=25,
    unique_by=lambda e: e.match_id,
)
query_strategy = st.builds(
    LobbyQuery,
    st.sampled_from(["", "mykerinos", "pebbles"]),
    st.sampled_from([None, "active", "finished"]),
    st.sampled_from([None, True, False]),
)


async def _page_through(
    store: MatchStore, entries: list[LobbyEntry], query: LobbyQuery, limit: int, budget: int
) -> None:
    shift = round(time.time() * 1_000_000) - NOW_US
    entries = [
        LobbyEntry(LobbyCursor(e.cursor.created_us + shift, e.match_id), e.hint) for e in entries
    ]
    for entry in entries:
        await store.lobby_put(entry)
    found: list[LobbyEntry] = []
    after = None
    for _ in range(len(entries) + 2):
        scan = await store.lobby_scan(query, after, limit, budget)
        assert len(scan.entries) <= limit
        assert len(scan.entries) <= scan.looked <= budget
        found += scan.entries
        if scan.next_after is None:
            break
        after = scan.next_after
    else:
        pytest.fail("paging did not reach the end")
    newest_first = sorted(entries, key=lambda e: (-e.cursor.created_us, e.match_id))
    assert found == [e for e in newest_first if query.admits(e.hint)]


@settings(max_examples=150, deadline=None)
@given(entries_strategy, query_strategy, st.integers(1, 5), st.integers(1, 7))
def test_memory_lobby_pages_are_exact(
    entries: list[LobbyEntry], query: LobbyQuery, limit: int, budget: int
) -> None:
    asyncio.run(_page_through(MemoryStore(), entries, query, limit, budget))


@pytest.fixture
def on_redis(redis_url: str) -> Callable[[Callable[[MatchStore], Awaitable[None]]], None]:
    """Run a coroutine on a fresh RedisStore under a prefix of its own."""

    def run(body: Callable[[MatchStore], Awaitable[None]]) -> None:
        async def main() -> None:
            store = RedisStore.from_url(redis_url, key_prefix=f"lobby-{uuid.uuid4().hex[:8]}")
            try:
                await body(store)
            finally:
                await store.close()

        asyncio.run(main())

    return run


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(entries_strategy, query_strategy, st.integers(1, 5), st.integers(1, 7))
def test_redis_lobby_pages_are_exact(
    on_redis: Callable[[Callable[[MatchStore], Awaitable[None]]], None],
    entries: list[LobbyEntry],
    query: LobbyQuery,
    limit: int,
    budget: int,
) -> None:
    on_redis(lambda store: _page_through(store, entries, query, limit, budget))


async def test_redis_drops_entries_of_vanished_matches_when_it_writes(redis_url: str) -> None:
    """Every write draws entries at random and drops those whose match is gone
    (past the creation grace), so entries nobody reads do not pile up."""
    store = RedisStore.from_url(redis_url, key_prefix=f"lobby-{uuid.uuid4().hex[:8]}")
    try:
        old = LobbyEntry(LobbyCursor(1_000_000, "gone"), LobbyHint("pebbles", "active", 1))
        await store.lobby_put(old)  # its own write drew it: no match, long past the grace
        scan = await store.lobby_scan(LobbyQuery(), None, 10, 10)
        assert scan.entries == []
    finally:
        await store.close()
