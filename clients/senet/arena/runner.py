"""Run a tournament through a server: create all-bot matches, let workers play, watch.

Each match is created with every seat a bot seat; seat ``s`` of match ``i`` gets
player ``(s + i) % n`` of the line-up, so over a multiple of ``n`` matches every
entrant plays every seat equally. The arena runs its own bot workers
(:class:`ArenaWorker`, the stock :class:`~senet.bots.worker.BotWorker` with the
seat-playing step swapped) so that budget suffixes and arena-derived bot seeds
apply; with ``external_workers`` it leaves the seats to whatever ``senet bots``
workers serve the server, and then budgets and bot seeds are theirs.

The end of a match is awaited on its WatchMatch stream (never by polling); the
final scores, places and seed then come from one ExportMatch call.

Reproducibility: match seeds and bot seeds derive from the arena seed, so with
iteration budgets (or random/greedy only) the same seed replays the same
tournament; with time budgets the clock decides how far each search gets, so
results vary from run to run and with machine load.

Without a server address the arena starts its own through the ``start_server``
factory it is given (``senet arena --server embedded``: the command line passes an
in-process server); the arena itself never imports the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field, replace

from senet.arena.players import PlayerSpec, decide_arena, derive_seed
from senet.arena.stats import MatchResult
from senet.bots.worker import BotWorker, WorkerRefused
from senet.client.client import SenetClient
from senet.games import get_game
from senet.v1 import bot_service_pb2, match_pb2

#: Short leases: a decision whose worker died is taken over quickly.
ARENA_LEASE_MS = 1200
#: Decisions a single arena worker works on at once.
SEATS_PER_WORKER = 16

#: Starts a server for one tournament, given the worker key its BotService must
#: let in (and no one else): entering yields its address (``host:port``), leaving
#: stops it.
ServerFactory = Callable[[str], contextlib.AbstractAsyncContextManager[str]]


@dataclass(frozen=True)
class ArenaConfig:
    """What ``senet arena`` was asked for."""

    game: str
    players: Sequence[PlayerSpec]
    matches: int
    parallel: int = 4
    seed: int | None = None
    server: str | None = None
    admin_key: str = ""
    #: The server's bot-worker key (x-senet-worker-key), unless admin_key is given.
    worker_key: str = ""
    external_workers: bool = False
    #: Decision processes; None: min(parallel, CPUs); 0: decide in threads.
    processes: int | None = None
    #: Per-move limit in ms, as the matches' turn clocks (TimeControl.decision_ms):
    #: the server plays the move of a bot that is late. None: no clocks.
    move_limit_ms: int | None = None
    #: Game options of every match (e.g. a variant, or a shorter game).
    options: Mapping[str, bool | int | str] = field(default_factory=dict)


def match_options(config: ArenaConfig) -> dict[str, bool | int | str]:
    """The options of every match: the game's bounded-match options (a tournament
    needs every match to end) under the ones the configuration asks for."""
    bounded = dict(get_game(config.game).info.bounded_match_options)
    return {**bounded, **config.options}


@dataclass
class ArenaRun:
    """Results of a tournament (matches in creation order)."""

    config: ArenaConfig
    seed: int
    results: list[MatchResult] = field(default_factory=list)


@dataclass(frozen=True)
class SeatPlan:
    """What an arena worker needs to play one seat."""

    spec: PlayerSpec
    seed: int


class Registry:
    """Which spec and seed play each seat of the arena's matches.

    A worker may lease a decision before ``CreateMatch`` has even returned its id
    to the arena (an all-bot match's first decision is queued with it), so lookups wait while
    any creation is in flight; a match unknown once none is in flight belongs to
    someone else on a shared server.
    """

    def __init__(self) -> None:
        self.plans: dict[str, list[SeatPlan]] = {}
        self.creating = 0
        self.changed = asyncio.Condition()

    @contextlib.asynccontextmanager
    async def creation(self) -> AsyncIterator[None]:
        async with self.changed:
            self.creating += 1
        try:
            yield
        finally:
            async with self.changed:
                self.creating -= 1
                self.changed.notify_all()

    async def register(self, match_id: str, plans: list[SeatPlan]) -> None:
        async with self.changed:
            self.plans[match_id] = plans
            self.changed.notify_all()

    async def lookup(self, match_id: str, seat: int) -> SeatPlan | None:
        async with self.changed:
            await self.changed.wait_for(lambda: match_id in self.plans or self.creating == 0)
            plans = self.plans.get(match_id)
        return plans[seat] if plans is not None else None


class ArenaWorker(BotWorker):
    """A bot worker that plays the arena's seats with their specs and derived seeds."""

    def __init__(
        self, target: str, registry: Registry, executor: Executor | None, **kwargs: object
    ) -> None:
        super().__init__(target, **kwargs)  # type: ignore[arg-type]
        self.registry = registry
        self.executor = executor

    async def decide(
        self, client: SenetClient, decision: bot_service_pb2.BotDecision
    ) -> str | match_pb2.Action | None:
        plan = await self.registry.lookup(decision.match_id, decision.seat)
        if plan is None:  # not ours: play it as any worker would
            return await super().decide(client, decision)
        return await decide_arena(client, decision, plan.spec, plan.seed, self.executor)


def rotation(players: Sequence[PlayerSpec], index: int) -> list[PlayerSpec]:
    """The line-up of match ``index``: seat ``s`` gets player ``(s + index) % n``."""
    n = len(players)
    return [players[(s + index) % n] for s in range(n)]


def _executor(config: ArenaConfig) -> Executor | None:
    count = config.processes
    if count is None:
        count = min(config.parallel, os.cpu_count() or 1)
    if count <= 0:
        return None  # the loop's default thread pool
    # spawn, not fork: the parent already runs gRPC threads, which fork would break.
    return ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"))


async def run_arena(
    config: ArenaConfig,
    on_done: Callable[[MatchResult], None] | None = None,
    *,
    start_server: ServerFactory | None = None,
    on_action: Callable[[int], None] | None = None,
) -> ArenaRun:
    """Play ``config.matches`` matches, at most ``config.parallel`` at once.

    ``on_done`` is called as each match finishes, ``on_action`` (with the match's
    index) as each action is committed in any match: progress bars move while
    matches that all end together are still being played. ``start_server``
    provides the server when ``config.server`` is None.
    """
    if len(config.players) < 2:
        raise ValueError("an arena needs at least two players")
    if config.matches < 1 or config.parallel < 1:
        raise ValueError("matches and parallel must be at least 1")
    if config.move_limit_ms is not None and config.move_limit_ms < 1:
        raise ValueError("the move limit must be at least 1 ms")
    seed = config.seed if config.seed is not None else secrets.randbits(63)
    run = ArenaRun(config, seed)
    #: Workers the server refused (see ``work`` below).
    refused: list[WorkerRefused] = []
    async with contextlib.AsyncExitStack() as stack:
        if config.server is not None:
            target = config.server
        elif start_server is not None:
            # The server started here lets in only this tournament's workers.
            if not config.worker_key and not config.admin_key:
                config = replace(config, worker_key=secrets.token_urlsafe(32))
            target = await stack.enter_async_context(start_server(config.worker_key))
        else:
            raise ValueError("no server to play on: give an address or a server to start")
        registry = Registry()
        if not config.external_workers:
            executor = _executor(config)
            if executor is not None:
                stack.callback(executor.shutdown, cancel_futures=True)
            seats = config.parallel * len(config.players)
            stop = asyncio.Event()
            arena = asyncio.current_task()

            async def work(worker: ArenaWorker) -> None:
                # A refused worker never plays: the matches would wait for good.
                try:
                    await worker.run(stop)
                except WorkerRefused as exc:
                    refused.append(exc)
                    if arena is not None:
                        arena.cancel()

            tasks = [
                asyncio.create_task(
                    work(
                        ArenaWorker(
                            target,
                            registry,
                            executor,
                            admin_key=config.admin_key,
                            worker_key=config.worker_key,
                            capacity=min(SEATS_PER_WORKER, seats - start),
                            lease_ms=ARENA_LEASE_MS,
                        )
                    )
                )
                for start in range(0, seats, SEATS_PER_WORKER)
            ]

            async def stop_workers() -> None:
                stop.set()
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

            stack.push_async_callback(stop_workers)
        results: list[MatchResult | None] = [None] * config.matches
        try:
            client = await stack.enter_async_context(
                SenetClient(target, admin_key=config.admin_key)
            )
            slots = asyncio.Semaphore(config.parallel)

            async def one(index: int) -> None:
                async with slots:
                    result = await _play_match(client, registry, config, seed, index, on_action)
                results[index] = result
                if on_done is not None:
                    on_done(result)

            await asyncio.gather(*(one(i) for i in range(config.matches)))
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not refused or current is None:
                raise
            current.uncancel()  # the cancel was a refused worker's, answered here
            raise refused[0] from None
        run.results = [r for r in results if r is not None]
    return run


async def _play_match(
    client: SenetClient,
    registry: Registry,
    config: ArenaConfig,
    seed: int,
    index: int,
    on_action: Callable[[int], None] | None = None,
) -> MatchResult:
    lineup = rotation(config.players, index)
    match_seed = derive_seed(seed, "match", index)
    async with registry.creation():
        clocks = (
            None
            if config.move_limit_ms is None
            else match_pb2.TimeControl(decision_ms=config.move_limit_ms)
        )
        match_id = await client.create_match(
            config.game,
            0,
            seed=match_seed,
            bots=[spec.strategy for spec in lineup],
            time_control=clocks,
            options=match_options(config),
        )
        await registry.register(
            match_id,
            [
                SeatPlan(spec, derive_seed(seed, "bot", index, seat))
                for seat, spec in enumerate(lineup)
            ],
        )
    async for message in client.watch(match_id):  # it ends after the finishing update
        if on_action is not None and message.HasField("update"):
            on_action(index)
    final = await client.export(match_id)
    return MatchResult(
        index=index,
        match_id=match_id,
        seed=final.seed,
        players=[spec.label for spec in lineup],
        scores=list(final.scores),
        places=list(final.places),
    )
