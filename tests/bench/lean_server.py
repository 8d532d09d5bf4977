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
  core, and the next position's legal actions worked out for the next call
  (after the reply, as Senet does, unless a prompt needs them at once);
- what a commit writes: the log entry, the update (its events) and the new head
  (the state's snapshot), each as JSON text, kept in memory, as the embedded
  store keeps them; with ``--redis-url``, SubmitAction's commit is one script
  call there instead (the version checked, the head, the log entry, the request
  key and the update's stream entry written at once), sent through Senet's
  pipelined connection (:mod:`senet.store.redis_mux`);
- the reply with the mover's events written by the game's codec;
- one success counter and one latency histogram observation.

Its compact PlayMatch streams (the null server's plumbing,
:class:`tests.bench.null_server.StreamedService`) open with the seat's view,
and each committed action sends every seat one message: the update with the
events its audience may see (written once per audience), the mover's carrying
its request id, the next seat's its prompt (each legal action's notation and
label).

It has no clocks, bots, deadlines, takeovers, lobby, quotas, heartbeats, cache
eviction or compare-and-swap, and its prompts carry no typed actions: what it
leaves out is what Senet does beyond the bare contract. Its moves/s beside the
null server's bound what any restructuring of Senet's SubmitAction and
PlayMatch paths could reach on this machine, up to the plumbing: its streams
run on the null server's queue and generator, where Senet's outbox and writes
are somewhat leaner.

Prints ``Lean MatchService is serving on HOST:PORT`` once bound and stops on
SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import hashlib
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

import grpc
import orjson
import redis.asyncio

from senet.codec import codec_for
from senet.games import Action, Event, GameState, get_game
from senet.service import metrics
from senet.service.messages import STATUS, outcome_to_proto
from senet.service.records import Status
from senet.service.views import SubmitOutcome
from senet.service.wire import request_id_field
from senet.store.redis_mux import MuxConnection
from senet.v1 import match_service_pb2
from tests.bench.echo_server import serve_handler
from tests.bench.null_server import Outboxes, StreamedService, match_service_handler


@functools.lru_cache(maxsize=65536)
def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class _Match:
    game_id: str
    state: GameState
    #: The legal actions of the position (None: not worked out yet).
    legal: list[Action] | None
    version: int = 0
    seats: dict[str, int] = field(default_factory=dict)
    requests: dict[str, int] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    updates: list[str] = field(default_factory=list)
    head: str = ""
    streams: Outboxes = field(default_factory=dict)


@dataclass(slots=True)
class _Applied:
    version: int
    seat: int
    notation: str
    events: list[Event]
    status: Status
    #: The version a retried request made (nothing applied).
    duplicate: bool = False
    #: What the commit writes: the request key, the log entry, the update and
    #: the new head, as JSON text (empty for a retry).
    writes: tuple[str, str, str, str] = ("", "", "", "")


@dataclass(eq=False)
class LeanService(StreamedService[_Match]):
    matches: dict[str, _Match] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=itertools.count)
    #: SubmitAction's commits go to Redis through this connection and the
    #: commit script's SHA (None: kept in this process).
    redis: tuple[MuxConnection, str] | None = None

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

    def _caller(self, context: Any) -> tuple[_Match, int]:
        for key, value in context.invocation_metadata():
            if key == "authorization":
                match_id = value.removeprefix("Bearer ").split(".")[0]
                match = self.matches[match_id]
                return match, match.seats[_digest(value.removeprefix("Bearer "))]
        raise KeyError("no token")

    def _apply(self, match: _Match, seat: int, notation: str, request_id: str) -> _Applied:
        """Check and apply one action of ``seat`` (or find its retry); what the
        commit writes is in the result (see :meth:`_written`)."""
        key = f"{seat}:{request_id}"
        done = match.requests.get(key)
        if done is not None:
            return _Applied(done, seat, notation, [], "active", duplicate=True)
        state = match.state
        legal = self._legal(match)
        action = state.read_action(seat, notation, legal)
        events = state.apply(seat, action, legal=legal)
        version = match.version + 1
        status: Status = "finished" if state.is_over() else "active"
        now = time.time()
        notation = action.notation()
        log_entry = {"seat": seat, "notation": notation, "request_id": request_id, "at": now}
        update = {
            "version": version,
            "seat": seat,
            "notation": notation,
            "events": [e.to_data() for e in events],
            "status": status,
            "current_seat": state.current_seat(),
        }
        head = {"state": state.snapshot_data(), "at": now}
        writes = (key, _json(log_entry), _json(update), _json(head))
        match.requests[key] = version
        match.version = version
        match.legal = None if status == "active" else []
        return _Applied(version, seat, notation, events, status, writes=writes)

    @staticmethod
    def _legal(match: _Match) -> list[Action]:
        legal = match.legal
        if legal is None:
            legal = match.legal = list(match.state.legal_actions())
        return legal

    @staticmethod
    def _written(match: _Match, done: _Applied) -> None:
        """The commit kept in this process (no Redis)."""
        if not done.duplicate:
            _key, log_entry, update, head = done.writes
            match.log.append(log_entry)
            match.updates.append(update)
            match.head = head

    def _sent(self, match_id: str, done: _Applied) -> asyncio.Future[Any]:
        """The commit sent to Redis now, as one script call (the version checked,
        then the head, the log entry, the request key and the update's stream
        entry written at once); its reply's future."""
        assert self.redis is not None
        mux, sha = self.redis
        key, log_entry, update, head = done.writes
        keys = [f"lean:{match_id}:{part}" for part in ("head", "log", "requests", "updates")]
        return mux.send("EVALSHA", sha, 4, *keys, done.version - 1, key, head, log_entry, update)

    async def submit(self, request: match_service_pb2.SubmitActionRequest, context: Any) -> bytes:
        started = time.perf_counter()
        match, seat = self._caller(context)
        done = self._apply(match, seat, request.notation, request.request_id)
        pending = None
        if self.redis is None:
            self._written(match, done)
        elif not done.duplicate:
            pending = self._sent(request.match_id, done)
        # The reply is rendered while the store confirms the commit, as Senet does.
        reply = outcome_to_proto(
            SubmitOutcome(
                match.game_id,
                done.version,
                [e for e in done.events if e.visible_to(seat)],
                done.status,
                done.duplicate,
                request.request_id,
                match.state.current_seat(),
            )
        )
        if pending is not None and (answer := await pending)[0] != "committed":
            raise RuntimeError(f"match {request.match_id}: the store answered {answer}")
        asyncio.get_running_loop().call_soon(self._legal, match)  # once the reply is sent
        _counted(started)
        return reply.SerializeToString()

    def _opening(self, match: _Match, seat: int) -> bytes:
        first = match_service_pb2.PlayMatchResponse()
        first.snapshot.match.version = match.version
        codec_for(match.game_id).write_view(first.snapshot.view, match.state.view(seat))
        if match.state.current_seat() == seat and self._legal(match):
            self._prompt(match, seat, first.turn)
        return first.SerializeToString()

    def _prompt(self, match: _Match, seat: int, out: match_service_pb2.YourTurn) -> None:
        out.version = match.version
        out.seat = seat
        describe = match.state.describe
        for action in self._legal(match):
            entry = out.actions.add()
            entry.notation = action.notation()
            entry.label = describe(action)

    def _commit(
        self, match: _Match, seat: int, submit: match_service_pb2.SubmitActionRequest
    ) -> None:
        started = time.perf_counter()
        done = self._apply(match, seat, submit.notation, submit.request_id)
        if done.duplicate:  # its update went out when it was committed
            return
        self._written(match, done)
        state, codec = match.state, codec_for(match.game_id)
        next_seat = state.current_seat()
        by_audience: dict[tuple[int, ...], bytes] = {}
        extra = {seat: request_id_field(submit.request_id)}
        if next_seat is not None:
            turn = match_service_pb2.PlayMatchResponse()
            self._prompt(match, next_seat, turn.turn)
            extra[next_seat] = extra.get(next_seat, b"") + turn.SerializeToString()
        for stream_seat, outboxes in match.streams.items():
            visible = tuple(i for i, e in enumerate(done.events) if e.visible_to(stream_seat))
            plain = by_audience.get(visible)
            if plain is None:
                message = match_service_pb2.PlayMatchResponse()
                update = message.update
                update.version = done.version
                update.seat = seat
                update.notation = done.notation
                for i in visible:
                    codec.write_event(update.events.add(), done.events[i])
                update.status = STATUS[done.status]
                if next_seat is not None:
                    update.current_seat = next_seat
                plain = by_audience[visible] = message.SerializeToString()
            message_bytes = plain + extra.get(stream_seat, b"")
            for outbox in outboxes:
                outbox.put_nowait(message_bytes)
        _counted(started)


