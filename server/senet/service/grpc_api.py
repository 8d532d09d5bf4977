"""The gRPC face of the match service: protobuf in, protobuf out.

Thin on purpose: it reads credentials from metadata, converts messages with the
per-game codecs, calls :class:`~senet.service.matches.MatchService`, and turns
every exception into a status with ``google.rpc.ErrorInfo`` through
:func:`senet.service.grpc_errors.status_for` (the one mapping).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, TypeVar

import grpc
from google.protobuf import any_pb2
from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from senet.codec import action_game, codec_for
from senet.codec.options import game_info_to_proto, options_from_proto, options_to_proto
from senet.games.errors import MalformedActionError
from senet.games.interface import Event
from senet.service import errors, grpc_errors, metrics
from senet.service.clocks import ClockView, TimeControl, TimeoutPolicy
from senet.service.lobby import LobbyFilter, MatchListing
from senet.service.matches import (
    Caller,
    MatchService,
    PlayItem,
    WatchItem,
    another_game_message,
)
from senet.service.quotas import Quotas
from senet.service.records import (
    ActionOrigin,
    Heartbeat,
    LeavePolicy,
    LegalActions,
    MatchSnapshot,
    MatchSummary,
    MatchUpdate,
    SeatPlan,
    SeatSummary,
    Status,
    SubmitOutcome,
    token_hash,
)
from senet.service.settings import Settings
from senet.service.wire import LegalEntries, request_id_field
from senet.store.base import now_ms
from senet.v1 import match_pb2, match_service_pb2, match_service_pb2_grpc

log = logging.getLogger("senet.rpc")
T = TypeVar("T")

_STATUS = {
    "active": match_pb2.MATCH_STATUS_ACTIVE,
    "finished": match_pb2.MATCH_STATUS_FINISHED,
    "abandoned": match_pb2.MATCH_STATUS_ABANDONED,
}
_SEAT_KIND = {"open": match_pb2.SEAT_KIND_OPEN, "bot": match_pb2.SEAT_KIND_BOT}
_ORIGIN: dict[ActionOrigin, match_pb2.ActionOrigin.ValueType] = {
    "seat": match_pb2.ACTION_ORIGIN_SEAT,
    "timeout": match_pb2.ACTION_ORIGIN_TIMEOUT,
    "takeover": match_pb2.ACTION_ORIGIN_TAKEOVER,
    "resigned": match_pb2.ACTION_ORIGIN_RESIGNED,
}
_LEAVE_POLICY: dict[int, LeavePolicy] = {
    match_pb2.LEAVE_POLICY_UNSPECIFIED: "resign",
    match_pb2.LEAVE_POLICY_RESIGN: "resign",
    match_pb2.LEAVE_POLICY_BOT: "bot",
}
_LEAVE_POLICY_PROTO = {
    "resign": match_pb2.LEAVE_POLICY_RESIGN,
    "bot": match_pb2.LEAVE_POLICY_BOT,
}
_LEAVE_OUTCOME = {
    "reopened": match_service_pb2.LEAVE_OUTCOME_REOPENED,
    "taken_over": match_service_pb2.LEAVE_OUTCOME_TAKEN_OVER,
    "resigned": match_service_pb2.LEAVE_OUTCOME_RESIGNED,
}


# ------------------------------------------------------------------ errors
def reported(
    method: str, exc: BaseException, match_id: str = ""
) -> tuple[grpc.StatusCode, str, str]:
    """Map ``exc`` through the one mapping, count it, and log it when it is INTERNAL.

    Every error a call answers passes here exactly once, whether it ends the call
    (:func:`fail`) or travels inside a stream (a PlayMatch ``PlayError``), so an
    INTERNAL leaves one log line with its traceback and the match id, whatever
    the RPC.
    """
    code, reason, message = grpc_errors.status_for(exc)
    metrics.ERRORS.labels(method, reason).inc()
    if code == grpc.StatusCode.INTERNAL:
        log.error(
            "internal error",
            exc_info=exc,
            extra={"method": method, "match_id": match_id, "reason": reason},
        )
    return code, reason, message


def _rich_status(
    exc: BaseException, code: grpc.StatusCode, reason: str, message: str
) -> grpc.Status:
    info = error_details_pb2.ErrorInfo(
        reason=reason, domain=grpc_errors.ERROR_DOMAIN, metadata=grpc_errors.facts_of(exc)
    )
    details = [any_pb2.Any()]
    details[0].Pack(info)
    retry_after_s = getattr(exc, "retry_after_s", None)
    if retry_after_s is not None:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromNanoseconds(max(1, int(retry_after_s * 1e9)))
        details.append(any_pb2.Any())
        details[1].Pack(retry)
    status = status_pb2.Status(code=code.value[0], message=message, details=details)
    return rpc_status.to_status(status)


async def fail(
    context: grpc.aio.ServicerContext[Any, Any], method: str, exc: Exception, match_id: str = ""
) -> None:
    """End the call with ``exc``'s status and ErrorInfo (see :func:`reported`)."""
    code, reason, message = reported(method, exc, match_id)
    status = _rich_status(exc, code, reason, message)
    metrics.RPCS.labels(method, code.name).inc()
    await context.abort(status.code, status.details, status.trailing_metadata)


