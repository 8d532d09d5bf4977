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
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Protocol, cast

from senet.games import Action, Game, GameState, get_game
from senet.games.errors import MalformedActionError
from senet.games.plugins import PluginRegistry
from senet.rl import identity
from senet.rl.features import (
    Feature,
    Path,
    View,
    Writer,
    entries_by_seat,
    lookup,
    slices,
    zeros,
)
from senet.rl.native import preferred


class RlEncoding(ABC):
    """What a game declares so that learning agents can play it.

    Attributes:
        game_id: The game this encoding serves (checked against the entry point name).
        version: Bumped whenever the action order or the observation layout changes:
            a policy trained on one version is not valid for another.
        native_modules: The encoding's modules worth compiling (its direct
            writer's): :mod:`senet.rl.native` builds their compiled twins.
    """

    game_id: str
    version: int
    native_modules: tuple[str, ...] = ()

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

    def direct_tensor(
        self, seats: int, options: Mapping[str, Any]
    ) -> Callable[[], DirectTensor] | None:
        """A maker of :class:`DirectTensor` writers for ``seats`` and ``options``, or
        ``None`` (the default): every tensor is then written from the seat's view.

        The features stay the tensor's definition; a direct writer only computes the
        same floats faster, from the state's own fields instead of a view built first.
        The tests hold every writer to the features' encoding of the seat's view, seat
        by seat after every move of random matches of every variant, and of re-dealt
        twins, so it can neither drift from the documented layout nor show what the
        view hides.
        """
        return None


class DirectTensor(Protocol):
    """Writes a seat's whole tensor straight from a state (see :meth:`RlEncoding.direct_tensor`).

    Called with a state of the encoding's game, a seat, and the ``array`` it was last
    called with (zeros on the first call; the same array every time, so a writer may
    keep what it needs to rewrite only what changed). The array holds floats (``"f"``,
    as :class:`TensorWriter` makes it) or doubles (``"d"``): a writer clears slices
    with zeros of ``out.typecode``. It must leave there exactly what storing
    :meth:`ObservationEncoder.encode` of ``state.view(viewer)`` into such an array
    leaves, to the last bit: the same float arithmetic as the features (``value /
    scale``, never ``value * (1 / scale)``, worked out in doubles and then stored), and
    nothing the view would not show.
    """

    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None: ...


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
        ids = preferred(identity)
        #: Indexes by the identity of action objects the core handed out, each kept
        #: alive (at most :attr:`_budget` of them; :mod:`senet.rl.identity`);
        #: ``None`` once the core is found to make new objects each time (see
        #: :meth:`_learn`).
        self._ids: Any = ids.ActionIds()
        self._mask: Callable[[int, Iterable[int]], bytearray] = ids.mask
        self._hits = 0
        self._budget = 4 * len(self.actions)

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
        ids = self._ids
        if ids is not None:
            # A core that hands out the same action objects again (Mykerinos' move
            # tables) has them found by identity, without hashing their nested
            # tuples: a third of the time for its 37 actions a step.
            found: list[int | None] = ids.find(actions)
            if None not in found:
                self._hits += len(found)
                return cast(list[int], found)
            return self._learn(actions, found)
        try:
            # One dict probe per action in C: the per-action method call of
            # :meth:`index_of` cost more than the rest of a step's mask.
            return list(map(self.index.__getitem__, actions))
        except KeyError:
            return [self.index_of(action) for action in actions]

    def _learn(self, actions: list[Action], found: list[int | None]) -> list[int]:
        """Fill in the indexes not found by identity, and learn those objects by
        identity (each is kept alive, so no other object can take its id). Once
        :data:`_TRIAL` objects are kept, a core whose objects are found again less
        often than new ones come (one that makes new objects each time) has the
        identity lookups turned off, and the objects let go; so does one that keeps
        handing out new objects past :attr:`_budget`."""
        self._hits += len(found) - found.count(None)
        ids = self._ids  # (read once: another thread may turn it off)
        indexes: list[int] = []
        for action, index in zip(actions, found, strict=True):
            if index is None:
                index = self.index_of(action)
                if ids is not None:
                    ids.add(action, index)
            indexes.append(index)
        kept = 0 if ids is None else len(ids)
        if kept >= self._budget or (kept >= _TRIAL and self._hits < kept):
            self._ids = None
        return indexes

    def mask(self, actions: Iterable[Action]) -> bytearray:
        """One byte per index: 1 where the action is among ``actions``."""
        return self.index_mask(self.indexes(actions))

    def index_mask(self, indexes: Iterable[int]) -> bytearray:
        """One byte per index: 1 at ``indexes`` (set in C where the twin of
        :mod:`senet.rl.identity` is built; a byte per index set in Python costs less
        than numpy's fancy indexing from a list, which converts the list first).

        Raises:
            IndexError: an index outside the space.
        """
        return self._mask(len(self.actions), indexes)

    def legal_mask(self, state: GameState, seat: int) -> bytearray:
        """The mask of ``seat``'s legal actions in ``state`` (all zeros when it does not decide)."""
        return self.mask(state.legal_actions_for(seat))


