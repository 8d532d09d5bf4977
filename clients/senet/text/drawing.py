"""Drawing helpers shared by every game's text renderer (and the generic one).

Every line the client prints is ``rich`` :class:`~rich.text.Text`, at most :data:`WIDTH`
cells wide; colour only decorates, so every screen reads the same with ``NO_COLOR``
or ``--no-color``. Here: the width, the border characters (:class:`Charset`, Unicode
or ASCII), cutting and padding to a width, two columns side by side, wrapped text,
and the console the client writes to.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.text import Text

from senet.v1 import match_pb2

#: Columns of the terminal the client draws for; no line is wider.
WIDTH = 80
#: Gap between the board and the panel to its right.
GAP = 2

STATUS_NAME: dict[int, str] = {
    match_pb2.MATCH_STATUS_ACTIVE: "active",
    match_pb2.MATCH_STATUS_FINISHED: "finished",
    match_pb2.MATCH_STATUS_ABANDONED: "abandoned",
}


def match_words(summary: match_pb2.MatchSummary) -> str:
    """The match in a title: ``match <id>``, ``rated match <id>`` when its result
    settles into ratings (MatchSummary.rated)."""
    return f"{'rated match' if summary.rated else 'match'} {summary.match_id}"


@dataclass(frozen=True)
class Charset:
    """The characters of the board's borders."""

    area_v: str
    plot_v: str
    area_h: str
    top: tuple[str, str, str]
    middle: tuple[str, str, str]
    bottom: tuple[str, str, str]
    scoring: tuple[str, str]
    turn: str
    times: str


UNICODE = Charset(
    "┃", "│", "━", ("┏", "┳", "┓"), ("┣", "╋", "┫"), ("┗", "┻", "┛"), ("▶", "◀"), "▶", "\u00d7"
)
ASCII = Charset(
    "#", "|", "=", ("#", "#", "#"), ("#", "#", "#"), ("#", "#", "#"), (">", "<"), ">", "x"
)


def charset_for(console: Console, ascii_only: bool = False) -> Charset:
    """ASCII when asked or when the console cannot encode box-drawing characters."""
    if ascii_only or not console.encoding.lower().replace("-", "").startswith("utf"):
        return ASCII
    return UNICODE


# ------------------------------------------------------------------ layout
def pad(text: Text, width: int) -> Text:
    """``text`` cut or padded with spaces to exactly ``width`` cells."""
    out = text.copy()
    out.truncate(width, overflow="ellipsis", pad=True)
    return out


def fit(text: Text, width: int) -> Text:
    """``text`` cut to at most ``width`` cells (with an ellipsis), trailing spaces removed."""
    out = text.copy()
    out.truncate(width, overflow="ellipsis")
    out.rstrip()
    return out


def join(parts: Iterable[Text | str]) -> Text:
    """One line of ``parts``, plain strings and styled text alike."""
    out = Text()
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        else:
            out.append_text(part)
    return out


def side_by_side(left: Sequence[Text], right: Sequence[Text], left_width: int) -> list[Text]:
    """Two columns: ``left`` padded to ``left_width``, then :data:`GAP`, then ``right``."""
    lines = []
    for index in range(max(len(left), len(right))):
        line = pad(left[index] if index < len(left) else Text(), left_width)
        line.append(" " * GAP)
        if index < len(right):
            line.append_text(pad(right[index], WIDTH - left_width - GAP))
        line.rstrip()
        lines.append(line)
    return lines


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``... for a place in a ranking."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f"{place}{suffix}"


def hanging(head: Text, words: str, width: int) -> list[Text]:
    """``head`` then ``words`` wrapped at ``width``, continuation lines indented under them."""
    indent = head.cell_len
    room = max(20, width - indent)
    lines = []
    line = head.copy()
    used = 0
    for word in words.split():
        if used and used + 1 + len(word) > room:
            lines.append(fit(line, width))
            line, used = Text(" " * indent), 0
        if used:
            line.append(" ")
            used += 1
        line.append(word)
        used += len(word)
    lines.append(fit(line, width))
    return lines


def wrapped(line: str, width: int = WIDTH) -> list[Text]:
    """A log line wrapped at ``width``, its continuation lines indented under its text
    (never back at column 0)."""
    indent = len(line) - len(line.lstrip())
    return hanging(Text(" " * indent), line.strip(), width)


# ------------------------------------------------------------------ output
def make_console(
    *,
    no_color: bool = False,
    width: int = WIDTH,
    file: IO[str] | None = None,
    force_terminal: bool | None = None,
) -> Console:
    """A console for the client: 80 columns, no markup or emoji surprises.

    With ``no_color`` it writes no escape codes at all (``NO_COLOR``, dumb terminals).
    """
    return Console(
        width=width,
        force_terminal=force_terminal,
        no_color=no_color or None,
        color_system=None if no_color else "auto",
        file=file,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
    )


def to_text(lines: Sequence[RenderableType], width: int = WIDTH) -> str:
    """Plain text of ``lines`` (for tests and logs): no colour, no escape codes."""
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, no_color=True, color_system=None, force_terminal=False
    )
    console.print(Group(*lines), highlight=False, markup=False, emoji=False)
    return buffer.getvalue()
