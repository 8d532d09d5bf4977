"""What the web client asks of a game to draw its board, and where it finds each game's answer.

A game's web part is a :class:`WebBoard`, published in the ``senet.web_boards``
entry-point group under the game id (see :mod:`senet.games.plugins`); Senet's own
are :mod:`senet.web.mykerinos`, :mod:`senet.web.archeos` and
:mod:`senet.web.marenostrum`. A game
without one is drawn by :data:`~senet.web.boards.generic.GENERIC_BOARD` (its view's
fields, and the legal actions as a list), so every game the server hosts can be
played in a browser at once.
"""

from __future__ import annotations

from typing import Protocol

from senet.games.plugins import PluginRegistry
from senet.v1 import match_pb2
from senet.web.boards.generic import GENERIC_BOARD


class WebBoard(Protocol):
    """One game's board in the browser.

    Both methods read protocol messages only. ``view`` is what the page's viewer may
    see (a seat's view or the spectator view), so a board can never show more.
    """

    @property
    def game_id(self) -> str:
        """The game drawn (the entry point's name)."""
        ...

    def draw(
        self, view: match_pb2.View, summary: match_pb2.MatchSummary, viewer: int | None
    ) -> str:
        """The table as HTML (usually one ``<svg>``), drawn again after every update.

        Elements that choose actions are made with :func:`senet.web.boards.svg.target`:
        their ``data-target`` keys are the ones :meth:`targets` returns.
        """
        ...

    def targets(self, action: match_pb2.LegalAction, view: match_pb2.View) -> list[str]:
        """The keys of the board elements that, clicked in turn, choose ``action``.

        Empty for an action chosen from the list only (``pass``). Clicking narrows
        the legal actions to those naming every clicked key; one left is played.
        """
        ...


#: The web boards of every installed game, loaded when a game is first drawn.
WEB_BOARDS: PluginRegistry[WebBoard] = PluginRegistry(
    "senet.web_boards", "web board", lambda board: board.game_id
)


def board_for(game_id: str) -> WebBoard:
    """The board of ``game_id``, or the generic one for a game without its own.

    Raises:
        PluginError: the game's board is installed but broken.
    """
    board = WEB_BOARDS.find(game_id)
    return board if board is not None else GENERIC_BOARD


__all__ = ["WEB_BOARDS", "WebBoard", "board_for"]
