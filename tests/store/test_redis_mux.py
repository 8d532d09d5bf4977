"""The multiplexed Redis connection, and the Redis store's use of it.

:class:`~senet.store.redis_mux.MuxConnection` is checked against the session's
private Redis (``tests/conftest.py``): replies matched to callers in order under
concurrency, pipelining, error replies, cancelled callers, lost connections,
overdue replies and closing. The store-level tests pin what ``RedisStore`` adds
on top: the URL's handshake options, NOSCRIPT recovery, the redis-py fallback,
the non-multiplexed mode and the error mapping of an unreachable Redis.
"""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import pytest
import redis.exceptions as rex
from redis.asyncio import Redis as AsyncRedis
from redis.asyncio.connection import Connection, ConnectionPool

from senet.store import ClaimWrite, CommitOutcome, MatchNotFound, StoreUnavailable
from senet.store.redis_mux import MuxConnection, MuxUnsupported
from senet.store.redis_store import RedisStore
from tests.conftest import RedisServer
from tests.store.test_stores import new_match, req


def make_mux(url: str, timeout_s: float = 5.0) -> MuxConnection:
    """A multiplexer over a plain redis-py connection to ``url`` (RESP2)."""
    kwargs = {**ConnectionPool.from_url(url).connection_kwargs, "protocol": 2}
    return MuxConnection(lambda: Connection(**kwargs), timeout_s)


@pytest.fixture
async def mux(redis_url: str) -> AsyncIterator[MuxConnection]:
    m = make_mux(redis_url)
    try:
        yield m
    finally:
        await m.close()


async def command(client: AsyncRedis, *args: Any) -> Any:
    """A raw_redis command on an ordinary client (redis-py leaves execute_command untyped)."""
    return await cast(Any, client).execute_command(*args)


async def _two_in_flight(
    mux: MuxConnection, prefix: str
) -> tuple[int, asyncio.Task[Any], asyncio.Task[Any]]:
    """The mux's client id, then a BLPOP left waiting and a GET queued behind it."""
    client_id = await mux.execute("CLIENT", "ID")
    blocked = asyncio.create_task(mux.execute("BLPOP", f"{prefix}:q", 2))
    queued = asyncio.create_task(mux.execute("GET", f"{prefix}:a"))
    await asyncio.sleep(0.05)
    assert mux.in_flight == 2
    return client_id, blocked, queued


