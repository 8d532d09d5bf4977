"""Observation features: small declared pieces that turn a seat's view into floats.

A game's observation tensor is the concatenation of its features, in the order its
encoding declares them. Each feature has a fixed size known before any view is seen,
so the tensor's length depends on the game, the seat count and the options only.
Features read the view (``GameState.view(seat)``) and nothing else: an observation
can never show what the seat may not see.

Seats are relative to the viewer: slot 0 is the viewer, slot 1 the next seat in
turn order, and so on, so a policy learnt at one seat plays any seat.

A feature may declare what it *reads* (paths into the view): an environment that
encodes one seat's views move after move then rewrites only the features whose reads
lie under a part of the view the rules core says changed
(:class:`senet.rl.encoding.TensorWriter`), which is most of an observation's cost
saved, as a move changes little of a view. A feature without reads is written every
time.
"""

from __future__ import annotations

from array import array
from collections.abc import (
    Callable,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    MutableSequence,
    Sequence,
)
from dataclasses import dataclass
from typing import Any

View = Mapping[str, Any]
#: Keys and list indexes from a view's root to a value.
Path = tuple[str | int, ...]
#: Where features write: a list of floats, or a tensor writer's ``array`` of floats.
Out = MutableSequence[float]
#: Writes a feature's floats for one view into ``out`` starting at ``at``.
Writer = Callable[[View, Out, int], None]


@dataclass(frozen=True)
class Feature:
    """A named slice of the observation tensor.

    Attributes:
        name: What the slice means (documented in ``docs/learning.md``).
        size: How many floats it takes, whatever the view.
        write: Fills ``out[at : at + size]`` from a view (the slice starts zeroed).
        reads: Every path into the view that ``write`` reads, when declared: while
            the values there stay equal, so does the slice (the viewer and the seat
            count are fixed for a seat, so they need not be named). ``None``: unknown.
        write_entry: See the attribute's comment.
        entry_width: See the attribute's comment.
        inner: See the attribute's comment.
    """

    name: str
    size: int
    write: Writer
    reads: tuple[Path, ...] | None = None
    #: For a per-seat table (:func:`per_seat`): writes one seat's entry of the list at
    #: ``reads[0]`` into its slot of ``entry_width`` floats, so that a writer rewrites
    #: only the seats whose entry changed.
    write_entry: Writer | None = None
    entry_width: int = 0
    #: For a per-seat table: the features ``write_entry`` writes, in order, so that a
    #: writer rewrites only those whose reads differ in a changed entry.
    inner: tuple[Feature, ...] | None = None


def slices(features: Iterable[Feature]) -> dict[str, tuple[int, int]]:
    """Each feature's ``(start, size)`` by name, the features laid end to end in order:
    where a tensor (or a per-seat table's entry, given its inner features) holds each
    one's floats."""
    found: dict[str, tuple[int, int]] = {}
    at = 0
    for feature in features:
        found[feature.name] = (at, feature.size)
        at += feature.size
    return found


def zeros(size: int, typecode: str = "f") -> array[float]:
    """``size`` zeros in an ``array`` of ``typecode``: floats (``"f"``, what tensor
    writers write: the observations are float32) or doubles (``"d"``). A slice of a
    writer's array is cleared with zeros of its own type (``out.typecode``)."""
    blank: array[float] = array(typecode)
    blank.frombytes(bytes(blank.itemsize * size))
    return blank


def lookup(view: View, path: Sequence[str | int]) -> Any:
    """The value at ``path`` (keys and list indexes) in ``view``; ``None`` if absent."""
    value: Any = view
    for key in path:
        # Exact types first: views are plain dicts and lists, and the ABC check of
        # ``isinstance(value, Mapping)`` costs more than the rest of the step.
        kind = type(value)
        if kind is dict or (kind is not list and isinstance(value, Mapping)):
            value = value.get(key)
        elif kind is list and type(key) is int and 0 <= key < len(value):
            value = value[key]
        else:
            return None
        if value is None:
            return None
    return value


def relative_seat(seat: int, viewer: int, seats: int) -> int:
    """``seat`` counted from ``viewer`` in turn order (the viewer is 0)."""
    return (seat - viewer) % seats


def number(name: str, *path: str | int, scale: float = 1.0) -> Feature:
    """One number (``None``, false or absent: 0; true: 1), divided by ``scale``."""

    def write(view: View, out: Out, at: int) -> None:
        value = lookup(view, path)
        out[at] = float(value or 0) / scale

    return Feature(name, 1, write, (path,))


def numbers(name: str, *path: str | int, length: int, scale: float = 1.0) -> Feature:
    """A list of numbers, zero-padded to ``length``.

    Raises (when writing):
        ValueError: the list is longer than ``length`` (the declaration is wrong).
    """

    def write(view: View, out: Out, at: int) -> None:
        values = lookup(view, path) or ()
        if len(values) > length:
            raise ValueError(f"feature {name!r}: {len(values)} values, declared {length}")
        for i, value in enumerate(values):
            out[at + i] = float(value or 0) / scale

    return Feature(name, length, write, (path,))


