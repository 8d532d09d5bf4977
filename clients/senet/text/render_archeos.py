"""Draw an Archeos Society match from the protocol's messages, for an 80-column terminal.

The match itself comes from ``senet.v1`` messages only (``ArcheosView``, ``MatchSummary``,
``ArcheosEvent``). The site boards' numbers (lines, points, extras) are static data the
view does not repeat, so they come from :mod:`senet.games.archeos.sites`, the data
module the server uses: pure data, no rules and no protocol.

Players are letters ``A``-``F`` (seat 0 is ``A``); on Ta-Sekhet-Ma'at the second
vehicle is the lower-case letter. Each track reads ``[AB ]>2[C  ]``: the vehicles on a
space, then the size an expedition needs to cross the next line (the ``>`` is a right
angle quote in Unicode). Colour only
decorates: everything reads the same with ``--no-color``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from senet.games.archeos.sites import ADVANCED, COMPASS, SITE_NAMES, Track
from senet.text.render import UNICODE, WIDTH, Charset, _fit, _ordinal
from senet.text.seat_names import SeatNames
from senet.v1 import archeos_pb2 as pb
from senet.v1 import match_pb2

SEAT_LETTERS = "ABCDEF"
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")
COLOUR_LETTERS = "roygbp"
COLOUR_STYLES = (
    "bold red",
    "bold dark_orange",
    "bold yellow",
    "bold green",
    "bold blue",
    "bold magenta",
)
ROLE_CODES = ("bot", "car", "cur", "gui", "lin", "mer", "pat", "pho", "phy", "pil", "pro", "stu")
ROLE_NAMES = (
    "Botanist",
    "Cartographer",
    "Curator",
    "Guide",
    "Linguist",
    "Mercenary",
    "Patron",
    "Photographer",
    "Physician",
    "Pilot",
    "Professor",
    "Student",
)
STEP_NAMES: dict[int, str] = {
    pb.ARCHEOS_STEP_TURN: "take, draw or lead an expedition",
    pb.ARCHEOS_STEP_BUILD: "building an expedition",
    pb.ARCHEOS_STEP_CHOOSE_ADVANCE: "choosing which vehicle advances",
    pb.ARCHEOS_STEP_ULURU: "Uluru: cash in or stay",
    pb.ARCHEOS_STEP_LINGUIST: "linguist artifact: a free advance",
    pb.ARCHEOS_STEP_PROFESSOR: "taking a professor token",
    pb.ARCHEOS_STEP_EXTRA: "Cartographer: one more expedition?",
    pb.ARCHEOS_STEP_KEEP: "Physician: keeping cards",
    pb.ARCHEOS_STEP_UR: "Ur: a season-end expedition",
    pb.ARCHEOS_STEP_PROFESSOR_MOVE: "season end: professor move",
    pb.ARCHEOS_STEP_OVER: "game over",
}
#: Width of one track space, brackets included, and of a line marker (``>2``).
CELL = 6
LINE = 2


def card_text(card: pb.ArcheosCard) -> Text:
    """``r-bot``, styled in the card's colour."""
    colour, role = card.colour - 1, card.role - 1
    if not 0 <= colour < 6 or not 0 <= role < 12:
        return Text("?")
    return Text(f"{COLOUR_LETTERS[colour]}-{ROLE_CODES[role]}", style=COLOUR_STYLES[colour])


def cards_text(cards: Sequence[pb.ArcheosCard]) -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(card))
    return out


class Seats(SeatNames):
    """Names for seats: letter, display name, and ``you`` for the viewer."""

    def __init__(
        self,
        view: pb.ArcheosView,
        summary: match_pb2.MatchSummary | None = None,
        viewer: int | None = None,
    ) -> None:
        super().__init__(summary, viewer)
        self.count = len(view.players)

    def label(self, seat: int) -> str:
        """``A (Ada)``, or ``A (Ada, you)``."""
        letter = SEAT_LETTERS[seat] if 0 <= seat < len(SEAT_LETTERS) else "?"
        return f"{letter} ({self.name(seat)}{', you' if seat == self.viewer else ''})"


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
        title = Text(f"{name}{' (advanced)' if advanced else ''}", style=COLOUR_STYLES[colour])
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
        title += f"  match {summary.match_id}"
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
            lines.append(Text("   your hand: ").append_text(cards_text(player.hand)))
            lines.append(Text("     by colour: ").append_text(_grouped(player.hand, True)))
            lines.append(Text("     by role:   ").append_text(_grouped(player.hand, False)))
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
    return [_fit(line, WIDTH) for line in lines]


