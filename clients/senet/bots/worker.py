"""Bot workers: play the bot seats of matches (``senet bots``), or one seat (``senet bot``).

A worker leases bot seats from the server's BotService, plays each over PlayMatch
and renews its leases every third of the lease, so a live worker never loses a
seat. Workers share the load (each acquires up to its capacity) and never play the
same seat at once: the queue leases a seat to one worker, and each acquisition
mints a new token, which revokes the previous holder's. A worker that dies stops
renewing; once its leases expire another worker acquires the seats and the match
goes on. A seat whose lease is lost (renewal did not return it) stops at once.

Decisions rebuild the forward model from the seat's own view (``GetMatch``), so a
bot sees only what its seat may see; each seat's strategy is seeded from
(match, seat), so a seat taken over by another worker plays the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import logging
import os
import signal
import uuid
from collections.abc import Mapping
from pathlib import Path

import grpc

from senet.bots.base import make_strategy, state_from_proto_view
from senet.client.client import CHANNEL_OPTIONS, SeatClient, SenetClient, describe_error
from senet.codec import options_from_proto
from senet.games.interface import OptionValue
from senet.v1 import bot_service_pb2, bot_service_pb2_grpc, match_pb2, match_service_pb2

log = logging.getLogger("senet.bots")
SeatKey = tuple[str, int]


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
    if got.match.version != turn.version:
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
        if state.current_seat() != seat:
            return None
        # Searching strategies are CPU-bound: off the loop, so lease renewals keep going.
        action = await asyncio.to_thread(strategy.choose, state, seat)
        return action.notation()

    return await seat_client.play(decide)


class BotWorker:
    """Leases bot seats and plays them until stopped.

    Args:
        target: ``host:port`` of a server (or load balancer).
        admin_key: Sent as ``x-senet-admin-key`` (required when the server has one).
        capacity: Most seats played at once.
        lease_ms: Lease length; renewed every third of it.
        worker_id: Stable id; random by default.
        tls_ca: PEM file of the CA that signed the server certificate; enables TLS.
    """

    def __init__(
        self,
        target: str,
        *,
        admin_key: str = "",
        capacity: int = 8,
        lease_ms: int = 5000,
        seconds: float | None = None,
        iterations: int | None = None,
        worker_id: str | None = None,
        tls_ca: str | None = None,
    ) -> None:
        self.target = target
        self.tls_ca = tls_ca
        self.admin_key = admin_key
        self.capacity = capacity
        self.lease_ms = lease_ms
        self.seconds = seconds
        self.iterations = iterations
        self.worker_id = worker_id or "w-" + uuid.uuid4().hex[:12]
        self.playing: dict[SeatKey, asyncio.Task[None]] = {}
        #: Every seat this worker ever acquired (tests check for overlaps).
        self.acquired: list[SeatKey] = []
        #: The latest token minted for each seat acquired (tests check revocation).
        self.tokens: dict[SeatKey, str] = {}

    def _metadata(self) -> tuple[tuple[str, str], ...]:
        return (("x-senet-admin-key", self.admin_key),) if self.admin_key else ()

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Acquire, play and renew until ``stop`` is set (then release nothing: the
        leases simply expire). Cancelling this task stops every seat at once, as a
        crash would."""
        stop = stop or asyncio.Event()
        if self.tls_ca:
            credentials = grpc.ssl_channel_credentials(Path(self.tls_ca).read_bytes())
            channel = grpc.aio.secure_channel(self.target, credentials, options=CHANNEL_OPTIONS)
        else:
            channel = grpc.aio.insecure_channel(self.target, options=CHANNEL_OPTIONS)
        stub = bot_service_pb2_grpc.BotServiceStub(channel)
        client = SenetClient(self.target, admin_key=self.admin_key, tls_ca=self.tls_ca)
        finished: list[SeatKey] = []
        try:
            while not stop.is_set():
                try:
                    await self._tick(stub, client, finished)
                except grpc.aio.AioRpcError as exc:
                    log.warning("bot service call failed: %s", exc.code().name)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self.lease_ms / 3000)
        finally:
            for task in self.playing.values():
                task.cancel()
            await asyncio.gather(*self.playing.values(), return_exceptions=True)
            self.playing.clear()
            await client.close()
            await channel.close(None)

    async def _tick(
        self,
        stub: bot_service_pb2_grpc.BotServiceAsyncStub,
        client: SenetClient,
        finished: list[SeatKey],
    ) -> None:
        """One round: release finished seats, renew the rest, fill up to capacity."""
        md = self._metadata()
        if finished:
            refs = [bot_service_pb2.BotSeatRef(match_id=m, seat=s) for m, s in finished]
            await stub.ReleaseBotSeats(
                bot_service_pb2.ReleaseBotSeatsRequest(worker_id=self.worker_id, seats=refs),
                metadata=md,
                timeout=self.lease_ms / 1000,
            )
            finished.clear()
        if self.playing:
            refs = [bot_service_pb2.BotSeatRef(match_id=m, seat=s) for m, s in self.playing]
            renewed = await stub.RenewBotSeats(
                bot_service_pb2.RenewBotSeatsRequest(
                    worker_id=self.worker_id, seats=refs, lease_ms=self.lease_ms
                ),
                metadata=md,
                timeout=self.lease_ms / 1000,
            )
            held = {(r.match_id, r.seat) for r in renewed.seats}
            for key in [k for k in self.playing if k not in held]:
                log.info("lost the lease of %s seat %d", *key)
                self.playing.pop(key).cancel()
        free = self.capacity - len(self.playing)
        if free <= 0:
            return
        got = await stub.AcquireBotSeats(
            bot_service_pb2.AcquireBotSeatsRequest(
                worker_id=self.worker_id, capacity=free, lease_ms=self.lease_ms
            ),
            metadata=md,
            timeout=self.lease_ms / 1000,
        )
        for seat in got.seats:
            key = (seat.match_id, seat.seat)
            self.acquired.append(key)
            self.tokens[key] = seat.token
            old = self.playing.pop(key, None)
            if old is not None:
                old.cancel()  # re-acquired our own expired seat: the old token is dead
            self.playing[key] = asyncio.create_task(self._play(client, seat, finished))

    async def _play(
        self, client: SenetClient, seat: bot_service_pb2.BotSeat, finished: list[SeatKey]
    ) -> None:
        key = (seat.match_id, seat.seat)
        try:
            await play_seat(
                client,
                seat.match_id,
                seat.seat,
                seat.token,
                seat.strategy,
                seconds=self.seconds,
                iterations=self.iterations,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # refused token, vanished match: give the seat up
            log.info("stopped %s seat %d: %s", seat.match_id, seat.seat, describe_error(exc))
            if self.playing.get(key) is asyncio.current_task():
                del self.playing[key]
            return
        if self.playing.get(key) is asyncio.current_task():
            del self.playing[key]
            finished.append(key)  # released on the next tick


# ------------------------------------------------------------------ command line
def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``senet bots``.

    Server address, admin key and CA also come from ``SENET_SERVER``,
    ``SENET_ADMIN_KEY`` and ``SENET_TLS_CA``, so that a container passes the key
    as a secret in its environment rather than on a command line anyone can list.
    """
    env = os.environ
    parser.add_argument("--server", default=env.get("SENET_SERVER", "localhost:50051"))
    parser.add_argument(
        "--admin-key", default=env.get("SENET_ADMIN_KEY", ""), help="the server's admin key"
    )
    parser.add_argument(
        "--tls-ca",
        default=env.get("SENET_TLS_CA") or None,
        help="PEM file of the server's CA (enables TLS)",
    )
    parser.add_argument("--capacity", type=int, default=8, help="most seats at once")
    parser.add_argument("--lease-ms", type=int, default=5000, help="seat lease length")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="search time per move")
    budget.add_argument("--iterations", type=int, default=None, help="search iterations")


def add_seat_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``senet bot``."""
    parser.add_argument("--server", default="localhost:50051", help="host:port")
    parser.add_argument("--match", required=True, help="match id")
    parser.add_argument("--seat", type=int, required=True, help="seat number")
    parser.add_argument("--token", required=True, help="the seat's token")
    parser.add_argument("--strategy", default="greedy", help="random, greedy or mcts")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="search time per move")
    budget.add_argument("--iterations", type=int, default=None, help="search iterations")


def run_worker(args: argparse.Namespace) -> int:
    """``senet bots``: run a worker until SIGTERM or SIGINT.

    Either signal stops the worker between ticks: seats in play are cancelled and
    their leases left to expire, so other workers take them over (an orchestrator
    stops containers with SIGTERM, and would otherwise kill the worker mid-write).
    """
    worker = BotWorker(
        args.server,
        admin_key=args.admin_key,
        capacity=args.capacity,
        lease_ms=args.lease_ms,
        seconds=args.seconds,
        iterations=args.iterations,
        tls_ca=args.tls_ca,
    )

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await worker.run(stop)

    asyncio.run(main())
    return 0


def run_seat(args: argparse.Namespace) -> int:
    """``senet bot``: play one seat to the end of its match."""

    async def main() -> None:
        async with SenetClient(args.server) as client:
            await play_seat(
                client,
                args.match,
                args.seat,
                args.token,
                args.strategy,
                seconds=args.seconds,
                iterations=args.iterations,
            )

    asyncio.run(main())
    return 0
