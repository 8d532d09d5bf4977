"""The log: one line per committed action, then one per event worth reading."""

from __future__ import annotations

from collections.abc import Iterable

from senet.games.wording import a_or_an
from senet.text.mykerinos.names import Seats
from senet.text.mykerinos.tables import (
    COLOUR_NAME,
    EFFECT_NAME,
    PATRON_CODE,
    PATRON_NAME,
    SIDE_NAME,
)
from senet.v1 import match_pb2
from senet.v1 import mykerinos_pb2 as pb


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
        return f"Area {e4.area + 1} is scored: {_ranking(e4.order, e4.counts, seats)}."
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
        if seats.campaigns and e7.campaign >= seats.campaigns:
            return f"Campaign {e7.campaign}, the last, ends."
        return f"Campaign {e7.campaign} ends; {seats.label(e7.next_start_seat)} starts the next."
    if kind == "game_over":
        return "The game is over."
    return _describe_variant_event(event, kind, seats)


def _ranking(order: Iterable[int], counts: Iterable[int], seats: Seats) -> str:
    """An area's or the river's ranking as a log line reads it: "Blue 3, Red 2"; the
    two-player game's neutral colour says so ("Green (neutral) 2"), as no seat
    names it."""

    def colour(c: int) -> str:
        neutral = " (neutral)" if c == seats.neutral and c not in seats.seat_of else ""
        return COLOUR_NAME.get(c, "?") + neutral

    ranked = ", ".join(f"{colour(c)} {n}" for c, n in zip(order, counts, strict=False))
    return ranked or "nobody there"


def _describe_variant_event(event: pb.MykerinosEvent, kind: str | None, seats: Seats) -> str | None:
    """Log lines of the variants' events (draft, The Nile)."""
    names = seats.patrons
    if kind == "drafted":
        d = event.drafted
        return f"{seats.label(d.seat)} drafted {a_or_an(names.get(d.patron, '?'))}."
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
        return f"The river is scored: {_ranking(r.order, r.counts, seats)}."
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
