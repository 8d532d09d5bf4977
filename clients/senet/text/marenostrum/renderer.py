"""Mare Nostrum's text renderer: the ``marenostrum`` plug-in of ``senet.text_renderers``."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from senet.text.choose import PLAIN_INPUT
from senet.text.drawing import WIDTH, Charset
from senet.text.marenostrum import actions, board, events, scores, table
from senet.text.marenostrum.names import Seats
from senet.v1 import match_pb2


class MareNostrumRenderer:
    """Draws a Mare Nostrum match (see :class:`senet.text.renderer.TextRenderer`)."""

    game_id = "marenostrum"
    help_text = actions.HELP
    input_hints = PLAIN_INPUT

    def match_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        return table.match_lines(view.marenostrum, summary, viewer, cs)

    def final_score_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        return scores.final_score_lines(view.marenostrum, summary, viewer, cs)

    def update_lines(
        self,
        update: match_pb2.MatchUpdate,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> list[str]:
        return events.update_lines(update, Seats(view.marenostrum, summary, viewer))

    def seat_label(
        self,
        seat: int,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> str:
        # By letter and name, as on the board and in the log.
        return Seats(view.marenostrum, summary, viewer).label(seat)

    def detail_lines(
        self,
        words: str,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        """``zoom <what>`` (see :func:`senet.text.renderer.detail_lines`): provinces and
        seas in full, by id, region, civilization, ``seas`` or ``all``."""
        seats = Seats(view.marenostrum, summary, viewer)
        return board.zoom_lines(words, view.marenostrum, seats)

    def action_lines(
        self, legal: Sequence[match_pb2.LegalAction], width: int = WIDTH
    ) -> list[Text]:
        return actions.action_lines(legal, width)


MARENOSTRUM_RENDERER = MareNostrumRenderer()
