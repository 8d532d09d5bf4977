"""Service benchmark: SubmitAction and WatchMatch through real replicas and Redis.

Set-up: a private ``redis-server`` on a free loopback port (no persistence, never
the machine's own Redis); two Senet replicas, A and B, each its own
``python -m senet.cli serve`` process on that Redis; and the baseline, a bare
gRPC echo server (:mod:`tests.bench.echo_server`) run the same way (own process,
``asyncio.run`` of a ``grpc.aio`` server with the same options). This process is
only the load generator, so it shares no GIL with any server.

Matches are four-player Mykerinos created with a known seed. Their random legal
actions are computed beforehand by replaying the seed with the rules core, so
the timed sections contain nothing but the RPCs: every submission is the
notation of the next action with ``expected_version`` and a request id, sent
with the acting seat's token.

Figures (machine-readable lines, in this order):

``service.submit_p50_vs_limit``
    Median SubmitAction latency on replica A (one client, sequential) divided by
    median bare echo round trip + median ``EVALSHA`` of ``return 1``, sent the
    way the server sends its scripts (a :class:`~senet.store.redis_mux.MuxConnection`).
    The three are interleaved in rounds. The same call through redis-py's own
    client is printed beside it, for reference only.
``service.lean_submit_p50_vs_limit``
    The same for the lean MatchService (:mod:`tests.bench.lean_server`), run
    as its own process on the same Redis: the contract's work alone, a bound
    on what the first figure can reach. No target.
``service.throughput_vs_echo``
    Actions per second on replica A with ``concurrency`` (32) submitters in
    flight, each on its own match, divided by echo calls per second with as many
    in flight; both through one channel, windows alternating in rounds.
``service.watch_p99_ms``
    ``watch_matches`` (100) matches, each watched by one WatchMatch stream per
    seat (4) on replica B, while replica A takes the submissions: commits are
    paced at ``watch_rate`` (100) per second round-robin over the matches (one
    action per match per second: open loop, as players act on their own clock).
    For every commit, the time from just before the client sends SubmitAction to
    the moment its last watcher has received the update; the 99th percentile, in
    ms. An update some watcher never receives (its stream failed, or nothing came
    within ``WATCH_GRACE_S`` of the last commit) counts as ``WATCH_GRACE_S``.
``service.play_vs_unary_cpu``
    Replica A's CPU time per committed action (read from ``/proc`` around each
    window) when ``concurrency`` matches are played through PlayMatch, one compact
    stream per seat answering its prompts as the client library's bots do, divided by
    the same with SubmitAction alone (the throughput windows above); windows
    alternate in rounds.
``service.clock_late_p99_ms``
    Lateness of enforced turn-clock timeouts, deadline to the fallback action's
    commit, over ``clock_matches`` (1,000) clocked matches timing out across
    both replicas (see :mod:`tests.bench.clocks`).

Everything the benchmark starts runs in its own process group and is stopped
on the way out, errors included.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc
import redis
from redis.asyncio import Redis as AsyncRedis
from redis.asyncio.connection import Connection

from senet.client.turns import prompt_of
from senet.games import Game, Rng, get_game
from senet.store.redis_mux import MuxConnection
from senet.v1 import match_pb2, match_service_pb2, match_service_pb2_grpc
from tests.bench import clocks, echo_server

if TYPE_CHECKING:  # a typing-only class of the generated stubs
    from senet.v1.match_service_pb2_grpc import MatchServiceAsyncStub as Stub

ROOT = Path(__file__).resolve().parents[2]
GAME_ID = "mykerinos"
SEATS = 4
BASE_SEED = 20240601
CHOOSER_SALT = 0x5EED
START_TIMEOUT_S = 30.0
# After the last watched commit, how long deliveries may still arrive.
WATCH_GRACE_S = 3.0
SETUP_PARALLELISM = 8
# A throughput window runs on past its length until it holds this many actions
# (so a rate or a CPU time per action always has something to divide by), but
# never longer than MAX_WINDOW_S.
MIN_WINDOW_CALLS = 20
MAX_WINDOW_S = 60.0

Metadata = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Budget:
    """How long to measure.

    Attributes:
        rounds: Interleaved rounds of the latency and throughput workloads.
        latency_calls: Sequential calls per latency workload per round.
        throughput_s: Length of each throughput window (one per workload per round).
        concurrency: Requests in flight in the throughput windows.
        watch_matches: Matches watched in the fan-out test.
        watch_s: How long commits are submitted in the fan-out test.
        watch_rate: Commits per second in the fan-out test (all matches together).
        warmup_calls: Unmeasured calls per latency workload before the first round.
        clock_matches: Clocked matches timing out in the turn-clock test.
        clock_decision_ms: Their limit per decision.
    """

    rounds: int
    latency_calls: int
    throughput_s: float
    concurrency: int = 32
    watch_matches: int = 100
    watch_s: float = 15.0
    watch_rate: float = 100.0
    warmup_calls: int = 50
    clock_matches: int = 1000
    clock_decision_ms: int = 3000

    def __post_init__(self) -> None:
        if (
            self.rounds < 1
            or self.latency_calls < 1
            or self.throughput_s <= 0
            or self.concurrency < 1
            or self.watch_matches < 1
            or self.watch_s <= 0
            or self.watch_rate <= 0
            or self.warmup_calls < 0
        ):
            raise ValueError(f"invalid budget: {self}")


# About 5 x (1.5 s latency + 2 x 2.5 s throughput) + 5 s set-up + 15 s watching = 55 s.
DEFAULT_BUDGET = Budget(rounds=5, latency_calls=400, throughput_s=2.5)
# About 10 s.
QUICK_BUDGET = Budget(
    rounds=2, latency_calls=120, throughput_s=0.6, watch_s=2.5, warmup_calls=20,
    clock_matches=200, clock_decision_ms=1500,
)  # fmt: skip
# A few actions of everything: for the smoke test.
SMOKE_BUDGET = Budget(
    rounds=1, latency_calls=5, throughput_s=0.2, concurrency=4, watch_matches=3,
    watch_s=0.3, watch_rate=30.0, warmup_calls=2, clock_matches=4, clock_decision_ms=300,
)  # fmt: skip


# ------------------------------------------------------------------ processes
def redis_executable() -> str | None:
    """``redis-server`` from ``SENET_REDIS_SERVER`` or ``PATH``; None when missing."""
    return os.environ.get("SENET_REDIS_SERVER") or shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Child:
    """A child process in its own process group, with its output in files."""

    def __init__(self, name: str, argv: Sequence[str], workdir: Path) -> None:
        self.name = name
        self.stdout_path = workdir / f"{name}.out"
        self.stderr_path = workdir / f"{name}.err"
        with self.stdout_path.open("wb") as stdout, self.stderr_path.open("wb") as stderr:
            self.proc = subprocess.Popen(
                list(argv),
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,
            )

    def wait_for_line(self, pattern: re.Pattern[str], timeout_s: float) -> re.Match[str]:
        """Wait until the child prints a line matching ``pattern`` on stdout."""
        deadline = time.monotonic() + timeout_s
        while True:
            text = self.stdout_path.read_text(errors="replace")
            found = pattern.search(text)
            if found:
                return found
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start-up:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not start in {timeout_s:g} s:\n{self.tail()}")
            time.sleep(0.02)

    def tail(self, lines: int = 20) -> str:
        parts = []
        for path in (self.stdout_path, self.stderr_path):
            with contextlib.suppress(OSError):
                parts.extend(path.read_text(errors="replace").splitlines()[-lines:])
        return "\n".join(parts) or "(no output)"

    def stop(self) -> None:
        """SIGTERM the process group, then SIGKILL it if it lingers."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=3)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=3)


