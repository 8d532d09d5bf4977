"""Fixtures and helpers of the end-to-end match service suite (real sockets).

* ``deployment`` runs in-process servers (``create_server`` on port 0) over one store,
  parametrized: the embedded ``MemoryStore``, or Redis (the session's private
  ``redis-server``) under a per-test key prefix. Every server it starts shares that
  store, so two of them stand for two replicas.
* :class:`Client` wraps the generated async stub and sends a seat token and/or the
  admin key as metadata; it records every message it receives (leak checks).
* :class:`ServerProcess` runs ``python -m senet.cli serve`` in a child process.
* :class:`DurableRedis` is a private ``redis-server`` with an fsynced append-only
  file, for tests that stop Redis and expect the data back.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias, TypeVar, cast

import grpc
import pytest
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from senet.client.errors import SenetRpcError
from senet.codec import codec_for, options_from_proto
from senet.games import GameState, get_game
from senet.service.grpc_errors import ERROR_DOMAIN
from senet.service.grpc_ladder import LadderServicer
from senet.service.identity import Identity
from senet.service.matches import Caller, MatchService
from senet.service.records import MatchMeta, SeatPlan
from senet.service.server import SERVICE_NAME, RunningServer, create_server
from senet.service.settings import Settings
from senet.store import MatchStore, StoredMatch
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from senet.v1 import (
    bot_service_pb2,
    bot_service_pb2_grpc,
    games_pb2,
    match_pb2,
    match_service_pb2_grpc,
)
from senet.v1 import match_service_pb2 as ms
from tests.conftest import STORE_BUDGET_S, RedisServer

REPO = Path(__file__).resolve().parents[2]
CALL_TIMEOUT_S = 15.0
Code = grpc.StatusCode
Metadata = tuple[tuple[str, str], ...]
Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)
T = TypeVar("T")
Stream: TypeAlias = grpc.aio.UnaryStreamCall[Any, Resp] | grpc.aio.StreamStreamCall[Any, Resp]


#: A guest identity, for the players, ladder and tournament tests.
GUEST_ADA = Identity("guest:ada", "ada", guest=True)


async def announce(channel: grpc.aio.Channel, bot_key: str) -> None:
    """One BotService call with ``bot_key`` that leases nothing (capacity 1, no
    wait, before any match): the server then counts the bot's worker as present,
    so ladders seat the bot (``Settings.ladder_presence_s``)."""
    stub = bot_service_pb2_grpc.BotServiceStub(channel)
    request = bot_service_pb2.AcquireBotDecisionsRequest(
        worker_id="announce", capacity=1, lease_ms=1000, wait_ms=0
    )
    await stub.AcquireBotDecisions(request, metadata=(("x-senet-bot-key", bot_key),))


def target_of(server: RunningServer) -> str:
    """The address a client of ``server`` dials."""
    return f"127.0.0.1:{server.port}"


async def refused(call: Awaitable[object], reason: str) -> SenetRpcError:
    """The client library's error for ``call``, which must be refused with ``reason``."""
    with pytest.raises(SenetRpcError) as caught:
        await call
    assert caught.value.reason == reason
    return caught.value


async def wait_until(check: Callable[[], Awaitable[bool]], within_s: float) -> None:
    """Wait on a condition (never on time alone): fail after ``within_s``."""
    deadline = time.monotonic() + within_s
    while not await check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ errors
@dataclass(frozen=True)
class Failure:
    """A failed call: status code, ErrorInfo reason (None without one) and message."""

    code: grpc.StatusCode
    reason: str | None
    message: str
    #: The ErrorInfo metadata.
    facts: dict[str, str] = field(default_factory=dict)
    #: The RetryInfo delay, when the server sent one.
    retry_after_s: float | None = None


