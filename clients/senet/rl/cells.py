"""A tensor kept in step with a state's fields by a plan: find what changed, write it.

A direct writer (:class:`senet.rl.encoding.DirectTensor`) keeps a copy of every state
field its tensor is written from, compares, and writes again only what differs.
Most of its slices are of a few shapes: a number, a length, counts of a list's
entries, a list of numbers, a one-hot index, and each of these per seat. A writer
declares those once as a plan (a tuple of :class:`Step`); :class:`Cells` then reads
each step's field, compares it with its copy and writes the changed cells, all in
one call, :meth:`Cells.sync`. The slices no step shape fits are *custom* steps: a
sync only compares and copies them, and reports the changed ones to the writer.

This module is the reference. ``cells.c`` beside it is the same engine in C, built by
:mod:`senet.rl.native` into a twin that :func:`senet.rl.native.preferred` hands out
(the tests hold the two to the same results over random plans and values). In the C
twin the whole plan runs without the interpreter: an observation that costs only
its comparisons is the point, since an environment writes one at every step.

The floats are the features' own (:mod:`senet.rl.features`): ``value / scale`` with
``value`` a number, a length or a count, ``None`` read as ``0``; a count is ``+= 1.0``
per entry over zeros. The tensor is an ``array`` of floats (``"f"``, what the
environments hand out) or of doubles (``"d"``): each value is worked out in doubles
and stored, as Python's ``out[i] = value`` and ``out[i] += 1.0`` store it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import compress
from operator import attrgetter, ne
from typing import Any, NamedTuple

from senet.rl.features import zeros

#: A step's shapes (:attr:`Step.kind`). Per-seat ("rows") shapes read a list with one
#: entry per seat and write each seat's entry at its own offset (``ats``).
CUSTOM, NUMBER, LENGTH, COUNTS, VECTOR, ONE_HOT, OWNERS = range(7)
ROW_NUMBERS, ROW_LENGTHS, ROW_COUNTS, ROW_VECTORS, ROW_SUMS = range(7, 12)
TABLE = 12
_ROWS = frozenset({ROW_NUMBERS, ROW_LENGTHS, ROW_COUNTS, ROW_VECTORS, ROW_SUMS})
#: The shapes that write a number worked out from their field (a length, a sum).
_DERIVED = frozenset({LENGTH, ROW_LENGTHS, ROW_SUMS})


class Step(NamedTuple):
    """One slice of a tensor and the state field it is written from.

    Attributes:
        kind: The shape (module constants).
        field: The state's attribute read.
        row: When ``>= 0``, the field's entry at this index is read instead (a
            viewer's own hand in a per-seat list).
        at: Where the slice starts (shapes of one value).
        ats: Per seat, where its slice starts (per-seat shapes); for owners and
            tables, the one stride between places or slots.
        width: The slice's width (counts, vectors, one-hot, owners).
        scale: What numbers and lengths are divided by.
        channels: Where each value lands in a slice: a count's entry, a one-hot
            index, an owner's channel, a table row's slot (empty: the value itself).
        empty: The value that writes nothing (one-hot and owners).
    """

    kind: int
    field: str
    row: int = -1
    at: int = 0
    ats: tuple[int, ...] = ()
    width: int = 0
    scale: float = 1.0
    channels: tuple[int, ...] = ()
    empty: int = -1


def custom(field: str) -> Step:
    """A field the writer writes itself: :meth:`Cells.sync` reports when it changed."""
    return Step(CUSTOM, field)


def number(field: str, at: int, scale: float = 1.0) -> Step:
    """``field / scale`` at ``at``."""
    return Step(NUMBER, field, at=at, scale=scale)


def length(field: str, at: int, scale: float = 1.0) -> Step:
    """``len(field) / scale`` at ``at``."""
    return Step(LENGTH, field, at=at, scale=scale)


def counts(field: str, at: int, width: int, channels: tuple[int, ...] = (), row: int = -1) -> Step:
    """How many times each index (or its channel) occurs in the list ``field``."""
    return Step(COUNTS, field, row=row, at=at, width=width, channels=channels)


def vector(field: str, at: int, width: int, scale: float = 1.0, row: int = -1) -> Step:
    """Each number of the list ``field`` over ``scale``, in turn; zeros after its end."""
    return Step(VECTOR, field, row=row, at=at, width=width, scale=scale)


def one_hot(
    field: str, at: int, width: int, channels: tuple[int, ...] = (), empty: int = -1
) -> Step:
    """A one at the index ``field`` (or its channel); zeros for ``None`` or ``empty``."""
    return Step(ONE_HOT, field, at=at, width=width, channels=channels, empty=empty)


def owners(
    field: str, at: int, width: int, stride: int, channels: tuple[int, ...], empty: int
) -> Step:
    """For each place of the list ``field`` (``stride`` cells apart from ``at``), a
    one at its owner's channel, nothing where it holds ``empty``; ``width`` cells are
    zeroed when the list's length changes."""
    return Step(OWNERS, field, at=at, ats=(stride,), width=width, channels=channels, empty=empty)


