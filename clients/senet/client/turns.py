"""Whose decision it is, read off a match summary."""

from __future__ import annotations

from senet.v1 import match_pb2, match_service_pb2


def must_decide(summary: match_pb2.MatchSummary, seat: int) -> bool:
    """Whether ``seat`` must decide in the active match ``summary`` describes.

    Several seats may decide at once (``deciding_seats``: Mare Nostrum's hidden
    trade offers); a summary from a server that predates that field names only
    ``current_seat``.
    """
    if summary.status != match_pb2.MATCH_STATUS_ACTIVE:
        return False
    if summary.deciding_seats:
        return seat in summary.deciding_seats
    return summary.HasField("current_seat") and summary.current_seat == seat


def deciding_seats(message: match_pb2.MatchSummary | match_pb2.MatchUpdate) -> frozenset[int]:
    """The seats that must decide after a summary or an update (several at once,
    or the current seat alone; none once the match is over)."""
    if message.deciding_seats:
        return frozenset(message.deciding_seats)
    return frozenset([message.current_seat]) if message.HasField("current_seat") else frozenset()


def decides_at(summary: match_pb2.MatchSummary, seat: int, version: int) -> bool:
    """Whether ``seat``'s decision due at ``version`` is still open in ``summary``:
    the match is at that version, or later and the seat still must decide (other
    seats deciding with it moved meanwhile; the server judges whether its choice
    still stands when it is submitted at ``version``)."""
    if summary.version == version:
        return True
    return summary.version > version and must_decide(summary, seat)


def prompt_of(message: match_service_pb2.PlayMatchResponse) -> match_service_pb2.YourTurn | None:
    """The prompt a PlayMatch message carries, if any: a ``your_turn`` message,
    or on a compact stream the ``turn`` riding on a snapshot or an update."""
    if message.WhichOneof("message") == "your_turn":
        return message.your_turn
    return message.turn if message.HasField("turn") else None