def failure_of(error: grpc.RpcError) -> Failure:
    """Read code, message, ``google.rpc.ErrorInfo`` and ``RetryInfo`` of a failed call."""
    call = cast(grpc.Call, error)  # every failed call raises an RpcError that is a Call
    status = rpc_status.from_call(call)
    reason = None
    facts: dict[str, str] = {}
    retry_after_s = None
    if status is not None:
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            retry = error_details_pb2.RetryInfo()
            if detail.Unpack(info):
                assert info.domain == ERROR_DOMAIN, info
                reason = info.reason
                facts = dict(info.metadata)
            elif detail.Unpack(retry):
                retry_after_s = retry.retry_delay.ToNanoseconds() / 1e9
            else:
                raise AssertionError(f"unexpected error detail {detail.type_url}")
    return Failure(call.code(), reason, call.details() or "", facts, retry_after_s)


async def answer_at_random(
    call: grpc.aio.StreamStreamCall[ms.PlayMatchRequest, ms.PlayMatchResponse],
    turn: ms.YourTurn,
    rng: random.Random,
    request_id: str,
) -> None:
    """Answer a PlayMatch prompt with one of its actions, picked by ``rng``."""
    choice = rng.choice(turn.actions)
    submit = ms.SubmitActionRequest(
        notation=choice.notation, expected_version=turn.version, request_id=request_id
    )
    await call.write(ms.PlayMatchRequest(submit=submit))


async def expect_error(call: Awaitable[Any], code: grpc.StatusCode, reason: str | None) -> Failure:
    """Await ``call``, which must fail with ``code`` and ErrorInfo ``reason``."""
    try:
        result = await call
    except grpc.aio.AioRpcError as error:
        failure = failure_of(error)
    else:
        pytest.fail(f"expected {code.name}/{reason}, got {type(result).__name__}: {result}")
    assert (failure.code, failure.reason) == (code, reason), failure
    return failure


# ------------------------------------------------------------------ client
class Client:
    """The MatchService stub plus credentials, sent as metadata on every call.

    ``received`` collects every response and stream message (shared by the
    clients derived with :meth:`as_seat`), for tests that inspect all of them.
    """

    def __init__(
        self,
        channel: grpc.aio.Channel,
        token: str | None = None,
        admin_key: str | None = None,
        received: list[Message] | None = None,
    ) -> None:
        self.channel = channel
        self.stub = match_service_pb2_grpc.MatchServiceStub(channel)
        self.token = token
        self.admin_key = admin_key
        self.received: list[Message] = [] if received is None else received

    def as_seat(self, token: str | None) -> Client:
        """A client on the same channel holding ``token`` (None: a spectator)."""
        return Client(self.channel, token, self.admin_key, self.received)

    @property
    def metadata(self) -> Metadata:
        md: list[tuple[str, str]] = []
        if self.token is not None:
            md.append(("authorization", f"Bearer {self.token}"))
        if self.admin_key is not None:
            md.append(("x-senet-admin-key", self.admin_key))
        return tuple(md)

    async def _call(
        self, method: grpc.aio.UnaryUnaryMultiCallable[Req, Resp], request: Req
    ) -> Resp:
        response = await method(request, metadata=self.metadata, timeout=CALL_TIMEOUT_S)
        self.received.append(response)
        return response

    async def list_games(self) -> ms.ListGamesResponse:
        return await self._call(self.stub.ListGames, ms.ListGamesRequest())

    async def create(
        self,
        seats: int | Sequence[match_pb2.SeatPlan] = 3,
        *,
        seed: int | None = None,
        game_id: str = "mykerinos",
        options: Mapping[str, games_pb2.OptionValue] | None = None,
    ) -> ms.CreateMatchResponse:
        plans = [match_pb2.SeatPlan()] * seats if isinstance(seats, int) else list(seats)
        request = ms.CreateMatchRequest(game_id=game_id, seats=plans, options=options)
        if seed is not None:
            request.seed = seed
        return await self._call(self.stub.CreateMatch, request)

    async def join(
        self, match_id: str, seat: int | None = None, name: str = "player"
    ) -> ms.JoinMatchResponse:
        request = ms.JoinMatchRequest(match_id=match_id, display_name=name)
        if seat is not None:
            request.seat = seat
        return await self._call(self.stub.JoinMatch, request)

    async def get(self, match_id: str) -> ms.GetMatchResponse:
        return await self._call(self.stub.GetMatch, ms.GetMatchRequest(match_id=match_id))

    async def legal(self, match_id: str) -> ms.ListLegalActionsResponse:
        request = ms.ListLegalActionsRequest(match_id=match_id)
        return await self._call(self.stub.ListLegalActions, request)

    async def submit(
        self,
        match_id: str,
        notation: str | None = None,
        *,
        typed: match_pb2.Action | None = None,
        expected_version: int | None = None,
        request_id: str | None = None,
    ) -> ms.SubmitActionResponse:
        request = submit_request(match_id, notation, typed, expected_version, request_id)
        return await self._call(self.stub.SubmitAction, request)

    async def export(self, match_id: str) -> ms.ExportMatchResponse:
        return await self._call(self.stub.ExportMatch, ms.ExportMatchRequest(match_id=match_id))

    def watch(
        self, match_id: str, from_version: int | None = None
    ) -> grpc.aio.UnaryStreamCall[ms.WatchMatchRequest, ms.WatchMatchResponse]:
        request = ms.WatchMatchRequest(match_id=match_id)
        if from_version is not None:
            request.from_version = from_version
        return self.stub.WatchMatch(request, metadata=self.metadata)

    def play(self) -> grpc.aio.StreamStreamCall[ms.PlayMatchRequest, ms.PlayMatchResponse]:
        # No request iterator: the caller writes with call.write().
        return self.stub.PlayMatch(metadata=self.metadata)  # type: ignore[call-arg]

    async def read(
        self,
        call: Stream[Resp],
        timeout: float = CALL_TIMEOUT_S,
    ) -> Resp | None:
        """The next message of a stream (recorded), or None when it ended."""
        message = await asyncio.wait_for(call.read(), timeout)
        if not isinstance(message, Message):
            return None
        self.received.append(message)
        return message  # type: ignore[return-value]


