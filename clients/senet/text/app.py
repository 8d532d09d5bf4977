"""The ``senet play`` session: follow a match live and play a seat from the keyboard.

One asyncio task reads the match stream (``WatchMatch`` with the seat's token, which
reconnects and resumes by itself); a daemon thread reads lines from stdin, so typing
never blocks the event loop. Both feed one inbox, handled in order by :class:`TextApp`:

* a committed action (from anyone) adds lines to the log; the table is then fetched
  once (``GetMatch``, plus ``ListLegalActions`` when it is our turn) and drawn again,
  so a burst of updates costs one redraw. Nothing is polled: every fetch answers an
  update the server pushed.
* a typed line is resolved against the legal actions (:mod:`senet.text.choose`) and
  submitted with the version it was listed for; a refusal prints the server's reason
  and message and asks again. Lines a person types before their turn are answered
  "not your turn yet"; lines from a script (stdin not a terminal) wait for the
  player's next turn instead, and the end of the script waits behind them.
* the end of the stream means the match is over: the final table and the score
  breakdown are drawn.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import IO, TextIO

import grpc
from rich.console import Console
from rich.text import Text

from senet.client.client import SeatClient, SenetClient
from senet.client.errors import SenetRpcError
from senet.client.options import parse_options
from senet.client.turns import deciding_seats, must_decide
from senet.text import choose, clocks, drawing, lobby
from senet.text.cli import program, seat_plan
from senet.text.errors import for_people, reach, unreachable
from senet.text.leaving import ALONE, left_words, others_resigned
from senet.text.renderer import TextRenderer, log_lines, renderer_for
from senet.text.renderer import detail_lines as renderer_detail_lines
from senet.text.seat_names import open_seats, rematch_declined, waiting_for_players
from senet.v1 import match_pb2, match_service_pb2

LOG_LINES = 8
#: The most log lines one screen shows: everything since the last screen, up to this.
UNSEEN_LINES = 200
#: Refusals after which the prompt is stale and the table must be fetched again.
_STALE_REASONS = frozenset({"STALE_VERSION", "NOT_YOUR_TURN", "GAME_OVER"})
#: How long a move is sent again while no server answers, before it is given up.
UNREACHABLE_WAIT_S = 60.0


# ------------------------------------------------------------------ inbox items
@dataclass(frozen=True)
class StreamMessage:
    message: match_service_pb2.WatchMatchResponse


@dataclass(frozen=True)
class StreamEnd:
    """The stream ended: the match is over, or ``error`` broke it."""

    error: BaseException | None = None


@dataclass(frozen=True)
class Line:
    """A line typed by the player; None at the end of input."""

    text: str | None


@dataclass(frozen=True)
class Declined:
    """A player declined the rematch this session waits in (``note`` says who)."""

    note: str


Item = StreamMessage | StreamEnd | Line | Declined

#: Seconds between looks, while a rematch waits for its players, for a decline on
#: the finished match it follows (it would never start).
DECLINE_POLL_S = 3.0


def start_line_reader(
    loop: asyncio.AbstractEventLoop, inbox: asyncio.Queue[Item], stream: TextIO | None = None
) -> threading.Thread:
    """Read lines from ``stream`` (stdin) in a daemon thread and post them to ``inbox``."""
    source = stream if stream is not None else sys.stdin

    def read() -> None:
        while True:
            try:
                text = source.readline()
            except (OSError, ValueError):
                text = ""
            line = Line(text.rstrip("\r\n") if text else None)
            try:
                loop.call_soon_threadsafe(inbox.put_nowait, line)
            except RuntimeError:  # the session is over and its loop closed
                return
            if line.text is None:
                return

    thread = threading.Thread(target=read, name="senet-stdin", daemon=True)
    thread.start()
    return thread


# ------------------------------------------------------------------ the session
@dataclass
class Session:
    """Where the session plays: the server, the match and (unless watching) the seat."""

    client: SenetClient
    server: str
    match_id: str
    seat: SeatClient | None = None

    def _command(self, *words: str) -> str:
        """A ``senet play`` command line against this server."""
        return " ".join((program(), "play", "--server", self.server, *words))

    def resume_command(self) -> str | None:
        if self.seat is None:
            return None
        seat = self.seat
        return self._command(
            "--resume", self.match_id, "--seat", str(seat.seat), f"--token={seat.token}"
        )

    def join_command(self) -> str:
        return self._command("--join", self.match_id)

    def rematch_command(self) -> str | None:
        """The command that asks for this match's rematch and plays it (a seat's)."""
        if self.seat is None:
            return None
        return self._command("--rematch", self.match_id, f"--token={self.seat.token}")

    def verify_command(self, seed_chosen: bool) -> str:
        """The command that checks this finished match's deal (``senet verify``),
        with the commitment this seat saw and the entropy it sent, where known
        (a chosen seed's deal owes nothing to the seat's entropy)."""
        words = [program(), "verify", "--server", self.server, self.match_id]
        seat = self.seat
        if seat is not None and seat.commitment:
            words += ["--commitment", seat.commitment]
        if seat is not None and seat.entropy and not seed_chosen:
            words += ["--entropy", seat.entropy]
        return " ".join(words)

    async def rematch(self) -> Session:
        """Ask for this match's rematch: the session of the seat kept there."""
        if self.seat is None:
            raise ValueError("only a seat asks for a rematch")
        seat = await self.seat.rematch()
        return Session(self.client, self.server, seat.match_id, seat)


