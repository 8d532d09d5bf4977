"""The final score breakdown of a Mykerinos match."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from senet.text.drawing import UNICODE, WIDTH, Charset, ordinal, pad
from senet.text.mykerinos.names import Seats, patron_names
from senet.text.mykerinos.tables import COLOUR_NAME, COLOUR_STYLE, GOVERNOR, PATRONS
from senet.v1 import match_pb2
from senet.v1 import mykerinos_pb2 as pb


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
            line.append_text(pad(text, column))
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
    ranking = list(view.places) or (list(summary.places) if summary is not None else [])
    if ranking:
        lines.append(
            row(
                "Place",
                [ordinal(ranking[s.seat]) if s.seat < len(ranking) else "?" for s in scores],
                "bold",
            )
        )
        winners = [s.seat for s in scores if s.seat < len(ranking) and ranking[s.seat] == 1]
        who = " and ".join(seats.label(seat) for seat in winners)
        verb = "share the victory" if len(winners) > 1 else "wins"
        lines.append(Text(f"{who} {verb}!", style="bold"))
    return lines