def submit_request(
    match_id: str,
    notation: str | None = None,
    typed: match_pb2.Action | None = None,
    expected_version: int | None = None,
    request_id: str | None = None,
) -> ms.SubmitActionRequest:
    """A SubmitAction request; a fresh request id unless one is given."""
    request = ms.SubmitActionRequest(match_id=match_id, request_id=request_id or uuid.uuid4().hex)
    if notation is not None:
        request.notation = notation
    if typed is not None:
        request.typed.CopyFrom(typed)
    if expected_version is not None:
        request.expected_version = expected_version
    return request


def current_seat(
    message: match_pb2.MatchSummary | match_pb2.MatchUpdate | ms.SubmitActionResponse,
) -> int | None:
    """The seat that must decide next, None when the match is over."""
    return message.current_seat if message.HasField("current_seat") else None


# ----------------------------------------------------------------- matches
_SEEDS = random.Random(20240611)  # reproducible matches for a given selection of tests


@dataclass
class Seated:
    """A match whose every seat is claimed: one client per seat, and a spectator."""

    match_id: str
    seed: int
    commitment: str
    tokens: list[str]
    seats: list[Client]
    spectator: Client


async def seated_match(
    client: Client,
    seats: int = 3,
    seed: int | None = None,
    options: Mapping[str, games_pb2.OptionValue] | None = None,
    game_id: str = "mykerinos",
) -> Seated:
    """Create a match of open seats and claim every seat through ``client``'s channel."""
    seed = _SEEDS.getrandbits(63) if seed is None else seed
    created = await client.create(seats, seed=seed, options=options, game_id=game_id)
    tokens = []
    for seat in range(seats):
        joined = await client.join(created.match_id, seat, f"player {seat}")
        assert joined.seat == seat
        tokens.append(joined.token)
    return Seated(
        created.match_id,
        seed,
        created.match.seed_commitment,
        tokens,
        [client.as_seat(t) for t in tokens],
        client.as_seat(None),
    )


async def mover_of(match: Seated) -> tuple[int, Client]:
    """The seat that must decide first in ``match``, and its client."""
    mover = current_seat((await match.spectator.get(match.match_id)).match)
    assert mover is not None
    return mover, match.seats[mover]