@dataclass
class TextApp:
    """Draws the match and prompts the player; see the module docstring."""

    session: Session
    console: Console
    charset: drawing.Charset = drawing.UNICODE
    clear: bool = True
    inbox: asyncio.Queue[Item] = field(default_factory=asyncio.Queue)
    log: deque[str] = field(default_factory=lambda: deque(maxlen=UNSEEN_LINES))
    #: Log lines added since the last screen: a burst of bot moves is never lost.
    _unseen: int = 0
    summary: match_pb2.MatchSummary | None = None
    view: match_pb2.View | None = None
    legal: match_service_pb2.ListLegalActionsResponse | None = None
    _drawn: bool = False
    #: An update arrived while the player had a list of actions in front of them.
    _interrupted: bool = False
    #: The player typed quit: the next line says whether to leave or to pause.
    _quitting: bool = False
    #: The player was told every other player resigned (see senet.text.leaving).
    _told_alone: bool = False
    #: The clocks as of the latest snapshot or update (None: no clocks).
    clock: match_pb2.ClockState | None = None
    #: The last version the stream delivered: the log is complete up to it.
    _streamed: int = -1
    #: Input comes from a script, not a person (stdin is not a terminal): a line
    #: read before the player's turn waits for it (see :attr:`_held`).
    scripted: bool = False
    #: A script's lines (None: its end) waiting for the player's turn.
    _held: deque[str | None] = field(default_factory=deque)

    @property
    def viewer(self) -> int | None:
        return None if self.session.seat is None else self.session.seat.seat

    # -------------------------------------------------------------- main loop
    async def run(self) -> int:
        """Follow the match until it ends or the player leaves; returns an exit status."""
        tasks = [asyncio.create_task(self._pump_stream())]
        if self.session.seat is not None:
            tasks.append(asyncio.create_task(self._look_for_decline()))
        try:
            return await self._loop()
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _look_for_decline(self) -> None:
        """While this match is a rematch waiting for its players, look every
        :data:`DECLINE_POLL_S` for a decline on the finished match it follows."""
        while True:
            await asyncio.sleep(DECLINE_POLL_S)
            summary = self.summary
            if summary is not None and summary.started:
                return
            if summary is None or not summary.rematch_of:
                continue
            with contextlib.suppress(SenetRpcError):
                note = rematch_declined((await self.session.client.get(summary.rematch_of)).match)
                if note:
                    await self.inbox.put(Declined(note))
                    return

    async def _pump_stream(self) -> None:
        session = self.session
        try:
            from_version = await self._log_start()
            if session.seat is not None:
                stream = session.seat.watch(from_version)
            else:
                stream = session.client.watch(session.match_id, from_version=from_version)
            async for message in stream:
                await self.inbox.put(StreamMessage(message))
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await self.inbox.put(StreamEnd(exc))
            return
        await self.inbox.put(StreamEnd())

    async def _loop(self) -> int:
        while True:
            batch = [await self.inbox.get()]
            while not self.inbox.empty():
                batch.append(self.inbox.get_nowait())
            stale = False
            for item in batch:
                if isinstance(item, StreamMessage):
                    stale |= self._on_stream(item.message)
                elif isinstance(item, StreamEnd):
                    return await self._on_end(item.error, stale)
                elif isinstance(item, Declined):
                    self.print(Text(f"{item.note} It will not start.", style="bold"))
                    return 0
                else:
                    if stale:
                        interrupted = self._interrupted
                        await self.refresh()
                        stale = False
                        if interrupted and item.text is not None and not self.scripted:
                            # Typed for a list that no longer holds: do not guess.
                            self.print(f"The match moved on; {item.text!r} was not used.")
                            if self.legal is not None:
                                self.prompt()
                            continue
                    status = await self._on_line(item.text)
                    if status is not None:
                        return status
            if stale:
                await self.refresh()
            status = await self._play_held()
            if status is not None:
                return status

    async def _play_held(self) -> int | None:
        """A script's held lines, in order, while the player has actions to choose
        from (each submission waits for the next turn); an exit status to end with."""
        while self._held and (self.legal is not None or self._quitting):
            text = self._held.popleft()
            if text is not None:
                self.print(text)  # a script's line is echoed where a person's would show
            status = await self._handle_line(text)
            if status is not None:
                return status
        return None

    def _hold(self, text: str | None) -> bool:
        """Keep a script's line for the player's next turn; whether it was kept.

        A line is kept when it comes before the player must choose (or behind others
        kept), and the end of input behind the lines kept; commands, and the answer
        to quit's question, are not kept.
        """
        if not self.scripted or self.session.seat is None or not self._match_active():
            return False
        if self._quitting and not self._held:
            return False
        if self._held:
            self._held.append(text)
            return True
        if self.legal is not None or text is None or choose.command_of(text) is not None:
            return False
        self._held.append(text)
        return True

    async def _log_start(self) -> int | None:
        """Where the stream starts: a few versions back, so that the recent log is full
        from the first screen (a resumed seat sees what happened while it was away)."""
        session = self.session
        if session.seat is not None:
            response = await session.seat.get()
        else:
            response = await session.client.get(session.match_id)
        self.summary, self.view = response.match, response.view
        self._streamed = max(0, response.match.version - LOG_LINES)
        snapshot = match_pb2.MatchSnapshot(match=response.match, view=response.view)
        await self.inbox.put(StreamMessage(match_service_pb2.WatchMatchResponse(snapshot=snapshot)))
        return self._streamed

    def _on_stream(self, message: match_service_pb2.WatchMatchResponse) -> bool:
        """Record one stream message; True when the table changed."""
        kind = message.WhichOneof("message")
        if kind == "snapshot":
            return True
        if kind == "update":
            update, view = message.update, self.view
            if not self._prompt_stands(update):
                self._interrupted |= self.legal is not None
                self.legal = None
            if update.HasField("clock"):
                self.clock = update.clock
            self._streamed = max(self._streamed, update.version)
            lines = log_lines(self.renderer, update, view, self.summary, self.viewer)
            self.log.extend(lines)
            self._unseen += len(lines)
            return True
        return False

    def _prompt_stands(self, update: match_pb2.MatchUpdate) -> bool:
        """Whether our list of actions still holds after ``update``: it was listed
        at that version or a later one (the update was still on its way when the
        list was fetched), or another seat deciding with us chose (its choice is
        hidden and leaves ours as it was; the server takes ours at the version it
        was listed for)."""
        viewer = self.viewer
        if self.legal is None or viewer is None:
            return False
        if update.version <= self.legal.version:
            return True
        return update.seat != viewer and viewer in deciding_seats(update)

    @property
    def renderer(self) -> TextRenderer:
        """The match's game's renderer (the generic one until the match is known)."""
        return renderer_for(self.summary.game_id if self.summary is not None else "")

    # -------------------------------------------------------------- fetching
    async def refresh(self) -> None:
        """Fetch the table (and our legal actions when we must decide), then draw."""
        session = self.session
        if session.seat is not None:
            response = await session.seat.get()
        else:
            response = await session.client.get(session.match_id)
        if (
            response.match.version > self._streamed >= 0
            and response.match.status == match_pb2.MATCH_STATUS_ACTIVE
        ):
            return  # the log lags: its updates are on their way and draw the table again
        self.summary = response.match
        self.view = response.view
        self.clock = response.match.clock if response.match.HasField("clock") else None
        self.legal = None
        self._interrupted = False
        summary = response.match
        active = summary.status == match_pb2.MATCH_STATUS_ACTIVE
        if active and not self._told_alone and others_resigned(summary, self.viewer):
            self._told_alone = True
            self.log.append(ALONE)  # in the recent log, which the screen below keeps
            self._unseen += 1
        if session.seat is not None and must_decide(summary, session.seat.seat):
            legal = await session.seat.legal_actions()
            if legal.actions:
                self.legal = legal
        self.draw()

    # -------------------------------------------------------------- drawing
    def print(self, *lines: Text | str, style: str = "") -> None:
        for line in lines:
            self.console.print(line, style=style or None, highlight=False, markup=False)

    def print_command(self, command: str) -> None:
        """A command to copy: never wrapped, whatever its length."""
        self.console.print(f"  {command}", highlight=False, markup=False, soft_wrap=True)

    def draw(self) -> None:
        """The whole screen: table, recent log, then the prompt or whom we wait for."""
        if self.clear and self._drawn and self.console.is_terminal:
            self.console.clear()
        self._drawn = True
        if self.view is not None:
            renderer = self.renderer
            self.print(*renderer.match_lines(self.view, self.summary, self.viewer, self.charset))
        if self.log:
            self.print(Text("RECENT", style="bold"), *self._recent_lines())
        self._draw_clocks()
        self._draw_waiting()
        if self.legal is not None:
            self.print(Text("YOUR TURN - choose an action:", style="bold reverse"))
            self.print(*self.renderer.action_lines(list(self.legal.actions)))
            self.prompt()

    def _recent_lines(self) -> list[Text]:
        """The last LOG_LINES lines, or every line since the previous screen if more
        came (a burst of bot moves between two of our turns), wrapped to the width."""
        count = min(len(self.log), max(LOG_LINES, self._unseen))
        dropped = self._unseen - count
        self._unseen = 0
        recent = list(self.log)[len(self.log) - count :]
        if dropped > 0:
            recent.insert(0, f"({dropped} earlier line(s) not shown)")
        return [part for line in recent for part in drawing.wrapped(line)]

    def _draw_clocks(self) -> None:
        """One line: each seat's reserve (if any) and the time left to decide."""
        clock, summary, view = self.clock, self.summary, self.view
        if clock is None or summary is None or summary.status != match_pb2.MATCH_STATUS_ACTIVE:
            return

        def label(seat: int) -> str:
            if view is None:
                return f"seat {seat}"
            return self.renderer.seat_label(seat, view, summary, self.viewer)

        line = clocks.clocks_line(clock, label, viewer=self.viewer)
        if line:
            self.print(Text(line, style="bold"))

    def _draw_waiting(self) -> None:
        summary = self.summary
        if summary is None or summary.status != match_pb2.MATCH_STATUS_ACTIVE:
            return
        unclaimed = [
            s for s in summary.seats if s.kind != match_pb2.SEAT_KIND_BOT and not s.claimed
        ]
        if unclaimed:
            joinable = open_seats(summary)
            if joinable:
                numbers = ", ".join(str(s) for s in joinable)
                self.print(f"Open seat(s) {numbers}. Others join with:")
                self.print_command(self.session.join_command())
            # Nobody moves before the match starts (its deal is made then).
            self.print(Text(f"{waiting_for_players(summary)}...", style="italic"))
            return
        if self.legal is not None or not summary.HasField("current_seat"):
            return
        seat = summary.current_seat
        view = self.view
        who = (
            self.renderer.seat_label(seat, view, summary, self.viewer)
            if view is not None
            else f"seat {seat}"
        )
        info = next((s for s in summary.seats if s.seat == seat), None)
        note = ""
        if info is not None and info.kind == match_pb2.SEAT_KIND_BOT:
            note = " (a bot worker plays this seat)"
        elif info is not None and not info.claimed:
            note = " (nobody has joined this seat yet)"
        if seat == self.viewer:
            self.print(f"Your turn: fetching your actions...{note}")
        else:
            self.print(Text(f"Waiting for {who}...{note}", style="italic"))

    def prompt(self) -> None:
        count = len(self.legal.actions) if self.legal is not None else 0
        self.console.print(
            Text(f"Your move (1-{count}, notation, ? for help) > ", style="bold"), end=""
        )
        self.console.file.flush()

    # -------------------------------------------------------------- input
    async def _on_line(self, text: str | None) -> int | None:
        """Take one typed line: hold a script's line for the player's turn, else
        handle it; an exit status when the session should end."""
        if self._hold(text):
            return None
        return await self._handle_line(text)

    async def _handle_line(self, text: str | None) -> int | None:
        """Handle one line; an exit status when the session should end."""
        if text is None:
            if self.session.seat is None:
                return None  # a spectator without input keeps watching
            self.print("", "End of input: leaving the match.")
            self._print_resume()
            return 0
        if self._quitting:
            return await self._answer_quit(text)
        if self.legal is None:
            return self._idle_command(text)
        choice = choose.resolve(text, list(self.legal.actions), self.renderer.input_hints)
        if isinstance(choice, choose.Problem):
            self.print(Text(choice.message, style="bold red"))
            self.prompt()
            return None
        if isinstance(choice, choose.Command):
            return self._command(choice)
        await self._submit(choice)
        return None

    def _idle_command(self, text: str) -> int | None:
        command = choose.command_of(text)
        if command is not None:
            return self._command(command)
        if text.strip():
            if self.session.seat is None:
                self.print("You are watching: type quit to leave.")
            else:
                self.print("It is not your turn yet; the board updates by itself.")
        return None

    def _command(self, command: choose.Command) -> int | None:
        if command.name == "quit":
            if self.session.seat is None or not self._match_active():
                self.print("Leaving the match.")
                self._print_resume()
                return 0
            self._quitting = True
            if self.summary is not None and others_resigned(self.summary, self.viewer):
                self.print("Every other player resigned: leaving keeps your first place.")
            self.console.print(
                Text("Leave for good (l) or pause, keeping your seat (p)? > ", style="bold"),
                end="",
            )
            self.console.file.flush()
            return None
        if command.name == "help":
            self.print(self.renderer.help_text)
        elif command.name == "list" and self.legal is not None:
            for number, action in enumerate(self.legal.actions, 1):
                self.print(f"{number:>3}  {action.notation:<14} {action.label}")
        elif command.name == "explain":
            self.print(command.message)
        elif command.name == "zoom":
            if self.view is None:
                self.print("No table yet.")
            else:
                self.print(
                    *renderer_detail_lines(
                        self.renderer,
                        command.message,
                        self.view,
                        self.summary,
                        self.viewer,
                        self.charset,
                    )
                )
        elif command.name in ("rematch", "decline"):
            self.print(
                f"A rematch is {'asked for' if command.name == 'rematch' else 'declined'} once "
                "the match is over: its end asks."
            )
        elif command.name == "board":
            self.draw()
            return None
        if self.legal is not None:
            self.prompt()
        return None

    def _match_active(self) -> bool:
        return self.summary is None or self.summary.status == match_pb2.MATCH_STATUS_ACTIVE

    async def _answer_quit(self, text: str) -> int | None:
        """The answer to quit's question: leave for good, pause, or carry on."""
        self._quitting = False
        answer = text.strip().lower()
        seat = self.session.seat
        if answer in ("p", "pause") and seat is not None:
            self.print("Paused: your seat is kept.")
            self._print_resume()
            return 0
        if answer in ("l", "leave") and seat is not None:
            try:
                left = await seat.leave()
            except SenetRpcError as exc:
                self.print(Text(f"Could not leave: {exc.reason}: {exc.message}", style="bold red"))
                return 1
            self.print(left_words(left, seat.seat))
            return 0
        self.print("Carrying on.")
        if self.legal is not None:
            self.prompt()
        return None

    async def _submit(self, choice: choose.Submit) -> None:
        seat = self.session.seat
        legal = self.legal
        if seat is None or legal is None:
            return
        try:
            await self._submit_when_reachable(seat, choice.notation, legal.version)
        except SenetRpcError as exc:
            message = f"Not accepted: {for_people(exc, self.session.server)}"
            self.print(Text(message, style="bold red"))
            if exc.reason in _STALE_REASONS:
                await self.refresh()
                return
            if not choice.known:
                self.print("Type a number from the list, or ? for help.")
            self.prompt()
            return
        self.legal = None
        self.print(f"Played {choice.notation}.")

    async def _submit_when_reachable(self, seat: SeatClient, notation: str, version: int) -> None:
        """Submit, and while no server answers keep the choice and send it again
        (with the same request id: applied once however often it is sent) for up
        to :data:`UNREACHABLE_WAIT_S`, rather than spend it on a refusal: a script's
        next lines are its next turns, and a person's typed move would be lost."""
        request_id = uuid.uuid4().hex
        waited, pause = 0.0, 0.5
        while True:
            try:
                await seat.submit(notation, expected_version=version, request_id=request_id)
                return
            except SenetRpcError as exc:
                if not unreachable(exc) or waited >= UNREACHABLE_WAIT_S:
                    raise
                if waited == 0.0:
                    self.print(
                        f"{for_people(exc, self.session.server)} Sending {notation} again "
                        f"for up to {UNREACHABLE_WAIT_S:g} s."
                    )
            await asyncio.sleep(pause)
            waited += pause
            pause = min(pause * 2, 5.0)

    # -------------------------------------------------------------- the end
    async def _on_end(self, error: BaseException | None, stale: bool) -> int:
        if error is not None:
            self.print(Text(f"Lost the match stream: {describe(error)}", style="bold red"))
            self._print_resume()
            return 1
        if stale or self.summary is None or self.summary.status == match_pb2.MATCH_STATUS_ACTIVE:
            await self.refresh()
        view = self.view
        if view is not None:
            self.print("")
            renderer = self.renderer
            self.print(*renderer.final_score_lines(view, self.summary, self.viewer, self.charset))
        elif self.summary is not None:
            self.print(f"Final scores: {list(self.summary.scores)}")
        self._print_verify()
        self._print_rematch()
        return 0

    async def rematch_wanted(self) -> Session | None:
        """Once the match is finished, a person at the keyboard is asked whether to
        play the rematch: its seat's session if they type ``rematch`` (a script's
        input is never asked: the end prints the command instead)."""
        summary = self.summary
        finished = summary is not None and summary.status == match_pb2.MATCH_STATUS_FINISHED
        if self.scripted or self.session.seat is None or not finished:
            return None
        self.console.print(
            Text(
                "Type rematch and Enter to play again, or decline; Enter alone leaves. > ",
                style="bold",
            ),
            end="",
        )
        self.console.file.flush()
        while True:
            item = await self.inbox.get()
            if isinstance(item, Line):
                break
        answer = choose.command_of(item.text or "")
        try:
            if answer == choose.Command("rematch"):
                return await self.session.rematch()
            if answer == choose.Command("decline"):
                assert self.session.seat is not None
                declined = await self.session.seat.decline_rematch()
                self.print(Text(rematch_declined(declined, self.viewer), style="bold"))
        except SenetRpcError as exc:
            self.print(Text(f"No rematch: {for_people(exc, self.session.server)}", style="bold"))
        return None

    def _print_verify(self) -> None:
        """How anyone checks that a finished match was dealt fairly."""
        summary = self.summary
        if summary is not None and summary.status == match_pb2.MATCH_STATUS_FINISHED:
            self.print("Check that the deal was fair with:")
            self.print_command(self.session.verify_command(summary.seed_chosen))

    def _print_rematch(self) -> None:
        """How a player of a finished match plays it again."""
        command = self.session.rematch_command()
        summary = self.summary
        if (
            command is not None
            and summary is not None
            and summary.status == match_pb2.MATCH_STATUS_FINISHED
        ):
            self.print("Play a rematch (the same table, seats moved on by one) with:")
            self.print_command(command)

    def _print_resume(self) -> None:
        command = self.session.resume_command()
        if command is not None and (
            self.summary is None or self.summary.status == match_pb2.MATCH_STATUS_ACTIVE
        ):
            self.print("Resume later with:")
            self.print_command(command)


