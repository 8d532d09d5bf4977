"""The panes of the play screen: status line, board, players, log, and the action prompt.

Each pane only shows what it is given; :class:`senet.tui.app.PlayApp` decides what
to show and when. Their sizes are fixed by the app's CSS so that none pushes
another off the screen: the board takes what is left and scrolls.
"""

from __future__ import annotations

import re
import textwrap
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.message import Message
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from senet.v1 import match_pb2


def hanging_wrap(text: str, width: int) -> Text:
    """``text`` wrapped at ``width`` line by line, each continuation indented to where
    the line's words start after its first gap of two spaces (a key's description in
    a help table) or else two past the line's own indent, so a wrapped entry still
    reads as one."""
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        gap = re.match(r"^(\s*\S.*?\s{2,})\S", line)
        lead = len(line) - len(line.lstrip())
        indent = len(gap.group(1)) if gap and len(gap.group(1)) < width // 2 else lead + 2
        out.extend(
            textwrap.wrap(
                line,
                width=width,
                subsequent_indent=" " * indent,
                drop_whitespace=True,
                break_on_hyphens=False,
                replace_whitespace=False,
            )
            or [""]
        )
    return Text("\n".join(out))


class WrappedText(Static):
    """Plain text wrapped with :func:`hanging_wrap` at the widget's width when drawn."""

    def __init__(self, text: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = text

    def render(self) -> Text:
        return hanging_wrap(self.text, max(10, self.size.width))


class StatusLine(Static):
    """One line: the game and match on the left, the connection state on the right.

    Laid out when drawn, at the width the line has then, so that a resized terminal
    keeps the connection state at its right end."""

    where = ""
    state = Text("")

    def show(self, where: str, state: Text) -> None:
        self.where, self.state = where, state
        self.refresh()

    def render(self) -> Text:
        width = max(1, self.size.width)
        state = self.state.copy()
        line = Text(self.where, style="bold")
        # The connection state is what a person looks for: the match id gives way first.
        line.truncate(max(1, width - state.cell_len - 1), overflow="ellipsis")
        line.append(" " * max(1, width - line.cell_len - state.cell_len))
        line.append_text(state)
        line.truncate(width, overflow="ellipsis")
        return line


#: Lines of the viewer's hand kept in view at the top of the board, at most.
PINNED_ROWS = 3


def hand_lines(lines: Sequence[Text]) -> list[Text]:
    """The viewer's hand in a game's drawing: the line that starts with ``your hand``
    and the lines indented deeper under it (every game's drawing words it so)."""
    start = hand_start(lines)
    return [] if start is None else _hand_block(lines, start)


def hand_start(lines: Sequence[Text]) -> int | None:
    """Where the viewer's hand starts in a drawing (None: no hand drawn)."""
    for index, line in enumerate(lines):
        if line.plain.lstrip().lower().startswith("your hand"):
            return index
    return None


def _hand_block(lines: Sequence[Text], index: int) -> list[Text]:
    for line in lines[index : index + 1]:
        plain = line.plain
        indent = len(plain) - len(plain.lstrip())
        block = [line]
        for more in lines[index + 1 :]:
            text = more.plain
            if not text.strip() or len(text) - len(text.lstrip()) <= indent:
                break
            block.append(more)
        return block[:PINNED_ROWS]
    return []


class BoardPane(ScrollableContainer):
    """The game's own drawing of the table, scrollable both ways; ``F2`` zooms it.

    The viewer's hand (:func:`hand_lines`) is also pinned at the top, so that it is
    in view wherever the board is scrolled. :attr:`on_scroll` is told of every
    vertical scroll (the app says what lies below)."""

    DEFAULT_CSS = """
    BoardPane > Static { width: auto; height: auto; }
    BoardPane > #board-pinned {
        dock: top; width: 100%; height: auto; background: $boost;
    }
    BoardPane > #board-pinned.-empty { display: none; }
    """
    can_focus = False
    ALLOW_MAXIMIZE = True

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []
        self.pinned_lines: list[Text] = []
        self.body = Static(id="board-text")
        self.pinned = Static(id="board-pinned", classes="-empty")
        self.on_scroll: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        yield self.pinned
        yield self.body

    def show(self, lines: Sequence[Text]) -> None:
        self.lines = list(lines)
        self.body.update(Text("\n").join(self.lines))
        self.pinned_lines = [line.copy() for line in hand_lines(self.lines)]
        for line in self.pinned_lines:
            line.no_wrap, line.overflow = False, "fold"
        self.pinned.update(Text("\n").join(self.pinned_lines))
        self._pin()
        if self.on_scroll is not None:
            self.call_after_refresh(self.on_scroll)

    def _pin(self) -> None:
        """Show the pinned hand only while the drawing's own hand is out of view (the
        whole pane's height counts, so that pinning never hides what it repeats)."""
        start = hand_start(self.lines)
        top = round(self.scroll_y)
        in_view = (
            start is not None
            and top <= start
            and (start + len(self.pinned_lines) <= top + self.size.height)
        )
        hide = not self.pinned_lines or in_view
        if hide != self.pinned.has_class("-empty"):
            self.pinned.set_class(hide, "-empty")
            # The pinned rows take from (or give back to) the scrolling height once
            # laid out, which changes what is left below.
            if self.on_scroll is not None:
                self.call_after_refresh(self.on_scroll)

    def on_resize(self) -> None:
        self._pin()
        if self.on_scroll is not None:
            self.on_scroll()

    def watch_virtual_size(self) -> None:
        # A drawing laid out longer or shorter than before changes what is left below
        # without any scroll, and Textual sends Resize only for a new region.
        self.on_resize()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._pin()
        if self.on_scroll is not None:
            self.on_scroll()

    @property
    def rows_below(self) -> int:
        """Lines of the drawing below the pane's lower edge."""
        return max(0, round(self.max_scroll_y - self.scroll_y))

    @property
    def plain(self) -> str:
        """The drawing without styles (what tests and screen readers read)."""
        return "\n".join(line.plain for line in self.lines)

    def sections(self) -> list[int]:
        """Lines where a region of the table starts, so that ``F3`` can jump from one to
        the next: a line flush left whose first word is a title in capitals (``SITES``,
        ``PLAYERS``, ``FINAL SCORES``), as every game's drawing heads its regions."""
        starts = [0]
        for index, line in enumerate(self.lines[1:], 1):
            words = line.plain.split(maxsplit=1)
            if line.plain[:1].strip() and words and words[0].isupper() and len(words[0]) >= 4:
                starts.append(index)
        return starts


@dataclass(frozen=True)
class PlayerRow:
    """One seat in the players pane."""

    label: str
    score: int | None
    to_move: bool
    #: The seat's clock (empty for a match without clocks).
    clock: str = ""


class PlayersPane(Static):
    """Who plays, their scores, whose turn it is, and each seat's clock.

    Laid out when drawn, at the pane's size then (a resize draws it again)."""

    rows: Sequence[PlayerRow] = ()
    title = "PLAYERS"

    def show(self, rows: Sequence[PlayerRow], title: str = "PLAYERS") -> None:
        """One line a seat (name, clock, score); the title too when the pane has a
        row to spare. Clocks line up in a column of their own, before the scores."""
        self.rows, self.title = rows, title
        self.refresh()

    def render(self) -> Text:
        rows, title = self.rows, self.title
        width = max(12, self.size.width or 30)
        clock_width = max((len(row.clock) for row in rows), default=0)
        out = Text()
        if self.size.height > len(rows):
            heads = (f"{'clock':<{clock_width}} " if clock_width else "") + "score"
            out.append(f"{title}{heads:>{width - len(title) - 1}}\n", style="bold")
        for row in rows:
            marker = ">" if row.to_move else " "
            score = "" if row.score is None else str(row.score)
            clock = f"{row.clock:<{clock_width}} " if clock_width else ""
            right = f"{clock}{score:>4}"
            name = row.label
            room = width - 2 - len(right) - 1
            if len(name) > room:
                name = name[: max(1, room - 1)] + "\u2026"
            line = Text(f"{marker} ", style="bold reverse" if row.to_move else "")
            line.append(f"{name:<{room}} ", style="bold" if row.to_move else "")
            line.append(right, style="bold")
            out.append_text(line)
            out.append("\n")
        out.rstrip()
        return out


class LogPane(RichLog):
    """The recent log: the lines of every committed action, newest at the bottom.

    Lines wrap at word boundaries at the pane's width, again after every resize, and
    the newest line stays in view. Each line is wrapped once, when it is added (and
    after a resize), and only the rows in view are drawn, so the pane's cost per
    action stays the same however long the match has run."""

    can_focus = False
    #: Lines kept, and rows drawn from them; older ones scroll out for good.
    MAX_LINES = 500

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, max_lines=self.MAX_LINES, wrap=True, markup=False, auto_scroll=True)
        #: The lines kept, oldest first, unwrapped.
        self.kept: deque[Text] = deque(maxlen=self.MAX_LINES)
        #: Every line added, in plain text (what tests read).
        self.lines_written: list[str] = []
        #: The width the kept lines were last wrapped at.
        self._wrapped_at = 0

    def add(self, lines: Sequence[str | Text]) -> None:
        for line in lines:
            text = line.copy() if isinstance(line, Text) else Text(line)
            text.overflow = "fold"  # a word longer than the pane is folded, never cut
            self.lines_written.append(text.plain)
            self.kept.append(text)
            self._write(text)

    def _write(self, text: Text) -> None:
        if self._wrapped_at:
            self.write(text, width=self._wrapped_at)

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width and width != self._wrapped_at:
            self._wrapped_at = width
            self.clear()
            for text in self.kept:
                self._write(text)

    def drawn(self) -> list[str]:
        """The log as the pane draws it: every line wrapped at the pane's width."""
        width = max(1, self.scrollable_content_region.width)
        rows: list[str] = []
        for line in self.kept:
            rows.extend(part.plain for part in line.wrap(self.app.console, width))
        return rows