async def service_match(
    service: MatchService, seats: int, seed: int, game_id: str = "mykerinos", **create: Any
) -> tuple[str, list[Caller]]:
    """A match of open seats created on ``service`` (no gRPC), every seat joined;
    its id and each seat's caller. ``create``: more of create_match's arguments
    (a time control, a leave policy)."""
    snapshot = await service.create_match(
        Caller(is_admin=True), game_id, {}, [SeatPlan()] * seats, seed, **create
    )
    match_id = snapshot.summary.match_id
    callers = []
    for seat in range(seats):
        _seat, token, _summary = await service.join(Caller(), match_id, seat, f"p{seat}")
        callers.append(Caller(token=token))
    return match_id, callers


async def head_state(service: MatchService, match_id: str) -> tuple[StoredMatch, GameState]:
    """The stored match and its state, read from the store (not the cache)."""
    stored = await service.store.load(match_id)
    return stored, service.state_of(MatchMeta.from_json(stored.meta_json), stored)


def on(client: Client, match: Seated) -> Seated:
    """The same match seen through another client's channel (another replica)."""
    return Seated(
        match.match_id,
        match.seed,
        match.commitment,
        match.tokens,
        [client.as_seat(t) for t in match.tokens],
        client.as_seat(None),
    )


@dataclass
class Played:
    """What :func:`play_random` did: the responses by version and who acted."""

    responses: dict[int, ms.SubmitActionResponse] = field(default_factory=dict)
    notations: dict[int, tuple[int, str]] = field(default_factory=dict)

    @property
    def version(self) -> int:
        return max(self.responses, default=0)


async def _paced(call: Callable[[], Awaitable[T]]) -> T:
    """``call()``, again after a pause while the seat's rate limit refuses it
    (a seat making many moves in a row, at full speed, can reach it; retrying a
    submission is safe with its request id)."""
    for _ in range(200):
        try:
            return await call()
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                raise
            await asyncio.sleep(0.05)
    return await call()


async def play_random(
    replicas: Sequence[Seated],
    rng: random.Random,
    *,
    count: int | None = None,
    typed_every: int = 0,
    played: Played | None = None,
) -> Played:
    """Random legal actions until the match ends (or ``count`` actions).

    The action made at version ``v`` goes through ``replicas[v % len(replicas)]``
    (the same match seen through different servers); every ``typed_every``-th
    action is sent typed, the others as notation.
    """
    played = Played() if played is None else played
    match = replicas[0]
    summary = (await match.spectator.get(match.match_id)).match
    seat, version = current_seat(summary), summary.version
    done = 0
    while seat is not None and (count is None or done < count):
        via = replicas[version % len(replicas)].seats[seat]
        legal = await _paced(functools.partial(via.legal, match.match_id))
        assert (legal.version, legal.seat) == (version, seat)
        choice = rng.choice(legal.actions)
        typed = typed_every > 0 and version % typed_every == 0
        submit = functools.partial(
            via.submit,
            match.match_id,
            None if typed else choice.notation,
            typed=choice.action if typed else None,
            expected_version=version,
            request_id=f"play-{version}",
        )
        response = await _paced(submit)
        assert response.version == version + 1 and not response.duplicate
        version = response.version
        played.responses[version] = response
        played.notations[version] = (seat, choice.notation)
        seat = current_seat(response)
        done += 1
    return played


def dealt_seed(export: ms.ExportMatchResponse) -> int:
    """The seed an export says the match was dealt with, worked out from its
    parts: the chosen seed itself, else the server's seed combined with every
    seat's entropy."""
    if export.seed_chosen:
        return export.seed
    assert len(export.seat_entropy) == export.seat_count
    text = ":".join([str(export.seed), *export.seat_entropy])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def replay_export(export: ms.ExportMatchResponse) -> GameState:
    """Replay an export with the rules core alone, from the seed it was dealt
    with, checked as a third party would (docs/protocol.md, fairness)."""
    game = get_game(export.game_id)
    assert export.dealt_seed == dealt_seed(export)
    here = game.info.rules_version
    assert export.rules_version == here
    assert all(logged.rules_version == here for logged in export.actions)
    state = game.new_match(export.seat_count, options_from_proto(export.options), export.dealt_seed)
    for logged in export.actions:
        state.apply(logged.seat, logged.notation)
    return state


