"""Who is who in an Archeos Society match, and the names, letters and styles of cards.

Players are letters ``A``-``F`` (seat 0 is ``A``); a card reads ``r-bot`` (colour
letter, role code), styled in its colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

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
