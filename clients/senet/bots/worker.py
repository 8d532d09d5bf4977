"""Bot workers: play the bot decisions of a server (``senet bots``), or one seat (``senet bot``).

A worker leases *decisions* from the server's BotService: a decision is one bot
seat that must act now. It plays one action per decision and releases it, so
its capacity bounds the decisions in flight, not the matches it follows; a match
waiting for a human costs it nothing. While deciding it renews its leases every
third of the lease, so a live worker never loses one. Workers share the load and
never act for one seat at once: the queue leases a decision to one worker, and
each hand-out mints a new token, which revokes the previous holder's. A worker
that dies stops renewing; once its leases expire another worker acquires the
decisions and the match goes on. A decision whose lease is lost stops at once.

Decisions rebuild the forward model from the seat's own view (``GetMatch``), so a
bot sees only what its seat may see.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import logging
import os
import signal
import sys
import time
import uuid
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any

from senet.bots.base import (
    STRATEGY_NAMES,
    Strategy,
    StrategySpec,
    UnknownStrategy,
    make_strategy,
    state_from_proto_view,
)
from senet.client.client import (
    BotClient,
    SeatClient,
    SenetClient,
    decision_ref,
    describe_error,
)
from senet.client.errors import SenetRpcError
from senet.client.turns import decides_at
from senet.codec import options_from_proto
from senet.games import get_game
from senet.games.errors import UnknownGameError
from senet.games.interface import OptionValue
from senet.v1 import bot_service_pb2, games_pb2, match_pb2, match_service_pb2

log = logging.getLogger("senet.bots")
SeatKey = tuple[str, int]


#: What ``senet bots`` says a refused worker needs.
CREDENTIALS = (
    "Give it the server's worker key (--worker-key or SENET_WORKER_KEY) or its admin key "
    "(--admin-key or SENET_ADMIN_KEY)."
)


def rules_differences(games: Sequence[games_pb2.GameInfo]) -> list[str]:
    """A sentence for each game the server plays under another version of its rules
    than this worker's rules core: the worker's forward model, rebuilt from the
    seat's view, would misjudge its positions (a rolling upgrade half done, or a
    worker of another release)."""
    found = []
    for info in games:
        try:
            local = get_game(info.id).info
        except UnknownGameError:
            continue
        if info.rules_version and info.rules_version != local.rules_version:
            found.append(
                f"the server plays {local.name} rules version {info.rules_version}, and this "
                f"worker's rules core version {local.rules_version}: its {info.id} decisions "
                "may be refused until both run the same release"
            )
    return found


class WorkerRefused(Exception):
    """The server refuses the worker's credential (no key, a wrong one, a revoked bot
    key): asking again cannot help, so :meth:`BotWorker.run` stops with this."""


def seat_seed(match_id: str, seat: int) -> int:
    """A strategy seed fixed by (match, seat): a taken-over seat keeps its character."""
    digest = hashlib.sha256(f"{match_id}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


async def position_at(
    seat_client: SeatClient, turn: match_service_pb2.YourTurn
) -> tuple[match_service_pb2.GetMatchResponse, Mapping[str, OptionValue]] | None:
    """The seat's view and the match options at the prompt's version.

    None when the match moved on meanwhile: the server prompts again if it is still
    this seat's turn, so a bot never decides on a stale position.
    """
    got = await seat_client.get()
    if not decides_at(got.match, seat_client.seat, turn.version):
        return None
    return got, options_from_proto(got.match.options)


async def play_seat(
    client: SenetClient,
    match_id: str,
    seat: int,
    token: str,
    strategy_name: str,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> match_service_pb2.PlayMatchResponse | None:
    """Play one seat until its match ends; returns the last update (as SeatClient.play).

    Raises the client's error when the token is refused (the seat was handed over).
    """
    seat_client: SeatClient = client.seat(match_id, seat, token)
    seed = seat_seed(match_id, seat)
    strategy = make_strategy(strategy_name, seed=seed, iterations=iterations, seconds=seconds)

    async def decide(turn: match_service_pb2.YourTurn) -> str | match_pb2.Action | None:
        position = await position_at(seat_client, turn)
        if position is None:
            return None
        got, options = position
        state = state_from_proto_view(
            got.match.game_id, got.view, seat=seat, seed=seed ^ turn.version, options=options
        )
        if seat not in state.deciding_seats():
            return None
        # Searching strategies are CPU-bound: off the loop, so lease renewals keep going.
        action = await asyncio.to_thread(strategy.choose, state, seat)
        return action.notation()

    return await seat_client.play(decide)


class BotWorker:
    """Leases bot decisions and plays them until stopped.

    Args:
        target: ``host:port`` of a server (or load balancer).
        admin_key: Sent as ``x-senet-admin-key`` (required when the server has one).
        worker_key: Sent as ``x-senet-worker-key``: the server's worker key (needed
            unless the admin key is given).
        capacity: Most decisions worked on at once.
        lease_ms: Lease length; renewed every third of it while deciding.
        wait_ms: How long one acquire waits on the server for a decision.
        worker_id: Stable id; random by default.
        tls_ca: PEM file of the CA that signed the server certificate; enables TLS.
        check_rules: Ask the server at start which games it plays under other
            rules than this worker's core, and log them; a worker inside the
            server's own process shares its rules core and skips it.
    """

    def __init__(
        self,
        target: str,
        *,
        admin_key: str = "",
        worker_key: str = "",
        capacity: int = 8,
        lease_ms: int = 5000,
        wait_ms: int = 1000,
        seconds: float | None = None,
        iterations: int | None = None,
        worker_id: str | None = None,
        tls_ca: str | None = None,
        check_rules: bool = True,
    ) -> None:
        self.target = target
        self.check_rules = check_rules
        self.tls_ca = tls_ca
        self.admin_key = admin_key
        self.worker_key = worker_key
        self.capacity = capacity
        self.lease_ms = lease_ms
        self.wait_ms = wait_ms
        self.seconds = seconds
        self.iterations = iterations
        self.worker_id = worker_id or "w-" + uuid.uuid4().hex[:12]
        #: The decisions being worked on, by seat.
        self.playing: dict[SeatKey, asyncio.Task[None]] = {}
        self._leased: dict[SeatKey, bot_service_pb2.BotDecision] = {}
        #: Every seat this worker ever leased a decision of (tests check for overlaps).
        self.acquired: list[SeatKey] = []
        #: The latest token minted for each seat leased (tests check revocation).
        self.tokens: dict[SeatKey, str] = {}
        #: Actions this worker committed.
        self.moves = 0
        self._slot_freed = asyncio.Event()
        #: When each (strategy, error) this worker cannot play was last logged.
        self._told: dict[tuple[str, str], float] = {}

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Acquire and play decisions until ``stop`` is set (leases in flight are
        left to expire). Cancelling this task stops every decision at once, as a
        crash would.

        Raises:
            WorkerRefused: the server refuses the worker's credential. Other failed
                calls (a server away, a store outage) are retried.
        """
        stop = stop or asyncio.Event()
        client = self.make_client()
        if self.check_rules:
            await self._warn_of_rules(client)
        bots = BotClient(client, self.worker_id)
        renewer = asyncio.create_task(self._renew_forever(bots, stop))
        try:
            while not stop.is_set():
                free = self.capacity - len(self.playing)
                if free <= 0:
                    self._slot_freed.clear()
                    await _first(self._slot_freed.wait(), stop.wait())
                    continue
                try:
                    got = await bots.acquire(free, self.lease_ms, self.wait_ms)
                except SenetRpcError as exc:
                    if exc.refused:  # no key, a wrong one or a revoked bot key: for good
                        raise WorkerRefused(describe_error(exc)) from exc
                    log.warning("bot service call failed: %s", describe_error(exc))
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), self.lease_ms / 3000)
                    continue
                for decision in got:
                    self._start(client, bots, decision)
        finally:
            renewer.cancel()
            for task in self.playing.values():
                task.cancel()
            await asyncio.gather(renewer, *self.playing.values(), return_exceptions=True)
            self.playing.clear()
            await client.close()

    async def _warn_of_rules(self, client: SenetClient) -> None:
        """Log each game whose rules the server plays in another version than this
        worker (nothing when the server cannot be asked now: the loop retries it)."""
        try:
            games = await client.list_games()
        except SenetRpcError:
            return
        for sentence in rules_differences(games):
            log.warning("%s", sentence)

    def make_client(self) -> SenetClient:
        """The client the worker calls the server with (a hosted bot's adds its key)."""
        return SenetClient(
            self.target, admin_key=self.admin_key, worker_key=self.worker_key, tls_ca=self.tls_ca
        )

    def _start(
        self, client: SenetClient, bots: BotClient, decision: bot_service_pb2.BotDecision
    ) -> None:
        key = (decision.match_id, decision.seat)
        self.acquired.append(key)
        self.tokens[key] = decision.token
        old = self.playing.pop(key, None)
        if old is not None:
            old.cancel()  # our own expired lease, re-acquired: the old token is dead
        self._leased[key] = decision
        self.playing[key] = asyncio.create_task(self._play(client, bots, decision))

    async def _renew_forever(self, bots: BotClient, stop: asyncio.Event) -> None:
        """Every third of a lease, renew the leases in flight; stop the lost ones."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.lease_ms / 3000)
            leased = {k: d for k, d in self._leased.items() if k in self.playing}
            if not leased:
                continue
            try:
                held = await bots.renew([decision_ref(d) for d in leased.values()], self.lease_ms)
            except SenetRpcError as exc:
                log.warning("bot service call failed: %s", describe_error(exc))
                continue
            kept = {(r.match_id, r.seat, r.version) for r in held}
            for key, d in leased.items():
                lost = (d.match_id, d.seat, d.version) not in kept
                if lost and key in self.playing and self._leased.get(key) is d:
                    log.info("lost the lease of %s seat %d", *key)
                    self.playing.pop(key).cancel()
                    self._slot_freed.set()

    async def _play(
        self, client: SenetClient, bots: BotClient, decision: bot_service_pb2.BotDecision
    ) -> None:
        """Decide and submit one action; release the decision once it is done with."""
        key = (decision.match_id, decision.seat)
        done = True
        try:
            notation = await self.decide(client, decision)
            if notation is not None:
                seat_client = client.seat(decision.match_id, decision.seat, decision.token)
                await seat_client.submit(
                    notation,
                    expected_version=decision.version,
                    # Fixed by (seat, version): a taken-over decision that did commit
                    # is answered with the original outcome, never applied twice.
                    request_id=f"bot-{decision.seat}-{decision.version}",
                )
                self.moves += 1
        except asyncio.CancelledError:
            raise
        except SenetRpcError as exc:  # a refused token, a vanished match
            log.info(
                "gave up %s seat %d: %s", decision.match_id, decision.seat, describe_error(exc)
            )
            # The match moved on: nothing left to decide. Anything else (the lease
            # was lost, the server is away): the lease expires and it is retried.
            done = exc.reason in _MOVED_ON
        except Exception as exc:  # the strategy cannot be built here, or it failed
            self._cannot_play(decision, exc)
            done = False  # left to its lease: a worker that can play it takes it
        if self.playing.get(key) is asyncio.current_task():
            del self.playing[key]
            self._slot_freed.set()
        if done:
            with contextlib.suppress(SenetRpcError):
                await bots.release([decision_ref(decision)])

    def _cannot_play(self, decision: bot_service_pb2.BotDecision, exc: Exception) -> None:
        """Say, as a warning, that this worker cannot play a strategy: nothing else
        would, and without a clock the seat's match waits for a worker that can.
        The first time with the traceback (a strategy that raises), then at most
        once a minute per strategy and error."""
        told = (decision.strategy, f"{type(exc).__name__}: {exc}")
        now = time.monotonic()
        last = self._told.get(told)
        if last is not None and now - last < _RETELL_S:
            return
        self._told[told] = now
        log.warning(
            "cannot play strategy %r (match %s seat %d): %s. The decision waits for "
            "a worker that can play it: a strategy another package publishes must "
            "be installed where `senet bots` runs, as on the server.",
            decision.strategy,
            decision.match_id,
            decision.seat,
            told[1],
            exc_info=last is None and not isinstance(exc, UnknownStrategy),
        )

    def strategy_for(self, decision: bot_service_pb2.BotDecision, seed: int) -> Strategy:
        """The strategy that takes ``decision``: the one its seat names, at this
        worker's budget."""
        return make_strategy(
            decision.strategy, seed=seed, iterations=self.iterations, seconds=self.seconds
        )

    async def decide(
        self, client: SenetClient, decision: bot_service_pb2.BotDecision
    ) -> str | match_pb2.Action | None:
        """The action for ``decision``; None when the match is no longer there.

        The forward model is rebuilt from the seat's own view, so the bot sees only
        what its seat may see; the strategy is seeded from (match, seat, version),
        so a decision taken over by another worker is decided the same way.
        """
        seat_client = client.seat(decision.match_id, decision.seat, decision.token)
        got = await seat_client.get()
        if not decides_at(got.match, decision.seat, decision.version):
            return None
        seed = seat_seed(decision.match_id, decision.seat) ^ decision.version
        state = state_from_proto_view(
            got.match.game_id,
            got.view,
            seat=decision.seat,
            seed=seed,
            options=options_from_proto(got.match.options),
        )
        if decision.seat not in state.deciding_seats():
            return None
        strategy = self.strategy_for(decision, seed)
        # Searching strategies are CPU-bound: off the loop, so lease renewals keep going.
        action = await asyncio.to_thread(strategy.choose, state, decision.seat)
        return action.notation()