#: How many action objects a space learns by identity before it judges whether the
#: core hands out the same objects again (:meth:`ActionSpace._learn`).
_TRIAL = 256


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
        direct: The maker of the game's direct writers, if it has one
            (:meth:`RlEncoding.direct_tensor`).
    """

    def __init__(
        self, features: Sequence[Feature], direct: Callable[[], DirectTensor] | None = None
    ) -> None:
        self.features = tuple(features)
        self.direct = direct
        self.size = sum(f.size for f in self.features)
        #: (name, offset, size) of each feature: where each lies in the tensor.
        self.layout: tuple[tuple[str, int, int], ...] = tuple(
            (name, at, size) for name, (at, size) in slices(self.features).items()
        )

    def encode(self, view: View) -> list[float]:
        """The tensor of ``view`` (a seat's view: ``GameState.view(seat)``)."""
        out = [0.0] * self.size
        at = 0
        for feature in self.features:
            feature.write(view, out, at)
            at += feature.size
        return out

    def writer(self, *, direct: bool = True) -> TensorWriter:
        """A writer of one seat's successive observations (see :class:`TensorWriter`);
        ``direct=False`` keeps it off the game's direct writer, on the view."""
        return TensorWriter(self, direct=direct)


class TensorWriter:
    """One seat's tensor, rewritten where the rules core says its view changed.

    An environment encodes the same seat's view after every move, and a move changes
    little of it. The core tells what changed (:meth:`GameState.changed_view_parts`:
    the parts of a view whose state fields differ from the writer's mark), and a
    feature none of whose reads lies under a changed part keeps its slice; when no
    feature's does, the view is not even built. A per-seat table rewrites only the
    seats whose entry differs from the last one. A game that declares no view
    sources has every feature written each time. The result equals
    :meth:`ObservationEncoder.encode` of the seat's view (the tests check it on every
    game, move after move).

    The mark compares values, not versions, so one writer may follow any sequence
    of states of one match's game, seat count and options (a search's afterstates),
    always for the same viewer. A writer belongs to one thread; it returns its own
    float32s (an ``array("f")``, :attr:`out`: the same array for the writer's life,
    never resized), rewritten in place by the next call: copy them before that
    (``np.frombuffer(out, np.float32).copy()`` makes a numpy tensor in one step,
    where converting a list costs as much as encoding it; a view made once serves
    every call). Each float is the feature's double stored once, so the tensor equals
    :meth:`ObservationEncoder.encode` converted to float32.

    Where the game has a direct writer (:meth:`RlEncoding.direct_tensor`), a seat's
    tensor is written by it instead, from the state's fields, and :attr:`changed` is
    the whole tensor.

    Args:
        encoder: The game's encoder.
        direct: Whether to use the game's direct writer, when it has one.
    """

    def __init__(self, encoder: ObservationEncoder, *, direct: bool = True) -> None:
        self.encoder = encoder
        self.out = zeros(encoder.size)
        self._direct = encoder.direct() if direct and encoder.direct is not None else None
        self._whole = [(0, encoder.size)]
        #: The ``(offset, size)`` slices the last :meth:`encode` wrote again.
        self.changed: list[tuple[int, int]] = []
        self._view_ready = False
        if self._direct is None:
            self._prepare_view()

    def _prepare_view(self) -> None:
        """Set up the view's path: which features each change gates, and the marks.
        Done on the first call that needs it (a writer for a seat of a game with a
        direct writer never does, and training examples make one per decision)."""
        self._view_ready = True
        encoder = self.encoder
        self._steps = [
            (feature, at, zeros(feature.size), _gates(feature.reads))
            for feature, (_, at, _) in zip(encoder.features, encoder.layout, strict=True)
        ]
        #: The features read again on every call (no gates), and for each mark of a
        #: change the features it gates: a step visits the features hit, not all.
        self._always = [i for i, (*_, gates) in enumerate(self._steps) if gates is None]
        self._by_mark: dict[Hashable, list[int]] = {}
        for index, (*_, gates) in enumerate(self._steps):
            for gate in gates or ():
                self._by_mark.setdefault(gate, []).append(index)
        self._mark: dict[str, Any] = {}
        #: Per feature with per-seat entries, the entries it last wrote (whole, even
        #: where only some keys were built since: those keys are merged in).
        self._entries: dict[int, list[Any]] = {}
        #: Per feature with per-seat entries, the view key of its table.
        self._tables: dict[int, str] = {
            index: feature.reads[0][0]
            for index, (feature, *_) in enumerate(self._steps)
            if feature.write_entry is not None
            and feature.reads
            and len(feature.reads[0]) == 1
            and isinstance(feature.reads[0][0], str)
        }
        #: Per feature, the view parts (paths of the game's ``view_sources``) it
        #: reads, ``None`` for the whole view: worked out on the first call.
        self._needs: list[frozenset[tuple[str, ...]] | None] = []
        #: Per set of changed parts, what a call does (see :meth:`_plan_step`).
        self._plans: dict[frozenset[tuple[str, ...]], _StepPlan] = {}
        #: The parts every call asks for (the viewer and seat count, read by all).
        self._base: frozenset[tuple[str, ...]] = frozenset()
        self._started = False
        #: Per feature with per-seat entries, its inner features (see _InnerSteps).
        self._inner: dict[int, _InnerSteps] = {
            index: _inner_steps(feature.inner)
            for index, (feature, *_) in enumerate(self._steps)
            if feature.inner is not None
        }
        #: Zeros of each entry width, to blank a slot before it is written again.
        self._blank: dict[int, array[float]] = {}

    def encode(self, state: GameState, viewer: int | None) -> array[float]:
        """The tensor of ``viewer``'s view of ``state``: :attr:`changed` then lists
        the slices written again, so that a copy needs only those updated."""
        direct = self._direct
        if direct is not None and viewer is not None:
            direct(state, viewer, self.out)
            self.changed = self._whole
            return self.out
        if not self._view_ready:
            self._prepare_view()
        sources = state.view_sources
        parts = state.changed_view_parts(self._mark) if sources is not None else None
        changed = self.changed = []
        if parts is None or sources is None or not self._started:
            self._started = True
            if sources is not None:
                self._plan(sources)
            self._write_all(state.view(viewer))
            return self.out
        key = frozenset(parts)
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) >= _PLANS_KEPT:
                self._plans.clear()
            plan = self._plans[key] = self._plan_step(key, sources)
        hit, asked, tables = plan
        if not hit:
            return self.out
        view = state.view_parts(viewer, asked)
        out = self.out
        steps = self._steps
        for index in hit:
            feature, at, zeros, _ = steps[index]
            if feature.write_entry is not None and feature.reads is not None:
                self._rewrite_entries(feature, feature.write_entry, index, at, view, tables)
                continue
            out[at : at + feature.size] = zeros
            feature.write(view, out, at)
            changed.append((at, feature.size))
        return out

    def _plan_step(
        self, parts: frozenset[tuple[str, ...]], sources: Mapping[tuple[str, ...], tuple[str, ...]]
    ) -> _StepPlan:
        """What a call does when ``parts`` changed: the features to write again (in
        order), the view parts they read, and for each per-seat table the keys that
        changed (``None``: all). The same parts change again and again, so each set is
        planned once."""
        by_mark = self._by_mark
        hit = set(self._always)
        for part in parts:
            hit.update(by_mark.get(part[0], ()))
            hit.update(by_mark.get(part[:2] if len(part) > 1 else (part[0], None), ()))
        # Only the parts the features hit read are built, and of a per-seat table only
        # the keys that changed (each entry is merged into the last one written).
        asked = set(self._base)
        tables: dict[int, set[str] | None] = {}
        needs = self._needs
        for index in hit:
            table = self._tables.get(index)
            if table is not None:
                subs = _changed_keys(parts, table)
                tables[index] = subs
                if subs is None:
                    asked.update(p for p in sources if p[0] == table)
                else:
                    asked.update((table, sub) for sub in subs)
                continue
            need = needs[index]
            if need is None:
                asked = set(sources)
                break
            asked.update(need)
        return tuple(sorted(hit)), frozenset(asked), tables

    def _plan(self, sources: Mapping[tuple[str, ...], tuple[str, ...]]) -> None:
        """Which view parts each feature reads, from the game's ``view_sources``."""
        self._base = frozenset(p for p in (("viewer",), ("seats",), ("scores",)) if p in sources)
        if ("seats",) in sources:
            self._base -= {("scores",)}  # (read only when a view has no seat count)
        self._needs = [_parts_read(feature.reads, sources) for feature, *_ in self._steps]

    def _write_all(self, view: View) -> None:
        out = self.out
        out[:] = zeros(len(out))
        for index, (feature, at, _, _) in enumerate(self._steps):
            feature.write(view, out, at)
            if feature.write_entry is not None and feature.reads is not None:
                self._entries[index] = list(lookup(view, feature.reads[0]) or ())
        self.changed = [(0, len(out))]

    def _rewrite_entries(
        self,
        feature: Feature,
        write_entry: Writer,
        index: int,
        at: int,
        view: View,
        tables: Mapping[int, set[str] | None],
    ) -> None:
        """Rewrite the slots of a per-seat table whose entry differs from the last
        (only the keys in ``tables[index]``, when the view holds only those)."""
        out, width = self.out, feature.entry_width
        now = list(lookup(view, feature.reads[0]) or ()) if feature.reads else []
        before = self._entries.get(index)
        subs = tables.get(index)
        inner = self._inner.get(index)
        if subs is not None and inner is not None and before is not None:
            if len(before) == len(now):
                self._merge_entries(index, at, width, view, now, before, subs, inner)
                return
            subs = None  # (a table's length changed: rebuilt whole below)
        self._entries[index] = now
        if subs is not None or before is None or len(before) != len(now):
            out[at : at + feature.size] = zeros(feature.size)
            feature.write(view, out, at)
            self.changed.append((at, feature.size))
            return
        blank = self._blank.get(width)
        if blank is None:
            blank = self._blank[width] = zeros(width)
        for (slot, entry), old in zip(entries_by_seat(view, now), before, strict=True):
            if entry == old:
                continue
            start = at + slot * width
            if inner is None or type(entry) is not dict or type(old) is not dict:
                out[start : start + width] = blank
                write_entry(entry, out, start)
                self.changed.append((start, width))
                continue
            # Within an entry (a seat's few keys), only the inner features whose
            # first keys hold other values are written again.
            hit = set(inner[1])
            by_key, by_second = inner[2], inner[3]
            for key, value in entry.items():
                previous = old.get(key, _ABSENT)
                if previous != value:
                    moved: Sequence[int] = by_key.get(key, ())
                    if key in by_second:
                        moved = _moved(by_second[key], previous, value, moved)
                    hit.update(moved)
            if len(old) != len(entry) or not old.keys() <= entry.keys():
                for key in old.keys() ^ entry.keys():
                    hit.update(by_key.get(key, ()))
            self._write_inner(entry, start, hit, inner)

    def _merge_entries(
        self,
        index: int,
        at: int,
        width: int,
        view: View,
        now: list[Any],
        before: list[Any],
        subs: set[str],
        inner: _InnerSteps,
    ) -> None:
        """Merge the keys ``subs`` of each partial entry in ``now`` into the whole one
        last written, and rewrite the inner features under the keys whose values moved."""
        always, by_key, by_second = inner[1], inner[2], inner[3]
        for (slot, entry), old in zip(entries_by_seat(view, now), before, strict=True):
            hit: set[int] = set()
            for key in subs:
                value = entry.get(key, _ABSENT)
                previous = old.get(key, _ABSENT)
                if previous != value:
                    if value is _ABSENT:
                        del old[key]
                    else:
                        old[key] = value
                    moved: Sequence[int] = by_key.get(key, ())
                    if key in by_second:
                        moved = _moved(by_second[key], previous, value, moved)
                    hit.update(moved)
                    hit.update(always)
            if hit:
                self._write_inner(old, at + slot * width, hit, inner)

    def _write_inner(
        self, entry: Mapping[str, Any], start: int, hit: set[int], inner: _InnerSteps
    ) -> None:
        out, parts = self.out, inner[0]
        for position in sorted(hit):
            part, offset, zeros = parts[position]
            begin = start + offset
            out[begin : begin + part.size] = zeros
            part.write(entry, out, begin)
            self.changed.append((begin, part.size))