def row_numbers(field: str, ats: Sequence[int], scale: float = 1.0) -> Step:
    """Each seat's number over ``scale``, at its offset."""
    return Step(ROW_NUMBERS, field, ats=tuple(ats), scale=scale)


def row_lengths(field: str, ats: Sequence[int], scale: float = 1.0) -> Step:
    """The length of each seat's entry over ``scale``, at its offset."""
    return Step(ROW_LENGTHS, field, ats=tuple(ats), scale=scale)


def row_counts(field: str, ats: Sequence[int], width: int, channels: tuple[int, ...] = ()) -> Step:
    """Each seat's counts (as :func:`counts`), at its offset."""
    return Step(ROW_COUNTS, field, ats=tuple(ats), width=width, channels=channels)


def row_vectors(field: str, ats: Sequence[int], width: int, scale: float = 1.0) -> Step:
    """Each seat's list of numbers (as :func:`vector`), at its offset."""
    return Step(ROW_VECTORS, field, ats=tuple(ats), width=width, scale=scale)


def row_sums(field: str, ats: Sequence[int], scale: float = 1.0) -> Step:
    """The sum of each seat's list of ints over ``scale``, at its offset."""
    return Step(ROW_SUMS, field, ats=tuple(ats), scale=scale)


def table(
    field: str, at: int, width: int, stride: int, scale: float = 1.0, channels: tuple[int, ...] = ()
) -> Step:
    """Rows of numbers summed into slots: each row's numbers over ``scale`` are added
    into the slot its channel names (``stride`` cells apart from ``at``), in row order,
    so a slot holds the sum of its rows; only the slots of changed rows are written
    again (all of them when the number of rows changed)."""
    return Step(TABLE, field, at=at, ats=(stride,), width=width, scale=scale, channels=channels)


#: What no copy equals: the next sync writes that step.
_UNSEEN: Any = object()


def _snapshot(value: Any) -> Any:
    """A copy of ``value`` that its owner's later changes leave alone."""
    if type(value) is list:
        return [_snapshot(item) for item in value]
    if type(value) is dict:
        return dict(value)
    return value


class Cells:
    """Keeps ``out`` in step with a state by ``plan`` (see the module's docstring).

    Steps are laid once into functions that write their slices. A sync reads every
    plain field at once and compares them all with their copies in C
    (``attrgetter`` and ``map``); only the steps whose field changed run as Python,
    and the few that read a length or an entry of their field compare on their own.

    Args:
        out: The tensor (an ``array`` of floats or doubles), written in place (never
            resized while kept).
        plan: The steps, in the order they are compared.

    Raises:
        ValueError: a step's cells lie outside ``out``.
    """

    def __init__(self, out: array[float], plan: Sequence[Step]) -> None:
        self._out = out
        self._plan = tuple(plan)
        for step in self._plan:
            _check(step, len(out))
        #: The steps that compare their field as it is, and for each: how it writes,
        #: how its copy is made, and whether it is reported (a custom step).
        self._plain = [
            i for i, step in enumerate(self._plan) if step.row < 0 and step.kind not in _DERIVED
        ]
        fields = [self._plan[i].field for i in self._plain]
        read = attrgetter(*fields) if fields else (lambda state: ())
        self._read: Callable[[object], Any] = (
            (lambda state: (read(state),)) if len(fields) == 1 else read
        )
        self._steps = [
            (_writer(self._plan[i], out), _copier(self._plan[i]), i, self._plan[i].kind == CUSTOM)
            for i in self._plain
        ]
        self._others = [i for i in range(len(self._plan)) if i not in set(self._plain)]
        self._seen: list[Any] = []
        self._laid: list[tuple[int, _Sync]] = []
        self.forget()

    def forget(self) -> None:
        """Forget every copy: the next :meth:`sync` writes every step (and reports
        every custom one)."""
        self._seen = [_UNSEEN] * len(self._plain)
        self._laid = [(i, _laid(self._plan[i], self._out)) for i in self._others]

    def sync(self, state: object) -> list[int]:
        """Write the steps whose field differs from its copy; return the positions
        in the plan of the custom steps whose field did, in the plan's order.

        Raises:
            IndexError: a value lands outside its slice.
            TypeError, ValueError: a field is not of its step's shape.
        """
        values = self._read(state)
        seen, steps = self._seen, self._steps
        changed: list[int] = []
        for k in compress(range(len(values)), map(ne, values, seen)):
            value = values[k]
            write, copy, position, custom = steps[k]
            write(value, seen[k])
            seen[k] = copy(value)
            if custom:
                changed.append(position)
        reported = [position for position, laid in self._laid if laid(state)]
        if reported:
            changed = sorted(changed + reported)
        return changed


