"""Leaving a match, in the words every client uses: what a leave did, and the
moment when leaving costs a player nothing (every other player resigned).

Resigned seats are placed in the order their players left, the last to leave
first (``MatchSummary.places``), so a player left alone at the table places
first whatever the rest of the play-out, and keeps that place if they leave.
"""

from __future__ import annotations

from senet.v1 import match_pb2, match_service_pb2

#: What LeaveMatch did, in words for the player.
LEFT_OUTCOME = {
    match_service_pb2.LEAVE_OUTCOME_REOPENED: "You left; your seat is open for someone else.",
    match_service_pb2.LEAVE_OUTCOME_TAKEN_OVER: "You left; a bot plays your seat from now on.",
    match_service_pb2.LEAVE_OUTCOME_RESIGNED: "You resigned; your seat plays out and ranks last.",
}
#: The outcome of leaving once every other player had resigned.
LEFT_FIRST = "You left after every other player resigned: you place first."
#: What a player alone at the table is told: playing on changes nothing.
ALONE = (
    "Every other player resigned: you place first whatever happens. Play on, or "
    "leave and the server plays the match out."
)


def others_resigned(summary: match_pb2.MatchSummary, seat: int | None) -> bool:
    """Whether every seat of a started match but ``seat`` resigned (bots never do),
    so that ``seat`` places first and may leave without losing that place."""
    if seat is None or not summary.started or len(summary.seats) < 2:
        return False
    return all(info.resigned for info in summary.seats if info.seat != seat)


def left_words(left: match_service_pb2.LeaveMatchResponse, seat: int) -> str:
    """What the player who left ``seat`` is told of ``left`` (LeaveMatch's answer)."""
    if left.outcome == match_service_pb2.LEAVE_OUTCOME_RESIGNED and others_resigned(
        left.match, seat
    ):
        return LEFT_FIRST
    return LEFT_OUTCOME.get(left.outcome, "You left the match.")
