"""Mare Nostrum's direct tensor writer: a seat's observation from the state's fields.

The features in :mod:`senet.rl.marenostrum.encoding` define the tensor; this writer computes
the same floats without building the seat's view first (see
:meth:`senet.rl.encoding.RlEncoding.direct_tensor`). Each block of the tensor is a
*part* that names the state fields it reads. The writer keeps a copy of those fields
as it last saw them and compares them (values, not versions, so it holds for clones
and afterstates as for one match); only the parts that read a changed one are written
again. The large tables (legions, creatures and triremes per civilization, the cards
and free builds per seat) go further and rewrite only the rows that changed. Between
two observations of one seat a handful of fields change, so most of the 2,960 floats
at six seats are left alone.

Secrecy: a part reads what the seat's view shows and nothing else (the view is built
in ``senet.games.marenostrum.snapshot``): the viewer's own hand and pending offer, the
other seats' hand and offer sizes (sums of their rows), and the public fields. A
hidden field changing only makes the parts built from it (sizes, the deciding
seats) be written again, to the same floats.

It reads the state through :class:`MareFields`, the list of every field it reads (what
a review for secrecy checks), and takes the rules' tables from the encoding that
builds the features from them (:class:`MareRules`), so the two share their
vocabularies.

Every write mirrors its feature's arithmetic (``value / scale``; additions in the
feature's order where several civilizations share the neutral channel), so the floats
are equal to the last bit.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, itemgetter, ne
from typing import Any, Protocol, cast

from senet.games import GameState
from senet.rl.features import zeros

#: A battle total's scale in the ``rolled totals`` feature (totals reach the tens).
ROLLED_SCALE = 10.0


class MareFields(Protocol):
    """The fields of a Mare Nostrum state this writer reads (``MareState``'s): every
    one it may look at, in one place."""

    options: dict[str, Any]
    phase: int
    step: str
    turn: int
    roles: list[int]
    hands: list[list[int]]
    offers: list[list[int]]
    owned: list[list[int]]
    trade_size: int
    taker: int
    pay_left: int
    points_left: int
    seat_of: list[int]
    influence: list[int]
    caravans: list[int]
    held: list[list[int]]
    rolled: list[list[int]]
    available: list[int]

    def current_seat(self) -> int | None: ...

    def deciding_seats(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class MareRules:
    """What the writer needs of the rules' tables (from the game's modules).

    Attributes:
        phase_names: The phases' names, by phase number (the ``phase`` one-hot's
            vocabulary).
        steps: Every step (the ``step`` one-hot's vocabulary).
        role_ids: The roles, in the order of the ``role ...`` features.
        building_kinds: How many building kinds a province's ``held`` row has.
        caravan: The caravan's kind in that row (a bit per icon).
        field_kinds: Each state field's kind in the state's declaration
            (``"scalar"``, ``"list"``, ``"table"``, ``"mapping"``...).
    """

    phase_names: tuple[str, ...]
    steps: tuple[str, ...]
    role_ids: tuple[str, ...]
    building_kinds: int
    caravan: int
    field_kinds: Mapping[str, str]


#: Writes one part of the tensor from a state (into a slice zeroed first, unless the
#: part clears what it rewrites itself).
PartWriter = Callable[[MareFields, "array[float]"], None]

#: How a kept copy of a field is made, by the field's kind (``None``: shared, as
#: scalars are).
_COPIES: dict[str, Callable[[Any], Any] | None] = {
    "list": list.copy,
    "table": lambda rows: list(map(list.copy, rows)),
    "mapping": dict,
}
#: The per-seat tables of numbers, viewer first.
PER_SEAT_ROWS = ("face_up", "face_down", "free_left")


class MareTensor:
    """One seat's Mare Nostrum tensor, written from the state (a :class:`DirectTensor`).

    Args:
        seats: The match's seat count.
        max_seats: The seats the tensor has room for (the features' ``MAX_SEATS``).
        layout: Each feature's name and its ``(start, size)`` in the tensor.
        rules: The rules' tables the features read.
    """

    def __init__(
        self,
        seats: int,
        max_seats: int,
        layout: Mapping[str, tuple[int, int]],
        rules: MareRules,
    ) -> None:
        self.seats = seats
        self.rules = rules
        #: The one-hot vocabularies' indexes, as the features build them.
        self._phase_index = {name: i for i, name in enumerate(rules.phase_names)}
        self._step_index = {step: i for i, step in enumerate(rules.steps)}
        self.max_seats = max_seats
        #: The neutral civilizations' owner channel.
        self.neutral = max_seats
        self.owners = max_seats + 1
        self.size = sum(size for _, size in layout.values())
        self._at = {name: start for name, (start, _) in layout.items()}
        self._size_of = {name: size for name, (_, size) in layout.items()}
        #: Zeros to clear ``out`` and its parts with, of ``out``'s type.
        self._zeros = zeros(self.size)
        #: The viewer the writer last wrote for, and the array it wrote into.
        self._viewer = -1
        self._out: array[float] | None = None
        #: Per seat, its slot counted from the viewer; per civilization, its owner
        #: channel (from ``seat_of``, which it was worked out for).
        self._rel: list[int] = []
        self._owner: list[int] = []
        self._owner_seat_of: list[int] | None = None
        #: The tables written row by row (see :class:`_RowBlock`).
        self._blocks: list[_RowBlock] = []
        #: Each part: its slice, zeros to clear it with (``None``: it clears what it
        #: rewrites itself), and its writer.
        self._parts: list[tuple[int, int, array[float] | None, PartWriter]] = []
        by_field: dict[str, tuple[int, ...]] = {}
        for fields, names, write, zeroed in self._declare():
            start, stop = self._span(names, layout)
            for field in fields:
                by_field[field] = (*by_field.get(field, ()), len(self._parts))
            blank = zeros(stop - start) if zeroed else None
            self._parts.append((start, stop, blank, write))
        self._watch = _Watch(by_field, rules.field_kinds)

    @staticmethod
    def _span(names: tuple[str, ...], layout: Mapping[str, tuple[int, int]]) -> tuple[int, int]:
        """Where the features ``names`` lie (adjacent, in order)."""
        start = stop = layout[names[0]][0]
        for name in names:
            at, size = layout[name]
            if at != stop:
                raise ValueError(f"part {names}: feature {name!r} is not adjacent")
            stop = at + size
        return start, stop

    def _declare(self) -> list[tuple[tuple[str, ...], tuple[str, ...], PartWriter, bool]]:
        """Every part: the fields it reads, the features it covers, its writer, and
        whether its slice is zeroed before each write."""
        turn_fields = ("step", "traders", "offers", "trade_size", "actor")
        options = ("option free_setup", "option long_game", "option mythology_hannibal")
        parts: list[tuple[tuple[str, ...], tuple[str, ...], PartWriter]] = [
            (("options",), options, self._options),
            (("phase",), ("phase",), self._phase),
            (("step",), ("step",), self._step),
            (("turn",), ("turn",), self._turn),
            (turn_fields, ("current seat", "deciding seats"), self._deciding),
            (("roles",), tuple(f"role {role}" for role in self.rules.role_ids), self._roles),
            (("hands",), ("hand",), self._hand),
            (("offers",), ("offer",), self._offer),
            (("hands",), ("hand sizes",), self._hand_sizes),
            (("offers",), ("offer sizes",), self._offer_sizes),
            (("owned",), ("scores",), self._scores),
            (("trade_size",), ("trade size",), self._trade_size),
            (("taker",), ("taker",), self._taker),
            (("pay_left",), ("cards left to pay",), self._pay_left),
            (("points_left",), ("set-up points left",), self._points_left),
            (("influence", "seat_of"), ("influence",), self._influence),
            *(((key,), (key,), self._numbers_writer(key, 1.0)) for key in ("fortresses", "cities")),
            (("caravans",), ("caravans",), self._caravans),
            *(((key,), (key,), self._numbers_writer(key, 1.0)) for key in ("temples", "markets")),
            *(((key,), (key,), self._seat_table_writer(key)) for key in ("occupier", "converter")),
            (("held",), ("held",), self._held),
            (("rolled",), ("rolled totals",), self._rolled),
            (("stock",), ("stock",), self._numbers_writer("stock", 10)),
            (("bank",), ("bank",), self._numbers_writer("bank", 10)),
            (("available",), ("available",), self._available),
            (("god_holder",), ("god_holder",), self._seat_table_writer("god_holder")),
            (("god_used",), ("gods used",), self._numbers_writer("god_used", 1.0, "gods used")),
            (("owned",), ("owned",), self._owned),
        ]
        # Written row by row: they clear what they rewrite themselves.
        rows: list[tuple[tuple[str, ...], tuple[str, ...], PartWriter]] = [
            *(
                ((key, "seat_of"), (key,), self._by_owner(key, scale))
                for key, scale in (("legions", 4), ("creatures", 2), ("triremes", 4))
            ),
            *(((key,), (key,), self._per_seat_rows(key)) for key in PER_SEAT_ROWS),
        ]
        return [
            *((fields, names, write, True) for fields, names, write in parts),
            *((fields, names, write, False) for fields, names, write in rows),
        ]

    # ------------------------------------------------------------------ writing
    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        """Leave ``viewer``'s tensor of ``state`` in ``out`` (see :class:`DirectTensor`)."""
        if viewer != self._viewer or out is not self._out:
            self._restart(viewer, out)
        mare = cast(MareFields, state)
        parts = self._parts
        for index in self._watch.changed_parts(mare):
            start, stop, blank, write = parts[index]
            if blank is not None:
                out[start:stop] = blank
            write(mare, out)

    def _restart(self, viewer: int, out: array[float]) -> None:
        """Forget what was written: every part is written afresh for ``viewer``."""
        self._viewer = viewer
        self._out = out
        if out.typecode != self._zeros.typecode:
            self._retype(out.typecode)
        self._watch.forget()
        seats = self.seats
        self._rel = [(seat - viewer) % seats for seat in range(seats)]
        self._owner_seat_of = None
        for block in self._blocks:
            block.forget()
        out[:] = self._zeros

    def _retype(self, typecode: str) -> None:
        """Make the zeros of every part and block of ``typecode`` (``out``'s)."""
        self._zeros = zeros(self.size, typecode)
        self._parts = [
            (start, stop, None if blank is None else zeros(stop - start, typecode), write)
            for start, stop, blank, write in self._parts
        ]
        for block in self._blocks:
            block.retype(typecode)

    def _owners(self, seat_of: list[int]) -> list[int]:
        """Each civilization's owner channel (as ``_owner`` in the features): a new
        list whenever ``seat_of`` changes, the same one while it does not."""
        if seat_of != self._owner_seat_of:
            rel, neutral = self._rel, self.neutral
            owner = [rel[seat] if seat >= 0 else neutral for seat in seat_of]
            self._owner = owner
            self._owner_seat_of = list(seat_of)
        return self._owner

    # ------------------------------------------------------------ header parts
    def _options(self, state: MareFields, out: array[float]) -> None:
        at = self._at["option free_setup"]
        options = state.options
        for i, name in enumerate(("free_setup", "long_game", "mythology_hannibal")):
            out[at + i] = float(options.get(name) or 0) / 1.0

    def _phase(self, state: MareFields, out: array[float]) -> None:
        rules = self.rules
        out[self._at["phase"] + self._phase_index[rules.phase_names[state.phase]]] = 1.0

    def _step(self, state: MareFields, out: array[float]) -> None:
        out[self._at["step"] + self._step_index[state.step]] = 1.0

    def _turn(self, state: MareFields, out: array[float]) -> None:
        out[self._at["turn"]] = float(state.turn or 0) / 10

    def _deciding(self, state: MareFields, out: array[float]) -> None:
        rel = self._rel
        current = state.current_seat()
        if current is not None and current >= 0:
            out[self._at["current seat"] + rel[current]] = 1.0
        at = self._at["deciding seats"]
        for seat in state.deciding_seats():
            out[at + rel[seat]] = 1.0

    def _roles(self, state: MareFields, out: array[float]) -> None:
        rel, width = self._rel, self.max_seats
        at = self._at[f"role {self.rules.role_ids[0]}"]
        for role, holder in enumerate(state.roles):
            if holder >= 0:
                out[at + role * width + rel[holder]] = 1.0

    def _hand(self, state: MareFields, out: array[float]) -> None:
        at, hand = self._at["hand"], state.hands[self._viewer]
        for card in compress(range(len(hand)), hand):
            out[at + card] = float(hand[card]) / 5

    def _offer(self, state: MareFields, out: array[float]) -> None:
        at, offer = self._at["offer"], state.offers[self._viewer]
        for card in compress(range(len(offer)), offer):
            out[at + card] = float(offer[card]) / 5

    def _hand_sizes(self, state: MareFields, out: array[float]) -> None:
        self._sizes(state.hands, self._at["hand sizes"], out)

    def _offer_sizes(self, state: MareFields, out: array[float]) -> None:
        self._sizes(state.offers, self._at["offer sizes"], out)

    def _sizes(self, rows: list[list[int]], at: int, out: array[float]) -> None:
        """How many cards each seat holds in ``rows`` (public, as the view's sizes)."""
        rel = self._rel
        for seat, row in enumerate(rows):
            out[at + rel[seat]] = float(sum(row)) / 10

    def _scores(self, state: MareFields, out: array[float]) -> None:
        rel, at = self._rel, self._at["scores"]
        for seat, owned in enumerate(state.owned):
            out[at + rel[seat]] = float(len(owned)) / 10

    def _trade_size(self, state: MareFields, out: array[float]) -> None:
        out[self._at["trade size"]] = float(state.trade_size or 0) / 10

    def _taker(self, state: MareFields, out: array[float]) -> None:
        if state.taker >= 0:
            out[self._at["taker"] + self._rel[state.taker]] = 1.0

    def _pay_left(self, state: MareFields, out: array[float]) -> None:
        out[self._at["cards left to pay"]] = float(state.pay_left or 0) / 10

    def _points_left(self, state: MareFields, out: array[float]) -> None:
        out[self._at["set-up points left"]] = float(state.points_left or 0) / 9

    # ------------------------------------------------------------- board parts
    def _influence(self, state: MareFields, out: array[float]) -> None:
        owner, owners = self._owners(state.seat_of), self.owners
        at = self._at["influence"]
        for province, civ in enumerate(state.influence):
            if civ >= 0:
                out[at + province * owners + owner[civ]] = 1.0

    def _by_owner(self, key: str, scale: int) -> PartWriter:
        """A per-civilization, per-space table summed into owner channels (the
        neutral channel sums several civilizations)."""
        block = _RowBlock(key, self._at[key], self._size_of[key], self.owners, scale)
        self._blocks.append(block)
        return lambda state, out: block.write(state, self._owners(state.seat_of), out)

    def _per_seat_rows(self, key: str) -> PartWriter:
        """Per-seat rows of numbers, viewer first (``float(value)`` is ``value / 1``)."""
        block = _RowBlock(key, self._at[key], self._size_of[key], self.max_seats, 1)
        self._blocks.append(block)
        return lambda state, out: block.write(state, self._rel, out)

    def _numbers_writer(self, key: str, scale: float, name: str | None = None) -> PartWriter:
        """A public list of numbers divided by ``scale`` (the ``numbers`` feature)."""
        at, values_of = self._at[name or key], attrgetter(key)
        indexes = range(self._size_of[name or key])

        def write(state: MareFields, out: array[float]) -> None:
            values = values_of(state)
            for i in compress(indexes, values):
                out[at + i] = float(values[i]) / scale

        return write

    def _caravans(self, state: MareFields, out: array[float]) -> None:
        at, caravans = self._at["caravans"], state.caravans
        for province in compress(range(len(caravans)), caravans):
            out[at + province] = float(bin(caravans[province]).count("1"))

    def _seat_table_writer(self, key: str) -> PartWriter:
        """A public list of seats (or civilizations, which the feature counts from the
        viewer the same way), one-hot per slot."""
        at, width, values_of = self._at[key], self.max_seats, attrgetter(key)

        def write(state: MareFields, out: array[float]) -> None:
            viewer, seats = self._viewer, self.seats
            for slot, value in enumerate(values_of(state)):
                if value >= 0:
                    out[at + slot * width + (value - viewer) % seats] = 1.0

        return write

    def _rolled(self, state: MareFields, out: array[float]) -> None:
        at = self._at["rolled totals"]
        for side, row in enumerate(state.rolled):
            out[at + side] = float(row[0]) / ROLLED_SCALE

    def _held(self, state: MareFields, out: array[float]) -> None:
        at, kinds, held = self._at["held"], self.rules.building_kinds, state.held
        caravan = self.rules.caravan
        for province in compress(range(len(held)), map(any, held)):
            base = at + province * kinds
            for kind, value in enumerate(held[province]):
                if value:
                    count = bin(value).count("1") if kind == caravan else value
                    out[base + kind] = float(count)

    def _available(self, state: MareFields, out: array[float]) -> None:
        at = self._at["available"]
        for item in state.available:
            out[at + item] = 1.0

    # ------------------------------------------------------------ per-seat parts
    def _owned(self, state: MareFields, out: array[float]) -> None:
        rel, at = self._rel, self._at["owned"]
        width = self._size_of["owned"] // self.max_seats
        for seat, items in enumerate(state.owned):
            base = at + rel[seat] * width
            for item in items:
                out[base + item] = 1.0


class _RowBlock:
    """A table of the state written row by row into slots of a block: a row's slot
    is given per call (its owner channel, its seat counted from the viewer), and
    several rows may share a slot, added up in row order as the features do.

    Only the slots of rows that changed since the last write are cleared and written
    again; all of them when the slots changed or after :meth:`forget`. The block is
    left as it was on other calls (the writer calls it when its field changed).

    Args:
        key: The state's field.
        at: Where the block starts.
        size: The block's size: ``slots`` slots of equal width.
        slots: How many slots.
        scale: What each value is divided by (an int, as in the features).
    """

    def __init__(self, key: str, at: int, size: int, slots: int, scale: int) -> None:
        self.rows_of = attrgetter(key)
        self.at = at
        self.width = size // slots
        self.size = size
        self.slots = slots
        self.scale = scale
        self.zeros = zeros(size)
        self.zero_slot = zeros(self.width)
        self.columns = range(self.width)
        #: The rows as last written, the slots they were written for, and per slot
        #: its rows.
        self.seen: list[list[int]] | None = None
        self.slot_of: list[int] | None = None
        self.rows_in: list[list[int]] = []

    def forget(self) -> None:
        """Write the whole block on the next call."""
        self.seen = None

    def retype(self, typecode: str) -> None:
        """Clear with zeros of ``typecode`` (the tensor's)."""
        self.zeros = zeros(self.size, typecode)
        self.zero_slot = zeros(self.width, typecode)

    def write(self, state: MareFields, slot_of: list[int], out: array[float]) -> None:
        """Write the rows of ``state`` that changed, ``slot_of`` giving each row's slot."""
        rows: list[list[int]] = self.rows_of(state)
        seen, at, width = self.seen, self.at, self.width
        if seen is None or slot_of is not self.slot_of:
            out[at : at + self.size] = self.zeros
            slots: Iterable[int] = range(self.slots)
            self.seen = [row[:] for row in rows]
            self.slot_of = slot_of
            self.rows_in = [
                [row for row, slot in enumerate(slot_of) if slot == s] for s in range(self.slots)
            ]
        else:
            slots = set()
            for row in compress(range(len(rows)), map(ne, rows, seen)):
                slots.add(slot_of[row])
                seen[row] = rows[row][:]
            zero_slot = self.zero_slot
            for slot in slots:
                base = at + slot * width
                out[base : base + width] = zero_slot
        columns, scale, rows_in = self.columns, self.scale, self.rows_in
        for slot in slots:
            base = at + slot * width
            for row in rows_in[slot]:
                values = rows[row]
                for column in compress(columns, values):
                    out[base + column] += values[column] / scale


class _Watch:
    """Which parts read a field whose value changed since the last call.

    The fields the parts read are compared with copies kept from the last call
    (values, not versions, so any sequence of states is followed: one match, clones,
    afterstates). All of them are fetched and compared in C (``itemgetter``, then
    ``map(ne, ...)``): most calls find a few fields changed among some thirty-five, and a
    loop in Python over them all cost more than the comparisons themselves.

    Args:
        parts_of: Per field, the indexes of the parts that read it.
        kinds: Each field's kind (:attr:`MareRules.field_kinds`).
    """

    def __init__(self, parts_of: Mapping[str, tuple[int, ...]], kinds: Mapping[str, str]) -> None:
        names = sorted(parts_of)
        # From the instance's dict: the attributes a state declares are plain ones,
        # and a dict lookup skips the class lookup an attribute needs (a quarter the
        # time for them all).
        self._fields_of = itemgetter(*names)
        #: Per field (in ``names`` order): how to copy it, and the parts that read it.
        self._copies = [_COPIES.get(kinds[name]) for name in names]
        self._parts_of = [parts_of[name] for name in names]
        self._indexes = range(len(names))
        #: The copies of the fields' values at the last call.
        self._seen: list[Any] = []
        self._all = frozenset(index for found in parts_of.values() for index in found)

    def forget(self) -> None:
        """Compare with nothing: the next call reports every part."""
        self._seen = []

    def changed_parts(self, state: MareFields) -> Iterable[int]:
        """The parts to write again for ``state``; the copies then hold its values."""
        now = self._fields_of(state.__dict__)
        seen = self._seen
        if not seen:
            self._seen = [
                value if copy is None else copy(value)
                for value, copy in zip(now, self._copies, strict=True)
            ]
            return self._all
        todo: set[int] = set()
        copies, parts_of = self._copies, self._parts_of
        for i in compress(self._indexes, map(ne, now, seen)):
            copy = copies[i]
            seen[i] = now[i] if copy is None else copy(now[i])
            todo.update(parts_of[i])
        return todo