_SERVING = re.compile(r"is serving on (\S+?):(\d+)\b")


@dataclass
class Cluster:
    """Redis, the two Senet replicas and the echo server, all started."""

    redis_url: str
    replica_a: str
    replica_b: str
    echo: str
    #: The lean MatchService (tests.bench.lean_server) committing on the same Redis.
    lean: str
    #: Replica A's process id: its CPU time is read from /proc around each window.
    replica_a_pid: int = 0


@contextlib.contextmanager
def cluster(redis_server: str) -> Iterator[Cluster]:
    """Start everything; stop every process on the way out, even on errors."""
    children: list[Child] = []
    with tempfile.TemporaryDirectory(prefix="senet-bench-") as tmp:
        workdir = Path(tmp)
        try:
            redis_child, port = start_redis(redis_server, workdir)
            children.append(redis_child)
            redis_url = f"redis://127.0.0.1:{port}/0"
            serve = [sys.executable, "-m", "senet.cli", "serve", "--host", "127.0.0.1"]
            serve += ["--port", "0", "--redis-url", redis_url, "--key-prefix", "bench"]
            serve += ["--log-level", "WARNING", "--no-log-json", "--embedded-bot-workers", "0"]
            # Every load comes from this one host: per-client quotas off (they would
            # measure themselves, not the server).
            serve += ["--client-creates-per-min", "0", "--client-calls-per-s", "0"]
            serve += ["--client-streams", "0"]
            replicas = [Child(name, serve, workdir) for name in ("replica-a", "replica-b")]
            children.extend(replicas)
            echo = Child("echo", [sys.executable, "-m", "tests.bench.echo_server"], workdir)
            children.append(echo)
            lean_command = [sys.executable, "-m", "tests.bench.lean_server"]
            lean = Child("lean", [*lean_command, "--redis-url", redis_url], workdir)
            children.append(lean)
            addresses = [
                "{}:{}".format(*child.wait_for_line(_SERVING, START_TIMEOUT_S).groups())
                for child in (*replicas, echo, lean)
            ]
            a, b, echo_address, lean_address = addresses
            yield Cluster(redis_url, a, b, echo_address, lean_address, replicas[0].proc.pid)
        finally:
            for child in reversed(children):
                child.stop()