async def wait_until(condition: Callable[[], Awaitable[bool]], timeout_s: float = 1.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not await condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


# -- the multiplexer ------------------------------------------------------------------


async def test_concurrent_commands_get_their_own_replies_in_few_writes(
    mux: MuxConnection,
    raw_redis: AsyncRedis,
    redis_key_prefix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hundreds of concurrent mixed commands each get their own reply (FIFO matching),
    and commands issued in one loop turn leave in a handful of socket writes."""
    p = redis_key_prefix
    n = 400
    async with raw_redis.pipeline(transaction=False) as pipe:
        for i in range(n):
            pipe.set(f"{p}:get:{i}", f"value-{i}")
            pipe.set(f"{p}:incr:{i}", i * 10)
            pipe.rpush(f"{p}:list:{i}", *range(i % 7 + 1))
        await pipe.execute()

    assert await mux.execute("PING") == "PONG"  # connected: the transport exists
    writer = mux._transport
    assert writer is not None
    writes = 0
    original_write = writer.write

    def counting_write(data: bytes | bytearray | memoryview) -> None:
        nonlocal writes
        writes += 1
        original_write(data)

    monkeypatch.setattr(writer, "write", counting_write)

    commands: list[tuple[Any, ...]] = []
    expected: list[Any] = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            commands.append(("SET", f"{p}:set:{i}", f"new-{i}"))
            expected.append("OK")
        elif kind == 1:
            commands.append(("GET", f"{p}:get:{i}"))
            expected.append(f"value-{i}")
        elif kind == 2:
            commands.append(("INCR", f"{p}:incr:{i}"))
            expected.append(i * 10 + 1)
        else:
            commands.append(("LPUSH", f"{p}:list:{i}", "a", "b"))
            expected.append(i % 7 + 3)

    replies = await asyncio.gather(*(mux.execute(*c) for c in commands))
    assert replies == expected
    assert mux.in_flight == 0
    assert 1 <= writes <= n // 10, f"{writes} writes for {n} commands: not pipelined"
    assert await raw_redis.get(f"{p}:set:0") == "new-0"


async def test_error_replies_raise_redis_py_exceptions_and_the_connection_goes_on(
    mux: MuxConnection, redis_key_prefix: str
) -> None:
    """An error reply raises redis-py's class for it (ResponseError for WRONGTYPE,
    NoScriptError for an unknown EVALSHA), only for its own caller; the commands
    around it, and after it, get their own replies."""
    k = f"{redis_key_prefix}:s"
    assert await mux.execute("SET", k, "text") == "OK"

    with pytest.raises(rex.ResponseError, match="WRONGTYPE"):
        await mux.execute("LPUSH", k, "x")
    with pytest.raises(rex.NoScriptError):
        await mux.execute("EVALSHA", "f" * 40, 0)
    assert await mux.execute("GET", k) == "text"

    results = await asyncio.gather(
        mux.execute("GET", k),
        mux.execute("LPUSH", k, "x"),
        mux.execute("STRLEN", k),
        mux.execute("EVALSHA", "0" * 40, 0),
        mux.execute("ECHO", "after"),
        return_exceptions=True,
    )
    assert results[0] == "text"
    assert type(results[1]) is rex.ResponseError
    assert results[2] == 4
    assert isinstance(results[3], rex.NoScriptError)
    assert results[4] == "after"
    assert await mux.execute("GET", k) == "text"


async def test_cancelled_callers_do_not_shift_replies(
    mux: MuxConnection, raw_redis: AsyncRedis, redis_key_prefix: str
) -> None:
    """A caller cancelled while its command is in flight loses only its own reply:
    the command still runs, its reply is dropped, later commands get theirs."""
    p = redis_key_prefix
    await raw_redis.set(f"{p}:a", "A")
    blocked = asyncio.create_task(mux.execute("BLPOP", f"{p}:q", 2))
    await asyncio.sleep(0.05)  # BLPOP is at the server, holding up the connection
    queued = asyncio.create_task(mux.execute("GET", f"{p}:a"))
    await asyncio.sleep(0.02)
    assert mux.in_flight == 2
    blocked.cancel()
    with pytest.raises(asyncio.CancelledError):
        await blocked
    await raw_redis.rpush(f"{p}:q", "x")  # BLPOP now answers [q, x]: a reply nobody waits for
    assert await asyncio.wait_for(queued, 1.0) == "A"
    assert await mux.execute("GET", f"{p}:a") == "A"
    assert await mux.execute("LLEN", f"{p}:q") == 0  # the cancelled BLPOP did run

    # Cancelled among many: every survivor still gets its own value.
    n = 60
    async with raw_redis.pipeline(transaction=False) as pipe:
        for i in range(n):
            pipe.set(f"{p}:k{i}", f"v{i}")
        await pipe.execute()
    tasks = [asyncio.create_task(mux.execute("GET", f"{p}:k{i}")) for i in range(n)]
    await asyncio.sleep(0)  # every task has sent (or buffered) its command
    for task in tasks[1::2]:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for i, result in enumerate(results):
        if i % 2:
            assert isinstance(result, asyncio.CancelledError)
        else:
            assert result == f"v{i}"
    assert await mux.execute("ECHO", "last") == "last"
    assert mux.in_flight == 0


async def test_connection_killed_by_the_server_fails_in_flight_then_reconnects(
    mux: MuxConnection, raw_redis: AsyncRedis, redis_key_prefix: str
) -> None:
    """A connection killed from the server side fails every command in flight with
    ConnectionError; the next command opens a new connection and works."""
    first_id, blocked, queued = await _two_in_flight(mux, redis_key_prefix)

    assert await raw_redis.client_kill_filter(_id=str(first_id)) == 1
    for task in (blocked, queued):
        with pytest.raises(rex.ConnectionError):
            await asyncio.wait_for(task, 1.0)
    assert mux.in_flight == 0

    second_id = await mux.execute("CLIENT", "ID")
    assert second_id != first_id
    assert await mux.execute("SET", f"{redis_key_prefix}:a", "1") == "OK"
    assert await mux.execute("GET", f"{redis_key_prefix}:a") == "1"


async def test_overdue_reply_raises_timeout_then_the_mux_recovers(
    redis_url: str, raw_redis: AsyncRedis, redis_key_prefix: str
) -> None:
    """A reply overdue beyond ``timeout_s`` (Redis paused) raises TimeoutError after
    about ``timeout_s``, not when Redis answers; once Redis serves again, so does
    the multiplexer (on a new connection)."""
    k = f"{redis_key_prefix}:k"
    m = make_mux(redis_url, timeout_s=0.2)
    try:
        assert await m.execute("SET", k, "v") == "OK"  # connected before the pause
        # Redis answers only after 3 s; the multiplexer gives up long before (a
        # wider bound than timeout_s itself, so a loaded machine passes).
        pause_ms = 3000
        await command(raw_redis, "CLIENT", "PAUSE", pause_ms, "ALL")
        t0 = time.monotonic()
        with pytest.raises(rex.TimeoutError):
            await asyncio.wait_for(m.execute("GET", k), 2.9)
        elapsed = time.monotonic() - t0
        assert 0.15 <= elapsed < 2.5, elapsed
        assert m.in_flight == 0

        await asyncio.sleep(max(0.0, t0 + pause_ms / 1000 + 0.05 - time.monotonic()))
        assert await m.execute("GET", k) == "v"
    finally:
        await m.close()


async def test_close_fails_in_flight_commands_and_later_ones(
    mux: MuxConnection, raw_redis: AsyncRedis, redis_key_prefix: str
) -> None:
    """close() fails the commands in flight with ConnectionError, closes the socket,
    and the multiplexer refuses (ConnectionError) to reconnect afterwards."""
    client_id, blocked, queued = await _two_in_flight(mux, redis_key_prefix)

    await mux.close()
    for task in (blocked, queued):
        with pytest.raises(rex.ConnectionError):
            await asyncio.wait_for(task, 1.0)
    with pytest.raises(rex.ConnectionError):
        await mux.execute("PING")

    async def gone() -> bool:
        return not await raw_redis.client_list(client_id=[client_id])

    await wait_until(gone)


class GatedConnection(Connection):
    """A redis-py connection whose connect() waits for ``gate`` first."""

    def __init__(self, gate: asyncio.Event, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._gate = gate

    async def connect(self) -> None:
        await self._gate.wait()
        await cast(Any, super()).connect()


def gated_mux(url: str, gate: asyncio.Event) -> MuxConnection:
    kwargs = {**ConnectionPool.from_url(url).connection_kwargs, "protocol": 2}
    return MuxConnection(lambda: GatedConnection(gate, **kwargs), 5.0)


async def test_a_caller_cancelled_while_connecting_does_not_fail_the_others(
    redis_url: str,
) -> None:
    """The caller that opens the connection may be cancelled while it connects:
    the callers waiting for the same connection still get it, and their replies."""
    gate = asyncio.Event()
    m = gated_mux(redis_url, gate)
    try:
        opener = asyncio.create_task(m.execute("ECHO", "opener"))
        await asyncio.sleep(0)  # the opener is connecting, held at the gate
        others = [asyncio.create_task(m.execute("ECHO", f"e{i}")) for i in range(3)]
        await asyncio.sleep(0)
        opener.cancel()
        with pytest.raises(asyncio.CancelledError):
            await opener
        gate.set()
        assert await asyncio.wait_for(asyncio.gather(*others), 1.0) == ["e0", "e1", "e2"]
        assert await m.execute("ECHO", "after") == "after"
    finally:
        await m.close()


async def test_close_while_connecting_leaves_no_connection(
    redis_url: str, raw_redis: AsyncRedis
) -> None:
    """close() while the connection is being opened: the command waiting for it
    fails with ConnectionError and the connection, once open, is closed at once."""
    before = {c["id"] for c in await raw_redis.client_list()}
    gate = asyncio.Event()
    m = gated_mux(redis_url, gate)
    pending = asyncio.create_task(m.execute("ECHO", "a"))
    await asyncio.sleep(0)  # connecting, held at the gate
    await m.close()
    gate.set()
    with pytest.raises(rex.ConnectionError):
        await asyncio.wait_for(pending, 1.0)

    async def no_new_clients() -> bool:
        return not {c["id"] for c in await raw_redis.client_list()} - before

    await wait_until(no_new_clients)


# -- the store on top of it -----------------------------------------------------------


async def test_store_handshake_follows_url_user_password_and_db(
    redis_server: RedisServer, redis_url: str, raw_redis: AsyncRedis, redis_key_prefix: str
) -> None:
    """The multiplexed connection authenticates and selects the db as the URL says:
    a store with an ACL user, its password and db 3 writes its match into db 3."""
    user = f"mux-{uuid.uuid4().hex[:8]}"
    password = uuid.uuid4().hex
    await command(raw_redis, "ACL", "SETUSER", user, "on", f">{password}", "~*", "&*", "+@all")
    try:
        url = f"redis://{user}:{password}@127.0.0.1:{redis_server.port}/3"
        store = RedisStore.from_url(url, key_prefix=redis_key_prefix)
        try:
            await store.create(new_match())
            assert (await store.load("m1")).meta_json == new_match().meta_json
            mux = store._mux_for(store.keys("m1").head)
            assert mux is not None and mux.in_flight == 0
            info = await mux.execute("CLIENT", "INFO")
            assert f"user={user} " in info and " db=3 " in info, info
        finally:
            await store.close()

        head = store.keys("m1").head
        db3 = AsyncRedis(port=redis_server.port, db=3, decode_responses=True)
        try:
            assert await db3.hget(head, "version") == "0"
        finally:
            await db3.aclose()
        assert await raw_redis.exists(head) == 0  # db 0
    finally:
        await command(raw_redis, "ACL", "DELUSER", user)


async def test_store_reloads_flushed_scripts_over_the_mux(
    redis_url: str, raw_redis: AsyncRedis, redis_key_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After SCRIPT FLUSH a store call still succeeds: EVALSHA answers NOSCRIPT, the
    store sends SCRIPT LOAD and the EVALSHA again, all on the multiplexed connection
    (every command goes through ``send``, which ``execute`` calls too)."""
    store = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix)
    try:
        await store.create(new_match())
        mux = store._mux_for(store.keys("m1").head)
        assert mux is not None
        sent: list[str] = []
        send = mux.send

        def spy(*args: Any) -> asyncio.Future[Any]:
            sent.append(" ".join(str(a) for a in args[:2]) if args[0] == "SCRIPT" else args[0])
            return send(*args)

        monkeypatch.setattr(mux, "send", spy)
        await raw_redis.script_flush()
        assert await store.commit("m1", req(0)) == CommitOutcome("committed", 1)
        assert sent == ["EVALSHA", "SCRIPT LOAD", "EVALSHA"]

        await raw_redis.script_flush()
        loads = await asyncio.gather(*(store.load("m1") for _ in range(5)))
        assert [m.version for m in loads] == [1] * 5
    finally:
        await store.close()


