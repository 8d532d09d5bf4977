"""Peer benchmark: Senet beside boardgame.io, the same 4-player game, in one run.

boardgame.io is Senet's best-known open-source peer (in-process state, socket.io,
the whole state sent to every seat after each move). Both servers play the test
suite's trivial game, Pebbles (:mod:`tests.pebbles.core`, written again for
boardgame.io in ``peer/pebbles.js`` with a ``playerView`` that hides the other
hands), under the same load: ``concurrency`` (32) matches in flight, 4 players
each, every player a network client of its own.

Set-up, every server its own process so that none shares a core's time or a GIL
with the load:

- boardgame.io (``peer/server.js``: a stock ``Server`` with its socket.io
  transport and in-memory store), version pinned in ``peer/package-lock.json``
  and installed by this benchmark with ``npm ci`` into ``peer/node_modules`` (git
  ignores it) on its first run. Its load generator is another Node process
  (``peer/load.js``): one socket.io connection per seat, a seat moving when the
  state it receives says it is its turn, a random pebble of its hand.
- ``senet serve`` on the embedded store, and another on a private
  ``redis-server`` (as :mod:`tests.bench.service` starts them), both with the
  test plug-ins visible (:func:`tests.plugins.enable`) so they host Pebbles. This
  process is their load generator: matches with planned random actions
  (:class:`tests.bench.service.MatchPool`), played through unary SubmitAction
  calls (one loop per match) and through PlayMatch (one compact stream per seat
  answering its prompts, as the client library's bots play). Mykerinos is played the same
  two ways, for reference.

Matches are created and joined before each window, outside the timed section, on
both sides. Throughput windows (``window_s``) keep ``concurrency`` matches in
flight; latency windows (``latency_s``) keep one, so that no move queues behind
another's and the latency is the path's own (at 32 in flight it is mostly the
queue: in flight / moves per second). A round is one window of every workload,
in an order that alternates between rounds, because the machines this runs on
are shared and noisy. A move's latency runs from the
client sending it to the mover seeing the state it produced: for boardgame.io
the mover's ``update`` message, for PlayMatch the mover's own ``update`` on its
stream, for SubmitAction the reply. The server's CPU time per move is read
from ``/proc`` (every process of its process group) around each window, and
the load generator's beside it (the load can be the bottleneck on a small
machine: every process shares its cores).

Figures (machine-readable lines, in this order), Pebbles with the embedded store,
the like of boardgame.io's in-memory one:

``peer.unary_throughput_vs_bgio``
    Median moves/s of the SubmitAction windows over that of the boardgame.io
    ones, ``concurrency`` matches in flight.
``peer.play_throughput_vs_bgio``
    The same for the PlayMatch windows.
``peer.unary_vs_null_throughput``, ``peer.play_vs_null_throughput``
    Median moves/s of Senet's SubmitAction (PlayMatch) windows over that of
    the null MatchService's (:mod:`tests.bench.null_server`: Senet's protos, no
    game, no store) under the same load: how close Senet comes to the limit of
    a grpcio server of these protos on the machine. Target at least 0.8 each.
``peer.lean_unary_vs_null_throughput``, ``peer.unary_vs_lean_throughput``
    The lean MatchService (:mod:`tests.bench.lean_server`: the null server plus
    the work Senet's contract asks of every move, each step done the cheapest
    way, Pebbles' rules core included) against the null server, and Senet
    against the lean one, through SubmitAction: the first bounds what any
    restructuring of Senet's SubmitAction path could reach in
    ``peer.unary_vs_null_throughput``, the second says how far Senet is from
    that bound. No targets.
``peer.lean_play_vs_null_throughput``, ``peer.play_vs_lean_throughput``
    The same through PlayMatch.
``peer.play_p50_vs_bgio``, ``peer.play_p99_vs_bgio``
    Median and 99th percentile move latency through PlayMatch over
    boardgame.io's, one match in flight, all latency windows' moves pooled.
    The same ratios at ``concurrency`` in flight are printed beside. Targets at
    most 1.5 and at most 1.0.

The Redis store and Mykerinos are printed as informative lines. Without ``node``
and ``npm`` the benchmark prints why and returns no figures; without
``redis-server`` it leaves the Redis windows out.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc

from senet.client.turns import prompt_of
from senet.games import Game, get_game
from senet.v1 import match_service_pb2, match_service_pb2_grpc
from tests import plugins
from tests.bench.service import (
    BASE_SEED,
    ROOT,
    SEATS,
    START_TIMEOUT_S,
    Child,
    Match,
    MatchPool,
    percentile,
    random_plan,
    redis_executable,
    start_redis,
    submit,
)
from tests.pebbles.core import PEBBLES

if TYPE_CHECKING:  # a typing-only class of the generated stubs
    from senet.v1.match_service_pb2_grpc import MatchServiceAsyncStub as Stub

PEER_DIR = Path(__file__).resolve().parent / "peer"
NODE_MODULES = PEER_DIR / "node_modules"
# Written into node_modules after `npm ci`: the lock file it installed.
INSTALLED_STAMP = NODE_MODULES / ".senet-installed-lock"
NPM_TIMEOUT_S = 600.0
# A boardgame.io window or preparation that has not answered by then is stuck.
NODE_ANSWER_S = 120.0
# Before the first window: a guess of moves/s, to create enough matches.
FIRST_RATE_GUESS = 5000.0

_SENET_SERVING = re.compile(r"is serving on (\S+?):(\d+)\b")
_BGIO_SERVING = re.compile(r"boardgame\.io is serving on (\S+?):(\d+)\b")


@dataclass(frozen=True)
class Budget:
    """How long to measure.

    Attributes:
        rounds: Rounds, each one window of every workload.
        window_s: Length of each throughput window.
        latency_s: Length of each latency window (one match in flight).
        concurrency: Matches in flight in the throughput windows (4 players each).
        warmup_s: One unmeasured window of every workload before the first round.
        mykerinos: Whether Senet also plays Mykerinos (informative windows).
    """

    rounds: int
    window_s: float
    latency_s: float
    concurrency: int = 32
    warmup_s: float = 1.0
    mykerinos: bool = True

    def __post_init__(self) -> None:
        if (
            self.rounds < 1
            or self.window_s <= 0
            or self.latency_s <= 0
            or self.concurrency < 1
            or self.warmup_s < 0
        ):
            raise ValueError(f"invalid budget: {self}")


# About 5 x (9 x 2 s + 3 x 1.5 s) + 12 x 2 s warm-up + set-up and match creation:
# 3 to 4 minutes.
DEFAULT_BUDGET = Budget(rounds=5, window_s=2.0, latency_s=1.5, warmup_s=2.0)
# A few seconds of windows (plus starting the servers, and npm ci the first time).
QUICK_BUDGET = Budget(rounds=1, window_s=0.4, latency_s=0.3, warmup_s=0.2)
# A few moves of everything: for the smoke test.
SMOKE_BUDGET = Budget(rounds=1, window_s=0.2, latency_s=0.2, concurrency=4, warmup_s=0.1)


# ------------------------------------------------------------------- samples
@dataclass
class Sample:
    """One window of one workload.

    Attributes:
        moves: Moves completed (the mover saw their state) in the window.
        seconds: The window's length, until its last move completed.
        latencies: Per move, send -> the mover sees the new state (s).
        cpu_s: CPU time of the server's process group meanwhile.
        store_cpu_s: CPU time of redis-server meanwhile (Redis store only).
        load_cpu_s: CPU time of the load generator meanwhile.
        replies: PlayMatch only: per move, send -> the reply to the mover's
            submission (on a compact stream, its own update).
        created_inline: Matches created inside the window (the pool ran dry).
    """

    moves: int
    seconds: float
    latencies: list[float]
    cpu_s: float = 0.0
    store_cpu_s: float = 0.0
    load_cpu_s: float = 0.0
    replies: list[float] = field(default_factory=list)
    created_inline: int = 0

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else float("inf")


@dataclass(eq=False)
class Workload:
    """One kind of window: what it plays, how, and its samples.

    Attributes:
        label: For people.
        prepare: Creates matches for a window of the given moves, untimed.
        window: Plays one window of the given seconds.
        server_group: Process group whose CPU time counts as the server's.
        store_pid: redis-server's process id, when the server uses it.
        load_pid: The load generator's process id; None: this process.
    """

    label: str
    prepare: Callable[[float], Awaitable[None]]
    window: Callable[[float], Awaitable[Sample]]
    server_group: int
    store_pid: int | None = None
    load_pid: int | None = None
    samples: list[Sample] = field(default_factory=list)
    #: Moves/s of the unmeasured warm-up window.
    warmup_rate: float | None = None

    def expected_moves(self, seconds: float) -> float:
        rates = [s.rate for s in self.samples]
        if self.warmup_rate is not None:
            rates.append(self.warmup_rate)
        return max(rates, default=FIRST_RATE_GUESS) * seconds

    async def measure(self, seconds: float) -> Sample:
        """Prepare, then one window with the CPU time its servers spent."""
        await self.prepare(self.expected_moves(seconds))
        gc.collect()
        server_before = group_cpu_seconds(self.server_group)
        store_before = _pid_cpu_seconds(self.store_pid)
        load_before = self._load_cpu_seconds()
        sample = await self.window(seconds)
        sample.cpu_s = group_cpu_seconds(self.server_group) - server_before
        sample.store_cpu_s = _pid_cpu_seconds(self.store_pid) - store_before
        sample.load_cpu_s = self._load_cpu_seconds() - load_before
        return sample

    def _load_cpu_seconds(self) -> float:
        return time.process_time() if self.load_pid is None else _pid_cpu_seconds(self.load_pid)


def group_cpu_seconds(pgid: int) -> float:
    """CPU time (user + system) used so far by every live process of group ``pgid``
    (a server started with several processes counts them all)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[2]) == pgid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _pid_cpu_seconds(pid: int | None) -> float:
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------- boardgame.io
def node_tools() -> tuple[str, str] | None:
    """``node`` and ``npm`` from ``PATH``; None when either is missing."""
    node, npm = shutil.which("node"), shutil.which("npm")
    return (node, npm) if node and npm else None


