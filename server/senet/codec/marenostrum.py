"""The Mare Nostrum codec: core actions, views and events <-> ``senet.v1`` messages.

The core keeps a match as index tables (per civilization and space, per seat and card
type) and names things in its notation (``lati``, ``wine``, ``hercules``); the
protocol gives each province, sea, player and god a message of its own, closed
vocabularies as enums (the core's index plus one, zero meaning unset or nobody) and
the open catalogues (spaces, heroes and wonders, gods) as the notation's ids. Every
translation goes through the core's own tables, and decoded actions are re-parsed by
the core's notation parser before they are returned.

Views decode back to exactly the core's dicts (bots rebuild their forward model from
them), so every key of the core's view has a field; a key the codec does not know is
a server bug and fails loudly, as does an event kind without a message. Decoding
client actions is strict: a field the action kind does not use is refused rather
than ignored, as in the other codecs.

:func:`event_from_proto` is the inverse of :func:`event_to_proto` (the wire does
not carry an event's audience): clients that want the core's event data use it, and
the tests use it to prove that no detail is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple

from senet.codec.base import OneofCodec, action_kind_of
from senet.games.errors import GameError, MalformedActionError
from senet.games.interface import Event, JsonDict, OptionValue
from senet.games.marenostrum import actions as act
from senet.games.marenostrum.actions import (
    SACK_KINDS,
    UNIT_LETTERS,
    MareAction,
    parse_action,
)
from senet.games.marenostrum.board import ICONS, PROVINCES, SPACE_IDS, SPACES
from senet.games.marenostrum.cards import CIV_HEROES, CREATURES, GOD_IDS, OWNABLE_IDS
from senet.games.marenostrum.civilizations import CIV_IDS, CIVS, GREECE, in_match
from senet.games.marenostrum.commodities import CARD_NAMES, CARD_TYPES
from senet.games.marenostrum.constants import (
    AFTER_BATTLE,
    BARTER,
    BLOCKADE,
    BUILD,
    COMPENSATE,
    DECLARE,
    GIFT,
    GROUND,
    KEEP,
    LOSSES,
    NAVAL,
    NAVAL_GOD,
    OCCUPATION,
    OFFER,
    OFFERING,
    ORDER,
    OVER,
    PAY,
    PHASE_NAMES,
    ROLE_GOD,
    ROLE_IDS,
    ROLE_TIE,
    SEA_GOD,
    SETUP_BUILD,
    SETUP_CAPITAL,
    SPELL,
    STEPS,
    TAKE,
    TRADE_GOD,
    TRADE_SIZE,
    UNIT_KINDS,
    WAR_GOD,
)
from senet.games.marenostrum.game import MARENOSTRUM
from senet.games.marenostrum.snapshot import FIELDS, HIDDEN, VIEW_KEYS
from senet.games.marenostrum.tokens import (
    BUILDING_NAMES,
    BUY_ITEM,
    CARAVAN,
    CITY,
    CONVERT_ITEM,
    GOD_ITEM,
    ITEMS,
    MARKET,
    TEMPLE,
)
from senet.v1 import mare_nostrum_pb2 as pb

NOBODY = -1
_SPACE_INDEX = {space: i for i, space in enumerate(SPACE_IDS)}
_PROVINCE_IDS = frozenset(SPACE_IDS[:PROVINCES])
_GOD_INDEX = {god: i for i, god in enumerate(GOD_IDS)}
_OWNABLE_INDEX = {card: i for i, card in enumerate(OWNABLE_IDS)}
_PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
_ROLE_INDEX = {name: i for i, name in enumerate(ROLE_IDS)}
_CIV_INDEX = {name: i for i, name in enumerate(CIV_IDS)}
_CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
_ITEM_INDEX = {name: i for i, name in enumerate(ITEMS)}
_UNIT_INDEX = {name: i for i, name in enumerate(UNIT_KINDS)}
#: Every key of the core's state data that a view carries.
_STATE_KEYS = tuple(key for key in FIELDS.keys if key not in HIDDEN)

# --------------------------------------------------------------- enum tables
_KINDS: dict[str, pb.MareNostrumActionKind.ValueType] = {
    act.SIZE: pb.MARE_NOSTRUM_ACTION_KIND_SIZE,
    act.OFFER: pb.MARE_NOSTRUM_ACTION_KIND_OFFER,
    act.TAKE: pb.MARE_NOSTRUM_ACTION_KIND_TAKE,
    act.GIVE: pb.MARE_NOSTRUM_ACTION_KIND_GIVE,
    act.GRANT: pb.MARE_NOSTRUM_ACTION_KIND_GRANT,
    act.NEXT: pb.MARE_NOSTRUM_ACTION_KIND_NEXT,
    act.GOD: pb.MARE_NOSTRUM_ACTION_KIND_GOD,
    act.PASS: pb.MARE_NOSTRUM_ACTION_KIND_PASS,
    act.BUILD: pb.MARE_NOSTRUM_ACTION_KIND_BUILD,
    act.BUY: pb.MARE_NOSTRUM_ACTION_KIND_BUY,
    act.CONVERT: pb.MARE_NOSTRUM_ACTION_KIND_CONVERT,
    act.PAY: pb.MARE_NOSTRUM_ACTION_KIND_PAY,
    act.CAPITAL: pb.MARE_NOSTRUM_ACTION_KIND_CAPITAL,
    act.SAIL: pb.MARE_NOSTRUM_ACTION_KIND_SAIL,
    act.FIGHT: pb.MARE_NOSTRUM_ACTION_KIND_FIGHT,
    act.MOVE: pb.MARE_NOSTRUM_ACTION_KIND_MOVE,
    act.LOSE: pb.MARE_NOSTRUM_ACTION_KIND_LOSE,
    act.SACK: pb.MARE_NOSTRUM_ACTION_KIND_SACK,
    act.OCCUPY: pb.MARE_NOSTRUM_ACTION_KIND_OCCUPY,
    act.DONE: pb.MARE_NOSTRUM_ACTION_KIND_DONE,
    act.INVOKE: pb.MARE_NOSTRUM_ACTION_KIND_INVOKE,
    act.SWAP: pb.MARE_NOSTRUM_ACTION_KIND_SWAP,
    act.GILD: pb.MARE_NOSTRUM_ACTION_KIND_GILD,
    act.BLOCKADE: pb.MARE_NOSTRUM_ACTION_KIND_BLOCKADE,
    act.BARTER: pb.MARE_NOSTRUM_ACTION_KIND_BARTER,
    act.GAZE: pb.MARE_NOSTRUM_ACTION_KIND_GAZE,
    act.VIA: pb.MARE_NOSTRUM_ACTION_KIND_VIA,
    act.HOLD: pb.MARE_NOSTRUM_ACTION_KIND_HOLD,
    act.ENCHANT: pb.MARE_NOSTRUM_ACTION_KIND_ENCHANT,
    act.GIFT: pb.MARE_NOSTRUM_ACTION_KIND_GIFT,
}
_KIND_OF: dict[int, str] = {value: kind for kind, value in _KINDS.items()}

#: Steps by name, not by their place in the core's ``STEPS``: steps the core gains
#: later take new enum numbers, wherever they sit in its order.
_STEPS: dict[str, pb.MareNostrumStep.ValueType] = {
    SETUP_CAPITAL: pb.MARE_NOSTRUM_STEP_SETUP_CAPITAL,
    SETUP_BUILD: pb.MARE_NOSTRUM_STEP_SETUP_BUILD,
    ROLE_TIE: pb.MARE_NOSTRUM_STEP_ROLE_TIE,
    ORDER: pb.MARE_NOSTRUM_STEP_ORDER,
    TRADE_SIZE: pb.MARE_NOSTRUM_STEP_TRADE_SIZE,
    OFFER: pb.MARE_NOSTRUM_STEP_OFFER,
    TAKE: pb.MARE_NOSTRUM_STEP_TAKE,
    COMPENSATE: pb.MARE_NOSTRUM_STEP_COMPENSATE,
    OFFERING: pb.MARE_NOSTRUM_STEP_OFFERING,
    BUILD: pb.MARE_NOSTRUM_STEP_BUILD,
    PAY: pb.MARE_NOSTRUM_STEP_PAY,
    NAVAL: pb.MARE_NOSTRUM_STEP_NAVAL,
    GROUND: pb.MARE_NOSTRUM_STEP_GROUND,
    LOSSES: pb.MARE_NOSTRUM_STEP_LOSSES,
    AFTER_BATTLE: pb.MARE_NOSTRUM_STEP_AFTER_BATTLE,
    BLOCKADE: pb.MARE_NOSTRUM_STEP_BLOCKADE,
    OVER: pb.MARE_NOSTRUM_STEP_OVER,
    DECLARE: pb.MARE_NOSTRUM_STEP_DECLARE,
    BARTER: pb.MARE_NOSTRUM_STEP_BARTER,
    WAR_GOD: pb.MARE_NOSTRUM_STEP_WAR_GOD,
    ROLE_GOD: pb.MARE_NOSTRUM_STEP_ROLE_GOD,
    OCCUPATION: pb.MARE_NOSTRUM_STEP_OCCUPATION,
    KEEP: pb.MARE_NOSTRUM_STEP_KEEP,
    TRADE_GOD: pb.MARE_NOSTRUM_STEP_TRADE_GOD,
    SPELL: pb.MARE_NOSTRUM_STEP_SPELL,
    GIFT: pb.MARE_NOSTRUM_STEP_GIFT,
    SEA_GOD: pb.MARE_NOSTRUM_STEP_SEA_GOD,
    NAVAL_GOD: pb.MARE_NOSTRUM_STEP_NAVAL_GOD,
}
_STEP_OF: dict[int, str] = {value: step for step, value in _STEPS.items()}
assert set(_STEPS) == set(STEPS), "every core step needs a MareNostrumStep"

_EVENT_KINDS: dict[str, pb.MareNostrumEventKind.ValueType] = {
    "roles_assigned": pb.MARE_NOSTRUM_EVENT_KIND_ROLES_ASSIGNED,
    "turn_started": pb.MARE_NOSTRUM_EVENT_KIND_TURN_STARTED,
    "role_changed": pb.MARE_NOSTRUM_EVENT_KIND_ROLE_CHANGED,
    "revenue": pb.MARE_NOSTRUM_EVENT_KIND_REVENUE,
    "revenue_cards": pb.MARE_NOSTRUM_EVENT_KIND_REVENUE_CARDS,
    "trade_size": pb.MARE_NOSTRUM_EVENT_KIND_TRADE_SIZE,
    "card_offered": pb.MARE_NOSTRUM_EVENT_KIND_CARD_OFFERED,
    "card_offered_private": pb.MARE_NOSTRUM_EVENT_KIND_CARD_OFFERED_PRIVATE,
    "offers_revealed": pb.MARE_NOSTRUM_EVENT_KIND_OFFERS_REVEALED,
    "card_taken": pb.MARE_NOSTRUM_EVENT_KIND_CARD_TAKEN,
    "compensated": pb.MARE_NOSTRUM_EVENT_KIND_COMPENSATED,
    "trade_over": pb.MARE_NOSTRUM_EVENT_KIND_TRADE_OVER,
    "order": pb.MARE_NOSTRUM_EVENT_KIND_ORDER,
    "offering": pb.MARE_NOSTRUM_EVENT_KIND_OFFERING,
    "bought": pb.MARE_NOSTRUM_EVENT_KIND_BOUGHT,
    "converted": pb.MARE_NOSTRUM_EVENT_KIND_CONVERTED,
    "built": pb.MARE_NOSTRUM_EVENT_KIND_BUILT,
    "game_over": pb.MARE_NOSTRUM_EVENT_KIND_GAME_OVER,
    "battle": pb.MARE_NOSTRUM_EVENT_KIND_BATTLE,
    "naval_battle": pb.MARE_NOSTRUM_EVENT_KIND_NAVAL_BATTLE,
    "sacked": pb.MARE_NOSTRUM_EVENT_KIND_SACKED,
    "occupied": pb.MARE_NOSTRUM_EVENT_KIND_OCCUPIED,
    "converting": pb.MARE_NOSTRUM_EVENT_KIND_CONVERTING,
    "conversion_lapsed": pb.MARE_NOSTRUM_EVENT_KIND_CONVERSION_LAPSED,
    "moved": pb.MARE_NOSTRUM_EVENT_KIND_MOVED,
    "card_power": pb.MARE_NOSTRUM_EVENT_KIND_CARD_POWER,
    "blockade_declared": pb.MARE_NOSTRUM_EVENT_KIND_BLOCKADE_DECLARED,
    "blockade_battle": pb.MARE_NOSTRUM_EVENT_KIND_BLOCKADE_BATTLE,
    "blockade_held": pb.MARE_NOSTRUM_EVENT_KIND_BLOCKADE_HELD,
    "crossing_broken": pb.MARE_NOSTRUM_EVENT_KIND_CROSSING_BROKEN,
    "capital_founded": pb.MARE_NOSTRUM_EVENT_KIND_CAPITAL_FOUNDED,
    "sailed": pb.MARE_NOSTRUM_EVENT_KIND_SAILED,
    "god_invoked": pb.MARE_NOSTRUM_EVENT_KIND_GOD_INVOKED,
    "card_drawn": pb.MARE_NOSTRUM_EVENT_KIND_CARD_DRAWN,
    "card_drawn_private": pb.MARE_NOSTRUM_EVENT_KIND_CARD_DRAWN_PRIVATE,
    "first_strike": pb.MARE_NOSTRUM_EVENT_KIND_FIRST_STRIKE,
    "regrow": pb.MARE_NOSTRUM_EVENT_KIND_REGROW,
    "petrified": pb.MARE_NOSTRUM_EVENT_KIND_PETRIFIED,
}
_EVENT_KIND_OF: dict[int, str] = {value: kind for kind, value in _EVENT_KINDS.items()}


# ------------------------------------------------------------ small values
def _plus_one(index: int, size: int, what: str) -> int:
    """A core index as its enum number (index + 1); ``-1`` (nobody) as unset."""
    if index == NOBODY:
        return 0
    if not 0 <= index < size:
        raise ValueError(f"no protobuf form for Mare Nostrum {what} {index!r}")
    return index + 1


def _minus_one(value: int, size: int, what: str) -> int:
    """An enum number as the core's index; unset as ``-1`` (nobody)."""
    if not 0 <= value <= size:
        raise ValueError(f"{value} is not a Mare Nostrum {what}")
    return value - 1


