"""Mare Nostrum snapshots and views: the state's fields, declared once, and rebuilding.

:data:`FIELDS` names every attribute of :class:`MareState`; clone, to_data and
snapshot_data are built from it (see :mod:`senet.games.fields`). A view is the
snapshot with the hidden parts taken out (other hands and pending offers become
sizes; the generator and the set-aside cards are left out), so ``from_view`` only
deals the hidden cards again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from senet.games import validate as v
from senet.games.errors import CorruptStateError
from senet.games.fields import LIST, RNG, SCALAR, SHARED, TABLE, StateFields, snapshot_header
from senet.games.interface import Game, JsonDict
from senet.games.marenostrum.board import PROVINCES, SPACES
from senet.games.marenostrum.cards import GODS, OWNABLE, POOL_INDEXES
from senet.games.marenostrum.civilizations import CIV_IDS, CIVS
from senet.games.marenostrum.commodities import CARD_TYPES, TAX, bank_start
from senet.games.marenostrum.constants import (
    BLOCKADE,
    DECLARE,
    KEEP,
    NAVAL_GOD,
    OCCUPATION,
    OFFER,
    OVER,
    PAY,
    PHASE_NAMES,
    POWER_BITS,
    ROLE_IDS,
    SEA_GOD,
    SPELL,
    STEPS,
    WAR_GOD,
)
from senet.games.marenostrum.occupation import NO_HOLDING, hold_in_order
from senet.games.marenostrum.rules import civs_present, set_spare
from senet.games.marenostrum.tokens import BUILDING_NAMES, BUILDING_STOCK, ITEMS
from senet.games.rng import Rng
from senet.games.view_parts import ABSENT, PartBuilder, build_view, requested

if TYPE_CHECKING:
    from senet.games.marenostrum.state import MareState

#: Every attribute of a Mare Nostrum state. Snapshot keys follow this order.
FIELDS: StateFields[MareState] = StateFields(
    "marenostrum",
    saved=(
        *RNG("rng"),
        *SCALAR(
            "turn",
            "phase",
            "step",
            "actor",
            "role_index",
            "ishtar_role",
            "trade_size",
            "taker",
            "pay_left",
            "pay_mask",
            "setup_turns",
            "points_left",
            "after_space",
            "winner",
        ),
        *LIST(
            "civ_of",
            "seat_of",
            "capital",
            "roles",
            "influence",
            "fortresses",
            "cities",
            "caravans",
            "temples",
            "markets",
            "stock",
            "occupier",
            "converter",
            "chosen_by",
            "new_influence",
            "bank",
            "traders",
            "last_trades",
            "available",
            "set_aside",
            "god_holder",
            "god_used",
            "queue",
            "unordered",
            "purchase",
            "moved_legions",
            "moved_creatures",
            "moved_triremes",
            "fought",
            "cursed",
            "regrown",
            "pending",
            "blockade",
            "blockaded",
            "crossing",
            "powers_used",
        ),
        *TABLE(
            "legions",
            "creatures",
            "triremes",
            "hands",
            "offers",
            "face_up",
            "face_down",
            "owned",
            "free_left",
            "losses",
            "held",
            "rolled",
        ),
    ),
    derived=(
        # the events list of the action being applied; None between actions
        *SHARED("_events"),
    ),
    # where the occupiers stand (ruling R10), saved since the occupier chooses; who
    # has made his after-battle choice where (ruling R40); the dice Mars's holder
    # sees (ruling R18), saved since he decides after them; the crossing Poseidon's
    # holder may break (ruling R56), none in a match saved before he was asked
    filled_when_missing=("held", "chosen_by", "rolled", "crossing"),
)

#: Snapshot keys a view leaves out or replaces with sizes.
HIDDEN = ("rng", "set_aside", "hands", "offers")


def view_of(state: MareState, seat: int | None) -> JsonDict:
    """Everything public, plus ``seat``'s own hand and pending offer."""
    return build_view(state, seat, VIEW_PARTS)


