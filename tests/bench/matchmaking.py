"""Matchmaking benchmark: queued players on two replicas, one of them killed.

Set-up: a private ``redis-server`` and two Senet replicas (``python -m senet.cli
serve``, each its own process) with an HS256 identity secret, so this process
signs every player's identity token itself. Before the run, the players'
ratings are written into the store, spread like a real population (OpenSkill
mu drawn from a normal law around 25, sigma 3).

Load: ``players`` players arrive evenly over ``arrival_s``, each opening a
FindMatch stream on replica ``i mod 2``: 60 % ask for 4-player Mykerinos, 40 %
for 3-6-player Mare Nostrum; all rated, none filled with bots. At ``kill_at_s``
replica A is SIGKILLed: its players' streams break and they resume their tickets
by id on replica B (a stream broken before its first report queues again). The
run ends when every player is matched or ``patience_s`` after the last arrival.

Figures (machine-readable lines, in this order):

``matchmaking.time_to_match_p50_s``, ``matchmaking.time_to_match_p99_s``
    From a player's first FindMatch to its MATCHED report (target: p99 at most
    5 s for tickets that can be matched without bots).
``matchmaking.matched``, ``matchmaking.unmatched``
    Players matched, and players still queued at the end (the last few of a
    bucket, or too far in rating from everyone left).
``matchmaking.double_placed``
    Tickets placed in more than one match, by the players' reports and by the
    store's records of queued matches. Must be 0.
``matchmaking.lost_tickets``
    Tickets that vanished (a resume answered TICKET_NOT_FOUND) or ended with an
    error other than the replica's death. Must be 0.
``matchmaking.rating_spread``, ``matchmaking.rating_spread_random``
    Mean (max - min) of the ratings (mu) within a match, and the same for a
    random grouping of the same matched players into matches of the same sizes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import grpc
import jwt
import redis
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from senet.service.ratings import RatingValue
from senet.service.records import loads
from senet.v1 import player_service_pb2 as pb
from senet.v1 import player_service_pb2_grpc
from tests.bench.service import (
    _SERVING,
    START_TIMEOUT_S,
    Child,
    percentile,
    redis_executable,
    start_redis,
)

SECRET = "matchmaking-benchmark-secret-0123456789"
ISSUER = "bench"
PREFIX = "mm"
#: Codes a broken replica gives a stream (the player then resumes elsewhere).
_BROKEN = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN}


@dataclass(frozen=True)
class Budget:
    """How much load.

    Attributes:
        players: Players queued in all.
        arrival_s: Over how long they arrive.
        kill_at_s: When replica A is SIGKILLed (None: never).
        patience_s: How long after the last arrival the run waits for matches.
    """

    players: int
    arrival_s: float
    kill_at_s: float | None
    patience_s: float


DEFAULT_BUDGET = Budget(players=1000, arrival_s=10.0, kill_at_s=5.0, patience_s=20.0)
QUICK_BUDGET = Budget(players=200, arrival_s=3.0, kill_at_s=1.5, patience_s=10.0)
SMOKE_BUDGET = Budget(players=40, arrival_s=1.0, kill_at_s=0.5, patience_s=8.0)


@dataclass(frozen=True)
class Player:
    index: int
    game_id: str
    seats: tuple[int, int]
    mu: float

    @property
    def subject(self) -> str:
        return f"p{self.index}"


@dataclass
class Outcome:
    """What the players saw."""

    waits: dict[int, float] = field(default_factory=dict)
    match_of: dict[int, str] = field(default_factory=dict)
    tickets: dict[str, set[str]] = field(default_factory=dict)
    lost: int = 0
    errors: list[str] = field(default_factory=list)


def population(count: int, seed: int = 36) -> list[Player]:
    rng = random.Random(seed)
    players = []
    for index in range(count):
        mu = min(50.0, max(0.0, rng.gauss(25.0, 6.0)))
        if rng.random() < 0.6:
            players.append(Player(index, "mykerinos", (4, 4), mu))
        else:
            players.append(Player(index, "marenostrum", (3, 6), mu))
    return players


@contextlib.contextmanager
def replicas(executable: str) -> Iterator[tuple[list[str], list[Child], int]]:
    """Redis and two replicas; yields their addresses, the replicas' processes and
    Redis's port."""
    children: list[Child] = []
    with tempfile.TemporaryDirectory(prefix="senet-matchmaking-") as tmp:
        workdir = Path(tmp)
        try:
            redis_child, port = start_redis(executable, workdir)
            children.append(redis_child)
            serve = [sys.executable, "-m", "senet.cli", "serve", "--host", "127.0.0.1"]
            serve += ["--port", "0", "--redis-url", f"redis://127.0.0.1:{port}/0"]
            serve += ["--key-prefix", PREFIX, "--log-level", "WARNING", "--no-log-json"]
            serve += ["--embedded-bot-workers", "0"]  # the server's work alone
            serve += ["--identity-secret", SECRET, "--identity-issuer", ISSUER]
            # Every player comes from this one host: per-client quotas off.
            serve += ["--client-calls-per-s", "0", "--client-streams", "0"]
            for name in ("a", "b"):
                children.append(Child(f"replica-{name}", serve, workdir))
            addresses = [
                "{}:{}".format(*child.wait_for_line(_SERVING, START_TIMEOUT_S).groups())
                for child in children[1:]
            ]
            yield addresses, children[1:], port
        finally:
            for child in reversed(children):
                child.stop()