def _changed_keys(parts: Iterable[tuple[str, ...]], table: str) -> set[str] | None:
    """The keys of the per-seat table ``table`` under the changed ``parts`` (``None``:
    the table changed as a whole)."""
    subs: set[str] = set()
    for part in parts:
        if part[0] == table:
            if len(part) == 1:
                return None
            subs.add(part[1])
    return subs


def _parts_read(
    reads: tuple[Path, ...] | None, sources: Mapping[tuple[str, ...], tuple[str, ...]]
) -> frozenset[tuple[str, ...]] | None:
    """The paths of ``sources`` that hold what ``reads`` reads (``None``: the whole view).

    A read under a per-seat table (``("players", 2, "colour")``) needs that key of the
    table's entries."""
    if reads is None:
        return None
    needed: set[tuple[str, ...]] = set()
    for path in reads:
        if not path or not isinstance(path[0], str):
            return None
        key = path[0]
        if (key,) in sources:
            needed.add((key,))
            continue
        second = path[1] if len(path) > 1 else None
        if isinstance(second, int) and len(path) > 2:
            second = path[2]
        if isinstance(second, str) and (key, second) in sources:
            needed.add((key, second))
            continue
        under = [p for p in sources if p[0] == key]
        if not under:
            return None
        needed.update(under)
    return frozenset(needed)


