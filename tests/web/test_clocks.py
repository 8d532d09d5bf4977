"""Turn clocks on the web page: a clock column in a match with clocks, the seat
deciding counted down by the page from its deadline, the others showing reserves."""

from __future__ import annotations

import re

from senet.v1 import match_pb2
from senet.web.frames import seats_html


def _summary(clock: match_pb2.ClockState | None) -> match_pb2.MatchSummary:
    summary = match_pb2.MatchSummary(
        match_id="m1",
        game_id="pebbles",
        seats=[
            match_pb2.SeatInfo(
                seat=0, kind=match_pb2.SEAT_KIND_OPEN, claimed=True, display_name="Ada"
            ),
            match_pb2.SeatInfo(seat=1, kind=match_pb2.SEAT_KIND_BOT, bot_strategy="random"),
        ],
        status=match_pb2.MATCH_STATUS_ACTIVE,
        current_seat=1,
        scores=[0, 0],
    )
    if clock is not None:
        summary.clock.CopyFrom(clock)
    return summary


def test_a_match_with_clocks_shows_reserves_and_the_deadline_to_count_down() -> None:
    clock = match_pb2.ClockState(remaining_ms=[90_000, 5_000], deadline_ms=1_900_000_000_000)
    html = seats_html(_summary(clock), match_pb2.View(), 0)
    assert "<th scope='col'>clock</th>" in html
    cells = re.findall(r"<td class='clock'([^>]*)>([^<]*)</td>", html)
    assert cells[0] == ("", "1:30")  # seat 0 waits: its reserve
    assert cells[1][0] == " data-deadline='1900000000000'"  # seat 1 decides: the page counts
    assert cells[1][1].endswith(" left")


def test_a_match_without_clocks_has_no_clock_column() -> None:
    html = seats_html(_summary(None), match_pb2.View(), 0)
    assert "clock" not in html


def test_a_rated_match_says_so_above_its_seats() -> None:
    summary = _summary(None)
    assert "rated" not in seats_html(summary, match_pb2.View(), 0)
    summary.rated = True
    assert "<caption>Seats and scores · rated match</caption>" in seats_html(
        summary, match_pb2.View(), 0
    )
