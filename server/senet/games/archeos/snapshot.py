"""Archeos Society snapshots: the state's fields, declared once, and rebuilding a state.

:data:`FIELDS` names every attribute of :class:`ArcheosState`; clone, to_data and
snapshot_data are built from it (see :mod:`senet.games.fields`). ``from_data``
checks every saved field and that the cards add up; ``from_view`` deals what a
view hides to build a full state for search.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from senet.games import validate as v
from senet.games.archeos.actions import BASIS_NAMES, TARGETS, site_of_target
from senet.games.archeos.cards import (
    CARD_TYPES,
    COLOUR_NAMES,
    COLOURS,
    HAND_LIMIT,
    MONKEY,
    MONKEYS,
    ROLE_NAMES,
    ROLES,
    ROLES_PER_GAME,
    Role,
    deck_for,
    parse_card,
    role_of,
)
from senet.games.archeos.constants import (
    BUILD,
    CHICHEN,
    CHOOSE_ADVANCE,
    EXTRA,
    KEEP,
    LINGUIST,
    NO_SEAT,
    OVER,
    PATRON,
    PROFESSOR,
    PROFESSOR_MOVE,
    STEPS,
    seasons_for,
)
from senet.games.archeos.sites import LINGUIST_END, PROFESSOR_TOKENS, SITE_IDS
from senet.games.errors import CorruptStateError
from senet.games.fields import (
    DEEP,
    LIST,
    RNG,
    SCALAR,
    SHARED,
    TABLE,
    TABLES,
    StateFields,
    snapshot_header,
)
from senet.games.interface import Game, JsonDict
from senet.games.rng import Rng

if TYPE_CHECKING:
    from senet.games.archeos.state import ArcheosState

#: Every attribute of an Archeos Society state. Snapshot keys follow this order.
FIELDS: StateFields[ArcheosState] = StateFields(
    "archeos",
    saved=(
        *RNG("rng"),
        # per seat, the expeditions played (each a list of cards, leader first)
        *TABLES("expeditions"),
        *DEEP("final"),
        *LIST(
            "roles",
            "deck",
            "display",
            "score",
            "linguist",
            "supply",
            "frame",
            "exp_cards",
            "kept",
            "ur_queue",
        ),
        *TABLE("hands", "known", "positions", "relics", "tokens", "prof_queue"),
        *SCALAR(
            "advanced",
            "season",
            "monkey_free_top",
            "monkeys",
            "first_seat",
            "turn",
            "step",
            "last_monkey",
            "exp_basis",
            "exp_limit",
            "exp_advanced",
            "in_ur",
            "linguist_left",
            "keep_limit",
            "chichen_draws",
        ),
    ),
    derived=(
        # the events list of the action being applied; None between actions
        *SHARED("_events"),
    ),
)


def state_from_data(cls: type[ArcheosState], game: Game, data: Mapping[str, Any]) -> ArcheosState:
    """Rebuild a state from :meth:`to_data` output, checking every field.

    Raises:
        CorruptStateError: a field is missing, mistyped, out of range or
            inconsistent with the others.
    """
    f = partial(v.field, data)
    seats, options, rng = snapshot_header(game, data)
    s = cls(game, seats, options)
    s.rng = rng
    s.roles = v.int_list(f("roles"), "roles", 0, ROLES - 1, ROLES_PER_GAME, unique=True)
    if s.roles != sorted(s.roles):
        raise CorruptStateError("roles must be sorted")
    s.advanced = v.integer(f("advanced"), "advanced", 0, COLOURS - 1)
    s.season = v.integer(f("season"), "season", 1, seasons_for(seats))
    s.deck = v.int_list(f("deck"), "deck", 0, MONKEY)
    s.display = _sorted_cards(f("display"), "display")
    s.hands = [
        _sorted_cards(h, f"hands[{i}]") for i, h in enumerate(_rows(f("hands"), "hands", seats))
    ]
    s.known = [
        _sorted_cards(k, f"known[{i}]") for i, k in enumerate(_rows(f("known"), "known", seats))
    ]
    s.expeditions = [
        [v.int_list(e, f"expeditions[{i}]", 0, CARD_TYPES - 1) for e in _list(row, "expeditions")]
        for i, row in enumerate(_rows(f("expeditions"), "expeditions", seats))
    ]
    s.score = v.int_list(f("score"), "score", 0, 10_000, seats)
    s.positions = v.int_table(f("positions"), "positions", seats, TARGETS, 0, 20)
    s.linguist = v.int_list(f("linguist"), "linguist", 0, LINGUIST_END, seats)
    s.relics = [
        v.bool_list(r, f"relics[{i}]", COLOURS)
        for i, r in enumerate(_rows(f("relics"), "relics", seats))
    ]
    s.tokens = [
        v.int_list(t, f"tokens[{i}]", 1, max(PROFESSOR_TOKENS), unique=True)
        for i, t in enumerate(_rows(f("tokens"), "tokens", seats))
    ]
    s.supply = v.int_list(f("supply"), "supply", 1, max(PROFESSOR_TOKENS), unique=True)
    s.frame = v.int_list(f("frame"), "frame", -1, 10_000, 3)
    s.monkey_free_top = v.integer(f("monkey_free_top"), "monkey_free_top", 0, len(s.deck))
    s.monkeys = v.integer(f("monkeys"), "monkeys", 0, MONKEYS)
    s.first_seat = v.integer(f("first_seat"), "first_seat", 0, seats - 1)
    s.turn = v.integer(f("turn"), "turn", 0, seats - 1)
    s.step = v.choice(f("step"), "step", STEPS)
    s.last_monkey = v.integer(f("last_monkey"), "last_monkey", NO_SEAT, seats - 1)
    s.exp_cards = v.int_list(f("exp_cards"), "exp_cards", 0, CARD_TYPES - 1)
    s.exp_basis = v.integer(f("exp_basis"), "exp_basis", 0, 1)
    s.exp_limit = v.integer(f("exp_limit"), "exp_limit", 1, HAND_LIMIT)
    s.exp_advanced = v.boolean(f("exp_advanced"), "exp_advanced")
    s.in_ur = v.boolean(f("in_ur"), "in_ur")
    s.linguist_left = v.integer(f("linguist_left"), "linguist_left", 0, 10)
    s.kept = v.int_list(f("kept"), "kept", 0, CARD_TYPES - 1)
    s.keep_limit = v.integer(f("keep_limit"), "keep_limit", 0, HAND_LIMIT)
    s.chichen_draws = v.integer(f("chichen_draws"), "chichen_draws", 0, 100)
    s.ur_queue = v.int_list(f("ur_queue"), "ur_queue", 0, seats - 1, unique=True)
    s.prof_queue = [
        v.int_list(p, "prof_queue entry", -1, seats - 1, 2)
        for p in _list(f("prof_queue"), "prof_queue")
    ]
    if any(p[1] not in (-1, 1) or p[0] < 0 for p in s.prof_queue):
        raise CorruptStateError("prof_queue entries are [seat, +1 or -1]")
    final = f("final")
    if final is not None and (
        s.step != OVER
        or not isinstance(final, list)
        or len(final) != seats
        or not all(isinstance(e, dict) and type(e.get("total")) is int for e in final)
    ):
        raise CorruptStateError("final scores must be a list of breakdowns, once over")
    if s.step == OVER and final is None:
        raise CorruptStateError("a finished match must carry its final scores")
    s.final = copy.deepcopy(final)
    _check_consistency(s)
    return s


def _check_consistency(state: ArcheosState) -> None:
    """Cards add up, positions fit their tracks, the step's context is present."""
    ends = [state.track(site_of_target(target)).last for target in range(TARGETS)]
    for row in state.positions:
        if any(position > end for position, end in zip(row, ends, strict=True)):
            raise CorruptStateError("a vehicle stands beyond the end of its track")
    if sorted(state.supply + [t for row in state.tokens for t in row]) != list(PROFESSOR_TOKENS):
        raise CorruptStateError("professor tokens do not add up")
    cards = [c for c in state.deck if c != MONKEY] + state.display
    if state.step == BUILD:
        cards += state.exp_cards
    for seat in range(state.seat_count):
        cards += state.hands[seat]
        for expedition in state.expeditions[seat]:
            cards += expedition
    if sorted(cards) != deck_for(state.roles):
        raise CorruptStateError("the cards do not add up to the deck of the chosen roles")
    if state.deck.count(MONKEY) != MONKEYS - state.monkeys:
        raise CorruptStateError("the monkeys in the deck do not match the monkeys drawn")
    if MONKEY in state.deck[len(state.deck) - state.monkey_free_top :]:
        raise CorruptStateError("a monkey lies in the part of the deck known to hold none")
    if state.step in _WITH_EXPEDITION and not state.exp_cards:
        raise CorruptStateError(f"step {state.step} needs an expedition")
    if any(not e or role_of(e[0]) == Role.MERCENARY for row in state.expeditions for e in row):
        raise CorruptStateError("every expedition has a leader, never a Mercenary")
    if state.exp_cards and role_of(state.exp_cards[0]) == Role.MERCENARY:
        raise CorruptStateError("a Mercenary cannot lead")
    if state.step == PROFESSOR_MOVE and not state.prof_queue:
        raise CorruptStateError("professor_move needs a queued move")
    if state.frame[0] >= state.seat_count:
        raise CorruptStateError("the botanist frame names no seat")
    for seat in range(state.seat_count):
        hand = list(state.hands[seat])
        for card in state.known[seat]:
            if card not in hand:
                raise CorruptStateError("a known card must be in its hand")
            hand.remove(card)
    remaining = list(state.hands[state.turn])
    for card in state.kept:
        if card not in remaining:
            raise CorruptStateError("kept cards must be in the hand")
        remaining.remove(card)
    if state.step != OVER and not state.legal_actions():
        raise CorruptStateError("no legal action in a running match")


