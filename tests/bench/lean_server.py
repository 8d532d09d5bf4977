"""A MatchService doing the least that Senet's guarantees ask of a SubmitAction.

``python -m tests.bench.lean_server [--host H] [--port P]`` serves CreateMatch,
JoinMatch and SubmitAction of ``senet.v1.MatchService`` for the peer benchmark's
unary load. It is the null server (:mod:`tests.bench.null_server`) plus the
work no implementation of Senet's contract can skip, each step done the
cheapest way it can be done in Python:

- the caller's seat found from the SHA-256 of its token (tokens are stored only
  as digests; recent digests cached, as Senet caches them);
- a retried request id answered with its version, not committed twice;
- the action read and checked against the legal actions, applied by the rules
  core, and the next position's legal actions worked out for the next call;
- what a commit writes: the log entry, the update (its events) and the new head
  (the state's snapshot), each as JSON text, kept in memory, as the embedded
  store keeps them;
- the reply with the mover's events written by the game's codec;
- one success counter and one latency histogram observation.

It has no clocks, bots, deadlines, takeovers, lobby, quotas, streams, cache
eviction or compare-and-swap: what it leaves out is what Senet does beyond the
bare contract. Its moves/s beside the null server's bound what any
restructuring of Senet's SubmitAction path could reach on this machine.

Prints ``Lean MatchService is serving on HOST:PORT`` once bound and stops on
SIGTERM or SIGINT.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

import grpc
import orjson

from senet.games import Action, GameState, get_game
from senet.service import metrics
from senet.service.messages import outcome_to_proto
from senet.service.records import Status
from senet.service.views import SubmitOutcome
from senet.v1 import match_service_pb2
from tests.bench.echo_server import command

SERVICE = "senet.v1.MatchService"


@functools.lru_cache(maxsize=65536)
def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class _Match:
    game_id: str
    state: GameState
    legal: list[Action]
    version: int = 0
    seats: dict[str, int] = field(default_factory=dict)
    requests: dict[str, int] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    updates: list[str] = field(default_factory=list)
    head: str = ""


@dataclass(eq=False)
class LeanService:
    matches: dict[str, _Match] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=itertools.count)

    async def create(
        self, request: match_service_pb2.CreateMatchRequest, context: Any
    ) -> match_service_pb2.CreateMatchResponse:
        match_id = f"lean-{next(self._ids)}"
        game = get_game(request.game_id)
        state = game.new_match(len(request.seats), seed=request.seed)
        self.matches[match_id] = _Match(game.info.id, state, list(state.legal_actions()))
        return match_service_pb2.CreateMatchResponse(match_id=match_id)

    async def join(
        self, request: match_service_pb2.JoinMatchRequest, context: Any
    ) -> match_service_pb2.JoinMatchResponse:
        token = f"{request.match_id}.{request.seat}.secret"
        self.matches[request.match_id].seats[_digest(token)] = request.seat
        return match_service_pb2.JoinMatchResponse(token=token)

    async def submit(self, request: match_service_pb2.SubmitActionRequest, context: Any) -> bytes:
        started = time.perf_counter()
        match = self.matches[request.match_id]
        seat = -1
        for key, value in context.invocation_metadata():
            if key == "authorization":
                seat = match.seats[_digest(value.removeprefix("Bearer "))]
        key = f"{seat}:{request.request_id}"
        done = match.requests.get(key)
        if done is not None:
            reply = match_service_pb2.SubmitActionResponse(
                version=done, request_id=request.request_id, duplicate=True
            )
            return reply.SerializeToString()
        state = match.state
        action = state.read_action(seat, request.notation, match.legal)
        events = state.apply(seat, action, legal=match.legal)
        version = match.version + 1
        status: Status = "finished" if state.is_over() else "active"
        now = time.time()
        notation = action.notation()
        match.log.append(
            orjson.dumps(
                {"seat": seat, "notation": notation, "request_id": request.request_id, "at": now}
            ).decode()
        )
        match.updates.append(
            orjson.dumps(
                {
                    "version": version,
                    "seat": seat,
                    "notation": notation,
                    "events": [e.to_data() for e in events],
                    "status": status,
                    "current_seat": state.current_seat(),
                }
            ).decode()
        )
        match.head = orjson.dumps({"state": state.snapshot_data(), "at": now}).decode()
        match.requests[key] = version
        match.version = version
        match.legal = list(state.legal_actions()) if status == "active" else []
        reply = outcome_to_proto(
            SubmitOutcome(
                match.game_id,
                version,
                [e for e in events if e.visible_to(seat)],
                status,
                False,
                request.request_id,
                state.current_seat(),
            )
        )
        ok, latency = _success_metrics()
        ok.inc()
        latency.observe(time.perf_counter() - started)
        return reply.SerializeToString()


@functools.cache
def _success_metrics() -> tuple[Any, Any]:
    return metrics.RPCS.labels("SubmitAction", "OK"), metrics.LATENCY.labels("SubmitAction")


def lean_handler(service: LeanService) -> grpc.GenericRpcHandler[Any, Any]:
    pb = match_service_pb2
    methods = {
        "CreateMatch": grpc.unary_unary_rpc_method_handler(
            service.create,
            request_deserializer=pb.CreateMatchRequest.FromString,
            response_serializer=pb.CreateMatchResponse.SerializeToString,
        ),
        "JoinMatch": grpc.unary_unary_rpc_method_handler(
            service.join,
            request_deserializer=pb.JoinMatchRequest.FromString,
            response_serializer=pb.JoinMatchResponse.SerializeToString,
        ),
        "SubmitAction": grpc.unary_unary_rpc_method_handler(
            service.submit, request_deserializer=pb.SubmitActionRequest.FromString
        ),
    }
    return grpc.method_handlers_generic_handler(SERVICE, methods)


def main(argv: list[str] | None = None) -> int:
    return command(
        "python -m tests.bench.lean_server", __doc__,
        lambda: lean_handler(LeanService()), "Lean MatchService", argv,
    )  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