def one_hot(name: str, *path: str | int, vocabulary: Sequence[Hashable]) -> Feature:
    """The value's position in ``vocabulary`` as a one-hot block; all zeros for ``None``.

    Raises (when writing):
        ValueError: a value outside the vocabulary.
    """
    index = {value: i for i, value in enumerate(vocabulary)}

    def write(view: View, out: Out, at: int) -> None:
        value = lookup(view, path)
        if value is None:
            return
        if value not in index:
            raise ValueError(f"feature {name!r}: {value!r} is not in its vocabulary")
        out[at + index[value]] = 1.0

    return Feature(name, len(vocabulary), write, (path,))


def counts(
    name: str, *path: str | int, vocabulary: Sequence[Hashable], scale: float = 1.0
) -> Feature:
    """How many of each vocabulary entry: from a list of entries (a multi-hot when
    each appears once) or a mapping of entry to number.

    Raises (when writing):
        ValueError: an entry outside the vocabulary.
    """
    index = {value: i for i, value in enumerate(vocabulary)}

    def write(view: View, out: Out, at: int) -> None:
        found = lookup(view, path)
        if found is None:
            return
        if type(found) is list:
            # The common case (a hand, a display): counted without a pair per entry,
            # and without the ABC check a mapping needs (it cost a fifth of a step).
            for entry in found:
                slot = index.get(entry)
                if slot is None:
                    raise ValueError(f"feature {name!r}: {entry!r} is not in its vocabulary")
                out[at + slot] += 1.0 / scale
            return
        pairs: Iterable[tuple[Any, Any]] = (
            found.items()
            if type(found) is dict or isinstance(found, Mapping)
            else ((entry, 1) for entry in found)
        )
        for entry, amount in pairs:
            if entry not in index:
                raise ValueError(f"feature {name!r}: {entry!r} is not in its vocabulary")
            out[at + index[entry]] += float(amount or 0) / scale

    return Feature(name, len(vocabulary), write, (path,))


def seat(name: str, *path: str | int, max_seats: int) -> Feature:
    """A seat number as a one-hot over seats relative to the viewer; zeros for ``None``."""

    def write(view: View, out: Out, at: int) -> None:
        value = lookup(view, path)
        if value is None or value < 0:
            return
        out[at + relative_seat(value, _viewer(view), _seats(view))] = 1.0

    return Feature(name, max_seats, write, (path,))


def per_seat(name: str, *path: str | int, max_seats: int, inner: Sequence[Feature]) -> Feature:
    """The inner features of each seat's entry of the list at ``path``, viewer first.

    Entry ``i`` of the list belongs to seat ``i``; seats the match does not have
    stay zero up to ``max_seats``.
    """
    width = sum(f.size for f in inner)

    def write_entry(entry: Any, out: Out, start: int) -> None:
        for feature in inner:
            feature.write(entry, out, start)
            start += feature.size

    def write(view: View, out: Out, at: int) -> None:
        for slot, entry in seat_entries(view, path):
            write_entry(entry, out, at + slot * width)

    return Feature(name, max_seats * width, write, (path,), write_entry, width, tuple(inner))


def custom(
    name: str, size: int, write: Writer, reads: Sequence[Sequence[str | int]] | None = None
) -> Feature:
    """A feature a game computes itself (``write`` must stay within ``size``); ``reads``
    names every path into the view it reads (``None``: written every time)."""
    return Feature(name, size, write, None if reads is None else tuple(tuple(p) for p in reads))


def size_of(name: str, *path: str | int) -> Feature:
    """How many entries the list (or mapping) at ``path`` has; 0 when absent."""

    def write(view: View, out: Out, at: int) -> None:
        out[at] = float(len(lookup(view, path) or ()))

    return Feature(name, 1, write, (path,))


def seat_entries(view: View, path: Sequence[str | int]) -> Iterator[tuple[int, Any]]:
    """The entries of the per-seat list at ``path`` (entry ``i`` is seat ``i``'s), each
    with its seat counted from the viewer."""
    return entries_by_seat(view, lookup(view, path) or ())


def entries_by_seat(view: View, entries: Iterable[Any]) -> Iterator[tuple[int, Any]]:
    """``entries`` (entry ``i`` is seat ``i``'s), each with its seat counted from the
    viewer of ``view``."""
    viewer, seats = _viewer(view), _seats(view)
    for seat_index, entry in enumerate(entries):
        yield relative_seat(seat_index, viewer, seats), entry


def _viewer(view: View) -> int:
    viewer = view.get("viewer")
    return viewer if isinstance(viewer, int) else 0


def _seats(view: View) -> int:
    seats = view.get("seats")
    if isinstance(seats, int) and seats > 0:
        return seats
    found = view.get("scores")
    return len(found) if isinstance(found, list) and found else 1


def seat_numbers(name: str, *path: str | int, max_seats: int, scale: float = 1.0) -> Feature:
    """A list with one number per seat (scores, hand sizes), viewer first."""

    def write(view: View, out: Out, at: int) -> None:
        for slot, value in seat_entries(view, path):
            out[at + slot] = float(value or 0) / scale

    return Feature(name, max_seats, write, (path,))


def players_and_scores(
    inner: Sequence[Feature], max_seats: int, score_scale: float
) -> tuple[Feature, Feature]:
    """The two features that end a game's observation: each seat's entry of the view's
    ``players`` list (``inner``), then the ``scores``, both viewer first."""
    return (
        per_seat("players", "players", max_seats=max_seats, inner=inner),
        seat_numbers("scores", "scores", max_seats=max_seats, scale=score_scale),
    )