def install_boardgame_io(npm: str, out: Callable[[str], None]) -> None:
    """``npm ci`` in ``peer/`` unless ``node_modules`` holds that very lock file."""
    lock = (PEER_DIR / "package-lock.json").read_bytes()
    digest = hashlib.sha256(lock).hexdigest()
    with contextlib.suppress(OSError):
        if INSTALLED_STAMP.read_text().strip() == digest:
            return
    out("peer benchmark: installing boardgame.io from the npm registry (npm ci, once)")
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=PEER_DIR,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=NPM_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"npm ci failed in {PEER_DIR}:\n{done.stdout}{done.stderr}")
    INSTALLED_STAMP.write_text(digest + "\n")


def boardgame_io_version() -> str:
    package = json.loads((NODE_MODULES / "boardgame.io" / "package.json").read_text())
    return str(package["version"])


class BgioLoad:
    """The boardgame.io load generator (``peer/load.js``), driven by JSON lines."""

    def __init__(self, proc: asyncio.subprocess.Process, stderr_path: Path) -> None:
        self.proc = proc
        self.stderr_path = stderr_path

    @classmethod
    async def start(cls, node: str, address: str, concurrency: int, workdir: Path) -> BgioLoad:
        stderr_path = workdir / "bgio-load.err"
        with stderr_path.open("wb") as stderr:
            proc = await asyncio.create_subprocess_exec(
                node, str(PEER_DIR / "load.js"), address, str(concurrency),
                cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                start_new_session=True, env={**os.environ, "NODE_ENV": "production"},
                limit=1 << 26,  # a window's reply holds every latency on one line
            )  # fmt: skip
        load = cls(proc, stderr_path)
        try:
            await load.answer(START_TIMEOUT_S)
        except BaseException:
            await load.stop()
            raise
        return load

    async def answer(self, timeout_s: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        try:
            line = await asyncio.wait_for(self.proc.stdout.readline(), timeout_s)
        except TimeoutError:
            raise RuntimeError(f"the boardgame.io load generator hung:\n{self._tail()}") from None
        if not line:
            raise RuntimeError(f"the boardgame.io load generator exited:\n{self._tail()}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def request(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command).encode() + b"\n")
        await self.proc.stdin.drain()
        return await self.answer(NODE_ANSWER_S)

    def _tail(self) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.stderr_path.read_text(errors="replace").splitlines()[-20:])
        return "(no output)"

    async def stop(self) -> None:
        """Ask it to quit; SIGKILL its process group if it lingers."""
        if self.proc.returncode is None and self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.write(b'{"cmd": "quit"}\n')
                self.proc.stdin.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 3)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()