#: A step that reads a length or an entry of its field, laid: reads, compares with
#: its own copy, writes what changed, and says whether it is a custom step whose
#: value changed.
_Sync = Callable[[object], bool]


def _check(step: Step, size: int) -> None:
    if step.kind == CUSTOM:
        return
    starts = step.ats if step.kind in _ROWS else (step.at,)
    span = 1 if step.kind in (NUMBER, LENGTH, ROW_NUMBERS, ROW_LENGTHS, ROW_SUMS) else step.width
    for start in starts:
        if start < 0 or span < 0 or start + span > size:
            raise ValueError(f"step {step.field!r}: cells {start}..{start + span} outside {size}")


def _copier(step: Step) -> Callable[[Any], Any]:
    """How a step's copy is made: the written shapes read numbers, flat lists of
    numbers or lists of those (per seat); a custom field may nest anything."""
    if step.kind == CUSTOM:
        return _snapshot
    if step.kind in _ROWS or step.kind == TABLE:
        return lambda rows: [row[:] if type(row) is list else row for row in rows]
    return lambda value: value[:] if type(value) is list else value


def _laid(step: Step, out: array[float]) -> _Sync:
    """A step that reads a length (per seat or not) or an entry of its field."""
    field = attrgetter(step.field)
    row = step.row
    derived = step.kind in (ROW_LENGTHS, ROW_SUMS)
    write = _writer(step._replace(kind=ROW_NUMBERS if derived else step.kind), out)
    copy = _copier(step)
    seen: list[Any] = [_UNSEEN]

    def sync(state: object) -> bool:
        value = field(state)
        if row >= 0:
            value = value[row]
        if step.kind == LENGTH:
            value = len(value)
        elif step.kind == ROW_LENGTHS:
            value = list(map(len, value))
        elif step.kind == ROW_SUMS:
            value = list(map(sum, value))
        was = seen[0]
        if value == was:
            return False
        write(value, was)
        seen[0] = copy(value)
        return step.kind == CUSTOM

    return sync


def _writer(step: Step, out: array[float]) -> Callable[[Any, Any], None]:
    """How a step writes its value, given the copy of the last one (``_UNSEEN``
    before any)."""
    kind, at, width, scale, channels = step.kind, step.at, step.width, step.scale, step.channels
    if kind in (NUMBER, LENGTH):

        def number(value: Any, _: Any) -> None:
            out[at] = (0.0 if value is None else float(value)) / scale

        return number
    if kind == COUNTS:
        counts = _counter(out, width, channels)
        return lambda value, _: counts(at, value)
    if kind == VECTOR:
        vector = _vectorizer(out, width, scale)
        return lambda value, _: vector(at, value)
    if kind == ONE_HOT:
        return lambda value, _: _write_one_hot(out, step, value)
    if kind == OWNERS:
        return lambda value, was: _write_owners(out, step, value, was)
    if kind == TABLE:
        return _tabler(step, out)
    if kind in _ROWS:
        return _rows_writer(step, out)
    return lambda value, was: None  # custom: the writer's own


def _rows_writer(step: Step, out: array[float]) -> Callable[[Any, Any], None]:
    """Writes each seat's entry that differs from its copy."""
    kind, ats, scale = step.kind, step.ats, step.scale
    if kind == ROW_COUNTS:
        counts = _counter(out, step.width, step.channels)
    elif kind == ROW_VECTORS:
        vector = _vectorizer(out, step.width, scale)

    def rows(value: Sequence[Any], was: Any) -> None:
        if len(value) != len(ats):
            raise ValueError(f"step {step.field!r}: {len(value)} rows for {len(ats)} seats")
        for seat, row in enumerate(value):
            if was is not _UNSEEN and row == was[seat]:
                continue
            if kind == ROW_NUMBERS:
                out[ats[seat]] = (0.0 if row is None else float(row)) / scale
            elif kind == ROW_COUNTS:
                counts(ats[seat], row)
            else:
                vector(ats[seat], row)

    return rows


