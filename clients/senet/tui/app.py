"""The full-screen play screen of ``senet play``, on Textual.

Panes (sizes in :data:`PlayApp.CSS`; at 80x24 and up every pane keeps its place):

* a status line: game, match, seat, and the connection state;
* the board: the game's own text drawing (``senet.text.<game>`` through the
  renderer registry), scrollable both ways; ``F2`` zooms it to the whole screen
  and ``F3`` jumps to its next region;
* the players, their scores, whose turn it is, and each seat's clock where the
  match has clocks (the time left to decide counts down every second);
* the recent log, filled from the same stream as the board;
* the prompt: the legal actions in a list of fixed height, filtered as the player
  types (notation or words); arrows and Enter choose, numbers still work, ``?``
  explains the highlighted action with the label the core gives it.

One task follows the match (``WatchMatch`` with the seat's token). It fetches the
table first, then streams from a few versions back so that a resumed seat sees its
recent log, and after a broken stream it shows the loss at once and reconnects,
resuming after the last version it delivered. The board is drawn only at a version
the log has reached, so the two never disagree.

Ctrl+Q (or ``quit``) asks a player whether to leave for good (``LeaveMatch``: the
seat reopens before the start, else the match's leave policy applies) or to pause
(the seat is kept and the resume command printed); a watcher just closes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence

import grpc
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from senet.client.errors import SenetRpcError
from senet.client.turns import deciding_seats, must_decide
from senet.text import choose, clocks, drawing
from senet.text.app import DECLINE_POLL_S, Session
from senet.text.errors import for_people
from senet.text.leaving import ALONE, left_words, others_resigned
from senet.text.renderer import TextRenderer, detail_lines, log_lines, renderer_for
from senet.text.seat_names import (
    left_mark,
    open_seats,
    rematch_declined,
    rematch_players,
    waiting_for_players,
)
from senet.tui import explain, picker
from senet.tui.panes import (
    ActionList,
    BoardPane,
    Entry,
    LogPane,
    PlayerRow,
    PlayersPane,
    StatusLine,
    WrappedText,
)
from senet.v1 import match_pb2, match_service_pb2

#: Updates replayed into the log when the screen opens (a resumed seat sees its past).
LOG_BACKFILL = 30
#: Refusals after which the listed actions are stale and the table is fetched again.
_STALE_REASONS = frozenset({"STALE_VERSION", "NOT_YOUR_TURN", "GAME_OVER"})
_RECONNECT_START_S = 0.2
_RECONNECT_MAX_S = 3.0
#: Seconds between redraws of a running clock.
CLOCK_TICK_S = 1.0
#: Seconds between looks, once the match is over, for a rematch another player asked
#: for or declined (and, while a rematch waits for its players, for a decline).
REMATCH_POLL_S = DECLINE_POLL_S
#: Columns and rows from which the wide and tall layouts apply.
WIDE_COLUMNS = 120
#: Rows of the players and log panes below the board (more when more seats play).
NARROW_SIDE_ROWS = 5
TALL_ROWS = 36
#: Rows of the players and log below the board on a tall narrow screen, at least.
TALL_SIDE_ROWS = 10
#: Rows the board keeps when the log below it grows.
BOARD_MIN_ROWS = 8
#: Rows of the prompt (its border, the hint, the actions and the input line).
PROMPT_ROWS = 6
TALL_PROMPT_ROWS = 11


class HelpScreen(ModalScreen[None]):
    """The game's help text and the keys; any key closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 84; max-width: 100%; height: 90%; border: round $accent; background: $panel;
        scrollbar-size-vertical: 1;
    }
    """
    BINDINGS = [
        Binding("escape,enter,f1,q", "dismiss", "Close"),
        Binding("pageup", "page(-1)", "Up", show=False),
        Binding("pagedown,space", "page(1)", "Down", show=False),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(can_focus=True) as scroll:
            scroll.border_title = "HELP - PgUp/PgDn scroll, Esc closes"
            yield WrappedText(self.text, id="help-text")

    def action_page(self, direction: int) -> None:
        scroll = self.query_one(VerticalScroll)
        scroll.scroll_relative(y=direction * max(1, scroll.size.height - 2), animate=False)


class QuitScreen(ModalScreen[str | None]):
    """Leave for good or pause? ``l`` leaves, ``p`` pauses, Escape carries on."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static {
        width: 64; max-width: 100%; height: auto; padding: 1 2;
        border: round $accent; background: $panel;
    }
    """
    BINDINGS = [
        Binding("l", "dismiss('leave')", "Leave for good"),
        Binding("p", "dismiss('pause')", "Pause"),
        Binding("escape,c", "dismiss(None)", "Carry on"),
    ]

    def __init__(self, alone: bool = False) -> None:
        super().__init__()
        #: Every other player resigned: leaving keeps first place (senet.text.leaving).
        self.alone = alone

    def compose(self) -> ComposeResult:
        leave = (
            "  leave for good: every other player resigned, so you keep first place "
            "and the server plays the match out\n"
            if self.alone
            else "  leave for good: before the start your seat reopens; after it "
            "the match's leave policy applies (a bot takes over, or you resign)\n"
        )
        yield Static(
            Text.assemble(
                ("Leave the match?\n\n", "bold"),
                ("l", "bold reverse"),
                leave,
                ("p", "bold reverse"),
                "  pause: keep your seat; the resume command is printed\n",
                ("Esc", "bold reverse"),
                "  carry on playing",
            )
        )


KEYS_HELP = """Keys
  type          filter the actions (notation or words); a number picks action N;
                Enter plays the action the text names, or the one left
  Up/Down       move in the list          Enter   play the highlighted action
  ?             explain the highlighted action (what it does, what else may be
                played now, and why a typed action that fits none may not)
  PageUp/Down   scroll the board          F2      zoom the board (again: back)
  F3            next region of the board  F1      this help
  Ctrl+Q        leave for good, or pause (the resume command is printed)