def final_score_lines(
    view: pb.ArcheosView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """Totals, relic points, final-season expedition sizes (the tie-break) and places."""
    seats = Seats(view, summary, viewer)
    if not view.final:
        return [Text("No final scores yet.")]
    lines = [Text("FINAL SCORES", style="bold reverse")]
    ranking = list(view.ranking)
    for entry in sorted(view.final, key=lambda e: ranking[e.seat] if e.seat < len(ranking) else 9):
        place = _ordinal(ranking[entry.seat]) if entry.seat < len(ranking) else "?"
        sizes = " ".join(map(str, entry.expedition_sizes)) or "-"
        lines.append(
            _fit(
                Text(
                    f"{place:>4} {seats.label(entry.seat):<24} {entry.total:>4} pts  "
                    f"relics {entry.relics} (+{entry.relic_points})  expeditions {sizes}"
                ),
                WIDTH,
            )
        )
    winners = [e.seat for e in view.final if e.seat < len(ranking) and ranking[e.seat] == 1]
    verb = "share the victory" if len(winners) > 1 else "wins"
    lines.append(Text(f"{' and '.join(seats.label(s) for s in winners)} {verb}!", style="bold"))
    return lines


def describe_event(event: pb.ArcheosEvent, seats: Seats) -> str | None:
    """One line for the log, or None for events the table already shows."""
    who = seats.label(event.seat) if event.HasField("seat") else ""
    kind = event.kind
    if kind == pb.ARCHEOS_EVENT_KIND_SEASON_STARTED:
        return f"Season {event.season} begins; {who} starts."
    if kind == pb.ARCHEOS_EVENT_KIND_MONKEY_DRAWN:
        return f"{who} drew a monkey ({event.count} of 3)."
    if kind == pb.ARCHEOS_EVENT_KIND_CARDS_DRAWN_PRIVATE:
        return f"You drew {cards_text(event.cards).plain}."
    if kind == pb.ARCHEOS_EVENT_KIND_EXPEDITION_PLAYED:
        return f"{who} played an expedition of {len(event.cards)}: {cards_text(event.cards).plain}."
    if kind == pb.ARCHEOS_EVENT_KIND_VEHICLE_MOVED:
        site = COLOUR_NAMES[event.site - 1] if 1 <= event.site <= 6 else "?"
        second = " (second vehicle)" if event.second_vehicle else ""
        return f"{who}: {site}{second} {event.start} -> {event.end} ({event.reason})."
    if kind == pb.ARCHEOS_EVENT_KIND_MERCENARIES_DISCARDED:
        return f"{who} discarded ten Mercenaries."
    if kind == pb.ARCHEOS_EVENT_KIND_ULURU_CASHED:
        return f"{who} cashed in {event.points} points on Uluru."
    if kind == pb.ARCHEOS_EVENT_KIND_SEASON_ENDING:
        return f"The third monkey ends season {event.season} ({who} drew it)."
    if kind == pb.ARCHEOS_EVENT_KIND_SEASON_BONUS:
        return f"{who} scores {event.points} ({event.reason})."
    if kind == pb.ARCHEOS_EVENT_KIND_SEASON_SCORED:
        return f"Season {event.season} scored: {' '.join(map(str, event.scores))}."
    if kind == pb.ARCHEOS_EVENT_KIND_GAME_OVER:
        return "The game is over."
    return None


def update_lines(update: match_pb2.MatchUpdate, seats: Seats) -> list[str]:
    """The log lines of one committed action: who did what, then what followed."""
    lines = [f"{seats.label(update.seat)}: {update.notation}"]
    for event in update.events:
        if event.HasField("archeos"):
            line = describe_event(event.archeos, seats)
            if line is not None:
                lines.append("  " + line)
    return lines