def check_export(
    export: ms.ExportMatchResponse, final: ms.GetMatchResponse, commitment: str
) -> GameState:
    """The export opens the published commitment and replays to the final match."""
    opened = hashlib.sha256(f"{export.seed_salt}:{export.seed}".encode()).hexdigest()
    assert opened == export.seed_commitment == commitment == final.match.seed_commitment
    assert [a.version for a in export.actions] == list(range(1, final.match.version + 1))
    state = replay_export(export)
    assert state.is_over()
    assert list(export.scores) == state.scores() == list(final.match.scores)
    assert list(export.places) == state.ranking() == list(final.match.places)
    assert codec_for(export.game_id).view_to_proto(state.view(None)) == final.view
    # Who played each seat, as the match's end shows it.
    assert list(export.seats) == list(final.match.seats)
    return state


# ------------------------------------------------------------------ health
async def health(channel: grpc.aio.Channel, service: str = "") -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    reply = await stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
    return int(reply.status)


async def wait_for_health(channel: grpc.aio.Channel, wanted: int, within_s: float = 5.0) -> float:
    """Poll the health service (overall and MatchService) until both report ``wanted``."""
    started = time.monotonic()
    while True:
        now = [await health(channel), await health(channel, SERVICE_NAME)]
        if now == [wanted, wanted]:
            return time.monotonic() - started
        if time.monotonic() - started > within_s:
            pytest.fail(f"health stayed {now}, wanted {wanted} within {within_s}s")
        await asyncio.sleep(0.05)


# ------------------------------------------------------------- deployments
#: The bot-worker key of every server a Deployment starts (unless a test sets another).
WORKER_KEY = "test-worker-key"


class Deployment:
    """In-process servers over one store; everything is stopped at teardown."""

    def __init__(self, kind: str, redis_url: str = "", key_prefix: str = "senet") -> None:
        self.kind = kind
        self.redis_url = redis_url
        self.key_prefix = key_prefix
        self._memory = MemoryStore() if kind == "memory" else None
        self._servers: list[RunningServer] = []
        self._channels: list[grpc.aio.Channel] = []

    def store(self) -> MatchStore:
        """A store over this deployment's data (a new Redis client, or the shared dict)."""
        if self._memory is not None:
            return self._memory
        return RedisStore.from_url(
            self.redis_url, key_prefix=self.key_prefix, socket_timeout_s=STORE_BUDGET_S
        )

    async def start(self, health_interval_s: float = 0.2, **settings: Any) -> RunningServer:
        settings.setdefault("worker_key", WORKER_KEY)
        config = Settings(port=0, log_json=False, key_prefix=self.key_prefix, **settings)
        server = await create_server(config, self.store(), health_interval_s=health_interval_s)
        self._servers.append(server)
        return server

    async def start_ladder(self, **settings: Any) -> tuple[RunningServer, LadderServicer]:
        """A server whose ladder scheduler looks for work every 20 ms (a match the
        tests start is scheduled at once), with its ladder service."""
        settings.setdefault("ladder_interval_s", 0.02)
        server = await self.start(**settings)
        assert server.ladder_servicer is not None
        return server, server.ladder_servicer

    def channel(self, server: RunningServer) -> grpc.aio.Channel:
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
        self._channels.append(channel)
        return channel

    def client(
        self, server: RunningServer, token: str | None = None, admin_key: str | None = None
    ) -> Client:
        return Client(self.channel(server), token, admin_key)

    async def close(self) -> None:
        for channel in self._channels:
            await channel.close(None)
        for server in self._servers:
            await asyncio.wait_for(server.stop(), 10)  # again after drain(): a no-op