#: A call's plan: the features to write again, in order; the view parts they read;
#: per per-seat table, the keys of its entries that changed (``None``: all).
_StepPlan = tuple[tuple[int, ...], frozenset[tuple[str, ...]], dict[int, "set[str] | None"]]
#: How many plans a writer keeps before it starts afresh (a few hundred sets of
#: changed parts recur in a match; the bound only caps a pathological one).
_PLANS_KEPT = 4096

#: What an entry holds for a key it lacks: equal to no value.
_ABSENT = object()


#: The inner features of a per-seat table: each with its offset in an entry and its
#: zeros; the positions of those read again whenever an entry changes (no reads
#: declared); for each entry key, the positions of those that read under it; for
#: each entry key all of whose reads go one key further (Mykerinos' ``patrons``, a
#: dict of dicts), the positions of those that read under each of its second keys.
_InnerSteps = tuple[
    list[tuple[Feature, int, "array[float]"]],
    list[int],
    dict[Any, list[int]],
    dict[Any, dict[Any, list[int]]],
]


def _inner_steps(inner: Sequence[Feature]) -> _InnerSteps:
    parts: list[tuple[Feature, int, array[float]]] = []
    always: list[int] = []
    by_key: dict[Any, list[int]] = {}
    by_second: dict[Any, dict[Any, list[int]]] = {}
    whole: set[Any] = set()  # keys some feature reads as a whole
    offset = 0
    for position, part in enumerate(inner):
        parts.append((part, offset, zeros(part.size)))
        if part.reads is None or not all(part.reads):
            always.append(position)
        else:
            for key in {path[0] for path in part.reads}:
                by_key.setdefault(key, []).append(position)
            for path in part.reads:
                if len(path) > 1 and isinstance(path[1], str):
                    seconds = by_second.setdefault(path[0], {})
                    positions = seconds.setdefault(path[1], [])
                    if position not in positions:
                        positions.append(position)
                else:
                    whole.add(path[0])
        offset += part.size
    for key in whole:
        by_second.pop(key, None)
    return parts, always, by_key, by_second