def bgio_workload(
    load: BgioLoad, server_group: int, concurrency: int, moves_per_match: int
) -> Workload:
    """boardgame.io windows of Pebbles: matches created through its lobby API."""

    async def prepare(moves: float) -> None:
        matches = math.ceil(2 * moves / moves_per_match) + concurrency
        await load.request({"cmd": "prepare", "matches": matches})

    async def window(seconds: float) -> Sample:
        got = await load.request({"cmd": "window", "seconds": seconds, "inflight": concurrency})
        return Sample(
            moves=int(got["moves"]),
            seconds=float(got["seconds"]),
            latencies=[ms / 1000 for ms in got["latencies_ms"]],
            created_inline=int(got["created_inline"]),
        )

    label = (
        f"boardgame.io (socket.io, a connection per seat), in-memory store, Pebbles, "
        f"{concurrency} in flight"
    )
    return Workload(label, prepare, window, server_group, load_pid=load.proc.pid)


# ---------------------------------------------------------------------- Senet
async def unary_window(pool: MatchPool, concurrency: int, seconds: float) -> Sample:
    """Moves committed by ``concurrency`` SubmitAction loops, each on its own match
    (one client acting for every seat), in ``seconds``; each call timed."""
    clock = time.perf_counter
    created_before = pool.created_inline
    latencies: list[float] = []
    start = clock()
    deadline = start + seconds

    async def loop() -> int:
        done = 0
        while clock() < deadline:
            match = await pool.take()
            while not match.finished and clock() < deadline:
                sent = clock()
                await submit(pool.stub, match)
                latencies.append(clock() - sent)
                done += 1
            pool.give_back(match)
        return done

    counts = await asyncio.gather(*(loop() for _ in range(concurrency)))
    return Sample(
        sum(counts), clock() - start, latencies, created_inline=pool.created_inline - created_before
    )