def seed_ratings(port: int, players: list[Player]) -> None:
    with redis.Redis(port=port, decode_responses=True) as client:
        for player in players:
            doc = RatingValue(player.mu, 3.0, 10).to_json()
            client.hset(f"{PREFIX}:{{players}}:rating:{player.game_id}", player.subject, doc)


def token(player: Player) -> str:
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": "senet", "sub": player.subject, "exp": now + 3600}
    return jwt.encode({**claims, "name": f"P{player.index}"}, SECRET, algorithm="HS256")


async def _play(
    player: Player,
    start: float,
    budget: Budget,
    stubs: list[player_service_pb2_grpc.PlayerServiceAsyncStub],
    dead: list[bool],
    outcome: Outcome,
) -> None:
    arrive = start + player.index * budget.arrival_s / budget.players
    await asyncio.sleep(max(0.0, arrive - time.monotonic()))
    md = (("x-senet-identity", token(player)),)
    spec = pb.TicketSpec(
        game_id=player.game_id,
        min_seats=player.seats[0],
        max_seats=player.seats[1],
        mode=pb.MATCH_MODE_RATED,
        bot_fill_never=True,
    )
    home = player.index % 2
    ticket_id = ""
    began = time.monotonic()
    for attempt in range(20):
        target = home if not dead[home] else 1 - home
        call = stubs[target].FindMatch(
            pb.FindMatchRequest(ticket=spec, ticket_id=ticket_id), metadata=md
        )
        try:
            async for report in call:
                ticket_id = report.ticket_id
                if report.stage == pb.TICKET_STAGE_MATCHED:
                    outcome.waits[player.index] = time.monotonic() - began
                    outcome.match_of[player.index] = report.match_id
                    outcome.tickets.setdefault(ticket_id, set()).add(report.match_id)
                    return
            return
        except grpc.aio.AioRpcError as exc:
            if exc.code() in _BROKEN:
                dead[target] = dead[target] or budget.kill_at_s is not None
                await asyncio.sleep(0.05 * (attempt + 1))
                continue
            facts = _error_facts(exc)
            if facts.get("reason") == "ALREADY_QUEUED" and not ticket_id:
                # A stream broken before its first report had queued the ticket.
                ticket_id = facts.get("ticketId", "")
                continue
            outcome.errors.append(f"{exc.code().name}: {exc.details()}")
            outcome.lost += 1
            return
        finally:
            call.cancel()
    outcome.errors.append("gave up after 20 broken streams")
    outcome.lost += 1


def _error_facts(exc: grpc.aio.AioRpcError) -> dict[str, str]:
    """The ErrorInfo of a failed call: its metadata, and its reason as "reason"."""
    status = rpc_status.from_call(cast(grpc.Call, exc))
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return {**info.metadata, "reason": info.reason}
    return {}