def _civ(index: int) -> pb.MareNostrumCivilization.ValueType:
    return pb.MareNostrumCivilization.ValueType(_plus_one(index, CIVS, "civilization"))


def _civ_or_nobody(value: int) -> int:
    """A civilization field that may say nobody (influence, occupier): -1 when unset."""
    return _minus_one(value, CIVS, "civilization")


def _civ_of(value: int) -> int:
    """A civilization field that must name one: units, players, battles' sides."""
    if value == pb.MARE_NOSTRUM_CIVILIZATION_UNSPECIFIED:
        raise ValueError("a Mare Nostrum civilization is unspecified")
    return _minus_one(value, CIVS, "civilization")


def _card(index: int) -> pb.MareNostrumCard.ValueType:
    if index == NOBODY:
        raise ValueError("no Mare Nostrum card -1")
    return pb.MareNostrumCard.ValueType(_plus_one(index, CARD_TYPES, "card"))


def _card_index(value: int) -> int:
    if value == pb.MARE_NOSTRUM_CARD_UNSPECIFIED:
        raise ValueError("a Mare Nostrum card is unspecified")
    return _minus_one(value, CARD_TYPES, "card")


def _space_index(space: str) -> int:
    index = _SPACE_INDEX.get(space)
    if index is None:
        raise ValueError(f"{space!r} is not a Mare Nostrum space")
    return index