async def play_match_timed(
    stub: Stub, match: Match, deadline: float, latencies: list[float], replies: list[float]
) -> int:
    """Play ``match`` on PlayMatch streams, one per seat, each answering its prompts
    with the planned action, until it ends or ``deadline``; moves still awaited
    then are seen through. Returns the moves completed; appends each one's
    latency (send -> the mover's own update) and reply time (send -> its
    ``submitted``)."""
    clock = time.perf_counter
    completed = 0
    awaiting_update: dict[int, float] = {}  # version acted on -> send time
    awaiting_reply: dict[int, float] = {}
    done = asyncio.Event()

    def settle() -> None:
        if (match.finished or clock() >= deadline) and not awaiting_update:
            done.set()

    async def seat_stream(seat: int) -> None:
        nonlocal completed
        outbox: asyncio.Queue[match_service_pb2.PlayMatchRequest | None] = asyncio.Queue()
        hello = match_service_pb2.PlayHello(match_id=match.match_id, compact=True)
        outbox.put_nowait(match_service_pb2.PlayMatchRequest(hello=hello))
        mine: set[int] = set()

        async def requests() -> AsyncIterator[match_service_pb2.PlayMatchRequest]:
            while (item := await outbox.get()) is not None:
                yield item

        call = stub.PlayMatch(requests(), metadata=match.tokens[seat])
        try:
            async for message in call:
                now = clock()
                kind = message.WhichOneof("message")
                if kind == "update":
                    version = message.update.version
                    match.version = max(match.version, version)
                    if version - 1 in mine:  # its reply (request_id set) is this update
                        mine.discard(version - 1)
                        latencies.append(now - awaiting_update.pop(version - 1))
                        sent = awaiting_reply.pop(version - 1, None)
                        if sent is not None:
                            replies.append(now - sent)
                        completed += 1
                    settle()
                turn = prompt_of(message)
                if turn is not None:
                    version = turn.version
                    if version in mine:  # prompted again: the answer is on its way
                        continue
                    # Once the window is done nothing more is sent: a move sent then
                    # would be committed unseen, leaving the match a version ahead of
                    # what the next window expects. The null server knows no game: it
                    # prompts past the match's end.
                    if done.is_set() or now >= deadline or version >= len(match.plan):
                        settle()
                        continue
                    _seat, notation = match.plan[version]
                    request = match_service_pb2.SubmitActionRequest(
                        match_id=match.match_id, notation=notation,
                        expected_version=version, request_id=f"bench-{version + 1}",
                    )  # fmt: skip
                    mine.add(version)
                    awaiting_update[version] = awaiting_reply[version] = clock()
                    outbox.put_nowait(match_service_pb2.PlayMatchRequest(submit=request))
                if kind == "error":
                    raise RuntimeError(f"PlayMatch refused a planned action: {message.error}")
        finally:
            outbox.put_nowait(None)
            call.cancel()
            settle()

    streams = [asyncio.create_task(seat_stream(seat)) for seat in range(SEATS)]
    waiter = asyncio.create_task(done.wait())
    try:
        pending: set[asyncio.Task[Any]] = {waiter, *streams}
        while not done.is_set() and len(pending) > 1:
            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in finished:
                task.result()  # a stream that failed fails the window
        if not done.is_set():
            raise RuntimeError(f"match {match.match_id}: every stream ended, moves unanswered")
    finally:
        for task in (*streams, waiter):
            task.cancel()
        await asyncio.gather(*streams, waiter, return_exceptions=True)
    return completed