def view_parts_of(state: MareState, seat: int | None, parts: Iterable[tuple[str, ...]]) -> JsonDict:
    """The parts of :func:`view_of` named by ``parts`` (``MareState.view_parts``)."""
    return build_view(state, seat, VIEW_PARTS, requested(parts))


def _public_state(state: MareState, seat: int | None, keys: set[str] | None = None) -> JsonDict:
    """The view's ``state``: the snapshot without its hidden keys (only ``keys``)."""
    if keys is None:
        data = state.to_data()
        for key in HIDDEN:
            del data[key]
        return data
    data_of = FIELDS.data_of
    return {key: data_of[key](state) for key in keys}


#: The view's parts in their order, one builder each (see :mod:`senet.games.view_parts`).
VIEW_PARTS: dict[str, PartBuilder] = {
    "game": lambda state, seat: "marenostrum",
    "viewer": lambda state, seat: seat,
    "current_seat": lambda state, seat: state.current_seat(),
    "deciding_seats": lambda state, seat: list(state.deciding_seats()),
    "phase_name": lambda state, seat: PHASE_NAMES[state.phase],
    "civilizations": lambda state, seat: [CIV_IDS[c] for c in state.civ_of],
    "role_holders": lambda state, seat: {ROLE_IDS[r]: state.roles[r] for r in range(len(ROLE_IDS))},
    "hand_sizes": lambda state, seat: [sum(h) for h in state.hands],
    "offer_sizes": lambda state, seat: [sum(o) for o in state.offers],
    "hand": lambda state, seat: list(state.hands[seat]) if seat is not None else None,
    "offer": lambda state, seat: list(state.offers[seat]) if seat is not None else None,
    "scores": lambda state, seat: state.scores(),
    "state": _public_state,
    "ranking": lambda state, seat: state.ranking() if state.step == OVER else ABSENT,
}


#: What each part of :func:`view_of` is built from (``MareState.view_sources``): the
#: view's ``state`` is the snapshot without its hidden keys, one part per field.
VIEW_SOURCES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("game",): (),
    ("viewer",): (),
    ("current_seat",): ("step", "traders", "offers", "trade_size", "actor"),
    ("deciding_seats",): ("step", "traders", "offers", "trade_size", "actor"),
    ("phase_name",): ("phase",),
    ("civilizations",): ("civ_of",),
    ("role_holders",): ("roles",),
    ("hand_sizes",): ("hands",),
    ("offer_sizes",): ("offers",),
    ("hand",): ("hands",),
    ("offer",): ("offers",),
    ("scores",): ("owned",),
    # shown once the match is over, read from nearly every field
    ("ranking",): tuple(sorted(FIELDS.reported - {"game", "seat_count", "options"})),
    **{
        ("state", key): () if key in ("game", "seats", "options") else (key,)
        for key in FIELDS.keys
        if key not in HIDDEN
    },
}

VIEW_KEYS = frozenset(
    {
        "game",
        "viewer",
        "current_seat",
        "deciding_seats",
        "phase_name",
        "civilizations",
        "role_holders",
        "hand_sizes",
        "offer_sizes",
        "hand",
        "offer",
        "scores",
        "state",
        "ranking",
    }
)


def _deal(
    seats: int,
    viewer: int | None,
    unseen: list[int],
    hand_sizes: list[int],
    offer_sizes: list[int],
    hands: list[list[int]],
    offers: list[list[int]],
    rng: Rng,
    paying: tuple[int, int, int, int] | None = None,
) -> None:
    """Deal ``unseen`` cards (a list of card types) to every seat but ``viewer``:
    the lowest of each seat's cards make its offer, so its offer stays canonical.

    ``paying`` is ``(seat, pay_mask, cards left, spare)`` while a hidden hand is
    paying a set: that hand first gets cards that complete the set (it held some);
    ``spare`` is what the Temple of Artemis adds to a commodity set."""
    rng.shuffle(unseen)
    reserved: list[int] = []
    if paying is not None and paying[0] != viewer:
        reserved = _completing(unseen, paying[1], paying[2], paying[3], rng)
    for seat in range(seats):
        if seat == viewer:
            continue
        mine = reserved if paying is not None and seat == paying[0] else []
        take = hand_sizes[seat] + offer_sizes[seat] - len(mine)
        cards = sorted(unseen[:take] + mine)
        del unseen[:take]
        offer, hand = cards[: offer_sizes[seat]], cards[offer_sizes[seat] :]
        offers[seat] = [offer.count(c) for c in range(CARD_TYPES)]
        hands[seat] = [hand.count(c) for c in range(CARD_TYPES)]