def _caller(context: grpc.aio.ServicerContext[Any, Any], settings: Settings) -> Caller:
    token = None
    admin = not settings.admin_key
    admin_matched = worker = False
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, credential = value.partition(" ")
            if scheme.lower() != "bearer" or not credential.strip():
                raise errors.BadToken("authorization must be 'Bearer <token>'")
            token = credential.strip()
        elif key == "x-senet-admin-key" and isinstance(value, str) and settings.admin_key:
            admin = admin_matched = secrets.compare_digest(value, settings.admin_key)
        elif key == "x-senet-worker-key" and isinstance(value, str) and settings.worker_key:
            worker = secrets.compare_digest(value, settings.worker_key)
    return Caller(
        token=token,
        is_admin=admin,
        is_worker=worker or admin_matched,
        client=client_of(context, settings),
    )


def client_of(context: grpc.aio.ServicerContext[Any, Any], settings: Settings) -> str:
    """The client a call counts against (see senet.service.quotas): the trusted
    proxy's header when configured and present, else the peer's address
    without its port."""
    if settings.client_header:
        for key, value in context.invocation_metadata() or ():
            if key == settings.client_header and isinstance(value, str) and value:
                return value.split(",")[0].strip()
    peer = context.peer() or ""
    kind, _, address = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return address.rpartition(":")[0] or address
    return peer


async def run_unary(
    method: str,
    context: grpc.aio.ServicerContext[Any, Any],
    settings: Settings,
    body: Callable[[Caller], Awaitable[T]],
    draining: bool = False,
    quotas: Quotas | None = None,
    match_id: str = "",
) -> T:
    """Run one unary RPC body for every servicer: credentials in, quota taken
    (when given), errors mapped, metrics out (``match_id``: the match the
    request names, for the log)."""
    started = time.perf_counter()
    try:
        if draining:
            raise errors.Draining("server is shutting down; retry on another replica")
        caller = _caller(context, settings)
        if quotas is not None:
            quotas.take_call(caller.client)
        result = await body(caller)
    except Exception as exc:  # every failure goes through the one mapping
        await fail(context, method, exc, match_id)
        raise AssertionError("abort returned") from exc
    ok, latency = _success_metrics(method)
    ok.inc()
    latency.observe(time.perf_counter() - started)
    return result


@functools.cache
def _success_metrics(method: str) -> tuple[Any, Any]:
    """The OK counter and latency histogram children of ``method``, looked up once."""
    return metrics.RPCS.labels(method, "OK"), metrics.LATENCY.labels(method)


@functools.cache
def _actions_counter(game_id: str) -> Any:
    """The committed-actions counter child of ``game_id``, looked up once."""
    return metrics.ACTIONS.labels(game_id)