def _counted(started: float) -> None:
    ok, latency = _success_metrics()
    ok.inc()
    latency.observe(time.perf_counter() - started)


@functools.cache
def _success_metrics() -> tuple[Any, Any]:
    return metrics.RPCS.labels("SubmitAction", "OK"), metrics.LATENCY.labels("SubmitAction")


def _json(value: object) -> str:
    return orjson.dumps(value).decode()


#: The commit: KEYS head, log, requests, updates; ARGV the expected version, the
#: request key, the head, the log entry, the update.
COMMIT_SCRIPT = """
local done = redis.call('HGET', KEYS[3], ARGV[2])
if done then return {'duplicate', done} end
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
version = version + 1
redis.call('HSET', KEYS[1], 'version', version, 'state', ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('HSET', KEYS[3], ARGV[2], version)
redis.call('XADD', KEYS[4], '*', 'version', version, 'update', ARGV[5])
return {'committed', tostring(version)}
"""


async def _connected(url: str) -> tuple[MuxConnection, str]:
    """Senet's pipelined connection to ``url`` and the commit script loaded there."""
    kwargs = {**redis.asyncio.ConnectionPool.from_url(url).connection_kwargs, "protocol": 2}
    mux = MuxConnection(lambda: redis.asyncio.Connection(**kwargs), 30.0)
    sha = await mux.execute("SCRIPT", "LOAD", COMMIT_SCRIPT)
    return mux, str(sha)


def lean_handler(service: LeanService) -> grpc.GenericRpcHandler[Any, Any]:
    """The generic handler of the lean MatchService."""
    return match_service_handler(service)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.lean_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--redis-url", default="", help="commit SubmitAction's moves there")
    args = parser.parse_args(argv)

    async def serve() -> None:
        service = LeanService()
        if args.redis_url:
            service.redis = await _connected(args.redis_url)
        await serve_handler(lean_handler(service), "Lean MatchService", args.host, args.port)

    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
