"""Mykerinos' text renderer: the ``mykerinos`` plug-in of ``senet.text_renderers``."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from senet.text.drawing import WIDTH, Charset
from senet.text.mykerinos import actions, events, scores, table
from senet.text.mykerinos.names import Seats
from senet.v1 import match_pb2


class MykerinosRenderer:
    """Draws a Mykerinos match (see :class:`senet.text.renderer.TextRenderer`)."""

    game_id = "mykerinos"
    help_text = actions.HELP
    input_hints = actions.INPUT_HINTS

    def match_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        return table.match_lines(view.mykerinos, summary, viewer, cs)

    def final_score_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        return scores.final_score_lines(view.mykerinos, summary, viewer, cs)

    def update_lines(
        self,
        update: match_pb2.MatchUpdate,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> list[str]:
        return events.update_lines(update, Seats(view.mykerinos, summary, viewer))

    def seat_label(
        self,
        seat: int,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> str:
        return Seats(view.mykerinos, summary, viewer).label(seat)

    def action_lines(
        self, legal: Sequence[match_pb2.LegalAction], width: int = WIDTH
    ) -> list[Text]:
        return actions.action_lines(legal, width)


MYKERINOS_RENDERER = MykerinosRenderer()
