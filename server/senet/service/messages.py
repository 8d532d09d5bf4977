"""The service's records as senet.v1 messages, and requests as the service's values.

Pure conversions, no gRPC: the gRPC face (:mod:`senet.service.grpc_api`) reads
requests through these functions and writes its replies and stream messages with
them. Per-game parts (actions, events, views, options) go through the game's
codec (:mod:`senet.codec`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer

from senet.codec import action_game, codec_for
from senet.codec.options import options_to_proto
from senet.games.errors import MalformedActionError
from senet.games.interface import Event
from senet.service import errors
from senet.service.clocks import ClockView, TimeControl, TimeoutPolicy
from senet.service.lobby import LobbyFilter, MatchListing
from senet.service.records import ActionOrigin, LeavePolicy, SeatPlan, Status
from senet.service.stream_steps import WatchItem
from senet.service.views import (
    Heartbeat,
    LegalActions,
    MatchSnapshot,
    MatchSummary,
    MatchUpdate,
    SeatSummary,
    SubmitOutcome,
)
from senet.service.wire import LegalEntries, request_id_field
from senet.store.base import now_ms
from senet.v1 import match_pb2, match_service_pb2

#: A match status as its wire enum.
STATUS: dict[Status, match_pb2.MatchStatus.ValueType] = {
    "active": match_pb2.MATCH_STATUS_ACTIVE,
    "finished": match_pb2.MATCH_STATUS_FINISHED,
    "abandoned": match_pb2.MATCH_STATUS_ABANDONED,
}
_SEAT_KIND = {"open": match_pb2.SEAT_KIND_OPEN, "bot": match_pb2.SEAT_KIND_BOT}
ORIGIN: dict[ActionOrigin, match_pb2.ActionOrigin.ValueType] = {
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
LEAVE_OUTCOME = {
    "reopened": match_service_pb2.LEAVE_OUTCOME_REOPENED,
    "taken_over": match_service_pb2.LEAVE_OUTCOME_TAKEN_OVER,
    "resigned": match_service_pb2.LEAVE_OUTCOME_RESIGNED,
}


# -------------------------------------------------------------- conversions
def summary_to_proto(summary: MatchSummary) -> match_pb2.MatchSummary:
    out = match_pb2.MatchSummary()
    write_summary(out, summary)
    return out


def write_summary(out: match_pb2.MatchSummary, summary: MatchSummary) -> None:
    """Fill ``out`` (empty) with ``summary``: built in place, as a snapshot's
    part, since upb copies every message handed to a constructor."""
    out.match_id = summary.match_id
    out.game_id = summary.game_id
    out.status = STATUS[summary.status]
    out.version = summary.version
    out.seed_commitment = summary.commitment
    out.scores.extend(summary.scores)
    out.places.extend(summary.places)
    out.leave_policy = _LEAVE_POLICY_PROTO[summary.leave_policy]
    out.leave_bot_strategy = summary.leave_bot_strategy
    out.seed_chosen = summary.seed_chosen
    out.started = summary.started
    out.unlisted = summary.unlisted
    out.rematch_of = summary.rematch_of
    out.rated = summary.rated
    options_to_proto(summary.options, out.options)
    control = TimeControl.from_data(summary.time_control)
    if control is not None:
        time_control = out.time_control
        time_control.decision_ms = control.decision_ms
        time_control.reserve_ms = control.reserve_ms
        time_control.increment_ms = control.increment_ms
        time_control.timeout_policy = _TIMEOUT_POLICY_PROTO[control.timeout_policy]
        time_control.handover_after = control.handover_after
        time_control.handover_strategy = control.handover_strategy
        time_control.SetInParent()
    if summary.clock is not None:
        _write_clock(out.clock, summary.clock)
    if summary.current_seat is not None:
        out.current_seat = summary.current_seat
    out.deciding_seats.extend(summary.deciding)
    write_seats(out.seats, summary.seats)


def write_seats(
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
            kept=seat.kept,
            rematch_declined=seat.rematch_declined,
        )


def snapshot_to_proto(snapshot: MatchSnapshot) -> match_pb2.MatchSnapshot:
    out = match_pb2.MatchSnapshot()
    write_snapshot(out, snapshot)
    return out


def write_snapshot(out: match_pb2.MatchSnapshot, snapshot: MatchSnapshot) -> None:
    """Fill ``out`` (empty) with ``snapshot``, its summary and view built in place
    (a constructor would copy each: as much again as building them)."""
    write_summary(out.match, snapshot.summary)
    out.match.SetInParent()
    out.view.SetInParent()
    codec_for(snapshot.summary.game_id).write_view(out.view, snapshot.view)


def write_update(out: match_pb2.MatchUpdate, game_id: str, update: MatchUpdate) -> None:
    """Fill ``out`` (empty) with ``update``: built in place, since upb copies every
    message handed to a constructor."""
    out.version = update.version
    out.seat = update.seat
    out.notation = update.notation
    _write_events(out.events, game_id, update.events)
    out.status = STATUS[update.status]
    if update.current_seat is not None:
        out.current_seat = update.current_seat
    out.deciding_seats.extend(update.deciding)
    if update.clock is not None:
        _write_clock(out.clock, update.clock)
    out.origin = ORIGIN[update.origin]
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
        status=STATUS[outcome.status],
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


def time_control_from_proto(request: match_service_pb2.CreateMatchRequest) -> TimeControl | None:
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


def leave_policy_from_proto(value: int) -> LeavePolicy:
    policy = _LEAVE_POLICY.get(value)
    if policy is None:
        raise errors.MalformedRequest(f"unknown leave_policy {value}")
    return policy


def seat_plans_from_proto(request: match_service_pb2.CreateMatchRequest) -> list[SeatPlan]:
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


def submitted_action(request: match_service_pb2.SubmitActionRequest) -> tuple[str, str | None]:
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


_Streamed = TypeVar(
    "_Streamed", match_service_pb2.WatchMatchResponse, match_service_pb2.PlayMatchResponse
)


def stream_message(response: type[_Streamed], game_id: str, item: WatchItem) -> _Streamed | bytes:
    """``item`` as a message of a WatchMatch or PlayMatch stream (the same fields).

    An update's message is built and serialized once per audience: the streams
    that share the update (see senet.service.stream_steps.update_for) share its bytes, kept in
    its ``wire`` (the servicer's serializers pass bytes through).
    """
    if isinstance(item, MatchSnapshot):
        message = response()
        write_snapshot(message.snapshot, item)
        return message
    if isinstance(item, MatchUpdate):
        data: bytes | None = item.wire.get(response.DESCRIPTOR.name)
        return _update_bytes(response, game_id, item) if data is None else data
    return response(heartbeat=_heartbeat(item))


def _update_bytes(response: type[_Streamed], game_id: str, item: MatchUpdate) -> bytes:
    """``item``'s message serialized, kept in its ``wire`` for the streams sharing it."""
    message = response()
    write_update(message.update, game_id, item)
    data: bytes = message.SerializeToString()
    item.wire[response.DESCRIPTOR.name] = data
    return data


def compact_reply(outcome: SubmitOutcome) -> match_service_pb2.SubmitActionResponse | None:
    """A submission's reply on a compact stream: only a retried request's (its
    update went out before); a commit's reply is its update."""
    return outcome_to_proto(outcome) if outcome.duplicate else None


def compact_message(game_id: str, item: WatchItem, prompt: LegalActions | None) -> bytes:
    """``item``'s PlayMatch message on a compact stream: its prompt beside it,
    and on the update of the receiver's own submission, that request's id."""
    message = stream_message(match_service_pb2.PlayMatchResponse, game_id, item)
    data = message if isinstance(message, bytes) else message.SerializeToString()
    if prompt is not None:
        data += LEGAL_ENTRIES.turn(prompt)
    if isinstance(item, MatchUpdate) and item.request_id:
        data += request_id_field(item.request_id)
    return data


def _heartbeat(item: Heartbeat) -> match_pb2.Heartbeat:
    return match_pb2.Heartbeat(version=item.version, server_time_ms=now_ms())


def prompt_message(legal: LegalActions) -> bytes:
    """A PlayMatch prompt (serialized): the seat must decide at ``legal.version``."""
    return LEGAL_ENTRIES.your_turn(legal)


# ------------------------------------------------------------------ lobby
_STATUS_NAME: dict[int, Status] = {
    match_pb2.MATCH_STATUS_ACTIVE: "active",
    match_pb2.MATCH_STATUS_FINISHED: "finished",
    match_pb2.MATCH_STATUS_ABANDONED: "abandoned",
}


def lobby_filter_from_proto(request: match_service_pb2.ListMatchesRequest) -> LobbyFilter:
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
        rated=request.rated if request.HasField("rated") else None,
    )


def write_listing(out: match_service_pb2.MatchListing, listing: MatchListing) -> None:
    """Fill ``out`` (empty) with ``listing``."""
    out.match_id = listing.match_id
    out.game_id = listing.game_id
    out.status = STATUS[listing.status]
    out.created_time_ms = round(listing.created_at * 1000)
    out.version = listing.version
    out.started = listing.started
    out.rated = listing.rated
    options_to_proto(listing.options, out.options)
    write_seats(out.seats, listing.seats)
