"""Archeos Society's direct tensor writer: a seat's observation from the state's fields.

The features of :mod:`senet.rl.archeos.encoding` define the tensor; building a seat's view to
run them over costs most of an environment step (the ``players`` table alone is 1,452
of 1,678 floats at four seats). :class:`ArcheosTensor` writes the same floats from the
state itself, reading only what the view shows that seat: the deck's size (not its
order), the other hands' sizes and their publicly known cards, the seat's own hand,
and the cards it is keeping as a Physician when the turn is its own.

A writer follows one seat through any sequence of states of one match set-up (moves,
clones, afterstates, new episodes): it keeps a copy of what each slice was last
written from, compares, and rewrites only the slices whose source differs (a move
changes a few), each with the same float arithmetic as its feature. Nearly every
slice is a step of a plan (:mod:`senet.rl.cells`), run in one call; the step marker
and the current seat are written here when the plan reports them changed.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, cast

from senet.games import GameState
from senet.games.archeos.actions import BASIS_NAMES
from senet.games.archeos.cards import CARD_NAMES, COLOURS, ROLE_NAMES
from senet.games.archeos.constants import NO_SEAT, OVER, STEPS, seasons_for
from senet.games.archeos.sites import LINGUIST_END, PROFESSOR_TOKENS
from senet.games.archeos.state import ArcheosState
from senet.rl import cells
from senet.rl.archeos.encoding import (
    DECK_SCALE,
    HAND_SCALE,
    LIMIT_SCALE,
    MAX_SEATS,
    MONKEY_SCALE,
    SCORE_SCALE,
    SEASON_SCALE,
    SITE_SCALE,
)
from senet.rl.features import Feature, relative_seat, slices, zeros
from senet.rl.native import preferred

_STEP_INDEX = {step: i for i, step in enumerate(STEPS)}
#: Each Professor token's place in its counts, by the token's value.
_TOKEN_CHANNELS = tuple(
    PROFESSOR_TOKENS.index(value) if value in PROFESSOR_TOKENS else -1
    for value in range(max(PROFESSOR_TOKENS) + 1)
)

#: The plain numbers: feature name, the state's field, and the feature's scale (1.0
#: where it has none: dividing by it leaves ``float(value)``, bit for bit).
_NUMBERS: tuple[tuple[str, str, float], ...] = (
    ("season", "season", SEASON_SCALE),
    ("deck monkey-free top", "monkey_free_top", DECK_SCALE),
    ("monkeys drawn", "monkeys", MONKEY_SCALE),
    ("expedition limit", "exp_limit", LIMIT_SCALE),
    ("expedition advanced", "exp_advanced", 1.0),
    ("in Ur", "in_ur", 1.0),
    ("linguist advances", "linguist_left", 1.0),
    ("keep limit", "keep_limit", 1.0),
    ("Chichen draws", "chichen_draws", 1.0),
)


class ArcheosTensor:
    """Writes one seat's Archeos Society tensor (a :class:`~senet.rl.encoding.DirectTensor`).

    Args:
        features: The encoding's features for this seat count, in order: the writer
            finds each slice by its feature's name.
        seats: The match's seat count.
        engine: The :class:`senet.rl.cells.Cells` class that runs the plan (default:
            its compiled twin where built, :func:`senet.rl.native.preferred`).
    """

    def __init__(self, features: Sequence[Feature], seats: int, engine: Any = None) -> None:
        self._at = {name: start for name, (start, _) in slices(features).items()}
        players = next(f for f in features if f.name == "players")
        self._inner = {name: span for name, span in slices(players.inner or ()).items()}
        self._size = sum(f.size for f in features)
        self._make_zeros("f")
        self._seats = seats
        self._width = players.entry_width
        self._seasons = float(seasons_for(seats)) / SEASON_SCALE
        self._engine: Any = preferred(cells).Cells if engine is None else engine
        self._cells: Any = None
        self._out: array[float] | None = None
        self._viewer = -1
        #: Per seat, the seat counted from the viewer.
        self._relative: list[int] = []
        self._kept: Any = None

    def _start(self, viewer: int, out: array[float]) -> None:
        """Follow ``viewer`` into ``out``: zero it, write what only the seat count
        decides, and lay the plan from the viewer's seat (every slice written next)."""
        seats = self._seats
        self._out = out
        self._viewer = viewer
        self._relative = [relative_seat(s, viewer, seats) for s in range(seats)]
        if out.typecode != self._blank.typecode:
            self._make_zeros(out.typecode)
        out[:] = self._blank
        out[self._at["seasons"]] = self._seasons
        self._cells = self._engine(out, self._plan(viewer))
        self._kept = None

    def _make_zeros(self, typecode: str) -> None:
        """Zeros to clear ``out`` and its slices with, of ``out``'s type."""
        self._blank = zeros(self._size, typecode)
        self._no_cards = zeros(len(CARD_NAMES), typecode)
        self._no_steps = zeros(len(STEPS), typecode)
        self._no_seats = zeros(MAX_SEATS, typecode)

    def _plan(self, viewer: int) -> list[cells.Step]:
        """Every slice but the step and the current seat, for ``viewer``."""
        at, inner, relative = self._at, self._inner, tuple(self._relative)
        entry = [at["players"] + r * self._width for r in relative]

        def each(name: str) -> list[int]:
            return [start + inner[name][0] for start in entry]

        cards, tokens = len(CARD_NAMES), len(PROFESSOR_TOKENS)
        return [
            *(cells.number(field, at[name], scale) for name, field, scale in _NUMBERS),
            cells.custom("step"),
            cells.custom("turn"),
            cells.one_hot("advanced", at["advanced site"], COLOURS),
            cells.one_hot("first_seat", at["first seat"], MAX_SEATS, relative, NO_SEAT),
            cells.one_hot("last_monkey", at["last monkey seat"], MAX_SEATS, relative, NO_SEAT),
            cells.one_hot("exp_basis", at["expedition basis"], len(BASIS_NAMES)),
            cells.length("deck", at["deck size"], DECK_SCALE),
            cells.counts("roles", at["roles in the deck"], len(ROLE_NAMES)),
            cells.counts("display", at["display"], cards),
            cells.counts("supply", at["professor supply"], tokens, _TOKEN_CHANNELS),
            cells.counts("exp_cards", at["expedition cards"], cards),
            cells.counts("ur_queue", at["Ur queue"], MAX_SEATS, relative),
            cells.row_lengths("hands", each("hand size"), HAND_SCALE),
            cells.row_lengths("expeditions", each("expeditions count")),
            cells.row_counts("known", each("known hand"), cards),
            cells.row_vectors("positions", each("sites"), inner["sites"][1], SITE_SCALE),
            cells.row_numbers("score", each("score"), SCORE_SCALE),
            cells.row_numbers("score", [at["scores"] + r for r in relative], SCORE_SCALE),
            cells.row_numbers("linguist", each("linguist"), LINGUIST_END),
            cells.row_vectors("relics", each("relics"), COLOURS),
            cells.row_counts("tokens", each("professor tokens"), tokens, _TOKEN_CHANNELS),
            cells.counts("hands", entry[viewer] + inner["hand"][0], cards, row=viewer),
        ]

    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        if viewer != self._viewer or out is not self._out:
            self._start(viewer, out)
        match = cast(ArcheosState, state)
        if self._cells.sync(match):  # the step or the turn
            self._marker(match, out)
        kept = match.kept if viewer == match.turn else []
        if kept != self._kept:
            self._kept = kept[:]
            at = self._at["players"] + self._relative[viewer] * self._width
            _count(out, at + self._inner["kept"][0], self._no_cards, kept)

    def _marker(self, state: ArcheosState, out: array[float]) -> None:
        """The step, and the current seat (from the step and the turn, none once the
        match is over)."""
        at = self._at["step"]
        out[at : at + len(STEPS)] = self._no_steps
        out[at + _STEP_INDEX[state.step]] = 1.0
        at = self._at["current seat"]
        out[at : at + MAX_SEATS] = self._no_seats
        if state.step != OVER and state.turn != NO_SEAT:
            out[at + self._relative[state.turn]] = 1.0


def _count(out: array[float], at: int, blank: array[float], entries: list[int]) -> None:
    """A count of ``entries`` (each an index into the slice at ``at``), as ``counts``
    writes it: one ``+= 1.0`` per entry over zeros."""
    out[at : at + len(blank)] = blank
    for entry in entries:
        out[at + entry] += 1.0