@pytest.mark.parametrize(
    "error",
    [
        rex.MovedError("1234 127.0.0.1:1"),
        rex.AskError("1234 127.0.0.1:1"),
        MuxUnsupported("no socket streams"),
    ],
    ids=["moved", "ask", "unsupported"],
)
async def test_store_falls_back_to_redis_py_when_the_mux_cannot_place_a_call(
    redis_url: str, redis_key_prefix: str, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """When the multiplexed call fails with MovedError / AskError / MuxUnsupported,
    the store runs the script through redis-py's own call and returns its (correct)
    result."""
    store = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix)
    try:
        await store.create(new_match())
        await store.claim_seat("m1", ClaimWrite(1, '{"n": "ann"}'))
        mux = store._mux_for(store.keys("m1").head)
        assert mux is not None
        calls = 0

        def failing(*args: Any) -> asyncio.Future[Any]:
            nonlocal calls
            calls += 1
            reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            reply.set_exception(error)
            return reply

        monkeypatch.setattr(mux, "send", failing)
        assert await store.commit("m1", req(0)) == CommitOutcome("committed", 1)
        assert calls == 1
        loaded = await store.load("m1")
        assert (loaded.version, loaded.seats) == (1, {1: '{"n": "ann"}'})
        assert await store.commit("m1", req(0)) == CommitOutcome("duplicate", 1)
    finally:
        await store.close()