def state_from_view(
    cls: type[ArcheosState], game: Game, view: Mapping[str, Any], seed: int
) -> ArcheosState:
    """A state whose view equals ``view``; what it hides is sampled from ``seed``.

    Raises:
        CorruptStateError: the view is not one this class produced.
    """
    try:
        return _from_view(cls, game, view, seed)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        if isinstance(exc, CorruptStateError):
            raise
        raise CorruptStateError(f"not an Archeos Society view: {exc}") from exc


def _from_view(
    cls: type[ArcheosState], game: Game, view: Mapping[str, Any], seed: int
) -> ArcheosState:
    seats = int(view["seats"])
    viewer = view["viewer"]
    players = view["players"]
    if not isinstance(players, list) or len(players) != seats:
        raise ValueError("players must list every seat")
    roles = sorted(ROLE_NAMES.index(r) for r in view["roles"])
    frame = view["botanist_frame"]
    expedition = view["expedition"]
    pending = view["pending"]
    last_monkey = view["last_monkey_seat"]
    current = view["current_seat"]
    data: JsonDict = {
        "game": "archeos",
        "seats": seats,
        "options": dict(view["options"]),
        "roles": roles,
        "advanced": SITE_IDS.index(view["advanced_site"]),
        "season": view["season"],
        "display": sorted(parse_card(c) for c in view["display"]),
        "expeditions": [[[parse_card(c) for c in e] for e in p["expeditions"]] for p in players],
        "score": [p["score"] for p in players],
        "positions": [list(p["sites"]) for p in players],
        "linguist": [p["linguist"] for p in players],
        "relics": [[name in p["relics"] for name in COLOUR_NAMES] for p in players],
        "tokens": [list(p["professor_tokens"]) for p in players],
        "supply": list(view["professor_supply"]),
        "frame": [NO_SEAT, -1, 0]
        if frame is None
        else [frame["seat"], frame["expedition"], frame["size"]],
        "monkey_free_top": view["deck_monkey_free_top"],
        "monkeys": view["monkeys_drawn"],
        "first_seat": view["first_seat"],
        "turn": current if current is not None else 0,
        "step": view["step"],
        "last_monkey": NO_SEAT if last_monkey is None else last_monkey,
        "exp_cards": [parse_card(c) for c in expedition["cards"]],
        "exp_basis": BASIS_NAMES.index(expedition["basis"]),
        "exp_limit": expedition["limit"],
        "exp_advanced": expedition["advanced"],
        "in_ur": pending["in_ur"],
        "linguist_left": pending["linguist_advances"],
        "keep_limit": pending["keep_limit"],
        "chichen_draws": pending["chichen_draws"],
        "ur_queue": list(pending["ur_queue"]),
        "prof_queue": [list(p) for p in pending["professor_moves"]],
        "kept": [],
        "final": copy.deepcopy(view.get("final")),
    }
    if current is None and view["step"] != OVER:
        raise ValueError("a running match has a seat to move")
    # What the viewer sees of the cards; the rest is sampled.
    seen = list(data["display"]) + [c for row in data["expeditions"] for e in row for c in e]
    if view["step"] == BUILD:
        seen += data["exp_cards"]
    hands: list[list[int]] = [[] for _ in range(seats)]
    if viewer is not None:
        own = players[viewer]
        hands[viewer] = sorted(parse_card(c) for c in own["hand"])
        data["kept"] = [parse_card(c) for c in own["kept"]]
        seen += hands[viewer]
    known = [sorted(parse_card(c) for c in p["known_hand"]) for p in players]
    data["known"] = known
    for s, cards in enumerate(known):
        if s != viewer:
            seen += cards
    pool = deck_for(roles)
    for card in seen:
        pool.remove(card)
    sampler = Rng(seed)
    sampler.shuffle(pool)
    for s in range(seats):
        if s != viewer:
            size = players[s]["hand_size"]
            if type(size) is not int or not len(known[s]) <= size <= len(pool) + len(known[s]):
                raise ValueError("hand sizes do not fit the unseen cards")
            size -= len(known[s])
            hands[s] = sorted(known[s] + pool[:size])
            del pool[:size]
    data["hands"] = hands
    deck_size = view["deck_size"]
    monkeys_left = MONKEYS - data["monkeys"]
    if type(deck_size) is not int or deck_size != len(pool) + monkeys_left:
        raise ValueError(
            f"the deck should hold {len(pool) + monkeys_left} cards, not {deck_size!r}"
        )
    data["deck"] = deal_deck(pool, deck_size, data["monkey_free_top"], sampler)
    data["rng"] = sampler.next_u64()
    return state_from_data(cls, game, data)


