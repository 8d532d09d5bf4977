"""Draw a Mykerinos match from the protocol's messages, for an 80-column terminal.

Everything here reads ``senet.v1`` messages only (``MatchSummary``, ``MykerinosView``,
``LegalAction``, ``MatchUpdate``): the text client needs no rules core. The output is
``rich`` :class:`~rich.text.Text`, one object per line, every line at most
:data:`WIDTH` cells wide. Colour only decorates: archaeologists are letters
(``B``/``R``/``G``/``W``), pyramids ``^`` and empty spaces ``.``, so the board reads the
same with ``NO_COLOR`` or ``--no-color``.

The region is drawn with its plot borders (thin) and area borders (thick), each area
labelled with its number in scoring order, and under each top border a line giving
every plot's points and patron (`` 3 exp``: 3 points, Explorer).

The variants add to the same table: The Nile's river spaces (``~``), blocking tokens
(the owner's letter in lower case, on a space or a museum room), the Nile cards and
decks; the quick game's patron draft; the team game's teams and team scores. Patron
names come from the view (``patron_names``), so the classic rules show the 2006 names.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import IO

from rich.console import Console, Group, RenderableType
from rich.text import Text

from senet.text.seat_names import SeatNames
from senet.v1 import match_pb2
from senet.v1 import mykerinos_pb2 as pb

WIDTH = 80
#: Width of the board column: row label (3) + 4 plots of 6 + 5 borders.
BOARD_WIDTH = 32
#: Gap between the board and the panel to its right.
GAP = 2

# ------------------------------------------------------------------ tables
COLOUR_LETTER: dict[int, str] = {
    pb.MYKERINOS_COLOUR_BLUE: "B",
    pb.MYKERINOS_COLOUR_RED: "R",
    pb.MYKERINOS_COLOUR_GREEN: "G",
    pb.MYKERINOS_COLOUR_WHITE: "W",
}
COLOUR_NAME: dict[int, str] = {
    pb.MYKERINOS_COLOUR_BLUE: "Blue",
    pb.MYKERINOS_COLOUR_RED: "Red",
    pb.MYKERINOS_COLOUR_GREEN: "Green",
    pb.MYKERINOS_COLOUR_WHITE: "White",
}
COLOUR_STYLE: dict[int, str] = {
    pb.MYKERINOS_COLOUR_BLUE: "bold blue",
    pb.MYKERINOS_COLOUR_RED: "bold red",
    pb.MYKERINOS_COLOUR_GREEN: "bold green",
    pb.MYKERINOS_COLOUR_WHITE: "bold black on white",
}
PATRON_CODE: dict[int, str] = {
    pb.MYKERINOS_PATRON_CURATOR: "cur",
    pb.MYKERINOS_PATRON_COLONEL: "col",
    pb.MYKERINOS_PATRON_EXPLORER: "exp",
    pb.MYKERINOS_PATRON_HEIRESS: "hei",
    pb.MYKERINOS_PATRON_DIRECTOR: "dir",
    pb.MYKERINOS_PATRON_GOVERNOR: "gov",
}
#: Special Edition names, for a view that does not name its patrons.
PATRON_NAME: dict[int, str] = {
    pb.MYKERINOS_PATRON_CURATOR: "Curator",
    pb.MYKERINOS_PATRON_COLONEL: "Colonel",
    pb.MYKERINOS_PATRON_EXPLORER: "Explorer",
    pb.MYKERINOS_PATRON_HEIRESS: "Heiress",
    pb.MYKERINOS_PATRON_DIRECTOR: "Director",
    pb.MYKERINOS_PATRON_GOVERNOR: "Governor",
}
GOVERNOR = pb.MYKERINOS_PATRON_GOVERNOR
#: The five patrons with a museum wing, in canonical order (the order of the enum).
PATRONS: tuple[int, ...] = tuple(p for p in PATRON_CODE if p != GOVERNOR)
PHASE_NAME: dict[int, str] = {
    pb.MYKERINOS_PHASE_DRAFT: "Patron draft",
    pb.MYKERINOS_PHASE_EXCAVATION: "Excavation",
    pb.MYKERINOS_PHASE_NEUTRAL: "Excavation (neutral action)",
    pb.MYKERINOS_PHASE_BLOCKING: "Excavation (blocking token)",
    pb.MYKERINOS_PHASE_DELIMITATION: "Delimitation",
    pb.MYKERINOS_PHASE_OVER: "Game over",
}
SIDE_NAME: dict[int, str] = {
    pb.MYKERINOS_SIDE_LEFT: "left",
    pb.MYKERINOS_SIDE_RIGHT: "right",
    pb.MYKERINOS_SIDE_NILE_ROW_1: "n1",
    pb.MYKERINOS_SIDE_NILE_ROW_2: "n2",
    pb.MYKERINOS_SIDE_NILE_ROW_3: "n3",
}
#: Nile sides, by the row of areas their card lies on.
NILE_ROW: dict[int, int] = {
    pb.MYKERINOS_SIDE_NILE_ROW_1: 0,
    pb.MYKERINOS_SIDE_NILE_ROW_2: 1,
    pb.MYKERINOS_SIDE_NILE_ROW_3: 2,
}
EFFECT_NAME: dict[int, str] = {
    pb.MYKERINOS_NILE_EFFECT_GOVERNOR: "Governor card",
    pb.MYKERINOS_NILE_EFFECT_POINT_AND_ARCHAEOLOGIST: "1 archaeologist",
    pb.MYKERINOS_NILE_EFFECT_TWO_ARCHAEOLOGISTS: "2 archaeologists",
    pb.MYKERINOS_NILE_EFFECT_TIE_WINNER: "tie card",
    pb.MYKERINOS_NILE_EFFECT_EIGHT_POINTS: "special card",
}
#: Nile card ids 0-4 carry the Governor (see the protocol); a kept card that is not
#: a Governor is the tie card, the only other Nile card anybody keeps.
GOVERNOR_CARD_IDS = range(5)
KIND_TITLE: dict[str, str] = {
    "a": "A: start an excavation (1 archaeologist)",
    "b": "B: expand an excavation (2 archaeologists)",
    "cur": "Curator: start with 2 adjacent archaeologists",
    "col": "Colonel: expand with 3 archaeologists",
    "exp": "Explorer: one archaeologist onto a pyramid",
    "hei": "Heiress: one from the general reserve, then start/expand",
    "dir": "Director: one archaeologist into a museum room",
    "na": "Neutral player: start an excavation",
    "nb": "Neutral player: expand an excavation",
    "ta": "Team: start with your teammate's archaeologist",
    "tb": "Team: expand your teammate's excavation (2 of theirs)",
    "gov": "Governor: start/expand, then place a blocking token",
    "block": "Blocking token: on an empty space or museum room",
    # Archeos Society (long lists only: Mykerinos never lists many "take" actions).
    "take": "Take a card from the display",
    "lead": "Lead an expedition (card, then col or role)",
    "add": "Add a card to the expedition",
    "adv": "Advance a vehicle",
    "keep": "Keep a card (Physician)",
}
STATUS_NAME: dict[int, str] = {
    match_pb2.MATCH_STATUS_ACTIVE: "active",
    match_pb2.MATCH_STATUS_FINISHED: "finished",
    match_pb2.MATCH_STATUS_ABANDONED: "abandoned",
}
#: Widest wing-name column of the museum (the panel is 46 cells; rooms take 27).
MUSEUM_NAME_MAX = 18
#: Show every action with its label when there are at most this many.
FULL_LIST_MAX = 16


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


# ------------------------------------------------------------------ names
class Seats(SeatNames):
    """Who is who: seat numbers, colours and display names, from a summary and a view."""

    def __init__(
        self,
        view: pb.MykerinosView,
        summary: match_pb2.MatchSummary | None = None,
        viewer: int | None = None,
    ) -> None:
        super().__init__(summary, viewer)
        self.colour_of: dict[int, int] = {p.seat: p.colour for p in view.players}
        self.seat_of: dict[int, int] = {c: s for s, c in self.colour_of.items()}
        self.neutral = view.neutral_colour
        #: Patron display names of this match (for the log).
        self.patrons: dict[int, str] = patron_names(view)

    def label(self, seat: int) -> str:
        """``Blue (Ada)``, or ``Blue (Ada, you)`` for the viewer."""
        name = self.name(seat) + (", you" if seat == self.viewer else "")
        colour = self.colour_of.get(seat)
        if colour is None:
            return f"seat {seat} ({name})"
        return f"{COLOUR_NAME.get(colour, '?')} ({name})"

    def in_play(self, colour: int) -> bool:
        """Whether ``colour`` belongs to a player or to the neutral player."""
        return colour in self.seat_of or (bool(colour) and colour == self.neutral)

    def colour_label(self, colour: int) -> str:
        """``Blue (Ada)``, or ``Green (neutral)``."""
        if colour == self.neutral and colour not in self.seat_of:
            return f"{COLOUR_NAME.get(colour, '?')} (neutral)"
        seat = self.seat_of.get(colour)
        return COLOUR_NAME.get(colour, "?") if seat is None else self.label(seat)

    def styled(self, seat: int) -> Text:
        colour = self.colour_of.get(seat, pb.MYKERINOS_COLOUR_UNSPECIFIED)
        return Text(self.label(seat), style=COLOUR_STYLE.get(colour, "bold"))


def letter(colour: int) -> Text:
    """An archaeologist of ``colour`` as a (styled) letter."""
    return Text(COLOUR_LETTER.get(colour, "?"), style=COLOUR_STYLE.get(colour, ""))


def token(colour: int) -> Text:
    """A blocking token of ``colour``: its letter in lower case, underlined."""
    style = COLOUR_STYLE.get(colour, "").replace("bold", "underline")
    return Text(COLOUR_LETTER.get(colour, "?").lower(), style=style)


def patron_names(view: pb.MykerinosView) -> dict[int, str]:
    """Display names by patron for this match (classic rules: the 2006 names)."""
    names = dict(PATRON_NAME)
    names.update({int(entry.patron): entry.name for entry in view.patron_names})
    return names


def _nile_card_text(card: pb.MykerinosNileCard) -> str:
    return f"{EFFECT_NAME.get(card.effect, '?')}, {card.points} pts"


def _pad(text: Text, width: int) -> Text:
    """``text`` cut or padded with spaces to exactly ``width`` cells."""
    out = text.copy()
    out.truncate(width, overflow="ellipsis", pad=True)
    return out


def _fit(text: Text, width: int) -> Text:
    """``text`` cut to at most ``width`` cells (with an ellipsis), trailing spaces removed."""
    out = text.copy()
    out.truncate(width, overflow="ellipsis")
    out.rstrip()
    return out


def _join(parts: Iterable[Text | str]) -> Text:
    out = Text()
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        else:
            out.append_text(part)
    return out


# ------------------------------------------------------------------ board
def _plot_label(plot: pb.MykerinosPlot | None) -> Text:
    if plot is None:
        return Text("      ")
    code = PATRON_CODE.get(plot.patron, "---")
    return _join([" ", Text(str(plot.points), style="bold yellow"), " ", Text(code, style="cyan")])


def _area_label(area: int, view: pb.MykerinosView, cs: Charset) -> tuple[str, str]:
    """The text set into an area's top border, and its style."""
    if view.phase == pb.MYKERINOS_PHASE_DELIMITATION and view.HasField("delimitation"):
        if area == view.delimitation.area:
            return f"{cs.scoring[0]}Area {area + 1}{cs.scoring[1]}", "bold reverse"
        if area < view.delimitation.area:
            return f" Area {area + 1} done", "dim"
    return f" Area {area + 1} ", "bold"