def _province_index(space: str) -> int:
    index = _space_index(space)
    if index >= PROVINCES:
        raise ValueError(f"{space!r} is a sea, not a Mare Nostrum province")
    return index


def write_cards(out: pb.MareNostrumCards, counts: Sequence[int]) -> None:
    """A pile as counts by card type -> ``out`` (only the types held)."""
    if len(counts) != CARD_TYPES:
        raise ValueError(f"a Mare Nostrum pile has {CARD_TYPES} counts, not {len(counts)}")
    out.SetInParent()
    for card, count in enumerate(counts):
        if count:
            out.cards.add(card=_card(card), count=count)


def read_cards(message: pb.MareNostrumCards) -> list[int]:
    """A ``MareNostrumCards`` -> counts by card type."""
    counts = [0] * CARD_TYPES
    for entry in message.cards:
        card = _card_index(entry.card)
        if counts[card] or not entry.count:
            raise ValueError("each Mare Nostrum card type is listed once, with a count")
        counts[card] = entry.count
    return counts


def _write_named_cards(out: pb.MareNostrumCards, cards: Mapping[str, int]) -> None:
    counts = [0] * CARD_TYPES
    for name, count in cards.items():
        counts[_CARD_INDEX[name]] = count
    write_cards(out, counts)


def _read_named_cards(message: pb.MareNostrumCards) -> dict[str, int]:
    return {CARD_NAMES[c]: n for c, n in enumerate(read_cards(message)) if n}


# ------------------------------------------------------------------- actions
def action_to_proto(action: MareAction) -> pb.MareNostrumAction:
    """A core action value -> message."""
    out = pb.MareNostrumAction()
    fill_action(out, action)
    return out


def fill_action(out: pb.MareNostrumAction, action: MareAction) -> None:
    """:func:`action_to_proto`, written into ``out``, an empty message."""
    kind, a, b, c = action
    value = _KINDS.get(kind)
    if value is None:
        raise ValueError(f"no protobuf form for Mare Nostrum action kind {kind!r}")
    out.kind = value
    if kind == act.SIZE:
        out.size = a
    elif kind in act.CARD_KINDS:
        out.card = _card(a)
        if b >= 0:
            out.card_id = OWNABLE_IDS[b]
    elif kind == act.TAKE:
        out.seat, out.card = a, _card(b)
    elif kind in act.SEAT_KINDS:
        out.seat = a
    elif kind in (act.SWAP, act.BARTER):
        out.card, out.bank_card = _card(a), _card(b)
    elif kind == act.GOD:
        out.god = GOD_IDS[a]
    elif kind == act.INVOKE and GOD_IDS[a] == "ishtar":
        out.god = GOD_IDS[a]
        out.role = pb.MareNostrumRole.ValueType(_plus_one(b, len(ROLE_IDS), "role"))
    elif kind == act.INVOKE:
        out.god = GOD_IDS[a]
        if b >= 0:
            out.space = SPACE_IDS[b]
        if c >= 0 and GOD_IDS[a] == "poseidon":
            out.civilization = _civ(c)
        elif c >= 0:
            out.commodity = _card(c)
    elif kind == act.BUILD:
        out.item = pb.MareNostrumItem.ValueType(_plus_one(a, len(ITEMS), "item"))
        out.space = SPACE_IDS[b]
        if c >= 0:
            out.commodity = _card(c)
    elif kind == act.BUY:
        out.card_id = OWNABLE_IDS[a]
    elif kind == act.CONVERT:
        if a >= 0:
            out.space = SPACE_IDS[a]
    elif kind in (act.CAPITAL, act.BLOCKADE, act.VIA, act.ENCHANT):
        out.space = SPACE_IDS[a]
    elif kind == act.SAIL:
        out.space, out.destination = SPACE_IDS[a], SPACE_IDS[b]
    elif kind in (act.FIGHT, act.GAZE):
        out.space, out.civilization = SPACE_IDS[a], _civ(b)
    elif kind == act.MOVE:
        out.unit = pb.MareNostrumUnit.ValueType(_plus_one(a, len(UNIT_LETTERS), "moving unit"))
        out.space, out.destination = SPACE_IDS[b], SPACE_IDS[c]
    elif kind == act.LOSE:
        out.unit = pb.MareNostrumUnit.ValueType(_plus_one(a, len(UNIT_KINDS), "unit"))
    elif kind in (act.SACK, act.HOLD):
        out.building = pb.MareNostrumBuilding.ValueType(_plus_one(a, len(SACK_KINDS), "building"))
        if b >= 0:
            out.commodity = _card(b)


class _Arg(NamedTuple):
    """How one field of ``MareNostrumAction`` becomes one word of notation."""

    is_set: Callable[[pb.MareNostrumAction], bool]
    word: Callable[[pb.MareNostrumAction, str], str]


def _enum_word(names: Sequence[str], what: str) -> Callable[[int, str], str]:
    def word(value: int, kind: str) -> str:
        if not 1 <= value <= len(names):
            raise MalformedActionError(f"{value} is not a {what} ({kind!r})")
        return names[value - 1]

    return word


def _id_word(ids: frozenset[str] | Mapping[str, int], what: str) -> Callable[[str, str], str]:
    def word(value: str, kind: str) -> str:
        if value not in ids:
            raise MalformedActionError(f"{value!r} is not {what} ({kind!r})")
        return value

    return word


_card_word = _enum_word(CARD_NAMES, "card")
_space_word = _id_word(_SPACE_INDEX, "a province or sea id")
_unit_word = _enum_word(UNIT_KINDS, "unit")
_move_word = _enum_word(UNIT_LETTERS, "moving unit (legion or creature)")