def _counter(
    out: array[float], width: int, channels: tuple[int, ...]
) -> Callable[[int, Sequence[int]], None]:
    """Writes counts of entries (each a place in the slice, or its channel's)."""
    blank = zeros(width, out.typecode)

    def counts(at: int, entries: Sequence[int]) -> None:
        out[at : at + width] = blank
        for entry in entries:
            index = _channel(channels, entry) if channels else entry
            if not 0 <= index < width:
                raise IndexError(f"index {index} outside a slice of {width}")
            out[at + index] += 1.0

    return counts


def _vectorizer(
    out: array[float], width: int, scale: float
) -> Callable[[int, Sequence[Any]], None]:
    """Writes a list of numbers over ``scale``, zeros after its end: the cells of
    each list are made once and kept for the next equal one (a seat's reserve or
    cards take few distinct values)."""

    @lru_cache(maxsize=1024)
    def cells(values: tuple[Any, ...]) -> array[float]:
        if len(values) > width:
            raise IndexError(f"{len(values)} numbers for a slice of {width}")
        written = [(0.0 if value is None else float(value)) / scale for value in values]
        return array(out.typecode, written + [0.0] * (width - len(values)))

    def vector(at: int, values: Sequence[Any]) -> None:
        out[at : at + width] = cells(tuple(values))

    return vector


def _channel(channels: tuple[int, ...], value: int) -> int:
    """Where ``value`` lands: its channel, or itself without channels."""
    if not channels:
        return value
    if not 0 <= value < len(channels):
        raise IndexError(f"no channel for {value}")
    return channels[value]


def _put(out: array[float], at: int, width: int, index: int, value: float) -> None:
    if not 0 <= index < width:
        raise IndexError(f"index {index} outside a slice of {width}")
    out[at + index] = value


def _write_one_hot(out: array[float], step: Step, value: Any) -> None:
    at, width = step.at, step.width
    out[at : at + width] = zeros(width, out.typecode)
    if value is not None and value != step.empty:
        _put(out, at, width, _channel(step.channels, value), 1.0)


def _write_owners(out: array[float], step: Step, places: Sequence[int], was: Any) -> None:
    """The owners that changed place by place; all cleared first when the number of
    places changed (or nothing was written yet). The changed places are found in C:
    a move changes one to three of a region's places."""
    at, stride, empty, channels = step.at, step.ats[0], step.empty, step.channels
    if was is _UNSEEN or len(was) != len(places):
        out[at : at + step.width] = zeros(step.width, out.typecode)
        was = [empty] * len(places)
    if len(places) * stride > step.width:
        raise IndexError(f"{len(places)} places for a slice of {step.width}")
    for place in compress(range(len(places)), map(ne, places, was)):
        now, before = places[place], was[place]
        base = at + place * stride
        if before != empty:
            out[base + _channel(channels, before)] = 0.0
        if now != empty:
            _put(out, base, stride, _channel(channels, now), 1.0)


def _tabler(step: Step, out: array[float]) -> Callable[[Any, Any], None]:
    """Writes the slots of the rows that changed, each cleared and its rows added
    again in row order (all of them when the number of rows changed, or nothing was
    written). Each number of rows has its rows' slots worked out once."""
    at, width, stride, scale, channels = step.at, step.width, step.ats[0], step.scale, step.channels
    whole, blank = zeros(width, out.typecode), zeros(stride, out.typecode)
    #: Per number of rows: each row's slot, and each slot's rows in order.
    layouts: dict[int, tuple[list[int], dict[int, list[int]]]] = {}

    def layout(count: int) -> tuple[list[int], dict[int, list[int]]]:
        found = layouts.get(count)
        if found is None:
            slot_of = [_channel(channels, row) for row in range(count)]
            for row, slot in enumerate(slot_of):
                if slot < 0 or (slot + 1) * stride > width:
                    raise IndexError(f"row {row} outside a table of {width} in slots of {stride}")
            rows_in = {slot: [r for r in range(count) if slot_of[r] == slot] for slot in slot_of}
            found = layouts[count] = (slot_of, rows_in)
        return found

    def table(rows: Sequence[Sequence[Any]], was: Any) -> None:
        slot_of, rows_in = layout(len(rows))
        if was is _UNSEEN or len(was) != len(rows):
            out[at : at + width] = whole
            dirty: Iterable[int] = rows_in
        else:
            dirty = {slot_of[row] for row in compress(range(len(rows)), map(ne, rows, was))}
        for slot in dirty:
            base = at + slot * stride
            out[base : base + stride] = blank
            for row in rows_in[slot]:
                values = rows[row]
                if len(values) > stride:
                    raise IndexError(f"row {row} outside a table of {width} in slots of {stride}")
                for column in compress(range(len(values)), values):
                    out[base + column] += values[column] / scale

    return table
