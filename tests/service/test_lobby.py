"""The lobby: ``ListMatches`` over every store (memory, Redis, Redis Cluster).

Matches are created through real servers; the lobby must list them newest first,
page through all of them with every filter (no match repeated or skipped, even
while new matches are created between pages), show public facts only, refuse bad
filters and page tokens with INVALID_ARGUMENT, and forget matches once they
expire. Entries are hints beside the matches (on a cluster the index lives in
another slot), so the tests also break the hints on purpose and check that
readers see the truth and repair them.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest

from senet.service.lobby import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, LobbyFilter
from senet.service.matches import Caller, MatchService
from senet.service.records import SeatPlan
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store import ClaimWrite, MatchStore, StoreUnavailable
from senet.store.base import LOBBY_CREATE_GRACE_S, LobbyCursor, LobbyEntry, LobbyHint, LobbyQuery
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.conftest import STORE_BUDGET_S
from tests.service.conftest import Client, expect_error

Code = grpc.StatusCode
ACTIVE = match_pb2.MATCH_STATUS_ACTIVE
FINISHED = match_pb2.MATCH_STATUS_FINISHED


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_store(
    kind: str,
    request: pytest.FixtureRequest,
    ttl_s: float | None = None,
    clock: FakeClock | None = None,
) -> MatchStore:
    """A store of ``kind`` whose matches expire after ``ttl_s`` (idle, waiting for
    players, or finished)."""
    if kind == "memory":
        return MemoryStore(
            idle_ttl_s=ttl_s,
            finished_ttl_s=ttl_s,
            waiting_ttl_s=ttl_s,
            clock=clock or time.monotonic,
        )
    url = request.getfixturevalue("redis_url" if kind == "redis" else "redis_cluster_url")
    return RedisStore.from_url(
        url,
        idle_ttl_s=ttl_s,
        finished_ttl_s=ttl_s,
        waiting_ttl_s=ttl_s,
        socket_timeout_s=STORE_BUDGET_S,
    )


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
def lobby_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def lobby_server(
    lobby_kind: str, request: pytest.FixtureRequest
) -> AsyncIterator[RunningServer]:
    store = make_store(lobby_kind, request)
    # The tests create up to 1,000 matches from this one host: no creation quota.
    settings = Settings(port=0, log_json=False, client_creates_per_min=0)
    server = await create_server(settings, store, health_interval_s=0.2)
    try:
        yield server
    finally:
        await asyncio.wait_for(server.stop(), 10)


@pytest.fixture
async def lobby_client(lobby_server: RunningServer) -> AsyncIterator[Client]:
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{lobby_server.port}")
    try:
        yield Client(channel)
    finally:
        await channel.close(None)


async def list_page(client: Client, **fields: object) -> ms.ListMatchesResponse:
    request = ms.ListMatchesRequest(**fields)  # type: ignore[arg-type]
    return await client._call(client.stub.ListMatches, request)


async def list_all(client: Client, page_size: int = 0, **filters: object) -> list[str]:
    """Every match id the lobby lists for ``filters``, page after page."""
    ids: list[str] = []
    token = ""
    while True:
        page = await list_page(client, page_size=page_size, page_token=token, **filters)
        assert len(page.matches) <= (page_size or DEFAULT_PAGE_SIZE)
        ids += [m.match_id for m in page.matches]
        token = page.next_page_token
        if not token:
            return ids


# ------------------------------------------------------------- 1,000 matches
@dataclass
class Made:
    """A match the test made, and what the lobby must say of it."""

    match_id: str
    game_id: str
    finished: bool = False
    full: bool = False


async def finish_pebbles(client: Client, match_id: str, rng: random.Random) -> None:
    """Claim both seats of a Pebbles match and play it to the end."""
    seats = [client.as_seat((await client.join(match_id, s, f"p{s}")).token) for s in (0, 1)]
    summary = (await client.get(match_id)).match
    while summary.HasField("current_seat"):
        seat = seats[summary.current_seat]
        legal = await seat.legal(match_id)
        done = await seat.submit(match_id, rng.choice(legal.actions).notation)
        if not done.HasField("current_seat"):
            break
        summary = (await client.get(match_id)).match


@pytest.mark.slow
async def test_list_matches_pages_through_1000_matches_with_every_filter(
    lobby_client: Client,
) -> None:
    client = lobby_client
    rng = random.Random(14)
    made: list[Made] = []
    for i in range(1000):
        game = "pebbles" if i % 3 else "mykerinos"
        created = await client.create(2, seed=i, game_id=game)
        made.append(Made(created.match.match_id, game))
    for entry in made[5::7]:  # some full: both seats claimed
        for seat in (0, 1):
            await client.join(entry.match_id, seat, f"seat {seat}")
        entry.full = True
    for entry in [m for m in made if m.game_id == "pebbles" and not m.full][:12]:
        await finish_pebbles(client, entry.match_id, rng)
        entry.finished = entry.full = True
    newest_first = [m.match_id for m in reversed(made)]

    def expected(game: str = "", status: int = 0, open_seat: bool | None = None) -> list[str]:
        by_id = {m.match_id: m for m in made}
        return [
            i
            for i in newest_first
            if (not game or by_id[i].game_id == game)
            and (not status or (status == FINISHED) == by_id[i].finished)
            and (open_seat is None or open_seat != by_id[i].full)
        ]

    assert await list_all(client, page_size=MAX_PAGE_SIZE) == newest_first
    filters: list[dict[str, object]] = [
        {"game_id": "mykerinos"},
        {"game_id": "pebbles"},
        {"status": ACTIVE},
        {"status": FINISHED},
        {"has_open_seat": True},
        {"has_open_seat": False},
        {"game_id": "pebbles", "status": ACTIVE, "has_open_seat": False},
    ]
    for f in filters:
        want = expected(
            str(f.get("game_id", "")),
            int(f.get("status", 0)),  # type: ignore[call-overload]
            f.get("has_open_seat"),  # type: ignore[arg-type]
        )
        assert await list_all(client, page_size=64, **f) == want, f
    finished = await list_page(client, status=FINISHED, page_size=MAX_PAGE_SIZE)
    assert all(m.status == FINISHED for m in finished.matches)
    assert len(finished.matches) == 12

    # Paging while matches are created: the new ones are newer than the pages
    # already read, so they never shift, repeat or hide an older match.
    seen: list[str] = []
    token = ""
    while True:
        page = await list_page(client, page_size=97, page_token=token)
        seen += [m.match_id for m in page.matches]
        await client.create(2, game_id="pebbles")
        token = page.next_page_token
        if not token:
            break
    assert seen == newest_first


async def test_listing_shows_public_facts_only(lobby_client: Client) -> None:
    client = lobby_client
    plans = [
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN),
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN),
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="greedy"),
    ]
    before = time.time()
    created = await client.create(plans, game_id="mykerinos")
    joined = await client.join(created.match_id, 0, "Ada")
    page = await list_page(client)
    (listing,) = page.matches
    assert listing.match_id == created.match_id
    assert listing.game_id == "mykerinos"
    assert listing.status == ACTIVE
    assert listing.version == 0
    assert before * 1000 - 1000 <= listing.created_time_ms <= time.time() * 1000 + 1000
    assert [(s.seat, s.kind, s.claimed, s.display_name, s.bot_strategy) for s in listing.seats] == [
        (0, match_pb2.SEAT_KIND_OPEN, True, "Ada", ""),
        (1, match_pb2.SEAT_KIND_OPEN, False, "", ""),
        (2, match_pb2.SEAT_KIND_BOT, False, "", "greedy"),
    ]
    assert dict(listing.options) == dict(created.match.options)
    assert page.next_page_token == ""
    wire = page.SerializeToString()
    assert joined.token.encode() not in wire
    assert created.match.seed_commitment.encode() not in wire  # nothing of the seed either
    assert {f.name for f, _ in listing.ListFields()} <= {
        "match_id", "game_id", "status", "created_time_ms", "seats", "version", "options",
    }  # fmt: skip


async def test_bad_filters_and_page_tokens_are_invalid_arguments(lobby_client: Client) -> None:
    client = lobby_client
    for i in range(3):
        await client.create(2, seed=i, game_id="pebbles")
    first = await list_page(client, page_size=2)
    assert len(first.matches) == 2 and first.next_page_token
    rest = await list_page(client, page_size=2, page_token=first.next_page_token)
    assert len(rest.matches) == 1
    bad: list[tuple[dict[str, Any], str]] = [
        ({"page_token": "not a token"}, "INVALID_PAGE_TOKEN"),
        ({"page_token": first.next_page_token[:-3]}, "INVALID_PAGE_TOKEN"),
        ({"page_token": first.next_page_token, "game_id": "pebbles"}, "INVALID_PAGE_TOKEN"),
        ({"page_token": first.next_page_token, "has_open_seat": True}, "INVALID_PAGE_TOKEN"),
        ({"game_id": "chess"}, "UNKNOWN_GAME"),
        ({"page_size": -1}, "MALFORMED_REQUEST"),
        ({"status": 42}, "MALFORMED_REQUEST"),
    ]
    for fields, reason in bad:
        failure = await expect_error(list_page(client, **fields), Code.INVALID_ARGUMENT, reason)
        assert failure.message, fields
    # Bigger pages than the largest are served as the largest, not refused.
    assert len((await list_page(client, page_size=10_000)).matches) == 3


# ----------------------------------------------------------------- the store side
@contextlib.asynccontextmanager
async def clocked_store(
    kind: str, request: pytest.FixtureRequest, ttl_s: int = 1
) -> AsyncIterator[Clocked]:
    """A MatchService over a store whose matches expire after ``ttl_s``, and a way
    to let time pass (a fake clock in memory, real seconds on Redis)."""
    clock = FakeClock()
    store = make_store(kind, request, float(ttl_s), clock)
    service = MatchService(store, Settings(idle_ttl_s=ttl_s, finished_ttl_s=ttl_s))
    try:
        yield Clocked(service, store, clock, kind)
    finally:
        await store.close()


@pytest.fixture
async def clocked(lobby_kind: str, request: pytest.FixtureRequest) -> AsyncIterator[Clocked]:
    """A MatchService over a store with short TTLs, and a way to let time pass."""
    async with clocked_store(lobby_kind, request) as running:
        yield running


@dataclass
class Clocked:
    service: MatchService
    store: MatchStore
    clock: FakeClock
    kind: str

    async def advance(self, seconds: float) -> None:
        if self.kind == "memory":
            self.clock.now += seconds
        else:
            await asyncio.sleep(seconds)

    async def create(self, game: str = "pebbles") -> str:
        snapshot = await self.service.create_match(
            Caller(), game, {}, [SeatPlan("open"), SeatPlan("open")], seed=1
        )
        return snapshot.summary.match_id

    async def ids(self, **filters: object) -> list[str]:
        page = await self.service.list_matches(LobbyFilter(**filters), 200, "")  # type: ignore[arg-type]
        return [m.match_id for m in page.matches]

    async def until_listed(self, expected: list[str], **filters: object) -> list[str]:
        """Let time pass in small steps until the lobby lists ``expected`` (at most 1 s).

        A wait on the condition, not a fixed sleep: on a loaded machine a store call
        may eat most of a fixed sleep's margin before the TTL runs out.
        """
        for _step in range(20):
            ids = await self.ids(**filters)
            if ids == expected:
                return ids
            await self.advance(0.05)
        return await self.ids(**filters)


@pytest.mark.slow
async def test_entries_expire_with_their_matches(
    lobby_kind: str, request: pytest.FixtureRequest
) -> None:
    # Redis expires in real time: a TTL long enough that a slow store call between
    # two steps cannot carry a match past its expiry unseen.
    ttl = 1 if lobby_kind == "memory" else 3
    async with clocked_store(lobby_kind, request, ttl) as clocked:
        old = await clocked.create()
        await clocked.advance(0.4 * ttl)
        young = await clocked.create()
        assert await clocked.ids() == [young, old]
        # The first match's idle TTL passes 0.4 TTL before the second's.
        await clocked.advance(0.5 * ttl)
        assert await clocked.until_listed([young]) == [young]
        await clocked.advance(0.5 * ttl)
        assert await clocked.until_listed([]) == []


async def test_an_idle_match_is_listed_as_abandoned(clocked: Clocked) -> None:
    service = clocked.service
    match_id = await clocked.create()
    tokens = [(await service.join(Caller(), match_id, s, f"p{s}"))[1] for s in (0, 1)]
    seat = (await service.get(Caller(), match_id)).summary.current_seat
    assert seat is not None
    me = Caller(tokens[seat])
    legal = await service.legal_actions(me, match_id)
    await service.submit(me, match_id, legal.actions[0].notation, 0, "r1", None, lambda o: o)
    assert await clocked.ids(status="active") == [match_id]
    await clocked.advance(0.5)  # half the idle TTL; listed as abandoned once idle longer
    assert await clocked.until_listed([match_id], status="abandoned") == [match_id]
    assert await clocked.ids(status="active") == []


async def test_readers_see_the_match_not_a_stale_hint_and_repair_it(clocked: Clocked) -> None:
    match_id = await clocked.create()
    # Both seats claimed behind the lobby's back: the hint still says "open".
    for seat in (0, 1):
        claim = f'{{"name": "x{seat}", "token_hash": "{seat}", "joined_at": 0}}'
        assert await clocked.store.claim_seat(match_id, ClaimWrite(seat, claim))
    assert await clocked.ids(has_open_seat=True) == []
    scan = await clocked.store.lobby_scan(LobbyQuery(), None, 10, 10)
    (entry,) = scan.entries
    assert entry.hint == LobbyHint("pebbles", "active", 0, rated=False)  # repaired by that read
    assert await clocked.ids(has_open_seat=False) == [match_id]


async def test_an_entry_without_its_match_is_skipped_then_dropped(
    lobby_kind: str, request: pytest.FixtureRequest
) -> None:
    # Entries live as long as a waiting match (a minute here): on a loaded machine the
    # fixture's 1 s let the young entry expire before the second look, which is not
    # what this test is about.
    async with clocked_store(lobby_kind, request, ttl_s=60) as clocked:
        now_us = round(time.time() * 1e6)
        young = LobbyCursor(now_us, "notcreatedyet")
        old = LobbyCursor(now_us - round(2 * LOBBY_CREATE_GRACE_S * 1e6), "failedcreation")
        for cursor in (young, old):
            await clocked.store.lobby_put(LobbyEntry(cursor, LobbyHint("pebbles", "active", 2)))
        assert await clocked.ids() == []
        scan = await clocked.store.lobby_scan(LobbyQuery(), None, 10, 10)
        # The old one is dropped; the young one is kept, as its match may still appear.
        assert [e.cursor for e in scan.entries] == [young]


async def test_join_and_the_end_refresh_the_entry(clocked: Clocked) -> None:
    match_id = await clocked.create()
    await clocked.service.join(Caller(), match_id, None, "Ada")
    scan = await clocked.store.lobby_scan(LobbyQuery(), None, 10, 10)
    assert scan.entries[0].hint == LobbyHint("pebbles", "active", 1, rated=False)
    await clocked.service.refresh_lobby_entry("0000000000000000")  # gone: no error


# ------------------------------------------------------------- client library
async def test_the_client_library_pages_through_the_lobby(lobby_server: RunningServer) -> None:
    from senet.client import SenetClient

    async with SenetClient(f"127.0.0.1:{lobby_server.port}") as senet:
        made = [await senet.create_match("pebbles", 2, seed=i) for i in range(7)]
        joined = await senet.join(made[2], "Ada")
        await senet.join(made[2], "Bob")
        assert joined.seat == 0
        newest_first = made[::-1]
        everything = [m.match_id async for m in senet.list_matches(page_size=2)]
        assert everything == newest_first
        first_three = [m.match_id async for m in senet.list_matches(page_size=2, limit=3)]
        assert first_three == newest_first[:3]
        full = [m async for m in senet.list_matches(has_open_seat=False, status="active")]
        assert [m.match_id for m in full] == [made[2]]
        assert [s.display_name for s in full[0].seats] == ["Ada", "Bob"]
        page = await senet.list_matches_page(game_id="pebbles", page_size=4)
        assert [m.match_id for m in page.matches] == newest_first[:4]
        rest = await senet.list_matches_page(
            game_id="pebbles", page_size=4, page_token=page.next_page_token
        )
        assert [m.match_id for m in rest.matches] == newest_first[4:]
        assert [m async for m in senet.list_matches(status="finished")] == []


class _LobbyDown(MemoryStore):
    """A memory store whose lobby writes fail while ``down`` is set."""

    down = False

    async def lobby_put(self, entry: LobbyEntry) -> None:
        if self.down:
            raise StoreUnavailable("lobby down")
        await super().lobby_put(entry)


async def test_a_lobby_write_fails_a_creation_but_never_a_done_join() -> None:
    store = _LobbyDown()
    service = MatchService(store, Settings())
    plans = [SeatPlan("open"), SeatPlan("open")]
    store.down = True
    with pytest.raises(StoreUnavailable):
        await service.create_match(Caller(), "pebbles", {}, plans, seed=1)
    assert len(store) == 0  # nothing created, so a retry creates one match
    store.down = False
    match_id = (await service.create_match(Caller(), "pebbles", {}, plans, seed=1)).summary.match_id
    store.down = True
    seat, token, summary = await service.join(Caller(), match_id, None, "Ada")  # claimed: kept
    assert (seat, summary.seats[0].claimed) == (0, True) and token
    store.down = False
    page = await service.list_matches(LobbyFilter(has_open_seat=True), 10, "")
    assert [[s.display_name for s in m.seats] for m in page.matches] == [["Ada", ""]]


async def test_a_rated_match_is_listed_as_rated(
    lobby_server: RunningServer, lobby_client: Client
) -> None:
    """MatchListing.rated: a match whose result settles into ratings (the queue's
    rated matches, made here as the queue makes them) says so in the lobby."""
    service = lobby_server.servicer.service
    plans = [SeatPlan("open"), SeatPlan("bot", "random")]
    rated = await service.create_match(
        Caller(is_admin=True), "pebbles", {}, plans, None, rated=True
    )
    casual = await lobby_client.create(2, game_id="pebbles")
    listed = {m.match_id: m.rated for m in (await list_page(lobby_client)).matches}
    assert listed == {rated.summary.match_id: True, casual.match_id: False}


async def test_the_rated_filter_lists_rated_or_casual_matches(
    lobby_server: RunningServer, lobby_client: Client
) -> None:
    """ListMatchesRequest.rated: true lists the rated matches only, false the casual
    ones, page after page, and a page token serves the filter it was issued for."""
    service = lobby_server.servicer.service
    plans = [SeatPlan("open"), SeatPlan("bot", "random")]
    made: list[tuple[str, bool]] = []
    for i in range(6):
        rated = i % 3 == 0
        snapshot = await service.create_match(
            Caller(is_admin=True), "pebbles", {}, plans, None, rated=rated
        )
        made.append((snapshot.summary.match_id, rated))
    newest_first = made[::-1]
    rated_ids = [m for m, r in newest_first if r]
    casual_ids = [m for m, r in newest_first if not r]
    assert await list_all(lobby_client, page_size=1, rated=True) == rated_ids
    assert await list_all(lobby_client, page_size=2, rated=False) == casual_ids
    assert await list_all(lobby_client, page_size=2, rated=True, has_open_seat=True) == rated_ids
    assert await list_all(lobby_client) == [m for m, _ in newest_first]
    first = await list_page(lobby_client, page_size=1, rated=True)
    for other in ({"rated": False}, {}):
        await expect_error(
            list_page(lobby_client, page_size=1, page_token=first.next_page_token, **other),
            Code.INVALID_ARGUMENT,
            "INVALID_PAGE_TOKEN",
        )


async def test_an_entry_from_before_the_rated_hint_is_listed_and_repaired(
    clocked: Clocked,
) -> None:
    """An entry written before hints said whether the match is rated (a release
    before the rated filter) passes the filter on its hint, the match's own facts
    decide, and the reader rewrites the hint."""
    plans = [SeatPlan("open"), SeatPlan("bot", "random")]
    snapshot = await clocked.service.create_match(
        Caller(is_admin=True), "pebbles", {}, plans, None, rated=True
    )
    match_id = snapshot.summary.match_id
    (entry,) = (await clocked.store.lobby_scan(LobbyQuery(), None, 10, 10)).entries
    assert entry.hint == LobbyHint("pebbles", "active", 1, rated=True)
    await clocked.store.lobby_put(LobbyEntry(entry.cursor, LobbyHint("pebbles", "active", 1)))
    assert await clocked.ids(rated=False) == []
    assert await clocked.ids(rated=True) == [match_id]
    (repaired,) = (await clocked.store.lobby_scan(LobbyQuery(), None, 10, 10)).entries
    assert repaired.hint == LobbyHint("pebbles", "active", 1, rated=True)
    assert await clocked.ids(rated=True) == [match_id]


def test_page_tokens_without_the_rated_filter_keep_their_fingerprint() -> None:
    """A token issued without the rated filter stays valid on replicas of releases
    before it: its fingerprint is what those releases wrote."""
    assert LobbyFilter().fingerprint() == "||"
    assert LobbyFilter("mykerinos", "active", True).fingerprint() == "mykerinos|active|1"
    assert LobbyFilter(rated=False).fingerprint() == "|||rated=0"
