"""A MatchService that plays no game: the floor of any grpcio server of Senet's protocol.

``python -m tests.bench.null_server [--host H] [--port P]`` serves CreateMatch,
JoinMatch, SubmitAction and PlayMatch of ``senet.v1.MatchService`` for the peer
benchmark's load generator, with Senet's messages and server options, and
nothing else: no rules, no store, no validation beyond finding the caller's
seat by its token. Each match is its version and its open PlayMatch streams; a
submission adds one to the version, and the next seat in turn is simply the
version modulo the seat count.

What it does per call is what any server of these protos must do at least:
parse the request and the token, reply, and for PlayMatch send one update per
seat stream (the mover's carrying its request id, the next seat's its prompt),
each serialized once, as ``senet serve`` does. Its moves/s under the very load
Senet is measured with is therefore the most grpcio and asyncio allow on this
machine, whatever the game and however cheap the server's own work: the
benchmark prints it as the ceiling of Senet's figures.

Prints ``Null MatchService is serving on HOST:PORT`` once bound and stops on
SIGTERM or SIGINT.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import grpc

from senet.v1 import match_pb2, match_service_pb2
from tests.bench.echo_server import command

SERVICE = "senet.v1.MatchService"
# Two actions to choose from, as a Pebbles prompt mostly has.
_ACTIONS = [
    match_pb2.LegalAction(notation=notation, label=f"play pebble {notation}")
    for notation in ("p1", "p2")
]


Outboxes = dict[int, list[asyncio.Queue[bytes | None]]]
M = TypeVar("M", bound="_Streamed")


class _Streamed(Protocol):
    #: Each open PlayMatch stream's outbox, by the seat it plays.
    streams: Outboxes


class StreamedService(Generic[M]):
    """The compact PlayMatch stream of a benchmark server: a snapshot (with the
    prompt when it is the seat's turn), then one message per committed action,
    put by the server's ``_commit`` in each stream's outbox (a queue into the
    stream's generator, as ``senet serve`` has)."""

    def _caller(self, context: Any) -> tuple[M, int]:
        raise NotImplementedError

    def _opening(self, match: M, seat: int) -> bytes:
        """The stream's first message."""
        raise NotImplementedError

    def _commit(self, match: M, seat: int, submit: match_service_pb2.SubmitActionRequest) -> None:
        raise NotImplementedError

    async def play(
        self, requests: AsyncIterator[match_service_pb2.PlayMatchRequest], context: Any
    ) -> AsyncIterator[bytes]:
        match, seat = self._caller(context)
        await anext(aiter(requests))  # the hello
        outbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        match.streams.setdefault(seat, []).append(outbox)
        outbox.put_nowait(self._opening(match, seat))

        async def pump_requests() -> None:
            async for request in requests:
                self._commit(match, seat, request.submit)
            outbox.put_nowait(None)

        pump = asyncio.create_task(pump_requests())
        try:
            while (message := await outbox.get()) is not None:
                yield message
        finally:
            pump.cancel()
            match.streams[seat].remove(outbox)


@dataclass(eq=False)
class _Match:
    seats: int
    version: int = 0
    #: Each open PlayMatch stream's outbox, by the seat it plays.
    streams: Outboxes = field(default_factory=dict)
    #: The request id of the last submission and the version it made: a retried
    #: request is answered again, not committed twice, as Senet answers it.
    last: tuple[str, int] = ("", 0)

    def commit(self, request_id: str) -> int | None:
        """Commit one move; None when ``request_id`` is the last move's, retried."""
        if request_id and request_id == self.last[0]:
            return None
        self.version += 1
        self.last = (request_id, self.version)
        return self.version

    def to_move(self, version: int) -> int:
        return version % self.seats


@dataclass(eq=False)
class NullService(StreamedService[_Match]):
    """Matches by id, and the seat each token plays."""

    matches: dict[str, _Match] = field(default_factory=dict)
    tokens: dict[str, tuple[str, int]] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=itertools.count)

    def _caller(self, context: Any) -> tuple[_Match, int]:
        for key, value in context.invocation_metadata():
            if key == "authorization":
                match_id, seat = self.tokens[value.removeprefix("Bearer ")]
                return self.matches[match_id], seat
        raise KeyError("no token")

    async def create(
        self, request: match_service_pb2.CreateMatchRequest, context: Any
    ) -> match_service_pb2.CreateMatchResponse:
        match_id = f"null-{next(self._ids)}"
        self.matches[match_id] = _Match(seats=len(request.seats))
        return match_service_pb2.CreateMatchResponse(match_id=match_id)

    async def join(
        self, request: match_service_pb2.JoinMatchRequest, context: Any
    ) -> match_service_pb2.JoinMatchResponse:
        token = f"{request.match_id}.{request.seat}"
        self.tokens[token] = (request.match_id, request.seat)
        return match_service_pb2.JoinMatchResponse(token=token)

    async def submit(self, request: match_service_pb2.SubmitActionRequest, context: Any) -> bytes:
        match, _seat = self._caller(context)
        version = match.commit(request.request_id)
        if version is None:
            version = match.last[1]
        reply = match_service_pb2.SubmitActionResponse(
            version=version, request_id=request.request_id, current_seat=match.to_move(version)
        )
        return reply.SerializeToString()

    def _opening(self, match: _Match, seat: int) -> bytes:
        first = match_service_pb2.PlayMatchResponse(
            snapshot=match_pb2.MatchSnapshot(match=match_pb2.MatchSummary(version=match.version))
        )
        if match.to_move(match.version) == seat:
            first.turn.CopyFrom(self._prompt(match.version, seat))
        return first.SerializeToString()

    @staticmethod
    def _prompt(version: int, seat: int) -> match_service_pb2.YourTurn:
        return match_service_pb2.YourTurn(version=version, seat=seat, actions=_ACTIONS)

    def _commit(
        self, match: _Match, seat: int, submit: match_service_pb2.SubmitActionRequest
    ) -> None:
        version = match.commit(submit.request_id)
        if version is None:  # retried: its update went out when it was committed
            return
        next_seat = match.to_move(version)
        update = match_service_pb2.PlayMatchResponse(
            update=match_pb2.MatchUpdate(
                version=version,
                seat=seat,
                notation=submit.notation,
                status=match_pb2.MATCH_STATUS_ACTIVE,
                current_seat=next_seat,
            )
        )
        plain = update.SerializeToString()
        # Appended fields, as senet.service.wire appends them to shared bytes.
        turn = match_service_pb2.PlayMatchResponse(turn=self._prompt(version, next_seat))
        reply = match_service_pb2.PlayMatchResponse(request_id=submit.request_id)
        extra = {seat: reply.SerializeToString()}
        extra[next_seat] = extra.get(next_seat, b"") + turn.SerializeToString()
        for stream_seat, outboxes in match.streams.items():
            message = plain + extra.get(stream_seat, b"")
            for outbox in outboxes:
                outbox.put_nowait(message)


def match_service_handler(service: Any) -> grpc.GenericRpcHandler[Any, Any]:
    """The generic handler of a benchmark MatchService: ``service``'s ``create``,
    ``join``, ``submit`` and ``play`` (replies already serialized where Senet's are)."""
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
        "PlayMatch": grpc.stream_stream_rpc_method_handler(
            service.play, request_deserializer=pb.PlayMatchRequest.FromString
        ),
    }
    return grpc.method_handlers_generic_handler(SERVICE, methods)


def null_handler(service: NullService) -> grpc.GenericRpcHandler[Any, Any]:
    """The generic handler of the null MatchService."""
    return match_service_handler(service)


def main(argv: list[str] | None = None) -> int:
    return command(
        "python -m tests.bench.null_server", __doc__,
        lambda: null_handler(NullService()), "Null MatchService", argv,
    )  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
