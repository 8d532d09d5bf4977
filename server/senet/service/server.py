"""Server factory, health, reflection and graceful drain.

``create_server(settings, store)`` builds and starts a server and returns a
:class:`RunningServer` with the bound port, so tests bind port 0 and run several
replicas in one process. ``serve(settings)`` is what ``senet serve`` runs; what
else runs in that process (embedded bot workers) is handed in as companions by the
command line, so the service never imports a client.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc
from grpc_reflection.v1alpha._async import ReflectionServicer

from senet.service import durability, malformed, metrics, processes
from senet.service.bots_api import BotDecisions
from senet.service.cancellation import stop_if_cancelled
from senet.service.durability import DurabilityWatch
from senet.service.grpc_api import MatchServicer
from senet.service.grpc_bots import BotServicer
from senet.service.grpc_errors import fail
from senet.service.grpc_ladder import LadderServicer, build_ladder
from senet.service.grpc_players import PlayerServicer
from senet.service.identity import Identities
from senet.service.matches import MatchService
from senet.service.matchmaking import Matchmaker
from senet.service.players import PlayerDirectory
from senet.service.settings import Settings
from senet.service.timeouts import ClockKeeper
from senet.service.zombies import ZombiePlayer
from senet.store import MatchStore, StoreError
from senet.store.companions import beside
from senet.store.players import MemoryPlayerStore, PlayerStore
from senet.v1 import (
    bot_service_pb2,
    bot_service_pb2_grpc,
    ladder_service_pb2,
    ladder_service_pb2_grpc,
    match_service_pb2,
    match_service_pb2_grpc,
    player_service_pb2,
    player_service_pb2_grpc,
)

if TYPE_CHECKING:
    from senet.store.redis_store import RedisStore

log = logging.getLogger("senet.server")
#: How long a stopping replica waits for its own tasks to end once cancelled.
_TASKS_STOP_S = 5.0
SERVICE_NAME = match_service_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name
BOT_SERVICE_NAME = bot_service_pb2.DESCRIPTOR.services_by_name["BotService"].full_name
PLAYER_SERVICE_NAME = player_service_pb2.DESCRIPTOR.services_by_name["PlayerService"].full_name
LADDER_SERVICE_NAME = ladder_service_pb2.DESCRIPTOR.services_by_name["LadderService"].full_name
#: Health service name that is SERVING while the process runs, whatever the store
#: says: liveness probes ask for it, so a Redis outage marks replicas unready
#: (no traffic) without getting them restarted, which would not fix Redis.
LIVENESS_SERVICE = "senet.liveness"
#: The store's persistence is checked once per this many health intervals.
DURABILITY_CHECKS = 10


def build_store(settings: Settings) -> MatchStore:
    """The Redis store when a URL is configured, else the embedded in-memory store."""
    if settings.redis_url:
        from senet.store.redis_store import RedisStore

        return RedisStore.from_url(
            settings.redis_url,
            key_prefix=settings.key_prefix,
            finished_ttl_s=settings.finished_ttl_s,
            idle_ttl_s=settings.idle_ttl_s,
            waiting_ttl_s=settings.waiting_ttl_s,
            max_connections=settings.redis_max_connections,
            socket_timeout_s=settings.store_timeout_s,
        )
    from senet.store.memory import MemoryStore

    return MemoryStore(
        finished_ttl_s=settings.finished_ttl_s,
        idle_ttl_s=settings.idle_ttl_s,
        waiting_ttl_s=settings.waiting_ttl_s,
    )


def build_players(store: MatchStore) -> PlayerStore:
    """The player store beside ``store``: in the same Redis, or in memory."""

    def on_redis(redis: RedisStore) -> PlayerStore:
        from senet.store.redis_players import RedisPlayerStore

        return RedisPlayerStore(redis)

    return beside(store, on_redis, MemoryPlayerStore)


@dataclass
class RunningServer:
    """A started server and what it needs to stop cleanly."""

    server: grpc.aio.Server
    port: int
    servicer: MatchServicer
    bot_servicer: BotServicer
    health: HealthServicer
    store: MatchStore
    settings: Settings
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    #: This replica's enforcer of turn clocks (set once the server runs).
    clock_keeper: ClockKeeper | None = None
    #: PlayerService (set once the server runs).
    player_servicer: PlayerServicer | None = None
    #: LadderService (set once the server runs).
    ladder_servicer: LadderServicer | None = None

    @property
    def address(self) -> str:
        return f"{self.settings.host}:{self.port}"

    async def drain(self) -> None:
        """Tell load balancers, then stop taking new work, let calls finish, and stop.

        Health turns NOT_SERVING first while every call is still served for
        ``drain_notice_s``, so a balancer that checks health sees it and sends
        new calls elsewhere; then new calls get DRAINING, open streams end with
        DRAINING (clients resume elsewhere), and in-flight calls have
        ``drain_grace_s`` to finish.
        """
        await self.health.enter_graceful_shutdown()
        await asyncio.sleep(self.settings.drain_notice_s)
        self.servicer.start_draining()
        self.bot_servicer.draining = True
        if self.player_servicer is not None:
            self.player_servicer.draining = True
            self.player_servicer.matchmaker.draining = True
            self.player_servicer.matchmaker.wake()
        if self.ladder_servicer is not None:
            self.ladder_servicer.draining = True
        await self.server.stop(self.settings.drain_grace_s)
        await self.close()

    async def stop(self) -> None:
        """Stop at once (tests)."""
        await self.server.stop(0)
        await self.close()

    async def close(self) -> None:
        """Stop the replica's own tasks, then its feeds and its store.

        The wait for the tasks is bounded: on Python 3.11 a cancellation that
        lands as an awaited future completes can be swallowed (by
        ``asyncio.wait_for``, by a client library), and a task that misses its
        cancellation would hold the shutdown for good.
        """
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            done, stuck = await asyncio.wait(self._tasks, timeout=_TASKS_STOP_S)
            for task in stuck:
                log.warning("a task did not stop when cancelled: %s", task.get_name())
            for task in done:
                if not task.cancelled():
                    task.result()  # a task that failed says so
        self._tasks.clear()
        await self.servicer.service.feeds.close()
        await self.store.close()


async def _probe_store(
    store: MatchStore, checker: HealthServicer, timeout_s: float, serving: bool | None
) -> bool:
    """Ping the store once; publish SERVING or NOT_SERVING when that changed."""
    reason = ""
    try:
        await asyncio.wait_for(store.ping(), timeout=timeout_s)
    except (StoreError, TimeoutError, OSError) as exc:
        reason = str(exc) or f"no answer within {timeout_s:g} s"
    ok = not reason
    metrics.STORE_REACHABLE.set(1 if ok else 0)
    if ok != serving:
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if ok
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        await checker.set("", status)
        await checker.set(SERVICE_NAME, status)
        if ok:
            log.info("store health changed: serving", extra={"serving": True})
        else:
            log.warning("store health changed: not serving (%s)", reason, extra={"serving": False})
    return ok


async def _watch_store_health(
    store: MatchStore, checker: HealthServicer, interval_s: float, serving: bool | None
) -> None:
    """NOT_SERVING while the store is unreachable, SERVING again once it answers."""
    while True:
        await asyncio.sleep(interval_s)
        serving = await _probe_store(store, checker, max(interval_s, 0.5), serving)
        stop_if_cancelled()


async def create_server(
    settings: Settings,
    store: MatchStore | None = None,
    health_interval_s: float = 1.0,
    players: PlayerStore | None = None,
) -> RunningServer:
    """Build, bind and start a server (port 0 binds a free port); ``players``:
    the player store (default: beside the match store, see :func:`build_players`)."""
    settings = settings.with_embedded_worker_key()
    # Not "store or ...": an empty MemoryStore is falsy (it has __len__).
    store = store if store is not None else build_store(settings)
    service = MatchService(store, settings)
    servicer = MatchServicer(service, settings)
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", settings.max_message_bytes),
            # Only several processes of one server share a port; a lone server
            # must fail to bind a port another server holds.
            ("grpc.so_reuseport", 1 if settings.processes > 1 else 0),
        ]
    )
    malformed.register(
        match_service_pb2_grpc.add_MatchServiceServicer_to_server, servicer, server, fail
    )
    bot_servicer = BotServicer(BotDecisions(service), settings)
    malformed.register(
        bot_service_pb2_grpc.add_BotServiceServicer_to_server, bot_servicer, server, fail
    )
    players = players if players is not None else build_players(store)
    matchmaker = Matchmaker(service, players, settings)
    identities = Identities(settings)
    servicer.identities = identities
    player_servicer = PlayerServicer(
        PlayerDirectory(players, identities), matchmaker, settings, servicer.quotas
    )
    malformed.register(
        player_service_pb2_grpc.add_PlayerServiceServicer_to_server, player_servicer, server, fail
    )
    identities = player_servicer.directory.identities
    ladder_servicer = build_ladder(service, store, players, identities, settings)
    bot_servicer.remote = ladder_servicer.remote
    malformed.register(
        ladder_service_pb2_grpc.add_LadderServiceServicer_to_server, ladder_servicer, server, fail
    )
    checker = HealthServicer()
    # Generic handlers only, as malformed.register installs the services'.
    health_pb2_grpc.add_HealthServicer_to_server(checker, malformed.GenericOnly(server))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(
        ReflectionServicer(
            (
                SERVICE_NAME,
                BOT_SERVICE_NAME,
                PLAYER_SERVICE_NAME,
                LADDER_SERVICE_NAME,
                health.SERVICE_NAME,
                reflection.SERVICE_NAME,
            )
        ),
        malformed.GenericOnly(server),
    )
    address = f"{settings.host}:{settings.port}"
    if settings.tls_cert and settings.tls_key:
        credentials = grpc.ssl_server_credentials(
            [(Path(settings.tls_key).read_bytes(), Path(settings.tls_cert).read_bytes())]
        )
        port = server.add_secure_port(address, credentials)
    else:
        port = server.add_insecure_port(address)
    # Health is known before the port opens (else early probes get NOT_FOUND).
    await checker.set(LIVENESS_SERVICE, health_pb2.HealthCheckResponse.SERVING)
    serving = await _probe_store(store, checker, max(health_interval_s, 0.5), None)
    persistence = DurabilityWatch(store, checker)
    if serving:
        await persistence.check()
    await server.start()
    running = RunningServer(server, port, servicer, bot_servicer, checker, store, settings)
    running.player_servicer = player_servicer
    running._tasks.append(
        asyncio.create_task(_watch_store_health(store, checker, health_interval_s, serving))
    )
    running._tasks.append(
        asyncio.create_task(durability.watch(persistence, DURABILITY_CHECKS * health_interval_s))
    )
    # Resigned seats are played by whichever replica is alive: every one runs a player.
    running._tasks.append(asyncio.create_task(ZombiePlayer(service).run()))
    # So are turn clocks: every replica sweeps the due timeouts.
    running.clock_keeper = ClockKeeper(service)
    running._tasks.append(asyncio.create_task(running.clock_keeper.run()))
    # And every replica checks the lobby entries whose match may have expired.
    running._tasks.append(asyncio.create_task(service.lobby.run_sweeps(settings.lobby_sweep_s)))
    # And every replica matches the queued tickets and settles the queued matches.
    running._tasks.append(asyncio.create_task(matchmaker.run()))
    # And every replica schedules the ladders (one match per slot, whoever claims it).
    running.ladder_servicer = ladder_servicer
    running._tasks.append(asyncio.create_task(ladder_servicer.ladders.run()))
    return running


#: Something run beside the server in its process: called once the server listens,
#: with the running server and the event set when a signal asks it to stop; still
#: running at that point, it is cancelled before the server drains.
Companion = Callable[["RunningServer", asyncio.Event], Coroutine[Any, Any, None]]


def settle_heap() -> None:
    """Move every object alive once the server is built out of the collector's reach.

    The modules, protos, game tables and plug-ins loaded at start-up live as long
    as the process, yet each full collection walked all of them (about 40,000
    objects): a pause of some 80 ms in the middle of a move, measured under a
    PlayMatch load, against some 15 ms once they are frozen. Objects made later,
    per match and per call, are collected as before.
    """
    gc.collect()
    gc.freeze()


async def serve(settings: Settings, companions: Sequence[Companion] = ()) -> None:
    """Run until SIGTERM or SIGINT, then drain gracefully."""
    if settings.metrics_port and not processes.is_child():  # else the supervisor serves them
        from prometheus_client import start_http_server

        start_http_server(settings.metrics_port, addr=settings.host)
    running = await create_server(settings)
    settle_heap()
    # Never print the Redis password that a URL may carry.
    from senet.store.redis_store import redacted_url

    store_kind = (
        "redis " + redacted_url(settings.redis_url) if settings.redis_url else "embedded in-memory"
    )
    metrics_at = f"{settings.host}:{settings.metrics_port}" if settings.metrics_port else ""
    log.info(
        "senet listening",
        extra={
            "address": running.address,
            "store": store_kind,
            "tls": bool(settings.tls_cert),
            "metrics": metrics_at or "off",
        },
    )
    # The first line is for whoever started the server (scripts wait for it); the
    # hints only for a person at a terminal, not for a container's log stream.
    print(f"Senet is serving on {running.address} ({store_kind} store).", flush=True)
    if sys.stdout.isatty() and not settings.tls_cert:
        print(
            f"  grpcurl -plaintext {running.address} list\n"
            f"  grpcurl -plaintext {running.address} senet.v1.MatchService/ListGames",
            flush=True,
        )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    beside = [asyncio.create_task(companion(running, stop)) for companion in companions]
    if processes.is_child():
        beside.append(asyncio.create_task(processes.stop_when_orphaned(stop)))
    await stop.wait()
    log.info("draining", extra={"grace_s": settings.drain_grace_s})
    for task in beside:
        task.cancel()
    await running.drain()
    log.info("stopped")