async def test_store_without_multiplexing_gives_the_same_results(
    redis_url: str, redis_key_prefix: str
) -> None:
    """``multiplex=False`` (every script through redis-py's pool) and the default
    multiplexed store give the same results for the same sequence of calls."""

    async def sequence(store: RedisStore) -> list[Any]:
        out: list[Any] = []
        await store.create(new_match())
        out.append(await store.claim_seat("m1", ClaimWrite(0, '{"n": "ann"}')))
        out.append(await store.claim_seat("m1", ClaimWrite(0, '{"n": "bob"}')))
        out.append(await store.commit("m1", req(0)))
        out.append(await store.commit("m1", req(0)))
        out.append(await store.commit("m1", req(0, key="1:other")))
        out.append(await store.load("m1"))
        out.append(await store.action_log("m1"))
        out.append(await store.events_after("m1", 0))
        out.append(await store.request_version("m1", req(0).request_key))
        with pytest.raises(MatchNotFound):
            await store.load("nope")
        return out

    muxed = RedisStore.from_url(redis_url, key_prefix=f"{redis_key_prefix}-mux")
    plain = RedisStore(
        AsyncRedis.from_url(redis_url, decode_responses=True),
        AsyncRedis.from_url(redis_url, decode_responses=True),
        key_prefix=f"{redis_key_prefix}-plain",
        multiplex=False,
    )
    try:
        via_mux = await sequence(muxed)
        via_pool = await sequence(plain)
        assert muxed._muxes and not plain._muxes
    finally:
        await muxed.close()
        await plain.close()

    assert via_mux == via_pool
    assert via_mux[:5] == [
        True,
        False,
        CommitOutcome("committed", 1),
        CommitOutcome("duplicate", 1),
        CommitOutcome("conflict", 1),
    ]
    assert (via_mux[5].version, via_mux[5].seats) == (1, {0: '{"n": "ann"}'})
    assert via_mux[8] == 1


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_store_on_unreachable_redis_raises_store_unavailable() -> None:
    """Script calls to a Redis nobody listens on raise StoreUnavailable (after the
    store's few retries, quickly), never a raw_redis redis-py exception. The bound
    is twenty times the connect timeout: a call that retried without end, or waited
    for Redis to come, takes longer; a loaded machine does not."""
    store = RedisStore.from_url(
        f"redis://127.0.0.1:{_closed_port()}/0", connect_timeout_s=0.5, retries=1
    )
    try:
        calls: list[Callable[[], Awaitable[Any]]] = [
            lambda: store.create(new_match()),
            lambda: store.load("m1"),
            lambda: store.commit("m1", req(0)),
        ]
        for call in calls:
            t0 = time.monotonic()
            with pytest.raises(StoreUnavailable) as raised:
                await call()
            assert time.monotonic() - t0 < 10.0
            assert isinstance(raised.value.__cause__, rex.ConnectionError)
        assert store._muxes, "the calls went through the multiplexer"
    finally:
        await store.close()


