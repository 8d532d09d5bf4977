"""Mare Nostrum's direct tensor writer: a seat's observation from the state's fields.

The features in :mod:`senet.rl.marenostrum` define the tensor; this writer computes
the same floats without building the seat's view first (see
:meth:`senet.rl.encoding.RlEncoding.direct_tensor`). Each block of the tensor is a
*part* that names the state fields it reads; the state reports which fields changed
since the writer last looked (:meth:`~senet.games.interface.GameState.changed_fields`,
a comparison of values, so it holds for clones and afterstates as for one match), and
only the parts that read one of them are zeroed and written again. Most moves change
a handful of fields, so most of the 2,952 floats at six seats are left alone.

Secrecy: a part reads what the seat's view shows and nothing else (the view is built
in ``senet.games.marenostrum.snapshot``): the viewer's own hand and pending offer, the
other seats' hand and offer sizes (sums of their rows), and the public fields. A
hidden field changing only makes the parts built from it (sizes, the deciding
seats) be written again, to the same floats.

Every write mirrors its feature's arithmetic (``value / scale``; additions in the
feature's order where several civilizations share the neutral channel), so the floats
are equal to the last bit.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, cast

from senet.games import GameState
from senet.games.marenostrum.constants import PHASE_NAMES, ROLE_IDS, STEPS
from senet.games.marenostrum.state import MareState
from senet.games.marenostrum.tokens import BUILDING_NAMES, CARAVAN

#: Writes one part of the tensor from a state (its slice is zeroed first).
PartWriter = Callable[[MareState, "array[float]"], None]

#: The one-hot vocabularies' indexes, as the features build them.
_PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
_STEP_INDEX = {step: i for i, step in enumerate(STEPS)}
_BUILDING_KINDS = len(BUILDING_NAMES)


class MareTensor:
    """One seat's Mare Nostrum tensor, written from the state (a :class:`DirectTensor`).

    Args:
        seats: The match's seat count.
        max_seats: The seats the tensor has room for (the features' ``MAX_SEATS``).
        layout: Each feature's name and its ``(start, size)`` in the tensor.
    """

    def __init__(self, seats: int, max_seats: int, layout: Mapping[str, tuple[int, int]]) -> None:
        self.seats = seats
        self.max_seats = max_seats
        #: The neutral civilizations' owner channel.
        self.neutral = max_seats
        self.owners = max_seats + 1
        self.size = sum(size for _, size in layout.values())
        self._at = {name: start for name, (start, _) in layout.items()}
        self._size_of = {name: size for name, (_, size) in layout.items()}
        self._zeros = array("d", bytes(8 * self.size))
        #: The viewer the writer last wrote for, and the doubles it wrote into.
        self._viewer = -1
        self._out: array[float] | None = None
        #: The fields' values when last written (see ``changed_fields``).
        self._mark: dict[str, Any] = {}
        #: Per seat, its slot counted from the viewer; per civilization, its owner channel.
        self._rel: list[int] = []
        self._owner: list[int] = []
        self._owner_seat_of: list[int] | None = None
        self._parts: list[tuple[int, int, array[float], PartWriter]] = []
        self._by_field: dict[str, tuple[int, ...]] = {}
        for fields, names, write in self._declare():
            self._add_part(fields, names, layout, write)

    def _add_part(
        self,
        fields: tuple[str, ...],
        names: tuple[str, ...],
        layout: Mapping[str, tuple[int, int]],
        write: PartWriter,
    ) -> None:
        """Register ``write`` as the part covering the features ``names`` (adjacent,
        in order), rewritten when one of ``fields`` changes."""
        start = layout[names[0]][0]
        stop = start
        for name in names:
            at, size = layout[name]
            if at != stop:
                raise ValueError(f"part {names}: feature {name!r} is not adjacent")
            stop = at + size
        index = len(self._parts)
        self._parts.append((start, stop, array("d", bytes(8 * (stop - start))), write))
        for field in fields:
            self._by_field[field] = (*self._by_field.get(field, ()), index)

    def _declare(self) -> list[tuple[tuple[str, ...], tuple[str, ...], PartWriter]]:
        """Every part: the fields it reads, the features it covers, its writer."""
        turn_fields = ("step", "traders", "offers", "trade_size", "actor")
        by_owner = ("legions", "creatures", "triremes")
        return [
            (
                ("options",),
                ("option free_setup", "option long_game", "option mythology_hannibal"),
                self._options,
            ),
            (("phase",), ("phase",), self._phase),
            (("step",), ("step",), self._step),
            (("turn",), ("turn",), self._turn),
            (turn_fields, ("current seat", "deciding seats"), self._deciding),
            (("roles",), tuple(f"role {role}" for role in ROLE_IDS), self._roles),
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
            *(
                ((key, "seat_of"), (key,), self._by_owner_writer(key, scale))
                for key, scale in zip(by_owner, (4, 2, 4), strict=True)
            ),
            *(((key,), (key,), self._numbers_writer(key, 1.0)) for key in ("fortresses", "cities")),
            (("caravans",), ("caravans",), self._caravans),
            *(((key,), (key,), self._numbers_writer(key, 1.0)) for key in ("temples", "markets")),
            *(((key,), (key,), self._seat_table_writer(key)) for key in ("occupier", "converter")),
            (("held",), ("held",), self._held),
            (("stock",), ("stock",), self._numbers_writer("stock", 10)),
            (("bank",), ("bank",), self._numbers_writer("bank", 10)),
            (("available",), ("available",), self._available),
            (("god_holder",), ("god_holder",), self._seat_table_writer("god_holder")),
            (("god_used",), ("gods used",), self._numbers_writer("god_used", 1.0, "gods used")),
            *(((key,), (key,), self._rows_writer(key)) for key in ("face_up", "face_down")),
            (("owned",), ("owned",), self._owned),
            (("free_left",), ("free_left",), self._rows_writer("free_left")),
        ]

    # ------------------------------------------------------------------ writing
    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        """Leave ``viewer``'s tensor of ``state`` in ``out`` (see :class:`DirectTensor`)."""
        if viewer != self._viewer or out is not self._out:
            self._restart(viewer, out)
        mare = cast(MareState, state)
        changed = mare.changed_fields(self._mark)
        if not changed:
            return
        by_field = self._by_field
        todo: set[int] = set()
        for field in changed:
            found = by_field.get(field)
            if found is not None:
                todo.update(found)
        parts = self._parts
        for index in todo:
            start, stop, zeros, write = parts[index]
            out[start:stop] = zeros
            write(mare, out)

    def _restart(self, viewer: int, out: array[float]) -> None:
        """Forget what was written: every part is written afresh for ``viewer``."""
        self._viewer = viewer
        self._out = out
        self._mark = {}
        seats = self.seats
        self._rel = [(seat - viewer) % seats for seat in range(seats)]
        self._owner_seat_of = None
        out[:] = self._zeros

    def _owners(self, seat_of: list[int]) -> list[int]:
        """Each civilization's owner channel (as ``_owner`` in the features)."""
        if seat_of != self._owner_seat_of:
            rel, neutral = self._rel, self.neutral
            self._owner = [rel[owner] if owner >= 0 else neutral for owner in seat_of]
            self._owner_seat_of = list(seat_of)
        return self._owner

    # ------------------------------------------------------------ header parts
    def _options(self, state: MareState, out: array[float]) -> None:
        at = self._at["option free_setup"]
        options = state.options
        for i, name in enumerate(("free_setup", "long_game", "mythology_hannibal")):
            out[at + i] = float(options.get(name) or 0) / 1.0

    def _phase(self, state: MareState, out: array[float]) -> None:
        out[self._at["phase"] + _PHASE_INDEX[PHASE_NAMES[state.phase]]] = 1.0

    def _step(self, state: MareState, out: array[float]) -> None:
        out[self._at["step"] + _STEP_INDEX[state.step]] = 1.0

    def _turn(self, state: MareState, out: array[float]) -> None:
        out[self._at["turn"]] = float(state.turn or 0) / 10

    def _deciding(self, state: MareState, out: array[float]) -> None:
        rel = self._rel
        current = state.current_seat()
        if current is not None and current >= 0:
            out[self._at["current seat"] + rel[current]] = 1.0
        at = self._at["deciding seats"]
        for seat in state.deciding_seats():
            out[at + rel[seat]] = 1.0

    def _roles(self, state: MareState, out: array[float]) -> None:
        rel, width = self._rel, self.max_seats
        at = self._at[f"role {ROLE_IDS[0]}"]
        for role, holder in enumerate(state.roles):
            if holder >= 0:
                out[at + role * width + rel[holder]] = 1.0

    def _hand(self, state: MareState, out: array[float]) -> None:
        at = self._at["hand"]
        for card, count in enumerate(state.hands[self._viewer]):
            if count:
                out[at + card] = float(count) / 5

    def _offer(self, state: MareState, out: array[float]) -> None:
        at = self._at["offer"]
        for card, count in enumerate(state.offers[self._viewer]):
            if count:
                out[at + card] = float(count) / 5

    def _hand_sizes(self, state: MareState, out: array[float]) -> None:
        self._sizes(state.hands, self._at["hand sizes"], out)

    def _offer_sizes(self, state: MareState, out: array[float]) -> None:
        self._sizes(state.offers, self._at["offer sizes"], out)

    def _sizes(self, rows: list[list[int]], at: int, out: array[float]) -> None:
        """How many cards each seat holds in ``rows`` (public, as the view's sizes)."""
        rel = self._rel
        for seat, row in enumerate(rows):
            out[at + rel[seat]] = float(sum(row)) / 10

    def _scores(self, state: MareState, out: array[float]) -> None:
        rel, at = self._rel, self._at["scores"]
        for seat, owned in enumerate(state.owned):
            out[at + rel[seat]] = float(len(owned)) / 10

    def _trade_size(self, state: MareState, out: array[float]) -> None:
        out[self._at["trade size"]] = float(state.trade_size or 0) / 10

    def _taker(self, state: MareState, out: array[float]) -> None:
        if state.taker >= 0:
            out[self._at["taker"] + self._rel[state.taker]] = 1.0

    def _pay_left(self, state: MareState, out: array[float]) -> None:
        out[self._at["cards left to pay"]] = float(state.pay_left or 0) / 10

    def _points_left(self, state: MareState, out: array[float]) -> None:
        out[self._at["set-up points left"]] = float(state.points_left or 0) / 9

    # ------------------------------------------------------------- board parts
    def _influence(self, state: MareState, out: array[float]) -> None:
        owner, owners = self._owners(state.seat_of), self.owners
        at = self._at["influence"]
        for province, civ in enumerate(state.influence):
            if civ >= 0:
                out[at + province * owners + owner[civ]] = 1.0

    def _by_owner_writer(self, key: str, scale: int) -> PartWriter:
        """A per-civilization, per-space table summed into owner channels, civilization
        by civilization (the neutral channel adds several in that order)."""
        at, width, rows_of = self._at[key], self._size_of[key] // self.owners, attrgetter(key)

        def write(state: MareState, out: array[float]) -> None:
            owner = self._owners(state.seat_of)
            for civ, row in enumerate(rows_of(state)):
                if not any(row):
                    continue
                base = at + owner[civ] * width
                for space, amount in enumerate(row):
                    if amount:
                        out[base + space] += amount / scale

        return write

    def _numbers_writer(self, key: str, scale: float, name: str | None = None) -> PartWriter:
        """A public list of numbers divided by ``scale`` (the ``numbers`` feature)."""
        at, values_of = self._at[name or key], attrgetter(key)

        def write(state: MareState, out: array[float]) -> None:
            for i, value in enumerate(values_of(state)):
                if value:
                    out[at + i] = float(value) / scale

        return write

    def _caravans(self, state: MareState, out: array[float]) -> None:
        at = self._at["caravans"]
        for province, bits in enumerate(state.caravans):
            if bits:
                out[at + province] = float(bin(bits).count("1"))

    def _seat_table_writer(self, key: str) -> PartWriter:
        """A public list of seats (or civilizations, which the feature counts from the
        viewer the same way), one-hot per slot."""
        at, width, values_of = self._at[key], self.max_seats, attrgetter(key)

        def write(state: MareState, out: array[float]) -> None:
            viewer, seats = self._viewer, self.seats
            for slot, value in enumerate(values_of(state)):
                if value >= 0:
                    out[at + slot * width + (value - viewer) % seats] = 1.0

        return write

    def _held(self, state: MareState, out: array[float]) -> None:
        at, kinds = self._at["held"], _BUILDING_KINDS
        for province, row in enumerate(state.held):
            if any(row):
                base = at + province * kinds
                for kind, value in enumerate(row):
                    if value:
                        count = bin(value).count("1") if kind == CARAVAN else value
                        out[base + kind] = float(count)

    def _available(self, state: MareState, out: array[float]) -> None:
        at = self._at["available"]
        for item in state.available:
            out[at + item] = 1.0

    # ------------------------------------------------------------ per-seat parts
    def _rows_writer(self, key: str) -> PartWriter:
        """Per-seat rows of numbers, viewer first."""
        at, width, rows_of = self._at[key], self._size_of[key] // self.max_seats, attrgetter(key)

        def write(state: MareState, out: array[float]) -> None:
            rel = self._rel
            for seat, row in enumerate(rows_of(state)):
                base = at + rel[seat] * width
                for i, value in enumerate(row):
                    if value:
                        out[base + i] = float(value)

        return write

    def _owned(self, state: MareState, out: array[float]) -> None:
        rel, at = self._rel, self._at["owned"]
        width = self._size_of["owned"] // self.max_seats
        for seat, items in enumerate(state.owned):
            base = at + rel[seat] * width
            for item in items:
                out[base + item] = 1.0
