"""Per-game encodings for learning agents: a fixed action space and an observation tensor.

Each game publishes an :class:`RlEncoding` in the ``senet.rl_encodings`` entry-point
group under its id (Senet's own in ``pyproject.toml``, Pebbles' in the test suite's
plug-ins). The encoding only *declares*: the candidate actions (built from the rules
core's own tables) and the observation features. Everything else (the index, the
mask, the tensor) is built here, the same way for every game.

The action space of a game, seat count and options is every action the core could
ever call legal, each once, in a stable order: index ``i`` means the same notation
for as long as the encoding's :attr:`RlEncoding.version` stays the same. A candidate
is kept only if its notation parses back to it, so a space never holds an action the
core would not accept as well-formed.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from senet.games import Action, Game, GameState, get_game
from senet.games.errors import MalformedActionError
from senet.games.plugins import PluginRegistry
from senet.rl.features import Feature, Path, View, Writer, entries_by_seat, lookup


class RlEncoding(ABC):
    """What a game declares so that learning agents can play it.

    Attributes:
        game_id: The game this encoding serves (checked against the entry point name).
        version: Bumped whenever the action order or the observation layout changes:
            a policy trained on one version is not valid for another.
    """

    game_id: str
    version: int

    @abstractmethod
    def action_candidates(
        self, game: Game, seats: int, options: Mapping[str, Any]
    ) -> Iterable[Action]:
        """Every action that could ever be legal (a superset is fine), in a stable order.

        Derived from the core's tables, never listed by hand: candidates that do not
        round-trip through their notation are dropped, duplicates keep their first place.
        """

    @abstractmethod
    def features(self, seats: int, options: Mapping[str, Any]) -> Sequence[Feature]:
        """The observation tensor's features, in order."""


ENCODINGS: PluginRegistry[RlEncoding] = PluginRegistry(
    "senet.rl_encodings", "rl encoding", lambda encoding: encoding.game_id
)


def encoding_for(game_id: str) -> RlEncoding:
    """The encoding published for ``game_id``.

    Raises:
        UnknownGameError: no plug-in provides one.
    """
    return ENCODINGS.get(game_id)


class ActionSpace:
    """A game's actions, indexed: the map between legal actions and a mask.

    Args:
        game: The rules core.
        actions: The enumerated actions, in index order.
        version: The encoding's version.
    """

    def __init__(self, game: Game, actions: Sequence[Action], version: int) -> None:
        self.game = game
        self.actions: tuple[Action, ...] = tuple(actions)
        self.version = version
        self.index: dict[Action, int] = {action: i for i, action in enumerate(self.actions)}
        self.notations: tuple[str, ...] = tuple(a.notation() for a in self.actions)
        #: A digest of the notations in order: equal digests, equal spaces.
        self.fingerprint = hashlib.sha256("\n".join(self.notations).encode()).hexdigest()[:16]

    def __len__(self) -> int:
        return len(self.actions)

    def index_of(self, action: Action) -> int:
        """The index of ``action``.

        Raises:
            KeyError: the action is not in the space (the encoding is incomplete).
        """
        try:
            return self.index[action]
        except KeyError:
            raise KeyError(
                f"{action.notation()!r} is not in the {self.game.info.id} action space "
                f"(version {self.version})"
            ) from None

    def indexes(self, actions: Iterable[Action]) -> list[int]:
        """The indexes of ``actions``, in their order.

        Raises:
            KeyError: an action is not in the space (the encoding is incomplete).
        """
        if type(actions) is not list:  # (an ABC check costs more than the probes)
            actions = list(actions)
        try:
            # One dict probe per action in C: the per-action method call of
            # :meth:`index_of` cost more than the rest of a step's mask.
            return list(map(self.index.__getitem__, actions))
        except KeyError:
            return [self.index_of(action) for action in actions]

    def mask(self, actions: Iterable[Action]) -> bytearray:
        """One byte per index: 1 where the action is among ``actions``."""
        out = bytearray(len(self.actions))
        for i in self.indexes(actions):
            out[i] = 1
        return out

    def legal_mask(self, state: GameState, seat: int) -> bytearray:
        """The mask of ``seat``'s legal actions in ``state`` (all zeros when it does not decide)."""
        return self.mask(state.legal_actions_for(seat))


@cache
def _space(game_id: str, seats: int, options_key: tuple[tuple[str, Any], ...]) -> ActionSpace:
    game = get_game(game_id)
    encoding = encoding_for(game_id)
    kept: dict[Action, None] = {}
    for action in encoding.action_candidates(game, seats, dict(options_key)):
        if action in kept:
            continue
        try:
            if game.parse_action(action.notation()) != action:
                continue
        except (MalformedActionError, IndexError, ValueError):
            continue
        kept[action] = None
    return ActionSpace(game, list(kept), encoding.version)