def _border(
    area_row: int, view: pb.MykerinosView, cs: Charset, ends: tuple[str, str, str], labelled: bool
) -> Text:
    width = 2 * 6 + 1
    line = Text("   ")
    line.append(ends[0])
    for column in range(2):
        if labelled:
            label, style = _area_label(2 * area_row + column, view, cs)
            line.append(cs.area_h)
            line.append(label, style=style)
            line.append(cs.area_h * (width - 1 - len(label)))
        else:
            line.append(cs.area_h * width)
        line.append(ends[1] if column == 0 else ends[2])
    return line


def board_lines(view: pb.MykerinosView, cs: Charset = UNICODE) -> list[Text]:
    """The region: column letters, area borders with area numbers, plot labels, spaces."""
    region = view.region
    rows = region.rows or 6
    columns = region.columns or 8
    plots = {plot.slot: plot for plot in region.plots}
    pyramids = {(s.column, s.row) for s in region.pyramids}
    river = {(s.column, s.row) for s in region.nile.river}
    occupied = {(o.space.column, o.space.row): o.colour for o in view.occupied}
    blocked = {(b.space.column, b.space.row): b.owner for b in view.nile.blocked}
    header = Text("   " + " ")
    for column in range(columns):
        header.append(f" {chr(ord('a') + column)} ", style="dim")
        if column % 2 == 1:
            header.append(" ")
    lines = [header]
    area_rows = (rows + 2) // 3
    for area_row in range(area_rows):
        ends = cs.top if area_row == 0 else cs.middle
        lines.append(_border(area_row, view, cs, ends, labelled=True))
        label = Text("   ")
        for slot in range(4 * area_row, 4 * area_row + 4):
            label.append(cs.area_v if slot % 2 == 0 else cs.plot_v)
            label.append_text(_plot_label(plots.get(slot)))
        label.append(cs.area_v)
        lines.append(label)
        for row in range(3 * area_row, min(3 * area_row + 3, rows)):
            line = Text(f"{row + 1:>2} ")
            for column in range(columns):
                if column % 2 == 0:
                    line.append(cs.area_v if column % 4 == 0 else cs.plot_v)
                line.append(" ")
                colour = occupied.get((column, row))
                if colour is not None:
                    line.append_text(letter(colour))
                elif (column, row) in blocked:
                    line.append_text(token(blocked[(column, row)]))
                elif (column, row) in pyramids:
                    line.append("^", style="yellow")
                elif (column, row) in river:
                    line.append("~", style="blue")
                else:
                    line.append(".", style="dim")
                line.append(" ")
            line.append(cs.area_v)
            lines.append(line)
    lines.append(_border(area_rows, view, cs, cs.bottom, labelled=False))
    return lines


