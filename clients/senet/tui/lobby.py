"""The lobby: the matches a server hosts, to join, watch or start one.

The screen only shows what it is given and says what the player chose; where the
list comes from is the caller's business (``ListMatches`` in :mod:`senet.tui.run`).
The caller passes a ``load`` coroutine that returns the listings (called on opening
and on ``r``) and, to start a match from here, a ``games`` coroutine (``ListGames``)
from which ``n`` asks the game, then the match's settings (the new-match form,
:mod:`senet.tui.newmatch`); it then opens the play screen for the
:class:`LobbyChoice` it gets back. The columns are the line mode's
(:func:`senet.text.lobby.listing_table`), so both modes describe a match alike.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, OptionList, Static
from textual.widgets.option_list import Option

from senet.client.errors import SenetRpcError
from senet.text import lobby as text_lobby
from senet.text.errors import for_people
from senet.text.seat_names import seat_words
from senet.tui.newmatch import NewMatchChoices, NewMatchForm
from senet.v1 import games_pb2, match_service_pb2

Load = Callable[[], Awaitable[Sequence[match_service_pb2.MatchListing]]]
LoadGames = Callable[[], Awaitable[Sequence[games_pb2.GameInfo]]]


@dataclass(frozen=True)
class LobbyChoice:
    """What the player picked: join or watch ``match_id``, or start a new match
    (of ``game_id`` when the player chose one here)."""

    how: Literal["join", "watch", "new", "queue"]
    match_id: str = ""
    game_id: str = ""
    #: The new-match form's answers (None: a new match was asked for without it).
    new: NewMatchChoices | None = None


def open_seats(listing: match_service_pb2.MatchListing) -> int:
    """Seats a person may still join (bot seats never)."""
    return text_lobby.open_seats(listing)


class GamePicker(ModalScreen[str | None]):
    """The games the server hosts; Enter picks one, Escape goes back."""

    DEFAULT_CSS = """
    GamePicker { align: center middle; }
    GamePicker > Vertical {
        width: 60; max-width: 100%; height: auto; max-height: 90%;
        border: round $accent; background: $panel;
    }
    GamePicker OptionList, GamePicker OptionList:focus {
        height: auto; max-height: 16; border: none;
    }
    """
    BINDINGS = [Binding("escape,q", "dismiss(None)", "Back")]

    def __init__(self, games: Sequence[games_pb2.GameInfo], heading: str = "NEW MATCH") -> None:
        super().__init__()
        self.games = list(games)
        #: What the game is picked for: a new match, or the queue.
        self.heading = heading

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.heading}: which game? (Enter starts it, Escape goes back)")
            yield OptionList(
                *(
                    Option(f"{g.id:<12} {g.name} ({_seats(g)} players)", id=g.id)
                    for g in self.games
                ),
                id="games",
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


#: Widths of the lobby's columns but the seats (which take the rest of the screen).
LOBBY_WIDTHS = {"match": 16, "game": 16, "status": 8, "moves": 5, "age": 4}


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(1, width - 1)] + "\u2026"


def _seats(game: games_pb2.GameInfo) -> str:
    if game.min_seats == game.max_seats:
        return str(game.min_seats)
    return f"{game.min_seats}-{game.max_seats}"


class LobbyScreen(Screen[LobbyChoice | None]):
    """A table of matches; Enter joins, ``w`` watches, ``n`` starts a new one."""

    BINDINGS = [
        Binding("w", "pick('watch')", "Watch"),
        Binding("n", "new", "New match"),
        Binding("p", "play_now", "Play now"),
        Binding("r", "reload", "Refresh"),
        Binding("escape,q", "leave", "Quit"),
    ]
    DEFAULT_CSS = """
    #matches { height: 1fr; }
    #lobby-note { height: auto; max-height: 3; }
    """

    def __init__(
        self,
        load: Load,
        *,
        games: LoadGames | None = None,
        note: str = "",
        where: str = "",
    ) -> None:
        super().__init__()
        self.load = load
        self.load_games = games
        self.where = where
        self.matches: list[match_service_pb2.MatchListing] = []
        self.variants: Mapping[str, Sequence[str]] = {}
        self.table: DataTable[str | Text] = DataTable(cursor_type="row", id="matches")
        self.note = Static(note, id="lobby-note")
        self.first_note = note

    def compose(self) -> ComposeResult:
        where = f" on {self.where}" if self.where else ""
        yield Static(
            f"MATCHES being played{where}, newest first\n"
            "Enter joins a seat, w watches, n starts a new match, p plays now (the queue), "
            "r refreshes",
            id="lobby-title",
        )
        yield self.table
        yield self.note
        yield Footer()

    async def on_mount(self) -> None:
        self.table.focus()
        if self.load_games is not None:
            # Without the games, the ids alone; the listing below says what failed.
            with contextlib.suppress(SenetRpcError):
                self.variants = text_lobby.variant_names(await self.load_games())
        await self.action_reload()

    async def action_reload(self) -> None:
        try:
            self.matches = list(await self.load())
        except SenetRpcError as exc:
            self.note.update(f"Could not list the matches: {for_people(exc)} (r tries again)")
            return
        self._fill()
        if self.first_note:
            self.first_note = ""  # shown once, over the first listing
        elif self.matches:
            self.note.update(f"{len(self.matches)} match(es).")
        else:
            self.note.update("No match is being played yet: n starts one.")

    def on_resize(self) -> None:
        self._fill()

    def _fill(self) -> None:
        """The table at the screen's width: the seats take what the other columns
        leave (cut with an ellipsis), so that moves and age stay in view at 80."""
        row = self.table.cursor_row
        self.table.clear(columns=True)
        widths = dict(LOBBY_WIDTHS)
        fixed = sum(widths.values()) + 2 * (len(widths) + 1)  # each cell's padding
        widths["seats"] = max(8, self.size.width - fixed - 1)
        for name in ("match", "game", "status", "seats", "moves", "age"):
            self.table.add_column(name, width=widths[name], key=name)
        for listing in self.matches:
            self.table.add_row(
                listing.match_id,
                _cut(text_lobby.game_words(listing, self.variants), widths["game"]),
                text_lobby.status_word(listing),
                _cut(seat_words(listing), widths["seats"]),
                Text(str(listing.version), justify="right"),
                Text(text_lobby.age(listing.created_time_ms), justify="right"),
                key=listing.match_id,
            )
        if self.matches:
            self.table.move_cursor(row=min(row, len(self.matches) - 1))

    def on_data_table_row_selected(self, _event: DataTable.RowSelected) -> None:
        self.action_pick("join")  # Enter on a row

    def action_pick(self, how: Literal["join", "watch"]) -> None:
        if not self.matches:
            self.note.update("No match to pick: n starts one, r refreshes.")
            return
        listing = self.matches[self.table.cursor_row]
        if how == "join" and not open_seats(listing):
            self.note.update(f"Match {listing.match_id} has no open seat: w watches it.")
            return
        self.dismiss(LobbyChoice(how, listing.match_id))

    async def action_new(self) -> None:
        if self.load_games is None:
            self.dismiss(LobbyChoice("new"))
            return
        try:
            games = await self.load_games()
        except SenetRpcError as exc:
            self.note.update(f"Could not list the games: {for_people(exc)}")
            return
        if not games:
            self.dismiss(LobbyChoice("new"))
            return

        by_id = {game.id: game for game in games}

        def filled(choices: NewMatchChoices | None) -> None:
            if choices is not None:
                self.dismiss(LobbyChoice("new", game_id=choices.game_id, new=choices))

        def chosen(game_id: str | None) -> None:
            if game_id:
                self.app.push_screen(NewMatchForm(by_id[game_id]), callback=filled)

        self.app.push_screen(GamePicker(games), callback=chosen)

    async def action_play_now(self) -> None:
        """Pick a game, then queue for it (see senet.tui.playnow)."""
        if self.load_games is None:
            self.note.update("Play now needs the server's games.")
            return
        try:
            games = await self.load_games()
        except SenetRpcError as exc:
            self.note.update(f"Could not list the games: {for_people(exc)}")
            return

        def chosen(game_id: str | None) -> None:
            if game_id:
                self.dismiss(LobbyChoice("queue", game_id=game_id))

        self.app.push_screen(GamePicker(games, "PLAY NOW (the queue)"), callback=chosen)

    def action_leave(self) -> None:
        self.dismiss(None)


class LobbyApp(App[LobbyChoice | None]):
    """The lobby on its own, full screen; returns the player's choice (None: quit)."""

    TITLE = "senet lobby"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self, load: Load, *, games: LoadGames | None = None, note: str = "", where: str = ""
    ) -> None:
        super().__init__()
        self.lobby = LobbyScreen(load, games=games, note=note, where=where)

    def on_mount(self) -> None:
        self.push_screen(self.lobby, callback=self.exit)


__all__ = ["GamePicker", "LobbyApp", "LobbyChoice", "LobbyScreen", "open_seats"]