_ARGS: dict[str, _Arg] = {
    "card": _Arg(lambda m: m.card != 0, lambda m, k: _card_word(m.card, k)),
    "bank_card": _Arg(lambda m: m.bank_card != 0, lambda m, k: _card_word(m.bank_card, k)),
    "seat": _Arg(lambda m: m.HasField("seat"), lambda m, k: str(m.seat)),
    "size": _Arg(lambda m: m.HasField("size"), lambda m, k: str(m.size)),
    "god": _Arg(lambda m: m.god != "", lambda m, k: _id_word(_GOD_INDEX, "a god")(m.god, k)),
    "space": _Arg(lambda m: m.space != "", lambda m, k: _space_word(m.space, k)),
    "destination": _Arg(lambda m: m.destination != "", lambda m, k: _space_word(m.destination, k)),
    "item": _Arg(
        lambda m: m.item != 0, lambda m, k: _enum_word(ITEMS, "buildable item")(m.item, k)
    ),
    "commodity": _Arg(lambda m: m.commodity != 0, lambda m, k: _card_word(m.commodity, k)),
    "civilization": _Arg(
        lambda m: m.civilization != 0,
        lambda m, k: _enum_word(CIV_IDS, "civilization")(m.civilization, k),
    ),
    "card_id": _Arg(
        lambda m: m.card_id != "",
        lambda m, k: _id_word(_OWNABLE_INDEX, "a hero or wonder id")(m.card_id, k),
    ),
    "unit": _Arg(
        lambda m: m.unit != 0,
        lambda m, k: (_move_word if k == act.MOVE else _unit_word)(m.unit, k),
    ),
    "building": _Arg(
        lambda m: m.building != 0,
        lambda m, k: _enum_word(SACK_KINDS, "building")(m.building, k),
    ),
    "role": _Arg(lambda m: m.role != 0, lambda m, k: _enum_word(ROLE_IDS, "role")(m.role, k)),
}

#: Per kind, the fields it needs and the fields it may have, in notation order
#: (the optional ones follow the required ones).
_SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    act.SIZE: (("size",), ()),
    act.OFFER: (("card",), ()),
    act.GIVE: (("card",), ()),
    act.PAY: (("card",), ("card_id",)),
    act.GILD: (("card",), ()),
    act.GIFT: (("card",), ()),
    act.TAKE: (("seat", "card"), ()),
    act.GRANT: (("seat",), ()),
    act.NEXT: (("seat",), ()),
    act.SWAP: (("card", "bank_card"), ()),
    act.BARTER: (("card", "bank_card"), ()),
    act.GAZE: (("space", "civilization"), ()),
    act.ENCHANT: (("space",), ()),
    act.GOD: (("god",), ()),
    act.INVOKE: (("god",), ("space", "civilization", "commodity", "role")),
    act.BUILD: (("item", "space"), ("commodity",)),
    act.BUY: (("card_id",), ()),
    act.CONVERT: ((), ("space",)),
    act.CAPITAL: (("space",), ()),
    act.BLOCKADE: (("space",), ()),
    act.VIA: (("space",), ()),
    act.SAIL: (("space", "destination"), ()),
    act.FIGHT: (("space", "civilization"), ()),
    act.MOVE: (("unit", "space", "destination"), ()),
    act.LOSE: (("unit",), ()),
    act.SACK: (("building",), ("commodity",)),
    act.HOLD: (("building",), ("commodity",)),
    act.PASS: ((), ()),
    act.OCCUPY: ((), ()),
    act.DONE: ((), ()),
}


def action_from_proto(action: pb.MareNostrumAction) -> str:
    """``MareNostrumAction`` from a client -> canonical notation.

    Raises:
        MalformedActionError: see :meth:`GameCodec.action_from_proto`.
    """
    kind = action_kind_of(_KIND_OF, action.kind, "MareNostrumAction")
    required, optional = _SHAPES[kind]
    for name, arg in _ARGS.items():
        if arg.is_set(action) and name not in required and name not in optional:
            raise MalformedActionError(f"{kind!r} takes no {name}: leave it unset")
    words = [kind]
    for name in required:
        arg = _ARGS[name]
        if not arg.is_set(action):
            raise MalformedActionError(f"{kind!r} needs MareNostrumAction.{name}")
        words.append(arg.word(action, kind))
    words.extend(_ARGS[n].word(action, kind) for n in optional if _ARGS[n].is_set(action))
    return parse_action(" ".join(words)).notation()


def _purchase_to_proto(out: pb.MareNostrumAction, purchase: Sequence[int]) -> None:
    """The purchase being paid (``[item, a, b, c]``) as the action that started it."""
    item, a, b, c = purchase
    if item == BUY_ITEM:
        fill_action(out, MareAction(act.BUY, a))
    elif item == GOD_ITEM:
        fill_action(out, MareAction(act.GOD, a))
    elif item == CONVERT_ITEM:
        fill_action(out, MareAction(act.CONVERT, a))
    elif 0 <= item < len(ITEMS) and a == item:
        fill_action(out, MareAction(act.BUILD, item, b, c))
    else:
        raise ValueError(f"no protobuf form for the Mare Nostrum purchase {list(purchase)}")


def _purchase_from_proto(message: pb.MareNostrumAction) -> list[int]:
    try:
        action = parse_action(action_from_proto(message))
    except MalformedActionError as exc:
        raise ValueError(f"MareNostrumView.purchase: {exc}") from None
    if action.kind == act.BUY:
        return [BUY_ITEM, action.a, -1, -1]
    if action.kind == act.GOD:
        return [GOD_ITEM, action.a, -1, -1]
    if action.kind == act.CONVERT and action.a >= 0:
        return [CONVERT_ITEM, action.a, -1, -1]
    if action.kind == act.BUILD:
        return [action.a, action.a, action.b, action.c]
    raise ValueError(f"MareNostrumView.purchase: {action.notation()!r} is not a purchase")


# --------------------------------------------------------------------- views
def view_to_proto(view: Mapping[str, Any]) -> pb.MareNostrumView:
    """``MareState.view(seat)`` -> message."""
    out = pb.MareNostrumView()
    fill_view(out, view)
    return out


