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
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from senet.games import Action, Game, GameState, get_game
from senet.games.errors import MalformedActionError
from senet.games.plugins import PluginRegistry
from senet.rl.features import Feature, View, Writer, entries_by_seat, lookup


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
        """The indexes of ``actions``, in their order."""
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
    game). A cache belongs to one viewer and one thread; the list it returns is
    reused, so copy it (``np.array``) before the next call.

    Args:
        encoder: The game's encoder.
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        self.out = [0.0] * encoder.size
        self._steps = [
            (feature, at, [0.0] * feature.size, feature.reads)
            for feature, (_, at, _) in zip(encoder.features, encoder.layout, strict=True)
        ]
        self._seen: list[list[Any] | None] = [None] * len(self._steps)
        #: The slices the last :meth:`encode` wrote again.
        self.changed: list[tuple[int, int]] = []

    def encode(self, view: View) -> list[float]:
        """The tensor of ``view``, the same seat's view as every call before.

        :attr:`changed` then lists the ``(offset, size)`` of the slices written again,
        so that a copy of the tensor (a numpy array) needs only those updated.
        """
        out = self.out
        seen = self._seen
        changed = self.changed = []
        for i, (feature, at, zeros, reads) in enumerate(self._steps):
            if reads is not None:
                now = [lookup(view, path) for path in reads]
                if now == seen[i]:
                    continue
                last = seen[i]
                if feature.write_entry is not None and last is not None:
                    self._rewrite_entries(feature, feature.write_entry, at, now[0], last[0], view)
                    seen[i] = now
                    continue
                seen[i] = now
            out[at : at + feature.size] = zeros
            feature.write(view, out, at)
            changed.append((at, feature.size))
        return out

    def _rewrite_entries(
        self, feature: Feature, write_entry: Writer, at: int, now: Any, before: Any, view: View
    ) -> None:
        """Rewrite the slots of a per-seat table whose entry changed since ``before``
        (a list as long as ``now``; anything else rewrites the whole table)."""
        out, width = self.out, feature.entry_width
        if not isinstance(now, list) or not isinstance(before, list) or len(now) != len(before):
            out[at : at + feature.size] = [0.0] * feature.size
            feature.write(view, out, at)
            self.changed.append((at, feature.size))
            return
        for (slot, entry), old in zip(entries_by_seat(view, now), before, strict=True):
            if entry == old:
                continue
            start = at + slot * width
            out[start : start + width] = [0.0] * width
            write_entry(entry, out, start)
            self.changed.append((start, width))


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
