"""The Mykerinos codec: core actions, views and events <-> ``senet.v1`` Mykerinos messages.

The core speaks in small ids and names (space index ``13`` / ``"f2"``, room id / name
``"exp5"``, colour ``"blue"``, patron code ``"exp"``, side ``0`` / ``"left"``); the
protocol speaks in enums and coordinates. Every translation goes through the core's
own helpers (``parse_space``, ``space_name``, ``parse_room``, ``room_name``,
``room_patrons``...) so the two can never disagree about geometry or room ids, and
decoded actions are re-parsed by the core's notation parser before they are returned.

Decoding client actions is strict on purpose: a field the action kind does not use
(a room on a placement, a side on a pass) is rejected rather than ignored, because a
client that sets it has misunderstood something and silently dropping it would turn
a bug into a wrong move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeAlias, TypeVar

from google.protobuf.message import Message

from senet.codec.base import OneofCodec, action_kind_of
from senet.games.errors import GameError, MalformedActionError
from senet.games.interface import Event, JsonDict, OptionValue
from senet.games.mykerinos import actions as act
from senet.games.mykerinos import nile
from senet.games.mykerinos.actions import (
    PLACEMENT_SIZES,
    ROOM_KINDS,
    ROOM_TARGET,
    SIDE_KINDS,
    SIDES,
    MykerinosAction,
    block_target_name,
    parse_action,
    parse_block_target,
)
from senet.games.mykerinos.game import MYKERINOS
from senet.games.mykerinos.museum import (
    ROOM_IDS,
    five_room,
    parse_room,
    room_name,
    room_patrons,
    room_value,
    three_room,
    two_room,
)
from senet.games.mykerinos.patrons import PATRON_CODES, PATRONS, Patron
from senet.games.mykerinos.plots import PLOT_ROWS
from senet.games.mykerinos.region import COLUMNS, MAX_AREA_ROWS, parse_space, space_name
from senet.games.mykerinos.state import (
    AWAIT_DISCARD,
    AWAIT_REWARD,
    AWAIT_TIE,
    BLOCKING,
    COLOUR_NAMES,
    DELIMITATION,
    DRAFT,
    EXCAVATION,
    NEUTRAL_TURN,
    OVER,
)
from senet.v1 import mykerinos_pb2 as pb

K = TypeVar("K")
V = TypeVar("V")

ColourValue: TypeAlias = pb.MykerinosColour.ValueType
PatronValue: TypeAlias = pb.MykerinosPatron.ValueType
SideValue: TypeAlias = pb.MykerinosSide.ValueType
KindValue: TypeAlias = pb.MykerinosActionKind.ValueType

#: Rows of the largest (final-campaign) region: the widest range a client may name.
MAX_ROWS = MAX_AREA_ROWS * PLOT_ROWS

# --------------------------------------------------------------- enum tables
_KINDS: dict[str, KindValue] = {
    act.START: pb.MYKERINOS_ACTION_KIND_START,
    act.EXPAND: pb.MYKERINOS_ACTION_KIND_EXPAND,
    act.CURATOR: pb.MYKERINOS_ACTION_KIND_CURATOR,
    act.COLONEL: pb.MYKERINOS_ACTION_KIND_COLONEL,
    act.EXPLORER: pb.MYKERINOS_ACTION_KIND_EXPLORER,
    act.HEIRESS: pb.MYKERINOS_ACTION_KIND_HEIRESS,
    act.DIRECTOR: pb.MYKERINOS_ACTION_KIND_DIRECTOR,
    act.PASS: pb.MYKERINOS_ACTION_KIND_PASS,
    act.NEUTRAL_START: pb.MYKERINOS_ACTION_KIND_NEUTRAL_START,
    act.NEUTRAL_EXPAND: pb.MYKERINOS_ACTION_KIND_NEUTRAL_EXPAND,
    act.NEUTRAL_SKIP: pb.MYKERINOS_ACTION_KIND_NEUTRAL_SKIP,
    act.TAKE: pb.MYKERINOS_ACTION_KIND_TAKE_PLOT,
    act.MUSEUM: pb.MYKERINOS_ACTION_KIND_MUSEUM,
    act.DISCARD: pb.MYKERINOS_ACTION_KIND_DISCARD_PLOT,
    act.TEAM_START: pb.MYKERINOS_ACTION_KIND_TEAM_START,
    act.TEAM_EXPAND: pb.MYKERINOS_ACTION_KIND_TEAM_EXPAND,
    act.DRAFT: pb.MYKERINOS_ACTION_KIND_DRAFT,
    act.GOVERNOR: pb.MYKERINOS_ACTION_KIND_GOVERNOR,
    act.BLOCK: pb.MYKERINOS_ACTION_KIND_BLOCK,
    act.USE_TIE: pb.MYKERINOS_ACTION_KIND_USE_TIE,
    act.KEEP_TIE: pb.MYKERINOS_ACTION_KIND_KEEP_TIE,
    act.LEAVE: pb.MYKERINOS_ACTION_KIND_LEAVE_PLOT,
}
_KIND_OF: dict[int, str] = {value: kind for kind, value in _KINDS.items()}

# The core indexes colours like seats (blue, red, green, white), as the proto does.
_COLOURS: dict[str, ColourValue] = dict(
    zip(
        COLOUR_NAMES,
        (
            pb.MYKERINOS_COLOUR_BLUE,
            pb.MYKERINOS_COLOUR_RED,
            pb.MYKERINOS_COLOUR_GREEN,
            pb.MYKERINOS_COLOUR_WHITE,
        ),
        strict=True,
    )
)

_PATRONS: dict[int, PatronValue] = {
    Patron.CURATOR: pb.MYKERINOS_PATRON_CURATOR,
    Patron.COLONEL: pb.MYKERINOS_PATRON_COLONEL,
    Patron.EXPLORER: pb.MYKERINOS_PATRON_EXPLORER,
    Patron.HEIRESS: pb.MYKERINOS_PATRON_HEIRESS,
    Patron.DIRECTOR: pb.MYKERINOS_PATRON_DIRECTOR,
    Patron.GOVERNOR: pb.MYKERINOS_PATRON_GOVERNOR,
}
#: Patrons with a museum wing: the only ones that name rooms or can be drafted
#: (the Governor comes only from Nile cards).
_WING_PATRON_OF: dict[int, int] = {_PATRONS[p]: int(p) for p in PATRONS}
_PATRON_CODES: dict[str, PatronValue] = {PATRON_CODES[p]: v for p, v in _PATRONS.items()}

# Core side numbers index this (0 left, 1 right, 2-4 the Nile card of area row
# 1-3); views use the notation codes ("l", "n1"), plot events the names.
_SIDES: tuple[SideValue, ...] = (
    pb.MYKERINOS_SIDE_LEFT,
    pb.MYKERINOS_SIDE_RIGHT,
    pb.MYKERINOS_SIDE_NILE_ROW_1,
    pb.MYKERINOS_SIDE_NILE_ROW_2,
    pb.MYKERINOS_SIDE_NILE_ROW_3,
)
_SIDE_OF: dict[int, int] = {value: side for side, value in enumerate(_SIDES)}
_SIDE_CODES: dict[str, SideValue] = dict(zip(SIDES, _SIDES, strict=True))
_SIDE_NAMES: dict[str, SideValue] = {"left": _SIDES[0], "right": _SIDES[1]}

_PHASES: dict[str, pb.MykerinosPhase.ValueType] = {
    DRAFT: pb.MYKERINOS_PHASE_DRAFT,
    EXCAVATION: pb.MYKERINOS_PHASE_EXCAVATION,
    NEUTRAL_TURN: pb.MYKERINOS_PHASE_NEUTRAL,
    BLOCKING: pb.MYKERINOS_PHASE_BLOCKING,
    DELIMITATION: pb.MYKERINOS_PHASE_DELIMITATION,
    OVER: pb.MYKERINOS_PHASE_OVER,
}

_EFFECTS: dict[str, pb.MykerinosNileEffect.ValueType] = {
    nile.GOVERNOR: pb.MYKERINOS_NILE_EFFECT_GOVERNOR,
    nile.POINT_AND_ARCHAEOLOGIST: pb.MYKERINOS_NILE_EFFECT_POINT_AND_ARCHAEOLOGIST,
    nile.TWO_ARCHAEOLOGISTS: pb.MYKERINOS_NILE_EFFECT_TWO_ARCHAEOLOGISTS,
    nile.TIE_WINNER: pb.MYKERINOS_NILE_EFFECT_TIE_WINNER,
    nile.EIGHT_POINTS: pb.MYKERINOS_NILE_EFFECT_EIGHT_POINTS,
}
_TERRAIN: dict[str, pb.MykerinosTerrain.ValueType] = {
    nile.RIVER: pb.MYKERINOS_TERRAIN_RIVER,
    nile.LAND: pb.MYKERINOS_TERRAIN_LAND,
    nile.PYRAMID: pb.MYKERINOS_TERRAIN_PYRAMID,
}

# museum_placed events say how the archaeologist got there; the proto keeps a flag.
_VIA_REWARD = {"dir": False, "reward": True}


def _lookup(table: Mapping[K, V], key: K, what: str) -> V:
    """``table[key]``, failing with a message that names the server-side value."""
    try:
        return table[key]
    except KeyError:
        raise ValueError(f"no protobuf form for Mykerinos {what} {key!r}") from None


def _kind_label(value: KindValue) -> str:
    """Short enum name of a known kind (``EXPAND``), for error messages."""
    return pb.MykerinosActionKind.Name(value).removeprefix("MYKERINOS_ACTION_KIND_")


# ------------------------------------------------------------ small values
def colour_to_proto(name: str | None) -> ColourValue:
    """``"blue"`` -> ``MYKERINOS_COLOUR_BLUE``; ``None`` (nobody) -> unspecified."""
    if name is None:
        return pb.MYKERINOS_COLOUR_UNSPECIFIED
    return _lookup(_COLOURS, name, "colour")


def patron_to_proto(code: str | None) -> PatronValue:
    """``"exp"`` -> ``MYKERINOS_PATRON_EXPLORER``; ``None`` (the 5-point plot) -> unspecified."""
    if code is None:
        return pb.MYKERINOS_PATRON_UNSPECIFIED
    return _lookup(_PATRON_CODES, code, "patron code")


def space_to_proto(index: int) -> pb.MykerinosSpace:
    """Core space index (row-major, 8 columns) -> column/row coordinates."""
    row, column = divmod(index, COLUMNS)
    return pb.MykerinosSpace(column=column, row=row)


def space_named(name: str) -> pb.MykerinosSpace:
    """Space name from a view or event (``"c2"``) -> coordinates."""
    return space_to_proto(parse_space(name))


def space_from_proto(space: pb.MykerinosSpace) -> int:
    """Client coordinates -> core space index.

    Any space of the largest region is accepted; whether it exists in the current
    campaign's region is a legality question for the state.

    Raises:
        MalformedActionError: the column or row is off every region.
    """
    if space.column >= COLUMNS or space.row >= MAX_ROWS:
        raise MalformedActionError(
            f"space (column {space.column}, row {space.row}) is off the region: "
            f"columns are 0-{COLUMNS - 1} and rows 0-{MAX_ROWS - 1}"
        )
    return space.row * COLUMNS + space.column


def room_to_proto(room: int) -> pb.MykerinosRoom:
    """Core room id -> patron(s) and value (2-room patrons in canonical order)."""
    patrons = room_patrons(room)
    out = pb.MykerinosRoom(patron=_PATRONS[patrons[0]], value=room_value(room))
    if len(patrons) > 1:
        out.second_patron = _PATRONS[patrons[1]]
    return out


def _patron_from_proto(value: int, field: str) -> int:
    """A wing patron (rooms, the draft) from a client; the Governor has no wing."""
    patron = _WING_PATRON_OF.get(value)
    if value == pb.MYKERINOS_PATRON_GOVERNOR:
        raise MalformedActionError(
            f"{field} is GOVERNOR, which has no museum wing and is never drafted: "
            "name one of the five other patrons"
        )
    if patron is None:
        state = "is unspecified" if value == pb.MYKERINOS_PATRON_UNSPECIFIED else f"is {value}"
        raise MalformedActionError(f"{field} {state}: name one of the five patrons")
    return patron


def room_from_proto(room: pb.MykerinosRoom) -> int:
    """Client room -> core room id.

    A 2-room's patrons may come in either order, like the notation (``exp/col``).
    Whether this museum has that 2-room is a legality question for the state.

    Raises:
        MalformedActionError: unknown value, missing or unknown patron, or a
            second patron where there is none (or the same patron twice).
    """
    value = room.value
    if value in (3, 5):
        patron = _patron_from_proto(room.patron, "room.patron")
        if room.second_patron != pb.MYKERINOS_PATRON_UNSPECIFIED:
            raise MalformedActionError(
                f"a {value}-room belongs to one patron: leave room.second_patron unspecified"
            )
        return three_room(patron) if value == 3 else five_room(patron)
    if value == 2:
        first = _patron_from_proto(room.patron, "room.patron")
        second = _patron_from_proto(room.second_patron, "room.second_patron")
        if first == second:
            raise MalformedActionError("a 2-room lies between two different patrons' wings")
        return two_room(first, second)
    raise MalformedActionError(f"room.value must be 2, 3 or 5, got {value}")


class _WireCache(dict[K, bytes]):
    """The wire bytes of one field set to the sub-message built from a key, built once.

    Why: upb pays about a microsecond for every sub-message built from Python, and
    the spaces, rooms and museum entries in events, actions and views come from
    small fixed sets. ``MergeFromString`` of cached bytes (which appends a repeated
    field's entries and sets a singular one) gives the same message for a fraction
    of that. The bytes are what ``build(key)`` serializes, so the output cannot
    differ, and a key ``build`` rejects raises exactly its error and is not stored.

    Keys are names (strings, ``None``) and the core's small integers (ids, counts),
    so a cache holds a few thousand entries at most; the core never sends the
    floats or booleans that would hash like a cached integer. Two threads missing
    the same key at once both store the same bytes, which is harmless.
    """

    def __init__(self, build: Callable[[K], Message]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: K) -> bytes:
        wire = self._build(key).SerializeToString()
        self[key] = wire
        return wire


# -------------------------------------------------------------- composites
# Views are filled in place: ``fill_view`` writes into the ``View`` the codec
# returns, and each part below into its field of the message above it, because
# upb copies a whole sub-message when one is handed to a constructor. Fields are
# written in the order the keyword form evaluated them, so a bad value fails with
# the same error as before. ``SetInParent`` marks the singular parts the keyword
# form always set, even if every field in them is at its default.
_PYRAMIDS: _WireCache[str] = _WireCache(
    lambda name: pb.MykerinosRegion(pyramids=[space_named(name)])
)
_RIVER: _WireCache[str] = _WireCache(lambda name: pb.MykerinosRegionNile(river=[space_named(name)]))
_OCCUPANTS: _WireCache[tuple[str, str | None]] = _WireCache(
    lambda key: pb.MykerinosView(
        occupied=[pb.MykerinosOccupant(space=space_named(key[0]), colour=colour_to_proto(key[1]))]
    )
)
_MUSEUM_ROOMS: _WireCache[tuple[str, str | None]] = _WireCache(
    lambda key: pb.MykerinosMuseum(rooms=[_museum_room(*key)])
)
_PATRON_NAMES: _WireCache[tuple[str, str]] = _WireCache(
    lambda key: pb.MykerinosView(
        patron_names=[pb.MykerinosPatronName(patron=patron_to_proto(key[0]), name=key[1])]
    )
)
#: Plots by (slot, area, side, card, patron, points, rotated): a campaign's plots
#: are the same in every view and event of that campaign.
_PLOTS: _WireCache[tuple[int, int, str, int, str | None, int, bool]] = _WireCache(
    lambda key: pb.MykerinosRegion(
        plots=[
            pb.MykerinosPlot(
                slot=key[0],
                area=key[1],
                side=_lookup(_SIDE_NAMES, key[2], "side"),
                card=key[3],
                patron=patron_to_proto(key[4]),
                points=key[5],
                rotated=key[6],
            )
        ]
    )
)
_GENERAL_RESERVE: _WireCache[tuple[str, int]] = _WireCache(
    lambda key: pb.MykerinosView(general_reserve=[_reserve(*key)])
)
_PLAYER_RESERVE: _WireCache[tuple[str, int]] = _WireCache(
    lambda key: pb.MykerinosPlayer(reserve=[_reserve(*key)])
)
_PLAYER_PATRONS: _WireCache[tuple[str, int, int]] = _WireCache(
    lambda key: pb.MykerinosPlayer(
        patrons=[pb.MykerinosPatronCards(patron=patron_to_proto(key[0]), cards=key[1], used=key[2])]
    )
)


def _nile_card_to_proto(entry: Mapping[str, Any]) -> pb.MykerinosNileCard:
    return pb.MykerinosNileCard(
        row=entry["row"],
        card=entry["card"],
        effect=_lookup(_EFFECTS, entry["effect"], "Nile card effect"),
        points=entry["points"],
        rotated=entry["rotated"],
        cells=[_lookup(_TERRAIN, cell, "Nile card cell") for cell in entry["cells"]],
    )


def _fill_region(out: pb.MykerinosRegion, region: Mapping[str, Any]) -> None:
    """Write the region part of a view or of a ``campaign_started`` event into ``out``.

    The Nile's river and cards go in ``region.nile``, set exactly when the core
    sent them (The Nile is played), even when both lists are empty.
    """
    out.SetInParent()
    out.columns = region["columns"]
    out.rows = region["rows"]
    plots = [
        _PLOTS[
            plot["slot"],
            plot["area"],
            plot["side"],
            plot["card"],
            plot["patron"],
            plot["points"],
            plot["rotated"],
        ]
        for plot in region["plots"]
    ]
    plots.extend([_PYRAMIDS[name] for name in region["pyramids"]])
    out.MergeFromString(b"".join(plots))
    if "river" in region:
        part = out.nile
        part.SetInParent()
        part.MergeFromString(b"".join([_RIVER[name] for name in region["river"]]))
        part.cards.extend(_nile_card_to_proto(entry) for entry in region["nile"])


def _reserve(colour: str, count: int) -> pb.MykerinosReserve:
    return pb.MykerinosReserve(colour=colour_to_proto(colour), count=count)


def _museum_room(name: str, occupant: str | None) -> pb.MykerinosMuseumRoom:
    room = parse_room(name)
    return pb.MykerinosMuseumRoom(
        room=room_to_proto(room), name=room_name(room), occupant=colour_to_proto(occupant)
    )


def _fill_museum(out: pb.MykerinosMuseum, museum: Mapping[str, Any]) -> None:
    out.SetInParent()
    rooms = b"".join([_MUSEUM_ROOMS[entry["room"], entry["occupant"]] for entry in museum["rooms"]])
    out.wings.extend([patron_to_proto(c) for c in museum["wings"]])
    out.MergeFromString(rooms)


def _fill_player(out: pb.MykerinosPlayer, player: Mapping[str, Any]) -> None:
    out.seat = player["seat"]
    out.colour = colour_to_proto(player["colour"])
    out.prestige = player["prestige"]
    reserve = [_PLAYER_RESERVE[colour, count] for colour, count in player["reserve"].items()]
    reserve.extend(
        [
            _PLAYER_PATRONS[code, held["cards"], held["used"]]
            for code, held in player["patrons"].items()
        ]
    )
    out.MergeFromString(b"".join(reserve))
    out.active = player["active"]
    out.tiebreak_space = player["tiebreak_space"] or 0
    out.plots_won.extend(player["plots_won"])
    out.nile_cards.extend(player["nile_cards"])
    out.tokens = player["tokens"]


_AWAITING = {
    "": pb.MYKERINOS_AWAITING_UNSPECIFIED,
    AWAIT_REWARD: pb.MYKERINOS_AWAITING_REWARD,
    AWAIT_DISCARD: pb.MYKERINOS_AWAITING_DISCARD,
    AWAIT_TIE: pb.MYKERINOS_AWAITING_TIE,
}
#: The core's ``area`` while The Nile's river is scored (no area yet).
_RIVER_AREA = -1


def _fill_delimitation(out: pb.MykerinosDelimitation, delimitation: Mapping[str, Any]) -> None:
    river = delimitation["river"]
    area = delimitation["area"]
    if river != (area == _RIVER_AREA):
        # The decoder rebuilds -1 from the river flag; anything else would not round-trip.
        raise ValueError(f"no protobuf form for Mykerinos area {area} with river={river}")
    out.SetInParent()
    out.area = 0 if river else area
    out.order.extend([colour_to_proto(c) for c in delimitation["order"]])
    out.rank_index = delimitation["rank_index"]
    out.plots_left.extend([_lookup(_SIDE_CODES, s, "side") for s in delimitation["plots_left"]])
    out.awaiting = _lookup(_AWAITING, delimitation["awaiting"], "awaiting")
    out.river = river
    out.museum_rewards = delimitation["museum_rewards"]
    out.tie_asked = delimitation["tie_asked"]


def _fill_draft(out: pb.MykerinosDraft, draft: Mapping[str, Any]) -> None:
    out.SetInParent()
    out.plots.extend(draft["plots"])
    out.patrons.extend([patron_to_proto(code) for code in draft["patrons"]])
    out.order.extend(draft["order"])
    out.index = draft["index"]


def _fill_nile(out: pb.MykerinosNile, part: Mapping[str, Any]) -> None:
    out.SetInParent()  # present even if every field is at its default
    out.governor_deck = part["governor_deck"]
    out.neutral_deck = part["neutral_deck"]
    out.box.extend(part["box"])
    add_blocked = out.blocked.add
    for name, owner in part["blocked"].items():
        add_blocked(space=space_named(name), owner=colour_to_proto(owner))
    add_room = out.blocked_rooms.add
    for name, owner in part["blocked_rooms"].items():
        add_room(
            room=room_to_proto(parse_room(name)),
            name=room_name(parse_room(name)),
            owner=colour_to_proto(owner),
        )


def _fill_final_score(out: pb.MykerinosFinalScore, seat: int, entry: Mapping[str, Any]) -> None:
    out.seat = seat
    add_patron = out.patrons.add
    for code, score in entry["patrons"].items():
        add_patron(
            patron=patron_to_proto(code),
            cards=score["cards"],
            room_value=score["room_value"],
            points=score["points"],
        )
    out.sets = entry["sets"]
    out.set_points = entry["set_points"]
    out.plot_points = entry["plot_points"]
    out.total = entry["total"]
    out.reserve = entry["reserve"]
    out.governors = entry["governors"]


def view_to_proto(view: Mapping[str, Any]) -> pb.MykerinosView:
    """A ``MykerinosState.view(seat)`` dict -> ``MykerinosView``.

    Not carried, because ``MatchSummary`` already does: ``game``, ``viewer``,
    ``seats``, ``options`` and ``scores`` (prestige per player, then the final totals).
    """
    out = pb.MykerinosView()
    fill_view(out, view)
    return out


def fill_view(out: pb.MykerinosView, view: Mapping[str, Any]) -> None:
    """:func:`view_to_proto`, written into an empty ``out`` (the codec's in-place hook)."""
    out.phase = _lookup(_PHASES, view["phase"], "phase")
    out.campaign = view["campaign"]
    out.campaigns = view["campaigns"]
    out.start_seat = view["start_seat"]
    out.neutral_colour = colour_to_proto(view["neutral_colour"])
    _fill_region(out.region, view["region"])
    out.MergeFromString(
        b"".join([_OCCUPANTS[name, colour] for name, colour in view["occupied"].items()])
    )
    _fill_museum(out.museum, view["museum"])
    out.MergeFromString(
        b"".join([_GENERAL_RESERVE[c, n] for c, n in view["general_reserve"].items()])
    )
    add_tiebreak = out.tiebreak.add
    for colour, space in view["tiebreak"].items():
        add_tiebreak(colour=colour_to_proto(colour), space=space)
    add_player = out.players.add
    for player in view["players"]:
        _fill_player(add_player(), player)
    out.deck_size = view["deck_size"]
    out.box.extend(view["box"])
    add_final = out.final_scores.add
    for seat, entry in enumerate(view.get("final") or ()):
        _fill_final_score(add_final(), seat, entry)
    out.places.extend(view.get("ranking") or ())
    out.MergeFromString(
        b"".join([_PATRON_NAMES[code, name] for code, name in view["patron_names"].items()])
    )
    add_team = out.teams.add
    for team in view["teams"] or ():
        add_team(seats=team)
    out.individual_scores.extend(view.get("individual_scores") or ())
    if view["current_seat"] is not None:
        out.current_seat = view["current_seat"]
    if view["final_action_seat"] is not None:
        out.final_action_seat = view["final_action_seat"]
    if view.get("delimitation") is not None:
        _fill_delimitation(out.delimitation, view["delimitation"])
    if view.get("draft") is not None:
        _fill_draft(out.draft, view["draft"])
    if view.get("nile") is not None:
        _fill_nile(out.nile, view["nile"])


# ------------------------------------------------------------ views, decoded
# Clients and bots read views back into the core's dicts (their forward model reads
# dicts). Every inverse table is derived from the encoding table above, so the two
# directions cannot drift apart; a value with no inverse raises ValueError, since it
# means this client and the server that sent it disagree about the protocol.
_COLOUR_NAME_OF: dict[int, str] = {value: name for name, value in _COLOURS.items()}
_PATRON_CODE_OF: dict[int, str] = {value: code for code, value in _PATRON_CODES.items()}
_SIDE_NAME_OF: dict[int, str] = {value: name for name, value in _SIDE_NAMES.items()}
_SIDE_CODE_OF: dict[int, str] = {value: code for code, value in _SIDE_CODES.items()}
_PHASE_OF: dict[int, str] = {value: phase for phase, value in _PHASES.items()}
_EFFECT_OF: dict[int, str] = {value: effect for effect, value in _EFFECTS.items()}
_TERRAIN_OF: dict[int, str] = {value: cell for cell, value in _TERRAIN.items()}


def _colour_from_proto(value: int) -> str | None:
    """Inverse of :func:`colour_to_proto` (unspecified -> ``None``)."""
    if value == pb.MYKERINOS_COLOUR_UNSPECIFIED:
        return None
    return _lookup(_COLOUR_NAME_OF, value, "colour enum")


def _patron_code_from_proto(value: int) -> str | None:
    """Inverse of :func:`patron_to_proto` (unspecified -> ``None``)."""
    if value == pb.MYKERINOS_PATRON_UNSPECIFIED:
        return None
    return _lookup(_PATRON_CODE_OF, value, "patron enum")


def _space_name_from_proto(space: pb.MykerinosSpace) -> str:
    if space.column >= COLUMNS or space.row >= MAX_ROWS:
        raise ValueError(f"space (column {space.column}, row {space.row}) is off every region")
    return space_name(space.row * COLUMNS + space.column)


def _room_id_from_proto(room: pb.MykerinosRoom) -> int:
    try:
        return room_from_proto(room)
    except MalformedActionError as exc:
        raise ValueError(f"bad room in a view: {exc}") from None


def _reserves_from_proto(entries: Iterable[pb.MykerinosReserve]) -> dict[str, int]:
    out: dict[str, int] = {}
    for entry in entries:
        colour = _colour_from_proto(entry.colour)
        if colour is None:
            raise ValueError("a reserve entry has no colour")
        out[colour] = entry.count
    return out


def _nile_card_from_proto(entry: pb.MykerinosNileCard) -> JsonDict:
    return {
        "row": entry.row,
        "card": entry.card,
        "effect": _lookup(_EFFECT_OF, entry.effect, "Nile effect enum"),
        "points": entry.points,
        "rotated": entry.rotated,
        "cells": "".join(_lookup(_TERRAIN_OF, cell, "terrain enum") for cell in entry.cells),
    }


def region_from_proto(region: pb.MykerinosRegion) -> JsonDict:
    """Inverse of :func:`_fill_region`."""
    out: JsonDict = {
        "columns": region.columns,
        "rows": region.rows,
        "plots": [
            {
                "slot": plot.slot,
                "area": plot.area,
                "side": _lookup(_SIDE_NAME_OF, plot.side, "side enum"),
                "card": plot.card,
                "patron": _patron_code_from_proto(plot.patron),
                "points": plot.points,
                "rotated": plot.rotated,
            }
            for plot in region.plots
        ],
        "pyramids": [_space_name_from_proto(space) for space in region.pyramids],
    }
    if region.HasField("nile"):
        out["river"] = [_space_name_from_proto(space) for space in region.nile.river]
        out["nile"] = [_nile_card_from_proto(entry) for entry in region.nile.cards]
    return out


def _museum_from_proto(museum: pb.MykerinosMuseum) -> JsonDict:
    rooms = []
    for entry in museum.rooms:
        room = _room_id_from_proto(entry.room)
        if entry.name != room_name(room):
            raise ValueError(f"museum room named {entry.name!r} is the {room_name(room)}")
        rooms.append(
            {
                "room": room_name(room),
                "value": room_value(room),
                "patrons": [PATRON_CODES[p] for p in room_patrons(room)],
                "occupant": _colour_from_proto(entry.occupant),
            }
        )
    return {"wings": [_patron_code_from_proto(w) for w in museum.wings], "rooms": rooms}


def _player_from_proto(player: pb.MykerinosPlayer) -> JsonDict:
    return {
        "seat": player.seat,
        "colour": _colour_from_proto(player.colour),
        "prestige": player.prestige,
        "reserve": _reserves_from_proto(player.reserve),
        "patrons": {
            _patron_code_from_proto(held.patron): {"cards": held.cards, "used": held.used}
            for held in player.patrons
        },
        "plots_won": list(player.plots_won),
        "nile_cards": list(player.nile_cards),
        "tokens": player.tokens,
        "active": player.active,
        "tiebreak_space": player.tiebreak_space or None,
    }


_AWAITING_OF: dict[int, str] = {value: name for name, value in _AWAITING.items()}


def _delimitation_from_proto(delimitation: pb.MykerinosDelimitation) -> JsonDict:
    return {
        "area": _RIVER_AREA if delimitation.river else delimitation.area,
        "river": delimitation.river,
        "order": [_colour_from_proto(c) for c in delimitation.order],
        "rank_index": delimitation.rank_index,
        "plots_left": [_lookup(_SIDE_CODE_OF, s, "side enum") for s in delimitation.plots_left],
        "awaiting": _lookup(_AWAITING_OF, delimitation.awaiting, "awaiting enum"),
        "museum_rewards": delimitation.museum_rewards,
        "tie_asked": delimitation.tie_asked,
    }


def _draft_from_proto(draft: pb.MykerinosDraft) -> JsonDict:
    return {
        "plots": list(draft.plots),
        "patrons": [_patron_code_from_proto(p) for p in draft.patrons],
        "order": list(draft.order),
        "index": draft.index,
    }


def _nile_from_proto(part: pb.MykerinosNile) -> JsonDict:
    rooms: dict[str, str | None] = {}
    for entry in part.blocked_rooms:
        room = _room_id_from_proto(entry.room)
        if entry.name != room_name(room):
            raise ValueError(f"blocked room named {entry.name!r} is the {room_name(room)}")
        rooms[room_name(room)] = _colour_from_proto(entry.owner)
    return {
        "governor_deck": part.governor_deck,
        "neutral_deck": part.neutral_deck,
        "box": list(part.box),
        "blocked": {
            _space_name_from_proto(entry.space): _colour_from_proto(entry.owner)
            for entry in part.blocked
        },
        "blocked_rooms": rooms,
    }


def _final_score_from_proto(entry: pb.MykerinosFinalScore) -> JsonDict:
    return {
        "patrons": {
            _patron_code_from_proto(score.patron): {
                "cards": score.cards,
                "room_value": score.room_value,
                "points": score.points,
            }
            for score in entry.patrons
        },
        "sets": entry.sets,
        "set_points": entry.set_points,
        "total": entry.total,
        "plot_points": entry.plot_points,
        "reserve": entry.reserve,
        "governors": entry.governors,
    }


def _scores_from_proto(view: pb.MykerinosView, final: list[JsonDict]) -> list[int]:
    """Per-seat scores: own totals (final) or prestige, then the team rule if any."""
    own = [int(f["total"]) for f in final] if final else [int(p.prestige) for p in view.players]
    if not view.teams:
        return own
    team_of = {seat: list(team.seats) for team in view.teams for seat in team.seats}
    if sorted(team_of) != list(range(len(own))):
        raise ValueError("every seat must be in exactly one team")
    return [min(own[m] for m in team_of[seat]) for seat in range(len(own))]


def view_from_proto(
    view: pb.MykerinosView,
    *,
    viewer: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> JsonDict:
    """A ``MykerinosView`` -> the ``MykerinosState.view(viewer)`` dict it was made from.

    The keys :func:`view_to_proto` leaves out come back from what the receiver knows
    (``viewer``, ``options``) or follow from the message: ``game`` is this codec's,
    ``seats`` is the number of players, and ``scores`` are the final totals once over,
    the plot prestige before (exactly what ``MykerinosState.scores`` reports; in the
    team game each seat's team score, the lower of its members' scores).

    Parts only some variants have are present in the dict exactly when present in
    the message: ``draft`` and ``nile`` (message fields), the region's ``river`` and
    ``nile`` (``region.nile``); ``teams`` is ``None`` and ``individual_scores``
    absent unless the message lists teams.

    Raises:
        ValueError: a field has no core meaning (see :meth:`GameCodec.view_from_proto`).
    """
    seats = len(view.players)
    if [p.seat for p in view.players] != list(range(seats)):
        raise ValueError("view players must be listed by seat, from 0")
    if [f.seat for f in view.final_scores] not in ([], list(range(seats))):
        raise ValueError("final scores must be listed by seat, from 0")
    if options is None:
        try:
            normalized: JsonDict = MYKERINOS.normalize_options(seats, {})
        except GameError as exc:
            raise ValueError(f"a view of {seats} players: {exc}") from None
    else:
        normalized = dict(options)
    final = [_final_score_from_proto(f) for f in view.final_scores]
    out: JsonDict = {
        "game": MYKERINOS.info.id,
        "viewer": viewer,
        "seats": seats,
        "options": normalized,
        "phase": _lookup(_PHASE_OF, view.phase, "phase enum"),
        "campaign": view.campaign,
        "campaigns": view.campaigns,
        "current_seat": view.current_seat if view.HasField("current_seat") else None,
        "start_seat": view.start_seat,
        "final_action_seat": (
            view.final_action_seat if view.HasField("final_action_seat") else None
        ),
        "neutral_colour": _colour_from_proto(view.neutral_colour),
        "region": region_from_proto(view.region),
        "occupied": {
            _space_name_from_proto(o.space): _colour_from_proto(o.colour) for o in view.occupied
        },
        "museum": _museum_from_proto(view.museum),
        "general_reserve": _reserves_from_proto(view.general_reserve),
        "tiebreak": {_colour_from_proto(t.colour): t.space for t in view.tiebreak},
        "players": [_player_from_proto(p) for p in view.players],
        "deck_size": view.deck_size,
        "box": list(view.box),
        "scores": _scores_from_proto(view, final),
        "patron_names": {
            _patron_code_from_proto(entry.patron): entry.name for entry in view.patron_names
        },
        "teams": [list(team.seats) for team in view.teams] or None,
    }
    if view.teams:
        out["individual_scores"] = list(view.individual_scores)
    if view.HasField("delimitation"):
        out["delimitation"] = _delimitation_from_proto(view.delimitation)
    if view.HasField("draft"):
        out["draft"] = _draft_from_proto(view.draft)
    if view.HasField("nile"):
        out["nile"] = _nile_from_proto(view.nile)
    if final:
        out["final"] = final
        out["ranking"] = list(view.places)
    return out


# ------------------------------------------------------------------ events
# Each converter writes its kind's message in place (see the note on composites),
# into the oneof field of ``MykerinosEvent`` that :func:`fill_event` has already
# marked present. This is the hot path of every SubmitAction and WatchMatch update.
E: TypeAlias = pb.MykerinosEvent

_PLACED_SPACES: _WireCache[str] = _WireCache(lambda name: E.Placed(spaces=[space_named(name)]))
_MUSEUM_PLACED_ROOMS: _WireCache[str] = _WireCache(
    lambda name: E.MuseumPlaced(room=room_to_proto(parse_room(name)))
)


def _campaign_started(out: E.CampaignStarted, d: Mapping[str, Any]) -> None:
    out.campaign = d["campaign"]
    out.start_seat = d["start_seat"]
    _fill_region(out.region, d["region"])


def _placed(out: E.Placed, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    out.colour = colour_to_proto(d["colour"])
    out.kind = _lookup(_KINDS, d["action"], "action kind")
    out.MergeFromString(b"".join([_PLACED_SPACES[name] for name in d["spaces"]]))


def _passed(out: E.Passed, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    out.tiebreak_space = d["tiebreak_space"]
    out.automatic = d["automatic"]


def _final_action(out: E.FinalAction, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]


def _museum_placed(out: E.MuseumPlaced, d: Mapping[str, Any]) -> None:
    # d["area"] (set for rewards) has no field: it is the area of the last area_ranked.
    out.seat = d["seat"]
    out.MergeFromString(_MUSEUM_PLACED_ROOMS[d["room"]])
    out.reward = _lookup(_VIA_REWARD, d["via"], "museum entry")


def _area_ranked(out: E.AreaRanked, d: Mapping[str, Any]) -> None:
    # Each entry's "seat" is implied by its colour (colour index = seat; neutral: none).
    colours, counts = _ranking(d["order"])
    out.area = d["area"]
    out.order.extend(colours)
    out.counts.extend(counts)


def _ranking(order: Iterable[Mapping[str, Any]]) -> tuple[list[ColourValue], list[int]]:
    """A ranking's colours (as proto) and archaeologist counts, in ranking order."""
    entries = list(order)
    return [colour_to_proto(e["colour"]) for e in entries], [e["count"] for e in entries]


def _plot_taken(out: E.PlotTaken, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    out.area = d["area"]
    out.side = _lookup(_SIDE_NAMES, d["side"], "side")
    out.card = d["card"]
    out.patron = patron_to_proto(d["patron"])
    out.points = d["points"]
    out.automatic = d["automatic"]


def _plot_discarded(out: E.PlotDiscarded, d: Mapping[str, Any]) -> None:
    out.area = d["area"]
    out.side = _lookup(_SIDE_NAMES, d["side"], "side")
    out.card = d["card"]
    if d["chosen_by"] is not None:
        out.chosen_by = d["chosen_by"]


def _area_done(out: E.AreaDone, d: Mapping[str, Any]) -> None:
    out.area = d["area"]


def _campaign_ended(out: E.CampaignEnded, d: Mapping[str, Any]) -> None:
    out.campaign = d["campaign"]
    out.next_start_seat = d["next_start_seat"]


def _game_over(out: E.GameOver, d: Mapping[str, Any]) -> None:
    out.scores.extend(d["scores"])
    out.places.extend(d["ranking"])


def _draft_started(out: E.DraftStarted, d: Mapping[str, Any]) -> None:
    out.plots.extend(d["plots"])
    out.patrons.extend([patron_to_proto(code) for code in d["patrons"]])
    out.order.extend(d["order"])


def _drafted(out: E.Drafted, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    out.card = d["card"]
    out.patron = patron_to_proto(d["patron"])


def _draft_discarded(out: E.DraftDiscarded, d: Mapping[str, Any]) -> None:
    out.card = d["card"]
    out.patron = patron_to_proto(d["patron"])


def _set_token_target(out: E.Blocked | E.TokenReturned, name: str) -> None:
    """A blocking token's place (``"f5"`` or ``"exp5"``) into the ``target`` oneof."""
    target = parse_block_target(name)
    if target >= ROOM_TARGET:
        out.room.CopyFrom(room_to_proto(target - ROOM_TARGET))
    else:
        out.space.CopyFrom(space_to_proto(target))


def _blocked(out: E.Blocked, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    _set_token_target(out, d["target"])


def _token_returned(out: E.TokenReturned, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    _set_token_target(out, d["target"])


def _nothing_to_block(out: E.NothingToBlock, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]


def _tokens_retrieved(out: E.TokensRetrieved, d: Mapping[str, Any]) -> None:
    pass  # no fields: being present is the whole event


def _river_ranked(out: E.RiverRanked, d: Mapping[str, Any]) -> None:
    # d["area"] is always -1 (the river is scored before any area): not carried.
    colours, counts = _ranking(d["order"])
    out.order.extend(colours)
    out.counts.extend(counts)


def _nile_card_taken(out: E.NileCardTaken, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    out.row = d["row"]
    out.card = d["card"]
    out.effect = _lookup(_EFFECTS, d["effect"], "Nile card effect")
    out.points = d["points"]
    out.archaeologists = d["archaeologists"]
    out.automatic = d["automatic"]


def _nile_card_discarded(out: E.NileCardDiscarded, d: Mapping[str, Any]) -> None:
    out.row = d["row"]
    out.card = d["card"]
    if d["chosen_by"] is not None:
        out.chosen_by = d["chosen_by"]


def _river_done(out: E.RiverDone, d: Mapping[str, Any]) -> None:
    pass  # no fields: being present is the whole event


def _tie_card_used(out: E.TieCardUsed, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    out.order.extend([colour_to_proto(c) for c in d["order"]])


def _tie_card_kept(out: E.TieCardKept, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]


def _plot_left(out: E.PlotLeft, d: Mapping[str, Any]) -> None:
    out.seat = d["seat"]
    out.area = d["area"]


#: Event kind -> converter, which fills that kind's message in place. Each kind is
#: also the name of its field in the ``event`` oneof of ``MykerinosEvent``.
EVENT_CONVERTERS: dict[str, Callable[[Any, Mapping[str, Any]], None]] = {
    "campaign_started": _campaign_started,
    "placed": _placed,
    "passed": _passed,
    "final_action": _final_action,
    "museum_placed": _museum_placed,
    "area_ranked": _area_ranked,
    "plot_taken": _plot_taken,
    "plot_discarded": _plot_discarded,
    "area_done": _area_done,
    "campaign_ended": _campaign_ended,
    "game_over": _game_over,
    "draft_started": _draft_started,
    "drafted": _drafted,
    "draft_discarded": _draft_discarded,
    "blocked": _blocked,
    "token_returned": _token_returned,
    "nothing_to_block": _nothing_to_block,
    "tokens_retrieved": _tokens_retrieved,
    "river_ranked": _river_ranked,
    "nile_card_taken": _nile_card_taken,
    "nile_card_discarded": _nile_card_discarded,
    "river_done": _river_done,
    "tie_card_used": _tie_card_used,
    "tie_card_kept": _tie_card_kept,
    "plot_left": _plot_left,
}


def event_to_proto(event: Event) -> pb.MykerinosEvent:
    """One core event -> ``MykerinosEvent``.

    Raises:
        ValueError: an event kind this codec does not know (a server bug).
    """
    out = pb.MykerinosEvent()
    fill_event(out, event)
    return out


def fill_event(out: pb.MykerinosEvent, event: Event) -> None:
    """:func:`event_to_proto`, written into an empty ``out`` (the codec's in-place hook).

    Raises:
        ValueError: an event kind this codec does not know (a server bug).
    """
    convert = EVENT_CONVERTERS.get(event.kind)
    if convert is None:
        raise ValueError(f"no protobuf form for Mykerinos event kind {event.kind!r}")
    part = getattr(out, event.kind)
    part.SetInParent()  # the oneof names the kind even when every field is a default
    convert(part, event.data)


# ----------------------------------------------------------------- actions
# Legal-action prompts convert dozens of actions each: spaces and rooms come from
# wire caches, and the codec fills the ``Action`` it returns in place.
_ACTION_SPACES: _WireCache[int] = _WireCache(
    lambda index: pb.MykerinosAction(spaces=[space_to_proto(index)])
)
_ACTION_ROOMS: _WireCache[int] = _WireCache(
    lambda room: pb.MykerinosAction(room=_room_of_value(room))
)


def action_to_proto(action: MykerinosAction) -> pb.MykerinosAction:
    """Core action value -> ``MykerinosAction`` (spaces in the value's order).

    Raises:
        ValueError: the value's kind or argument has no protobuf form.
    """
    out = pb.MykerinosAction()
    fill_action(out, action)
    return out


def fill_action(out: pb.MykerinosAction, action: MykerinosAction) -> None:
    """:func:`action_to_proto`, written into an empty ``out`` (the codec's in-place hook).

    Raises:
        ValueError: the value's kind or argument has no protobuf form.
    """
    kind = action.kind
    out.kind = _lookup(_KINDS, kind, "action kind")
    if action.spaces:
        out.MergeFromString(b"".join([_ACTION_SPACES[s] for s in action.spaces]))
    if kind in ROOM_KINDS:
        out.MergeFromString(_ACTION_ROOMS[action.arg])
    elif kind in SIDE_KINDS:
        if not 0 <= action.arg < len(_SIDES):
            raise ValueError(f"no protobuf form for Mykerinos side {action.arg}")
        out.side = _SIDES[action.arg]
    elif kind == act.DRAFT:
        if action.arg not in PATRONS:
            raise ValueError(f"no protobuf form for a draft of patron {action.arg}")
        out.patron = _PATRONS[action.arg]
    elif kind == act.BLOCK:
        if action.arg >= ROOM_TARGET:
            out.MergeFromString(_ACTION_ROOMS[action.arg - ROOM_TARGET])
        else:
            out.MergeFromString(_ACTION_SPACES[action.arg])


def _room_of_value(room: int) -> pb.MykerinosRoom:
    if not 0 <= room < ROOM_IDS:
        raise ValueError(f"no protobuf form for Mykerinos room id {room}")
    return room_to_proto(room)


def action_from_proto(action: pb.MykerinosAction) -> str:
    """``MykerinosAction`` from a client -> canonical notation.

    Raises:
        MalformedActionError: see :meth:`GameCodec.action_from_proto`.
    """
    kind = action_kind_of(_KIND_OF, action.kind, "MykerinosAction")
    label = _kind_label(action.kind)
    if kind == act.BLOCK:
        words = [kind, _block_target_from_proto(action, label)]
    else:
        sizes = PLACEMENT_SIZES.get(kind, (0,))
        if len(action.spaces) not in sizes:
            want = " or ".join(str(n) for n in sizes)
            raise MalformedActionError(f"{label} takes {want} space(s), got {len(action.spaces)}")
        spaces = [space_from_proto(space) for space in action.spaces]
        if len(set(spaces)) != len(spaces):
            raise MalformedActionError(f"{label} names the same space twice")
        words = [kind, *(space_name(s) for s in sorted(spaces))]
        if kind in ROOM_KINDS:
            if not action.HasField("room"):
                raise MalformedActionError(f"{label} needs a museum room (MykerinosAction.room)")
            words.append(room_name(room_from_proto(action.room)))
        elif action.HasField("room"):
            raise MalformedActionError(f"{label} takes no museum room: leave room unset")
    if kind in SIDE_KINDS:
        side = _SIDE_OF.get(action.side)
        if side is None:
            raise MalformedActionError(
                f"{label} needs side LEFT or RIGHT (a plot) or NILE_ROW_1-3 (a Nile card), "
                f"got {action.side}"
            )
        words.append(SIDES[side])
    elif action.side != pb.MYKERINOS_SIDE_UNSPECIFIED:
        raise MalformedActionError(f"{label} takes no plot side: leave side unspecified")
    if kind == act.DRAFT:
        words.append(PATRON_CODES[_patron_from_proto(action.patron, "patron")])
    elif action.patron != pb.MYKERINOS_PATRON_UNSPECIFIED:
        raise MalformedActionError(f"{label} takes no patron: leave patron unspecified")
    # The core parser has the last word, so the text returned is exactly what
    # Game.parse_action accepts and prints.
    return parse_action(" ".join(words)).notation()


def _block_target_from_proto(action: pb.MykerinosAction, label: str) -> str:
    """BLOCK's target, exactly one of one space or a museum room, as notation."""
    has_room = action.HasField("room")
    if len(action.spaces) + has_room != 1:
        raise MalformedActionError(
            f"{label} takes exactly one target: one space, or a museum room "
            f"(got {len(action.spaces)} space(s) and {'a' if has_room else 'no'} room)"
        )
    if has_room:
        return room_name(room_from_proto(action.room))
    return block_target_name(space_from_proto(action.spaces[0]))


# ------------------------------------------------------------------- codec
#: Published as the ``mykerinos`` entry point of ``senet.codecs``.
MYKERINOS_CODEC = OneofCodec(
    "mykerinos",
    "a Mykerinos",
    MykerinosAction,
    action_from_proto,
    action_to_proto,
    view_to_proto,
    view_from_proto,
    event_to_proto,
    fill_action=fill_action,
    fill_view=fill_view,
    fill_event=fill_event,
)
