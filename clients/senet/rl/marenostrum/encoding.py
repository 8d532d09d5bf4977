"""Mare Nostrum for learning agents: its action space and observation features.

Actions: each kind on every argument its parser reads (cards, seats, spaces,
civilizations, gods, items, heroes and wonders, unit kinds, buildings), from the
core's tables; candidates whose notation does not read back (a caravan without its
commodity, a fight on land) are dropped. ``size`` goes up to every card of the game.
Purchases are already paid card by card (``pay``, ``pay grain artemis`` when the
Temple of Artemis counts in the set) and trades offered card by card
(``offer``), so no action names a set of cards. About ten thousand actions at six
seats; ``sail`` and ``move`` (every pair of spaces) are most of them.

The trade offers are simultaneous: each trader's pending offer is in its own view
only (``offer``), which is all its observation shows.

A seat's tensor is written straight from the state's fields by
:mod:`senet.rl.marenostrum.tensor`, which mirrors these features by name: a feature
changed here must be changed there too (``tests/rl/test_encodings.py`` holds the two
equal at every step of random matches).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields
from itertools import product
from typing import Any

from senet.games import Action, Game
from senet.games.marenostrum import actions as act
from senet.games.marenostrum.board import PROVINCES, SPACES
from senet.games.marenostrum.cards import GOD_IDS, OWNABLE_IDS, SET_HELPERS
from senet.games.marenostrum.civilizations import CIVS
from senet.games.marenostrum.commodities import CARD_TYPES, COMMODITY_TYPES, bank_start
from senet.games.marenostrum.constants import PHASE_NAMES, ROLE_IDS, STEPS, UNIT_KINDS
from senet.games.marenostrum.tokens import BUILDING_NAMES, BUILDING_STOCK, CARAVAN, ITEMS
from senet.rl import cells
from senet.rl.encoding import DirectTensor, RlEncoding
from senet.rl.features import (
    Feature,
    Out,
    View,
    custom,
    lookup,
    number,
    numbers,
    one_hot,
    relative_seat,
    seat,
    seat_numbers,
    slices,
)
from senet.rl.marenostrum import tensor
from senet.rl.marenostrum.tensor import ROLLED_SCALE, MareRules, MareTensor
from senet.rl.native import preferred

MAX_SEATS = act.MAX_SEATS
#: Owner channels: seats relative to the viewer, then the neutral civilizations.
OWNERS = MAX_SEATS + 1
A = act.MareAction


def _candidates(seats: int) -> Iterator[Action]:
    cards = range(CARD_TYPES)
    spaces = range(SPACES)
    provinces = range(PROVINCES)
    seas = range(PROVINCES, SPACES)
    civs = range(CIVS)
    yield from (A(act.SIZE, k) for k in range(sum(bank_start()) + 1))
    for kind in act.CARD_KINDS:
        yield from (A(kind, card) for card in cards)
    yield from (A(act.PAY, card, helper) for card, helper in product(COMMODITY_TYPES, SET_HELPERS))
    yield from (A(act.TAKE, s, card) for s, card in product(range(seats), cards))
    for kind in act.SEAT_KINDS:
        yield from (A(kind, s) for s in range(seats))
    yield from (A(act.GOD, god) for god in range(len(GOD_IDS)))
    yield from (A(act.INVOKE, god) for god in range(len(GOD_IDS)))
    invoke_targets = (-1, *range(max(CIVS, CARD_TYPES)))
    yield from (
        A(act.INVOKE, *args) for args in product(range(len(GOD_IDS)), spaces, invoke_targets)
    )
    for kind in (act.SWAP, act.BARTER):
        yield from (A(kind, give, get) for give, get in product(cards, cards))
    yield from (A(act.BUILD, *args) for args in product(range(len(ITEMS)), provinces, (-1, *cards)))
    yield from (A(act.BUY, item) for item in range(len(OWNABLE_IDS)))
    yield from (A(act.CONVERT, province) for province in (-1, *provinces))
    yield from (A(act.CAPITAL, province) for province in provinces)
    yield from (A(act.SAIL, a, b) for a, b in product(spaces, spaces))
    yield from (A(act.FIGHT, sea, civ) for sea, civ in product(seas, civs))
    yield from (A(act.BLOCKADE, sea) for sea in seas)
    yield from (A(act.VIA, sea) for sea in seas)
    yield from (A(act.GAZE, province, civ) for province, civ in product(provinces, civs))
    yield from (A(act.ENCHANT, province) for province in provinces)
    yield from (
        A(act.MOVE, *args) for args in product(range(len(act.UNIT_LETTERS)), provinces, provinces)
    )
    yield from (A(act.LOSE, unit) for unit in range(len(UNIT_KINDS)))
    for kind in (act.SACK, act.HOLD):
        yield from (
            A(kind, b, card) for b, card in product(range(len(act.SACK_KINDS)), (-1, *cards))
        )
    yield from (A(kind) for kind in act.BARE_KINDS)


#: Where the view says which seat plays each civilization. Features that read it
#: declare it; the viewer and the seat count (``len(view["scores"])``), which they
#: also read, never change for one seat's observations.
_SEAT_OF = ("state", "seat_of")


def _owner(view: View, civ: int) -> int:
    """The owner channel of civilization ``civ``: its seat relative to the viewer, or neutral."""
    seat_of = lookup(view, ("state", "seat_of")) or ()
    owner = seat_of[civ] if 0 <= civ < len(seat_of) else -1
    if owner < 0:
        return OWNERS - 1
    return relative_seat(owner, view["viewer"] or 0, len(view["scores"]))


def _by_owner(key: str, width: int, scale: float) -> Feature:
    """A per-civilization, per-space table summed into owner channels."""

    def write(view: View, out: Out, at: int) -> None:
        rows = lookup(view, ("state", key)) or ()
        for civ, row in enumerate(rows):
            if not any(row):  # (in C: most civilizations hold few spaces)
                continue
            base = at + _owner(view, civ) * width
            for space, amount in enumerate(row):
                if amount:  # most cells are empty
                    out[base + space] += amount / scale

    return custom(key, OWNERS * width, write, [("state", key), _SEAT_OF])


def _influence(view: View, out: Out, at: int) -> None:
    for province, civ in enumerate(lookup(view, ("state", "influence")) or ()):
        if civ >= 0:
            out[at + province * OWNERS + _owner(view, civ)] = 1.0


def _rolled(view: View, out: Out, at: int) -> None:
    """The two totals of the battle Mars's holder decides on (the mover's first), its
    dice rolled and seen by all; zeros outside that step."""
    for side, (total, *_dice) in enumerate(lookup(view, ("state", "rolled")) or ()):
        out[at + side] = float(total) / ROLLED_SCALE


def _seat_table(key: str, width: int) -> Feature:
    """A per-seat list in the public state (seat ``i``'s entry), owner channels per slot."""

    def write(view: View, out: Out, at: int) -> None:
        viewer, seats = view["viewer"] or 0, len(view["scores"])
        for slot, value in enumerate(lookup(view, ("state", key)) or ()):
            if value >= 0:
                out[at + slot * MAX_SEATS + relative_seat(value, viewer, seats)] = 1.0

    return custom(key, width * MAX_SEATS, write, [("state", key)])


def _deciding(view: View, out: Out, at: int) -> None:
    for deciding in view.get("deciding_seats") or ():
        out[at + relative_seat(deciding, view["viewer"] or 0, len(view["scores"]))] = 1.0


def _bit_count(key: str) -> Feature:
    def write(view: View, out: Out, at: int) -> None:
        for province, bits in enumerate(lookup(view, ("state", key)) or ()):
            out[at + province] = float(bin(bits).count("1"))

    return custom(key, PROVINCES, write, [("state", key)])


def _held(view: View, out: Out, at: int) -> None:
    """The occupiers' holdings (``state.held``): per province and building kind, how
    many of those buildings the occupier's units stand on (a caravan row is a bit per
    icon, so its bits are counted)."""
    kinds = len(BUILDING_NAMES)
    for province, row in enumerate(lookup(view, ("state", "held")) or ()):
        base = at + province * kinds
        for kind, value in enumerate(row):
            if value:
                out[base + kind] = float(bin(value).count("1") if kind == CARAVAN else value)


def _owned(entry: Any, out: Out, at: int) -> None:
    for item in entry or ():
        out[at + item] = 1.0


def _per_seat_rows(key: str, width: int, write_row: Any = None) -> Feature:
    """Rows of the public state with one entry per seat, viewer first."""

    def write(view: View, out: Out, at: int) -> None:
        viewer, seats = view["viewer"] or 0, len(view["scores"])
        for s, row in enumerate(lookup(view, ("state", key)) or ()):
            base = at + relative_seat(s, viewer, seats) * width
            if write_row is not None:
                write_row(row, out, base)
            else:
                for i, value in enumerate(row):
                    out[base + i] = float(value)

    return custom(key, MAX_SEATS * width, write, [("state", key)])


class MareNostrumEncoding(RlEncoding):
    """Mare Nostrum's action space and observation features."""

    game_id = "marenostrum"
    #: 2: ``invoke hermes`` and ``invoke isis`` (no target), Mars's ``invoke mars
    #: <province>`` and the blockade chain's ``via <sea>`` joined; ``leave`` left
    #: (issue 33). 3: the occupier's ``hold <building>`` and Ishtar's ``invoke ishtar
    #: <role>`` joined, with their steps (issue 33, rulings R10 and R18). 4: the
    #: observation's ``held`` (the occupiers' holdings) added after ``converter``.
    #: 5: the ``keep`` step (ruling R48) in the step one-hot, before ``over``. 6: ``pay
    #: <commodity> artemis`` (ruling R20) after the card kinds' actions; the
    #: ``trade_god`` step (ruling R18) in the step one-hot, before ``over``. 7: Circe's
    #: ``enchant <province>`` after ``gaze``, and ``gift <card>`` after the other card
    #: kinds (rulings R23 and R52); their steps ``spell`` and ``gift`` in the step
    #: one-hot, before ``over``. 8: ``rolled totals`` (the battle whose dice Mars's
    #: holder has seen, ruling R18) after ``held``. 9: the ``sea_god`` step (Poseidon
    #: on a crossing's carrier, ruling R56) in the step one-hot, before ``over``.
    #: 10: the ``naval_god`` step (Poseidon before a sea battle, ruling R57) in the
    #: step one-hot, before ``over``.
    version = 10
    native_modules = ("senet.rl.cells", "senet.rl.marenostrum.tensor")

    def action_candidates(
        self, game: Game, seats: int, options: Mapping[str, Any]
    ) -> Iterator[Action]:
        return _candidates(seats)

    def features(self, seats: int, options: Mapping[str, Any]) -> Sequence[Feature]:
        state_number = number
        return (
            *(
                number(f"option {name}", "state", "options", name)
                for name in ("free_setup", "long_game", "mythology_hannibal")
            ),
            one_hot("phase", "phase_name", vocabulary=PHASE_NAMES),
            one_hot("step", "state", "step", vocabulary=STEPS),
            state_number("turn", "state", "turn", scale=10),
            seat("current seat", "current_seat", max_seats=MAX_SEATS),
            custom("deciding seats", MAX_SEATS, _deciding, [("deciding_seats",)]),
            *(seat(f"role {role}", "role_holders", role, max_seats=MAX_SEATS) for role in ROLE_IDS),
            numbers("hand", "hand", length=CARD_TYPES, scale=5),
            numbers("offer", "offer", length=CARD_TYPES, scale=5),
            seat_numbers("hand sizes", "hand_sizes", max_seats=MAX_SEATS, scale=10),
            seat_numbers("offer sizes", "offer_sizes", max_seats=MAX_SEATS, scale=10),
            seat_numbers("scores", "scores", max_seats=MAX_SEATS, scale=10),
            state_number("trade size", "state", "trade_size", scale=10),
            seat("taker", "state", "taker", max_seats=MAX_SEATS),
            state_number("cards left to pay", "state", "pay_left", scale=10),
            state_number("set-up points left", "state", "points_left", scale=9),
            custom("influence", PROVINCES * OWNERS, _influence, [("state", "influence"), _SEAT_OF]),
            _by_owner("legions", PROVINCES, 4),
            _by_owner("creatures", PROVINCES, 2),
            _by_owner("triremes", SPACES, 4),
            numbers("fortresses", "state", "fortresses", length=PROVINCES),
            numbers("cities", "state", "cities", length=PROVINCES),
            _bit_count("caravans"),
            numbers("temples", "state", "temples", length=PROVINCES),
            numbers("markets", "state", "markets", length=PROVINCES),
            _seat_table("occupier", PROVINCES),
            _seat_table("converter", PROVINCES),
            custom("held", PROVINCES * len(BUILDING_NAMES), _held, [("state", "held")]),
            custom("rolled totals", 2, _rolled, [("state", "rolled")]),
            numbers("stock", "state", "stock", length=len(BUILDING_STOCK[MAX_SEATS]), scale=10),
            numbers("bank", "state", "bank", length=CARD_TYPES, scale=10),
            custom(
                "available",
                len(OWNABLE_IDS),
                lambda v, out, at: _owned(lookup(v, ("state", "available")), out, at),
                [("state", "available")],
            ),
            _seat_table("god_holder", len(GOD_IDS)),
            numbers("gods used", "state", "god_used", length=len(GOD_IDS)),
            _per_seat_rows("face_up", CARD_TYPES),
            _per_seat_rows("face_down", CARD_TYPES),
            _per_seat_rows("owned", len(OWNABLE_IDS), _owned),
            _per_seat_rows("free_left", len(ITEMS)),
        )

    def direct_tensor(
        self, seats: int, options: Mapping[str, Any]
    ) -> Callable[[], DirectTensor] | None:
        """Mare Nostrum's writer from the state's fields
        (:class:`senet.rl.marenostrum.tensor.MareTensor`, compiled where its twin is
        built: :mod:`senet.rl.native`), laid out as the features."""
        layout = slices(self.features(seats, options))
        module = preferred(tensor)
        # The writer takes the rules' tables as its own module's class.
        rules: MareRules = module.MareRules(
            **{f.name: getattr(RULES, f.name) for f in fields(RULES)}
        )
        writer: type[MareTensor] = module.MareTensor
        engine = preferred(cells).Cells
        return lambda: writer(seats, MAX_SEATS, layout, rules, engine)


#: The rules' tables the direct writer reads.
RULES = MareRules(
    steps=STEPS,
    role_ids=ROLE_IDS,
    building_kinds=len(BUILDING_NAMES),
    caravan=CARAVAN,
)

MARENOSTRUM_RL = MareNostrumEncoding()