def _completing(unseen: list[int], mask: int, left: int, spare: int, rng: Rng) -> list[int]:
    """Take from ``unseen`` cards that finish a set paid so far as ``mask``.

    With ``spare`` (a set not begun, the Temple of Artemis ready) the hand may hold
    fewer cards than the set's size, so commodities are dealt whenever they can be."""
    taxes = unseen.count(TAX)
    last = mask.bit_length() - 1 if mask > 1 else 0
    kinds = sorted({c for c in unseen if c > last and c != TAX})
    goods = left - spare if mask == 0 else left
    use_tax = mask == 1 or (
        mask == 0 and taxes >= left and (len(kinds) < goods or (not spare and rng.chance()))
    )
    chosen = [TAX] * left
    if not use_tax:
        rng.shuffle(kinds)
        chosen = kinds[:goods]
    for card in chosen:
        unseen.remove(card)
    return chosen


def paying_of(data: Mapping[str, Any]) -> tuple[int, int, int, int] | None:
    """The hidden hand paying a set in the saved ``data``, if any (see :func:`_deal`)."""
    left, actor = data["pay_left"], data["actor"]
    if data["step"] != PAY or left <= 0:
        return None
    spare = set_spare(data["owned"][actor], data["powers_used"][actor], data["phase"])
    return (actor, data["pay_mask"], left, spare if data["pay_mask"] == 0 else 0)


def _unseen(
    data: Mapping[str, Any], viewer: int | None, hand: list[int], offer: list[int]
) -> list[int]:
    counts = bank_start()
    for c in range(CARD_TYPES):
        counts[c] -= data["bank"][c]
        for row in (*data["face_up"], *data["face_down"]):
            counts[c] -= row[c]
        if viewer is not None:
            counts[c] -= hand[c] + offer[c]
    if any(n < 0 for n in counts):
        raise CorruptStateError("the cards do not add up")
    return [c for c in range(CARD_TYPES) for _ in range(counts[c])]


def determinized(state: MareState, seat: int | None, seed: int) -> MareState:
    """A copy with the hands and pending offers of the other seats dealt afresh."""
    twin = state.clone()
    sampler = Rng(seed)
    data = {"bank": twin.bank, "face_up": twin.face_up, "face_down": twin.face_down}
    hand = twin.hands[seat] if seat is not None else [0] * CARD_TYPES
    offer = twin.offers[seat] if seat is not None else [0] * CARD_TYPES
    _deal(
        twin.seat_count,
        seat,
        _unseen(data, seat, hand, offer),
        [sum(h) for h in twin.hands],
        [sum(o) for o in twin.offers],
        twin.hands,
        twin.offers,
        sampler,
        paying_of(
            {
                "step": twin.step,
                "actor": twin.actor,
                "pay_mask": twin.pay_mask,
                "pay_left": twin.pay_left,
                "owned": twin.owned,
                "powers_used": twin.powers_used,
                "phase": twin.phase,
            }
        ),
    )
    twin.rng = Rng(sampler.next_u64())
    return twin