def start_redis(redis_server: str, workdir: Path) -> tuple[Child, int]:
    """A private, persistence-free redis-server on a free loopback port, answering."""
    port = _free_port()
    child = Child(
        "redis",
        [
            redis_server, "--port", str(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(workdir), "--daemonize", "no",
        ],
        workdir,
    )  # fmt: skip
    try:
        _wait_for_redis(child, port)
    except BaseException:
        child.stop()
        raise
    return child, port


def _wait_for_redis(child: Child, port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        if child.proc.poll() is not None:
            raise RuntimeError(f"redis-server exited at start-up:\n{child.tail()}")
        try:
            with redis.Redis(port=port, socket_timeout=0.5) as client:
                if client.ping():
                    return
        except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"redis-server did not answer:\n{child.tail()}")
        time.sleep(0.02)


# -------------------------------------------------------------------- matches
def random_plan(seed: int, game: Game | None = None) -> list[tuple[int, str]]:
    """(seat, notation) of every action of a random full match of ``game``
    (default: Mykerinos) from ``seed``."""
    state = (game or get_game(GAME_ID)).new_match(SEATS, seed=seed)
    chooser = Rng(seed ^ CHOOSER_SALT)
    plan: list[tuple[int, str]] = []
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None
        action = chooser.choice(state.legal_actions())
        plan.append((seat, action.notation()))
        state.apply_unchecked(action)
    return plan


@dataclass
class Match:
    """A match with every seat claimed and its actions planned in advance."""

    match_id: str
    tokens: list[Metadata]
    plan: list[tuple[int, str]]
    version: int = 0

    @property
    def finished(self) -> bool:
        return self.version >= len(self.plan)

    def next_request(self) -> tuple[match_service_pb2.SubmitActionRequest, Metadata]:
        seat, notation = self.plan[self.version]
        request = match_service_pb2.SubmitActionRequest(
            match_id=self.match_id,
            notation=notation,
            expected_version=self.version,
            request_id=f"bench-{self.version + 1}",
        )
        return request, self.tokens[seat]

    def committed(self, response: match_service_pb2.SubmitActionResponse) -> None:
        if response.version != self.version + 1:
            raise RuntimeError(
                f"match {self.match_id}: expected version {self.version + 1}, "
                f"got {response.version}"
            )
        self.version += 1


async def create_match(stub: Stub, seed: int, game: Game | None = None) -> Match:
    """Create a 4-seat match of ``game`` (default: Mykerinos) with ``seed`` and
    claim every seat."""
    game = game or get_game(GAME_ID)
    created = await stub.CreateMatch(
        match_service_pb2.CreateMatchRequest(
            game_id=game.info.id,
            seats=[match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN)] * SEATS,
            seed=seed,
        )
    )
    tokens: list[Metadata] = []
    for seat in range(SEATS):
        joined = await stub.JoinMatch(
            match_service_pb2.JoinMatchRequest(
                match_id=created.match_id, seat=seat, display_name=f"bench {seat}"
            )
        )
        tokens.append((("authorization", f"Bearer {joined.token}"),))
    return Match(created.match_id, tokens, random_plan(seed, game))


async def submit(stub: Stub, match: Match) -> None:
    request, metadata = match.next_request()
    match.committed(await stub.SubmitAction(request, metadata=metadata))


class MatchPool:
    """Matches of ``game`` (default: Mykerinos) ready to be played, created on
    demand with consecutive seeds."""

    def __init__(self, stub: Stub, game: Game | None = None) -> None:
        self.stub = stub
        self.game = game
        self.ready: deque[Match] = deque()
        self._seeds = iter(range(BASE_SEED, BASE_SEED + (1 << 40)))
        self.created_inline = 0
        self.created_in_windows = 0  # of those, inside throughput windows

    async def fill(self, count: int, actions: int = 0) -> None:
        """Create matches until ``count`` are ready and they hold ``actions`` actions
        still to play between them (outside any timed section): matches given back
        half played count for what they have left."""
        missing = count - len(self.ready)
        left = sum(len(m.plan) - m.version for m in self.ready)
        per_match = statistics.mean(len(m.plan) for m in self.ready) if self.ready else 80.0
        missing = max(missing, math.ceil((actions - left) / per_match))
        if missing <= 0:
            return
        gate = asyncio.Semaphore(SETUP_PARALLELISM)

        async def one(seed: int) -> Match:
            async with gate:
                return await create_match(self.stub, seed, self.game)

        self.ready.extend(await asyncio.gather(*(one(next(self._seeds)) for _ in range(missing))))

    async def take(self) -> Match:
        if self.ready:
            return self.ready.popleft()
        self.created_inline += 1
        return await create_match(self.stub, next(self._seeds), self.game)

    def give_back(self, match: Match) -> None:
        if not match.finished:
            self.ready.append(match)