def fill_view(out: pb.MareNostrumView, view: Mapping[str, Any]) -> None:
    """:func:`view_to_proto`, written into ``out``, an empty message."""
    unknown = set(view) - VIEW_KEYS
    data = view["state"]
    unknown |= {f"state.{key}" for key in set(data) - set(_STATE_KEYS)}
    if unknown:
        raise ValueError(f"no protobuf field for Mare Nostrum view keys {sorted(unknown)}")
    seats = data["seats"]
    viewer = view["viewer"]
    out.turn = data["turn"]
    out.phase = pb.MareNostrumPhase.ValueType(data["phase"] + 1)
    out.step = _STEPS[data["step"]]
    if view["current_seat"] is not None:
        out.current_seat = view["current_seat"]
    out.deciding_seats.extend(view["deciding_seats"])
    if data["actor"] != NOBODY:
        out.actor = data["actor"]
    for seat in range(seats):
        player = out.players.add(
            seat=seat,
            civilization=_civ(data["civ_of"][seat]),
            hand_size=view["hand_sizes"][seat],
            offer_size=view["offer_sizes"][seat],
            owned=[OWNABLE_IDS[card] for card in data["owned"][seat]],
            powers_used=data["powers_used"][seat],
            score=view["scores"][seat],
        )
        if seat == viewer:
            write_cards(player.hand, view["hand"])
            write_cards(player.offer, view["offer"])
        write_cards(player.face_up, data["face_up"][seat])
        write_cards(player.face_down, data["face_down"][seat])
        for item, count in enumerate(data["free_left"][seat]):
            if count:
                player.free_builds.add(item=pb.MareNostrumItem.ValueType(item + 1), count=count)
    for civ in range(CIVS):
        entry = out.civilizations.add(
            civilization=_civ(civ),
            capital=SPACE_IDS[data["capital"][civ]],
            hero=CIV_HEROES[civ].id,
            creature=CREATURES[civ].id,
            absent=not in_match(civ, seats),
        )
        if data["seat_of"][civ] != NOBODY:
            entry.seat = data["seat_of"][civ]
    legions, creatures, triremes = data["legions"], data["creatures"], data["triremes"]
    for p in range(PROVINCES):
        province = out.provinces.add(
            id=SPACE_IDS[p],
            influence=_civ(data["influence"][p]),
            influence_new=bool(data["new_influence"][p]),
            occupier=_civ(data["occupier"][p]),
            converter=_civ(data["converter"][p]),
            chosen_by=_civ(data["chosen_by"][p]),
            cities=data["cities"][p],
            caravans=[
                _card(icon) for i, icon in enumerate(ICONS[p]) if data["caravans"][p] >> i & 1
            ],
            temples=data["temples"][p],
            markets=data["markets"][p],
            fortresses=data["fortresses"][p],
            legions_moved=data["moved_legions"][p],
            creatures_moved=data["moved_creatures"][p],
            triremes_moved=data["moved_triremes"][p],
        )
        held = data["held"][p]
        province.held_cities = held[CITY]
        province.held_caravans.extend(
            _card(icon) for i, icon in enumerate(ICONS[p]) if held[CARAVAN] >> i & 1
        )
        province.held_temple = bool(held[TEMPLE])
        province.held_market = bool(held[MARKET])
        province.held_temples = held[TEMPLE]
        province.held_markets = held[MARKET]
        if data["caravans"][p] >> len(ICONS[p]):
            raise ValueError(f"caravans on icons {SPACE_IDS[p]} does not have")
        for civ in range(CIVS):
            if legions[civ][p] or creatures[civ][p] or triremes[civ][p]:
                province.forces.add(
                    civilization=_civ(civ),
                    legions=legions[civ][p],
                    creatures=creatures[civ][p],
                    triremes=triremes[civ][p],
                )
    for s in range(PROVINCES, SPACES):
        sea = out.seas.add(id=SPACE_IDS[s], triremes_moved=data["moved_triremes"][s])
        for civ in range(CIVS):
            if triremes[civ][s]:
                sea.forces.add(civilization=_civ(civ), triremes=triremes[civ][s])
    for role, seat in enumerate(data["roles"]):
        holder = out.roles.add(role=pb.MareNostrumRole.ValueType(role + 1))
        if seat != NOBODY:
            holder.seat = seat
    out.role_index = data["role_index"]
    out.ishtar_role = pb.MareNostrumRole.ValueType(
        _plus_one(data["ishtar_role"], len(ROLE_IDS), "role")
    )
    for god, holder in enumerate(data["god_holder"]):
        card = out.gods.add(id=GOD_IDS[god], used=bool(data["god_used"][god]))
        if holder != NOBODY:
            card.holder = holder
    stock = dict(zip(BUILDING_NAMES, data["stock"], strict=True))
    out.stock.SetInParent()
    out.stock.caravans, out.stock.markets = stock["caravan"], stock["market"]
    out.stock.cities, out.stock.temples = stock["city"], stock["temple"]
    write_cards(out.bank, data["bank"])
    out.available.extend(OWNABLE_IDS[card] for card in data["available"])
    trade = out.trade
    trade.SetInParent()
    trade.size = data["trade_size"]
    trade.traders.extend(data["traders"])
    if data["taker"] != NOBODY:
        trade.taker = data["taker"]
    last = data["last_trades"]
    if len(last) % 2:
        raise ValueError(f"last_trades holds (taker, victim) pairs, got {last}")
    for i in range(0, len(last), 2):
        trade.last_takes.add(taker=last[i], victim=last[i + 1])
    out.queue.extend(data["queue"])
    out.unordered.extend(data["unordered"])
    if data["purchase"]:
        _purchase_to_proto(out.purchase, data["purchase"])
    out.pay_left = data["pay_left"]
    out.paid.extend(_card(c) for c in range(CARD_TYPES) if data["pay_mask"] >> c & 1)
    out.setup_turns = data["setup_turns"]
    out.points_left = data["points_left"]
    for fought in data["fought"]:
        out.fought.add(space=SPACE_IDS[fought // CIVS], enemy=_civ(fought % CIVS))
    out.pending.extend(SPACE_IDS[p] for p in data["pending"])
    for civ, space, count in data["losses"]:
        out.losses.add(civilization=_civ(civ), space=SPACE_IDS[space], count=count)
    if data["after_space"] != NOBODY:
        out.after_battle = SPACE_IDS[data["after_space"]]
    blockade = data["blockade"]
    if blockade:
        legions, creatures, start, end, *chain = blockade
        out.blockade.SetInParent()
        out.blockade.legions, out.blockade.creatures = legions, creatures
        out.blockade.start, out.blockade.end = SPACE_IDS[start], SPACE_IDS[end]
        out.blockade.chain.extend(SPACE_IDS[s] for s in chain)
        out.blockade.attacked.extend(SPACE_IDS[s] for s in data["blockaded"])
    elif data["blockaded"]:
        raise ValueError("seas blockaded without a blockade")
    if data["crossing"]:
        legions, creatures, start, end, *chain = data["crossing"]
        out.crossing.SetInParent()
        out.crossing.legions, out.crossing.creatures = legions, creatures
        out.crossing.start, out.crossing.end = SPACE_IDS[start], SPACE_IDS[end]
        out.crossing.chain.extend(SPACE_IDS[s] for s in chain)
    if data["winner"] != NOBODY:
        out.winner = data["winner"]
    out.places.extend(view.get("ranking", ()))
    out.cursed.extend(SPACE_IDS[p] for p in data["cursed"])
    out.regrown.extend(_civ(civ) for civ in data["regrown"])
    if data["rolled"]:
        _rolled_to_proto(out.rolled, data)


def _rolled_to_proto(out: pb.MareNostrumBattle, data: JsonDict) -> None:
    """The battle Mars's holder decides on (``rolled``): where, who, and the dice."""
    (attack, *attack_dice), (defence, *defence_dice) = data["rolled"]
    mover = data["civ_of"][data["queue"][0]]
    if data["blockade"]:
        space, attacker, defender = data["blockaded"][-1], GREECE, mover
    else:
        space, defender = divmod(data["fought"][-1], CIVS)
        attacker = mover
    out.space = SPACE_IDS[space]
    out.attacker, out.defender = _civ(attacker), _civ(defender)
    out.attack, out.defence = attack, defence
    out.attack_dice.extend(attack_dice)
    out.defence_dice.extend(defence_dice)


def _table(rows: int, columns: int) -> list[list[int]]:
    return [[0] * columns for _ in range(rows)]


def _rolled_from_proto(view: pb.MareNostrumView) -> list[list[int]]:
    """``rolled``: per side, the total, then the faces (none outside Mars's step)."""
    if not view.HasField("rolled"):
        return []
    rolled = view.rolled
    return [[rolled.attack, *rolled.attack_dice], [rolled.defence, *rolled.defence_dice]]


def view_from_proto(
    view: pb.MareNostrumView,
    *,
    viewer: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> JsonDict:
    """A ``MareNostrumView`` -> the ``MareState.view(viewer)`` dict it was made from.

    Raises:
        ValueError: a field has no core meaning (see :meth:`GameCodec.view_from_proto`).
    """
    try:
        return _view_from_proto(view, viewer, options)
    except (IndexError, KeyError) as exc:
        raise ValueError(f"not a Mare Nostrum view: {exc}") from None


def _crossing_row(crossing: pb.MareNostrumBlockade) -> list[int]:
    """A crossing's saved row: legions, creatures, start, end, then the chain's seas
    (the state's ``blockade`` and ``crossing``)."""
    return [
        crossing.legions,
        crossing.creatures,
        _space_index(crossing.start),
        _space_index(crossing.end),
        *(_space_index(s) for s in crossing.chain),
    ]


def _view_from_proto(
    view: pb.MareNostrumView, viewer: int | None, options: Mapping[str, OptionValue] | None
) -> JsonDict:
    players = view.players
    seats = len(players)
    if [p.seat for p in players] != list(range(seats)):
        raise ValueError("view players must be listed by seat, from 0")
    if viewer is not None and not 0 <= viewer < seats:
        raise ValueError(f"viewer {viewer} is not a seat of a {seats}-player view")
    if options is None:
        try:
            normalized: JsonDict = MARENOSTRUM.normalize_options(seats, {})
        except GameError as exc:
            raise ValueError(f"a view of {seats} players: {exc}") from None
    else:
        normalized = dict(options)
    if [c.civilization for c in view.civilizations] != list(range(1, CIVS + 1)):
        raise ValueError("view civilizations must be listed in civilization order")
    if [p.id for p in view.provinces] != list(SPACE_IDS[:PROVINCES]):
        raise ValueError("view provinces must be every province, in map order")
    if [s.id for s in view.seas] != list(SPACE_IDS[PROVINCES:]):
        raise ValueError("view seas must be every sea, in map order")
    if [r.role for r in view.roles] != list(range(1, len(ROLE_IDS) + 1)):
        raise ValueError("view roles must be the four roles, in role order")
    if [g.id for g in view.gods] != list(GOD_IDS):
        raise ValueError("view gods must be the eight gods, in god order")
    if view.step not in _STEP_OF or not 1 <= view.phase <= len(PHASE_NAMES):
        raise ValueError("unknown Mare Nostrum step or phase")
    step = _STEP_OF[view.step]
    legions, creatures = _table(CIVS, PROVINCES), _table(CIVS, PROVINCES)
    triremes = _table(CIVS, SPACES)
    caravans: list[int] = []
    held: list[list[int]] = []
    for p, province in enumerate(view.provinces):
        mask = 0
        for card in province.caravans:
            mask |= 1 << ICONS[p].index(_card_index(card))
        caravans.append(mask)
        row = [0] * len(BUILDING_NAMES)
        for card in province.held_caravans:
            row[CARAVAN] |= 1 << ICONS[p].index(_card_index(card))
        row[CITY] = province.held_cities
        row[TEMPLE] = province.held_temples or int(province.held_temple)
        row[MARKET] = province.held_markets or int(province.held_market)
        held.append(row)
        for force in province.forces:
            civ = _civ_of(force.civilization)
            legions[civ][p] = force.legions
            creatures[civ][p] = force.creatures
            triremes[civ][p] = force.triremes
    for s, sea in enumerate(view.seas, start=PROVINCES):
        for force in sea.forces:
            if force.legions or force.creatures:
                raise ValueError("only triremes sail the seas")
            triremes[_civ_of(force.civilization)][s] = force.triremes
    hand: list[int] | None = None
    offer: list[int] | None = None
    for player in players:
        if player.seat == viewer:
            hand, offer = read_cards(player.hand), read_cards(player.offer)
        elif player.HasField("hand") or player.HasField("offer"):
            raise ValueError("only the viewer's own player carries a hand and an offer")
    free_left = _table(seats, len(ITEMS))
    for player in players:
        for entry in player.free_builds:
            free_left[player.seat][_minus_one(entry.item, len(ITEMS), "item")] = entry.count
    trade = view.trade
    last_trades = [seat for take in trade.last_takes for seat in (take.taker, take.victim)]
    stock = view.stock
    blockade: list[int] = []
    blockaded: list[int] = []
    if view.HasField("blockade"):
        b = view.blockade
        if b.unit:
            raise ValueError("a crossing counts its legions and creatures, it names no unit")
        blockade = _crossing_row(b)
        blockaded = [_space_index(s) for s in b.attacked]
    crossing: list[int] = []
    if view.HasField("crossing"):
        c = view.crossing
        if c.unit or c.attacked:
            raise ValueError("a crossing Poseidon may break names no unit and no attack")
        crossing = _crossing_row(c)
    state: dict[str, Any] = {
        "game": MARENOSTRUM.info.id,
        "seats": seats,
        "options": normalized,
        "turn": view.turn,
        "phase": view.phase - 1,
        "step": step,
        "actor": view.actor if view.HasField("actor") else NOBODY,
        "role_index": view.role_index,
        "ishtar_role": _minus_one(view.ishtar_role, len(ROLE_IDS), "role"),
        "trade_size": trade.size,
        "taker": trade.taker if trade.HasField("taker") else NOBODY,
        "pay_left": view.pay_left,
        "pay_mask": sum(1 << _card_index(card) for card in set(view.paid)),
        "setup_turns": view.setup_turns,
        "points_left": view.points_left,
        "after_space": _space_index(view.after_battle) if view.after_battle else NOBODY,
        "winner": view.winner if view.HasField("winner") else NOBODY,
        "civ_of": [_civ_of(p.civilization) for p in players],
        "seat_of": [c.seat if c.HasField("seat") else NOBODY for c in view.civilizations],
        "capital": [_space_index(c.capital) for c in view.civilizations],
        "roles": [r.seat if r.HasField("seat") else NOBODY for r in view.roles],
        "influence": [_civ_or_nobody(p.influence) for p in view.provinces],
        "fortresses": [p.fortresses for p in view.provinces],
        "cities": [p.cities for p in view.provinces],
        "caravans": caravans,
        "temples": [p.temples for p in view.provinces],
        "markets": [p.markets for p in view.provinces],
        "stock": [stock.caravans, stock.markets, stock.cities, stock.temples],
        "occupier": [_civ_or_nobody(p.occupier) for p in view.provinces],
        "converter": [_civ_or_nobody(p.converter) for p in view.provinces],
        "chosen_by": [_civ_or_nobody(p.chosen_by) for p in view.provinces],
        "new_influence": [int(p.influence_new) for p in view.provinces],
        "bank": read_cards(view.bank),
        "traders": list(trade.traders),
        "last_trades": last_trades,
        "available": [_OWNABLE_INDEX[card] for card in view.available],
        "god_holder": [g.holder if g.HasField("holder") else NOBODY for g in view.gods],
        "god_used": [int(g.used) for g in view.gods],
        "queue": list(view.queue),
        "unordered": list(view.unordered),
        "purchase": _purchase_from_proto(view.purchase) if view.HasField("purchase") else [],
        "moved_legions": [p.legions_moved for p in view.provinces],
        "moved_creatures": [p.creatures_moved for p in view.provinces],
        "moved_triremes": [
            *(p.triremes_moved for p in view.provinces),
            *(s.triremes_moved for s in view.seas),
        ],
        "fought": [_space_index(f.space) * CIVS + _civ_of(f.enemy) for f in view.fought],
        "pending": [_space_index(p) for p in view.pending],
        "blockade": blockade,
        "blockaded": blockaded,
        "crossing": crossing,
        "cursed": [_province_index(p) for p in view.cursed],
        "regrown": [_civ_of(civ) for civ in view.regrown],
        "powers_used": [p.powers_used for p in players],
        "legions": legions,
        "creatures": creatures,
        "triremes": triremes,
        "face_up": [read_cards(p.face_up) for p in players],
        "face_down": [read_cards(p.face_down) for p in players],
        "owned": [[_OWNABLE_INDEX[card] for card in p.owned] for p in players],
        "free_left": free_left,
        "losses": [
            [_civ_of(loss.civilization), _space_index(loss.space), loss.count]
            for loss in view.losses
        ],
        "held": held,
        "rolled": _rolled_from_proto(view),
    }
    out: JsonDict = {
        "game": MARENOSTRUM.info.id,
        "viewer": viewer,
        "current_seat": view.current_seat if view.HasField("current_seat") else None,
        "deciding_seats": list(view.deciding_seats),
        "phase_name": PHASE_NAMES[view.phase - 1],
        "civilizations": [CIV_IDS[c] for c in state["civ_of"]],
        "role_holders": {ROLE_IDS[r]: seat for r, seat in enumerate(state["roles"])},
        "hand_sizes": [p.hand_size for p in players],
        "offer_sizes": [p.offer_size for p in players],
        "hand": hand,
        "offer": offer,
        "scores": [p.score for p in players],
        "state": {key: state[key] for key in _STATE_KEYS},
    }
    if step == OVER:
        out["ranking"] = list(view.places)
    return out


# -------------------------------------------------------------------- events
class _Detail(NamedTuple):
    """How one key of an event's data travels: written into the message, read back."""

    write: Callable[[pb.MareNostrumEvent, Any], None]
    read: Callable[[pb.MareNostrumEvent], Any]


def _scalar(field: str) -> _Detail:
    return _Detail(lambda m, v: setattr(m, field, v), lambda m: getattr(m, field))


def _seat_detail(field: Literal["seat", "other_seat", "winner"]) -> _Detail:
    def write(m: pb.MareNostrumEvent, value: int) -> None:
        if value != NOBODY:
            setattr(m, field, value)

    return _Detail(write, lambda m: getattr(m, field) if m.HasField(field) else NOBODY)


def _space_detail(field: str) -> _Detail:
    def write(m: pb.MareNostrumEvent, value: str) -> None:
        _space_index(value)
        setattr(m, field, value)

    return _Detail(write, lambda m: getattr(m, field))


def _battle(field: str, extra: Callable[[pb.MareNostrumBattle], None] | None = None) -> _Detail:
    """A key of a battle event, written into ``MareNostrumEvent.battle.<field>``."""

    def write(m: pb.MareNostrumEvent, value: Any) -> None:
        if field in ("attacker", "defender"):
            value = _civ(_CIV_INDEX[value])
        elif field == "space":
            _space_index(value)
        setattr(m.battle, field, value)
        if extra is not None:
            extra(m.battle)

    def read(m: pb.MareNostrumEvent) -> Any:
        value = getattr(m.battle, field)
        return CIV_IDS[_civ_of(value)] if field in ("attacker", "defender") else value

    return _Detail(write, read)


def _write_offers(m: pb.MareNostrumEvent, offers: Mapping[str, Mapping[str, int]]) -> None:
    for seat, cards in offers.items():
        _write_named_cards(m.offers.add(seat=int(seat)).cards, cards)


def _write_roles(m: pb.MareNostrumEvent, roles: Sequence[int]) -> None:
    for role, seat in enumerate(roles):
        holder = m.roles.add(role=pb.MareNostrumRole.ValueType(role + 1))
        if seat != NOBODY:
            holder.seat = seat


def _set_greece(battle: pb.MareNostrumBattle) -> None:
    battle.attacker = _civ(GREECE)


def _write_commodity(m: pb.MareNostrumEvent, name: str | None) -> None:
    if name is not None:
        m.commodity = _card(_CARD_INDEX[name])


def _civ_detail(field: Literal["civilization", "other_civilization"]) -> _Detail:
    """A civilization id of an event's data, as a ``MareNostrumCivilization`` field."""
    return _Detail(
        lambda m, v: setattr(m, field, _civ(_CIV_INDEX[v])),
        lambda m: CIV_IDS[_civ_of(getattr(m, field))],
    )


_SEAT = _seat_detail("seat")
_OTHER_SEAT = _seat_detail("other_seat")
_SPACE = _space_detail("space")
_CARD = _Detail(
    lambda m, v: setattr(m, "card", _card(_CARD_INDEX[v])),
    lambda m: CARD_NAMES[_card_index(m.card)],
)
_CARD_ID = _scalar("card_id")
_GOD = _Detail(lambda m, v: setattr(m, "god", GOD_IDS[_GOD_INDEX[v]]), lambda m: m.god)
_COUNT = _scalar("count")
_CIV = _civ_detail("civilization")
_LEGIONS = _scalar("legions")
_START, _END = _space_detail("start"), _space_detail("end")
_BATTLE_SITE = {"attacker": _battle("attacker"), "defender": _battle("defender")}


def _battle_dice(field: str) -> _Detail:
    """A side's faces rolled, in ``MareNostrumEvent.battle.<field>`` (repeated)."""

    def write(m: pb.MareNostrumEvent, value: Any) -> None:
        getattr(m.battle, field).extend(value)

    return _Detail(write, lambda m: list(getattr(m.battle, field)))


_BATTLE_RESULT = {
    "attack": _battle("attack"),
    "defence": _battle("defence"),
    "attacker_losses": _battle("attacker_losses"),
    "defender_losses": _battle("defender_losses"),
    "attack_dice": _battle_dice("attack_dice"),
    "defence_dice": _battle_dice("defence_dice"),
}

#: Per event kind, how each key of its data travels. A kind or key missing here has
#: no protobuf form: encoding it fails loudly.
EVENT_DETAILS: dict[str, dict[str, _Detail]] = {
    "roles_assigned": {
        "roles": _Detail(
            _write_roles, lambda m: [r.seat if r.HasField("seat") else NOBODY for r in m.roles]
        )
    },
    "turn_started": {"turn": _scalar("turn")},
    "role_changed": {
        "role": _Detail(
            lambda m, v: setattr(m, "role", _ROLE_INDEX[v] + 1),
            lambda m: ROLE_IDS[_minus_one(m.role, len(ROLE_IDS), "role")],
        ),
        "seat": _SEAT,
    },
    "revenue": {"seat": _SEAT, "cards": _COUNT},
    "revenue_cards": {
        "seat": _SEAT,
        "cards": _Detail(
            lambda m, v: _write_named_cards(m.cards, v), lambda m: _read_named_cards(m.cards)
        ),
    },
    "trade_size": {"seat": _SEAT, "size": _COUNT},
    "card_offered": {"seat": _SEAT, "offered": _COUNT},
    "card_offered_private": {"seat": _SEAT, "card": _CARD},
    "offers_revealed": {
        "offers": _Detail(
            _write_offers,
            lambda m: {str(o.seat): _read_named_cards(o.cards) for o in m.offers},
        )
    },
    "card_taken": {"seat": _SEAT, "victim": _OTHER_SEAT, "card": _CARD},
    "compensated": {"seat": _SEAT, "to": _OTHER_SEAT},
    "trade_over": {},
    "order": {
        "phase": _Detail(
            lambda m, v: setattr(m, "phase", _PHASE_INDEX[v] + 1),
            lambda m: PHASE_NAMES[_minus_one(m.phase, len(PHASE_NAMES), "phase")],
        ),
        "seats": _Detail(lambda m, v: m.seats.extend(v), lambda m: list(m.seats)),
    },
    "offering": {"seat": _SEAT, "god": _GOD},
    "bought": {"seat": _SEAT, "card": _CARD_ID},
    "converted": {"seat": _SEAT, "province": _SPACE, "previous": _CIV},
    "built": {
        "seat": _SEAT,
        "item": _Detail(
            lambda m, v: setattr(m, "item", _ITEM_INDEX[v] + 1),
            lambda m: ITEMS[_minus_one(m.item, len(ITEMS), "item")],
        ),
        "province": _SPACE,
        "commodity": _Detail(
            _write_commodity,
            lambda m: CARD_NAMES[_card_index(m.commodity)] if m.commodity else None,
        ),
    },
    "game_over": {
        "winner": _seat_detail("winner"),
        "reason": _scalar("reason"),
        "ranking": _Detail(lambda m, v: m.places.extend(v), lambda m: list(m.places)),
    },
    "battle": {"province": _battle("space"), **_BATTLE_SITE, **_BATTLE_RESULT},
    "naval_battle": {"sea": _battle("space"), **_BATTLE_SITE, **_BATTLE_RESULT},
    "blockade_battle": {
        "sea": _battle("space", _set_greece),
        "greek": _battle("attack"),
        "invader": _battle("defence"),
        "greek_losses": _battle("attacker_losses"),
        "invader_losses": _battle("defender_losses"),
        "greek_dice": _battle_dice("attack_dice"),
        "invader_dice": _battle_dice("defence_dice"),
    },
    "sacked": {"seat": _SEAT, "province": _SPACE},
    "occupied": {"seat": _SEAT, "province": _SPACE},
    "converting": {"seat": _SEAT, "province": _SPACE},
    "conversion_lapsed": {"seat": _SEAT, "province": _SPACE},
    "moved": {
        "seat": _SEAT,
        "unit": _Detail(
            lambda m, v: setattr(m, "unit", _UNIT_INDEX[v] + 1),
            lambda m: UNIT_KINDS[_minus_one(m.unit, len(UNIT_KINDS), "unit")],
        ),
        "start": _START,
        "end": _END,
    },
    "card_power": {"seat": _SEAT, "card": _CARD_ID},
    "blockade_declared": {
        "seat": _SEAT,
        "start": _START,
        "end": _END,
        "chain": _Detail(
            lambda m, v: m.chain.extend(SPACE_IDS[_space_index(s)] for s in v),
            lambda m: list(m.chain),
        ),
        "legions": _LEGIONS,
        "creatures": _scalar("creatures"),
    },
    "blockade_held": {"province": _SPACE},
    "crossing_broken": {
        "seat": _SEAT,
        "sea": _SPACE,
        "start": _START,
        "end": _END,
        "legions": _LEGIONS,
        "creatures": _scalar("creatures"),
    },
    "capital_founded": {"seat": _SEAT, "province": _SPACE},
    "sailed": {"seat": _SEAT, "start": _START, "end": _END},
    "god_invoked": {"seat": _SEAT, "god": _GOD},
    "card_drawn": {"seat": _SEAT},
    "card_drawn_private": {"seat": _SEAT, "card": _CARD},
    "first_strike": {
        "province": _SPACE,
        "civ": _CIV,
        "victim": _civ_detail("other_civilization"),
        "legions": _LEGIONS,
    },
    "regrow": {"province": _SPACE, "civ": _CIV, "roll": _scalar("roll"), "ok": _scalar("survived")},
    "petrified": {"seat": _SEAT, "province": _SPACE, "civ": _CIV},
}


def event_to_proto(event: Event) -> pb.MareNostrumEvent:
    """One core event -> message (ValueError for a kind or detail it cannot carry)."""
    out = pb.MareNostrumEvent()
    fill_event(out, event)
    return out


def fill_event(out: pb.MareNostrumEvent, event: Event) -> None:
    """:func:`event_to_proto`, written into ``out``, an empty message."""
    kind = _EVENT_KINDS.get(event.kind)
    if kind is None:
        raise ValueError(f"no protobuf form for Mare Nostrum event {event.kind!r}")
    details = EVENT_DETAILS[event.kind]
    out.kind = kind
    for key, value in event.data.items():
        detail = details.get(key)
        if detail is None:
            raise ValueError(f"no protobuf field for Mare Nostrum event {event.kind}.{key}")
        try:
            detail.write(out, value)
        except KeyError:
            raise ValueError(
                f"no protobuf form for Mare Nostrum {event.kind}.{key} {value!r}"
            ) from None


def event_from_proto(message: pb.MareNostrumEvent) -> Event:
    """A ``MareNostrumEvent`` -> the core event it was made from (without its audience).

    Raises:
        ValueError: the kind or a field has no core meaning.
    """
    kind = _EVENT_KIND_OF.get(message.kind)
    if kind is None:
        raise ValueError(f"{message.kind} is not a Mare Nostrum event kind")
    try:
        data = {key: detail.read(message) for key, detail in EVENT_DETAILS[kind].items()}
    except (IndexError, KeyError) as exc:
        raise ValueError(f"a Mare Nostrum {kind} event that does not decode: {exc}") from None
    return Event(kind, data)


# ------------------------------------------------------------------- codec
#: Published as the ``marenostrum`` entry point of ``senet.codecs``.
MARENOSTRUM_CODEC = OneofCodec(
    "marenostrum",
    "a Mare Nostrum",
    MareAction,
    action_from_proto,
    action_to_proto,
    view_to_proto,
    view_from_proto,
    event_to_proto,
    fill_action=fill_action,
    fill_view=fill_view,
    fill_event=fill_event,
)