def state_from_view(
    cls: type[MareState], game: Game, view: Mapping[str, Any], seed: int
) -> MareState:
    """A state whose view equals ``view``; what it hides is sampled from ``seed``.

    Raises:
        CorruptStateError: the view is not one this class produced.
    """
    try:
        if not isinstance(view, Mapping) or set(view) - VIEW_KEYS or "state" not in view:
            raise CorruptStateError("not a Mare Nostrum view")
        data = dict(view["state"])
        seats = int(data["seats"])
        viewer = view["viewer"]
        if viewer is not None:
            viewer = v.integer(viewer, "viewer", 0, seats - 1)
        hand_sizes = v.int_list(view["hand_sizes"], "hand_sizes", 0, 1000, seats)
        offer_sizes = v.int_list(view["offer_sizes"], "offer_sizes", 0, 1000, seats)
        hands = [[0] * CARD_TYPES for _ in range(seats)]
        offers = [[0] * CARD_TYPES for _ in range(seats)]
        hand = offer = [0] * CARD_TYPES
        if viewer is not None:
            hand = v.int_list(view["hand"], "hand", 0, 1000, CARD_TYPES)
            offer = v.int_list(view["offer"], "offer", 0, 1000, CARD_TYPES)
            hands[viewer], offers[viewer] = list(hand), list(offer)
        sampler = Rng(seed)
        _deal(
            seats,
            viewer,
            _unseen(data, viewer, hand, offer),
            hand_sizes,
            offer_sizes,
            hands,
            offers,
            sampler,
            paying_of(data),
        )
        owned = {c for row in data["owned"] for c in row}
        data["hands"] = hands
        data["offers"] = offers
        data["set_aside"] = sorted(set(POOL_INDEXES) - set(data["available"]) - owned)
        data["rng"] = sampler.next_u64()
        return state_from_data(cls, game, data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, CorruptStateError):
            raise
        raise CorruptStateError(f"not a Mare Nostrum view: {exc}") from exc


def _table(value: Any, name: str, rows: int, columns: int, low: int, high: int) -> list[list[int]]:
    return v.int_table(value, name, rows, columns, low, high)


def _rows(value: Any, name: str, rows: int, low: int, high: int) -> list[list[int]]:
    if not isinstance(value, list) or len(value) != rows:
        raise CorruptStateError(f"{name} must be a list of {rows} rows")
    return [v.int_list(r, f"{name}[{i}]", low, high) for i, r in enumerate(value)]