def action_space(
    game_id: str, seats: int, options: Mapping[str, object] | None = None
) -> ActionSpace:
    """The action space of ``game_id`` for ``seats`` and ``options`` (built once per process).

    Raises:
        InvalidOptionsError: the seat count or options are not valid for the game.
        UnknownGameError: the game or its encoding is not installed.
    """
    normalized = get_game(game_id).normalize_options(seats, options)
    return _space(game_id, seats, tuple(sorted(normalized.items())))


class ObservationEncoder:
    """Turns one seat's view into the game's fixed-length float vector.

    Args:
        features: The game's features, in order.
    """

    def __init__(self, features: Sequence[Feature]) -> None:
        self.features = tuple(features)
        self.size = sum(f.size for f in self.features)
        layout: list[tuple[str, int, int]] = []
        at = 0
        for feature in self.features:
            layout.append((feature.name, at, feature.size))
            at += feature.size
        #: (name, offset, size) of each feature: where each lies in the tensor.
        self.layout: tuple[tuple[str, int, int], ...] = tuple(layout)

    def encode(self, view: View) -> list[float]:
        """The tensor of ``view`` (a seat's view: ``GameState.view(seat)``)."""
        out = [0.0] * self.size
        at = 0
        for feature in self.features:
            feature.write(view, out, at)
            at += feature.size
        return out

    def cache(self) -> TensorCache:
        """A cache for one seat's successive observations (see :class:`TensorCache`)."""
        return TensorCache(self)


