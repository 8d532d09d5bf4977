"""Bot seats for bot workers: the BotService RPCs and the logic behind them.

Bot seats wait in the store's bot-seat queue (shared by every replica, filled by
``CreateMatch``). A worker leases seats and keeps them by renewing; a worker that
dies stops renewing, its leases expire and the next acquire by any worker takes
the seats over. Each acquisition mints a fresh token and *replaces* the seat's
claim, so the dead (or merely slow) worker's token is refused from then on: two
workers can never both act for one seat, even if the first one comes back.
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from senet.service import errors
from senet.service.grpc_api import run_unary
from senet.service.matches import Caller, MatchService, check_id
from senet.service.records import MatchMeta, SeatClaim, new_token, token_hash
from senet.service.settings import Settings
from senet.store import BotSeatRef, MatchNotFound
from senet.v1 import bot_service_pb2, bot_service_pb2_grpc

T = TypeVar("T")
_WORKER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_MAX_CAPACITY = 100
_MIN_LEASE_MS = 100
_MAX_LEASE_MS = 600_000


@dataclass(frozen=True)
class LeasedSeat:
    """A bot seat handed to a worker, with the seat's new token."""

    match_id: str
    seat: int
    game_id: str
    strategy: str
    token: str
    lease_expires_ms: int


def _now_ms() -> int:
    """Wall clock in ms: leases are compared across replicas, so not monotonic."""
    return int(time.time() * 1000)


class BotSeats:
    """Application logic of the bot-seat queue, over a :class:`MatchService`.

    It needs the match service (not only the store) to drop a replaced claim from
    this replica's state cache at once; other replicas' caches cannot let the old
    token act either, since every commit re-checks the acting seat's claim.
    """

    def __init__(self, matches: MatchService) -> None:
        self.matches = matches
        self.store = matches.store

    @staticmethod
    def _check(caller: Caller, worker_id: str, lease_ms: int | None = None) -> None:
        # Caller.is_admin is True when the server has no admin key.
        if not caller.is_admin:
            raise errors.AdminKeyRequired("bot workers must send the admin key")
        if not _WORKER_RE.match(worker_id):
            raise errors.MalformedRequest("worker_id must be 1-64 characters of [A-Za-z0-9_-]")
        if lease_ms is not None and not _MIN_LEASE_MS <= lease_ms <= _MAX_LEASE_MS:
            raise errors.MalformedRequest(f"lease_ms must be {_MIN_LEASE_MS}-{_MAX_LEASE_MS}")

    @staticmethod
    def _refs(refs: Iterable[tuple[str, int]]) -> list[BotSeatRef]:
        return [BotSeatRef(check_id(match_id), seat) for match_id, seat in refs]

    async def acquire(
        self, caller: Caller, worker_id: str, capacity: int, lease_ms: int
    ) -> list[LeasedSeat]:
        """Lease up to ``capacity`` free or expired seats and mint each a new token.

        Seats of matches that are gone or finished are dropped from the queue
        instead of being handed out.
        """
        self._check(caller, worker_id, lease_ms)
        if not 1 <= capacity <= _MAX_CAPACITY:
            raise errors.MalformedRequest(f"capacity must be 1-{_MAX_CAPACITY}")
        leases = await self.store.acquire_bot_seats(worker_id, capacity, lease_ms, _now_ms())
        out: list[LeasedSeat] = []
        dead: list[BotSeatRef] = []
        for lease in leases:
            ref = BotSeatRef(lease.match_id, lease.seat)
            try:
                stored = await self.store.load(lease.match_id)
                if stored.status == "finished":
                    dead.append(ref)
                    continue
                token = new_token()
                claim = SeatClaim(f"{lease.strategy} bot", token_hash(token), time.time())
                await self.store.replace_seat_claim(lease.match_id, lease.seat, claim.to_json())
            except MatchNotFound:
                dead.append(ref)
                continue
            self.matches.cache.forget(lease.match_id)
            game_id = MatchMeta.from_json(stored.meta_json).game_id
            out.append(
                LeasedSeat(
                    lease.match_id, lease.seat, game_id, lease.strategy, token, lease.expires_ms
                )
            )
        if dead:
            await self.store.release_bot_seats(worker_id, dead)
        return out

    async def renew(
        self, caller: Caller, worker_id: str, refs: Iterable[tuple[str, int]], lease_ms: int
    ) -> list[BotSeatRef]:
        """Extend the worker's leases; the seats missing from the answer are lost."""
        self._check(caller, worker_id, lease_ms)
        return await self.store.renew_bot_seats(worker_id, self._refs(refs), lease_ms, _now_ms())

    async def release(
        self, caller: Caller, worker_id: str, refs: Iterable[tuple[str, int]]
    ) -> None:
        """Drop seats whose match is over from the queue (only the worker's own)."""
        self._check(caller, worker_id)
        await self.store.release_bot_seats(worker_id, self._refs(refs))


def _ref_to_proto(ref: BotSeatRef) -> bot_service_pb2.BotSeatRef:
    return bot_service_pb2.BotSeatRef(match_id=ref.match_id, seat=ref.seat)


class BotServicer(bot_service_pb2_grpc.BotServiceServicer):
    """Implements senet.v1.BotService over :class:`BotSeats` (errors as in MatchService)."""

    def __init__(self, bots: BotSeats, settings: Settings) -> None:
        self.bots = bots
        self.settings = settings
        #: Set when the server drains: workers then lease seats from other replicas.
        self.draining = False

    async def _unary(
        self,
        method: str,
        context: Any,
        body: Callable[[Caller], Awaitable[T]],
    ) -> T:
        return await run_unary(method, context, self.settings, body, self.draining)

    async def AcquireBotSeats(
        self, request: bot_service_pb2.AcquireBotSeatsRequest, context: Any
    ) -> bot_service_pb2.AcquireBotSeatsResponse:
        async def body(caller: Caller) -> bot_service_pb2.AcquireBotSeatsResponse:
            seats = await self.bots.acquire(
                caller, request.worker_id, request.capacity, request.lease_ms
            )
            return bot_service_pb2.AcquireBotSeatsResponse(
                seats=[
                    bot_service_pb2.BotSeat(
                        match_id=s.match_id,
                        seat=s.seat,
                        game_id=s.game_id,
                        strategy=s.strategy,
                        token=s.token,
                        lease_expires_ms=s.lease_expires_ms,
                    )
                    for s in seats
                ]
            )

        return await self._unary("AcquireBotSeats", context, body)

    async def RenewBotSeats(
        self, request: bot_service_pb2.RenewBotSeatsRequest, context: Any
    ) -> bot_service_pb2.RenewBotSeatsResponse:
        async def body(caller: Caller) -> bot_service_pb2.RenewBotSeatsResponse:
            refs = [(r.match_id, r.seat) for r in request.seats]
            held = await self.bots.renew(caller, request.worker_id, refs, request.lease_ms)
            return bot_service_pb2.RenewBotSeatsResponse(seats=[_ref_to_proto(r) for r in held])

        return await self._unary("RenewBotSeats", context, body)

    async def ReleaseBotSeats(
        self, request: bot_service_pb2.ReleaseBotSeatsRequest, context: Any
    ) -> bot_service_pb2.ReleaseBotSeatsResponse:
        async def body(caller: Caller) -> bot_service_pb2.ReleaseBotSeatsResponse:
            refs = [(r.match_id, r.seat) for r in request.seats]
            await self.bots.release(caller, request.worker_id, refs)
            return bot_service_pb2.ReleaseBotSeatsResponse()

        return await self._unary("ReleaseBotSeats", context, body)
