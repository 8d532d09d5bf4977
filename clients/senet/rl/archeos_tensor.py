"""Archeos Society's direct tensor writer: a seat's observation from the state's fields.

The features of :mod:`senet.rl.archeos` define the tensor; building a seat's view to
run them over costs most of an environment step (the ``players`` table alone is 1,452
of 1,678 floats at four seats). :class:`ArcheosTensor` writes the same floats from the
state itself, reading only what the view shows that seat: the deck's size (not its
order), the other hands' sizes and their publicly known cards, the seat's own hand,
and the cards it is keeping as a Physician when the turn is its own.

A writer follows one seat through any sequence of states of one match set-up (moves,
clones, afterstates, new episodes): it keeps a copy of what each slice was last
written from and rewrites a slice only when that differs, and writes the plain
numbers every time, as comparing one costs as much as writing it.
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
from senet.rl.archeos import (
    DECK_SCALE,
    HAND_SCALE,
    LIMIT_SCALE,
    MAX_SEATS,
    MONKEY_SCALE,
    SCORE_SCALE,
    SEASON_SCALE,
    SITE_SCALE,
)
from senet.rl.features import Feature, relative_seat

_STEP_INDEX = {step: i for i, step in enumerate(STEPS)}
_TOKEN_INDEX = {token: i for i, token in enumerate(PROFESSOR_TOKENS)}
#: What no cached copy equals: the next call writes that slice.
_UNSEEN: Any = object()


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


#: The numbers written on every call, by feature name, each with the state's field.
_NUMBERS = (
    "season",
    "deck size",
    "deck monkey-free top",
    "monkeys drawn",
    "expedition limit",
    "expedition advanced",
    "in Ur",
    "linguist advances",
    "keep limit",
    "Chichen draws",
)


class ArcheosTensor:
    """Writes one seat's Archeos Society tensor (a :class:`~senet.rl.encoding.DirectTensor`).

    Args:
        features: The encoding's features for this seat count, in order: the writer
            finds each slice by its feature's name.
        seats: The match's seat count.
    """

    def __init__(self, features: Sequence[Feature], seats: int) -> None:
        at: dict[str, int] = {}
        start = 0
        for feature in features:
            at[feature.name] = start
            start += feature.size
        players = next(f for f in features if f.name == "players")
        inner: dict[str, int] = {}
        offset = 0
        for feature in players.inner or ():
            inner[feature.name] = offset
            offset += feature.size
        self._size = start
        self._seats = seats
        self._width = players.entry_width
        self._players_at = at["players"]
        self._numbers_at = tuple(at[name] for name in _NUMBERS)
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
        self._scores_at = at["scores"]
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
        self._forget()

    def _forget(self) -> None:
        """Drop every cached copy, so that the next call writes every slice."""
        self._roles = self._advanced = self._step = self._current = _UNSEEN
        self._first = self._last_monkey = self._display = self._supply = _UNSEEN
        self._cards = self._basis = self._ur_queue = _UNSEEN
        self._score = self._sizes = self._known = self._positions = _UNSEEN
        self._linguist = self._relics = self._tokens = self._expeditions = _UNSEEN
        self._hand = self._kept = _UNSEEN

    def _start(self, viewer: int, out: array[float]) -> None:
        """Follow ``viewer`` into ``out``: zero it, write what only the seat count
        decides, and forget every cached copy."""
        seats = self._seats
        self._out = out
        self._viewer = viewer
        self._relative = [relative_seat(s, viewer, seats) for s in range(seats)]
        self._entry = [self._players_at + r * self._width for r in self._relative]
        out[:] = _zeros(self._size)
        out[self._seasons_at] = self._seasons
        self._forget()

    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        if viewer != self._viewer or out is not self._out:
            self._start(viewer, out)
        match = cast(ArcheosState, state)
        self._numbers(match, out)
        self._board(match, out)
        self._players(match, out)
        self._own(match, viewer, out)

    def _numbers(self, state: ArcheosState, out: array[float]) -> None:
        """The plain numbers, as ``number`` writes them: ``float(value) / scale``
        (a scale of 1 leaves ``float(value)``, bit for bit)."""
        season, deck, top, monkeys, limit, advanced, in_ur, linguist, keep, chichen = (
            self._numbers_at
        )
        out[season] = float(state.season) / SEASON_SCALE
        out[deck] = float(len(state.deck)) / DECK_SCALE
        out[top] = float(state.monkey_free_top) / DECK_SCALE
        out[monkeys] = float(state.monkeys) / MONKEY_SCALE
        out[limit] = float(state.exp_limit) / LIMIT_SCALE
        out[advanced] = float(state.exp_advanced)
        out[in_ur] = float(state.in_ur)
        out[linguist] = float(state.linguist_left)
        out[keep] = float(state.keep_limit)
        out[chichen] = float(state.chichen_draws)

    def _board(self, state: ArcheosState, out: array[float]) -> None:
        """The public board: roles, sites, step, seats, display, supply, expedition."""
        if state.roles != self._roles:
            self._roles = state.roles[:]
            _count(out, self._roles_at, _NO_ROLES, state.roles)
        if state.advanced != self._advanced:
            self._advanced = state.advanced
            _one_hot(out, self._advanced_at, _NO_COLOURS, state.advanced)
        step = state.step
        if step != self._step:
            self._step = step
            _one_hot(out, self._step_at, _NO_STEPS, _STEP_INDEX[step])
        current = None if step == OVER else state.turn
        if current != self._current:
            self._current = current
            self._seat(out, self._current_at, current)
        if state.first_seat != self._first:
            self._first = state.first_seat
            self._seat(out, self._first_at, state.first_seat)
        if state.last_monkey != self._last_monkey:
            self._last_monkey = state.last_monkey
            self._seat(out, self._last_monkey_at, state.last_monkey)
        if state.display != self._display:
            self._display = state.display[:]
            _count(out, self._display_at, _NO_CARDS, state.display)
        if state.supply != self._supply:
            self._supply = state.supply[:]
            _count(out, self._supply_at, _NO_TOKENS, [_TOKEN_INDEX[t] for t in state.supply])
        if state.exp_cards != self._cards:
            self._cards = state.exp_cards[:]
            _count(out, self._cards_at, _NO_CARDS, state.exp_cards)
        if state.exp_basis != self._basis:
            self._basis = state.exp_basis
            _one_hot(out, self._basis_at, _NO_BASES, state.exp_basis)
        if state.ur_queue != self._ur_queue:
            self._ur_queue = state.ur_queue[:]
            at = self._ur_queue_at
            out[at : at + MAX_SEATS] = _NO_SEATS
            relative = self._relative
            for queued in state.ur_queue:
                out[at + relative[queued]] = 1.0

    def _seat(self, out: array[float], at: int, seat: int | None) -> None:
        """A seat as ``seat`` writes it: one-hot from the viewer, zeros for none."""
        index = None if seat is None or seat == NO_SEAT else self._relative[seat]
        _one_hot(out, at, _NO_SEATS, index)

    def _players(self, state: ArcheosState, out: array[float]) -> None:
        """Every seat's public entry of ``players``, and the ``scores``."""
        entry = self._entry
        if state.score != self._score:
            self._score = state.score[:]
            score_in, scores_at, relative = self._score_in, self._scores_at, self._relative
            for s, score in enumerate(state.score):
                value = float(score) / SCORE_SCALE
                out[entry[s] + score_in] = value
                out[scores_at + relative[s]] = value
        sizes = list(map(len, state.hands))
        if sizes != self._sizes:
            self._sizes = sizes
            size_in = self._size_in
            for s, size in enumerate(sizes):
                out[entry[s] + size_in] = float(size) / HAND_SCALE
        if state.known != self._known:
            self._known = list(map(list, state.known))
            known_in = self._known_in
            for s, cards in enumerate(state.known):
                _count(out, entry[s] + known_in, _NO_CARDS, cards)
        if state.positions != self._positions:
            self._positions = list(map(list, state.positions))
            sites_in = self._sites_in
            for s, row in enumerate(state.positions):
                at = entry[s] + sites_in
                for i, space in enumerate(row):
                    out[at + i] = float(space) / SITE_SCALE
        if state.linguist != self._linguist:
            self._linguist = state.linguist[:]
            linguist_in = self._linguist_in
            for s, space in enumerate(state.linguist):
                out[entry[s] + linguist_in] = float(space) / LINGUIST_END
        if state.relics != self._relics:
            self._relics = list(map(list, state.relics))
            relics_in = self._relics_in
            for s, relics in enumerate(state.relics):
                at = entry[s] + relics_in
                for colour in range(COLOURS):
                    out[at + colour] = 1.0 if relics[colour] else 0.0
        if state.tokens != self._tokens:
            self._tokens = list(map(list, state.tokens))
            tokens_in = self._tokens_in
            for s, tokens in enumerate(state.tokens):
                _count(out, entry[s] + tokens_in, _NO_TOKENS, [_TOKEN_INDEX[t] for t in tokens])
        expeditions = list(map(len, state.expeditions))
        if expeditions != self._expeditions:
            self._expeditions = expeditions
            expeditions_in = self._expeditions_in
            for s, count in enumerate(expeditions):
                out[entry[s] + expeditions_in] = float(count)

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