@pytest.fixture(params=["memory", "redis"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def deployment(store_kind: str, request: pytest.FixtureRequest) -> AsyncIterator[Deployment]:
    if store_kind in ("redis", "redis-cluster"):
        url = request.getfixturevalue("redis_url" if store_kind == "redis" else "redis_cluster_url")
        prefix = request.getfixturevalue("redis_key_prefix")
        running = Deployment("redis", url, prefix)
    else:
        running = Deployment("memory")
    try:
        yield running
    finally:
        await running.close()


@pytest.fixture
async def server(deployment: Deployment) -> RunningServer:
    return await deployment.start()


@pytest.fixture
def client(deployment: Deployment, server: RunningServer) -> Client:
    return deployment.client(server)


# --------------------------------------------------------- server processes
class ServerProcess:
    """``python -m senet.cli serve`` on a free port, over Redis."""

    def __init__(self, redis_url: str, key_prefix: str, log_path: Path) -> None:
        self.redis_url = redis_url
        self.key_prefix = key_prefix
        self.log_path = log_path
        self.port = 0
        self._proc: asyncio.subprocess.Process | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> None:
        for _attempt in range(3):  # the free port may be taken before the server binds it
            self.port = free_port()
            with self.log_path.open("ab") as log:
                self._proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "senet.cli", "serve",
                    "--host", "127.0.0.1", "--port", str(self.port),
                    "--redis-url", self.redis_url, "--key-prefix", self.key_prefix,
                    "--no-log-json", "--log-level", "WARNING",
                    "--heartbeat-s", "1", "--drain-grace-s", "0.5",
                    "--worker-key", WORKER_KEY,
                    cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
                )  # fmt: skip
            assert self._proc.stdout is not None
            line = await asyncio.wait_for(self._proc.stdout.readline(), 60)
            if line.startswith(f"Senet is serving on {self.address}".encode()):
                return
            await self.stop()
        pytest.fail(f"senet serve did not start:\n{self.log_path.read_text(errors='replace')}")

    async def kill(self) -> None:
        """SIGKILL: the replica dies mid-work, releasing nothing."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.returncode is None:
            proc.kill()
            await proc.wait()

    async def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.returncode is not None:
            return
        proc.terminate()  # SIGTERM: drain, then exit
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
            await proc.wait()


@pytest.fixture
async def server_processes(
    redis_url: str, redis_key_prefix: str, tmp_path: Path
) -> AsyncIterator[list[ServerProcess]]:
    """Two ``senet serve`` processes sharing the test Redis under one key prefix."""
    procs = [
        ServerProcess(redis_url, redis_key_prefix, tmp_path / f"replica-{i}.log") for i in (0, 1)
    ]
    try:
        await asyncio.gather(*(p.start() for p in procs))
        yield procs
    finally:
        await asyncio.gather(*(p.stop() for p in procs))


@pytest.fixture
async def process_clients(
    server_processes: list[ServerProcess],
) -> AsyncIterator[list[Client]]:
    """One client per server process."""
    channels = [grpc.aio.insecure_channel(p.address) for p in server_processes]
    try:
        yield [Client(c) for c in channels]
    finally:
        for channel in channels:
            await channel.close(None)


# ----------------------------------------------------------- durable redis
class DurableRedis(RedisServer):
    """A private ``redis-server`` that keeps its data across :meth:`stop`/:meth:`start`.

    Every write is appended to an AOF and fsynced before Redis replies
    (``appendfsync always``), so even a SIGKILL loses nothing acknowledged.
    """

    persistence = ("--appendonly", "yes", "--appendfsync", "always")


@pytest.fixture
def durable_redis(tmp_path: Path) -> Iterator[DurableRedis]:
    executable = os.environ.get("SENET_REDIS_SERVER") or shutil.which("redis-server")
    if executable is None:
        pytest.skip("redis-server is not installed (install it, or set SENET_REDIS_SERVER)")
    for attempt in range(3):  # the free port may be taken before redis binds it
        server = DurableRedis(executable, tmp_path)
        try:
            server.start()
            break
        except RuntimeError:
            if attempt == 2:
                raise
    try:
        yield server
    finally:
        server.stop()


def messages_in(message: Message) -> Iterator[Message]:
    """``message`` and every message nested in it."""
    yield message
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            continue
        if isinstance(value, Message):
            yield from messages_in(value)
            continue
        items = value.values() if hasattr(value, "values") else value
        for item in items:
            if isinstance(item, Message):
                yield from messages_in(item)
