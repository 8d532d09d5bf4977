"""Leaving in every client's words (senet.text.leaving): a player left alone at the
table, every other player having resigned, is told that they place first, and
leaving then says so instead of "ranks last"."""

from __future__ import annotations

from senet.text.leaving import ALONE, LEFT_FIRST, left_words, others_resigned
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from senet.web.frames import frame

OPEN, BOT = match_pb2.SEAT_KIND_OPEN, match_pb2.SEAT_KIND_BOT


def summary(*resigned: bool, bot: bool = False, started: bool = True) -> match_pb2.MatchSummary:
    seats = [
        match_pb2.SeatInfo(seat=s, kind=OPEN, display_name=f"p{s}", claimed=True, resigned=r)
        for s, r in enumerate(resigned)
    ]
    if bot:
        seats.append(match_pb2.SeatInfo(seat=len(seats), kind=BOT, bot_strategy="random"))
    return match_pb2.MatchSummary(
        game_id="pebbles", seats=seats, status=match_pb2.MATCH_STATUS_ACTIVE, started=started
    )


def test_a_player_is_alone_once_every_other_seat_resigned() -> None:
    assert others_resigned(summary(False, True, True), 0)
    assert not others_resigned(summary(False, True, False), 0)
    assert not others_resigned(summary(False, True), None)  # a spectator
    assert not others_resigned(summary(False, True, bot=True), 0)  # bots play on
    assert not others_resigned(summary(False, True, started=False), 0)
    assert not others_resigned(summary(False), 0)


def test_leaving_alone_says_first_place_and_otherwise_last() -> None:
    resigned = ms.LEAVE_OUTCOME_RESIGNED
    alone = ms.LeaveMatchResponse(outcome=resigned, match=summary(True, True))
    assert left_words(alone, 1) == LEFT_FIRST
    first = ms.LeaveMatchResponse(outcome=resigned, match=summary(True, False))
    assert left_words(first, 0) == "You resigned; your seat plays out and ranks last."


def test_the_web_page_is_told_when_its_player_is_alone() -> None:
    assert frame(summary(False, True), match_pb2.View(), 0)["alone"] == ALONE
    assert frame(summary(False, True), match_pb2.View(), 1)["alone"] == ""
    assert frame(summary(False, False), match_pb2.View(), 0)["alone"] == ""