# ------------------------------------------------------------------ panel
def _room_cell(room: pb.MykerinosMuseumRoom | None, width: int, blocked: dict[str, int]) -> Text:
    if room is None:
        return _pad(Text("?"), width)
    cell = Text(room.name + " ")
    if room.occupant:
        cell.append_text(letter(room.occupant))
    elif room.name in blocked:
        cell.append_text(token(blocked[room.name]))
    else:
        cell.append(".", style="dim")
    return _pad(cell, width)


def museum_lines(view: pb.MykerinosView) -> list[Text]:
    """The museum ring: one line per wing with its 3-room, 5-room and the 2-room to the
    next wing (the last wing's 2-room joins the first); each room with its occupant."""
    rooms = list(view.museum.rooms)
    wings = list(view.museum.wings)
    names = patron_names(view)
    blocked = {entry.name: int(entry.owner) for entry in view.nile.blocked_rooms}
    # Wide enough for the longest name (the 2006 names are long), within the panel.
    name_width = min(MUSEUM_NAME_MAX, max([9, *(len(names.get(w, "?")) + 1 for w in wings)]))
    lines = [
        Text("MUSEUM ring (2-room joins a wing to the next)", style="bold"),
        Text(f"{'wing':<{name_width}}3-room   5-room   2-room", style="dim"),
    ]
    shown: set[str] = set()

    def find(patrons: set[int], value: int) -> pb.MykerinosMuseumRoom | None:
        for room in rooms:
            held = {room.room.patron, room.room.second_patron} - {pb.MYKERINOS_PATRON_UNSPECIFIED}
            if room.room.value == value and held == patrons:
                shown.add(room.name)
                return room
        return None

    for index, wing in enumerate(wings):
        following = wings[(index + 1) % len(wings)]
        line = _pad(Text(names.get(wing, "?")), name_width - 1) + Text(" ")
        line.append_text(_room_cell(find({wing}, 3), 9, blocked))
        line.append_text(_room_cell(find({wing}, 5), 9, blocked))
        line.append_text(_room_cell(find({wing, following}, 2), 9, blocked))
        lines.append(line)
    others = [room for room in rooms if room.name not in shown]
    if others:
        extra = Text("also ")
        for room in others:
            extra.append_text(_room_cell(room, len(room.name) + 3, blocked))
        lines.append(extra)
    return lines