class TensorCache:
    """One seat's last tensor, and what each feature read for it.

    An environment encodes the same seat's view after every move, and a move changes
    little of it: a feature whose reads (:attr:`Feature.reads`) are equal to last
    time keeps its slice, the others are zeroed and written again. The result equals
    :meth:`ObservationEncoder.encode` of the same view (the tests check it on every
    game). A cache belongs to one viewer and one thread; it returns its own doubles
    (an ``array("d")``), rewritten in place by the next call: copy them before that
    (``np.frombuffer(out, np.float64).astype(np.float32)`` makes a numpy tensor in
    one step, where converting a list costs as much as encoding it).

    Before any feature looks its reads up, the view is compared with the last one
    key by key (and, where both values are mappings, key by key one level down): a
    feature none of whose reads starts under a changed key is skipped without a
    lookup. Most features of a view stay equal from one move to the next, and their
    lookups were most of the cost. The last view is kept for that comparison, so a
    view passed here must not be changed afterwards (views are fresh data, built on
    each call).

    Args:
        encoder: The game's encoder.
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        self.out = _zeros(encoder.size)
        self._steps = [
            (feature, at, _zeros(feature.size), feature.reads, _gates(feature.reads))
            for feature, (_, at, _) in zip(encoder.features, encoder.layout, strict=True)
        ]
        self._watched = _watched(step[4] for step in self._steps)
        #: The top-level key of each feature that reads one and nothing else.
        self._solo: list[str | None] = [
            reads[0][0]
            if reads is not None
            and len(reads) == 1
            and len(reads[0]) == 1
            and isinstance(reads[0][0], str)
            else None
            for _, _, _, reads, _ in self._steps
        ]
        self._entry_steps: dict[int, _EntrySteps] = {
            i: _entry_steps(feature.inner)
            for i, (feature, *_) in enumerate(self._steps)
            if feature.inner is not None
        }
        self._seen: list[list[Any] | None] = [None] * len(self._steps)
        self._last_view: View | None = None
        #: The slices the last :meth:`encode` wrote again.
        self.changed: list[tuple[int, int]] = []

    def encode(self, view: View) -> array[float]:
        """The tensor of ``view``, the same seat's view as every call before.

        :attr:`changed` then lists the ``(offset, size)`` of the slices written again,
        so that a copy of the tensor (a numpy array) needs only those updated.
        """
        out = self.out
        seen = self._seen
        changed = self.changed = []
        last, self._last_view = self._last_view, view
        moved = None if last is None else _changed_keys(view, last, self._watched)
        solo = self._solo
        for i, (feature, at, zeros, reads, gates) in enumerate(self._steps):
            if reads is not None:
                if moved is not None and gates is not None:
                    if moved.isdisjoint(gates):
                        continue
                    key = solo[i]
                    if key is not None:
                        # Its one read is a top-level key, marked changed: no second look.
                        now = [view.get(key)]
                    else:
                        now = [lookup(view, path) for path in reads]
                        if now == seen[i]:
                            continue
                else:
                    now = [lookup(view, path) for path in reads]
                    if now == seen[i]:
                        continue
                before = seen[i]
                seen[i] = now
                if feature.write_entry is not None and before is not None:
                    self._rewrite_entries(feature, feature.write_entry, i, at, now, before, view)
                    continue
            out[at : at + feature.size] = zeros
            feature.write(view, out, at)
            changed.append((at, feature.size))
        return out

    def _rewrite_entries(
        self,
        feature: Feature,
        write_entry: Writer,
        index: int,
        at: int,
        reads_now: list[Any],
        reads_before: list[Any],
        view: View,
    ) -> None:
        """Rewrite the slots of a per-seat table whose entry changed since ``before``
        (a list as long as ``now``; anything else rewrites the whole table). Where the
        table's inner features are known and both entries are mappings, only the inner
        features under a changed key are written again."""
        out, width = self.out, feature.entry_width
        now, before = reads_now[0], reads_before[0]
        if not isinstance(now, list) or not isinstance(before, list) or len(now) != len(before):
            out[at : at + feature.size] = _zeros(feature.size)
            feature.write(view, out, at)
            self.changed.append((at, feature.size))
            return
        inner = self._entry_steps.get(index)
        for (slot, entry), old in zip(entries_by_seat(view, now), before, strict=True):
            if entry == old:
                continue
            start = at + slot * width
            if inner is None or type(entry) is not dict or type(old) is not dict:
                out[start : start + width] = _zeros(width)
                write_entry(entry, out, start)
                self.changed.append((start, width))
                continue
            watched, steps = inner
            moved = _changed_keys(entry, old, watched)
            for part, offset, zeros, gates in steps:
                if gates is not None and moved.isdisjoint(gates):
                    continue
                begin = start + offset
                out[begin : begin + part.size] = zeros
                part.write(entry, out, begin)
                self.changed.append((begin, part.size))


#: The inner features of a per-seat table, for :meth:`TensorCache._rewrite_entries`:
#: the entry keys they watch, and each feature with its offset in the entry, its
#: zeros and its gates.
_EntrySteps = tuple[
    dict[str, bool], list[tuple[Feature, int, "array[float]", frozenset[Hashable] | None]]
]


def _entry_steps(inner: Sequence[Feature]) -> _EntrySteps:
    steps = []
    offset = 0
    for part in inner:
        steps.append((part, offset, _zeros(part.size), _gates(part.reads)))
        offset += part.size
    return _watched(step[3] for step in steps), steps


def _watched(all_gates: Iterable[frozenset[Hashable] | None]) -> dict[str, bool]:
    """The top-level keys some gate names, each with whether a gate names one of its
    subkeys (so its changes are marked subkey by subkey)."""
    watched: dict[str, bool] = {}
    for gates in all_gates:
        for gate in gates or ():
            if isinstance(gate, tuple):
                if gate[1] is not None:
                    watched[gate[0]] = True
            else:
                watched.setdefault(str(gate), False)
    return watched


_ABSENT = object()


def _zeros(size: int) -> array[float]:
    return array("d", bytes(8 * size))


def _gates(reads: tuple[Path, ...] | None) -> frozenset[Hashable] | None:
    """The marks of :func:`_changed_keys` that may touch ``reads``: a path of one key
    is gated by that key, a longer one by its first two keys as a pair or by its first
    key's value changing as a whole (``(key, None)``). ``None`` (never skipped): no
    reads declared, or a path that does not start with a key."""
    if reads is None:
        return None
    gates: set[Hashable] = set()
    for path in reads:
        if not path or not isinstance(path[0], str):
            return None
        if len(path) == 1:
            gates.add(path[0])
        else:
            gates.update(((path[0], path[1]), (path[0], None)))
    return frozenset(gates)


def _changed_keys(view: View, last: View, watched: Mapping[str, bool]) -> set[Hashable]:
    """Marks for what differs between ``view`` and ``last`` under the ``watched`` keys:
    every such key whose value changed (or is in one view only); where both values
    are mappings and the key's subkeys are watched, ``(key, subkey)`` for each subkey
    whose value changed; otherwise ``(key, None)``: the value changed as a whole."""
    moved: set[Hashable] = set()
    for key, by_subkey in watched.items():
        value = view.get(key, _ABSENT)
        old = last.get(key, _ABSENT)
        if old is value:
            continue
        if by_subkey and type(value) is dict and type(old) is dict:
            subs = [sub for sub, inner in value.items() if old.get(sub, _ABSENT) != inner]
            if len(old) != len(value) or not old.keys() <= value.keys():
                subs += old.keys() ^ value.keys()
            if subs:
                moved.add(key)
                moved.update((key, sub) for sub in subs)
        elif old != value:
            moved.update((key, (key, None)))
    return moved


@cache
def _encoder(
    game_id: str, seats: int, options_key: tuple[tuple[str, Any], ...]
) -> ObservationEncoder:
    return ObservationEncoder(encoding_for(game_id).features(seats, dict(options_key)))


def observation_encoder(
    game_id: str, seats: int, options: Mapping[str, object] | None = None
) -> ObservationEncoder:
    """The observation encoder of ``game_id`` for ``seats`` and ``options`` (built once)."""
    normalized = get_game(game_id).normalize_options(seats, options)
    return _encoder(game_id, seats, tuple(sorted(normalized.items())))


def bounded_options(game: Game) -> dict[str, Any]:
    """The options a learning environment plays when not told otherwise: ones that end
    every match (a turn limit), over the game's defaults.

    Environments and their tests read them here only. A game declares them as
    ``GameInfo.bounded_match_options``; where it declares none its defaults are bounded.
    """
    return dict(game.info.bounded_match_options)
