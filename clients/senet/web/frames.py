"""One frame of a page: everything drawn after an update, as JSON for the page's script.

A frame is built from protocol messages the viewer may see (a seat's ``GetMatch``
with its token, the spectator's without, or a replayed spectator view) and from the
game's plug-ins: its web board draws the table, and its text renderer (the terminal
client's, shared so that both clients word events and scores alike) writes the log
and the final breakdown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from senet.client.turns import must_decide
from senet.text.clocks import deadline_of, seat_clock
from senet.text.drawing import STATUS_NAME, UNICODE
from senet.text.generic import seat_label as generic_seat_label
from senet.text.leaving import ALONE, others_resigned
from senet.text.renderer import log_lines, marked, renderer_for
from senet.text.seat_names import SeatNames, open_seats, seat_kind_words, waiting_for_players
from senet.v1 import match_pb2
from senet.web.boards import board_for


def seat_label(
    summary: match_pb2.MatchSummary, view: match_pb2.View, seat: int, viewer: int | None
) -> str:
    """How the page names a seat: the game's words (``Blue (Ada)``), or ``seat 1 (Ada)``."""
    label = renderer_for(summary.game_id).seat_label(seat, view, summary, viewer)
    if label == f"seat {seat}":  # the game names seats by number alone: add who sits there
        label = generic_seat_label(seat, SeatNames(summary, viewer))
    return label


def clock_cell(summary: match_pb2.MatchSummary, seat: int, deciding: bool) -> str:
    """A seat's clock: its reserve, or for the seat deciding the time left, which the
    page counts down from the deadline (``data-deadline``, server Unix ms)."""
    clock = summary.clock
    text = escape(seat_clock(clock, seat, deciding))
    deadline = deadline_of(clock, seat) if deciding else None
    if deadline is not None:
        return f"<td class='clock' data-deadline='{deadline}'>{text}</td>"
    return f"<td class='clock'>{text}</td>"