def describe(exc: BaseException) -> str:
    """One line for people, from any error (no reason codes, no gRPC text)."""
    return for_people(exc)


# ------------------------------------------------------------------ start-up
def time_control(args: argparse.Namespace) -> match_pb2.TimeControl | None:
    """The turn clocks asked for with --decision-s, --reserve-s, --increment-s."""
    decision = getattr(args, "decision_s", None)
    reserve = getattr(args, "reserve_s", None)
    increment = getattr(args, "increment_s", None)
    if decision is None and reserve is None:
        return None
    return match_pb2.TimeControl(
        decision_ms=round((decision or 0) * 1000),
        reserve_ms=round((reserve or 0) * 1000),
        increment_ms=round((increment or 0) * 1000),
    )


async def open_session(args: argparse.Namespace, client: SenetClient, out: Console) -> Session:
    """Create, join, resume or watch, as the arguments say."""
    server = args.server
    if args.new:
        plan = seat_plan(args)
        match_id = await client.create_match(
            args.new,
            plan.open_seats,
            options=parse_options(args.option),
            seed=args.seed,
            # One strategy per bot seat (the lobby's form), or --bot-strategy for all.
            bots=getattr(args, "bot_strategies", None) or [args.bot_strategy] * plan.bots,
            time_control=time_control(args),
            unlisted=args.unlisted,
        )
        seat = await client.join(match_id, args.name)
        session = Session(client, server, match_id, seat)
        out.print(
            f"Created {args.new} match {match_id}: {plan.open_seats} open seat(s), "
            f"{plan.bots} bot seat(s)"
            + (", unlisted: only those you give its id find it." if args.unlisted else "."),
            highlight=False,
            markup=False,
        )
        if plan.bots:
            strategies = ", ".join(getattr(args, "bot_strategies", None) or [args.bot_strategy])
            out.print(
                f"Bot seats play the {strategies} strategy "
                "(--bot-strategy greedy or mcts for stronger ones).",
                highlight=False,
                markup=False,
            )
        if plan.open_seats > 1:
            out.print(
                f"Others join with:\n  {session.join_command()}",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )
    elif args.join:
        seat = await client.join(args.join, args.name, args.seat)
        session = Session(client, server, args.join, seat)
        out.print(f"Joined match {args.join}.", highlight=False, markup=False)
    elif args.resume:
        seat = client.seat(args.resume, args.seat, args.token)
        response = await seat.get()
        if not response.HasField("viewer_seat") or response.viewer_seat != args.seat:
            raise SenetRpcError(
                grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "this token does not hold that seat"
            )
        session = Session(client, server, args.resume, seat)
        out.print(
            f"Resumed seat {args.seat} of match {args.resume}.", highlight=False, markup=False
        )
    elif args.rematch:
        seat = await client.request_rematch(args.rematch, args.token)
        session = Session(client, server, seat.match_id, seat)
        out.print(
            f"Rematch of {args.rematch}: match {session.match_id}.", highlight=False, markup=False
        )
    else:
        await client.get(args.watch)
        return Session(client, server, args.watch)
    if session.seat is not None and not args.resume:
        announce_seat(session, out)
    return session


