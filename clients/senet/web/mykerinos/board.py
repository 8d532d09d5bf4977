"""Mykerinos in the browser: the region (areas, plots, spaces, river), the museum ring,
the Nile cards and every player's reserves and patrons.

Spaces, museum rooms, plots and Nile cards are board targets: a start is one click
on its space, an expansion a click on each of its spaces, a museum move a click on
its room, taking a plot a click on the plot (or the Nile card) during delimitation.
"""

from __future__ import annotations

import math
from html import escape

from senet.text.mykerinos.names import nile_card_text, patron_names
from senet.text.mykerinos.players import campaign_text
from senet.text.mykerinos.tables import COLOUR_NAME, PATRON_CODE, PHASE_NAME, SIDE_NAME
from senet.v1 import match_pb2
from senet.v1 import mykerinos_pb2 as pb
from senet.web.boards import svg
from senet.web.frames import seat_label

CELL = 46
MARGIN = 26
#: A band above each row of areas for its plots' labels (points and patron).
BAND = 18


def row_top(row: int) -> float:
    """The y of the top of region row ``row`` (0-based): rows of areas are 3 rows high."""
    return MARGIN + (row // 3 + 1) * BAND + row * CELL


#: Fill and outline of each colour's pieces: dark enough to read on the sand board.
PIECE: dict[int, tuple[str, str]] = {
    pb.MYKERINOS_COLOUR_BLUE: ("#1f5fbf", "#0b2a5c"),
    pb.MYKERINOS_COLOUR_RED: ("#c0392b", "#5c120b"),
    pb.MYKERINOS_COLOUR_GREEN: ("#1e8449", "#0b3d20"),
    pb.MYKERINOS_COLOUR_WHITE: ("#fafafa", "#222222"),
}
SAND = "#ecd9a8"
INK = "#1b1b1b"
#: An empty museum room: paler than any piece, with a dashed outline, so that a
#: White archaeologist (white with a black outline) never looks like an empty room.
EMPTY_ROOM = ("#e6d8b6", "#8a7448")


def space_key(column: int, row: int) -> str:
    return f"s:{chr(ord('a') + column)}{row + 1}"


def room_key(room: pb.MykerinosRoom) -> str:
    return f"r:{room.patron}-{room.second_patron}-{room.value}"


def _region(view: pb.MykerinosView, names: dict[int, str]) -> str:
    region = view.region
    rows = region.rows or 6
    columns = region.columns or 8
    width = MARGIN + columns * CELL + 4
    height = row_top(rows - 1) + CELL + 4
    occupied = {(o.space.column, o.space.row): o.colour for o in view.occupied}
    pyramids = {(s.column, s.row) for s in region.pyramids}
    river = {(s.column, s.row) for s in region.nile.river}
    blocked = {(b.space.column, b.space.row): b.owner for b in view.nile.blocked}
    scoring_area = view.delimitation.area if view.phase == pb.MYKERINOS_PHASE_DELIMITATION else None
    parts = [svg.rect(0, 0, width, height, fill=SAND, rx=6)]
    for column in range(columns):
        x = MARGIN + column * CELL + CELL / 2
        parts.append(svg.text(x, 17, chr(ord("a") + column), class_="coord"))
    for row in range(rows):
        y = row_top(row) + CELL / 2 + 5
        parts.append(svg.text(12, y, str(row + 1), class_="coord"))
    for plot in region.plots:
        parts.append(_plot(plot, names, plot.area == scoring_area))
    for row in range(rows):
        for column in range(columns):
            parts.append(
                _space(
                    column,
                    row,
                    occupied.get((column, row)),
                    (column, row) in pyramids,
                    (column, row) in river,
                    blocked.get((column, row)),
                )
            )
    # Area borders over everything but the pieces' targets: thick lines every 4 columns, 3 rows.
    bottom = row_top(rows - 1) + CELL
    for column in range(0, columns + 1, 4):
        x = MARGIN + column * CELL
        parts.append(svg.line(x, MARGIN, x, bottom, stroke=INK, stroke_width=3))
    for row in range(0, rows, 3):
        y = row_top(row) - BAND
        parts.append(svg.line(MARGIN, y, MARGIN + columns * CELL, y, stroke=INK, stroke_width=3))
    parts.append(
        svg.line(MARGIN, bottom, MARGIN + columns * CELL, bottom, stroke=INK, stroke_width=3)
    )
    return svg.svg(width, height, parts, "The region: areas, plots and archaeologists")


def _plot(plot: pb.MykerinosPlot, names: dict[int, str], scoring: bool) -> str:
    area_row, slot_in_row = divmod(plot.slot, 4)
    x = MARGIN + slot_in_row * 2 * CELL
    y = row_top(3 * area_row) - BAND
    patron = names.get(plot.patron, "no patron")
    side = SIDE_NAME.get(plot.side, "")
    title = f"Plot of area {plot.area + 1} ({side}): {plot.points} points, {patron}"
    fill = "#f6c453" if scoring else "#e3c98a"
    children = [
        svg.rect(
            x + 2,
            y + 2,
            2 * CELL - 4,
            3 * CELL + BAND - 4,
            fill=fill,
            stroke="#7a5c1e",
            stroke_dasharray="5 3",
            rx=4,
        ),
        svg.text(
            x + 8,
            y + 14,
            f"{plot.points} {patron}" if plot.patron else f"{plot.points} pts",
            class_="plot-label",
        ),
    ]
    return svg.target(f"p:{plot.slot}", title, children)


def _space(
    column: int, row: int, colour: int | None, pyramid: bool, river: bool, blocked: int | None
) -> str:
    x = MARGIN + column * CELL
    y = row_top(row) - 6
    cx, cy = x + CELL / 2, y + CELL / 2 + 4
    name = f"{chr(ord('a') + column)}{row + 1}"
    children = [
        svg.rect(
            x + 6,
            y + 10,
            CELL - 12,
            CELL - 14,
            rx=5,
            class_="space",
            fill="#7fb3e6" if river else "#f3e6c4",
            stroke="#8a6d2f",
        )
    ]
    what = "river" if river else "empty"
    if pyramid:
        children.append(
            svg.polygon(
                [(cx, cy - 12), (cx - 12, cy + 9), (cx + 12, cy + 9)], fill="#b08d3c", stroke=INK
            )
        )
        what = "pyramid"
    if blocked is not None:
        fill, stroke = PIECE.get(blocked, ("#888", INK))
        children.append(svg.rect(cx - 9, cy - 9, 18, 18, fill=fill, stroke=stroke, stroke_width=3))
        what = f"blocked by {COLOUR_NAME.get(blocked, '?')}"
    if colour is not None:
        fill, stroke = PIECE.get(colour, ("#888", INK))
        children.append(svg.circle(cx, cy, 12, fill=fill, stroke=stroke, stroke_width=2.5))
        what = f"{COLOUR_NAME.get(colour, '?')} archaeologist"
    return svg.target(space_key(column, row), f"{name}: {what}", children)


def _museum(view: pb.MykerinosView, names: dict[int, str]) -> str:
    rooms = list(view.museum.rooms)
    blocked = {entry.name: entry.owner for entry in view.nile.blocked_rooms}
    size = 330
    centre = size / 2
    radius = size / 2 - 34
    parts = [
        svg.circle(centre, centre, radius + 30, fill="#d8c7a0", stroke=INK),
        svg.circle(centre, centre, radius - 30, fill="#efe4c8", stroke=INK),
        svg.text(centre, centre - 4, "Museum", class_="museum-title"),
        svg.text(centre, centre + 16, f"{len(rooms)} rooms", class_="coord"),
    ]
    for index, entry in enumerate(rooms):
        angle = 2 * math.pi * index / max(1, len(rooms)) - math.pi / 2
        x = centre + radius * math.cos(angle)
        y = centre + radius * math.sin(angle)
        owner = int(entry.occupant)
        fill, stroke = PIECE.get(owner, EMPTY_ROOM)
        occupied = owner in PIECE
        wings = names.get(entry.room.patron, "?")
        if entry.room.second_patron:
            wings += f" / {names.get(entry.room.second_patron, '?')}"
        who = f"{COLOUR_NAME[owner]} archaeologist" if owner in COLOUR_NAME else "empty"
        if entry.name in blocked:
            who += f", blocked by {COLOUR_NAME.get(blocked[entry.name], '?')}"
        children = [
            svg.rect(
                x - 25,
                y - 13,
                50,
                26,
                rx=6,
                fill=fill,
                stroke=stroke,
                stroke_width=3 if occupied else 1.5,
                stroke_dasharray=None if occupied else "4 3",
                class_="room" if occupied else "room empty",
            ),
            svg.text(
                x,
                y + 5,
                entry.name,
                class_="room-label dark"
                if owner in COLOUR_NAME and owner != pb.MYKERINOS_COLOUR_WHITE
                else "room-label",
            ),
        ]
        title = f"Museum room {entry.name} ({wings}, value {entry.room.value}): {who}"
        parts.append(svg.target(room_key(entry.room), title, children))
    return svg.svg(size, size, parts, "The museum")


def _nile_cards(view: pb.MykerinosView) -> str:
    cards = list(view.region.nile.cards)
    if not cards:
        return ""
    items = []
    for card in cards:
        label = f"Nile card, row {card.row + 1}: {nile_card_text(card)}"
        children = [
            svg.rect(2, 2, 150, 40, rx=5, fill="#7fb3e6", stroke=INK),
            svg.text(10, 27, f"n{card.row + 1}: {nile_card_text(card)}", class_="card-label"),
        ]
        items.append(svg.svg(154, 44, [svg.target(f"n:{card.row}", label, children)], label))
    return f'<div class="nile-cards">{"".join(items)}</div>'


def _draft(view: pb.MykerinosView, labels: dict[int, str], names: dict[int, str]) -> str:
    """Quick game: the patrons on offer (each a target of ``draft``) and the order."""
    if not view.HasField("draft"):
        return ""
    draft = view.draft
    cards = []
    for patron in PATRON_CODE:
        count = sum(1 for offered in draft.patrons if offered == patron)
        if not count:
            continue
        name = names.get(patron, "?")
        label = f"Draft a {name} plot ({count} on offer)"
        children = [
            svg.rect(2, 2, 116, 40, rx=5, fill="#fff8e6", stroke=INK),
            svg.text(10, 20, name, class_="card-label"),
            svg.text(10, 36, f"{count} on offer", class_="track-points"),
        ]
        cards.append(svg.svg(120, 44, [svg.target(f"d:{patron}", label, children)], label))
    order = " > ".join(
        ("▶ " if index == draft.index else "") + labels.get(seat, f"seat {seat}")
        for index, seat in enumerate(draft.order)
    )
    return (
        "<section class='draft' aria-label='Patron draft'><h3>Patron draft</h3>"
        "<p class='board-status'>Each player drafts one patron, then a second in reverse "
        f"order.</p><div class='nile-cards'>{''.join(cards)}</div>"
        f"<p class='board-status'>Order: {escape(order)}</p></section>"
    )


def _players(
    view: pb.MykerinosView,
    labels: dict[int, str],
    names: dict[int, str],
) -> str:
    head = "".join(
        f"<th scope='col'>{escape(names[p][:3])}</th>"
        for p in PATRON_CODE
        if p != pb.MYKERINOS_PATRON_GOVERNOR
    )
    rows = []
    for player in view.players:
        fill, stroke = PIECE.get(player.colour, ("#888", INK))
        swatch = svg.svg(
            16,
            16,
            [svg.circle(8, 8, 6, fill=fill, stroke=stroke, stroke_width=2)],
            COLOUR_NAME.get(player.colour, "?"),
        )
        who = labels.get(player.seat, f"seat {player.seat}")
        reserve = sum(r.count for r in player.reserve)
        cards = {int(p.patron): p for p in player.patrons}
        cells = "".join(
            f"<td>{cards[p].cards - cards[p].used if p in cards else 0}</td>"
            for p in PATRON_CODE
            if p != pb.MYKERINOS_PATRON_GOVERNOR
        )
        current = (
            " class='current'"
            if view.HasField("current_seat") and (view.current_seat == player.seat)
            else ""
        )
        rows.append(
            f"<tr{current}><th scope='row'>{swatch} {escape(who)}</th>"
            f"<td>{player.prestige}</td><td>{reserve}</td>{cells}"
            f"<td>{player.tiebreak_space}</td></tr>"
        )
    return (
        "<table class='players'><caption>Players: prestige, archaeologists in reserve, "
        "patron cards to use, tiebreak space</caption><thead><tr><th scope='col'>player</th>"
        f"<th scope='col'>pts</th><th scope='col'>res</th>{head}<th scope='col'>tie</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>{_teams(view, labels)}"
    )


def _teams(view: pb.MykerinosView, labels: dict[int, str]) -> str:
    """Team game: who partners whom, and each team's score (the lower of its
    members' own scores, which is what places a team)."""
    if not view.teams:
        return ""
    own = list(view.individual_scores)
    items = []
    for team in view.teams:
        members = " and ".join(labels.get(seat, f"seat {seat}") for seat in team.seats)
        scores = [own[seat] for seat in team.seats if seat < len(own)]
        score = f": {min(scores)} (the lower of {', '.join(map(str, scores))})" if scores else ""
        items.append(f"<li>{escape(members)}{score}</li>")
    return (
        "<section class='teams' aria-label='Teams'><h3>Teams</h3>"
        "<p class='board-status'>A team scores its lower member's prestige.</p>"
        f"<ul>{''.join(items)}</ul></section>"
    )


class MykerinosBoard:
    """Draws a Mykerinos view; spaces, rooms, plots and Nile cards choose actions."""

    game_id = "mykerinos"

    def draw(
        self, view: match_pb2.View, summary: match_pb2.MatchSummary, viewer: int | None
    ) -> str:
        game = view.mykerinos
        names = patron_names(game)
        phase = PHASE_NAME.get(game.phase, "")
        status = f"{campaign_text(game).capitalize()} · {phase}"
        status += f" · {game.deck_size} plots in the deck"
        if game.phase == pb.MYKERINOS_PHASE_DELIMITATION:
            status += f" · scoring area {game.delimitation.area + 1}"
        # The seats table beside the board names seats the same way (frames.seat_label).
        labels = {seat.seat: seat_label(summary, view, seat.seat, viewer) for seat in summary.seats}
        return (
            f"<p class='board-status'>{escape(status)}</p>{_draft(game, labels, names)}"
            f"<div class='board-row'>{_region(game, names)}{_museum(game, names)}</div>"
            f"{_nile_cards(game)}{_players(game, labels, names)}"
        )

    def targets(self, action: match_pb2.LegalAction, view: match_pb2.View) -> list[str]:
        typed = action.action.mykerinos
        keys = [space_key(s.column, s.row) for s in typed.spaces]
        if typed.HasField("room") and typed.room.patron:
            keys.append(room_key(typed.room))
        if typed.side in (pb.MYKERINOS_SIDE_LEFT, pb.MYKERINOS_SIDE_RIGHT):
            game = view.mykerinos
            for plot in game.region.plots:
                if plot.area == game.delimitation.area and plot.side == typed.side:
                    keys.append(f"p:{plot.slot}")
        elif typed.side:
            keys.append(f"n:{int(typed.side) - int(pb.MYKERINOS_SIDE_NILE_ROW_1)}")
        if typed.kind == pb.MYKERINOS_ACTION_KIND_DRAFT:
            keys.append(f"d:{typed.patron}")
        return keys


#: The entry point of ``senet.web_boards`` for Mykerinos.
MYKERINOS_BOARD = MykerinosBoard()
