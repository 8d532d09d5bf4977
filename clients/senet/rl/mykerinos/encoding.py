"""Mykerinos for learning agents: its action space and observation features.

Actions: every placement of every kind on every chain of spaces of the largest
region (built from the core's shape tables, kept when its spaces are adjacent on the
grid), then the room, side, draft and blocking actions from the core's tables, then
the bare actions. One space serves every seat count and variant, so a policy moves
between them (actions a variant never allows are simply never legal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from senet.games import Action, Game
from senet.games.mykerinos import actions as act
from senet.games.mykerinos.constants import COLOUR_NAMES, PHASES
from senet.games.mykerinos.museum import ROOM_IDS, room_name
from senet.games.mykerinos.patrons import PATRON_CODES
from senet.games.mykerinos.placements import PAIR_SHAPES, TRIPLE_SHAPES
from senet.games.mykerinos.region import COLUMNS, MAX_AREA_ROWS, MAX_SPACES, SPACE_NAMES
from senet.rl import cells
from senet.rl.encoding import DirectTensor, RlEncoding
from senet.rl.features import (
    Feature,
    Out,
    View,
    counts,
    custom,
    number,
    one_hot,
    players_and_scores,
    relative_seat,
    seat,
    size_of,
)
from senet.rl.mykerinos import tensor
from senet.rl.native import preferred

MAX_SEATS = 4
#: Owners of a space or room: the seats relative to the viewer, then anyone else
#: (the neutral player, a colour no seat plays).
OWNERS = MAX_SEATS + 1
PLOTS = MAX_AREA_ROWS * 2 * 2
SHAPES = {1: ((),), 2: PAIR_SHAPES, 3: TRIPLE_SHAPES}


def _chain(spaces: Sequence[int]) -> bool:
    """Whether ``spaces`` lie on the region and each touches another (no wrapped row)."""
    if any(not 0 <= s < MAX_SPACES for s in spaces):
        return False
    cells = [divmod(s, COLUMNS) for s in spaces]
    return (
        all(any(abs(r - r2) + abs(c - c2) == 1 for r2, c2 in cells) for r, c in cells)
        or len(cells) == 1
    )


def _candidates() -> Iterator[Action]:
    for kind, sizes in act.PLACEMENT_SIZES.items():
        for size in sizes:
            for first in range(MAX_SPACES):
                for offsets in SHAPES[size]:
                    spaces = (first, *(first + d for d in offsets))
                    if _chain(spaces):
                        yield act.placement(kind, *spaces)
    for table in (*act.ROOM_ACTIONS.values(), *act.SIDE_ACTIONS.values(), act.DRAFT_ACTIONS):
        yield from table
    yield from act.BLOCK_ACTIONS.values()
    for kind in act.BARE_KINDS:
        yield act.MykerinosAction(kind)


def _owner_slots(view: View) -> dict[str, int]:
    """The owner channel of each player's colour: its relative seat (any other colour
    is the last channel, ``OWNERS - 1``)."""
    viewer, seats = view["viewer"] or 0, view["seats"]
    # Reversed, so that the first player of a colour decides, as a scan would.
    # A player's seat is its place in the list (its entry's ``seat``), so only the
    # colours are read, as the features that call this declare.
    players = list(enumerate(view.get("players") or ()))
    return {
        player.get("colour"): relative_seat(place, viewer, seats)
        for place, player in reversed(players)
    }


_SPACE_INDEX = {name: i for i, name in enumerate(SPACE_NAMES)}
_ROOM_INDEX = {room_name(i): i for i in range(ROOM_IDS)}
#: What :func:`_owner_slots` reads: each player's colour (a seat is its place in the list).
_COLOURS = tuple(("players", seat, "colour") for seat in range(MAX_SEATS))


def _write_occupied(view: View, out: Out, at: int) -> None:
    slots = _owner_slots(view)
    for space, colour in (view.get("occupied") or {}).items():
        out[at + _SPACE_INDEX[space] * OWNERS + slots.get(colour, OWNERS - 1)] = 1.0


def _write_rooms(view: View, out: Out, at: int) -> None:
    slots = _owner_slots(view)
    for room in (view.get("museum") or {}).get("rooms") or ():
        base = at + _ROOM_INDEX[room["room"]] * (OWNERS + 2)
        out[base] = 1.0  # the room is in this museum
        out[base + 1] = room["value"] / 5
        if room["occupant"] is not None:
            out[base + 2 + slots.get(room["occupant"], OWNERS - 1)] = 1.0


def _write_plots(view: View, out: Out, at: int) -> None:
    width = 3 + len(PATRON_CODES)
    for plot in ((view.get("region") or {}).get("plots")) or ():
        base = at + plot["slot"] * width
        out[base] = 1.0
        out[base + 1] = plot["points"] / 5
        out[base + 2] = float(plot["rotated"])
        if plot["patron"] is not None:
            out[base + 3 + PATRON_CODES.index(plot["patron"])] = 1.0


_PLAYER: tuple[Feature, ...] = (
    number("prestige", "prestige", scale=50),
    counts("reserve", "reserve", vocabulary=COLOUR_NAMES, scale=10),
    *(number(f"patron {code} cards", "patrons", code, "cards") for code in PATRON_CODES),
    *(number(f"patron {code} used", "patrons", code, "used") for code in PATRON_CODES),
    size_of("plots won", "plots_won"),
    size_of("nile cards", "nile_cards"),
    number("blocking tokens", "tokens"),
    number("active", "active"),
)


class MykerinosEncoding(RlEncoding):
    """Mykerinos' action space and observation features."""

    game_id = "mykerinos"
    version = 1
    native_modules = ("senet.rl.cells", "senet.rl.mykerinos.tensor")

    def action_candidates(
        self, game: Game, seats: int, options: Mapping[str, Any]
    ) -> Iterator[Action]:
        return _candidates()

    def features(self, seats: int, options: Mapping[str, Any]) -> Sequence[Feature]:
        return (
            *(
                number(f"option {name}", "options", name)
                for name in ("nile", "team", "quick", "classic")
            ),
            one_hot("phase", "phase", vocabulary=PHASES),
            number("campaign", "campaign", scale=4),
            number("campaigns", "campaigns", scale=4),
            seat("current seat", "current_seat", max_seats=MAX_SEATS),
            seat("start seat", "start_seat", max_seats=MAX_SEATS),
            seat("final action seat", "final_action_seat", max_seats=MAX_SEATS),
            custom("plots", PLOTS * (3 + len(PATRON_CODES)), _write_plots, [("region", "plots")]),
            counts("pyramids", "region", "pyramids", vocabulary=SPACE_NAMES),
            counts("river", "region", "river", vocabulary=SPACE_NAMES),
            custom("occupied", MAX_SPACES * OWNERS, _write_occupied, [("occupied",), *_COLOURS]),
            custom(
                "museum rooms",
                ROOM_IDS * (OWNERS + 2),
                _write_rooms,
                [("museum", "rooms"), *_COLOURS],
            ),
            counts("general reserve", "general_reserve", vocabulary=COLOUR_NAMES, scale=25),
            number("deck size", "deck_size", scale=40),
            *players_and_scores(_PLAYER, MAX_SEATS, score_scale=50),
        )

    def direct_tensor(
        self, seats: int, options: Mapping[str, Any]
    ) -> Callable[[], DirectTensor] | None:
        """Writers of a seat's tensor from the state's fields (see
        :mod:`senet.rl.mykerinos.tensor`), laid out by these features, on
        :class:`senet.rl.cells.Cells` (each compiled where its twin is built)."""
        writer: type[tensor.MykerinosTensor] = preferred(tensor).MykerinosTensor
        return partial(writer, seats, self.features(seats, options), preferred(cells).Cells)


MYKERINOS_RL = MykerinosEncoding()