async def play_window(pool: MatchPool, concurrency: int, seconds: float) -> Sample:
    """Moves completed through PlayMatch by ``concurrency`` matches in flight, each
    with one stream per seat (as bots and the text client play), in ``seconds``."""
    clock = time.perf_counter
    created_before = pool.created_inline
    latencies: list[float] = []
    replies: list[float] = []
    start = clock()
    deadline = start + seconds

    async def loop() -> int:
        done = 0
        while clock() < deadline:
            match = await pool.take()
            done += await play_match_timed(pool.stub, match, deadline, latencies, replies)
            pool.give_back(match)
        return done

    counts = await asyncio.gather(*(loop() for _ in range(concurrency)))
    return Sample(
        sum(counts),
        clock() - start,
        latencies,
        replies=replies,
        created_inline=pool.created_inline - created_before,
    )


def senet_workloads(
    stub: Stub,
    store: str,
    game: Game,
    concurrency: int,
    server_group: int,
    store_pid: int | None,
    server: str = "Senet",
) -> tuple[Workload, Workload]:
    """SubmitAction and PlayMatch windows of ``game`` on one server (``server``
    names it for people), one pool of matches between them."""
    pool = MatchPool(stub, game)

    async def prepare(moves: float) -> None:
        # The pool estimates matches from those it holds: a second call corrects
        # the first's guess of a match's length.
        for _ in range(2):
            await pool.fill(concurrency, math.ceil(2 * moves))

    name = game.info.name
    unary = Workload(
        f"{server} SubmitAction, {store}, {name}, {concurrency} in flight",
        prepare,
        lambda seconds: unary_window(pool, concurrency, seconds),
        server_group,
        store_pid,
    )
    play = Workload(
        f"{server} PlayMatch ({SEATS} seat streams), {store}, {name}, {concurrency} in flight",
        prepare,
        lambda seconds: play_window(pool, concurrency, seconds),
        server_group,
        store_pid,
    )
    return unary, play


# ------------------------------------------------------------------ processes
@dataclass
class Servers:
    """Every server started, by address, with the process groups to read CPU of."""

    bgio: str
    bgio_group: int
    embedded: str
    embedded_group: int
    null: str
    null_group: int
    lean: str
    lean_group: int
    redis: str | None = None
    redis_group: int = 0
    redis_store_pid: int | None = None


