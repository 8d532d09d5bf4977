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
nearly always changed, the rest less often (the region once a campaign).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress
from operator import ne
from typing import Any, cast

from senet.games import GameState
from senet.games.mykerinos.constants import COLOURS, DIGGING, EMPTY, OVER, PHASES
from senet.games.mykerinos.museum import ROOM_IDS, ring_rooms, room_value
from senet.games.mykerinos.patrons import PATRON_CODES
from senet.games.mykerinos.plots import PLOT_CARDS
from senet.games.mykerinos.region import MAX_SPACES
from senet.games.mykerinos.state import MykerinosState
from senet.rl.features import Feature, relative_seat, slices

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
#: The per-seat fields of the state the players table is written from.
_PLAYER_FIELDS = ("prestige", "personal", "cards", "used", "won", "nile_won", "tokens", "active")
#: What a section was last written from before its first write: equal to nothing.
_UNSEEN: Any = object()


class MykerinosTensor:
    """Writes one seat's Mykerinos tensor from a state (a :class:`DirectTensor`).

    Args:
        seats: The match's seat count.
        features: The encoding's features for ``seats``: the sections' offsets and
            widths are read from them, by name.

    Raises:
        ValueError: the players' entry is not laid out as this writer writes it.
    """

    def __init__(self, seats: int, features: Sequence[Feature]) -> None:
        self.seats = seats
        laid = slices(features)
        at = {name: start for name, (start, _) in laid.items()}
        size = {name: width for name, (_, width) in laid.items()}
        self._at = at
        self._zero = array("d", bytes(8 * sum(size.values())))
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
        #: Where each seat's entry starts (its slot's).
        self._player_base: tuple[int, ...] = ()
        self._viewer = -1
        self._out: array[float] | None = None
        #: Each seat's slot, counted from the viewer.
        self._slot: tuple[int, ...] = ()
        #: Each colour's owner channel: its seat's slot, else the last channel.
        self._channel: tuple[int, ...] = ()
        self._seen_head: Any = _UNSEEN
        self._seen_slots: Any = _UNSEEN
        self._seen_nile: Any = _UNSEEN
        self._seen_board: list[int] = []
        self._seen_wings: list[int] = []
        self._seen_museum: list[int] = []
        self._seen_general: Any = _UNSEEN
        self._seen_deck: Any = _UNSEEN
        self._seen_players: dict[str, Any] = {}
        self._seen_scores: Any = _UNSEEN

    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        """Leave in ``out`` the features' encoding of ``viewer``'s view of ``state``."""
        s = cast(MykerinosState, state)
        if viewer != self._viewer or out is not self._out:
            self._start(viewer, out)
        head = (s.phase, s.campaign, s.turn, s.start_seat, s.final_seat, s.options)
        if head != self._seen_head:
            self._seen_head = (*head[:-1], dict(s.options))
            self._write_head(s, out)
        # The pyramids and the river are laid from the plots and the Nile cards (the
        # core's view_sources say so too): they change only with those.
        nile_laid = (s.nile_rows, s.nile_rotated)
        if s.slots != self._seen_slots or nile_laid != self._seen_nile:
            self._seen_slots = list(s.slots)
            self._seen_nile = (list(s.nile_rows), list(s.nile_rotated))
            self._write_terrain(s, out)
        if s.board != self._seen_board:
            self._write_occupied(s.board, out)
        if s.museum != self._seen_museum or s.wing_order != self._seen_wings:
            self._write_rooms(s, out)
        if s.general != self._seen_general:
            self._seen_general = list(s.general)
            self._write_general(s.general, out)
        deck = len(s.deck)
        if deck != self._seen_deck:
            self._seen_deck = deck
            out[self._at["deck size"]] = float(deck) / 40
        self._write_players(s, out)
        if s.final is not None:  # the final totals: written at every call of the last ones
            self._seen_scores = _UNSEEN
            self._write_scores(s.scores(), out)
        elif s.prestige != self._seen_scores:  # the scores are the prestige, by team
            self._seen_scores = list(s.prestige)
            self._write_scores(s.scores(), out)

    def _start(self, viewer: int, out: array[float]) -> None:
        """Zero ``out`` and forget what every section was written from: a new viewer
        or array (the first call) has every section written."""
        self._viewer = viewer
        self._out = out
        out[:] = self._zero
        seats, owners = self.seats, self._owners
        self._slot = tuple(relative_seat(seat, viewer, seats) for seat in range(seats))
        self._channel = tuple(
            self._slot[colour] if colour < seats else owners - 1 for colour in range(COLOURS)
        )
        width, players = self._player_width, self._at["players"]
        self._player_base = tuple(players + slot * width for slot in self._slot)
        self._seen_head = self._seen_slots = self._seen_nile = _UNSEEN
        self._seen_general = self._seen_deck = self._seen_scores = _UNSEEN
        self._seen_board, self._seen_wings, self._seen_museum = [], [], []
        self._seen_players = {name: [_UNSEEN] * seats for name in _PLAYER_FIELDS}
        self._seen_players["digging"] = _UNSEEN

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
        if s.phase != OVER and s.turn >= 0:
            out[at["current seat"] + slot[s.turn]] = 1.0
        if s.start_seat >= 0:
            out[at["start seat"] + slot[s.start_seat]] = 1.0
        if s.final_seat >= 0 and s.phase in DIGGING:
            out[at["final action seat"] + slot[s.final_seat]] = 1.0

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

    def _write_occupied(self, board: list[int], out: array[float]) -> None:
        """Who stands on each space, written again only on the spaces that changed."""
        at, owners, channel = self._at["occupied"], self._owners, self._channel
        seen = self._seen_board
        if len(seen) != len(board):  # a new region (or the first call)
            out[at : at + MAX_SPACES * owners] = self._zero[: MAX_SPACES * owners]
            seen = [EMPTY] * len(board)
        # The spaces that changed are found in C (a move changes one to three of
        # the region's spaces): a Python pass over every space cost a fifth of a step.
        for space in compress(range(len(board)), map(ne, board, seen)):
            base = at + space * owners
            was, now = seen[space], board[space]
            if was != EMPTY:
                out[base + channel[was]] = 0.0
            if now != EMPTY:
                out[base + channel[now]] = 1.0
        self._seen_board = list(board)

    def _write_rooms(self, s: MykerinosState, out: array[float]) -> None:
        """The museum's rooms: there, value, and who stands in each. The rooms are
        laid again only when the wings move (a new match); otherwise only the rooms
        whose occupant changed are visited."""
        start, end = self._rooms
        width, channel, museum = self._room_width, self._channel, s.museum
        if s.wing_order != self._seen_wings:
            self._seen_wings = list(s.wing_order)
            self._seen_museum = [EMPTY] * len(museum)
            out[start:end] = self._zero[start:end]
            for room in ring_rooms(s.wing_order):
                base = start + room * width
                out[base] = 1.0
                out[base + 1] = room_value(room) / 5
        for room, (now, was) in enumerate(zip(museum, self._seen_museum, strict=True)):
            if now != was:
                base = start + room * width + 2
                if was != EMPTY:
                    out[base + channel[was]] = 0.0
                if now != EMPTY:
                    out[base + channel[now]] = 1.0
        self._seen_museum = list(museum)

    def _write_general(self, general: list[int], out: array[float]) -> None:
        at = self._at["general reserve"]
        for colour, count in enumerate(general):
            out[at + colour] = float(count) / 25

    def _write_players(self, s: MykerinosState, out: array[float]) -> None:
        """Each seat's entry of the players table, field by field: a field is written
        again only when it changed, and then only for the seats whose value did."""
        seen, base = self._seen_players, self._player_base
        personal, was = s.personal, seen["personal"]
        if personal != was:  # nearly every round of turns: spelled out
            for seat, reserve in enumerate(personal):
                if reserve != was[seat]:
                    was[seat] = list(reserve)
                    at = base[seat] + _RESERVE
                    out[at : at + COLOURS] = _tenths(tuple(reserve))
        if s.used != seen["used"]:
            for seat in _update_rows(s.used, seen["used"]):
                at = base[seat] + _USED
                out[at : at + _PATRONS] = array("d", s.used[seat])
        if s.cards != seen["cards"]:
            for seat in _update_rows(s.cards, seen["cards"]):
                at = base[seat] + _CARDS
                out[at : at + _PATRONS] = array("d", s.cards[seat])
        if s.won != seen["won"]:
            for seat in _update_rows(s.won, seen["won"]):
                out[base[seat] + _PLOTS_WON] = float(len(s.won[seat]))
        if s.prestige != seen["prestige"]:
            for seat in _update_rows(s.prestige, seen["prestige"]):
                out[base[seat] + _PRESTIGE] = float(s.prestige[seat] or 0) / 50
        digging = s.phase in DIGGING
        if s.active != seen["active"] or digging != seen["digging"]:
            seen["active"], seen["digging"] = list(s.active), digging
            for seat, active in enumerate(s.active):
                out[base[seat] + _ACTIVE] = float(active and digging)
        if s.nile_won != seen["nile_won"]:
            for seat in _update_rows(s.nile_won, seen["nile_won"]):
                out[base[seat] + _NILE_CARDS] = float(len(s.nile_won[seat]))
        if s.tokens != seen["tokens"]:
            for seat in _update_rows(s.tokens, seen["tokens"]):
                out[base[seat] + _TOKENS] = float(s.tokens[seat] or 0)

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


def _update_rows(rows: list[Any], seen: list[Any]) -> list[int]:
    """The seats whose entry of ``rows`` differs from ``seen``'s, which then holds a
    copy of each changed entry."""
    changed = []
    for seat, row in enumerate(rows):
        if row != seen[seat]:
            seen[seat] = list(row) if type(row) is list else row
            changed.append(seat)
    return changed


@lru_cache(maxsize=4096)
def _tenths(counts: tuple[int, ...]) -> array[float]:
    """A reserve's counts as the ``counts`` feature writes them (``count / 10``), kept
    for the next seat with the same reserve (never changed: tensors copy from it)."""
    return array("d", [float(count) / 10 for count in counts])
