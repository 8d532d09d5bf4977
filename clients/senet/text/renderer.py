"""What the text client asks of a game, and where it finds each game's answer.

A game's text part is a :class:`TextRenderer`, published in the ``senet.text_renderers``
entry-point group under the game id (see :mod:`senet.games.plugins`); Senet's own are
:mod:`senet.text.mykerinos` and :mod:`senet.text.archeos`. A game without one is drawn
by :data:`~senet.text.generic.GENERIC_RENDERER`, from its view's fields alone, so every
game the server hosts can be played in a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.text import Text

from senet.games.plugins import PluginRegistry
from senet.text.choose import InputHints
from senet.text.drawing import WIDTH, Charset
from senet.text.generic import GENERIC_RENDERER
from senet.v1 import match_pb2


class TextRenderer(Protocol):
    """One game's text part: the table, the log, the scores, the actions and the help.

    Every method reads protocol messages only; ``view`` is the match's
    ``View`` (the renderer reads its own arm of the ``game`` oneof), ``viewer`` the
    seat whose screen this is (``None`` for a spectator). Drawn lines are at most
    :data:`~senet.text.drawing.WIDTH` cells wide and read the same without colour.
    """

    @property
    def game_id(self) -> str:
        """The game drawn (the entry point's name)."""
        ...

    @property
    def input_hints(self) -> InputHints:
        """What a person may type loosely at the prompt (aliases, arguments alone)."""
        ...

    @property
    def help_text(self) -> str:
        """What ``?`` prints: how to type this game's actions, within 80 columns."""
        ...

    def match_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        """The whole table, drawn again after every update."""
        ...

    def final_score_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        """The score breakdown shown when the match ends."""
        ...

    def update_lines(
        self,
        update: match_pb2.MatchUpdate,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> list[str]:
        """The log lines of one committed action: who did what, then what followed."""
        ...

    def seat_label(
        self,
        seat: int,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> str:
        """How the waiting line names a seat (``Waiting for <label>...``)."""
        ...

    def action_lines(
        self, legal: Sequence[match_pb2.LegalAction], width: int = WIDTH
    ) -> list[Text]:
        """The legal actions, numbered from 1 (see :func:`senet.text.actions.action_lines`)."""
        ...


#: The text renderers of every installed game, loaded when a game is first drawn.
TEXT_RENDERERS: PluginRegistry[TextRenderer] = PluginRegistry(
    "senet.text_renderers", "text renderer", lambda renderer: renderer.game_id
)


def detail_lines(
    renderer: TextRenderer,
    words: str,
    view: match_pb2.View,
    summary: match_pb2.MatchSummary | None,
    viewer: int | None,
    cs: Charset,
) -> list[Text]:
    """What ``zoom <words>`` shows: a closer look at part of the table.

    Optional for a renderer, since a small table has nothing to zoom on: a renderer
    with a ``detail_lines(words, view, summary, viewer, cs)`` method answers, the
    others say there is nothing more than the table.
    """
    method = getattr(renderer, "detail_lines", None)
    if method is None:
        return [Text("This game shows everything on the table: type board to draw it again.")]
    lines: list[Text] = method(words, view, summary, viewer, cs)
    return lines


def origin_note(update: match_pb2.MatchUpdate | match_pb2.LoggedAction) -> str:
    """Who chose an action the seat's holder did not (a timeout's fallback, a
    takeover bot, a resigned seat's minimal policy); "" for the holder's own.
    Updates and exported actions carry the same two fields."""
    origin, strategy = update.origin, update.origin_strategy or "random"
    if origin == match_pb2.ACTION_ORIGIN_TIMEOUT:
        fallback = strategy if strategy == "random" else f"{strategy} bot"
        return f"played on timeout ({fallback})"
    if origin == match_pb2.ACTION_ORIGIN_TAKEOVER:
        return f"played by the {strategy} bot that took the seat over"
    if origin == match_pb2.ACTION_ORIGIN_RESIGNED:
        return f"played for the resigned seat ({strategy})"
    return ""


def marked(lines: list[str], update: match_pb2.MatchUpdate) -> list[str]:
    """``update``'s log lines with its first line (who did what) marked when the
    seat's holder did not choose the action (see :func:`origin_note`)."""
    note = origin_note(update)
    if not note or not lines:
        return lines
    return [f"{lines[0]} -- {note}", *lines[1:]]


def log_lines(
    renderer: TextRenderer,
    update: match_pb2.MatchUpdate,
    view: match_pb2.View | None,
    summary: match_pb2.MatchSummary | None,
    viewer: int | None,
) -> list[str]:
    """The log lines of one committed action: the game's words (the seat and the
    notation alone until a view is known), marked when the seat's holder did not
    choose it. Every client's log goes through here, so all of them say it."""
    if view is None:
        lines = [f"seat {update.seat}: {update.notation}"]
    else:
        lines = renderer.update_lines(update, view, summary, viewer)
    return marked(lines, update)


def renderer_for(game_id: str) -> TextRenderer:
    """The renderer of ``game_id``, or the generic one for a game without its own.

    Raises:
        PluginError: the game's renderer is installed but broken.
    """
    renderer = TEXT_RENDERERS.find(game_id)
    return renderer if renderer is not None else GENERIC_RENDERER
