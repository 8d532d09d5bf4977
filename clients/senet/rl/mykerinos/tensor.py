"""Mykerinos' direct tensor writer: a seat's observation from the state's fields.

The features in :mod:`senet.rl.mykerinos.encoding` define the tensor; this writer computes the
same floats without building the view first (see :meth:`RlEncoding.direct_tensor`).
It reads what ``MykerinosState.view`` reads for the tensor's features. Every seat
sees the same view; what no seat sees is the order of the plot deck and of the Nile
decks, and of those the writer reads only the plot deck's length (the view's
``deck_size``).

The tensor is cut into sections, each with the state's values it is written from.
A call compares those values with the ones the section was last written from (by
value, never by identity, so that clones and afterstates in any order are handled)
and rewrites only the sections that differ. A seat's writer sees the state once per
round of turns, after every other seat has played: the board and the reserves have
nearly always changed, the rest less often (the region once a campaign). Most
sections are steps of a plan (:mod:`senet.rl.cells`), compared and written in one
call; the plan reports the fields of the rest (the head, the terrain, the museum's
rooms, the active seats and the scores), written here.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, cast

from senet.games import GameState
from senet.games.mykerinos.constants import COLOURS, DIGGING, EMPTY, OVER, PHASES
from senet.games.mykerinos.museum import ROOM_IDS, ring_rooms, room_value
from senet.games.mykerinos.patrons import PATRON_CODES
from senet.games.mykerinos.plots import PLOT_CARDS
from senet.games.mykerinos.region import MAX_SPACES
from senet.games.mykerinos.state import MykerinosState
from senet.rl import cells
from senet.rl.features import Feature, relative_seat, slices, zeros
from senet.rl.native import preferred

#: The option features' names start so; the rest of the name is the option's.
_OPTION = "option "
#: A plot's floats, as the encoding lays them: there, points, rotated, then its patron.
_PLOT_WIDTH = 3 + len(PATRON_CODES)
#: Each plot card's patron index (``None`` for the 5-point card) and points.
_PLOT_FACTS = tuple(
    (None if card.patron is None else int(card.patron), card.points) for card in PLOT_CARDS
)
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_PATRONS = len(PATRON_CODES)
#: A player's entry as :meth:`MykerinosTensor._write_players` lists it: each inner
#: feature's name and size, in the order the encoding must declare them.
_PLAYER_LAYOUT = (
    ("prestige", 1),
    ("reserve", COLOURS),
    *((f"patron {code} cards", 1) for code in PATRON_CODES),
    *((f"patron {code} used", 1) for code in PATRON_CODES),
    ("plots won", 1),
    ("nile cards", 1),
    ("blocking tokens", 1),
    ("active", 1),
)
_ENTRY_AT = {
    name: sum(size for _, size in _PLAYER_LAYOUT[:i]) for i, (name, _) in enumerate(_PLAYER_LAYOUT)
}
_PRESTIGE, _RESERVE = _ENTRY_AT["prestige"], _ENTRY_AT["reserve"]
_CARDS, _USED = (
    _ENTRY_AT[f"patron {PATRON_CODES[0]} cards"],
    _ENTRY_AT[f"patron {PATRON_CODES[0]} used"],
)
_PLOTS_WON, _NILE_CARDS = _ENTRY_AT["plots won"], _ENTRY_AT["nile cards"]
_TOKENS, _ACTIVE = _ENTRY_AT["blocking tokens"], _ENTRY_AT["active"]
#: The fields the head (options, phase, campaigns, seats) and the terrain (plots,
#: pyramids, river) are written from.
_HEAD = ("phase", "campaign", "start_seat", "final_seat", "options")
_TERRAIN = ("slots", "nile_rows", "nile_rotated")


class MykerinosTensor:
    """Writes one seat's Mykerinos tensor from a state (a :class:`DirectTensor`).

    Args:
        seats: The match's seat count.
        features: The encoding's features for ``seats``: the sections' offsets and
            widths are read from them, by name.
        engine: The :class:`senet.rl.cells.Cells` class that runs the plan (default:
            its compiled twin where built, :func:`senet.rl.native.preferred`).

    Raises:
        ValueError: the players' entry is not laid out as this writer writes it.
    """

    def __init__(self, seats: int, features: Sequence[Feature], engine: Any = None) -> None:
        self.seats = seats
        laid = slices(features)
        at = {name: start for name, (start, _) in laid.items()}
        size = {name: width for name, (_, width) in laid.items()}
        self._at = at
        self._size = size
        #: Zeros to clear ``out`` and its slices with, of ``out``'s type.
        self._zero = zeros(sum(size.values()))
        self._options = tuple(
            (name.removeprefix(_OPTION), at[name]) for name in at if name.startswith(_OPTION)
        )
        self._head = (self._options[0][1], at["final action seat"] + size["final action seat"])
        self._terrain = (at["plots"], at["river"] + size["river"])
        self._owners = size["occupied"] // MAX_SPACES
        self._rooms = (at["museum rooms"], at["museum rooms"] + size["museum rooms"])
        self._room_width = size["museum rooms"] // ROOM_IDS
        players = next(f for f in features if f.name == "players")
        _check_player_layout(players)
        self._player_width = players.entry_width
        self._engine: Any = preferred(cells).Cells if engine is None else engine
        self._cells: Any = None
        #: Where each seat's entry starts (its slot's).
        self._player_base: tuple[int, ...] = ()
        self._viewer = -1
        self._out: array[float] | None = None
        #: Each seat's slot, counted from the viewer.
        self._slot: tuple[int, ...] = ()
        #: The plan's custom steps' positions, by field.
        self._custom: dict[str, int] = {}
        #: Whether the last call wrote the final totals (the scores are then written
        #: again at the next call, whatever changed).
        self._final = False

    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        """Leave in ``out`` the features' encoding of ``viewer``'s view of ``state``."""
        s = cast(MykerinosState, state)
        if viewer != self._viewer or out is not self._out:
            self._start(viewer, out)
        changed = self._cells.sync(s)
        if changed:
            custom = self._custom
            fields = {name for name, position in custom.items() if position in changed}
            if not fields.isdisjoint(_HEAD):
                self._write_head(s, out)
            elif "turn" in fields:  # (nearly every call: the current seat alone)
                self._write_current(s, out)
            # The pyramids and the river are laid from the plots and the Nile cards
            # (the core's view_sources say so too): they change only with those.
            if not fields.isdisjoint(_TERRAIN):
                self._write_terrain(s, out)
            if "wing_order" in fields:
                self._write_wings(s.wing_order, out)
            if "active" in fields or "phase" in fields:
                self._write_active(s, out)
            if "prestige" in fields and s.final is None:  # the scores: the prestige, by team
                self._write_scores(s.scores(), out)
        if s.final is not None or self._final:  # the final totals: at every call of the last ones
            self._final = s.final is not None
            self._write_scores(s.scores(), out)

    def _start(self, viewer: int, out: array[float]) -> None:
        """Zero ``out`` and lay the plan from the viewer's seat: a new viewer or
        array (the first call) has every section written."""
        self._viewer = viewer
        self._out = out
        if out.typecode != self._zero.typecode:
            self._zero = zeros(len(self._zero), out.typecode)
        out[:] = self._zero
        seats, owners = self.seats, self._owners
        self._slot = tuple(relative_seat(seat, viewer, seats) for seat in range(seats))
        channel = tuple(
            self._slot[colour] if colour < seats else owners - 1 for colour in range(COLOURS)
        )
        width, players = self._player_width, self._at["players"]
        self._player_base = tuple(players + slot * width for slot in self._slot)
        self._final = False
        plan = self._plan(channel)
        self._custom = {step.field: i for i, step in enumerate(plan) if step.kind == cells.CUSTOM}
        self._cells = self._engine(out, plan)

    def _plan(self, channel: tuple[int, ...]) -> list[cells.Step]:
        """The sections written by the engine, and the fields of the rest (custom)."""
        at, size, base = self._at, self._size, self._player_base

        def each(offset: int) -> list[int]:
            return [start + offset for start in base]

        rooms, room_width = self._rooms[0], self._room_width
        return [
            *(cells.custom(field) for field in (*_HEAD, "turn", *_TERRAIN, "wing_order")),
            cells.owners(
                "board", at["occupied"], MAX_SPACES * self._owners, self._owners, channel, EMPTY
            ),
            # A room's occupant channels follow its two cells (there, value).
            cells.owners(
                "museum",
                rooms,
                ROOM_IDS * room_width,
                room_width,
                tuple(2 + c for c in channel),
                EMPTY,
            ),
            cells.vector("general", at["general reserve"], size["general reserve"], 25),
            cells.length("deck", at["deck size"], 40),
            cells.row_vectors("personal", each(_RESERVE), COLOURS, 10),
            cells.row_vectors("used", each(_USED), _PATRONS),
            cells.row_vectors("cards", each(_CARDS), _PATRONS),
            cells.row_lengths("won", each(_PLOTS_WON)),
            cells.row_numbers("prestige", each(_PRESTIGE), 50),
            cells.custom("active"),
            cells.row_lengths("nile_won", each(_NILE_CARDS)),
            cells.row_numbers("tokens", each(_TOKENS)),
            cells.custom("prestige"),
        ]

    def _write_head(self, s: MykerinosState, out: array[float]) -> None:
        """The options, the phase, the campaigns and the three seats."""
        start, end = self._head
        out[start:end] = self._zero[start:end]
        at, slot = self._at, self._slot
        for name, offset in self._options:
            out[offset] = float(s.options.get(name) or 0)
        out[at["phase"] + _PHASE_INDEX[s.phase]] = 1.0
        out[at["campaign"]] = float(s.campaign or 0) / 4
        out[at["campaigns"]] = float(len(s.campaign_plot_counts())) / 4
        self._write_current(s, out)
        if s.start_seat >= 0:
            out[at["start seat"] + slot[s.start_seat]] = 1.0
        if s.final_seat >= 0 and s.phase in DIGGING:
            out[at["final action seat"] + slot[s.final_seat]] = 1.0

    def _write_current(self, s: MykerinosState, out: array[float]) -> None:
        """The current seat (none once the match is over)."""
        at, width = self._at["current seat"], self._size["current seat"]
        out[at : at + width] = self._zero[:width]
        if s.phase != OVER and s.turn >= 0:
            out[at + self._slot[s.turn]] = 1.0

    def _write_terrain(self, s: MykerinosState, out: array[float]) -> None:
        """The plots (there, points, rotated, patron), the pyramids and the river."""
        start, end = self._terrain
        out[start:end] = self._zero[start:end]
        plots = self._at["plots"]
        for slot, (card, rotated) in enumerate(s.slots):
            patron, points = _PLOT_FACTS[card]
            base = plots + slot * _PLOT_WIDTH
            out[base] = 1.0
            out[base + 1] = points / 5
            out[base + 2] = float(rotated)
            if patron is not None:
                out[base + 3 + patron] = 1.0
        pyramids = self._at["pyramids"]
        for space, on in enumerate(s.pyramid):
            if on:
                out[pyramids + space] = 1.0
        if s.with_nile:  # the view shows the river with The Nile only
            river = self._at["river"]
            for space, on in enumerate(s.river):
                if on:
                    out[river + space] = 1.0

    def _write_wings(self, wing_order: list[int], out: array[float]) -> None:
        """Each room's first two cells: there (on the museum's ring), and its value.
        (Who stands in it is the plan's.)"""
        start, width = self._rooms[0], self._room_width
        for room in range(ROOM_IDS):
            out[start + room * width] = out[start + room * width + 1] = 0.0
        for room in ring_rooms(wing_order):
            base = start + room * width
            out[base] = 1.0
            out[base + 1] = room_value(room) / 5

    def _write_active(self, s: MykerinosState, out: array[float]) -> None:
        """Whether each seat still digs (no seat does outside the digging phases)."""
        digging = s.phase in DIGGING
        for seat, active in enumerate(s.active):
            out[self._player_base[seat] + _ACTIVE] = float(active and digging)

    def _write_scores(self, scores: list[int], out: array[float]) -> None:
        at = self._at["scores"]
        for seat, score in enumerate(scores):
            out[at + self._slot[seat]] = float(score or 0) / 50


def _check_player_layout(players: Feature) -> None:
    """Raise ``ValueError`` unless the players' entry is laid out as
    :meth:`MykerinosTensor._write_players` writes it (a changed encoding must change
    the writer too; the tests would catch it, this names it)."""
    declared = tuple((feature.name, feature.size) for feature in players.inner or ())
    if declared != _PLAYER_LAYOUT:
        raise ValueError(f"players' entry {declared} is not the direct writer's {_PLAYER_LAYOUT}")