class ActionList(OptionList):
    """The legal actions, numbered as the server lists them; filtered as the player types."""

    can_focus = False

    def show(
        self, actions: Sequence[match_pb2.LegalAction], indexes: Sequence[int], keep: bool = False
    ) -> None:
        """List ``actions[i]`` for each of ``indexes``, the first highlighted; with
        ``keep`` (the same list drawn again), the one highlighted before while listed."""
        kept = self.chosen if keep else None
        width = max(len(str(len(actions))), 1)
        notation_width = min(16, max((len(a.notation) for a in actions), default=0))
        options = []
        for index in indexes:
            action = actions[index]
            prompt = Text(f"{index + 1:>{width}} ", style="bold")
            prompt.append(f"{action.notation:<{notation_width}} ", style="cyan")
            prompt.append(action.label)
            prompt.no_wrap = True
            prompt.overflow = "ellipsis"
            options.append(Option(prompt, id=str(index)))
        self.clear_options()
        self.add_options(options)
        if options:
            self.highlighted = 0
            if kept is not None:
                self.highlight_index(kept)

    @property
    def chosen(self) -> int | None:
        """Index (in the full list) of the highlighted action."""
        if self.highlighted is None or self.option_count == 0:
            return None
        option_id = self.get_option_at_index(self.highlighted).id
        return None if option_id is None else int(option_id)

    def highlight_index(self, index: int) -> None:
        for position in range(self.option_count):
            if self.get_option_at_index(position).id == str(index):
                self.highlighted = position
                return


class Entry(Input):
    """The prompt's input line: typing filters, arrows move in the list, ``?`` explains."""

    class Explain(Message):
        """``?`` typed: explain the highlighted action (the filter stays as typed)."""

    class Move(Message):
        """An arrow key: move the highlight by ``step``."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    _STEPS = {"up": -1, "down": 1}

    async def _on_key(self, event: events.Key) -> None:
        # ``?`` is never part of notation: after a filter too, it explains. On an
        # empty line it also stays typed, so that ``? N`` (the help's "label of
        # action N") reads as that command, never as the number N to play.
        if event.character == "?":
            event.stop()
            event.prevent_default()
            if not self.value:
                self.insert_text_at_cursor("?")
            self.post_message(self.Explain())
            return
        step = self._STEPS.get(event.key)
        if step is not None:
            event.stop()
            event.prevent_default()
            self.post_message(self.Move(step))
            return
        await super()._on_key(event)


__all__ = [
    "ActionList",
    "BoardPane",
    "Entry",
    "LogPane",
    "PlayerRow",
    "PlayersPane",
    "StatusLine",
]
