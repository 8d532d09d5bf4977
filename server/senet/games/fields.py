"""A state's fields, declared once: clone, to_data and snapshot_data are built from it.

A game state keeps its position in plain attributes: scalars, lists, lists of lists
and a few special values (the generator, the options, the final breakdown). Three
operations must agree on all of them: :meth:`~senet.games.interface.GameState.clone`
(search copies; a list it forgets to copy links the copy to the live match),
:meth:`~senet.games.interface.GameState.to_data` (snapshots; a field it forgets is
lost on reload) and :meth:`~senet.games.interface.GameState.snapshot_data` (the same
snapshot, shared rather than copied, for encoding at once); a fourth,
:meth:`~senet.games.interface.GameState.changed_fields`, tells a caller which of them
changed since it last asked, so that what is derived from the others (a view, an
observation tensor) is rebuilt where it must be only. A :class:`StateFields`
names every attribute of a state class once, with a :class:`FieldKind` that says how
each operation treats it, and builds the three operations from that list.

The operations are generated as Python source once per class (as ``dataclasses``
does for ``__init__``): clone runs once per served action and once per search node,
and an unrolled body of dict reads and slices is as fast as the hand-written
copies it replaces, where a loop over the declaration would not be.

``from_data`` stays hand-written, because it checks each field against the rules;
``tests/test_state_fields.py`` proves it reads every saved field and that every
attribute a state ever holds is declared here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import Any, Generic, TypeVar

from senet.games import validate as v
from senet.games.errors import CorruptStateError, GameError
from senet.games.interface import Game, GameState, JsonDict
from senet.games.rng import Rng

S = TypeVar("S", bound=GameState)

#: What a mark holds for a field it has not seen: equal to no value.
_ABSENT = object()

#: ``value[:]`` as a function, for ``map``.
_slice_copy = itemgetter(slice(None))


@dataclass(frozen=True)
class FieldKind:
    """How clone, to_data and snapshot_data treat one kind of attribute.

    Each template is a Python expression in which ``{x}`` reads the attribute;
    ``clone`` is ``None`` when clones share the value (it is immutable, or only
    ever replaced as a whole).

    Attributes:
        name: What the kind is called in messages and tests.
        clone: The copy a clone gets, or ``None`` to share the value.
        data: The value :meth:`GameState.to_data` stores: a fresh copy.
        snapshot: The value :meth:`GameState.snapshot_data` stores; it may share.
        copied: Whether clones must hold their own object (tests check it).
    """

    name: str
    clone: str | None
    data: str
    snapshot: str
    copied: bool

    def __call__(self, *attributes: str) -> tuple[Field, ...]:
        """Declare ``attributes`` as fields of this kind, in this order."""
        return tuple(Field(name, self) for name in attributes)


#: An int, str, bool or ``None``: shared by clones, stored as is.
SCALAR = FieldKind("scalar", None, "{x}", "{x}", copied=False)
#: A list of scalars: each clone and snapshot gets its own slice.
LIST = FieldKind("list", "{x}[:]", "{x}[:]", "{x}", copied=True)
#: A list of lists of scalars (per-seat rows): copied row by row.
TABLE = FieldKind("table", "list(map(_slice, {x}))", "list(map(_slice, {x}))", "{x}", copied=True)
#: A list of tables (per seat, a list of lists): copied down to the scalars.
TABLES = FieldKind(
    "tables",
    "[list(map(_slice, r)) for r in {x}]",
    "[list(map(_slice, r)) for r in {x}]",
    "{x}",
    copied=True,
)
#: A list of tuples of scalars: clones share the tuples, snapshots store them as lists
#: (both encode as the same JSON arrays).
PAIRS = FieldKind("pairs", "{x}[:]", "list(map(list, {x}))", "{x}", copied=True)
#: A dict of scalars (the match options).
MAPPING = FieldKind("mapping", "dict({x})", "dict({x})", "{x}", copied=True)
#: The state's :class:`~senet.games.rng.Rng`: stored as its integer state.
RNG = FieldKind("rng", "_Rng({x}.state)", "{x}.state", "{x}.state", copied=True)
#: Nested plain data or ``None`` (the final breakdown): deep-copied.
DEEP = FieldKind(
    "deep",
    "None if {x} is None else _deepcopy({x})",
    "None if {x} is None else _deepcopy({x})",
    "{x}",
    copied=True,
)
#: Not stored in snapshots and shared by clones: an immutable value, a value the
#: state derives from stored fields and only ever replaces as a whole (never changes
#: in place), or scratch that is ``None`` between actions.
SHARED = FieldKind("shared", None, "{x}", "{x}", copied=False)


@dataclass(frozen=True)
class Field:
    """One attribute of a state class and its kind."""

    name: str
    kind: FieldKind


class StateFields(Generic[S]):
    """Every attribute of one state class, and the operations built from them.

    ``saved`` fields go into snapshots, in this order, after the header every
    snapshot starts with (``game``, ``seats``, ``options``); ``derived`` fields are
    rebuilt by ``from_data`` from the saved ones and are only copied by clones. The
    header's attributes (``game``, ``seat_count``, ``options``) are declared here
    for every state, since the :class:`GameState` interface names them.

    A state class names its declaration in ``state_fields``, and
    :class:`~senet.games.interface.GameState` installs the functions built from it
    as the class's ``clone``, ``to_data`` and ``snapshot_data``::

        class MyState(GameState):
            state_fields = FIELDS  # nothing else to write
    """

    def __init__(
        self,
        game_id: str,
        saved: tuple[Field, ...],
        derived: tuple[Field, ...] = (),
        filled_when_missing: tuple[str, ...] = (),
    ) -> None:
        self.game_id = game_id
        #: Saved fields that snapshots written by an older release lack; the
        #: state's ``from_data`` fills each from the others, so a match in flight
        #: survives the upgrade. Every other saved field is required.
        self.filled_when_missing: frozenset[str] = frozenset(filled_when_missing)
        header = (Field("game", SHARED), Field("seat_count", SCALAR), Field("options", MAPPING))
        self.saved: tuple[Field, ...] = saved
        self.derived: tuple[Field, ...] = derived
        self.fields: tuple[Field, ...] = (*header, *saved, *derived)
        names = [f.name for f in self.fields]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"fields declared twice: {', '.join(duplicates)}")
        for name in names:
            if not name.isidentifier():
                raise ValueError(f"not an attribute name: {name!r}")
        unknown = self.filled_when_missing - {f.name for f in saved}
        if unknown:
            raise ValueError(f"not saved fields: {', '.join(sorted(unknown))}")
        #: The keys of :meth:`to_data`, in order.
        self.keys: tuple[str, ...] = ("game", "seats", "options", *(f.name for f in saved))
        self.clone: Callable[[S], S] = self._build_clone()
        self.to_data: Callable[[S], JsonDict] = self._build_data("data")
        self.snapshot_data: Callable[[S], JsonDict] = self._build_data("snapshot")
        #: Per key of :meth:`to_data`, a function giving that key's value alone (for a
        #: view that shows some fields of the snapshot and rebuilds only those).
        self.data_of: dict[str, Callable[[S], Any]] = self._build_data_of()
        #: The fields :attr:`changed_fields` reports: all but the generator and shared ones.
        self.reported: frozenset[str] = frozenset(
            f.name for f in self.fields if f.kind not in (RNG, SHARED)
        )
        self.changed_fields: Callable[[S, dict[str, Any]], list[str]] = self._build_changes()

    def names(self) -> frozenset[str]:
        """Every declared attribute name."""
        return frozenset(f.name for f in self.fields)

    def _build_clone(self) -> Callable[[S], S]:
        lines = ["def clone(self):", "    d = self.__dict__", "    f = d.copy()"]
        for field in self.fields:
            if field.kind.clone is not None:
                value = field.kind.clone.format(x=f"d[{field.name!r}]")
                lines.append(f"    f[{field.name!r}] = {value}")
        lines += ["    twin = _new(self.__class__)", "    twin.__dict__ = f", "    return twin"]
        return self._compile(lines, "clone")

    def _build_changes(self) -> Callable[[S, dict[str, Any]], list[str]]:
        # Unrolled like clone: one comparison per field, in C for lists and tables,
        # and a copy only of what changed (the mark must not share a mutable value
        # with the state, or it would change with it). The generator is left out:
        # it moves on nearly every action and no view shows it, and shared fields
        # are scratch or derived.
        lines = [
            "def changed_fields(self, mark):",
            "    d = self.__dict__",
            "    seen = mark.get",
            "    out = []",
        ]
        for field in self.fields:
            if field.name not in self.reported:
                continue
            copied = field.kind.clone or "{x}"
            lines += [
                f"    v = d[{field.name!r}]",
                f"    if seen({field.name!r}, _absent) != v:",
                f"        out.append({field.name!r})",
                f"        mark[{field.name!r}] = {copied.format(x='v')}",
            ]
        lines.append("    return out")
        return self._compile(lines, "changed_fields")

    def _build_data(self, which: str) -> Callable[[S], JsonDict]:
        # One store per field: a literal of more than 16 entries compiles to
        # chunks merged with DICT_UPDATE, which is slower.
        def value(kind: FieldKind, name: str) -> str:
            template = kind.data if which == "data" else kind.snapshot
            return template.format(x=f"d[{name!r}]")

        lines = [
            f"def {which}(self):",
            "    d = self.__dict__",
            f"    out = {{'game': {self.game_id!r}, 'seats': d['seat_count'], "
            f"'options': {value(MAPPING, 'options')}}}",
            *(f"    out[{f.name!r}] = {value(f.kind, f.name)}" for f in self.saved),
            "    return out",
        ]
        return self._compile(lines, which)

    def _build_data_of(self) -> dict[str, Callable[[S], Any]]:
        # The same expressions as to_data's, one function per key.
        lines = [
            "def data_of():",
            f"    out = {{'game': lambda self: {self.game_id!r}}}",
            "    out['seats'] = lambda self: self.__dict__['seat_count']",
            "    out['options'] = lambda self: "
            + MAPPING.data.format(x="self.__dict__['options']"),
            *(
                f"    out[{f.name!r}] = lambda self: "
                + f.kind.data.format(x=f"self.__dict__[{f.name!r}]")
                for f in self.saved
            ),
            "    return out",
        ]
        built: dict[str, Callable[[S], Any]] = self._compile(lines, "data_of")()
        return built

    def _compile(self, lines: list[str], name: str) -> Callable[..., Any]:
        namespace: dict[str, Any] = {
            "_slice": _slice_copy,
            "_Rng": Rng,
            "_deepcopy": copy.deepcopy,
            "_new": object.__new__,
            "_absent": _ABSENT,
        }
        source = "\n".join(lines) + "\n"
        exec(compile(source, f"<{self.game_id} state fields: {name}>", "exec"), namespace)
        function: Callable[..., Any] = namespace[name]
        function.__doc__ = f"Built by StateFields from the {self.game_id} declaration."
        return function


def snapshot_header(game: Game, data: Mapping[str, Any]) -> tuple[int, JsonDict, Rng]:
    """The seat count, options and generator every snapshot starts with, checked.

    Raises:
        CorruptStateError: a bad seat count, options that are not the normalized
            options of that seat count, or a bad generator state.
    """
    f = partial(v.field, data)
    info = game.info
    seats = v.integer(f("seats"), "seats", info.min_seats, info.max_seats)
    options = f("options")
    if not isinstance(options, dict):
        raise CorruptStateError(f"options {options!r} are not normalized options")
    try:
        # A new dict: the state must not share a mutable object with the caller's data.
        normalized = game.normalize_options(seats, options)
    except GameError as exc:
        raise CorruptStateError(f"bad options: {exc}") from exc
    if normalized != options:
        raise CorruptStateError(f"options {options!r} are not normalized options")
    return seats, normalized, Rng(v.integer(f("rng"), "rng", 0, (1 << 64) - 1))