#: Steps that act on the expedition in ``exp_cards``.
#: (Uluru is not among them: a season-end Professor advance may ask it too.)
_WITH_EXPEDITION = (BUILD, CHOOSE_ADVANCE, LINGUIST, PROFESSOR, EXTRA, KEEP, PATRON, CHICHEN)


def deal_deck(cards: list[int], size: int, monkey_free_top: int, rng: Rng) -> list[int]:
    """A deck (top card last) of ``cards`` plus monkeys up to ``size`` cards.

    The top ``monkey_free_top`` cards hold no monkey; the monkeys are spread at
    random among the rest.
    """
    order = list(cards)
    rng.shuffle(order)
    monkeys = size - len(order)
    top, bottom = order[:monkey_free_top], order[monkey_free_top:] + [MONKEY] * monkeys
    rng.shuffle(bottom)
    return list(reversed(top + bottom))


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise CorruptStateError(f"{name} must be a list")
    return value


def _rows(value: Any, name: str, seats: int) -> list[Any]:
    rows = _list(value, name)
    if len(rows) != seats:
        raise CorruptStateError(f"{name} must have one entry per seat")
    return rows


def _sorted_cards(value: Any, name: str) -> list[int]:
    cards = v.int_list(value, name, 0, CARD_TYPES - 1)
    if cards != sorted(cards):
        raise CorruptStateError(f"{name} must be sorted")
    return cards
