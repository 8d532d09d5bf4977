"""The region: areas with their numbers, plots with points and patron, the spaces."""

from __future__ import annotations

from rich.text import Text

from senet.text.drawing import UNICODE, Charset, join
from senet.text.mykerinos.names import letter, token
from senet.text.mykerinos.tables import PATRON_CODE
from senet.v1 import mykerinos_pb2 as pb


def _plot_label(plot: pb.MykerinosPlot | None) -> Text:
    if plot is None:
        return Text("      ")
    code = PATRON_CODE.get(plot.patron, "---")
    return join([" ", Text(str(plot.points), style="bold yellow"), " ", Text(code, style="cyan")])


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
