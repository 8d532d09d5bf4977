"""Mare Nostrum's direct tensor writer: a seat's observation from the state's fields.

The features in :mod:`senet.rl.marenostrum.encoding` define the tensor; this writer computes
the same floats without building the seat's view first (see
:meth:`senet.rl.encoding.RlEncoding.direct_tensor`). Nearly every block of the tensor
is a step of a plan (:mod:`senet.rl.cells`): numbers, one-hots, owners per place
(influence, the occupiers, the roles), sums of seats' rows (hand and offer sizes), and
tables summed into owner slots (legions, creatures and triremes per civilization, the
cards and free builds per seat, whose slots rewrite only where a row changed). The
plan engine compares each field with its copy and writes the changed cells in one
call; the blocks no step shape fits (the step, the deciding seats, the caravans, the
holdings, the rolled totals, the owned cards, the options) are written here when it
reports their fields changed. Between two observations of one seat a handful of
fields change, so most of the 2,960 floats at six seats are left alone.

Secrecy: a block reads what the seat's view shows and nothing else (the view is built
in ``senet.games.marenostrum.snapshot``): the viewer's own hand and pending offer, the
other seats' hand and offer sizes (sums of their rows), and the public fields. A
hidden field changing only makes the blocks built from it (sizes, the deciding
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import compress
from typing import Any, Protocol, cast

from senet.games import GameState
from senet.rl import cells
from senet.rl.features import zeros
from senet.rl.native import preferred

#: A battle total's scale in the ``rolled totals`` feature (totals reach the tens).
ROLLED_SCALE = 10.0


class MareFields(Protocol):
    """The fields of a Mare Nostrum state this writer reads (``MareState``'s): every
    one it may look at, in one place."""

    options: dict[str, Any]
    phase: int
    step: str
    turn: int
    traders: list[int]
    actor: int
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
    legions: list[list[int]]
    creatures: list[list[int]]
    triremes: list[list[int]]
    fortresses: list[int]
    cities: list[int]
    caravans: list[int]
    temples: list[int]
    markets: list[int]
    occupier: list[int]
    converter: list[int]
    held: list[list[int]]
    rolled: list[list[int]]
    stock: list[int]
    bank: list[int]
    available: list[int]
    god_holder: list[int]
    god_used: list[int]
    face_up: list[list[int]]
    face_down: list[list[int]]
    free_left: list[list[int]]

    def current_seat(self) -> int | None: ...

    def deciding_seats(self) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class MareRules:
    """What the writer needs of the rules' tables (from the game's modules).

    Attributes:
        steps: Every step (the ``step`` one-hot's vocabulary).
        role_ids: The roles, in the order of the ``role ...`` features.
        building_kinds: How many building kinds a province's ``held`` row has.
        caravan: The caravan's kind in that row (a bit per icon).
    """

    steps: tuple[str, ...]
    role_ids: tuple[str, ...]
    building_kinds: int
    caravan: int


#: Writes a block of the tensor that no plan step fits, from a state, into its slice
#: (zeroed first).
BlockWriter = Callable[[MareFields, "array[float]"], None]
#: The fields the current seat and the deciding seats are worked out from.
_DECIDING_FIELDS = ("step", "traders", "offers", "trade_size", "actor")
#: The per-seat tables of numbers, viewer first, each row in its seat's slot.
PER_SEAT_ROWS = ("face_up", "face_down", "free_left")
#: The per-civilization tables summed into owner channels, and their scales.
_BY_OWNER = (("legions", 4), ("creatures", 2), ("triremes", 4))
#: The public lists of numbers, and their scales (the ``numbers`` features).
_NUMBERS = (
    ("fortresses", "fortresses", 1.0),
    ("cities", "cities", 1.0),
    ("temples", "temples", 1.0),
    ("markets", "markets", 1.0),
    ("stock", "stock", 10.0),
    ("bank", "bank", 10.0),
    ("god_used", "gods used", 1.0),
)


class MareTensor:
    """One seat's Mare Nostrum tensor, written from the state (a :class:`DirectTensor`).

    Args:
        seats: The match's seat count.
        max_seats: The seats the tensor has room for (the features' ``MAX_SEATS``).
        layout: Each feature's name and its ``(start, size)`` in the tensor.
        rules: The rules' tables the features read.
        engine: The :class:`senet.rl.cells.Cells` class that runs the plan (default:
            its compiled twin where built, :func:`senet.rl.native.preferred`).
    """

    def __init__(
        self,
        seats: int,
        max_seats: int,
        layout: Mapping[str, tuple[int, int]],
        rules: MareRules,
        engine: Any = None,
    ) -> None:
        self.seats = seats
        self.rules = rules
        self.max_seats = max_seats
        #: The neutral civilizations' owner channel.
        self.neutral = max_seats
        self.owners = max_seats + 1
        self.size = sum(size for _, size in layout.values())
        self._at = {name: start for name, (start, _) in layout.items()}
        self._size_of = {name: size for name, (_, size) in layout.items()}
        self._step_index = {step: i for i, step in enumerate(rules.steps)}
        #: Zeros to clear ``out`` with, of ``out``'s type.
        self._zeros = zeros(self.size)
        self._engine: Any = preferred(cells).Cells if engine is None else engine
        self._cells: Any = None
        #: The viewer the writer last wrote for, the array it wrote into, and the
        #: seats of the civilizations its plan was laid for.
        self._viewer = -1
        self._out: array[float] | None = None
        self._seat_of: list[int] = []
        #: Per seat, its slot counted from the viewer.
        self._rel: list[int] = []
        #: The blocks written here: each one's slice, zeros to clear it with, and its
        #: writer; and per position of a custom step in the plan, the blocks it moves.
        self._blocks: list[tuple[int, int, array[float], BlockWriter]] = []
        self._blocks_of: dict[int, tuple[int, ...]] = {}

    # ------------------------------------------------------------------ writing
    def __call__(self, state: GameState, viewer: int, out: array[float]) -> None:
        """Leave ``viewer``'s tensor of ``state`` in ``out`` (see :class:`DirectTensor`)."""
        mare = cast(MareFields, state)
        if viewer != self._viewer or out is not self._out or mare.seat_of != self._seat_of:
            self._restart(viewer, out, mare.seat_of)
        changed = self._cells.sync(mare)
        if not changed:
            return
        blocks, blocks_of = self._blocks, self._blocks_of
        todo: set[int] = set()
        for position in changed:
            todo.update(blocks_of[position])
        for index in sorted(todo):
            start, stop, blank, write = blocks[index]
            out[start:stop] = blank
            write(mare, out)

    def _restart(self, viewer: int, out: array[float], seat_of: list[int]) -> None:
        """Write every block afresh for ``viewer`` into ``out``, the plan laid from
        the seats of the civilizations now (they change in the set-up only)."""
        self._viewer = viewer
        self._out = out
        self._seat_of = list(seat_of)
        seats, neutral = self.seats, self.neutral
        self._rel = [(seat - viewer) % seats for seat in range(seats)]
        if out.typecode != self._zeros.typecode:
            self._zeros = zeros(self.size, out.typecode)
        out[:] = self._zeros
        owner = tuple(self._rel[seat] if seat >= 0 else neutral for seat in seat_of)
        blocks = self._declare()
        plan = self._plan(owner)
        self._blocks = [
            (start, stop, zeros(stop - start, out.typecode), write)
            for start, stop, write, _ in blocks
        ]
        self._blocks_of = {
            position: tuple(i for i, (*_, fields) in enumerate(blocks) if step.field in fields)
            for position, step in enumerate(plan)
            if step.kind == cells.CUSTOM
        }
        self._cells = self._engine(out, plan)

    def _declare(self) -> list[tuple[int, int, BlockWriter, tuple[str, ...]]]:
        """The blocks written here: each one's slice (its features, adjacent), its
        writer, and the fields it reads."""
        options = ("option free_setup", "option long_game", "option mythology_hannibal")
        blocks: list[tuple[tuple[str, ...], BlockWriter, tuple[str, ...]]] = [
            (options, self._options, ("options",)),
            (("step",), self._step, ("step",)),
            (("current seat", "deciding seats"), self._deciding, _DECIDING_FIELDS),
            (("caravans",), self._caravans, ("caravans",)),
            (("held",), self._held, ("held",)),
            (("rolled totals",), self._rolled, ("rolled",)),
            (("available",), self._available, ("available",)),
            (("owned",), self._owned, ("owned",)),
        ]
        return [(*self._span(names), write, fields) for names, write, fields in blocks]

    def _span(self, names: tuple[str, ...]) -> tuple[int, int]:
        """Where the features ``names`` lie (adjacent, in order)."""
        start = stop = self._at[names[0]]
        for name in names:
            if self._at[name] != stop:
                raise ValueError(f"block {names}: feature {name!r} is not adjacent")
            stop += self._size_of[name]
        return start, stop

    def _plan(self, owner: tuple[int, ...]) -> list[cells.Step]:
        """Every block the engine writes, and the fields of the blocks written here
        (custom steps), for the viewer's seats and the civilizations' ``owner``
        channels."""
        at, size, viewer, seats = self._at, self._size_of, self._viewer, self.seats
        rel = tuple(self._rel)
        width = self.max_seats
        # Seats, or civilizations counted from the viewer the same way.
        slot = tuple((value - viewer) % seats for value in range(width))

        def each(name: str, stride: int = 0) -> list[int]:
            return [at[name] + rel[seat] * stride for seat in range(seats)]

        first_role = f"role {self.rules.role_ids[0]}"
        return [
            *(cells.custom(field) for field in ("options", *_DECIDING_FIELDS)),
            *(cells.custom(field) for field in ("caravans", "held", "rolled", "available")),
            cells.custom("owned"),
            # The view names the phase by its number in the feature's vocabulary.
            cells.one_hot("phase", at["phase"], size["phase"]),
            cells.number("turn", at["turn"], 10),
            cells.owners("roles", at[first_role], len(self.rules.role_ids) * width, width, rel, -1),
            cells.vector("hands", at["hand"], size["hand"], 5, row=viewer),
            cells.vector("offers", at["offer"], size["offer"], 5, row=viewer),
            cells.row_sums("hands", each("hand sizes", 1), 10),
            cells.row_sums("offers", each("offer sizes", 1), 10),
            cells.row_lengths("owned", each("scores", 1), 10),
            cells.number("trade_size", at["trade size"], 10),
            cells.one_hot("taker", at["taker"], width, rel, -1),
            cells.number("pay_left", at["cards left to pay"], 10),
            cells.number("points_left", at["set-up points left"], 9),
            cells.owners("influence", at["influence"], size["influence"], self.owners, owner, -1),
            *(
                cells.table(key, at[key], size[key], size[key] // self.owners, scale, owner)
                for key, scale in _BY_OWNER
            ),
            *(cells.vector(key, at[name], size[name], scale) for key, name, scale in _NUMBERS),
            *(
                cells.owners(key, at[key], size[key], width, slot, -1)
                for key in ("occupier", "converter", "god_holder")
            ),
            *(
                cells.table(key, at[key], size[key], size[key] // width, 1.0, rel)
                for key in PER_SEAT_ROWS
            ),
        ]

    # ------------------------------------------------------------ blocks written here
    def _options(self, state: MareFields, out: array[float]) -> None:
        at = self._at["option free_setup"]
        options = state.options
        for i, name in enumerate(("free_setup", "long_game", "mythology_hannibal")):
            out[at + i] = float(options.get(name) or 0) / 1.0

    def _step(self, state: MareFields, out: array[float]) -> None:
        out[self._at["step"] + self._step_index[state.step]] = 1.0

    def _deciding(self, state: MareFields, out: array[float]) -> None:
        rel = self._rel
        current = state.current_seat()
        if current is not None and current >= 0:
            out[self._at["current seat"] + rel[current]] = 1.0
        at = self._at["deciding seats"]
        for seat in state.deciding_seats():
            out[at + rel[seat]] = 1.0

    def _caravans(self, state: MareFields, out: array[float]) -> None:
        at, caravans = self._at["caravans"], state.caravans
        for province in compress(range(len(caravans)), caravans):
            out[at + province] = float(bin(caravans[province]).count("1"))

    def _held(self, state: MareFields, out: array[float]) -> None:
        at, kinds, held = self._at["held"], self.rules.building_kinds, state.held
        caravan = self.rules.caravan
        for province in compress(range(len(held)), map(any, held)):
            base = at + province * kinds
            for kind, value in enumerate(held[province]):
                if value:
                    count = bin(value).count("1") if kind == caravan else value
                    out[base + kind] = float(count)

    def _rolled(self, state: MareFields, out: array[float]) -> None:
        at = self._at["rolled totals"]
        for side, row in enumerate(state.rolled):
            out[at + side] = float(row[0]) / ROLLED_SCALE

    def _available(self, state: MareFields, out: array[float]) -> None:
        at = self._at["available"]
        for item in state.available:
            out[at + item] = 1.0

    def _owned(self, state: MareFields, out: array[float]) -> None:
        rel, at = self._rel, self._at["owned"]
        width = self._size_of["owned"] // self.max_seats
        for seat, items in enumerate(state.owned):
            base = at + rel[seat] * width
            for item in items:
                out[base + item] = 1.0