@contextlib.contextmanager
def servers(node: str, redis_server: str | None) -> Iterator[tuple[Servers, Path]]:
    """Start boardgame.io and the Senet servers (and Redis); stop them all on the
    way out, errors included."""
    children: list[Child] = []
    with tempfile.TemporaryDirectory(prefix="senet-peer-") as tmp:
        workdir = Path(tmp)
        try:
            bgio = Child(
                "bgio", ["env", "NODE_ENV=production", node, str(PEER_DIR / "server.js")], workdir
            )
            children.append(bgio)
            serve = [sys.executable, "-m", "senet.cli", "serve", "--host", "127.0.0.1"]
            serve += ["--port", "0", "--log-level", "WARNING", "--no-log-json"]
            serve += ["--embedded-bot-workers", "0"]  # the server's work alone
            # Every load comes from this one host: per-client quotas off.
            serve += ["--client-creates-per-min", "0", "--client-calls-per-s", "0"]
            serve += ["--client-streams", "0"]
            redis_url = ""
            redis_child: Child | None = None
            if redis_server is not None:
                redis_child, port = start_redis(redis_server, workdir)
                children.append(redis_child)
                redis_url = f"redis://127.0.0.1:{port}/0"
            with plugins.visible_to_children():
                embedded = Child("senet-embedded", [*serve, "--redis-url", ""], workdir)
                children.append(embedded)
                on_redis = None
                if redis_url:
                    on_redis = Child(
                        "senet-redis",
                        [*serve, "--redis-url", redis_url, "--key-prefix", "peer"],
                        workdir,
                    )
                    children.append(on_redis)
                lean = Child("lean", [sys.executable, "-m", "tests.bench.lean_server"], workdir)
                children.append(lean)
            null = Child("null", [sys.executable, "-m", "tests.bench.null_server"], workdir)
            children.append(null)

            def address(child: Child, pattern: re.Pattern[str]) -> str:
                return "{}:{}".format(*child.wait_for_line(pattern, START_TIMEOUT_S).groups())

            running = Servers(
                bgio=address(bgio, _BGIO_SERVING),
                bgio_group=bgio.proc.pid,
                embedded=address(embedded, _SENET_SERVING),
                embedded_group=embedded.proc.pid,
                null=address(null, _SENET_SERVING),
                null_group=null.proc.pid,
                lean=address(lean, _SENET_SERVING),
                lean_group=lean.proc.pid,
            )
            if on_redis is not None and redis_child is not None:
                running.redis = address(on_redis, _SENET_SERVING)
                running.redis_group = on_redis.proc.pid
                running.redis_store_pid = redis_child.proc.pid
            yield running, workdir
        finally:
            for child in reversed(children):
                child.stop()


# -------------------------------------------------------------------- figures
def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def _pooled(workload: Workload) -> list[float]:
    return [x for s in workload.samples for x in s.latencies]


def _percentiles(workload: Workload) -> tuple[float, float]:
    pooled = _pooled(workload)
    return percentile(pooled, 50), percentile(pooled, 99)


def _rate(workload: Workload) -> float:
    return statistics.median(s.rate for s in workload.samples)


def _cpu_per_move(samples: Sequence[Sample], of: Callable[[Sample], float]) -> float:
    per_move = [of(s) / s.moves for s in samples if s.moves]
    return statistics.median(per_move) if per_move else float("nan")


def _workload_line(workload: Workload) -> str:
    pooled = _pooled(workload)
    rates = [s.rate for s in workload.samples]
    line = (
        f"  {workload.label}: {statistics.median(rates):,.0f} moves/s "
        f"[{min(rates):,.0f}-{max(rates):,.0f}], "
        f"p50 {_ms(percentile(pooled, 50))}, p99 {_ms(percentile(pooled, 99))}, "
        f"server CPU {_ms(_cpu_per_move(workload.samples, lambda s: s.cpu_s))}/move"
    )
    if workload.store_pid is not None:
        store = _cpu_per_move(workload.samples, lambda s: s.store_cpu_s)
        line += f" + redis-server {_ms(store)}/move"
    line += f" (load generator {_ms(_cpu_per_move(workload.samples, lambda s: s.load_cpu_s))})"
    line += f", {sum(s.moves for s in workload.samples):,} moves"
    replies = [x for s in workload.samples for x in s.replies]
    if replies:
        line += f"; send -> reply p50 {_ms(percentile(replies, 50))}"
    created = sum(s.created_inline for s in workload.samples)
    if created:
        line += f"; {created} match(es) created mid-window"
    return line


def _load_average() -> str:
    with contextlib.suppress(OSError):
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "unknown"