async def test_start_commit_sends_before_it_is_awaited(
    redis_url: str, raw_redis: AsyncRedis, redis_key_prefix: str
) -> None:
    """Over a connected mux, start_commit puts the commit on the wire at once: the
    match is at version 1 in Redis before the outcome is even awaited."""
    store = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix)
    try:
        await store.create(new_match())  # connects the mux
        pending = store.start_commit("m1", req(0))
        version = await wait_for_version(raw_redis, store, "m1", 1)
        assert version == 1
        assert await pending == CommitOutcome("committed", 1)
    finally:
        await store.close()


async def wait_for_version(
    client: AsyncRedis, store: RedisStore, match_id: str, version: int
) -> int:
    """The head's version once it reaches ``version`` (a separate client polls it)."""
    head = store.keys(match_id).head
    found = 0

    async def reached() -> bool:
        nonlocal found
        found = int(await client.hget(head, "version") or 0)
        return found >= version

    await wait_until(reached)
    return found


async def test_start_commit_recovers_from_noscript_and_a_lost_connection(
    redis_url: str, raw_redis: AsyncRedis, redis_key_prefix: str
) -> None:
    """start_commit's early send falls back to the retrying path: after SCRIPT FLUSH the
    commit still goes through; on a connection killed under a sent commit, the
    outcome is the commit's (committed, or duplicate when the first send ran)."""
    store = RedisStore.from_url(redis_url, key_prefix=redis_key_prefix)
    try:
        await store.create(new_match())
        await raw_redis.script_flush()
        assert await store.start_commit("m1", req(0)) == CommitOutcome("committed", 1)

        mux = store._mux_for(store.keys("m1").head)
        assert mux is not None
        client_id = await mux.execute("CLIENT", "ID")
        pending = store.start_commit("m1", req(1))
        await raw_redis.client_kill_filter(_id=str(client_id))
        outcome = await pending
        assert outcome.version == 2 and outcome.result in ("committed", "duplicate")
        assert (await store.load("m1")).version == 2
    finally:
        await store.close()


async def test_start_commit_before_any_connection_uses_commit(
    redis_url: str, redis_key_prefix: str
) -> None:
    """A store that has not connected yet (or does not multiplex) commits through
    the ordinary path, with the same outcome."""
    for multiplex in (True, False):
        store = RedisStore.from_url(redis_url, key_prefix=f"{redis_key_prefix}{multiplex}")
        try:
            await store.create(new_match())
            store._standalone_mux = None if multiplex else store._standalone_mux
            store._multiplex = multiplex
            assert await store.start_commit("m1", req(0)) == CommitOutcome("committed", 1)
            assert await store.start_commit("m1", req(0)) == CommitOutcome("duplicate", 1)
        finally:
            await store.close()