def state_from_data(cls: type[MareState], game: Game, data: Mapping[str, Any]) -> MareState:
    """Rebuild a state from :meth:`to_data` output, checking every field.

    Raises:
        CorruptStateError: a field is missing, mistyped, out of range or
            inconsistent with the others.
    """
    f = partial(v.field, data)
    seats, options, rng = snapshot_header(game, data)
    s = cls(game, seats, options)
    s.rng = rng
    big = 1_000_000
    seat = partial(v.integer, low=-1, high=seats - 1)
    s.turn = v.integer(f("turn"), "turn", 0, 10_000)
    s.phase = v.integer(f("phase"), "phase", 0, len(PHASE_NAMES) - 1)
    s.step = v.choice(f("step"), "step", STEPS)
    s.actor = seat(f("actor"), "actor")
    s.role_index = v.integer(f("role_index"), "role_index", 0, len(ROLE_IDS))
    s.ishtar_role = v.integer(f("ishtar_role"), "ishtar_role", -1, len(ROLE_IDS) - 1)
    s.trade_size = v.integer(f("trade_size"), "trade_size", 0, big)
    s.taker = seat(f("taker"), "taker")
    s.pay_left = v.integer(f("pay_left"), "pay_left", 0, 13)
    s.pay_mask = v.integer(f("pay_mask"), "pay_mask", 0, (1 << CARD_TYPES) - 1)
    s.setup_turns = v.integer(f("setup_turns"), "setup_turns", 0, 100)
    s.points_left = v.integer(f("points_left"), "points_left", 0, 9)
    s.after_space = v.integer(f("after_space"), "after_space", -1, PROVINCES - 1)
    s.winner = seat(f("winner"), "winner")
    s.civ_of = v.int_list(f("civ_of"), "civ_of", 0, CIVS - 1, seats, unique=True)
    s.seat_of = v.int_list(f("seat_of"), "seat_of", -1, seats - 1, CIVS)
    if (
        any(s.seat_of[c] != i for i, c in enumerate(s.civ_of))
        or s.seat_of.count(-1) != CIVS - seats
    ):
        raise CorruptStateError("seat_of must invert civ_of")
    s.capital = v.int_list(f("capital"), "capital", 0, PROVINCES - 1, CIVS)
    s.roles = v.int_list(f("roles"), "roles", -1, seats - 1, len(ROLE_IDS))
    s.influence = v.int_list(f("influence"), "influence", -1, CIVS - 1, PROVINCES)
    for name in ("fortresses", "cities", "temples", "markets", "new_influence"):
        setattr(s, name, v.int_list(f(name), name, 0, 8, PROVINCES))
    s.caravans = v.int_list(f("caravans"), "caravans", 0, 3, PROVINCES)
    full = BUILDING_STOCK[seats]
    s.stock = v.int_list(f("stock"), "stock", 0, max(full), len(full))
    s.occupier = v.int_list(f("occupier"), "occupier", -1, CIVS - 1, PROVINCES)
    s.converter = v.int_list(f("converter"), "converter", -1, CIVS - 1, PROVINCES)
    s.bank = v.int_list(f("bank"), "bank", 0, big, CARD_TYPES)
    s.traders = v.int_list(f("traders"), "traders", 0, seats - 1, unique=True)
    s.last_trades = v.int_list(f("last_trades"), "last_trades", 0, seats - 1)
    s.available = v.int_list(f("available"), "available", 0, len(OWNABLE) - 1, unique=True)
    s.set_aside = v.int_list(f("set_aside"), "set_aside", 0, len(OWNABLE) - 1, unique=True)
    s.god_holder = v.int_list(f("god_holder"), "god_holder", -1, seats - 1, len(GODS))
    s.god_used = v.int_list(f("god_used"), "god_used", 0, 1, len(GODS))
    s.queue = v.int_list(f("queue"), "queue", 0, seats - 1, unique=True)
    s.unordered = v.int_list(f("unordered"), "unordered", 0, seats - 1, unique=True)
    s.purchase = v.int_list(f("purchase"), "purchase", -1, big)
    s.moved_legions = v.int_list(f("moved_legions"), "moved_legions", 0, 100, PROVINCES)
    s.moved_creatures = v.int_list(f("moved_creatures"), "moved_creatures", 0, 100, PROVINCES)
    s.moved_triremes = v.int_list(f("moved_triremes"), "moved_triremes", 0, 100, SPACES)
    s.fought = v.int_list(f("fought"), "fought", 0, SPACES * CIVS)
    s.pending = v.int_list(f("pending"), "pending", 0, PROVINCES - 1)
    s.blockade = v.int_list(f("blockade"), "blockade", 0, SPACES - 1)
    s.powers_used = v.int_list(f("powers_used"), "powers_used", 0, POWER_BITS, seats)
    s.cursed = v.int_list(f("cursed"), "cursed", 0, PROVINCES - 1, unique=True)
    s.regrown = v.int_list(f("regrown"), "regrown", 0, CIVS - 1, unique=True)
    s.blockaded = v.int_list(f("blockaded"), "blockaded", PROVINCES, SPACES - 1, unique=True)
    if (s.step == BLOCKADE and len(s.blockade) < 5) or (s.step == DECLARE and len(s.blockade) < 4):
        raise CorruptStateError("a blockade needs the crossing and its chain")
    # Saved before Poseidon's holder was asked about crossings: none is waiting.
    s.crossing = v.int_list(data.get("crossing", []), "crossing", 0, SPACES - 1)
    if (s.step == SEA_GOD) != bool(s.crossing) or 0 < len(s.crossing) < 5:
        raise CorruptStateError("Poseidon's step needs the crossing and its chain")
    if s.step == OCCUPATION and (s.after_space < 0 or s.occupier[s.after_space] < 0):
        raise CorruptStateError("the occupation step needs the province occupied")
    if s.step == SPELL and (not s.fought or s.fought[-1] // CIVS >= PROVINCES):
        raise CorruptStateError("Circe's step needs the ground battle it is about")
    if s.step == WAR_GOD and not (s.blockaded if s.blockade else s.fought):
        raise CorruptStateError("Mars's step needs the battle it is about")
    if s.step == NAVAL_GOD and not (
        s.blockaded if s.blockade else s.fought and s.fought[-1] // CIVS >= PROVINCES
    ):
        raise CorruptStateError("Poseidon's step before a sea battle needs the battle")
    if s.step == KEEP and not s.queue:
        raise CorruptStateError("the keep step needs the players still to choose")
    s.legions = _table(f("legions"), "legions", CIVS, PROVINCES, 0, 100)
    s.creatures = _table(f("creatures"), "creatures", CIVS, PROVINCES, 0, 100)
    s.triremes = _table(f("triremes"), "triremes", CIVS, SPACES, 0, 100)
    for name in ("hands", "offers", "face_up", "face_down"):
        setattr(s, name, _table(f(name), name, seats, CARD_TYPES, 0, big))
    s.owned = _rows(f("owned"), "owned", seats, 0, len(OWNABLE) - 1)
    s.free_left = _table(f("free_left"), "free_left", seats, len(ITEMS), 0, 9)
    s.losses = _rows(
        f("losses"), "losses", len(f("losses")) if isinstance(f("losses"), list) else -1, 0, SPACES
    )
    if "held" in data:
        s.held = _table(data["held"], "held", PROVINCES, len(BUILDING_NAMES), 0, 8)
    else:
        s.held = [list(NO_HOLDING) for _ in range(PROVINCES)]
        for province in range(PROVINCES):
            hold_in_order(s, province)
    if "chosen_by" in data:
        s.chosen_by = v.int_list(data["chosen_by"], "chosen_by", -1, CIVS - 1, PROVINCES)
    else:
        # Saved before the choice was kept: every invader alone in an enemy
        # province has had his (the release asked him at once or never).
        s.chosen_by = [_lone_invader(s, p) for p in range(PROVINCES)]
    _read_rolled(s, data)
    _check_consistency(s)
    return s


def _lone_invader(s: MareState, province: int) -> int:
    """The civilization standing alone in an enemy province, if any."""
    present = civs_present(s, province)
    if len(present) == 1 and s.influence[province] not in (-1, present[0]):
        return present[0]
    return -1


def _read_rolled(s: MareState, data: Mapping[str, Any]) -> None:
    """The battle Mars's holder decides on after its dice: per side, its total, then
    the faces rolled; none outside his step."""
    if "rolled" not in data and s.step == WAR_GOD:
        # Saved while Mars's holder decided before the dice: they are rolled now,
        # from the restored generator.
        s.roll_battle_at_hand()
        return
    rolled = data.get("rolled", [])
    if not isinstance(rolled, list):
        raise CorruptStateError("rolled must be a list of rows")
    s.rolled = [v.int_list(r, f"rolled[{i}]", 0, 1000) for i, r in enumerate(rolled)]
    if (s.step == WAR_GOD) != bool(s.rolled) or len(s.rolled) not in (0, 2) or [] in s.rolled:
        raise CorruptStateError("rolled holds the two sides of the battle Mars's holder sees")
    if any(not 1 <= face <= 6 for row in s.rolled for face in row[1:]):
        raise CorruptStateError("a die shows 1 to 6")


def _check_consistency(s: MareState) -> None:
    """Cards add up to the bank's start; the step's context is present."""
    for c in range(CARD_TYPES):
        total = s.bank[c] + sum(
            row[c] for table in (s.hands, s.offers, s.face_up, s.face_down) for row in table
        )
        if total != bank_start()[c]:
            raise CorruptStateError("the resource cards do not add up")
    if any(len(row) != 3 for row in s.losses):
        raise CorruptStateError("losses rows are [civ, space, count]")
    if s.step == OFFER and not s.traders:
        raise CorruptStateError("offers need traders")
    try:
        if s.step != OVER and s.current_seat() in (None, -1):
            raise CorruptStateError("a running match needs a seat to move")
        if s.step != OVER and not s.legal_actions():
            raise CorruptStateError("no legal action in a running match")
    except (IndexError, ValueError) as exc:
        raise CorruptStateError(f"inconsistent state: {exc}") from exc
