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
changes a few), each with the same float arithmetic as its feature.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from operator import attrgetter
from typing import Any, cast

from senet.games import GameState
from senet.games.archeos.actions import BASIS_NAMES
from senet.games.archeos.cards import CARD_NAMES, COLOURS, ROLE_NAMES
from senet.games.archeos.constants import NO_SEAT, OVER, STEPS, seasons_for
from senet.games.archeos.sites import LINGUIST_END, PROFESSOR_TOKENS
from senet.games.archeos.state import ArcheosState
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
from senet.rl.features import Feature, relative_seat, slices

#: What no cached copy equals: the next call writes that slice.
_UNSEEN: Any = object()

_STEP_INDEX = {step: i for i, step in enumerate(STEPS)}
_TOKEN_INDEX = {token: i for i, token in enumerate(PROFESSOR_TOKENS)}

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
_read_numbers = attrgetter(*(field for _, field, _ in _NUMBERS))
#: The fields the one-hot blocks are written from (see :meth:`ArcheosTensor._markers`).
_read_markers = attrgetter("advanced", "step", "turn", "first_seat", "last_monkey", "exp_basis")


def _zeros(size: int) -> array[float]:
    return array("d", bytes(8 * size))


_NO_CARDS = _zeros(len(CARD_NAMES))
_NO_ROLES = _zeros(len(ROLE_NAMES))
_NO_COLOURS = _zeros(COLOURS)
_NO_STEPS = _zeros(len(STEPS))
_NO_TOKENS = _zeros(len(PROFESSOR_TOKENS))
_NO_BASES = _zeros(len(BASIS_NAMES))
_NO_SEATS = _zeros(MAX_SEATS)


def _count(out: array[float], at: int, zeros: array[float], entries: list[int]) -> None:
    """A count of ``entries`` (each an index into the slice at ``at``), as ``counts``
    writes it: one ``+= 1.0`` per entry over zeros."""
    out[at : at + len(zeros)] = zeros
    for entry in entries:
        out[at + entry] += 1.0


def _one_hot(out: array[float], at: int, zeros: array[float], index: int | None) -> None:
    """A one-hot block, all zeros when ``index`` is ``None``."""
    out[at : at + len(zeros)] = zeros
    if index is not None:
        out[at + index] = 1.0


def _changed_rows(table: list[Any], seen: list[Any]) -> list[int]:
    """The seats whose entry of ``table`` (a number or a list) differs from its copy
    in ``seen``, which then holds a copy of every entry."""
    changed = []
    for s, row in enumerate(table):
        if row != seen[s]:
            seen[s] = row[:] if type(row) is list else row
            changed.append(s)
    return changed