Typed commands: help, list, board, quit, zoom <what> (a closer look: in the log),
  rematch (once the match is over: the same table again, seats moved on by one),
  decline (once the match is over: no rematch, so nobody waits for you)
"""


class PlayApp(App[int]):
    """Follow a match and play a seat (or watch); see the module docstring."""

    TITLE = "senet"
    #: Every command has a key or a typed word; the palette would only add noise.
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-background; }
    #main { height: 1fr; layout: vertical; }
    #board { height: 1fr; overflow: auto auto; scrollbar-size: 1 1; }
    #side { height: 6; layout: horizontal; border-top: solid $primary-darken-2; }
    #players { width: 32; height: 100%; padding: 0 1 0 0; }
    App.-clocked #players { width: 43; }
    #log { width: 1fr; height: 100%; padding-left: 2; scrollbar-size-vertical: 1; }
    #prompt { height: $prompt-rows; border-top: solid $primary-darken-2; }
    /* Two rows when a message needs them (the join command, a long refusal). */
    #hint { height: auto; max-height: 2; }
    #actions { height: 1fr; border: none; padding: 0; scrollbar-size-vertical: 1; }
    #entry { height: 1; border: none; padding: 0 1; }
    App.-wide #main { layout: horizontal; }
    App.-wide #board { width: 84; height: 100%; }
    App.-wide #side {
        width: 1fr; height: 100%; layout: vertical; border-top: none;
        border-left: solid $primary-darken-2;
    }
    App.-wide #players { width: 100%; }
    App.-wide #log {
        width: 100%; height: 1fr; padding-left: 0; border-top: solid $primary-darken-2;
    }
    App.-tall #prompt { height: $tall-prompt-rows; }
    /* Zoomed (F2): the board takes the players' and the log's room; the status line
       stays above it and the prompt below, in their places. */
    App.-zoomed #side { display: none; }
    App.-zoomed #board { width: 100%; height: 1fr; }
    App.-narrow #board { scrollbar-size-vertical: 0; }
    /* An 80-column help text needs every column of an 80-column screen. */
    App.-narrow HelpScreen > VerticalScroll {
        height: 100%; border: none; border-top: round $accent; border-bottom: round $accent;
        scrollbar-size-vertical: 0;
    }
    #side { border-title-align: right; border-title-color: $text-muted; }
    App.-wide #players { height: 8; }
    """.replace("$prompt-rows", str(PROMPT_ROWS)).replace(
        "$tall-prompt-rows", str(TALL_PROMPT_ROWS)
    )
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("f2", "zoom", "Zoom board"),
        Binding("f3", "next_region", "Region"),
        Binding("pageup", "board_page(-1)", "Board up", show=False),
        Binding("pagedown", "board_page(1)", "Board down", show=False),
        Binding("escape", "escape", "Clear", show=False),
        Binding("ctrl+q", "leave", "Leave", priority=True),
    ]

    def __init__(
        self,
        session: Session,
        *,
        charset: drawing.Charset = drawing.UNICODE,
        log_backfill: int = LOG_BACKFILL,
    ) -> None:
        super().__init__()
        self.session = session
        self.charset = charset
        self.log_backfill = log_backfill
        self.summary: match_pb2.MatchSummary | None = None
        self.view: match_pb2.View | None = None
        self.legal: match_service_pb2.ListLegalActionsResponse | None = None
        #: Indexes of the listed actions that fit the typed text.
        self.shown: list[int] = []
        #: The version whose actions the list shows (None: no list shown yet).
        self.listed_version: int | None = None
        #: The last version the stream delivered (the log is complete up to it).
        self.stream_version = -1
        self.connected: bool | None = None
        self.connection_note = "connecting..."
        self.over = False
        self.submitting = False
        #: The clocks as of the latest fetch or update (None: the match has none).
        self.clock: match_pb2.ClockState | None = None
        #: The seat whose decision ``clock``'s deadline times.
        self.clock_seats: frozenset[int] = frozenset()
        #: What leaving for good did, for the terminal once the screen closes (None: paused).
        self.left: str | None = None
        #: The rematch's seat the player asked for: the next screen plays it.
        self.next_session: Session | None = None
        #: The rematch a player of this finished match asked for, once seen ("": none).
        self.rematch_offer = ""
        #: Who declined the rematch of this finished match, or of the match this
        #: rematch follows, once seen ("": nobody).
        self.rematch_declined = ""
        #: The player was told every other player resigned (see senet.text.leaving).
        self.told_alone = False
        #: Why the screen stopped following the match for good ("" while it follows).
        self.stopped = ""
        #: The highlight was moved with the arrows since the text last changed: Enter
        #: plays it even while the typed text fits several actions.
        self.picked_by_arrows = False
        #: The hint shows an explanation the clearing of the line must not replace.
        self.keep_hint = False
        self._refresh_wanted = False
        self._refreshing = False
        self._region = 0
        self._size_now: Size | None = None
        self.board = BoardPane(id="board")
        self.players = PlayersPane(id="players")
        self.log_pane = LogPane(id="log")
        self.actions = ActionList(id="actions")
        placeholder = (
            "watching: F1 help, Ctrl+Q leaves"
            if session.seat is None
            else "type to filter, Enter to play, ? explains"
        )
        self.entry = Entry(id="entry", placeholder=placeholder)
        self.hint = Static(id="hint")
        self.hint_text = ""
        self.status = StatusLine(id="status")

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield self.status
        with Container(id="main"):
            yield self.board
            with Container(id="side"):
                yield self.players
                yield self.log_pane
        with Vertical(id="prompt"):
            yield self.hint
            yield self.actions
            yield self.entry
        yield Footer()

    def on_mount(self) -> None:
        self.board.on_scroll = self._board_scrolled
        self._fit_layout()
        self.entry.focus()
        self._draw_status()
        self.run_worker(self._follow(), name="follow", exit_on_error=False)
        self.set_interval(CLOCK_TICK_S, self._tick_clock, name="clock")
        if self.session.seat is not None:
            self.set_interval(REMATCH_POLL_S, self._look_for_decline, name="declines")

    def on_resize(self, event: events.Resize) -> None:
        # The event's size: ``self.size`` may still be the size before this change.
        self._fit_layout(event.size)
        self.call_after_refresh(self._draw)

    def _fit_layout(self, size: Size | None = None) -> None:
        """Choose the layout for ``size`` (the terminal's): side by side from
        :data:`WIDE_COLUMNS`, stacked below; every change of size chooses again."""
        size = size if size is not None else self.size
        self._size_now = size
        wide = size.width >= WIDE_COLUMNS
        self.set_class(wide, "-wide")
        # No column for a scrollbar beside an 80-column drawing: the line below the
        # board says what is left to scroll instead (see _board_scrolled).
        self.set_class(size.width <= drawing.WIDTH, "-narrow")
        self.set_class(size.height >= TALL_ROWS, "-tall")
        found = self.query("#side")
        if not found:
            return  # a clock tick after the screen was taken down (the app is closing)
        side = found.first()
        if wide:
            side.styles.clear_rule("height")  # the CSS decides
        else:
            side.styles.height = self._narrow_side_rows(size)

    def _board_scrolled(self) -> None:
        """Below the board (stacked layout), how much of the drawing is left below."""
        below = self.board.rows_below
        side = self.query_one("#side")
        if below and not self.has_class("-wide") and not self.zoomed:
            side.border_title = f"board: {below} more lines below - PgDn, F3 next part"
        else:
            side.border_title = None

    def _narrow_side_rows(self, size: Size) -> int:
        """Rows of the players and log below the board (stacked layout): every seat's
        line, and the log grows into whatever rows the board's drawing leaves unused,
        so long as the board keeps :data:`BOARD_MIN_ROWS`."""
        seats = len(self.players.rows) or (len(self.summary.seats) if self.summary else 0)
        wanted = 1 + max(NARROW_SIDE_ROWS, seats)
        prompt = TALL_PROMPT_ROWS if size.height >= TALL_ROWS else PROMPT_ROWS
        main = size.height - 2 - prompt  # the status line and the footer
        board = len(self.board.lines) or main
        spare = min(main - BOARD_MIN_ROWS, main - board)
        if size.height >= TALL_ROWS:
            spare = max(spare, TALL_SIDE_ROWS)
        return max(wanted, spare)

    # ------------------------------------------------------------ who and what
    @property
    def viewer(self) -> int | None:
        return None if self.session.seat is None else self.session.seat.seat

    @property
    def renderer(self) -> TextRenderer:
        return renderer_for(self.summary.game_id if self.summary is not None else "")

    @property
    def legal_actions(self) -> Sequence[match_pb2.LegalAction]:
        return self.legal.actions if self.legal is not None else ()

    # ------------------------------------------------------------ following the match
    async def _follow(self) -> None:
        """Fetch, then stream; after a broken stream, show it and start again."""
        session = self.session
        client = session.client
        token = session.seat.token if session.seat is not None else None
        delay = _RECONNECT_START_S
        attempt = 0
        while True:
            try:
                if self.view is None:
                    await self._fetch(initial=True)
                    summary = self.summary
                    version = summary.version if summary is not None else 0
                    self.stream_version = max(0, version - self.log_backfill)
                elif attempt:
                    await self._fetch(initial=True)  # the match is still there, and drawn
                request = match_service_pb2.WatchMatchRequest(
                    match_id=session.match_id, from_version=self.stream_version
                )
                call = client.stub.WatchMatch(request, metadata=client.metadata(token))
                try:
                    self._set_connected(True)
                    attempt = 0
                    async for message in call:
                        delay = _RECONNECT_START_S
                        self._on_stream_message(message)
                finally:
                    call.cancel()
                await self._finish()
                return
            except grpc.aio.AioRpcError as exc:
                error: BaseException = SenetRpcError.from_rpc_error(exc)
            except SenetRpcError as exc:
                error = exc
            assert isinstance(error, SenetRpcError)
            if not error.retryable:
                problem = for_people(error, session.server)
                if not problem.endswith((".", "!", "?")):
                    problem += "."
                self._say(problem, style="bold red")
                self.connection_note = "stopped"
                self.connected = False
                # Nothing more to play or keep (the match is gone, or the seat is
                # no longer this token's): no actions, the reason stays in the
                # prompt's line, and Ctrl+Q just closes.
                self.stopped = problem
                self.legal = None
                self._draw_prompt()
                self._draw_status()
                return
            attempt += 1
            self._set_connected(False, attempt)
            with contextlib.suppress(Exception):
                await client.close()  # the next call dials afresh
            await asyncio.sleep(delay)
            delay = min(delay * 2, _RECONNECT_MAX_S)

    def _set_connected(self, connected: bool, attempt: int = 0) -> None:
        was = self.connected
        self.connected = connected
        if connected:
            self.connection_note = "connected"
            if was is False:
                self._say("Connected again; the log resumes where it stopped.", style="green")
        else:
            self.connection_note = f"server lost - reconnecting (try {attempt})"
            if was is not False:
                self._say(
                    f"Lost the server at {self.session.server}; reconnecting by itself...",
                    style="bold red",
                )
                self._hint(Text("Server lost: reconnecting...", style="bold red"))
        self._draw_status()

    def _on_stream_message(self, message: match_service_pb2.WatchMatchResponse) -> None:
        kind = message.WhichOneof("message")
        if kind == "snapshot":
            self.stream_version = max(self.stream_version, message.snapshot.match.version)
            self._want_refresh()
        elif kind == "update":
            update = message.update
            if update.version <= self.stream_version:
                return  # replayed after a reconnection: already in the log
            self.stream_version = update.version
            if update.HasField("clock"):
                self.clock = update.clock
                self.clock_seats = deciding_seats(update)
            lines = log_lines(self.renderer, update, self.view, self.summary, self.viewer)
            self.log_pane.add(lines)
            if self.legal is not None and update.version > self.legal.version:
                # Our actions are stale; an update the listed actions already include
                # (the stream catching up after a fetch) leaves them to be played.
                self.legal = None
                self._draw_prompt()
            self._want_refresh()

    def _want_refresh(self) -> None:
        self._refresh_wanted = True
        if not self._refreshing:
            self._refreshing = True
            self.run_worker(self._refresh_loop(), name="refresh", exit_on_error=False)

    async def _refresh_loop(self) -> None:
        delay = _RECONNECT_START_S
        try:
            while self._refresh_wanted:
                self._refresh_wanted = False
                try:
                    await self._fetch()
                except SenetRpcError:
                    if not self.connected:
                        return  # the stream's reconnection fetches the table afresh
                    # The stream is up, and on this seat's turn no update would come
                    # to fetch the table again: fetch it after a pause.
                    self._refresh_wanted = True
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, _RECONNECT_MAX_S)
                else:
                    delay = _RECONNECT_START_S
        finally:
            self._refreshing = False

    async def _fetch(self, initial: bool = False) -> None:
        """Fetch the table (and our actions on our turn); draw it once the log has caught up."""
        session = self.session
        if session.seat is not None:
            response = await session.seat.get()
        else:
            response = await session.client.get(session.match_id)
        summary = response.match
        if not initial and summary.version > self.stream_version and self.connected:
            return  # the stream is about to deliver those updates, and fetch again
        legal = None
        if session.seat is not None and must_decide(summary, session.seat.seat):
            listed = await session.seat.legal_actions()
            if listed.actions and listed.version == summary.version:
                legal = listed
        self.summary = summary
        self.view = response.view
        self.legal = legal
        self.clock = summary.clock if summary.HasField("clock") else None
        self.clock_seats = deciding_seats(summary)
        self.over = summary.status != match_pb2.MATCH_STATUS_ACTIVE
        if not self.over and not self.told_alone and others_resigned(summary, self.viewer):
            self.told_alone = True
            self._say(ALONE, style="bold")
        self._draw()

    async def _finish(self) -> None:
        """The stream ended: the match is over; draw the final table and scores."""
        with contextlib.suppress(SenetRpcError):
            await self._fetch(initial=True)
        self.over = True
        self.connection_note = "match over"
        self._draw()
        if self.session.seat is not None:
            self.set_interval(REMATCH_POLL_S, self._look_for_rematch, name="rematch")

    async def _look_for_rematch(self) -> None:
        """Whether another player asked for a rematch (GetMatch's rematch_match_id),
        and who is in it so far: the hint offers it; or declined it: the hint says so."""
        seat = self.session.seat
        if seat is None or self.rematch_declined or self.next_session is not None:
            return
        try:
            finished = await seat.get()
            # A player may decline after another asked: keep looking for that.
            if self._declined(finished.match) or self.rematch_offer:
                return
            rematch_id = finished.rematch_match_id
            if not rematch_id:
                return
            rematch = (await self.session.client.get(rematch_id)).match
        except SenetRpcError:
            return
        who = ", ".join(rematch_players(rematch)) or "A player"
        self.rematch_offer = f"{who} asked for a rematch."
        self._say(f"{who} asked for a rematch: type rematch and Enter to play it.")
        self._draw_prompt()

    async def _look_for_decline(self) -> None:
        """While this rematch waits for its players: whether one of them declined
        it (GetMatch on the match it follows), when it will never start."""
        summary = self.summary
        if summary is None or summary.started or not summary.rematch_of:
            return
        if self.rematch_declined:
            return
        with contextlib.suppress(SenetRpcError):
            self._declined((await self.session.client.get(summary.rematch_of)).match)

    def _declined(self, finished: match_pb2.MatchSummary) -> bool:
        """Show who declined ``finished``'s rematch, if anyone did; whether anyone did."""
        viewer = self.viewer if finished.match_id == self.session.match_id else None
        note = rematch_declined(finished, viewer)
        if not note:
            return False
        self.rematch_declined = note
        self._say(note)
        self._draw_prompt()
        return True

    # ------------------------------------------------------------ drawing
    def _draw(self) -> None:
        self._draw_status()
        view, summary = self.view, self.summary
        if view is None:
            return
        renderer = self.renderer
        lines = renderer.match_lines(view, summary, self.viewer, self.charset)
        if self.over:
            lines = [
                *renderer.final_score_lines(view, summary, self.viewer, self.charset),
                Text(""),
                *lines,
            ]
        self.board.show(lines)
        self._draw_players()
        self._draw_prompt()

    def _draw_status(self) -> None:
        summary = self.summary
        game = summary.game_id if summary is not None else "?"
        where = f"{game} {self.session.match_id}"
        if self.viewer is not None and self.view is not None:
            you = self.renderer.seat_label(self.viewer, self.view, summary, None)
            where += f" - you: {you}"
        elif self.viewer is None:
            where += " - watching"
        style = {True: "bold green", False: "bold red", None: "yellow"}[self.connected]
        if self.over:
            style = "bold"
        self.status.show(where, Text(self.connection_note, style=style))

    def _draw_players(self) -> None:
        summary, view = self.summary, self.view
        if summary is None or view is None:
            return
        rows = []
        for info in summary.seats:
            seat = info.seat
            label = self.renderer.seat_label(seat, view, summary, self.viewer) + left_mark(info)
            score = summary.scores[seat] if seat < len(summary.scores) else None
            to_move = (
                not self.over and summary.HasField("current_seat") and summary.current_seat == seat
            )
            rows.append(PlayerRow(label, score, to_move, self.clock_text(seat)))
        # Below the board, a clock column widens the pane rather than cut the names.
        self.set_class(any(row.clock for row in rows), "-clocked")
        self.players.show(rows, "FINAL SCORES" if self.over else "PLAYERS")
        # Below the board (narrow screens) the pane grows to hold every seat (up to 6).
        self._fit_layout(self._size_now)

    def clock_text(self, seat: int) -> str:
        """The seat's clock (its reserve; for the seat deciding, the time left), or
        nothing for a match without clocks or over."""
        clock = self.clock
        if clock is None or self.over:
            return ""
        return clocks.seat_clock(clock, seat, deciding=seat in self.clock_seats)

    def _tick_clock(self) -> None:
        """Move the countdown: redraw the players while a deadline runs."""
        clock = self.clock
        if clock is not None and not self.over and clock.HasField("deadline_ms"):
            self._draw_players()

    def _draw_prompt(self) -> None:
        legal = self.legal_actions
        if self.legal is not None and legal:
            # The same position drawn again (each update fetches the table, and two
            # close updates fetch the same latest one): the highlight stays where
            # the player moved it, so Enter plays what they chose.
            same = self.legal.version == self.listed_version
            self.listed_version = self.legal.version
            self._filter(keep=same)
            if not same:
                # A new decision: the board's top (whose turn, what to do, what a
                # payment still needs) comes back into view wherever it was scrolled.
                self._region = 0
                self.board.scroll_to(y=0, animate=False)
            count = len(legal)
            self._hint(
                Text(
                    f"YOUR TURN - {len(self.shown)} of {count} actions: "
                    "type to filter, Up/Down, Enter; ? explains",
                    style="bold reverse",
                )
            )
            return
        self.shown = []
        self.actions.show([], [])
        self._hint(self._waiting_text())

    def _waiting_text(self) -> Text:
        summary, view = self.summary, self.view
        if self.stopped:
            return Text(f"{self.stopped} Ctrl+Q leaves.", style="bold red")
        if self.over:
            finished = summary is not None and summary.status == match_pb2.MATCH_STATUS_FINISHED
            if self.session.seat is None or not finished:
                return Text("The match is over. Ctrl+Q leaves.", style="bold")
            if self.rematch_declined:
                return Text(f"{self.rematch_declined} Ctrl+Q leaves.", style="bold")
            if self.rematch_offer:
                return Text(
                    f"{self.rematch_offer} Type rematch and Enter to play it, or decline; "
                    "Ctrl+Q leaves.",
                    style="bold reverse",
                )
            return Text(
                "The match is over. Type rematch and Enter to play again (seats move on "
                "by one), or decline; Ctrl+Q leaves.",
                style="bold",
            )
        if summary is None or view is None:
            return Text("Fetching the match...", style="italic")
        if not summary.started and self.rematch_declined:
            return Text(f"{self.rematch_declined} Ctrl+Q leaves.", style="bold")
        if not summary.started:
            if not open_seats(summary):
                return Text(f"{waiting_for_players(summary)}...", style="italic")
            # The command on a line of its own, so that 80 columns hold it whole.
            return Text.assemble(
                (f"{waiting_for_players(summary)}; another player joins with:\n", "italic"),
                self.session.join_command(),
            )
        if not summary.HasField("current_seat"):
            return Text("")
        seat = summary.current_seat
        if seat == self.viewer:
            return Text("Your turn: fetching your actions...", style="italic")
        who = self.renderer.seat_label(seat, view, summary, self.viewer)
        info = next((s for s in summary.seats if s.seat == seat), None)
        note = ""
        if info is not None and info.kind != match_pb2.SEAT_KIND_BOT and not info.claimed:
            note = f" (nobody has joined yet: {self.session.join_command()})"
        return Text(f"Waiting for {who}...{note}", style="italic")

    def _filter(self, keep: bool = False) -> None:
        """List the actions the typed text matches (``keep``: the highlighted one
        stays highlighted while it is listed)."""
        legal = self.legal_actions
        text = self.entry.value
        self.shown = picker.matching(text, legal, self.renderer.input_hints)
        self.actions.show(legal, self.shown, keep=keep)
        if picker.is_number(text):
            number = int(text.strip())
            if 1 <= number <= len(legal):
                self.actions.highlight_index(number - 1)

    def _hint(self, text: Text) -> None:
        """The line above the actions: whose turn, an explanation, or a refusal."""
        self.hint_text = text.plain
        self.hint.update(text)

    def _say(self, text: str, style: str = "") -> None:
        self.log_pane.add([Text(text, style=style)])

    # ------------------------------------------------------------ input
    def on_input_changed(self, event: Input.Changed) -> None:
        self.picked_by_arrows = False  # what is typed now decides, until an arrow moves
        if self.legal is not None:
            self._filter()
            if self.keep_hint and not event.value:
                self.keep_hint = False
                return  # the line was cleared after an explanation: it stays shown
            count = len(self.legal_actions)
            self._hint(
                Text(
                    f"YOUR TURN - {len(self.shown)} of {count} actions fit"
                    + (f" {event.value.strip()!r}" if event.value.strip() else ""),
                    style="bold reverse",
                )
            )

    def on_entry_move(self, event: Entry.Move) -> None:
        count = self.actions.option_count
        if not count:
            return
        current = self.actions.highlighted or 0
        self.actions.highlighted = max(0, min(count - 1, current + event.step))
        self.picked_by_arrows = True

    def on_entry_explain(self, _event: Entry.Explain) -> None:
        self.explain()

    def explain(self) -> None:
        """Explain the highlighted action (its label, what it changes), what may be
        played now, and why a typed action that fits none may not; in the log, with
        the first line in the hint (see :mod:`senet.tui.explain`)."""
        index = self.actions.chosen
        typed = self.entry.value
        summary, view, seat = self.summary, self.view, self.viewer
        if summary is None or view is None or seat is None or self.legal is None:
            self._hint(Text("No action to explain now; F1 shows the help.", style="italic"))
            return
        lines = explain.explain(
            self.renderer, summary, view, seat, self.legal_actions, index, typed
        )
        self._hint(Text(lines[0].strip(), style="bold"))
        self.log_pane.add([Text(lines[0], style="bold"), *lines[1:]])

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        lowered = text.lower()
        zoom = choose.zoom_words(text)
        if zoom is not None:
            self.entry.value = ""
            self._zoom(zoom)
            return
        command = choose.COMMANDS.get(lowered)
        if command is not None and lowered != "?":
            self.entry.value = ""
            self._command(command)
            return
        if self.legal is None or self.submitting:
            if text == "?":
                self.entry.value = ""
                self.action_help()
            elif text and self.session.seat is None:
                self._hint(Text("You are watching: Ctrl+Q leaves."))
            elif text:
                self._hint(Text("It is not your turn; the board updates by itself."))
            return
        legal = list(self.legal_actions)
        chosen: str | None = None
        if text == "?":
            text = ""  # '?' explained the highlighted action; Enter plays it
        if not text:
            index = self.actions.chosen
            chosen = None if index is None else legal[index].notation
        else:
            choice = choose.resolve(text, legal, self.renderer.input_hints)
            if isinstance(choice, choose.Command):
                self.entry.value = ""
                if choice.name == "explain":
                    self.keep_hint = True  # clearing the line must not replace it
                    self._hint(Text(choice.message, style="bold"))
                    self._say(choice.message)
                else:
                    self._command(choice.name)
                return
            # Enter plays a listed action only when the player clearly named it:
            # never the first of a list that merely contains what was typed.
            highlighted = self.actions.chosen if self.shown else None
            said = picker.by_whole_words(text, legal, self.shown)
            if isinstance(choice, choose.Submit) and choice.known:
                chosen = choice.notation
            elif highlighted is not None and self.picked_by_arrows:
                chosen = legal[highlighted].notation  # moved onto with the arrows
            elif len(said) == 1:
                chosen = legal[said[0]].notation  # the one whose notation says it
            elif highlighted is not None and len(self.shown) == 1:
                chosen = legal[highlighted].notation  # the filter left this one
            elif isinstance(choice, choose.Problem):
                # The hint is one line: the log keeps the whole sentence, wrapped.
                self._hint(Text(choice.message, style="bold red"))
                self._say(choice.message, style="red")
                return
            elif len(self.shown) > 1:
                self._hint(
                    Text(
                        f"{len(self.shown)} actions fit {text!r}: type more, or pick one "
                        "with Up/Down, then Enter.",
                        style="bold red",
                    )
                )
                return
            else:
                chosen = text  # not listed: the server explains a refusal
        if chosen is None:
            return
        await self._submit(chosen)

    async def _submit(self, notation: str) -> None:
        seat, legal = self.session.seat, self.legal
        if seat is None or legal is None:
            return
        self.submitting = True
        try:
            await seat.submit(notation, expected_version=legal.version)
        except SenetRpcError as exc:
            message = f"Not accepted: {for_people(exc, self.session.server)}"
            self._hint(Text(message, style="bold red"))
            self._say(message, style="red")
            if exc.reason in _STALE_REASONS:
                self.legal = None
                self._want_refresh()
            return
        finally:
            self.submitting = False
        self.entry.value = ""
        if self.legal is legal:  # not yet replaced by the next turn's actions
            self.legal = None
            self._draw_prompt()
        self._hint(Text(f"Played {notation}.", style="italic"))

    def _zoom(self, words: str) -> None:
        """``zoom <what>``: the game's closer look at part of the table, in the log."""
        if self.view is None:
            self._hint(Text("No table yet."))
            return
        lines = detail_lines(
            self.renderer, words, self.view, self.summary, self.viewer, self.charset
        )
        self.log_pane.add(lines)
        self._hint(Text(f"zoom {words}: shown in the log.", style="italic"))

    def _command(self, name: str) -> None:
        if name == "quit":
            self.action_leave()
        elif name == "help":
            self.action_help()
        elif name == "board":
            self._draw()
        elif name == "list":
            self.entry.value = ""
            for index, action in enumerate(self.legal_actions):
                self._say(f"{index + 1:>3}  {action.notation:<14} {action.label}")
        elif name == "rematch":
            self.run_worker(self.ask_rematch(), name="rematch", exit_on_error=False)
        elif name == "decline":
            self.run_worker(self.decline_rematch(), name="decline", exit_on_error=False)

    async def ask_rematch(self) -> None:
        """RequestRematch: the screen closes and opens again on the rematch's seat
        (:attr:`next_session`), or stays with the reason."""
        if self.session.seat is None:
            self._hint(Text("Only the players of a match ask for its rematch.", style="italic"))
            return
        if not self.over or self.summary is None:
            self._hint(Text("A rematch is asked for once the match is over.", style="italic"))
            return
        try:
            self.next_session = await self.session.rematch()
        except SenetRpcError as exc:
            message = f"No rematch: {for_people(exc, self.session.server)}"
            self._hint(Text(message, style="bold red"))
            self._say(message, style="red")
            return
        self.exit(0)

    async def decline_rematch(self) -> None:
        """DeclineRematch: nobody waits for this player in a rematch."""
        if self.session.seat is None:
            self._hint(Text("Only the players of a match decline its rematch.", style="italic"))
            return
        if not self.over or self.summary is None:
            self._hint(Text("A rematch is declined once the match is over.", style="italic"))
            return
        try:
            finished = await self.session.seat.decline_rematch()
        except SenetRpcError as exc:
            message = f"Not declined: {for_people(exc, self.session.server)}"
            self._hint(Text(message, style="bold red"))
            self._say(message, style="red")
            return
        self._declined(finished)

    # ------------------------------------------------------------ key actions
    def action_help(self) -> None:
        self.push_screen(HelpScreen(KEYS_HELP + "\n" + self.renderer.help_text))

    @property
    def zoomed(self) -> bool:
        """Whether the board fills the screen between the status line and the prompt."""
        return self.has_class("-zoomed")

    def action_zoom(self) -> None:
        # A class rather than Screen.maximize: a maximized widget is placed before
        # the screen's other children, which put the status line below the board.
        self.set_class(not self.zoomed, "-zoomed")
        self.call_after_refresh(self._board_scrolled)

    def action_next_region(self) -> None:
        """Scroll the board to its next region (zoomed, that region fills the screen)."""
        starts = self.board.sections()
        self._region = (self._region + 1) % len(starts)
        self.board.scroll_to(y=starts[self._region], animate=False)

    def action_board_page(self, direction: int) -> None:
        step = max(1, self.board.scrollable_content_region.height - 1)
        self.board.scroll_relative(y=direction * step, animate=False)

    def action_escape(self) -> None:
        if self.zoomed:
            self.set_class(False, "-zoomed")
        elif self.entry.value:
            self.entry.value = ""

    def action_leave(self) -> None:
        """Close; a player still seated in a running match is asked first."""
        if isinstance(self.screen, QuitScreen):
            self.screen.dismiss("pause")  # Ctrl+Q twice: the choice that loses nothing
            return
        if self.session.seat is None or self.over or self.stopped:
            self.exit(0)
            return
        alone = self.summary is not None and others_resigned(self.summary, self.viewer)
        self.push_screen(QuitScreen(alone), callback=self._answer_quit)

    async def _answer_quit(self, answer: str | None) -> None:
        if answer == "pause":
            self.exit(0)
        elif answer == "leave":
            await self.leave_for_good()
        else:
            self._hint(Text("Carrying on.", style="italic"))

    async def leave_for_good(self) -> None:
        """LeaveMatch; the screen closes with the outcome, or stays with the reason."""
        seat = self.session.seat
        if seat is None:
            return
        try:
            left = await seat.leave()
        except SenetRpcError as exc:
            message = f"Could not leave: {for_people(exc, self.session.server)}"
            self._hint(Text(message, style="bold red"))
            self._say(message, style="red")
            return
        self.left = left_words(left, seat.seat)
        self.exit(0)


__all__ = ["KEYS_HELP", "PlayApp"]