async def _load(
    addresses: list[str], children: list[Child], players: list[Player], budget: Budget
) -> Outcome:
    outcome = Outcome()
    channels = [grpc.aio.insecure_channel(a) for a in addresses]
    stubs = [player_service_pb2_grpc.PlayerServiceStub(c) for c in channels]
    dead = [False, False]
    start = time.monotonic() + 0.5

    async def kill() -> None:
        if budget.kill_at_s is None:
            return
        await asyncio.sleep(max(0.0, start + budget.kill_at_s - time.monotonic()))
        with contextlib.suppress(ProcessLookupError):
            os.killpg(children[0].proc.pid, signal.SIGKILL)
        dead[0] = True

    tasks = [asyncio.create_task(_play(p, start, budget, stubs, dead, outcome)) for p in players]
    killer = asyncio.create_task(kill())
    deadline = budget.arrival_s + budget.patience_s + 0.5
    await asyncio.wait(tasks, timeout=deadline)
    for task in tasks:
        task.cancel()  # still queued: the player gives up (closing cancels its ticket)
    await asyncio.gather(*tasks, killer, return_exceptions=True)
    for channel in channels:
        await channel.close(None)
    return outcome


def _stored_double_placements(port: int) -> int:
    """Tickets named by more than one of the store's queued-match records."""
    seen: dict[str, int] = {}
    with redis.Redis(port=port, decode_responses=True) as client:
        for doc in client.hgetall(f"{PREFIX}:{{players}}:matches").values():
            for seat in loads(doc)["seats"]:
                if seat["ticket_id"]:
                    seen[seat["ticket_id"]] = seen.get(seat["ticket_id"], 0) + 1
    return sum(1 for count in seen.values() if count > 1)


def _spreads(players: list[Player], outcome: Outcome, rng: random.Random) -> tuple[float, float]:
    """Mean rating spread within the matches, and within a random grouping of the
    same players into matches of the same sizes (per game)."""
    by_match: dict[str, list[Player]] = {}
    for index, match_id in outcome.match_of.items():
        by_match.setdefault(match_id, []).append(players[index])
    groups = list(by_match.values())
    if not groups:
        return 0.0, 0.0
    actual = statistics.mean(max(p.mu for p in g) - min(p.mu for p in g) for g in groups)
    shuffled: list[float] = []
    for game in {g[0].game_id for g in groups}:
        of_game = [g for g in groups if g[0].game_id == game]
        pool = [p for g in of_game for p in g]
        rng.shuffle(pool)
        for g in of_game:
            part, pool = pool[: len(g)], pool[len(g) :]
            shuffled.append(max(p.mu for p in part) - min(p.mu for p in part))
    return actual, statistics.mean(shuffled)


def run(
    *, quick: bool = False, out: Callable[[str], None] = print, budget: Budget | None = None
) -> dict[str, float]:
    """Measure, print human-readable lines then ``name: value`` lines; return the latter."""
    if budget is None:
        budget = QUICK_BUDGET if quick else DEFAULT_BUDGET
    executable = redis_executable()
    if executable is None:
        out("matchmaking benchmark skipped: redis-server is not installed")
        return {}
    players = population(budget.players)
    with replicas(executable) as (addresses, children, port):
        seed_ratings(port, players)
        outcome = asyncio.run(_load(addresses, children, players, budget))
        stored_doubles = _stored_double_placements(port)
    waits = sorted(outcome.waits.values())
    reported_doubles = sum(1 for matches in outcome.tickets.values() if len(matches) > 1)
    spread, spread_random = _spreads(players, outcome, random.Random(7))
    kill = f"replica A SIGKILLed at {budget.kill_at_s:g} s" if budget.kill_at_s else "no kill"
    out(
        f"matchmaking benchmark: {budget.players} players (60 % 4-player Mykerinos, 40 % "
        f"3-6-player Mare Nostrum, rated, no bots) arriving over {budget.arrival_s:g} s on two "
        f"replicas and a private redis-server; {kill}"
    )
    for line in outcome.errors[:5]:
        out(f"  error: {line}")
    figures = {
        "matchmaking.time_to_match_p50_s": percentile(waits, 50) if waits else 0.0,
        "matchmaking.time_to_match_p99_s": percentile(waits, 99) if waits else 0.0,
        "matchmaking.matched": float(len(waits)),
        "matchmaking.unmatched": float(budget.players - len(waits) - outcome.lost),
        "matchmaking.double_placed": float(reported_doubles + stored_doubles),
        "matchmaking.lost_tickets": float(outcome.lost),
        "matchmaking.rating_spread": spread,
        "matchmaking.rating_spread_random": spread_random,
    }
    for name, value in figures.items():
        shown = f"{value:.0f}" if value == int(value) and "spread" not in name else f"{value:.3f}"
        out(f"{name}: {shown}")
    return figures