#: Reasons that mean a decision's moment has passed: release it.
#: How often the same strategy's failure is logged again.
_RETELL_S = 60.0
_MOVED_ON = frozenset({"STALE_VERSION", "NOT_YOUR_TURN", "GAME_OVER", "MATCH_NOT_FOUND"})


async def _first(*waits: Coroutine[Any, Any, Any]) -> None:
    """Wait until the first of ``waits`` finishes; cancel the others."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


# ------------------------------------------------------------------ command line
def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``senet bots``.

    Server address, admin key and CA also come from ``SENET_SERVER``,
    ``SENET_ADMIN_KEY`` and ``SENET_TLS_CA``, so that a container passes the key
    as a secret in its environment rather than on a command line anyone can list.
    """
    env = os.environ
    parser.add_argument(
        "--server",
        default=env.get("SENET_SERVER", "localhost:50051"),
        help="the servers: host:port, dns:///name:port or ipv4:a:port,b:port "
        "(default: localhost:50051; env SENET_SERVER)",
    )
    parser.add_argument(
        "--admin-key", default=env.get("SENET_ADMIN_KEY", ""), help="the server's admin key"
    )
    parser.add_argument(
        "--worker-key",
        default=env.get("SENET_WORKER_KEY", ""),
        help="the server's worker key (not needed with the admin key)",
    )
    parser.add_argument(
        "--tls-ca",
        default=env.get("SENET_TLS_CA") or None,
        help="PEM file of the server's CA (enables TLS)",
    )
    parser.add_argument("--capacity", type=int, default=8, help="most decisions at once")
    parser.add_argument("--lease-ms", type=int, default=5000, help="decision lease length")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="search time per move")
    budget.add_argument("--iterations", type=int, default=None, help="search iterations")
    parser.add_argument(
        "--log-level",
        default=env.get("SENET_LOG_LEVEL", "INFO"),
        help="Python logging level (default: INFO; env SENET_LOG_LEVEL)",
    )
    parser.add_argument(
        "--log-json",
        action=argparse.BooleanOptionalAction,
        default=env.get("SENET_LOG_JSON", "true").strip().lower() in ("1", "true", "yes", "on"),
        help="one JSON object per log line, as the server logs (default: true; env SENET_LOG_JSON)",
    )