# -------------------------------------------------------------- conversions
def summary_to_proto(summary: MatchSummary) -> match_pb2.MatchSummary:
    out = match_pb2.MatchSummary(
        match_id=summary.match_id,
        game_id=summary.game_id,
        status=_STATUS[summary.status],
        version=summary.version,
        seed_commitment=summary.commitment,
        scores=summary.scores,
        places=summary.places,
        leave_policy=_LEAVE_POLICY_PROTO[summary.leave_policy],
        leave_bot_strategy=summary.leave_bot_strategy,
        seed_chosen=summary.seed_chosen,
        started=summary.started,
    )
    options_to_proto(summary.options, out.options)
    control = TimeControl.from_data(summary.time_control)
    if control is not None:
        out.time_control.CopyFrom(
            match_pb2.TimeControl(
                decision_ms=control.decision_ms,
                reserve_ms=control.reserve_ms,
                increment_ms=control.increment_ms,
                timeout_policy=_TIMEOUT_POLICY_PROTO[control.timeout_policy],
                handover_after=control.handover_after,
                handover_strategy=control.handover_strategy,
            )
        )
    if summary.clock is not None:
        _write_clock(out.clock, summary.clock)
    if summary.current_seat is not None:
        out.current_seat = summary.current_seat
    out.deciding_seats.extend(summary.deciding)
    _write_seats(out.seats, summary.seats)
    return out


def _write_seats(
    out: RepeatedCompositeFieldContainer[match_pb2.SeatInfo], seats: list[SeatSummary]
) -> None:
    for seat in seats:
        out.add(
            seat=seat.seat,
            kind=_SEAT_KIND[seat.kind],
            display_name=seat.display_name,
            claimed=seat.claimed,
            bot_strategy=seat.bot_strategy,
            resigned=seat.resigned,
            takeover_strategy=seat.takeover_strategy,
        )


def snapshot_to_proto(snapshot: MatchSnapshot) -> match_pb2.MatchSnapshot:
    codec = codec_for(snapshot.summary.game_id)
    return match_pb2.MatchSnapshot(
        match=summary_to_proto(snapshot.summary), view=codec.view_to_proto(snapshot.view)
    )


def write_update(out: match_pb2.MatchUpdate, game_id: str, update: MatchUpdate) -> None:
    """Fill ``out`` (empty) with ``update``: built in place, since upb copies every
    message handed to a constructor."""
    out.version = update.version
    out.seat = update.seat
    out.notation = update.notation
    _write_events(out.events, game_id, update.events)
    out.status = _STATUS[update.status]
    if update.current_seat is not None:
        out.current_seat = update.current_seat
    out.deciding_seats.extend(update.deciding)
    if update.clock is not None:
        _write_clock(out.clock, update.clock)
    out.origin = _ORIGIN[update.origin]
    if update.origin_strategy:
        out.origin_strategy = update.origin_strategy


#: The wire form of legal-action entries, shared by every prompt and list here.
LEGAL_ENTRIES = LegalEntries()


def _write_events(
    out: RepeatedCompositeFieldContainer[match_pb2.GameEvent], game_id: str, events: list[Event]
) -> None:
    """Append ``events`` to a repeated ``GameEvent`` field, each built in place."""
    codec = codec_for(game_id)
    for event in events:
        codec.write_event(out.add(), event)


def outcome_to_proto(outcome: SubmitOutcome) -> match_service_pb2.SubmitActionResponse:
    out = match_service_pb2.SubmitActionResponse(
        version=outcome.version,
        status=_STATUS[outcome.status],
        duplicate=outcome.duplicate,
        request_id=outcome.request_id,
    )
    _write_events(out.events, outcome.game_id, outcome.events)
    if outcome.current_seat is not None:
        out.current_seat = outcome.current_seat
    return out


_TIMEOUT_POLICY: dict[int, TimeoutPolicy] = {
    match_pb2.TIMEOUT_POLICY_UNSPECIFIED: "bot_move",
    match_pb2.TIMEOUT_POLICY_BOT_MOVE: "bot_move",
    match_pb2.TIMEOUT_POLICY_RESIGN: "resign",
}
_TIMEOUT_POLICY_PROTO = {
    "bot_move": match_pb2.TIMEOUT_POLICY_BOT_MOVE,
    "resign": match_pb2.TIMEOUT_POLICY_RESIGN,
}


