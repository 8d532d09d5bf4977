"""Reliability soak: client and bot traffic through faults, counting what got lost.

Set-up: a private ``redis-server`` with an append-only file fsynced on every
write (never the machine's own Redis), and two Senet replicas, A and B, each a
``python -m senet.cli serve`` process with one embedded bot worker, on fixed
ports so that a restarted replica comes back where its clients look for it.

Traffic: ``players`` concurrent players, each with its own
:class:`~senet.client.client.SenetClient` over both replicas (half list A first,
half B), play match after match: CreateMatch and JoinMatch with their
idempotency keys, then the seat's actions, each with a request id, whenever the
match waits for the seat. Every other match seats a bot (played by the replicas'
bot workers) against the player; the others seat the player twice.

Two phases of ``phase_s`` each, with the same traffic: a calm one (the baseline),
then one with faults, ``fault_gap_s`` apart: replica A is SIGKILLed and started
again; Redis is SIGKILLed and started again from its append-only file; Redis
stalls for ``stall_s`` (``DEBUG SLEEP``). Then traffic stops and every match is
read back.

Figures (machine-readable lines, in this order), each printed beside the same
count of the calm phase:

``reliability.lost_actions``
    Actions a player was told were committed (a SubmitAction reply with a
    version) that the match no longer has at the end: the match's final version
    is below the acknowledged one. Must be 0.
``reliability.internal_errors``
    Calls that failed with INTERNAL or UNKNOWN, as the players' client library
    raised them after its retries. Must be 0: every fault is UNAVAILABLE at
    worst, and retried.

Everything the soak starts runs in its own process group and is stopped on the
way out, errors included.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import redis

from senet.client.client import SeatClient, SenetClient
from senet.client.errors import SenetRpcError
from senet.v1 import match_pb2
from tests.bench.service import (
    _SERVING,
    START_TIMEOUT_S,
    Child,
    _free_port,
    _wait_for_redis,
    redis_executable,
)

GAME_ID = "mykerinos"
#: Codes that mean the server broke, not the network or the store.
BROKEN = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)


@dataclass(frozen=True)
class Budget:
    """How long to soak.

    Attributes:
        players: Concurrent players (each its own client).
        phase_s: Length of the calm phase and of the fault phase.
        fault_gap_s: Time between faults (and before the first).
        stall_s: Length of the Redis stall.
        store_timeout_s: The replicas' store budget.
    """

    players: int
    phase_s: float
    fault_gap_s: float
    stall_s: int
    store_timeout_s: float = 2.0


# About 8 s set-up, 10 s calm, 3 x 5 s gaps + 10 s stall + 5 s after, 3 s checks: 50 s.
DEFAULT_BUDGET = Budget(players=12, phase_s=10.0, fault_gap_s=5.0, stall_s=10)
QUICK_BUDGET = Budget(players=6, phase_s=4.0, fault_gap_s=3.0, stall_s=4)
SMOKE_BUDGET = Budget(players=2, phase_s=1.0, fault_gap_s=1.0, stall_s=2, store_timeout_s=0.5)


@dataclass
class Tally:
    """What the players saw in one phase."""

    acked: dict[str, int] = field(default_factory=dict)  # match id -> highest acked version
    actions: int = 0
    internal: int = 0
    other_errors: int = 0
    matches: int = 0


# ------------------------------------------------------------------ processes
class Deployment:
    """Redis with an append-only file and two replicas on fixed ports."""

    def __init__(self, redis_server: str, workdir: Path, store_timeout_s: float) -> None:
        self.redis_server = redis_server
        self.workdir = workdir
        self.redis_port = _free_port()
        self.ports = [_free_port(), _free_port()]
        self.store_timeout_s = store_timeout_s
        self.redis: Child | None = None
        self.replicas: list[Child | None] = [None, None]
        self._starts = 0

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    @property
    def addresses(self) -> list[str]:
        return [f"127.0.0.1:{port}" for port in self.ports]

    def start_redis(self) -> None:
        self._starts += 1
        self.redis = Child(
            f"redis-{self._starts}",
            [
                self.redis_server, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                "--dir", str(self.workdir), "--daemonize", "no",
                "--enable-debug-command", "local",
            ],
            self.workdir,
        )  # fmt: skip
        _wait_for_redis(self.redis, self.redis_port)

    def start_replica(self, index: int) -> None:
        self._starts += 1
        argv = [sys.executable, "-m", "senet.cli", "serve", "--host", "127.0.0.1"]
        argv += ["--port", str(self.ports[index]), "--redis-url", self.redis_url]
        argv += ["--key-prefix", "soak", "--log-level", "WARNING", "--no-log-json"]
        argv += ["--embedded-bot-workers", "1", "--store-timeout-s", str(self.store_timeout_s)]
        child = Child(f"replica-{index}-{self._starts}", argv, self.workdir)
        self.replicas[index] = child
        child.wait_for_line(_SERVING, START_TIMEOUT_S)

    @staticmethod
    def kill(child: Child | None) -> None:
        if child is not None:
            child.proc.kill()  # SIGKILL: no drain, no goodbye
            child.proc.wait(timeout=5)

    def stop(self) -> None:
        for child in [*self.replicas, self.redis]:
            if child is not None:
                child.stop()


@contextlib.contextmanager
def deployment(redis_server: str, store_timeout_s: float) -> Iterator[Deployment]:
    with tempfile.TemporaryDirectory(prefix="senet-soak-") as tmp:
        running = Deployment(redis_server, Path(tmp), store_timeout_s)
        try:
            running.start_redis()
            for index in range(2):
                running.start_replica(index)
            yield running
        finally:
            running.stop()


# -------------------------------------------------------------------- traffic
async def _player(
    addresses: list[str], rng: random.Random, tally: Callable[[], Tally], stop: asyncio.Event
) -> None:
    """Play match after match until ``stop``; everything seen goes into ``tally()``."""
    async with SenetClient(addresses, timeout_s=5.0, max_attempts=40) as client:
        while not stop.is_set():
            try:
                await _play_one(client, rng, tally, stop)
            except SenetRpcError as error:
                if error.code in BROKEN:
                    tally().internal += 1
                else:
                    tally().other_errors += 1
                await asyncio.sleep(0.2)


async def _play_one(
    client: SenetClient, rng: random.Random, tally: Callable[[], Tally], stop: asyncio.Event
) -> None:
    with_bot = rng.random() < 0.5
    bots = ["random"] if with_bot else []
    match_id = await client.create_match(GAME_ID, 1 if with_bot else 2, bots=bots)
    tally().matches += 1
    seats: list[SeatClient] = [await client.join(match_id, "soak", seat=0)]
    if not with_bot:
        seats.append(await client.join(match_id, "soak", seat=1))
    while not stop.is_set():
        summary = (await client.get(match_id)).match
        if summary.status != match_pb2.MATCH_STATUS_ACTIVE:
            return
        waiting = summary.HasField("current_seat")
        mover = next((s for s in seats if waiting and s.seat == summary.current_seat), None)
        if mover is None:
            await asyncio.sleep(0.05)  # the bot's turn
            continue
        legal = await mover.legal_actions()
        if not legal.actions:
            await asyncio.sleep(0.05)
            continue
        choice = rng.choice(list(legal.actions)).notation
        try:
            reply = await mover.submit(
                choice, expected_version=legal.version, request_id=f"v{legal.version}"
            )
        except SenetRpcError as error:
            if error.reason in ("STALE_VERSION", "NOT_YOUR_TURN"):
                continue  # a bot or a clock moved first
            raise
        current = tally()
        current.actions += 1
        current.acked[match_id] = max(current.acked.get(match_id, 0), reply.version)


async def _lost(client: SenetClient, tally: Tally) -> int:
    """Acknowledged actions the matches no longer have."""
    lost = 0
    for match_id, acked in tally.acked.items():
        version = (await client.get(match_id)).match.version
        lost += max(0, acked - version)
    return lost


async def _soak(running: Deployment, budget: Budget, out: Callable[[str], None]) -> dict[str, int]:
    calm, faulty = Tally(), Tally()
    phase = [calm]
    stop = asyncio.Event()
    addresses = running.addresses
    players = [
        asyncio.create_task(
            _player(
                addresses if n % 2 == 0 else addresses[::-1],
                random.Random(n),
                lambda: phase[0],
                stop,
            )
        )
        for n in range(budget.players)
    ]
    try:
        await asyncio.sleep(budget.phase_s)
        phase[0] = faulty
        started = time.monotonic()
        await asyncio.sleep(budget.fault_gap_s)
        out("  fault: replica A SIGKILLed, started again")
        Deployment.kill(running.replicas[0])
        await asyncio.to_thread(running.start_replica, 0)
        await asyncio.sleep(budget.fault_gap_s)
        out("  fault: Redis SIGKILLed, started again from its append-only file")
        Deployment.kill(running.redis)
        await asyncio.to_thread(running.start_redis)
        await asyncio.sleep(budget.fault_gap_s)
        out(f"  fault: Redis stalled {budget.stall_s} s (DEBUG SLEEP)")
        with redis.Redis(port=running.redis_port, socket_timeout=budget.stall_s + 10) as raw:
            await asyncio.to_thread(raw.execute_command, "DEBUG", "SLEEP", budget.stall_s)
        await asyncio.sleep(max(budget.fault_gap_s, budget.phase_s - (time.monotonic() - started)))
    finally:
        stop.set()
        await asyncio.gather(*players, return_exceptions=True)
    async with SenetClient(addresses, timeout_s=5.0, max_attempts=20) as checker:
        lost = {"calm": await _lost(checker, calm), "faults": await _lost(checker, faulty)}
    for name, tally in (("calm", calm), ("faults", faulty)):
        out(
            f"  {name:6} {tally.matches:5d} matches, {tally.actions:6d} acknowledged actions, "
            f"{lost[name]} lost, {tally.internal} INTERNAL/UNKNOWN, "
            f"{tally.other_errors} other errors after retries"
        )
    return {
        "reliability.lost_actions": lost["faults"],
        "reliability.internal_errors": faulty.internal,
        "baseline.lost_actions": lost["calm"],
        "baseline.internal_errors": calm.internal,
    }


def run(
    *,
    quick: bool = False,
    out: Callable[[str], None] = print,
    budget: Budget | None = None,
) -> dict[str, float]:
    """Soak, print human-readable lines then ``name: value`` lines; return the latter.

    Without ``redis-server`` (``PATH`` or ``SENET_REDIS_SERVER``) prints why and
    returns no figures.
    """
    if budget is None:
        budget = QUICK_BUDGET if quick else DEFAULT_BUDGET
    executable = redis_executable()
    if executable is None:
        out("reliability soak skipped: redis-server is not installed")
        return {}
    out(
        f"reliability soak: {budget.players} players over 2 replicas, "
        f"{budget.phase_s:g} s calm (baseline), then faults every {budget.fault_gap_s:g} s"
    )
    with deployment(executable, budget.store_timeout_s) as running:
        counts = asyncio.run(_soak(running, budget, out))
    figures: dict[str, float] = {}
    for name in ("lost_actions", "internal_errors"):
        faults, calm = counts[f"reliability.{name}"], counts[f"baseline.{name}"]
        out(f"  {name}: {faults} with faults, beside {calm} in the calm baseline")
        figures[f"reliability.{name}"] = float(faults)
    for name, value in figures.items():
        out(f"{name}: {value:.0f}")
    return figures
