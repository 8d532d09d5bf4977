"""The log: one line per committed action, then one per event worth reading."""

from __future__ import annotations

from senet.text.archeos.names import COLOUR_NAMES, Seats, cards_text
from senet.v1 import archeos_pb2 as pb
from senet.v1 import match_pb2


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
        # Each seat named beside its score: bare numbers left the reader to count seats.
        scores = ", ".join(f"{seats.label(s)} {score}" for s, score in enumerate(event.scores))
        return f"Season {event.season} scored: {scores}."
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
