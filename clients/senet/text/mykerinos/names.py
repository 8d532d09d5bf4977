"""Who is who in a Mykerinos match (seats, colours, names), and the pieces as letters."""

from __future__ import annotations

from rich.text import Text

from senet.text.mykerinos.tables import (
    COLOUR_LETTER,
    COLOUR_NAME,
    COLOUR_STYLE,
    EFFECT_NAME,
    PATRON_NAME,
)
from senet.text.seat_names import SeatNames
from senet.v1 import match_pb2
from senet.v1 import mykerinos_pb2 as pb


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
        #: Campaigns of this match (0 when the view does not say).
        self.campaigns = view.campaigns

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


def nile_card_text(card: pb.MykerinosNileCard) -> str:
    """``2 archaeologists, 3 pts``: a Nile card's effect and points."""
    return f"{EFFECT_NAME.get(card.effect, '?')}, {card.points} pts"