def tiebreak_line(view: pb.MykerinosView) -> Text:
    """The tiebreak track: space 1 wins ties."""
    markers = {marker.space: marker.colour for marker in view.tiebreak}
    spaces = max([len(view.players) + (1 if view.neutral_colour else 0), *markers])
    line = Text("TIEBREAK ", style="bold")
    for space in range(1, spaces + 1):
        line.append(f"{space}:")
        colour = markers.get(space)
        if colour is None:
            line.append(".", style="dim")
        else:
            line.append_text(letter(colour))
        line.append(" ")
    line.append("(1 wins ties)", style="dim")
    return line


def _reserve_text(reserves: Iterable[pb.MykerinosReserve], times: str) -> Text:
    out = Text()
    for reserve in reserves:
        if out:
            out.append(" ")
        out.append_text(letter(reserve.colour))
        out.append(f"{times}{reserve.count}")
    return out or Text("none", style="dim")


def panel_lines(view: pb.MykerinosView, cs: Charset = UNICODE) -> list[Text]:
    """What stands beside the board: museum, tiebreak track, reserves, deck, legend."""
    seats = Seats(view)
    lines = museum_lines(view)
    lines.append(Text())
    lines.append(tiebreak_line(view))
    general = Text("GENERAL reserve ", style="bold")
    in_play = [r for r in view.general_reserve if seats.in_play(r.colour)]
    general.append_text(_reserve_text(in_play, cs.times))
    lines.append(general)
    lines.append(Text(f"DECK {view.deck_size} plots left; {len(view.box)} out of the game"))
    if view.HasField("nile"):
        lines += nile_lines(view)
    lines.append(Text())
    lines.append(Text("B R G W archaeologists  ^ pyramid  . empty", style="dim"))
    if view.HasField("nile"):
        lines.append(Text("~ river  b r g w blocking token", style="dim"))
    lines.append(Text("plot label: points, then patron code", style="dim"))
    return lines


def nile_lines(view: pb.MykerinosView) -> list[Text]:
    """The Nile: its decks, and each Nile card on the region (cards cover columns d-e)."""
    nile = view.nile
    lines = [
        Text(
            f"NILE decks: Governor {nile.governor_deck}, neutral {nile.neutral_deck}; "
            f"{len(nile.box)} out"
        )
    ]
    for card in view.region.nile.cards:
        lines.append(
            Text(f"  n{card.row + 1} rows {3 * card.row + 1}-{3 * card.row + 3}: ")
            + Text(_nile_card_text(card), style="cyan")
        )
    return lines


def side_by_side(left: Sequence[Text], right: Sequence[Text], left_width: int) -> list[Text]:
    lines = []
    for index in range(max(len(left), len(right))):
        line = _pad(left[index] if index < len(left) else Text(), left_width)
        line.append(" " * GAP)
        if index < len(right):
            line.append_text(_pad(right[index], WIDTH - left_width - GAP))
        line.rstrip()
        lines.append(line)
    return lines


# ------------------------------------------------------------------ header, players
def header_lines(
    view: pb.MykerinosView, summary: match_pb2.MatchSummary | None, seats: Seats
) -> list[Text]:
    title = Text("MYKERINOS", style="bold")
    if summary is not None and summary.match_id:
        title.append(f"  match {summary.match_id}")
    title.append(f"  campaign {view.campaign} of {view.campaigns}  ")
    title.append(PHASE_NAME.get(view.phase, "?"), style="bold")
    lines = [title]
    turn = Text()
    finished = summary is not None and summary.status in (
        match_pb2.MATCH_STATUS_FINISHED,
        match_pb2.MATCH_STATUS_ABANDONED,
    )
    if view.phase == pb.MYKERINOS_PHASE_OVER:
        turn.append("The game is over.", style="bold")
    elif finished and summary is not None:
        turn.append(f"Match {STATUS_NAME.get(summary.status, '?')}.", style="bold")
    elif view.HasField("current_seat"):
        turn.append("To move: ")
        turn.append_text(seats.styled(view.current_seat))
        if view.current_seat == seats.viewer:
            turn.append(" - your turn", style="bold reverse")
        turn.append(f"   start player: {seats.label(view.start_seat)}")
    lines.append(turn)
    excavating = view.phase in (
        pb.MYKERINOS_PHASE_EXCAVATION,
        pb.MYKERINOS_PHASE_NEUTRAL,
        pb.MYKERINOS_PHASE_BLOCKING,
    )
    if view.HasField("final_action_seat") and excavating:
        lines.append(
            Text(f"Final action: {seats.label(view.final_action_seat)} (the others passed)")
        )
    if view.phase == pb.MYKERINOS_PHASE_BLOCKING:
        lines.append(Text("The Governor was used: now a blocking token goes down (block ...)."))
    return lines


