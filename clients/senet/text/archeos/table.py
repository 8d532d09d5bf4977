"""The whole Archeos Society table: header, sites, display, players.

The site boards' numbers (lines, points, extras) are static data the view does not
repeat, so they come from :mod:`senet.games.archeos.sites`, the data module the
server uses: pure data, no rules and no protocol.

Each track reads ``[AB ]>2[C  ]``: the vehicles on a space, then the size an
expedition needs to cross the next line (the ``>`` is a right angle quote in
Unicode); on Ta-Sekhet-Ma'at the second vehicle is the lower-case letter.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from senet.games.archeos.sites import ADVANCED, COMPASS, SITE_NAMES, Track
from senet.text.archeos.names import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COLOUR_STYLES,
    ROLE_CODES,
    ROLE_NAMES,
    SEAT_LETTERS,
    STEP_NAMES,
    Seats,
    cards_text,
)
from senet.text.drawing import UNICODE, WIDTH, Charset, fit, match_words
from senet.v1 import archeos_pb2 as pb
from senet.v1 import match_pb2

#: Width of one track space, brackets included, and of a line marker (``>2``).
CELL = 6
LINE = 2


def track_of(view: pb.ArcheosView, colour: int) -> Track:
    return ADVANCED[colour] if view.advanced_site - 1 == colour else COMPASS


def _site_lines(view: pb.ArcheosView, cs: Charset) -> list[Text]:
    arrow = "\u203a" if cs is UNICODE else ">"
    lines = [
        Text(
            "SITES  (vehicles on each space, then the size needed to cross the line)", style="bold"
        )
    ]
    for colour in range(6):
        track = track_of(view, colour)
        advanced = view.advanced_site - 1 == colour
        name = SITE_NAMES[colour] if advanced else f"{COLOUR_NAMES[colour]} site"
        # An advanced site keeps its colour in view: the log names sites by colour.
        kind = f" ({COLOUR_NAMES[colour]}, advanced)" if advanced else ""
        title = Text(f"{name}{kind}", style=COLOUR_STYLES[colour])
        lines.append(title)
        occupants: list[str] = [""] * len(track.points)
        for player in view.players:
            spaces = list(player.vehicles.sites)
            letter = SEAT_LETTERS[player.seat]
            if colour < len(spaces):
                occupants[spaces[colour]] += letter
            if advanced and colour == 2:
                occupants[player.vehicles.second_vehicle] += letter.lower()
        row = Text(" ")
        points = Text(" ")
        for space, who in enumerate(occupants):
            shown = who if len(who) <= CELL - 2 else f"{len(who)}v"
            row.append(f"[{shown:<{CELL - 2}}]")
            value = str(track.points[space])
            if track.shared_points:
                value += f"/{track.shared_points[space]}"
            if track.ur_limits:
                value += f"u{track.ur_limits[space]}"
            points.append(f"{value:^{CELL}}", style="dim")
            if space < track.last:
                need = str(track.thresholds[space])
                row.append(f"{arrow}{need}"[:LINE])
                extra = f"+{track.draws[space]}" if track.draws else ""
                points.append(f"{extra:<{LINE}}", style="dim")
        lines += [row, points]
    legend = "points per space"
    if view.advanced_site == pb.ARCHEOS_SITE_TANTALLON_CASTLE:
        legend += "; Tantallon: alone/shared"
    if view.advanced_site == pb.ARCHEOS_SITE_UR:
        legend += "; Ur: uN = season-end expedition limit"
    if view.advanced_site == pb.ARCHEOS_SITE_CHICHEN_ITZA:
        legend += "; Chichén Itzá: +N cards for crossing"
    lines.append(Text(legend, style="dim"))
    return lines


def header_lines(
    view: pb.ArcheosView, summary: match_pb2.MatchSummary | None, seats: Seats, cs: Charset
) -> list[Text]:
    title = "ARCHEOS SOCIETY"
    if summary is not None:
        title += f"  {match_words(summary)}"
    monkey, none = ("●", "○") if cs is UNICODE else ("*", "-")
    monkeys = monkey * view.monkeys_drawn + none * (3 - view.monkeys_drawn)
    line = Text(
        f"Season {view.season}/{view.seasons}  monkeys {monkeys}  deck {view.deck_size} cards"
    )
    roles = ", ".join(ROLE_NAMES[r - 1] for r in view.roles if 1 <= r <= 12)
    out = [Text(title, style="bold reverse"), line, Text(f"Roles: {roles}", style="dim")]
    if view.HasField("current_seat"):
        step = STEP_NAMES.get(view.step, "?")
        out.append(Text(f"To move: {seats.label(view.current_seat)} - {step}", style="bold"))
    return out


def _grouped(cards: Sequence[pb.ArcheosCard], by_colour: bool) -> Text:
    """``red: bot stu  blue: pat`` (by colour) or ``Student: r r b`` (by role)."""
    groups: dict[int, list[pb.ArcheosCard]] = {}
    for card in cards:
        if 1 <= card.colour <= 6 and 1 <= card.role <= 12:
            groups.setdefault(card.colour if by_colour else card.role, []).append(card)
    out = Text()
    for key in sorted(groups):
        if out:
            out.append("  ")
        if by_colour:
            out.append(f"{COLOUR_NAMES[key - 1]}: ", style=COLOUR_STYLES[key - 1])
            out.append(" ".join(ROLE_CODES[c.role - 1] for c in groups[key]))
        else:
            out.append(f"{ROLE_NAMES[key - 1]}:")
            for card in groups[key]:
                out.append(" ")
                out.append(COLOUR_LETTERS[card.colour - 1], style=COLOUR_STYLES[card.colour - 1])
    return out


def table_lines(view: pb.ArcheosView, seats: Seats) -> list[Text]:
    """Display, the expedition in progress, the Botanist frame and professor tokens."""
    lines = [Text("Display: ", style="bold").append_text(cards_text(view.display) or Text("empty"))]
    if view.expedition.cards:
        basis = "colour" if view.expedition.basis == pb.ARCHEOS_BASIS_COLOUR else "role"
        line = Text(f"Expedition in progress ({basis}, up to {view.expedition.limit}): ")
        lines.append(line.append_text(cards_text(view.expedition.cards)))
    if view.HasField("botanist_frame"):
        frame = view.botanist_frame
        lines.append(
            Text(
                f"Botanist frame: {seats.label(frame.seat)}, expedition {frame.expedition + 1} "
                f"(size {frame.size})"
            )
        )
    if view.professor_supply:
        lines.append(Text(f"Professor tokens left: {' '.join(map(str, view.professor_supply))}"))
    return lines


def _expedition_lines(expeditions: Sequence[pb.ArcheosExpedition]) -> list[Text]:
    """Expeditions (leader first) separated by ``|``, wrapped at whole expeditions."""
    lines: list[Text] = []
    line = Text("   expeditions: ")
    indent = len(line.plain)
    for number, expedition in enumerate(expeditions):
        part = cards_text(expedition.cards)
        if number:
            if line.cell_len + 3 + part.cell_len > WIDTH:
                lines.append(line)
                line = Text(" " * indent)
            else:
                line.append(" | ")
        line.append_text(part)
    if expeditions:
        lines.append(line)
    return lines


def player_lines(view: pb.ArcheosView, seats: Seats) -> list[Text]:
    """Each player: score, hand size, linguist, relics, tokens, expeditions; own hand."""
    lines = [Text("PLAYERS", style="bold")]
    for player in view.players:
        head = Text(f"{seats.label(player.seat)}  ", style="bold")
        head.append(f"score {player.score}  hand {player.hand_size}  linguist {player.linguist}")
        if player.relics:
            relics = "".join(COLOUR_LETTERS[c - 1] for c in player.relics if 1 <= c <= 6)
            head.append(f"  relics {relics}")
        if player.professor_tokens:
            head.append(f"  prof {'+'.join(map(str, player.professor_tokens))}")
        lines.append(head)
        if player.known_hand and player.seat != seats.viewer:
            lines.append(Text("   known in hand: ").append_text(cards_text(player.known_hand)))
        lines += _expedition_lines(player.expeditions)
        if player.seat == seats.viewer:
            if player.hand:
                lines.append(Text("   your hand: ").append_text(cards_text(player.hand)))
                lines.append(Text("     by colour: ").append_text(_grouped(player.hand, True)))
                lines.append(Text("     by role:   ").append_text(_grouped(player.hand, False)))
            else:
                lines.append(Text("   your hand: empty"))
            if player.kept:
                lines.append(Text("   keeping: ").append_text(cards_text(player.kept)))
    return lines


def match_lines(
    view: pb.ArcheosView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """The whole table: header, sites, display, players."""
    seats = Seats(view, summary, viewer)
    lines = header_lines(view, summary, seats, cs)
    lines += _site_lines(view, cs)
    lines += table_lines(view, seats)
    lines += player_lines(view, seats)
    return [fit(line, WIDTH) for line in lines]
