"""A game's text renderer put together from its drawing functions.

Every game with its own drawing answers the :class:`~senet.text.renderer.TextRenderer`
calls the same way: take the game's arm of the ``View``, name the seats from it, and
hand both to the game's table, scores, log and action-list functions. A game gives
those functions to :class:`GameTextRenderer` (and a zoom to :class:`ZoomingRenderer`)
instead of writing the calls out again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from rich.text import Text

from senet.text.choose import InputHints
from senet.text.drawing import WIDTH, Charset
from senet.v1 import match_pb2


class SeatLabels(Protocol):
    """A game's names for the seats (a :class:`senet.text.seat_names.SeatNames`)."""

    def label(self, seat: int) -> str:
        """The seat as the table and the log name it."""
        ...


View = TypeVar("View")
Seats = TypeVar("Seats", bound=SeatLabels)
Summary = match_pb2.MatchSummary | None
#: Draws part of the table from the game's view, the summary, the viewer and the charset.
Drawing = Callable[[View, Summary, int | None, Charset], list[Text]]


@dataclass(frozen=True)
class GameTextRenderer(Generic[View, Seats]):
    """A :class:`~senet.text.renderer.TextRenderer` from one game's drawing functions.

    Attributes:
        game_id: The game drawn.
        help_text: What ``?`` prints.
        input_hints: What a person may type loosely at the prompt.
        view_of: The game's arm of the ``View`` oneof.
        seats_of: The game's seat names, from its view, the summary and the viewer.
        table: The whole table.
        scores: The final score breakdown.
        events: The log lines of one update, given the seat names.
        actions: The numbered legal actions, within a width.
    """

    game_id: str
    help_text: str
    input_hints: InputHints
    view_of: Callable[[match_pb2.View], View]
    seats_of: Callable[[View, Summary, int | None], Seats]
    table: Drawing[View]
    scores: Drawing[View]
    events: Callable[[match_pb2.MatchUpdate, Seats], list[str]]
    actions: Callable[[Sequence[match_pb2.LegalAction], int], list[Text]]

    def match_lines(
        self, view: match_pb2.View, summary: Summary, viewer: int | None, cs: Charset
    ) -> list[Text]:
        return self.table(self.view_of(view), summary, viewer, cs)

    def final_score_lines(
        self, view: match_pb2.View, summary: Summary, viewer: int | None, cs: Charset
    ) -> list[Text]:
        return self.scores(self.view_of(view), summary, viewer, cs)

    def update_lines(
        self,
        update: match_pb2.MatchUpdate,
        view: match_pb2.View,
        summary: Summary,
        viewer: int | None,
    ) -> list[str]:
        return self.events(update, self.seats_of(self.view_of(view), summary, viewer))

    def seat_label(
        self, seat: int, view: match_pb2.View, summary: Summary, viewer: int | None
    ) -> str:
        """The seat as the game's table and log name it."""
        return self.seats_of(self.view_of(view), summary, viewer).label(seat)

    def action_lines(
        self, legal: Sequence[match_pb2.LegalAction], width: int = WIDTH
    ) -> list[Text]:
        return self.actions(legal, width)


@dataclass(frozen=True)
class ZoomingRenderer(GameTextRenderer[View, Seats]):
    """A renderer whose table is too large to read at once: ``zoom <words>`` draws
    part of it in full (see :func:`senet.text.renderer.detail_lines`).

    Attributes:
        zoom: The lines for the words asked, from the game's view and seat names.
    """

    zoom: Callable[[str, View, Seats], list[Text]]

    def detail_lines(
        self,
        words: str,
        view: match_pb2.View,
        summary: Summary,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        game_view = self.view_of(view)
        return self.zoom(words, game_view, self.seats_of(game_view, summary, viewer))