def seats_html(summary: match_pb2.MatchSummary, view: match_pb2.View, viewer: int | None) -> str:
    """The seats beside the board: who, what fills the seat, score, clock (in a match
    with clocks), place, whose turn."""
    names = SeatNames(summary, viewer)
    clocked = summary.HasField("clock")
    rows = []
    for info in summary.seats:
        score = summary.scores[info.seat] if info.seat < len(summary.scores) else 0
        place = summary.places[info.seat] if info.seat < len(summary.places) else 0
        kind = seat_kind_words(info, place)  # the seat's name is in the row already
        turn = must_decide(summary, info.seat)
        marks = ("▶ " if turn else "") + (f"#{place} " if place else "")
        row_class = " class='current'" if turn else ""
        label = seat_label(summary, view, info.seat, viewer)
        clock = clock_cell(summary, info.seat, turn) if clocked else ""
        rows.append(
            f"<tr{row_class}><td>{escape(marks)}</td><th scope='row'>{escape(label)}</th>"
            f"<td>{escape(kind if names.name(info.seat) != kind else '')}</td><td>{score}</td>"
            f"{clock}</tr>"
        )
    clock_head = "<th scope='col'>clock</th>" if clocked else ""
    # Whether the result settles into ratings: players want to know what is at stake.
    rated = " · rated match" if summary.rated else ""
    return (
        f"<table class='seats'><caption>Seats and scores{rated}</caption><thead><tr><th></th>"
        "<th scope='col'>seat</th><th scope='col'>plays</th><th scope='col'>score</th>"
        f"{clock_head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def headline(summary: match_pb2.MatchSummary, view: match_pb2.View, viewer: int | None) -> str:
    if summary.status == match_pb2.MATCH_STATUS_FINISHED and 1 in summary.places:
        # Who won comes first: the score box with the same words is below the board.
        winners = [seat for seat, place in enumerate(summary.places) if place == 1]
        who = " and ".join(seat_label(summary, view, seat, viewer) for seat in winners)
        verb = "share the victory" if len(winners) > 1 else "wins"
        return f"The match is finished: {who} {verb}."
    if summary.status != match_pb2.MATCH_STATUS_ACTIVE:
        return f"The match is {STATUS_NAME.get(summary.status, 'over')}."
    if not summary.started:
        return f"{waiting_for_players(summary)}."
    if not summary.HasField("current_seat"):
        return "Waiting."
    if summary.current_seat == viewer:
        return "Your turn."
    return f"Waiting for {seat_label(summary, view, summary.current_seat, viewer)}."


@dataclass(frozen=True)
class LogEntry:
    """One committed action in the page's log: its lines, and what folds it with its like.

    Entries with the same ``key`` are one line on the page (the newest text, counted)
    when they follow each other, or when only other seats' actions of the same
    ``word`` come between them: a bot's hidden offers, card by card, say the same
    but for a number, and the traders offer at once, so their offers interleave.
    """

    text: str
    key: str
    seat: int = -1
    #: The action's first word of notation (``offer``), empty when unknown.
    word: str = ""

    def data(self) -> dict[str, str | int]:
        return {"text": self.text, "key": self.key, "seat": self.seat, "word": self.word}


_NUMBER = re.compile(r"\d+")


def log_entry(lines: Sequence[str], seat: int, notation: str = "") -> LogEntry:
    """The entry of one action's log lines, played by ``seat`` (``notation``: its notation)."""
    text = "\n".join(line.rstrip() for line in lines)
    word = notation.split()[0] if notation.strip() else ""
    return LogEntry(text, f"{seat}|{_NUMBER.sub('#', text)}", seat, word)


def _folds_into(folded: Sequence[tuple[LogEntry, int]], entry: LogEntry) -> int | None:
    """Where in ``folded`` ``entry`` folds (see :class:`LogEntry`), or None."""
    for index in range(len(folded) - 1, -1, -1):
        earlier = folded[index][0]
        if earlier.key == entry.key:
            return index
        if not entry.word or earlier.seat == entry.seat or earlier.word != entry.word:
            return None
    return None


def fold(entries: Sequence[LogEntry]) -> list[tuple[LogEntry, int]]:
    """Entries folded into their like (see :class:`LogEntry`), with how many there were."""
    folded: list[tuple[LogEntry, int]] = []
    for entry in entries:
        index = _folds_into(folded, entry) if entry.key else None
        if index is None:
            folded.append((entry, 1))
        else:
            folded[index] = (entry, folded[index][1] + 1)
    return folded


def recent_lines(entries: Sequence[LogEntry], most: int = 6) -> list[str]:
    """What happened, folded, one line per action (its events after a colon), newest last."""
    lines = []
    for entry, count in fold(entries):
        head, *rest = entry.text.split("\n")
        line = head + (f" (x{count})" if count > 1 else "")
        if rest:
            line += ": " + " ".join(part.strip() for part in rest)
        lines.append(line)
    if len(lines) > most:
        lines = [f"... {len(lines) - most + 1} earlier action(s)", *lines[-(most - 1) :]]
    return lines


def with_server_places(view: match_pb2.View, summary: match_pb2.MatchSummary) -> match_pb2.View:
    """``view`` with the server's places in its game's ``places``, if it has that field.

    The rules core ranks by the game's scores alone; the server ranks a resigned seat
    last (``MatchSummary.places``), and that is the ranking the page must show.
    """
    arm = view.WhichOneof("game")
    if not summary.places or arm is None:
        return view
    fields = getattr(view, arm).DESCRIPTOR.fields_by_name
    if "places" not in fields:
        return view
    ranked = match_pb2.View()
    ranked.CopyFrom(view)
    places = getattr(ranked, arm).places
    del places[:]
    places.extend(summary.places)
    return ranked


def final_breakdown(
    summary: match_pb2.MatchSummary, view: match_pb2.View, viewer: int | None
) -> str:
    """The final score breakdown, once the match is finished (else empty)."""
    if summary.status != match_pb2.MATCH_STATUS_FINISHED:
        return ""
    view = with_server_places(view, summary)
    lines = renderer_for(summary.game_id).final_score_lines(view, summary, viewer, UNICODE)
    return "\n".join(line.plain.rstrip() for line in lines)


def update_log(
    update: match_pb2.MatchUpdate,
    view: match_pb2.View,
    summary: match_pb2.MatchSummary,
    viewer: int | None,
) -> list[str]:
    """The log lines of one committed action (who did what, then what followed),
    marked when the seat's holder did not choose it (played on timeout, ...)."""
    try:
        return log_lines(renderer_for(summary.game_id), update, view, summary, viewer)
    except (KeyError, IndexError, ValueError):  # a view older than the update: say it plainly
        return marked([f"seat {update.seat}: {update.notation}"], update)


def action_list(
    legal: Sequence[match_pb2.LegalAction], view: match_pb2.View, game_id: str
) -> list[dict[str, Any]]:
    """The legal actions for the page: notation, label and the board keys that choose each."""
    board = board_for(game_id)
    return [
        {"n": action.notation, "l": action.label, "t": board.targets(action, view)}
        for action in legal
    ]


def frame(
    summary: match_pb2.MatchSummary,
    view: match_pb2.View,
    viewer: int | None,
    legal: Sequence[match_pb2.LegalAction] = (),
    log: Sequence[str] = (),
    entries: Sequence[LogEntry] | None = None,
    recent: Sequence[LogEntry] = (),
) -> dict[str, Any]:
    """Everything the page draws after an update.

    ``log`` is the new lines; ``entries`` the same lines by action (one line each on
    the page, folded with their like), one entry per line when not given; ``recent``
    the actions since the viewer last moved (or since the last frame), for the
    headline.
    """
    if entries is None:
        entries = [LogEntry(line, "") for line in log]
    active = summary.status == match_pb2.MATCH_STATUS_ACTIVE
    mine = (
        viewer is not None
        and summary.status == match_pb2.MATCH_STATUS_ACTIVE
        and summary.HasField("current_seat")
        and summary.current_seat == viewer
    )
    return {
        "version": summary.version,
        "status": STATUS_NAME.get(summary.status, "unknown"),
        "viewer": viewer,
        "headline": headline(summary, view, viewer),
        "board": board_for(summary.game_id).draw(view, summary, viewer),
        "seats": seats_html(summary, view, viewer),
        "actions": action_list(legal, view, summary.game_id) if mine else [],
        "log": list(log),
        "entries": [entry.data() for entry in entries],
        "recent": recent_lines(recent),
        "final": final_breakdown(summary, view, viewer),
        # Seats anyone may still join: the page offers a link to send (an
        # unlisted match is found by nobody else).
        "joinable": len(open_seats(summary)) if active else 0,
        "started": summary.started,
        # A rematch's finished match: while the rematch waits, the page looks
        # there for a player who declined it.
        "rematch_of": summary.rematch_of,
        # A rated match's rematch is casual: its player is told before asking.
        "rated": summary.rated,
        # Every other player resigned: the viewer places first, and leaving keeps it.
        "alone": ALONE if active and others_resigned(summary, viewer) else "",
    }
