"""What stands beside the board: the museum ring, tiebreak track, reserves, decks."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from senet.text.drawing import UNICODE, Charset, pad
from senet.text.mykerinos.names import Seats, letter, nile_card_text, patron_names, token
from senet.text.mykerinos.tables import MUSEUM_NAME_MAX
from senet.v1 import mykerinos_pb2 as pb


def _room_cell(room: pb.MykerinosMuseumRoom | None, width: int, blocked: dict[str, int]) -> Text:
    if room is None:
        return pad(Text("?"), width)
    cell = Text(room.name + " ")
    if room.occupant:
        cell.append_text(letter(room.occupant))
    elif room.name in blocked:
        cell.append_text(token(blocked[room.name]))
    else:
        cell.append(".", style="dim")
    return pad(cell, width)


def museum_lines(view: pb.MykerinosView) -> list[Text]:
    """The museum ring: one line per wing with its 3-room, 5-room and the 2-room to the
    next wing (the last wing's 2-room joins the first); each room with its occupant."""
    rooms = list(view.museum.rooms)
    wings = list(view.museum.wings)
    names = patron_names(view)
    blocked = {entry.name: int(entry.owner) for entry in view.nile.blocked_rooms}
    # Wide enough for the longest name (the 2006 names are long), within the panel.
    name_width = min(MUSEUM_NAME_MAX, max([9, *(len(names.get(w, "?")) + 1 for w in wings)]))
    lines = [
        Text("MUSEUM ring (2-room joins a wing to the next)", style="bold"),
        Text(f"{'wing':<{name_width}}3-room   5-room   2-room", style="dim"),
    ]
    shown: set[str] = set()

    def find(patrons: set[int], value: int) -> pb.MykerinosMuseumRoom | None:
        for room in rooms:
            held = {room.room.patron, room.room.second_patron} - {pb.MYKERINOS_PATRON_UNSPECIFIED}
            if room.room.value == value and held == patrons:
                shown.add(room.name)
                return room
        return None

    for index, wing in enumerate(wings):
        following = wings[(index + 1) % len(wings)]
        line = pad(Text(names.get(wing, "?")), name_width - 1) + Text(" ")
        line.append_text(_room_cell(find({wing}, 3), 9, blocked))
        line.append_text(_room_cell(find({wing}, 5), 9, blocked))
        line.append_text(_room_cell(find({wing, following}, 2), 9, blocked))
        lines.append(line)
    others = [room for room in rooms if room.name not in shown]
    if others:
        extra = Text("also ")
        for room in others:
            extra.append_text(_room_cell(room, len(room.name) + 3, blocked))
        lines.append(extra)
    return lines


def tiebreak_line(view: pb.MykerinosView) -> Text:
    """The tiebreak track: space 1 wins ties."""
    markers = {marker.space: marker.colour for marker in view.tiebreak}
    spaces = max([len(view.players) + (1 if view.neutral_colour else 0), *markers])
    line = Text("TIEBREAK ", style="bold")
    for space in range(1, spaces + 1):
        line.append(f"{space}:")
        colour = markers.get(space)
        if colour is None:
            line.append(".", style="dim")
        else:
            line.append_text(letter(colour))
        line.append(" ")
    line.append("(1 wins ties)", style="dim")
    return line


def reserve_text(reserves: Iterable[pb.MykerinosReserve], times: str) -> Text:
    """``B x11 G x4`` (with ``times`` as the x): a reserve by colour, or ``none``."""
    out = Text()
    for reserve in reserves:
        if out:
            out.append(" ")
        out.append_text(letter(reserve.colour))
        out.append(f"{times}{reserve.count}")
    return out or Text("none", style="dim")


def panel_lines(view: pb.MykerinosView, cs: Charset = UNICODE) -> list[Text]:
    """What stands beside the board: museum, tiebreak track, reserves, deck, legend."""
    seats = Seats(view)
    lines = museum_lines(view)
    lines.append(Text())
    lines.append(tiebreak_line(view))
    general = Text("GENERAL reserve ", style="bold")
    in_play = [r for r in view.general_reserve if seats.in_play(r.colour)]
    general.append_text(reserve_text(in_play, cs.times))
    lines.append(general)
    lines.append(Text(f"DECK {view.deck_size} plots left; {len(view.box)} out of the game"))
    if view.HasField("nile"):
        lines += nile_lines(view)
    lines.append(Text())
    lines.append(Text("B R G W archaeologists  ^ pyramid  . empty", style="dim"))
    if view.HasField("nile"):
        lines.append(Text("~ river  b r g w blocking token", style="dim"))
    lines.append(Text("plot label: points, then patron code", style="dim"))
    return lines


def nile_lines(view: pb.MykerinosView) -> list[Text]:
    """The Nile: its decks, and each Nile card on the region (cards cover columns d-e)."""
    nile = view.nile
    lines = [
        Text(
            f"NILE decks: Governor {nile.governor_deck}, neutral {nile.neutral_deck}; "
            f"{len(nile.box)} out"
        )
    ]
    for card in view.region.nile.cards:
        lines.append(
            Text(f"  n{card.row + 1} rows {3 * card.row + 1}-{3 * card.row + 3}: ")
            + Text(nile_card_text(card), style="cyan")
        )
    return lines