class ArcheosTensor:
    """Writes one seat's Archeos Society tensor (a :class:`~senet.rl.encoding.DirectTensor`).

    Args:
        features: The encoding's features for this seat count, in order: the writer
            finds each slice by its feature's name.
        seats: The match's seat count.
    """

    def __init__(self, features: Sequence[Feature], seats: int) -> None:
        at = {name: start for name, (start, _) in slices(features).items()}
        players = next(f for f in features if f.name == "players")
        inner = {name: start for name, (start, _) in slices(players.inner or ()).items()}
        self._blank = _zeros(sum(f.size for f in features))
        self._seats = seats
        self._width = players.entry_width
        self._players_at = at["players"]
        self._numbers_at = tuple(at[name] for name, _, _ in _NUMBERS)
        self._scales = tuple(scale for _, _, scale in _NUMBERS)
        self._deck_at = at["deck size"]
        self._seasons_at = at["seasons"]
        self._seasons = float(seasons_for(seats)) / SEASON_SCALE
        self._roles_at = at["roles in the deck"]
        self._advanced_at = at["advanced site"]
        self._step_at = at["step"]
        self._current_at = at["current seat"]
        self._first_at = at["first seat"]
        self._last_monkey_at = at["last monkey seat"]
        self._display_at = at["display"]
        self._supply_at = at["professor supply"]
        self._cards_at = at["expedition cards"]
        self._basis_at = at["expedition basis"]
        self._ur_queue_at = at["Ur queue"]
        self._scores_start = at["scores"]
        self._score_in = inner["score"]
        self._size_in = inner["hand size"]
        self._known_in = inner["known hand"]
        self._sites_in = inner["sites"]
        self._linguist_in = inner["linguist"]
        self._relics_in = inner["relics"]
        self._tokens_in = inner["professor tokens"]
        self._expeditions_in = inner["expeditions count"]
        self._hand_in = inner["hand"]
        self._kept_in = inner["kept"]
        self._out: array[float] | None = None
        self._viewer = -1
        # Per seat (entry i is seat i's), set once the viewer is known: the seat
        # counted from the viewer, and where its entry of ``players`` starts.
        self._relative: list[int] = []
        self._entry: list[int] = []
        self._offsets()
        self._forget()

    def _offsets(self) -> None:
        """Per seat (entry i is seat i's), where each of its ``players`` slices starts."""
        entry = self._entry
        self._score_at = [at + self._score_in for at in entry]
        self._scores_at = [self._scores_start + r for r in self._relative]
        self._size_at = [at + self._size_in for at in entry]
        self._known_at = [at + self._known_in for at in entry]
        self._sites_at = [at + self._sites_in for at in entry]
        self._linguist_at = [at + self._linguist_in for at in entry]
        self._relics_at = [at + self._relics_in for at in entry]
        self._tokens_at = [at + self._tokens_in for at in entry]
        self._expeditions_at = [at + self._expeditions_in for at in entry]

    def _forget(self) -> None:
        """Drop every cached copy, so that the next call writes every slice."""
        unseen = [_UNSEEN] * self._seats
        self._numbers = (_UNSEEN,) * len(_NUMBERS)
        self._marked = (_UNSEEN,) * 6
        self._deck = self._roles = self._display = self._supply = _UNSEEN
        self._cards = self._ur_queue = self._hand = self._kept = _UNSEEN
        # Per seat, the copy of its entry of each per-seat list or table.
        self._score: list[Any] = unseen[:]
        self._sizes: list[Any] = unseen[:]
        self._known: list[Any] = unseen[:]
        self._positions: list[Any] = unseen[:]
        self._linguist: list[Any] = unseen[:]
        self._relics: list[Any] = unseen[:]
        self._tokens: list[Any] = unseen[:]
        self._expeditions: list[Any] = unseen[:]

    def _start(self, viewer: int, out: array[float]) -> None:
        """Follow ``viewer`` into ``out``: zero it, write what only the seat count
        decides, and forget every cached copy."""
        seats = self._seats
        self._out = out
        self._viewer = viewer
        self._relative = [relative_seat(s, viewer, seats) for s in range(seats)]
        self._entry = [self._players_at + r * self._width for r in self._relative]
        self._offsets()
        out[:] = self._blank
        out[self._seasons_at] = self._seasons
        self._forget()

    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        if viewer != self._viewer or out is not self._out:
            self._start(viewer, out)
        match = cast(ArcheosState, state)
        numbers = _read_numbers(match)
        if numbers != self._numbers:
            self._write_numbers(numbers, out)
        markers = _read_markers(match)
        if markers != self._marked:
            self._markers(markers, out)
        self._board(match, out)
        self._players(match, out)
        self._own(match, viewer, out)

    def _write_numbers(self, numbers: tuple[Any, ...], out: array[float]) -> None:
        """The plain numbers that changed, as ``number`` writes them."""
        for at, scale, value, seen in zip(
            self._numbers_at, self._scales, numbers, self._numbers, strict=True
        ):
            if value != seen:
                out[at] = float(value) / scale
        self._numbers = numbers

    def _markers(self, markers: tuple[Any, ...], out: array[float]) -> None:
        """The one-hot blocks whose field changed: site, step, and the seats (the
        current one from the step and the turn, none once the match is over)."""
        advanced, step, turn, first, last_monkey, basis = markers
        was_advanced, was_step, was_turn, was_first, was_last_monkey, was_basis = self._marked
        if advanced != was_advanced:
            _one_hot(out, self._advanced_at, _NO_COLOURS, advanced)
        if step != was_step:
            _one_hot(out, self._step_at, _NO_STEPS, _STEP_INDEX[step])
        if step != was_step or turn != was_turn:
            self._seat(out, self._current_at, NO_SEAT if step == OVER else turn)
        if first != was_first:
            self._seat(out, self._first_at, first)
        if last_monkey != was_last_monkey:
            self._seat(out, self._last_monkey_at, last_monkey)
        if basis != was_basis:
            _one_hot(out, self._basis_at, _NO_BASES, basis)
        self._marked = markers

    def _seat(self, out: array[float], at: int, seat: int) -> None:
        """A seat as ``seat`` writes it: one-hot from the viewer, zeros for none."""
        _one_hot(out, at, _NO_SEATS, None if seat == NO_SEAT else self._relative[seat])

    def _board(self, state: ArcheosState, out: array[float]) -> None:
        """The public lists: deck size, roles, display, supply, expedition, Ur queue."""
        deck = len(state.deck)
        if deck != self._deck:
            self._deck = deck
            out[self._deck_at] = float(deck) / DECK_SCALE
        if state.roles != self._roles:
            self._roles = state.roles[:]
            _count(out, self._roles_at, _NO_ROLES, state.roles)
        if state.display != self._display:
            self._display = state.display[:]
            _count(out, self._display_at, _NO_CARDS, state.display)
        if state.supply != self._supply:
            self._supply = state.supply[:]
            _count(out, self._supply_at, _NO_TOKENS, [_TOKEN_INDEX[t] for t in state.supply])
        if state.exp_cards != self._cards:
            self._cards = state.exp_cards[:]
            _count(out, self._cards_at, _NO_CARDS, state.exp_cards)
        if state.ur_queue != self._ur_queue:
            self._ur_queue = state.ur_queue[:]
            at = self._ur_queue_at
            out[at : at + MAX_SEATS] = _NO_SEATS
            relative = self._relative
            for queued in state.ur_queue:
                out[at + relative[queued]] = 1.0

    def _players(self, state: ArcheosState, out: array[float]) -> None:
        """Every seat's public entry of ``players``, and the ``scores``: a list or
        table that differs from its copy is compared seat by seat, and only the
        seats that changed are written. (The loops are written out: a helper call
        per table cost a tenth of the step.)"""
        sizes = list(map(len, state.hands))
        seen = self._sizes
        if sizes != seen:
            at = self._size_at
            for s, size in enumerate(sizes):
                if size != seen[s]:
                    seen[s] = size
                    out[at[s]] = float(size) / HAND_SCALE
        expeditions = list(map(len, state.expeditions))
        seen = self._expeditions
        if expeditions != seen:
            at = self._expeditions_at
            for s, count in enumerate(expeditions):
                if count != seen[s]:
                    seen[s] = count
                    out[at[s]] = float(count)
        known = state.known
        seen = self._known
        if known != seen:
            at = self._known_at
            for s, cards in enumerate(known):
                if cards != seen[s]:
                    seen[s] = cards[:]
                    _count(out, at[s], _NO_CARDS, cards)
        positions = state.positions
        seen = self._positions
        if positions != seen:
            for s, spaces in enumerate(positions):
                if spaces != seen[s]:
                    seen[s] = spaces[:]
                    at_site = self._sites_at[s]
                    for i, space in enumerate(spaces):
                        out[at_site + i] = float(space) / SITE_SCALE
        self._rare(state, out)

    def _rare(self, state: ArcheosState, out: array[float]) -> None:
        """The per-seat entries that change a few times a match: scores, the
        linguist track, relics and Professor tokens."""
        score = state.score
        if score != self._score:
            scale = SCORE_SCALE
            for s in _changed_rows(score, self._score):
                out[self._score_at[s]] = out[self._scores_at[s]] = float(score[s]) / scale
        linguist = state.linguist
        if linguist != self._linguist:
            at, scale = self._linguist_at, LINGUIST_END
            for s in _changed_rows(linguist, self._linguist):
                out[at[s]] = float(linguist[s]) / scale
        relics = state.relics
        if relics != self._relics:
            for s in _changed_rows(relics, self._relics):
                at_relic = self._relics_at[s]
                for colour, found in enumerate(relics[s]):
                    out[at_relic + colour] = 1.0 if found else 0.0
        tokens = state.tokens
        if tokens != self._tokens:
            at = self._tokens_at
            for s in _changed_rows(tokens, self._tokens):
                _count(out, at[s], _NO_TOKENS, [_TOKEN_INDEX[t] for t in tokens[s]])

    def _own(self, state: ArcheosState, viewer: int, out: array[float]) -> None:
        """What only the viewer sees: its hand, and the cards it keeps on its turn."""
        hand = state.hands[viewer]
        if hand != self._hand:
            self._hand = hand[:]
            _count(out, self._entry[viewer] + self._hand_in, _NO_CARDS, hand)
        kept = state.kept if viewer == state.turn else []
        if kept != self._kept:
            self._kept = kept[:]
            _count(out, self._entry[viewer] + self._kept_in, _NO_CARDS, kept)
