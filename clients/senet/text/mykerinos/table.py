"""The whole Mykerinos table, as the client draws it after every update."""

from __future__ import annotations

from rich.text import Text

from senet.text.drawing import UNICODE, WIDTH, Charset, fit, side_by_side
from senet.text.mykerinos.board import board_lines
from senet.text.mykerinos.names import Seats
from senet.text.mykerinos.panel import panel_lines
from senet.text.mykerinos.players import delimitation_lines, draft_lines, header_lines, player_lines
from senet.text.mykerinos.tables import BOARD_WIDTH
from senet.v1 import match_pb2
from senet.v1 import mykerinos_pb2 as pb


def match_lines(
    view: pb.MykerinosView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """The whole table: header, board with the panel beside it, delimitation, players."""
    seats = Seats(view, summary, viewer)
    lines = header_lines(view, summary, seats)
    if view.phase == pb.MYKERINOS_PHASE_DRAFT:
        # No region is laid before the first campaign: the draft takes its place.
        lines += draft_lines(view, seats)
        lines += panel_lines(view, cs)
    else:
        lines += side_by_side(board_lines(view, cs), panel_lines(view, cs), BOARD_WIDTH)
    lines += delimitation_lines(view, seats)
    lines += player_lines(view, seats, cs)
    return [fit(line, WIDTH) for line in lines]