def _time_control(request: match_service_pb2.CreateMatchRequest) -> TimeControl | None:
    if not request.HasField("time_control"):
        return None
    tc = request.time_control
    policy = _TIMEOUT_POLICY.get(tc.timeout_policy)
    if policy is None:
        raise errors.MalformedRequest(f"unknown timeout_policy {tc.timeout_policy}")
    return TimeControl(
        decision_ms=tc.decision_ms,
        reserve_ms=tc.reserve_ms,
        increment_ms=tc.increment_ms,
        timeout_policy=policy,
        handover_after=tc.handover_after,
        handover_strategy=tc.handover_strategy or "random",
    )


def _write_clock(out: match_pb2.ClockState, data: Mapping[str, Any]) -> None:
    view = ClockView.from_data(data)
    assert view is not None
    out.remaining_ms.extend(view.remaining_ms)
    out.timeouts_in_row.extend(view.timeouts)
    if view.deadline_ms is not None:
        out.deadline_ms = view.deadline_ms
    if len(view.deadlines_ms) > 1:
        out.deciding_deadlines.extend(
            match_pb2.SeatDeadline(seat=s, deadline_ms=ms) for s, ms in view.deadlines_ms.items()
        )


def _leave_policy(value: int) -> LeavePolicy:
    policy = _LEAVE_POLICY.get(value)
    if policy is None:
        raise errors.MalformedRequest(f"unknown leave_policy {value}")
    return policy


def _seat_plans(request: match_service_pb2.CreateMatchRequest) -> list[SeatPlan]:
    plans = []
    for plan in request.seats:
        if plan.kind == match_pb2.SEAT_KIND_BOT:
            plans.append(SeatPlan("bot", plan.bot_strategy))
        elif plan.kind in (match_pb2.SEAT_KIND_OPEN, match_pb2.SEAT_KIND_UNSPECIFIED):
            if plan.bot_strategy:
                raise errors.MalformedRequest("only bot seats take a bot_strategy")
            plans.append(SeatPlan("open"))
        else:
            raise errors.MalformedRequest(f"unknown seat kind {plan.kind}")
    return plans


def _notation(request: match_service_pb2.SubmitActionRequest) -> tuple[str, str | None]:
    """(notation, game id of a typed action) from a submission."""
    which = request.WhichOneof("action")
    if which == "notation":
        return request.notation, None
    if which == "typed":
        game = action_game(request.typed)
        if game is None:
            raise MalformedActionError("typed action has no game message set")
        return codec_for(game).action_from_proto(request.typed), game
    raise errors.MalformedRequest("set either 'typed' or 'notation'")


