"""The gRPC face of the match service: protobuf in, protobuf out.

Thin on purpose: it reads credentials from metadata, converts messages with the
per-game codecs, calls :class:`~senet.service.matches.MatchService`, and turns
every exception into a status with ``google.rpc.ErrorInfo`` through
:func:`senet.service.grpc_errors.status_for` (the one mapping).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import grpc

from senet.codec import action_game
from senet.codec.options import game_info_to_proto, options_from_proto, options_to_proto
from senet.games.errors import MalformedActionError
from senet.service import errors, malformed, metrics
from senet.service.grpc_calls import caller_of, header, run_unary
from senet.service.grpc_errors import fail, play_error
from senet.service.identity import Identities
from senet.service.matches import (
    Caller,
    MatchService,
    PlayItem,
    WatchItem,
    another_game_message,
)
from senet.service.messages import (
    LEAVE_OUTCOME,
    LEGAL_ENTRIES,
    ORIGIN,
    compact_message,
    compact_reply,
    leave_policy_from_proto,
    lobby_filter_from_proto,
    outcome_to_proto,
    prompt_message,
    seat_plans_from_proto,
    snapshot_to_proto,
    stream_message,
    submitted_action,
    summary_to_proto,
    time_control_from_proto,
    write_listing,
    write_seats,
)
from senet.service.quotas import Quotas
from senet.service.records import token_hash
from senet.service.settings import Settings
from senet.service.views import LegalActions, SubmitOutcome
from senet.v1 import match_service_pb2, match_service_pb2_grpc

log = logging.getLogger("senet.rpc")
T = TypeVar("T")
#: What a call's read returns once the client is done sending (the stubs omit it).
EOF: Any = getattr(grpc.aio, "EOF")  # noqa: B009


@functools.cache
def _actions_counter(game_id: str) -> Any:
    """The committed-actions counter child of ``game_id``, looked up once."""
    return metrics.ACTIONS.labels(game_id)


@functools.cache
def _open_streams(method: str) -> Any:
    """The open-streams gauge child of ``method``, looked up once."""
    return metrics.OPEN_STREAMS.labels(method)


@functools.cache
def _stream_ok(method: str) -> Any:
    """The OK counter child of the stream ``method``, looked up once."""
    return metrics.RPCS.labels(method, "OK")


# ---------------------------------------------------------------- servicer
class MatchServicer(match_service_pb2_grpc.MatchServiceServicer):
    """Implements senet.v1.MatchService over a MatchService."""

    def __init__(self, service: MatchService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self.draining = False
        self._watched: dict[str, int] = {}
        self.quotas = Quotas(settings)
        #: Verifies identity tokens sent with JoinMatch (the server's one verifier).
        self.identities: Identities | None = None

    def start_draining(self) -> None:
        """Refuse new calls and end every open stream with DRAINING, so clients
        resume on another replica instead of seeing their streams cancelled."""
        self.draining = True
        self.service.feeds.interrupt(
            lambda: errors.Draining("server is shutting down; resume elsewhere")
        )

    async def _unary(
        self,
        method: str,
        context: grpc.aio.ServicerContext[Any, Any],
        body: Callable[[Caller], Awaitable[T]],
        match_id: str = "",
    ) -> T:
        draining = self.draining and method != "ListGames"
        return await run_unary(
            method, context, self.settings, body, draining, self.quotas, match_id
        )

    async def ListGames(
        self, request: match_service_pb2.ListGamesRequest, context: Any
    ) -> match_service_pb2.ListGamesResponse:
        async def body(caller: Caller) -> match_service_pb2.ListGamesResponse:
            games = [game_info_to_proto(g) for g in self.service.list_games()]
            return match_service_pb2.ListGamesResponse(games=games)

        return await self._unary("ListGames", context, body)

    async def CreateMatch(
        self, request: match_service_pb2.CreateMatchRequest, context: Any
    ) -> match_service_pb2.CreateMatchResponse:
        async def body(caller: Caller) -> match_service_pb2.CreateMatchResponse:
            self.quotas.take_create(caller.client)
            snapshot = await self.service.create_match(
                caller,
                request.game_id,
                options_from_proto(request.options),
                seat_plans_from_proto(request),
                request.seed if request.HasField("seed") else None,
                leave_policy_from_proto(request.leave_policy),
                request.leave_bot_strategy,
                time_control_from_proto(request),
                request_id=request.request_id,
                unlisted=request.unlisted,
            )
            return match_service_pb2.CreateMatchResponse(
                match_id=snapshot.summary.match_id, match=summary_to_proto(snapshot.summary)
            )

        return await self._unary("CreateMatch", context, body)

    async def JoinMatch(
        self, request: match_service_pb2.JoinMatchRequest, context: Any
    ) -> match_service_pb2.JoinMatchResponse:
        async def body(caller: Caller) -> match_service_pb2.JoinMatchResponse:
            subject = await self._subject_of(context)
            seat, token, summary = await self.service.join(
                caller,
                request.match_id,
                request.seat if request.HasField("seat") else None,
                request.display_name,
                request_id=request.request_id,
                entropy=request.entropy,
                subject=subject,
            )
            return match_service_pb2.JoinMatchResponse(
                seat=seat, token=token, match=summary_to_proto(summary)
            )

        return await self._unary("JoinMatch", context, body, request.match_id)

    async def RequestRematch(
        self, request: match_service_pb2.RequestRematchRequest, context: Any
    ) -> match_service_pb2.RequestRematchResponse:
        async def body(caller: Caller) -> match_service_pb2.RequestRematchResponse:
            self.quotas.take_create(caller.client)
            seat, token, summary = await self.service.request_rematch(
                caller, request.match_id, request.entropy
            )
            return match_service_pb2.RequestRematchResponse(
                match_id=summary.match_id,
                seat=seat,
                token=token,
                match=summary_to_proto(summary),
            )

        return await self._unary("RequestRematch", context, body, request.match_id)

    async def DeclineRematch(
        self, request: match_service_pb2.DeclineRematchRequest, context: Any
    ) -> match_service_pb2.DeclineRematchResponse:
        async def body(caller: Caller) -> match_service_pb2.DeclineRematchResponse:
            summary = await self.service.decline_rematch(caller, request.match_id)
            return match_service_pb2.DeclineRematchResponse(match=summary_to_proto(summary))

        return await self._unary("DeclineRematch", context, body, request.match_id)

    async def _subject_of(self, context: Any) -> str:
        """The verified subject of the identity token sent with the call ("" without
        one): a seat joined with an identity records it (senet.service.identity)."""
        token = header(context, "x-senet-identity")
        if token is None or not self.identities:
            return ""
        return (await self.identities.verify(token)).subject

    async def LeaveMatch(
        self, request: match_service_pb2.LeaveMatchRequest, context: Any
    ) -> match_service_pb2.LeaveMatchResponse:
        async def body(caller: Caller) -> match_service_pb2.LeaveMatchResponse:
            outcome, summary = await self.service.leave(caller, request.match_id)
            return match_service_pb2.LeaveMatchResponse(
                outcome=LEAVE_OUTCOME[outcome], match=summary_to_proto(summary)
            )

        return await self._unary("LeaveMatch", context, body, request.match_id)

    async def GetMatch(
        self, request: match_service_pb2.GetMatchRequest, context: Any
    ) -> match_service_pb2.GetMatchResponse:
        async def body(caller: Caller) -> match_service_pb2.GetMatchResponse:
            snapshot = await self.service.get(caller, request.match_id)
            proto = snapshot_to_proto(snapshot)
            out = match_service_pb2.GetMatchResponse(match=proto.match, view=proto.view)
            if snapshot.viewer_seat is not None:
                out.viewer_seat = snapshot.viewer_seat
            out.rematch_match_id = snapshot.rematch_id
            return out

        return await self._unary("GetMatch", context, body, request.match_id)

    async def ListLegalActions(  # type: ignore[override]
        self, request: match_service_pb2.ListLegalActionsRequest, context: Any
    ) -> bytes:
        """The list, serialized (as a prompt's: the servicer's serializers pass
        bytes through)."""

        async def body(caller: Caller) -> bytes:
            legal = await self.service.legal_actions(caller, request.match_id)
            return LEGAL_ENTRIES.list_fields(legal)

        return await self._unary("ListLegalActions", context, body, request.match_id)

    async def SubmitAction(
        self, request: match_service_pb2.SubmitActionRequest, context: Any
    ) -> match_service_pb2.SubmitActionResponse:
        async def body(caller: Caller) -> match_service_pb2.SubmitActionResponse:
            return await self._submit(caller, request.match_id, request, outcome_to_proto)

        return await self._unary("SubmitAction", context, body, request.match_id)

    async def _submit(
        self,
        caller: Caller,
        match_id: str,
        request: match_service_pb2.SubmitActionRequest,
        render: Callable[[SubmitOutcome], _Reply],
    ) -> _Reply:
        try:
            notation, typed_game = submitted_action(request)
        except MalformedActionError:
            await self._check_action_game(match_id, request)
            raise
        outcome, response = await self.service.submit(
            caller,
            match_id,
            notation,
            request.expected_version if request.HasField("expected_version") else None,
            request.request_id,
            typed_game,
            render=render,
        )
        if not outcome.duplicate:
            _actions_counter(outcome.game_id).inc()
        return response

    async def _check_action_game(
        self, match_id: str, request: match_service_pb2.SubmitActionRequest
    ) -> None:
        """Refuse a typed action of another game than the match's as such.

        A typed action is decoded by its own game's codec before the match is
        read, so one written for another game fails there first, with that
        game's complaint (Mykerinos' "START takes 1 space(s)" for a Mare
        Nostrum match); this says what is wrong instead. Only refused actions
        pay for the look-up.
        """
        if request.WhichOneof("action") != "typed":
            return
        try:
            sent = action_game(request.typed)
        except MalformedActionError:
            return
        if sent is None:
            return
        match_game = await self.service.game_of(match_id)
        if sent != match_game:
            raise MalformedActionError(another_game_message(sent, match_game))

    async def ExportMatch(
        self, request: match_service_pb2.ExportMatchRequest, context: Any
    ) -> match_service_pb2.ExportMatchResponse:
        async def body(caller: Caller) -> match_service_pb2.ExportMatchResponse:
            export = await self.service.export(request.match_id)
            out = match_service_pb2.ExportMatchResponse(
                game_id=export.game_id,
                seat_count=export.seat_count,
                seed=export.seed,
                seed_salt=export.salt,
                seed_commitment=export.commitment,
                scores=export.scores,
                places=export.places,
                seed_chosen=export.seed_chosen,
                seat_entropy=export.entropy,
                dealt_seed=export.dealt_seed,
                rules_version=export.rules_version,
            )
            options_to_proto(export.options, out.options)
            write_seats(out.seats, export.seats)
            for a in export.actions:
                out.actions.add(
                    version=a.version,
                    seat=a.seat,
                    notation=a.notation,
                    origin=ORIGIN[a.origin],
                    origin_strategy=a.origin_strategy,
                    rules_version=a.rules_version,
                )
            return out

        return await self._unary("ExportMatch", context, body, request.match_id)

    # --------------------------------------------------------------- lobby
    async def ListMatches(
        self, request: match_service_pb2.ListMatchesRequest, context: Any
    ) -> match_service_pb2.ListMatchesResponse:
        async def body(caller: Caller) -> match_service_pb2.ListMatchesResponse:
            page = await self.service.list_matches(
                lobby_filter_from_proto(request), request.page_size, request.page_token
            )
            out = match_service_pb2.ListMatchesResponse(next_page_token=page.next_page_token)
            for listing in page.matches:
                write_listing(out.matches.add(), listing)
            return out

        return await self._unary("ListMatches", context, body)

    # ------------------------------------------------------------- streams
    @contextlib.contextmanager
    def _stream(self, method: str, match_id: str, caller: Caller) -> Any:
        seat_key = None if caller.token is None else f"{match_id}:{token_hash(caller.token)}"
        with self.quotas.stream(caller.client, seat_key), self._counted(method, match_id):
            yield

    @contextlib.contextmanager
    def _counted(self, method: str, match_id: str) -> Any:
        open_streams = _open_streams(method)
        open_streams.inc()
        self._watched[match_id] = self._watched.get(match_id, 0) + 1
        metrics.ACTIVE_MATCHES.set(len(self._watched))
        try:
            yield
        finally:
            open_streams.dec()
            left = self._watched[match_id] - 1
            if left:
                self._watched[match_id] = left
            else:
                del self._watched[match_id]
            metrics.ACTIVE_MATCHES.set(len(self._watched))

    def _watch_message(
        self, game_id: str, item: WatchItem
    ) -> match_service_pb2.WatchMatchResponse | bytes:
        return stream_message(match_service_pb2.WatchMatchResponse, game_id, item)

    def _play_message(
        self, game_id: str, item: WatchItem
    ) -> match_service_pb2.PlayMatchResponse | bytes:
        return stream_message(match_service_pb2.PlayMatchResponse, game_id, item)

    # The streams yield messages or their bytes, serialized once for every stream
    # sharing them (senet.service.wire); the generated base class knows messages only.
    async def WatchMatch(  # type: ignore[override]
        self, request: match_service_pb2.WatchMatchRequest, context: Any
    ) -> AsyncIterator[match_service_pb2.WatchMatchResponse | bytes]:
        try:
            if self.draining:
                raise errors.Draining("server is shutting down; retry on another replica")
            caller = caller_of(context, self.settings)
            from_version = request.from_version if request.HasField("from_version") else None
            game_id = await self.service.game_of(request.match_id)
            with self._stream("WatchMatch", request.match_id, caller):
                async for item in self.service.watch(caller, request.match_id, from_version):
                    yield self._watch_message(game_id, item)
                    if self.draining:
                        raise errors.Draining("server is shutting down; resume elsewhere")
        except Exception as exc:
            await fail(context, "WatchMatch", exc, request.match_id)
        _stream_ok("WatchMatch").inc()

    # A reader-writer handler (a coroutine, not an async generator): it reads
    # requests and writes messages on the call itself, without the generators
    # gRPC and the guard would put between it and the wire.
    async def PlayMatch(  # type: ignore[override]
        self, request_iterator: AsyncIterator[match_service_pb2.PlayMatchRequest], context: Any
    ) -> None:
        match_id = ""
        try:
            if self.draining:
                raise errors.Draining("server is shutting down; retry on another replica")
            caller = caller_of(context, self.settings)
            first = await malformed.read_checked(context, "PlayMatch")
            if first is EOF or first.WhichOneof("message") != "hello":
                raise errors.MalformedRequest("the first PlayMatch message must be a hello")
            hello = first.hello
            match_id = hello.match_id
            if caller.token is None:
                raise errors.TokenRequired("PlayMatch needs the seat token")
            game_id = await self.service.game_of(hello.match_id)
            from_version = hello.from_version if hello.HasField("from_version") else None
            with self._stream("PlayMatch", hello.match_id, caller):
                await self._play(
                    caller, hello.match_id, game_id, from_version, hello.compact, context
                )
        except Exception as exc:
            await fail(context, "PlayMatch", exc, match_id)
        _stream_ok("PlayMatch").inc()

    async def _play(
        self,
        caller: Caller,
        match_id: str,
        game_id: str,
        from_version: int | None,
        compact: bool,
        context: Any,
    ) -> None:
        """Merge two flows into one stream: match updates (+ prompts) and submissions.

        ``compact`` (PlayHello.compact): a prompt rides on the message of the
        update it follows, and a committed submission's reply is the update it
        made (see :func:`compact_message`).
        """
        outbox = Outbox()
        put = outbox.put
        render = compact_reply if compact else outcome_to_proto

        def send(step: PlayItem | None) -> None:
            """A step's messages to the stream (None: the stream is over)."""
            if step is None:
                put(None)
                return
            item, prompt = step
            if compact and item is not None:
                put(compact_message(game_id, item, prompt))
                return
            if item is not None:
                put(self._play_message(game_id, item))
            if prompt is not None:
                put(prompt_message(prompt))

        def pushed(item: WatchItem | None, prompt: LegalActions | None) -> None:
            """A compact stream's update (and prompt) made as its commit is
            published (None: the stream is over)."""
            if item is None:
                put(None)
                return
            put(compact_message(game_id, item, prompt))

        async def pump_updates() -> None:
            try:
                # On a compact stream most steps are pushed to send as commits
                # are published; the rest come through here. A classic stream's
                # steps all do, so that its `submitted` replies keep their place
                # before the updates they made.
                sink = pushed if compact else None
                async for step in self.service.play(caller, match_id, from_version, sink):
                    send(step)
                put(None)
            except asyncio.CancelledError:
                # The stream is over. Not put in the outbox, where the error's
                # frames (this one among them) would hold the outbox in a cycle
                # that only the garbage collector could free.
                raise
            except BaseException as exc:  # surfaced to the stream as its status
                put(exc)

        async def pump_requests() -> None:
            try:
                while (request := await malformed.read_checked(context, "PlayMatch")) is not EOF:
                    if request.WhichOneof("message") != "submit":
                        error = errors.MalformedRequest("expected a submit")
                        put(play_error(error, "", match_id))
                        continue
                    submit = request.submit
                    try:
                        response = await self._submit(caller, match_id, submit, render)
                        if response is not None:
                            put(match_service_pb2.PlayMatchResponse(submitted=response))
                    except Exception as exc:
                        put(play_error(exc, submit.request_id, match_id))
                        # Ask again: the refused move left the seat still to decide.
                        stored_version = await self.service.version_of(match_id)
                        await self._maybe_prompt(caller, match_id, stored_version, put)
            except Exception as exc:  # e.g. the store is down while re-prompting
                put(exc)  # end the stream with it; never a silent dead pump

        updates = asyncio.create_task(pump_updates())
        submissions = asyncio.create_task(pump_requests())
        write = context.write
        # The outbox's deque read here, not through take(): once per message.
        waiting = outbox.items
        try:
            while True:
                if not waiting:
                    await outbox.wait()
                    continue
                message = waiting.popleft()
                if message is None:
                    return
                if isinstance(message, BaseException):
                    raise message
                await write(message)
        finally:
            updates.cancel()
            submissions.cancel()

    async def _maybe_prompt(
        self,
        caller: Caller,
        match_id: str,
        version: int,
        put: Callable[[bytes], None],
    ) -> None:
        legal = await self.service.prompt(caller, match_id, version)
        if legal is not None:
            put(prompt_message(legal))


class Outbox:
    """A stream's messages on their way to the wire: many producers, the
    stream's handler the one consumer.

    Leaner than an ``asyncio.Queue`` (about a dozen Python calls a message
    between its put and get): a deque, and one future while the consumer
    waits, resolved by the first message put. The consumer pops whatever is
    in :attr:`items` without waiting, and waits only when nothing is.
    """

    __slots__ = ("_waiter", "items")

    def __init__(self) -> None:
        #: The items put and not yet taken, oldest first (the consumer may
        #: pop them itself).
        self.items: collections.deque[Any] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None

    def put(self, item: Any) -> None:
        """Queue ``item`` (never waits) and wake the consumer if it waits."""
        self.items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def wait(self) -> None:
        """Until an item is put (returns at once if one is there)."""
        if self.items:
            return
        waiter = self._waiter = asyncio.get_running_loop().create_future()
        try:
            await waiter
        finally:
            self._waiter = None


_Reply = TypeVar("_Reply")