# ------------------------------------------------------------------ workloads
@dataclass
class Window:
    """One throughput window: calls completed and how long it took."""

    calls: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds > 0 else float("inf")


Call = Callable[[], Awaitable[object]]  # makes one call


async def time_calls(call: Call, count: int) -> list[float]:
    """Latencies (s) of ``count`` sequential calls."""
    samples: list[float] = []
    clock = time.perf_counter
    for _ in range(count):
        start = clock()
        await call()
        samples.append(clock() - start)
    return samples


async def submit_latencies(pool: MatchPool, count: int) -> list[float]:
    """Latencies (s) of ``count`` sequential SubmitAction calls; only the call is timed."""
    samples: list[float] = []
    clock = time.perf_counter
    match = await pool.take()
    while len(samples) < count:
        if match.finished:
            match = await pool.take()
        request, metadata = match.next_request()
        start = clock()
        response = await pool.stub.SubmitAction(request, metadata=metadata)
        samples.append(clock() - start)
        match.committed(response)
    pool.give_back(match)
    return samples


async def echo_window(call: Call, concurrency: int, seconds: float) -> Window:
    """Echo calls completed by ``concurrency`` closed loops in ``seconds``."""
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds

    async def loop() -> int:
        done = 0
        while clock() < deadline:
            await call()
            done += 1
        return done

    counts = await asyncio.gather(*(loop() for _ in range(concurrency)))
    return Window(sum(counts), clock() - start)


async def submit_match(stub: Stub, match: Match, deadline: float) -> int:
    """Play ``match`` with SubmitAction calls until it ends or ``deadline``; the
    actions committed."""
    done = 0
    while not match.finished and time.perf_counter() < deadline:
        await submit(stub, match)
        done += 1
    return done


#: Plays one match until it ends or the deadline; returns the actions committed.
MatchPlayer = Callable[["Stub", Match, float], Awaitable[int]]


async def match_window(
    pool: MatchPool, concurrency: int, seconds: float, play: MatchPlayer
) -> Window:
    """Actions committed by ``concurrency`` loops, each playing its own match with
    ``play``, in ``seconds``."""
    clock = time.perf_counter
    created_before = pool.created_inline
    start = clock()
    deadline = start + seconds
    give_up = start + MAX_WINDOW_S
    total = 0

    async def loop() -> None:
        nonlocal total
        # On a loaded machine a short window may close before a stream's first
        # prompt: it then runs on, window after window, until it holds enough
        # actions to divide by.
        while clock() < deadline or (total < MIN_WINDOW_CALLS and clock() < give_up):
            match = await pool.take()
            now = clock()
            done = await play(pool.stub, match, deadline if now < deadline else now + seconds)
            total += done  # after the await: the loops add to it concurrently
            pool.give_back(match)

    await asyncio.gather(*(loop() for _ in range(concurrency)))
    pool.created_in_windows += pool.created_inline - created_before
    if total == 0:
        raise RuntimeError(f"no action was committed in {MAX_WINDOW_S:.0f} s")
    return Window(total, clock() - start)


async def submit_window(pool: MatchPool, concurrency: int, seconds: float) -> Window:
    """Actions committed by ``concurrency`` loops, each on its own match, in ``seconds``."""
    return await match_window(pool, concurrency, seconds, submit_match)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process ``pid`` has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class CpuWindow:
    """A throughput window with the server CPU time it took."""

    window: Window
    cpu_s: float

    @property
    def cpu_per_call(self) -> float:
        return self.cpu_s / self.window.calls if self.window.calls else float("inf")


async def with_cpu(pid: int, work: Awaitable[Window]) -> CpuWindow:
    """``work``'s window and the CPU time process ``pid`` spent meanwhile."""
    before = cpu_seconds(pid)
    window = await work
    return CpuWindow(window, cpu_seconds(pid) - before)