# ---------------------------------------------------------------- servicer
class MatchServicer(match_service_pb2_grpc.MatchServiceServicer):
    """Implements senet.v1.MatchService over a MatchService."""

    def __init__(self, service: MatchService, settings: Settings) -> None:
        self.service = service
        self.settings = settings
        self.draining = False
        self._watched: dict[str, int] = {}
        self.quotas = Quotas(settings)

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
                _seat_plans(request),
                request.seed if request.HasField("seed") else None,
                _leave_policy(request.leave_policy),
                request.leave_bot_strategy,
                _time_control(request),
                request_id=request.request_id,
            )
            metrics.MATCHES_CREATED.labels(snapshot.summary.game_id).inc()
            return match_service_pb2.CreateMatchResponse(
                match_id=snapshot.summary.match_id, match=summary_to_proto(snapshot.summary)
            )

        return await self._unary("CreateMatch", context, body)

    async def JoinMatch(
        self, request: match_service_pb2.JoinMatchRequest, context: Any
    ) -> match_service_pb2.JoinMatchResponse:
        async def body(caller: Caller) -> match_service_pb2.JoinMatchResponse:
            seat, token, summary = await self.service.join(
                caller,
                request.match_id,
                request.seat if request.HasField("seat") else None,
                request.display_name,
                request_id=request.request_id,
                entropy=request.entropy,
            )
            return match_service_pb2.JoinMatchResponse(
                seat=seat, token=token, match=summary_to_proto(summary)
            )

        return await self._unary("JoinMatch", context, body, request.match_id)

    async def LeaveMatch(
        self, request: match_service_pb2.LeaveMatchRequest, context: Any
    ) -> match_service_pb2.LeaveMatchResponse:
        async def body(caller: Caller) -> match_service_pb2.LeaveMatchResponse:
            outcome, summary = await self.service.leave(caller, request.match_id)
            return match_service_pb2.LeaveMatchResponse(
                outcome=_LEAVE_OUTCOME[outcome], match=summary_to_proto(summary)
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
            notation, typed_game = _notation(request)
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
            )
            options_to_proto(export.options, out.options)
            for a in export.actions:
                out.actions.add(
                    version=a.version,
                    seat=a.seat,
                    notation=a.notation,
                    origin=_ORIGIN[a.origin],
                    origin_strategy=a.origin_strategy,
                )
            return out

        return await self._unary("ExportMatch", context, body, request.match_id)

    # --------------------------------------------------------------- lobby
    async def ListMatches(
        self, request: match_service_pb2.ListMatchesRequest, context: Any
    ) -> match_service_pb2.ListMatchesResponse:
        async def body(caller: Caller) -> match_service_pb2.ListMatchesResponse:
            page = await self.service.list_matches(
                _lobby_filter(request), request.page_size, request.page_token
            )
            out = match_service_pb2.ListMatchesResponse(next_page_token=page.next_page_token)
            for listing in page.matches:
                _write_listing(out.matches.add(), listing)
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
        metrics.OPEN_STREAMS.labels(method).inc()
        self._watched[match_id] = self._watched.get(match_id, 0) + 1
        metrics.ACTIVE_MATCHES.set(len(self._watched))
        try:
            yield
        finally:
            metrics.OPEN_STREAMS.labels(method).dec()
            left = self._watched[match_id] - 1
            if left:
                self._watched[match_id] = left
            else:
                del self._watched[match_id]
            metrics.ACTIVE_MATCHES.set(len(self._watched))

    def _watch_message(
        self, game_id: str, item: WatchItem
    ) -> match_service_pb2.WatchMatchResponse | bytes:
        return _stream_message(match_service_pb2.WatchMatchResponse, game_id, item)

    def _play_message(
        self, game_id: str, item: WatchItem
    ) -> match_service_pb2.PlayMatchResponse | bytes:
        return _stream_message(match_service_pb2.PlayMatchResponse, game_id, item)

    # The streams yield messages or their bytes, serialized once for every stream
    # sharing them (senet.service.wire); the generated base class knows messages only.
    async def WatchMatch(  # type: ignore[override]
        self, request: match_service_pb2.WatchMatchRequest, context: Any
    ) -> AsyncIterator[match_service_pb2.WatchMatchResponse | bytes]:
        try:
            if self.draining:
                raise errors.Draining("server is shutting down; retry on another replica")
            caller = _caller(context, self.settings)
            from_version = request.from_version if request.HasField("from_version") else None
            game_id = await self.service.game_of(request.match_id)
            with self._stream("WatchMatch", request.match_id, caller):
                async for item in self.service.watch(caller, request.match_id, from_version):
                    yield self._watch_message(game_id, item)
                    if self.draining:
                        raise errors.Draining("server is shutting down; resume elsewhere")
        except Exception as exc:
            await fail(context, "WatchMatch", exc, request.match_id)
        metrics.RPCS.labels("WatchMatch", "OK").inc()

    async def PlayMatch(  # type: ignore[override]
        self, request_iterator: AsyncIterator[match_service_pb2.PlayMatchRequest], context: Any
    ) -> AsyncIterator[match_service_pb2.PlayMatchResponse | bytes]:
        match_id = ""
        try:
            if self.draining:
                raise errors.Draining("server is shutting down; retry on another replica")
            caller = _caller(context, self.settings)
            first = await anext(aiter(request_iterator), None)
            if first is None or first.WhichOneof("message") != "hello":
                raise errors.MalformedRequest("the first PlayMatch message must be a hello")
            hello = first.hello
            match_id = hello.match_id
            if caller.token is None:
                raise errors.TokenRequired("PlayMatch needs the seat token")
            game_id = await self.service.game_of(hello.match_id)
            from_version = hello.from_version if hello.HasField("from_version") else None
            with self._stream("PlayMatch", hello.match_id, caller):
                async for message in self._play(
                    caller, hello.match_id, game_id, from_version, hello.compact, request_iterator
                ):
                    yield message
        except Exception as exc:
            await fail(context, "PlayMatch", exc, match_id)
        metrics.RPCS.labels("PlayMatch", "OK").inc()

    async def _play(
        self,
        caller: Caller,
        match_id: str,
        game_id: str,
        from_version: int | None,
        compact: bool,
        requests: AsyncIterator[match_service_pb2.PlayMatchRequest],
    ) -> AsyncIterator[match_service_pb2.PlayMatchResponse | bytes]:
        """Merge two flows into one stream: match updates (+ prompts) and submissions.

        ``compact`` (PlayHello.compact): a prompt rides on the message of the
        update it follows, and a committed submission's reply is the update it
        made (see :func:`_compact_message`).
        """
        outbox: asyncio.Queue[match_service_pb2.PlayMatchResponse | bytes | BaseException | None]
        outbox = asyncio.Queue()
        put = outbox.put_nowait  # unbounded: never waits
        render = _compact_reply if compact else outcome_to_proto

        def send(step: PlayItem | None) -> None:
            """A step's messages to the stream (None: the stream is over)."""
            if step is None:
                put(None)
                return
            item, prompt = step
            if compact and item is not None:
                put(_compact_message(game_id, item, prompt))
                return
            if item is not None:
                put(self._play_message(game_id, item))
            if prompt is not None:
                put(_prompt_message(prompt))

        async def pump_updates() -> None:
            try:
                # On a compact stream most steps are pushed to send as commits
                # are published; the rest come through here. A classic stream's
                # steps all do, so that its `submitted` replies keep their place
                # before the updates they made.
                sink = send if compact else None
                async for step in self.service.play(caller, match_id, from_version, sink):
                    send(step)
                put(None)
            except BaseException as exc:  # surfaced to the stream as its status
                put(exc)

        async def pump_requests() -> None:
            try:
                async for request in requests:
                    if request.WhichOneof("message") != "submit":
                        error = errors.MalformedRequest("expected a submit")
                        put(_play_error(error, "", match_id))
                        continue
                    submit = request.submit
                    try:
                        response = await self._submit(caller, match_id, submit, render)
                        if response is not None:
                            put(match_service_pb2.PlayMatchResponse(submitted=response))
                    except Exception as exc:
                        put(_play_error(exc, submit.request_id, match_id))
                        # Ask again: the refused move left the seat still to decide.
                        stored_version = await self.service.version_of(match_id)
                        await self._maybe_prompt(caller, match_id, game_id, stored_version, outbox)
            except Exception as exc:  # e.g. the store is down while re-prompting
                put(exc)  # end the stream with it; never a silent dead pump

        updates = asyncio.create_task(pump_updates())
        submissions = asyncio.create_task(pump_requests())
        try:
            while True:
                message = await outbox.get()
                if message is None:
                    return
                if isinstance(message, BaseException):
                    raise message
                yield message
        finally:
            updates.cancel()
            submissions.cancel()

    async def _maybe_prompt(
        self,
        caller: Caller,
        match_id: str,
        game_id: str,
        version: int,
        outbox: asyncio.Queue[Any],
    ) -> None:
        legal = await self.service.prompt(caller, match_id, version)
        if legal is not None:
            outbox.put_nowait(_prompt_message(legal))