def draft_lines(view: pb.MykerinosView, seats: Seats) -> list[Text]:
    """Quick game: the plots on offer (by patron) and the drafting order."""
    if not view.HasField("draft"):
        return []
    draft = view.draft
    names = patron_names(view)
    lines = [
        Text("PATRON DRAFT ", style="bold").append(
            "each player drafts one patron, then a second in reverse order"
        )
    ]
    line = Text("  on offer: ")
    for index, patron in enumerate(PATRONS):
        count = sum(1 for offered in draft.patrons if offered == patron)
        item = f"{names.get(patron, '?')} ({PATRON_CODE[patron]}) {count}"
        item += "," if index < len(PATRONS) - 1 else ""
        if line.cell_len + 1 + len(item) > WIDTH:  # items are never split
            lines.append(line)
            line = Text(" " * len("  on offer: "))
        elif index:
            line.append(" ")
        line.append(item, style="" if count else "dim")
    lines.append(line)
    order = Text("  order: ")
    for index, seat in enumerate(draft.order):
        if index:
            order.append(" > ")
        mark = COLOUR_LETTER.get(seats.colour_of.get(seat, 0), "?")
        if index == draft.index:
            order.append(f"[{mark}]", style="bold reverse")  # brackets: readable uncoloured
        else:
            order.append(mark)
    lines.append(order)
    return lines


def _patrons_text(player: pb.MykerinosPlayer, nile: bool) -> Text:
    held: dict[int, pb.MykerinosPatronCards] = {int(e.patron): e for e in player.patrons}
    out = Text("patrons ")
    shown = (*PATRONS, GOVERNOR) if nile else PATRONS
    for index, patron in enumerate(shown):
        entry = held.get(patron)
        cards = entry.cards if entry is not None else 0
        used = entry.used if entry is not None else 0
        if index:
            out.append(", ")
        out.append(f"{PATRON_CODE[patron]} {cards}", style="" if cards else "dim")
        if used:
            out.append(f" ({used} used)", style="italic")
    return out


def team_lines(view: pb.MykerinosView, seats: Seats) -> list[Text]:
    """Team game: each team with its score, the lower of its members' scores."""
    if not view.teams:
        return []
    own = list(view.individual_scores)
    line = Text("TEAMS ", style="bold")
    for index, team in enumerate(view.teams):
        if index:
            line.append("   ")
        for number, seat in enumerate(team.seats):
            if number:
                line.append("+")
            line.append_text(letter(seats.colour_of.get(seat, 0)))
        members = [own[s] for s in team.seats if s < len(own)]
        score = min(members, default=0)
        line.append(f" score {score}", style="bold")
        line.append(f" (lower of {', '.join(map(str, members))})", style="dim")
    return [line]


def _nile_holdings(player: pb.MykerinosPlayer) -> Text:
    """The Nile: blocking tokens in hand and the tie card, if held."""
    out = Text(f"tokens {player.tokens}")
    if any(card not in GOVERNOR_CARD_IDS for card in player.nile_cards):
        out.append("  tie card", style="bold")
    return out


def player_lines(view: pb.MykerinosView, seats: Seats, cs: Charset = UNICODE) -> list[Text]:
    """Each player: colour, name, score, status; reserve and patron cards (with The
    Nile: Governor cards, blocking tokens in hand, the tie card)."""
    nile = view.HasField("nile")
    lines = [Text("PLAYERS", style="bold")]
    lines += team_lines(view, seats)
    for player in view.players:
        line = Text(
            f"{cs.turn} "
            if view.HasField("current_seat") and view.current_seat == player.seat
            else "  "
        )
        line.append_text(letter(player.colour))
        line.append(f" {COLOUR_NAME.get(player.colour, '?'):<6}")
        you = " (you)" if player.seat == seats.viewer else ""
        line.append_text(_pad(Text(seats.name(player.seat) + you), 22))
        line.append(f" score {player.prestige:>3}  ", style="bold")
        if player.tiebreak_space:
            line.append(f"passed, tiebreak {player.tiebreak_space}")
        elif player.active:
            line.append("active")
        line.append(f"  plots won {len(player.plots_won)}")
        lines.append(_fit(line, WIDTH))
        detail = Text("    reserve ")
        detail.append_text(_reserve_text(player.reserve, cs.times))
        detail.append("  ")
        # Reserve, patrons and (The Nile) holdings, packed onto as few lines as fit.
        parts = [_patrons_text(player, nile)]
        if nile:
            parts.append(_nile_holdings(player))
        line = detail
        for index, part in enumerate(parts):
            gap = Text("  " if index else "")
            if line.cell_len + gap.cell_len + part.cell_len > WIDTH:
                lines.append(_fit(line, WIDTH))
                line, gap = Text("    "), Text()
            line = line + gap + part
        lines.append(_fit(line, WIDTH))
    if view.neutral_colour and view.neutral_colour not in seats.seat_of:
        line = Text("  ")
        line.append_text(letter(view.neutral_colour))
        line.append(f" {COLOUR_NAME.get(view.neutral_colour, '?'):<6}neutral player")
        line.append(" (its archaeologists travel in the players' reserves)", style="dim")
        lines.append(line)
    return lines