async def play_match(stub: Stub, match: Match, deadline: float) -> int:
    """Play ``match`` on PlayMatch streams, one per seat, until it ends or
    ``deadline``: each prompt is answered on its stream with the planned action.
    Returns the actions committed.

    No stream stops while a submission is unanswered: a move committed after its
    streams were cancelled would leave the match a version ahead of ``match``
    (and a finished match looking unfinished to the next workload)."""
    clock = time.perf_counter
    committed = 0
    unanswered: set[int] = set()  # versions submitted, their updates not yet seen

    def over() -> bool:
        return (match.finished or clock() >= deadline) and not unanswered

    async def seat_stream(seat: int) -> None:
        nonlocal committed
        outbox: asyncio.Queue[match_service_pb2.PlayMatchRequest | None] = asyncio.Queue()
        hello = match_service_pb2.PlayHello(match_id=match.match_id, compact=True)
        outbox.put_nowait(match_service_pb2.PlayMatchRequest(hello=hello))

        async def requests() -> AsyncIterator[match_service_pb2.PlayMatchRequest]:
            while (item := await outbox.get()) is not None:
                yield item

        call = stub.PlayMatch(requests(), metadata=match.tokens[seat])
        try:
            async for message in call:
                kind = message.WhichOneof("message")
                if kind == "update":
                    match.version = max(match.version, message.update.version)
                    unanswered.discard(message.update.version - 1)
                    if message.request_id:  # the reply to this seat's submission
                        committed += 1
                elif kind == "error":
                    raise RuntimeError(f"PlayMatch refused a planned action: {message.error}")
                turn = prompt_of(message)
                if turn is not None and not match.finished and clock() < deadline:
                    version = turn.version
                    unanswered.add(version)
                    _seat, notation = match.plan[version]
                    submit = match_service_pb2.SubmitActionRequest(
                        match_id=match.match_id, notation=notation,
                        expected_version=version, request_id=f"bench-{version + 1}",
                    )  # fmt: skip
                    outbox.put_nowait(match_service_pb2.PlayMatchRequest(submit=submit))
                if over():
                    return
        finally:
            outbox.put_nowait(None)
            call.cancel()

    streams = [asyncio.create_task(seat_stream(seat)) for seat in range(SEATS)]
    try:
        # The first stream to end (the match is over, or time is up) ends them all.
        finished, _pending = await asyncio.wait(streams, return_when=asyncio.FIRST_COMPLETED)
        for task in finished:
            task.result()
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return committed


async def play_window(pool: MatchPool, concurrency: int, seconds: float) -> Window:
    """Actions committed through PlayMatch by ``concurrency`` matches in flight, each
    with one stream per seat (as bots and the text client play), in ``seconds``."""
    return await match_window(pool, concurrency, seconds, play_match)


# ------------------------------------------------------------------ watching
@dataclass
class WatchResult:
    """Per commit: send time, response time and each watcher's receive time."""

    sent: dict[tuple[int, int], float] = field(default_factory=dict)
    answered: dict[tuple[int, int], float] = field(default_factory=dict)
    received: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    submit_seconds: float = 0.0
    # Streams that ended with an error: status code name -> (count, first details).
    stream_errors: dict[str, tuple[int, str]] = field(default_factory=dict)


async def watch_fanout(
    submit_stub: Stub, watch_stubs: Sequence[Stub], pool: MatchPool, budget: Budget
) -> tuple[WatchResult, int]:
    """Run the fan-out test; return the timings and the number of watcher streams."""
    await pool.fill(budget.watch_matches)
    matches = [await pool.take() for _ in range(budget.watch_matches)]
    result = WatchResult()
    clock = time.perf_counter
    watchers = len(watch_stubs)
    settled = 0
    all_ready = asyncio.Event()
    calls: list[Any] = []
    open_streams = [watchers] * len(matches)
    stopping = False  # set once the test cancels the streams

    async def watch(index: int, match: Match, seat: int) -> None:
        call = watch_stubs[seat].WatchMatch(
            match_service_pb2.WatchMatchRequest(match_id=match.match_id),
            metadata=match.tokens[seat],
        )
        calls.append(call)
        started = False

        def settle() -> None:
            # Every stream counts once towards "all ready": at its snapshot or its end.
            nonlocal settled, started
            if not started:
                started = True
                settled += 1
                if settled == len(matches) * watchers:
                    all_ready.set()

        def failed(code: str, details: str) -> None:
            count, first = result.stream_errors.get(code, (0, details))
            result.stream_errors[code] = (count + 1, first)

        saw_end = False  # the server ends a stream after the finishing update
        try:
            async for message in call:
                now = clock()
                kind = message.WhichOneof("message")
                if kind == "update":
                    result.received.setdefault((index, message.update.version), []).append(now)
                    saw_end = message.update.status == match_pb2.MATCH_STATUS_FINISHED
                elif kind == "snapshot":
                    # A match whose last action an earlier workload committed unseen
                    # starts finished: its stream ends at once, and rightly.
                    saw_end = message.snapshot.match.status == match_pb2.MATCH_STATUS_FINISHED
                    settle()
            if not match.finished and not saw_end:
                failed("OK", "the stream ended before the match did")
        except grpc.aio.AioRpcError as e:
            if not stopping:
                failed(e.code().name, e.details() or "")
        finally:
            open_streams[index] -= 1
            settle()

    tasks = [
        asyncio.create_task(watch(i, match, seat))
        for i, match in enumerate(matches)
        for seat in range(watchers)
    ]
    busy: dict[int, asyncio.Task[None]] = {}
    try:
        await asyncio.wait_for(all_ready.wait(), timeout=START_TIMEOUT_S)

        async def commit(index: int, match: Match) -> None:
            request, metadata = match.next_request()
            key = (index, match.version + 1)
            result.sent[key] = clock()
            response = await submit_stub.SubmitAction(request, metadata=metadata)
            if response.duplicate:
                # A PlayMatch stream of an earlier window committed this action
                # and was cancelled before its update reached the benchmark: the
                # watchers' snapshots hold it already.
                del result.sent[key]
            else:
                result.answered[key] = clock()
            match.committed(response)

        start = clock()
        commits = 0
        live = list(range(len(matches)))
        while live and clock() - start < budget.watch_s:
            index = live[commits % len(live)]
            delay = start + commits / budget.watch_rate - clock()
            if delay > 0:
                await asyncio.sleep(delay)
            previous = busy.get(index)
            if previous is not None:
                await previous  # the match's last action is not committed yet: wait
            if matches[index].finished:
                live.remove(index)
                continue
            busy[index] = asyncio.create_task(commit(index, matches[index]))
            commits += 1
        await asyncio.gather(*busy.values())
        result.submit_seconds = clock() - start
        # Let the last deliveries arrive (streams that failed will not deliver any).
        deadline = clock() + WATCH_GRACE_S
        while clock() < deadline and any(
            len(result.received.get(key, ())) < open_streams[key[0]] for key in result.sent
        ):
            await asyncio.sleep(0.01)
    finally:
        stopping = True
        for call in calls:
            call.cancel()
        for task in (*tasks, *busy.values()):
            task.cancel()
        await asyncio.gather(*tasks, *busy.values(), return_exceptions=True)
    return result, len(tasks)