_Reply = TypeVar("_Reply")
_Streamed = TypeVar(
    "_Streamed", match_service_pb2.WatchMatchResponse, match_service_pb2.PlayMatchResponse
)


def _stream_message(response: type[_Streamed], game_id: str, item: WatchItem) -> _Streamed | bytes:
    """``item`` as a message of a WatchMatch or PlayMatch stream (the same fields).

    An update's message is built and serialized once per audience: the streams
    that share the update (see senet.service.stream_steps.update_for) share its bytes, kept in
    its ``wire`` (the servicer's serializers pass bytes through).
    """
    if isinstance(item, MatchSnapshot):
        return response(snapshot=snapshot_to_proto(item))
    if isinstance(item, MatchUpdate):
        key = response.DESCRIPTOR.name
        data: bytes | None = item.wire.get(key)
        if data is None:
            message = response()
            write_update(message.update, game_id, item)
            data = item.wire[key] = message.SerializeToString()
        return data
    return response(heartbeat=_heartbeat(item))


def _compact_reply(outcome: SubmitOutcome) -> match_service_pb2.SubmitActionResponse | None:
    """A submission's reply on a compact stream: only a retried request's (its
    update went out before); a commit's reply is its update."""
    return outcome_to_proto(outcome) if outcome.duplicate else None


