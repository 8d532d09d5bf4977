"""The lobby: the matches a server hosts, to join, watch or start one.

The screen only shows what it is given and says what the player chose; where the
list comes from is the caller's business. It is ready for ``ListMatches``: the
caller passes a ``load`` coroutine that returns the summaries (called on opening
and on ``r``), and opens the play screen for the :class:`LobbyChoice` it gets back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from senet.v1 import match_pb2

Load = Callable[[], Awaitable[Sequence[match_pb2.MatchSummary]]]


@dataclass(frozen=True)
class LobbyChoice:
    """What the player picked: join or watch ``match_id``, or start a new match."""

    how: Literal["join", "watch", "new"]
    match_id: str = ""


def open_seats(summary: match_pb2.MatchSummary) -> int:
    return sum(1 for s in summary.seats if s.kind == match_pb2.SEAT_KIND_OPEN and not s.claimed)


class LobbyScreen(Screen[LobbyChoice | None]):
    """A table of matches; Enter joins, ``w`` watches, ``n`` starts a new one."""

    BINDINGS = [
        Binding("w", "pick('watch')", "Watch"),
        Binding("n", "new", "New match"),
        Binding("r", "reload", "Refresh"),
        Binding("escape,q", "leave", "Back"),
    ]

    def __init__(self, load: Load) -> None:
        super().__init__()
        self.load = load
        self.matches: list[match_pb2.MatchSummary] = []
        self.table: DataTable[str] = DataTable(cursor_type="row", id="matches")
        self.note = Static(id="lobby-note")

    def compose(self) -> ComposeResult:
        yield Static("MATCHES  (Enter joins a seat, w watches, n starts a new match)")
        yield self.table
        yield self.note
        yield Footer()

    async def on_mount(self) -> None:
        self.table.add_columns("game", "match", "players", "open seats", "move")
        await self.action_reload()

    async def action_reload(self) -> None:
        self.matches = list(await self.load())
        self.table.clear()
        for summary in self.matches:
            self.table.add_row(
                summary.game_id,
                summary.match_id,
                str(len(summary.seats)),
                str(open_seats(summary)),
                str(summary.version),
                key=summary.match_id,
            )
        self.note.update("" if self.matches else "No match yet: n starts one.")

    def on_data_table_row_selected(self, _event: DataTable.RowSelected) -> None:
        self.action_pick("join")  # Enter on a row

    def action_pick(self, how: Literal["join", "watch"]) -> None:
        if not self.matches:
            return
        summary = self.matches[self.table.cursor_row]
        if how == "join" and not open_seats(summary):
            self.note.update("No open seat in that match: w watches it.")
            return
        self.dismiss(LobbyChoice(how, summary.match_id))

    def action_new(self) -> None:
        self.dismiss(LobbyChoice("new"))

    def action_leave(self) -> None:
        self.dismiss(None)


__all__ = ["LobbyChoice", "LobbyScreen", "open_seats"]
