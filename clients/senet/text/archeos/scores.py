"""The final scores of an Archeos Society match."""

from __future__ import annotations

from rich.text import Text

from senet.text.archeos.names import Seats
from senet.text.drawing import UNICODE, WIDTH, Charset, fit, ordinal
from senet.v1 import archeos_pb2 as pb
from senet.v1 import match_pb2


def final_score_lines(
    view: pb.ArcheosView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """Totals, relic points, final-season expedition sizes (the tie-break) and places."""
    seats = Seats(view, summary, viewer)
    if not view.final_scores:
        return [Text("No final scores yet.")]
    lines = [Text("FINAL SCORES", style="bold reverse")]
    ranking = list(view.places)
    for entry in sorted(
        view.final_scores, key=lambda e: ranking[e.seat] if e.seat < len(ranking) else 9
    ):
        place = ordinal(ranking[entry.seat]) if entry.seat < len(ranking) else "?"
        sizes = " ".join(map(str, entry.expedition_sizes)) or "-"
        lines.append(
            fit(
                Text(
                    f"{place:>4} {seats.label(entry.seat):<24} {entry.total:>4} pts  "
                    f"relics {entry.relics} (+{entry.relic_points})  expeditions {sizes}"
                ),
                WIDTH,
            )
        )
    winners = [e.seat for e in view.final_scores if e.seat < len(ranking) and ranking[e.seat] == 1]
    verb = "share the victory" if len(winners) > 1 else "wins"
    lines.append(Text(f"{' and '.join(seats.label(s) for s in winners)} {verb}!", style="bold"))
    return lines