def _compact_message(game_id: str, item: WatchItem, prompt: LegalActions | None) -> bytes:
    """``item``'s PlayMatch message on a compact stream: its prompt beside it,
    and on the update of the receiver's own submission, that request's id."""
    message = _stream_message(match_service_pb2.PlayMatchResponse, game_id, item)
    data = message if isinstance(message, bytes) else message.SerializeToString()
    if prompt is not None:
        data += LEGAL_ENTRIES.turn(prompt)
    if isinstance(item, MatchUpdate) and item.request_id:
        data += request_id_field(item.request_id)
    return data


def _heartbeat(item: Heartbeat) -> match_pb2.Heartbeat:
    return match_pb2.Heartbeat(version=item.version, server_time_ms=now_ms())


def _prompt_message(legal: LegalActions) -> bytes:
    """A PlayMatch prompt (serialized): the seat must decide at ``legal.version``."""
    return LEGAL_ENTRIES.your_turn(legal)


# ------------------------------------------------------------------ lobby
_STATUS_NAME: dict[int, Status] = {
    match_pb2.MATCH_STATUS_ACTIVE: "active",
    match_pb2.MATCH_STATUS_FINISHED: "finished",
    match_pb2.MATCH_STATUS_ABANDONED: "abandoned",
}


def _lobby_filter(request: match_service_pb2.ListMatchesRequest) -> LobbyFilter:
    """The filters of a ListMatches request, checked."""
    status = None
    if request.status != match_pb2.MATCH_STATUS_UNSPECIFIED:
        if request.status not in _STATUS_NAME:
            raise errors.MalformedRequest(f"unknown match status {request.status}")
        status = _STATUS_NAME[request.status]
    return LobbyFilter(
        game_id=request.game_id,
        status=status,
        has_open_seat=request.has_open_seat if request.HasField("has_open_seat") else None,
    )


def _write_listing(out: match_service_pb2.MatchListing, listing: MatchListing) -> None:
    """Fill ``out`` (empty) with ``listing``."""
    out.match_id = listing.match_id
    out.game_id = listing.game_id
    out.status = _STATUS[listing.status]
    out.created_time_ms = round(listing.created_at * 1000)
    out.version = listing.version
    # A started match's open seats stay claimed (leaving then hands them over).
    out.started = not listing.has_open_seat
    options_to_proto(listing.options, out.options)
    _write_seats(out.seats, listing.seats)


def _play_error(
    exc: BaseException, request_id: str, match_id: str
) -> match_service_pb2.PlayMatchResponse:
    """A refused PlayMatch submission, as the message that tells the stream why."""
    code, reason, message = reported("PlayMatch", exc, match_id)
    return match_service_pb2.PlayMatchResponse(
        error=match_service_pb2.PlayError(
            code=code.value[0],
            reason=reason,
            message=message,
            request_id=request_id,
            metadata=grpc_errors.facts_of(exc),
        )
    )
