"""The gRPC face of the bot-decision queue: senet.v1.BotService.

Thin, as :mod:`senet.service.grpc_api` is: each RPC runs through its
``run_unary`` (credentials, the one error mapping, metrics) and calls
:class:`senet.service.bots_api.BotDecisions`, which knows nothing of gRPC.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any, TypeVar

from senet.service.access import Caller
from senet.service.bots_api import BotDecisions
from senet.service.grpc_calls import header, run_unary
from senet.service.remote_bots import RemoteBots
from senet.service.settings import Settings
from senet.store import BotDecisionRef
from senet.v1 import bot_service_pb2, bot_service_pb2_grpc

T = TypeVar("T")
#: A registered bot's key: its workers lease that bot's decisions only.
BOT_KEY_HEADER = "x-senet-bot-key"


def _ref_to_proto(ref: BotDecisionRef) -> bot_service_pb2.BotDecisionRef:
    return bot_service_pb2.BotDecisionRef(match_id=ref.match_id, seat=ref.seat, version=ref.version)


def _refs_of(
    refs: Iterable[bot_service_pb2.BotDecisionRef],
) -> list[tuple[str, int, int]]:
    return [(r.match_id, r.seat, r.version) for r in refs]


class BotServicer(bot_service_pb2_grpc.BotServiceServicer):
    """Implements senet.v1.BotService over :class:`BotDecisions` (errors as in MatchService)."""

    def __init__(self, bots: BotDecisions, settings: Settings) -> None:
        self.bots = bots
        self.settings = settings
        #: Set when the server drains: workers then lease decisions from other replicas.
        self.draining = False
        #: The registry of remote bots (see senet.service.remote_bots), when served.
        self.remote: RemoteBots | None = None

    async def _queue_of(self, caller: Caller, context: Any) -> tuple[BotDecisions, Caller]:
        """The queue this caller leases from: a bot key's own bot's, else the shared one."""
        key = header(context, BOT_KEY_HEADER)
        if key is None or self.remote is None:
            return self.bots, caller
        bot = await self.remote.by_key(key)
        await self.remote.saw_worker(bot)
        return self.remote.decisions_for(bot), replace(caller, is_worker=True)

    async def _unary(
        self,
        method: str,
        context: Any,
        body: Callable[[Caller], Awaitable[T]],
    ) -> T:
        return await run_unary(method, context, self.settings, body, self.draining)

    async def AcquireBotDecisions(
        self, request: bot_service_pb2.AcquireBotDecisionsRequest, context: Any
    ) -> bot_service_pb2.AcquireBotDecisionsResponse:
        async def body(caller: Caller) -> bot_service_pb2.AcquireBotDecisionsResponse:
            bots, caller = await self._queue_of(caller, context)
            decisions = await bots.acquire(
                caller, request.worker_id, request.capacity, request.lease_ms, request.wait_ms
            )
            return bot_service_pb2.AcquireBotDecisionsResponse(
                decisions=[
                    bot_service_pb2.BotDecision(
                        match_id=d.match_id,
                        seat=d.seat,
                        version=d.version,
                        game_id=d.game_id,
                        strategy=d.strategy,
                        token=d.token,
                        lease_expires_ms=d.lease_expires_ms,
                    )
                    for d in decisions
                ]
            )

        return await self._unary("AcquireBotDecisions", context, body)

    async def RenewBotDecisions(
        self, request: bot_service_pb2.RenewBotDecisionsRequest, context: Any
    ) -> bot_service_pb2.RenewBotDecisionsResponse:
        async def body(caller: Caller) -> bot_service_pb2.RenewBotDecisionsResponse:
            bots, caller = await self._queue_of(caller, context)
            held = await bots.renew(
                caller, request.worker_id, _refs_of(request.decisions), request.lease_ms
            )
            return bot_service_pb2.RenewBotDecisionsResponse(
                decisions=[_ref_to_proto(r) for r in held]
            )

        return await self._unary("RenewBotDecisions", context, body)

    async def ReleaseBotDecisions(
        self, request: bot_service_pb2.ReleaseBotDecisionsRequest, context: Any
    ) -> bot_service_pb2.ReleaseBotDecisionsResponse:
        async def body(caller: Caller) -> bot_service_pb2.ReleaseBotDecisionsResponse:
            bots, caller = await self._queue_of(caller, context)
            await bots.release(caller, request.worker_id, _refs_of(request.decisions))
            return bot_service_pb2.ReleaseBotDecisionsResponse()

        return await self._unary("ReleaseBotDecisions", context, body)