async def _measure(
    node: str, running: Servers, workdir: Path, budget: Budget, out: Callable[[str], None]
) -> dict[str, float]:
    mykerinos = get_game("mykerinos")
    moves_per_match = len(random_plan(BASE_SEED, PEBBLES))
    embedded_channel = grpc.aio.insecure_channel(running.embedded)
    null_channel = grpc.aio.insecure_channel(running.null)
    lean_channel = grpc.aio.insecure_channel(running.lean)
    redis_channel = None if running.redis is None else grpc.aio.insecure_channel(running.redis)
    channels = [embedded_channel, null_channel, lean_channel]
    channels += [redis_channel] if redis_channel else []
    load = await BgioLoad.start(node, running.bgio, budget.concurrency, workdir)
    load_before = _load_average()
    try:
        stub = match_service_pb2_grpc.MatchServiceStub(embedded_channel)
        group = running.embedded_group
        bgio = bgio_workload(load, running.bgio_group, budget.concurrency, moves_per_match)
        unary, play = senet_workloads(stub, "embedded", PEBBLES, budget.concurrency, group, None)
        null_unary, null_play = senet_workloads(
            match_service_pb2_grpc.MatchServiceStub(null_channel), "no store", PEBBLES,
            budget.concurrency, running.null_group, None, server="Null MatchService",
        )  # fmt: skip
        lean_unary, lean_play = senet_workloads(
            match_service_pb2_grpc.MatchServiceStub(lean_channel), "memory", PEBBLES,
            budget.concurrency, running.lean_group, None, server="Lean MatchService",
        )  # fmt: skip
        # Latency alone: one match in flight, so that no move waits for another's.
        bgio_alone = bgio_workload(load, running.bgio_group, 1, moves_per_match)
        unary_alone, play_alone = senet_workloads(stub, "embedded", PEBBLES, 1, group, None)
        informative: list[Workload] = []
        for game in [PEBBLES, mykerinos] if budget.mykerinos else [PEBBLES]:
            if game is not PEBBLES:
                informative.extend(
                    senet_workloads(stub, "embedded", game, budget.concurrency, group, None)
                )
            if redis_channel is not None:
                redis_stub = match_service_pb2_grpc.MatchServiceStub(redis_channel)
                informative.extend(
                    senet_workloads(
                        redis_stub, "Redis", game, budget.concurrency,
                        running.redis_group, running.redis_store_pid,
                    )
                )  # fmt: skip
        alone = {bgio_alone, play_alone, unary_alone}
        everything = [bgio, unary, play, null_unary, null_play, lean_unary, lean_play]
        everything += [bgio_alone, play_alone, unary_alone]
        everything += informative
        # Warm-up: connections, JIT and caches on every side.
        for workload in everything:
            workload.warmup_rate = (await workload.measure(budget.warmup_s)).rate
        for round_index in range(budget.rounds):
            order = everything if round_index % 2 == 0 else list(reversed(everything))
            for workload in order:
                seconds = budget.latency_s if workload in alone else budget.window_s
                workload.samples.append(await workload.measure(seconds))
    finally:
        await load.stop()
        for channel in channels:
            await channel.close(None)
    load_after = _load_average()

    bgio_rate = _rate(bgio)
    unary_ratio = _rate(unary) / bgio_rate
    play_ratio = _rate(play) / bgio_rate
    null_unary_ratio = _rate(null_unary) / bgio_rate
    null_play_ratio = _rate(null_play) / bgio_rate
    bgio_p50, bgio_p99 = _percentiles(bgio_alone)
    play_p50, play_p99 = _percentiles(play_alone)
    loaded_bgio_p50, loaded_bgio_p99 = _percentiles(bgio)
    loaded_play_p50, loaded_play_p99 = _percentiles(play)
    out(
        f"peer benchmark: boardgame.io {boardgame_io_version()} (Node {_node_version(node)}, "
        f"socket.io, in-memory store) beside `senet serve` (embedded store"
        + (", and another on a private redis-server" if running.redis else "; no redis-server")
        + f"), each its own process; {SEATS}-player {PEBBLES.info.name}, every player a "
        f"network client; {budget.rounds} interleaved round(s) of {budget.window_s:g} s "
        f"windows at {budget.concurrency} matches in flight and {budget.latency_s:g} s "
        f"windows at 1; load average {load_before} before, {load_after} after"
    )
    for workload in everything:
        out(_workload_line(workload))
    out(
        f"    SubmitAction moves/s / boardgame.io moves/s, {budget.concurrency} in flight "
        f"({_rate(unary):,.0f} / {bgio_rate:,.0f}): {unary_ratio:.3f} (target >= 1.0)"
    )
    out(
        f"    PlayMatch moves/s / boardgame.io moves/s, {budget.concurrency} in flight "
        f"({_rate(play):,.0f} / {bgio_rate:,.0f}): {play_ratio:.3f} (target >= 1.0)"
    )
    unary_vs_null = _rate(unary) / _rate(null_unary)
    play_vs_null = _rate(play) / _rate(null_play)
    for kind, null_ratio, vs_null, senet, null in (
        ("SubmitAction", null_unary_ratio, unary_vs_null, unary, null_unary),
        ("PlayMatch", null_play_ratio, play_vs_null, play, null_play),
    ):
        out(
            f"    the null MatchService's {kind} moves/s / boardgame.io moves/s (the ceiling "
            f"of any grpcio server of these protos under this load): {null_ratio:.3f}"
        )
        out(
            f"    Senet {kind} moves/s / the null MatchService's, {budget.concurrency} in "
            f"flight ({_rate(senet):,.0f} / {_rate(null):,.0f}): {vs_null:.3f} (target >= 0.8)"
        )
    lean_figures: dict[str, float] = {}
    for kind, key, senet, lean, null in (
        ("SubmitAction", "unary", unary, lean_unary, null_unary),
        ("PlayMatch", "play", play, lean_play, null_play),
    ):
        lean_vs_null, vs_lean = _rate(lean) / _rate(null), _rate(senet) / _rate(lean)
        out(
            f"    the lean MatchService's {kind} moves/s / the null MatchService's (the "
            f"contract's work alone, under this load; "
            f"{_rate(lean):,.0f} / {_rate(null):,.0f}): {lean_vs_null:.3f}"
        )
        out(
            f"    Senet {kind} moves/s / the lean MatchService's "
            f"({_rate(senet):,.0f} / {_rate(lean):,.0f}): {vs_lean:.3f}"
        )
        lean_figures[f"peer.lean_{key}_vs_null_throughput"] = round(lean_vs_null, 3)
        lean_figures[f"peer.{key}_vs_lean_throughput"] = round(vs_lean, 3)
    out(
        f"    PlayMatch p50 / boardgame.io p50, 1 in flight ({_ms(play_p50)} / "
        f"{_ms(bgio_p50)}): {play_p50 / bgio_p50:.3f} (target <= 1.5)"
    )
    out(
        f"    PlayMatch p99 / boardgame.io p99, 1 in flight ({_ms(play_p99)} / "
        f"{_ms(bgio_p99)}): {play_p99 / bgio_p99:.3f} (target <= 1.0)"
    )
    out(
        f"    at {budget.concurrency} in flight (queueing included), PlayMatch / boardgame.io: "
        f"p50 {loaded_play_p50 / loaded_bgio_p50:.3f}, p99 {loaded_play_p99 / loaded_bgio_p99:.3f}"
    )
    return {
        "peer.unary_throughput_vs_bgio": round(unary_ratio, 3),
        "peer.play_throughput_vs_bgio": round(play_ratio, 3),
        "peer.unary_vs_null_throughput": round(unary_vs_null, 3),
        "peer.play_vs_null_throughput": round(play_vs_null, 3),
        "peer.play_p50_vs_bgio": round(play_p50 / bgio_p50, 3),
        "peer.play_p99_vs_bgio": round(play_p99 / bgio_p99, 3),
        "peer.null_unary_throughput_vs_bgio": round(null_unary_ratio, 3),
        "peer.null_play_throughput_vs_bgio": round(null_play_ratio, 3),
        **lean_figures,
    }


def _node_version(node: str) -> str:
    done = subprocess.run(
        [node, "--version"], capture_output=True, text=True, timeout=30, check=False
    )
    return done.stdout.strip().lstrip("v") or "unknown"


def run(
    *,
    quick: bool = False,
    out: Callable[[str], None] = print,
    budget: Budget | None = None,
) -> dict[str, float]:
    """Measure, print human-readable lines then ``name: value`` lines; return the latter.

    Without ``node`` and ``npm`` on ``PATH`` prints why and returns no figures.
    """
    if budget is None:
        budget = QUICK_BUDGET if quick else DEFAULT_BUDGET
    tools = node_tools()
    if tools is None:
        out("peer benchmark skipped: node and npm are not installed")
        return {}
    node, npm = tools
    install_boardgame_io(npm, out)
    with servers(node, redis_executable()) as (running, workdir):
        figures = asyncio.run(_measure(node, running, workdir, budget, out))
    for name, value in figures.items():
        out(f"{name}: {value:.3f}")
    return figures