def _moved(
    seconds: Mapping[Any, list[int]], before: Any, now: Any, under: Sequence[int]
) -> Sequence[int]:
    """The positions of the inner features to write again when an entry's value at a
    key went from ``before`` to ``now`` (unequal), ``seconds`` the positions under
    each of its second keys (every feature under it reads one): where both values are
    dicts, only those under the second keys whose values differ (one patron's cards,
    not all twelve numbers of the patrons); else ``under``, all of them."""
    if type(before) is not dict or type(now) is not dict:
        return under
    moved: list[int] = []
    for second, positions in seconds.items():
        if before.get(second, _ABSENT) != now.get(second, _ABSENT):
            moved.extend(positions)
    return moved


def _gates(reads: tuple[Path, ...] | None) -> frozenset[Hashable] | None:
    """What a change must mark for ``reads`` to be read again: a path of one key is
    gated by that key, a longer one by its first two keys as a pair or by its first
    key's part changing as a whole (``(key, None)``). ``None`` (written every time):
    no reads declared, or a path that does not start with a key."""
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
            if isinstance(path[1], int) and len(path) > 2:
                gates.add((path[0], path[2]))  # a key of a per-seat table's entries
    return frozenset(gates)


@cache
def _encoder(
    game_id: str, seats: int, options_key: tuple[tuple[str, Any], ...]
) -> ObservationEncoder:
    encoding = encoding_for(game_id)
    options = dict(options_key)
    return ObservationEncoder(
        encoding.features(seats, options), encoding.direct_tensor(seats, options)
    )


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