def announce_seat(session: Session, out: Console) -> None:
    """Print the seat's number, its token and how to resume: shown once, at joining."""
    if session.seat is not None:
        out.print(
            f"You are seat {session.seat.seat}; your token: {session.seat.token}\n"
            f"Resume after a restart with:\n  {session.resume_command()}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


async def lobby_session(
    args: argparse.Namespace, client: SenetClient, out: Console
) -> Session | None:
    """Pick a match from the lobby and join or watch it; None when the player quits."""
    picked = await lobby.pick(client, out, name=args.name, game_id=args.game, ascii_only=args.ascii)
    if picked is None:
        return None
    if picked.seat is None or picked.token is None:
        out.print(f"Watching match {picked.match_id}.", highlight=False, markup=False)
        return Session(client, args.server, picked.match_id)
    seat = client.seat(picked.match_id, picked.seat, picked.token)
    session = Session(client, args.server, picked.match_id, seat)
    out.print(f"Joined match {picked.match_id}.", highlight=False, markup=False)
    announce_seat(session, out)
    return session


Pick = Callable[[argparse.Namespace, SenetClient, Console], Awaitable[Session | None]]


async def begin(
    args: argparse.Namespace, client: SenetClient, out: Console, pick: Pick
) -> Session | None:
    """The session ``senet play`` asks for: picked from a lobby with ``pick`` when
    no match is named, else created, joined, resumed or watched (None: the player
    left the lobby)."""
    if lobby.wanted(args):
        return await pick(args, client, out)
    return await open_session(args, client, out)


async def amain(args: argparse.Namespace, console: Console, holder: list[Session]) -> int:
    problem = await reach(args.server, args.tls_ca)
    if problem is not None:
        console.print(f"senet play: {problem}", highlight=False, markup=False, soft_wrap=True)
        return 1
    async with SenetClient(args.server, admin_key=args.admin_key, tls_ca=args.tls_ca) as client:
        try:
            picked = await begin(args, client, console, lobby_session)
            if picked is None:
                return 0
            session = picked
        except SenetRpcError as exc:
            console.print(
                f"senet play: {for_people(exc, args.server)}", highlight=False, markup=False
            )
            return 1
        holder.append(session)
        inbox: asyncio.Queue[Item] = asyncio.Queue()
        start_line_reader(asyncio.get_running_loop(), inbox)
        while True:
            app = TextApp(
                session,
                console,
                charset=drawing.charset_for(console, args.ascii),
                clear=not args.no_clear,
                scripted=not sys.stdin.isatty(),
                inbox=inbox,
            )
            try:
                status = await app.run()
                following = await app.rematch_wanted() if status == 0 else None
            except SenetRpcError as exc:
                console.print(
                    f"senet play: {for_people(exc, args.server)}", highlight=False, markup=False
                )
                app._print_resume()
                return 1
            if following is None:
                return status
            session = following
            holder[:] = [session]
            console.print(f"Rematch: match {session.match_id}.", highlight=False, markup=False)
            announce_seat(session, console)


def main(args: argparse.Namespace, file: IO[str] | None = None) -> int:
    """Run the session; Ctrl-C leaves cleanly (printing how to resume)."""
    console = drawing.make_console(no_color=args.no_color, file=file)
    holder: list[Session] = []
    try:
        return asyncio.run(amain(args, console, holder))
    except KeyboardInterrupt:
        console.print("\nLeft the match.", highlight=False, markup=False)
        command = holder[0].resume_command() if holder else None
        if command:
            console.print(
                f"Resume later with:\n  {command}", highlight=False, markup=False, soft_wrap=True
            )
        return 130


__all__ = ["Session", "TextApp", "main", "start_line_reader"]