def _plot_text(view: pb.MykerinosView, area: int, side: int) -> str:
    if side in NILE_ROW:
        for card in view.region.nile.cards:
            if card.row == NILE_ROW[side]:
                return f"{SIDE_NAME[side]} ({_nile_card_text(card)})"
        return SIDE_NAME[side]
    slot = 2 * area + (0 if side == pb.MYKERINOS_SIDE_LEFT else 1)
    for plot in view.region.plots:
        if plot.slot == slot:
            patron = patron_names(view).get(plot.patron, "no patron")
            return f"{SIDE_NAME.get(side, '?')} ({plot.points} pts, {patron})"
    return SIDE_NAME.get(side, "?")


def delimitation_lines(view: pb.MykerinosView, seats: Seats) -> list[Text]:
    """Which area is being scored, its reward order, who chooses and what is left."""
    if view.phase != pb.MYKERINOS_PHASE_DELIMITATION or not view.HasField("delimitation"):
        return []
    d = view.delimitation
    line = Text("DELIMITATION ", style="bold")
    if d.river:
        line.append("scoring the river (before the areas); order: ")
    else:
        line.append(f"scoring area {d.area + 1} of {len(view.region.plots) // 2}; order: ")
    for index, colour in enumerate(d.order):
        if index:
            line.append(" > ")
        line.append_text(letter(colour))
    lines = [line]
    if d.order and d.rank_index < len(d.order):
        rank = f"  rewarding place {d.rank_index + 1}: {seats.colour_label(d.order[d.rank_index])}"
        lines.append(Text(rank))
        if d.awaiting == pb.MYKERINOS_AWAITING_DISCARD:
            what = "which card the neutral player discards"
        elif d.awaiting == pb.MYKERINOS_AWAITING_TIE:
            what = "whether to use the tie card to win this tie"
        elif d.river:
            what = "a Nile card (no museum from the river)"
        else:
            what = "a reward: a plot or a museum room"
        if view.HasField("current_seat"):
            lines.append(Text(f"  {seats.label(view.current_seat)} chooses {what}"))
    left = ", ".join(_plot_text(view, d.area, side) for side in d.plots_left) or "none"
    lines.append(Text(f"  {'Nile cards' if d.river else 'plots'} left: {left}"))
    return lines


