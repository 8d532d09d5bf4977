"""Whose decision it is, read off a match summary."""

from __future__ import annotations

from senet.v1 import match_pb2


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