# ------------------------------------------------------------------- figures
def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0-100); NaN without values (a window in
    which no move completed, as on a machine too loaded to finish one, is
    printed as such rather than ending the run)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def _latency_line(label: str, rounds: Sequence[Sequence[float]]) -> str:
    pooled = [x for r in rounds for x in r]
    medians = [statistics.median(r) for r in rounds]
    return (
        f"  {label}: median {_ms(statistics.median(pooled))} "
        f"[round medians {min(medians) * 1000:.3f}-{max(medians) * 1000:.3f}], "
        f"p99 {_ms(percentile(pooled, 99))}, {len(pooled)} calls"
    )


def _rate_line(label: str, windows: Sequence[Window], unit: str) -> str:
    rates = [w.rate for w in windows]
    return (
        f"  {label}: {statistics.median(rates):,.0f} {unit}/s "
        f"[{min(rates):,.0f}-{max(rates):,.0f}], {sum(w.calls for w in windows):,} calls"
    )


async def _measure(
    running: Cluster, budget: Budget, out: Callable[[str], None]
) -> dict[str, float]:
    echo_channel = grpc.aio.insecure_channel(running.echo)
    lean_channel = grpc.aio.insecure_channel(running.lean)
    channel_a = grpc.aio.insecure_channel(running.replica_a)
    watch_channels = [grpc.aio.insecure_channel(running.replica_b) for _ in range(SEATS)]
    store = AsyncRedis.from_url(running.redis_url, decode_responses=True)
    # The baseline script call goes out the way the server sends its scripts.
    pool_kwargs = {**store.connection_pool.connection_kwargs, "protocol": 2}
    mux = MuxConnection(lambda: Connection(**pool_kwargs), START_TIMEOUT_S)
    try:
        echo_method = echo_channel.unary_unary(echo_server.METHOD, None, None)  # bytes as they are
        stub_a = match_service_pb2_grpc.MatchServiceStub(channel_a)
        payload = match_service_pb2.SubmitActionRequest(
            match_id="0123456789abcdef", notation="b c3 d3", expected_version=42,
            request_id="bench-43",
        ).SerializeToString()  # fmt: skip
        trivial = store.register_script("return 1")
        sha = await store.script_load("return 1")

        async def echo() -> Any:
            return await echo_method(payload)

        async def evalsha() -> Any:
            return await mux.execute("EVALSHA", sha, 0)

        async def evalsha_redis_py() -> Any:
            return await trivial(keys=[], args=[])

        pool = MatchPool(stub_a)
        await pool.fill(budget.concurrency + 2)
        lean_pool = MatchPool(match_service_pb2_grpc.MatchServiceStub(lean_channel))

        # Warm-up: connections, scripts, imports and caches on every side.
        await time_calls(echo, budget.warmup_calls)
        await time_calls(evalsha, budget.warmup_calls)
        await time_calls(evalsha_redis_py, budget.warmup_calls)
        await submit_latencies(pool, budget.warmup_calls)
        await submit_latencies(lean_pool, budget.warmup_calls)
        await echo_window(echo, budget.concurrency, min(0.2, budget.throughput_s))
        warm = await submit_window(pool, budget.concurrency, min(0.2, budget.throughput_s))

        echo_rounds: list[list[float]] = []
        redis_rounds: list[list[float]] = []
        redis_py_rounds: list[list[float]] = []
        submit_rounds: list[list[float]] = []
        lean_rounds: list[list[float]] = []
        echo_windows: list[Window] = []
        submit_windows: list[Window] = []
        submit_cpu: list[CpuWindow] = []
        play_cpu: list[CpuWindow] = []
        pid = running.replica_a_pid
        for round_index in range(budget.rounds):
            forward = round_index % 2 == 0
            # Latency: the three workloads back to back, order alternating.
            latency: list[tuple[list[list[float]], Callable[[], Any]]] = [
                (echo_rounds, lambda: time_calls(echo, budget.latency_calls)),
                (redis_rounds, lambda: time_calls(evalsha, budget.latency_calls)),
                (redis_py_rounds, lambda: time_calls(evalsha_redis_py, budget.latency_calls)),
                (submit_rounds, lambda: submit_latencies(pool, budget.latency_calls)),
                (lean_rounds, lambda: submit_latencies(lean_pool, budget.latency_calls)),
            ]
            for sink, work in latency if forward else reversed(latency):
                gc.collect()
                sink.append(await work())
            # Throughput: enough matches ready that nobody creates one mid-window.
            expected = max(w.rate for w in (warm, *submit_windows)) * budget.throughput_s
            await pool.fill(budget.concurrency, math.ceil(2 * expected))
            throughput: list[tuple[list[Any], Callable[[], Any]]] = [
                (echo_windows, lambda: echo_window(echo, budget.concurrency, budget.throughput_s)),
                (
                    submit_cpu,
                    lambda: with_cpu(
                        pid, submit_window(pool, budget.concurrency, budget.throughput_s)
                    ),
                ),
                (
                    play_cpu,
                    lambda: with_cpu(
                        pid, play_window(pool, budget.concurrency, budget.throughput_s)
                    ),
                ),
            ]
            for sink, work in throughput if forward else reversed(throughput):
                gc.collect()
                sink.append(await work())
                await pool.fill(budget.concurrency, math.ceil(2 * expected))
            submit_windows.append(submit_cpu[-1].window)

        gc.collect()
        watch_stubs = [match_service_pb2_grpc.MatchServiceStub(c) for c in watch_channels]
        watched, streams = await watch_fanout(stub_a, watch_stubs, pool, budget)
    finally:
        for channel in (echo_channel, lean_channel, channel_a, *watch_channels):
            await channel.close(None)
        await store.aclose()
        await mux.close()

    pooled_echo = [x for r in echo_rounds for x in r]
    pooled_redis = [x for r in redis_rounds for x in r]
    pooled_submit = [x for r in submit_rounds for x in r]
    limit = statistics.median(pooled_echo) + statistics.median(pooled_redis)
    submit_ratio = statistics.median(pooled_submit) / limit
    lean_ratio = statistics.median(x for r in lean_rounds for x in r) / limit
    echo_rate = statistics.median(w.rate for w in echo_windows)
    submit_rate = statistics.median(w.rate for w in submit_windows)
    throughput_ratio = submit_rate / echo_rate
    play_rate = statistics.median(w.window.rate for w in play_cpu)
    unary_cpu_ms = statistics.median(w.cpu_per_call for w in submit_cpu) * 1000
    play_cpu_ms = statistics.median(w.cpu_per_call for w in play_cpu) * 1000
    play_vs_unary_cpu = play_cpu_ms / unary_cpu_ms

    watchers = len(watch_channels)
    per_watcher: list[float] = []  # every delivery: send -> receipt
    to_last: list[float] = []  # every commit: send -> last receipt
    complete_to_last: list[float] = []  # commits every watcher received: send -> last
    answer_to_last: list[float] = []  # the same from the SubmitAction response
    missing = 0
    for key, sent in watched.sent.items():
        times = watched.received.get(key, [])
        missing += watchers - len(times)
        per_watcher.extend(t - sent for t in times)
        if len(times) == watchers:
            to_last.append(max(times) - sent)
            complete_to_last.append(max(times) - sent)
            answer_to_last.append(max(times) - watched.answered[key])
        else:
            # Never delivered: counted as the whole grace period, a lower bound.
            to_last.append(WATCH_GRACE_S)
    commits = len(watched.sent)
    watch_p99 = percentile(to_last, 99) if to_last else float("nan")

    out(
        f"service benchmark: {SEATS}-player {GAME_ID} matches with planned random legal "
        f"actions; replicas A and B (`senet serve`) and a bare gRPC echo server, each its own "
        f"process, on a private redis-server; {budget.rounds} interleaved round(s)"
    )
    out(_latency_line("bare gRPC echo round trip (baseline)", echo_rounds))
    out(
        _latency_line(
            "redis EVALSHA 'return 1', multiplexed as the server (baseline)", redis_rounds
        )
    )
    out(_latency_line("redis EVALSHA 'return 1' through redis-py (reference)", redis_py_rounds))
    out(_latency_line("SubmitAction on A, sequential", submit_rounds))
    out(
        f"    median SubmitAction / (median echo + median EVALSHA = {_ms(limit)}): "
        f"{submit_ratio:.3f} (target <= 1.3)"
    )
    out(_latency_line("the lean MatchService's SubmitAction, sequential", lean_rounds))
    out(
        f"    median lean SubmitAction / the same limit (the contract's work alone): "
        f"{lean_ratio:.3f}"
    )
    out(
        _rate_line(
            f"bare gRPC echo, {budget.concurrency} in flight (baseline)", echo_windows, "calls"
        )
    )
    out(
        _rate_line(
            f"SubmitAction on A, {budget.concurrency} in flight ({budget.concurrency} matches)",
            submit_windows,
            "actions",
        )
    )
    out(
        f"    median actions/s / median echo calls/s: {throughput_ratio:.3f} (target >= 0.5)"
        + (
            f"; {pool.created_in_windows} match(es) created mid-window"
            if pool.created_in_windows
            else ""
        )
    )
    out(
        _rate_line(
            f"PlayMatch on A, {budget.concurrency} matches in flight x {SEATS} seat streams",
            [w.window for w in play_cpu],
            "actions",
        )
    )
    out(
        f"    replica A CPU per action: SubmitAction {unary_cpu_ms:.3f} ms (baseline), "
        f"PlayMatch {play_cpu_ms:.3f} ms ({play_rate:.0f} actions/s); "
        f"PlayMatch / SubmitAction: {play_vs_unary_cpu:.3f} (target <= 1.3)"
    )
    out(
        f"  WatchMatch fan-out: {budget.watch_matches} matches x {watchers} watchers = {streams} "
        f"streams on B, submissions on A paced at {budget.watch_rate:g} commits/s: {commits} "
        f"commits in {watched.submit_seconds:.1f} s, {len(per_watcher)} deliveries"
        + (f", {missing} MISSING after {WATCH_GRACE_S:g} s" if missing else "")
    )
    for code, (count, details) in watched.stream_errors.items():
        out(f"    {count} watcher stream(s) FAILED with {code}: {details}")
    if per_watcher:
        out(
            f"    send -> each watcher: p50 {_ms(percentile(per_watcher, 50))}, "
            f"p99 {_ms(percentile(per_watcher, 99))}, max {_ms(max(per_watcher))}"
        )
    if complete_to_last:
        out(
            f"    commits received by all {watchers} watchers ({len(complete_to_last)} of "
            f"{commits}): send -> last watcher p50 {_ms(percentile(complete_to_last, 50))}, "
            f"p99 {_ms(percentile(complete_to_last, 99))}; SubmitAction response -> last "
            f"watcher p50 {_ms(percentile(answer_to_last, 50))}, "
            f"p99 {_ms(percentile(answer_to_last, 99))}"
        )
    out(
        f"    send -> last watcher over all {commits} commits"
        + (f" (undelivered counted as {WATCH_GRACE_S:g} s)" if missing else "")
        + f": p99 {_ms(watch_p99)} (target <= 50 ms); baseline: echo p99 + EVALSHA p99 = "
        f"{_ms(percentile(pooled_echo, 99) + percentile(pooled_redis, 99))}"
    )
    return {
        "service.submit_p50_vs_limit": round(submit_ratio, 3),
        "service.throughput_vs_echo": round(throughput_ratio, 3),
        "service.watch_p99_ms": round(watch_p99 * 1000, 3),
        "service.play_vs_unary_cpu": round(play_vs_unary_cpu, 3),
        "service.lean_submit_p50_vs_limit": round(lean_ratio, 3),
    }


def run(
    *,
    quick: bool = False,
    out: Callable[[str], None] = print,
    budget: Budget | None = None,
) -> dict[str, float]:
    """Measure, print human-readable lines then ``name: value`` lines; return the latter.

    Without ``redis-server`` (``PATH`` or ``SENET_REDIS_SERVER``) prints why and
    returns no figures.
    """
    if budget is None:
        budget = QUICK_BUDGET if quick else DEFAULT_BUDGET
    executable = redis_executable()
    if executable is None:
        out("service benchmark skipped: redis-server is not installed")
        return {}
    with cluster(executable) as running:
        figures = asyncio.run(_measure(running, budget, out))
        figures.update(
            asyncio.run(
                clocks.measure(
                    (running.replica_a, running.replica_b),
                    running.redis_url,
                    budget.clock_matches,
                    budget.clock_decision_ms,
                    out,
                )
            )
        )
    for name, value in figures.items():
        out(f"{name}: {value:.3f}")
    return figures