def add_seat_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``senet bot``."""
    parser.add_argument("--server", default="localhost:50051", help="host:port")
    parser.add_argument("--match", required=True, help="match id")
    parser.add_argument("--seat", type=int, required=True, help="seat number")
    parser.add_argument("--token", required=True, help="the seat's token")
    parser.add_argument(
        "--strategy",
        default="greedy",
        help=f"the strategy that plays the seat: {', '.join(STRATEGY_NAMES)} "
        "(built in, or published in senet.bot_strategies where this runs), with an "
        "optional budget: mcts@0.5s, mcts@400i",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="search time per move")
    budget.add_argument("--iterations", type=int, default=None, help="search iterations")


async def run_until_signalled(workers: Sequence[BotWorker], started: str = "") -> None:
    """Run ``workers`` until SIGTERM or SIGINT stops them all (decisions in flight
    are left to their leases); print ``started`` once either signal would stop
    them cleanly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if started:
        print(started)
    await asyncio.gather(*(worker.run(stop) for worker in workers))


def run_worker(args: argparse.Namespace) -> int:
    """``senet bots``: run a worker until SIGTERM or SIGINT.

    Either signal stops the worker: decisions in flight are cancelled and their
    leases left to expire, so other workers take them over (an orchestrator
    stops containers with SIGTERM, and would otherwise kill the worker mid-write).
    """
    worker = BotWorker(
        args.server,
        admin_key=args.admin_key,
        worker_key=args.worker_key,
        capacity=args.capacity,
        lease_ms=args.lease_ms,
        seconds=args.seconds,
        iterations=args.iterations,
        tls_ca=args.tls_ca,
    )

    try:
        asyncio.run(
            run_until_signalled(
                [worker],
                f"senet bots: playing the bot seats of {args.server} with "
                f"{', '.join(STRATEGY_NAMES)} (Ctrl+C stops)",
            )
        )
    except WorkerRefused as exc:
        print(f"senet bots: the server refuses this worker ({exc}). {CREDENTIALS}", file=sys.stderr)
        return 2
    return 0


def run_seat(args: argparse.Namespace) -> int:
    """``senet bot``: play one seat to the end of its match; a failed call (no such
    match, a wrong token) ends it with the server's reason and status 2."""

    try:
        spec = StrategySpec.parse(args.strategy, seconds=args.seconds, iterations=args.iterations)
    except ValueError as exc:
        print(f"senet bot: {exc}", file=sys.stderr)
        return 2

    async def main() -> None:
        async with SenetClient(args.server) as client:
            await play_seat(
                client,
                args.match,
                args.seat,
                args.token,
                spec.strategy,
                seconds=spec.seconds,
                iterations=spec.iterations,
            )

    try:
        asyncio.run(main())
    except SenetRpcError as exc:
        print(f"senet bot: {describe_error(exc)}", file=sys.stderr)
        return 2
    return 0