def match_lines(
    view: pb.MykerinosView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """The whole table: header, board with the panel beside it, delimitation, players."""
    seats = Seats(view, summary, viewer)
    lines = header_lines(view, summary, seats)
    if view.phase == pb.MYKERINOS_PHASE_DRAFT:
        # No region is laid before the first campaign: the draft takes its place.
        lines += draft_lines(view, seats)
        lines += panel_lines(view, cs)
    else:
        lines += side_by_side(board_lines(view, cs), panel_lines(view, cs), BOARD_WIDTH)
    lines += delimitation_lines(view, seats)
    lines += player_lines(view, seats, cs)
    return [_fit(line, WIDTH) for line in lines]


# ------------------------------------------------------------------ final scores
def _ordinal(place: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f"{place}{suffix}"


def final_score_lines(
    view: pb.MykerinosView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """The breakdown: plot prestige, each patron's cards x best room, sets, total, place."""
    seats = Seats(view, summary, viewer)
    scores = sorted(view.final_scores, key=lambda score: score.seat)
    if not scores:
        return [Text("No final scores yet.")]
    label_width = 22
    column = max(12, min(18, (WIDTH - label_width) // len(scores)))
    lines = [Text("FINAL SCORES", style="bold reverse")]

    def row(label: str, cells: Sequence[Text | str], style: str = "") -> Text:
        line = Text(f"{label:<{label_width}}", style=style)
        for cell in cells:
            text = Text(cell) if isinstance(cell, str) else cell
            line.append_text(_pad(text, column))
        line.rstrip()
        return line

    header = []
    for score in scores:
        colour = seats.colour_of.get(score.seat, pb.MYKERINOS_COLOUR_UNSPECIFIED)
        header.append(
            Text(COLOUR_NAME.get(colour, f"seat {score.seat}"), style=COLOUR_STYLE.get(colour, ""))
        )
    lines.append(row("", header, "bold"))
    lines.append(row("", [Text(seats.name(s.seat)[: column - 1]) for s in scores]))
    lines.append(row("Plots (prestige)", [str(s.plot_points) for s in scores]))
    lines.append(Text(f"Exhibition: cards {cs.times} best room (1 without a room)", style="dim"))
    names = patron_names(view)
    for patron in PATRONS:
        cells = []
        for score in scores:
            entry = next((p for p in score.patrons if p.patron == patron), None)
            if entry is None or not entry.cards:
                cells.append("-")
            else:
                cells.append(f"{entry.cards}{cs.times}{entry.room_value or 1}={entry.points}")
        lines.append(row(f"  {names[patron]}", cells))
    if any(s.governors for s in scores):
        lines.append(row(f"  {names[GOVERNOR]} (wild)", [str(s.governors) for s in scores]))
    lines.append(
        row(
            f"Sets of 5 patrons {cs.times}5",
            [f"{s.sets}{cs.times}5={s.set_points}" for s in scores],
        )
    )
    lines.append(row("TOTAL", [Text(str(s.total), style="bold") for s in scores], "bold"))
    if view.teams:
        team_score = {
            seat: min(s.total for s in scores if s.seat in team.seats)
            for team in view.teams
            for seat in team.seats
        }
        lines.append(
            row("Team (lower member)", [str(team_score.get(s.seat, "?")) for s in scores], "bold")
        )
    lines.append(row("Reserve (tiebreak)", [str(s.reserve) for s in scores]))
    ranking = list(view.ranking) or (list(summary.places) if summary is not None else [])
    if ranking:
        lines.append(
            row(
                "Place",
                [_ordinal(ranking[s.seat]) if s.seat < len(ranking) else "?" for s in scores],
                "bold",
            )
        )
        winners = [s.seat for s in scores if s.seat < len(ranking) and ranking[s.seat] == 1]
        who = " and ".join(seats.label(seat) for seat in winners)
        verb = "share the victory" if len(winners) > 1 else "wins"
        lines.append(Text(f"{who} {verb}!", style="bold"))
    return lines


# ------------------------------------------------------------------ actions
def _hanging(head: Text, words: str, width: int) -> list[Text]:
    """``head`` then ``words`` wrapped at ``width``, continuation lines indented under them."""
    indent = head.cell_len
    room = max(20, width - indent)
    lines = []
    line = head.copy()
    used = 0
    for word in words.split():
        if used and used + 1 + len(word) > room:
            lines.append(_fit(line, width))
            line, used = Text(" " * indent), 0
        if used:
            line.append(" ")
            used += 1
        line.append(word)
        used += len(word)
    lines.append(_fit(line, width))
    return lines


def _shared_label(labels: Iterable[str]) -> str:
    """The start that several labels share, up to a ``, `` or ``: `` (else empty)."""
    texts = list(labels)
    if len(texts) < 3:
        return ""
    prefix = min(texts)
    last = max(texts)
    size = next((i for i, (a, b) in enumerate(zip(prefix, last, strict=False)) if a != b), None)
    prefix = prefix[:size]
    cut = max(prefix.rfind(", "), prefix.rfind(": "))
    return prefix[: cut + 2] if cut >= 12 else ""


def _kind(action: match_pb2.LegalAction) -> str:
    return action.notation.split(" ", 1)[0] if action.notation else "?"


def action_lines(actions: Sequence[match_pb2.LegalAction], width: int = WIDTH) -> list[Text]:
    """The legal actions, numbered from 1.

    A short list shows every action's notation and label. A long one (early in a
    campaign there are dozens of placements) is grouped by kind under a title, the
    notations in columns; ``? N`` shows the label of one.
    """
    groups: dict[str, list[tuple[int, match_pb2.LegalAction]]] = {}
    for number, action in enumerate(actions, 1):
        groups.setdefault(_kind(action), []).append((number, action))
    if len(actions) <= FULL_LIST_MAX:
        notation_width = max(len(action.notation) for action in actions) if actions else 0
        lines = []
        for members in groups.values():
            shared = _shared_label(action.label for _, action in members)
            if shared:
                lines.append(Text(shared.rstrip(":, ") + ":", style="underline"))
            for number, action in members:
                line = Text(f"{number:>3}  ", style="bold")
                line.append(f"{action.notation:<{notation_width}}  ", style="cyan")
                lines += _hanging(line, action.label[len(shared) :], width)
        return lines
    number_width = len(str(len(actions)))
    lines = []
    for kind, members in groups.items():
        title = KIND_TITLE.get(kind) if len(members) > 1 else None
        if title is None:
            for number, action in members:
                line = Text(f"{number:>{number_width}} ", style="bold")
                line.append(f"{action.notation:<14} ", style="cyan")
                lines += _hanging(line, action.label, width)
            continue
        lines.append(Text(title + ":", style="underline"))
        cell = number_width + 3 + max(len(action.notation) for _, action in members)
        per_line = max(1, (width - 2) // cell)
        for start in range(0, len(members), per_line):
            line = Text("  ")
            for number, action in members[start : start + per_line]:
                entry = Text(f"{number:>{number_width}} ", style="bold")
                entry.append(action.notation, style="cyan")
                line.append_text(_pad(entry, cell))
            line.rstrip()
            lines.append(line)
    return lines


# ------------------------------------------------------------------ events
def _spaces(spaces: Iterable[pb.MykerinosSpace]) -> str:
    return ", ".join(f"{chr(ord('a') + s.column)}{s.row + 1}" for s in spaces)


def _room(room: pb.MykerinosRoom, names: dict[int, str] = PATRON_NAME) -> str:
    first = PATRON_CODE.get(room.patron, "?")
    if room.value == 2:
        return f"{first}/{PATRON_CODE.get(room.second_patron, '?')} 2-room"
    return f"{names.get(room.patron, '?')} {room.value}-room"


def _target(
    event: pb.MykerinosEvent.Blocked | pb.MykerinosEvent.TokenReturned, seats: Seats
) -> str:
    if event.WhichOneof("target") == "room":
        return "the " + _room(event.room, seats.patrons)
    return _spaces([event.space])


def describe_event(event: pb.MykerinosEvent, seats: Seats) -> str | None:
    """One line for the log, or None for events the board already shows."""
    kind = event.WhichOneof("event")
    if kind == "campaign_started":
        e1 = event.campaign_started
        return f"Campaign {e1.campaign} begins; {seats.label(e1.start_seat)} starts."
    if kind == "passed":
        e2 = event.passed
        how = " (automatically)" if e2.automatic else ""
        return f"{seats.label(e2.seat)} passed{how}: tiebreak space {e2.tiebreak_space}."
    if kind == "final_action":
        return f"{seats.label(event.final_action.seat)} takes one final action."
    if kind == "museum_placed":
        e3 = event.museum_placed
        how = "as a reward" if e3.reward else "with the Director"
        return f"{seats.label(e3.seat)} entered the museum, {_room(e3.room, seats.patrons)}, {how}."
    if kind == "area_ranked":
        e4 = event.area_ranked
        return f"Area {e4.area + 1} is scored: {_ranking(e4.order, e4.counts)}."
    if kind == "plot_taken":
        e5 = event.plot_taken
        patron = seats.patrons.get(e5.patron, "no patron")
        how = " (the only choice)" if e5.automatic else ""
        side = SIDE_NAME.get(e5.side, "?")
        return (
            f"{seats.label(e5.seat)} took the {side} plot of area {e5.area + 1}: "
            f"{e5.points} pts, {patron}{how}."
        )
    if kind == "plot_discarded":
        e6 = event.plot_discarded
        return f"The {SIDE_NAME.get(e6.side, '?')} plot of area {e6.area + 1} leaves the game."
    if kind == "campaign_ended":
        e7 = event.campaign_ended
        return f"Campaign {e7.campaign} ends; {seats.label(e7.next_start_seat)} starts the next."
    if kind == "game_over":
        return "The game is over."
    return _describe_variant_event(event, kind, seats)


def _ranking(order: Iterable[int], counts: Iterable[int]) -> str:
    """An area's or the river's ranking as a log line reads it: "Blue 3, Red 2"."""
    ranked = ", ".join(
        f"{COLOUR_NAME.get(c, '?')} {n}" for c, n in zip(order, counts, strict=False)
    )
    return ranked or "nobody there"


def _describe_variant_event(event: pb.MykerinosEvent, kind: str | None, seats: Seats) -> str | None:
    """Log lines of the variants' events (draft, The Nile)."""
    names = seats.patrons
    if kind == "drafted":
        d = event.drafted
        return f"{seats.label(d.seat)} drafted a {names.get(d.patron, '?')}."
    if kind == "draft_discarded":
        return f"The undrafted {names.get(event.draft_discarded.patron, '?')} plot is discarded."
    if kind == "blocked":
        b = event.blocked
        return f"{seats.label(b.seat)} put a blocking token on {_target(b, seats)}."
    if kind == "token_returned":
        t = event.token_returned
        return f"{seats.label(t.seat)} took back the blocking token from {_target(t, seats)}."
    if kind == "nothing_to_block":
        return f"{seats.label(event.nothing_to_block.seat)} found nothing left to block."
    if kind == "tokens_retrieved":
        return "Every blocking token goes back to its owner."
    if kind == "river_ranked":
        r = event.river_ranked
        return f"The river is scored: {_ranking(r.order, r.counts)}."
    if kind == "nile_card_taken":
        n = event.nile_card_taken
        what = EFFECT_NAME.get(n.effect, "?")
        extra = f", {n.archaeologists} archaeologist(s)" if n.archaeologists else ""
        how = " (the only choice)" if n.automatic else ""
        return (
            f"{seats.label(n.seat)} took the Nile card of row {n.row + 1}: {what}, "
            f"{n.points} pts{extra}{how}."
        )
    if kind == "nile_card_discarded":
        return f"The Nile card of row {event.nile_card_discarded.row + 1} leaves the game."
    if kind == "river_done":
        return "River archaeologists go home; bank archaeologists step onto the plots."
    if kind == "tie_card_used":
        return f"{seats.label(event.tie_card_used.seat)} used the tie card to win the tie."
    if kind == "tie_card_kept":
        return f"{seats.label(event.tie_card_kept.seat)} keeps the tie card for later."
    return None


def update_lines(update: match_pb2.MatchUpdate, seats: Seats) -> list[str]:
    """The log lines of one committed action: who did what, then what followed."""
    lines = [f"{seats.label(update.seat)}: {update.notation}"]
    for event in update.events:
        if event.HasField("mykerinos"):
            line = describe_event(event.mykerinos, seats)
            if line is not None:
                lines.append("  " + line)
    return lines


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
