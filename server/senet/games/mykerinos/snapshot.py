"""Mykerinos snapshots: the state's fields, declared once, and rebuilding a state.

:data:`FIELDS` names every attribute of :class:`MykerinosState`; clone, to_data and
snapshot_data are built from it (see :mod:`senet.games.fields`). ``from_data``
checks every saved field against the rules, and ``from_view`` samples what a view
hides to build a full state for search.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from senet.games import validate as v
from senet.games.errors import CorruptStateError
from senet.games.fields import (
    DEEP,
    LIST,
    PAIRS,
    RNG,
    SCALAR,
    SHARED,
    TABLE,
    StateFields,
    snapshot_header,
)
from senet.games.interface import Game, JsonDict
from senet.games.mykerinos import actions as act
from senet.games.mykerinos import nile
from senet.games.mykerinos.constants import (
    ARCHAEOLOGISTS_PER_COLOUR,
    AWAIT_DISCARD,
    AWAIT_REWARD,
    AWAIT_TIE,
    BLOCKING_TOKENS,
    COLOUR_NAMES,
    COLOURS,
    DELIMITATION,
    DRAFT,
    EMPTY,
    OVER,
    PHASES,
)
from senet.games.mykerinos.museum import ROOM_IDS, WINGS, parse_room
from senet.games.mykerinos.patrons import ALL_PATRONS, CODE_TO_PATRON, PATRON_CODES, Patron
from senet.games.mykerinos.plots import PLOT_CARDS
from senet.games.mykerinos.region import parse_space, region_shape
from senet.games.rng import Rng

if TYPE_CHECKING:
    from senet.games.mykerinos.state import MykerinosState

#: Every attribute of a Mykerinos state. Snapshot keys follow this order.
FIELDS: StateFields[MykerinosState] = StateFields(
    "mykerinos",
    saved=(
        *RNG("rng"),
        # (card, rotated) pairs of the plots laid this campaign
        *PAIRS("slots"),
        *DEEP("final"),
        *LIST(
            "draft_row",
            "nile_governor_deck",
            "nile_neutral_deck",
            "nile_rows",
            "nile_rotated",
            "nile_box",
            "tokens",
            "blocked",
            "blocked_rooms",
            "wing_order",
            "deck",
            "box",
            "general",
            "prestige",
            "museum",
            "tiebreak",
            "active",
            "board",
            "ranks",
            "plots_left",
        ),
        *TABLE("personal", "used", "won", "nile_won"),
        *SCALAR(
            "campaign",
            "start_seat",
            "turn",
            "phase",
            "final_seat",
            "area",
            "rank_index",
            "awaiting",
            "on_river",
            "area_museum",
            "tie_asked",
            "draft_index",
        ),
    ),
    derived=(
        # patron cards held, counted from won and nile_won; changed in place
        *TABLE("cards"),
        # read from the options
        *SCALAR("quick", "team", "classic", "with_nile", "neutral"),
        *SHARED(
            "names",
            # laid by lay_terrain from slots, nile_rows and nile_rotated, replaced as a whole
            "shape",
            "pyramid",
            "river",
            # indexed from wing_order by index_museum
            "_museum_rooms",
            "_five_entries",
            # the events list of the action being applied; None between actions
            "_events",
        ),
    ),
    # Nile cards were laid unrotated before ruling N-2 rotated them like plots.
    filled_when_missing=("nile_rotated",),
)


def state_from_data(
    cls: type[MykerinosState], game: Game, data: Mapping[str, Any]
) -> MykerinosState:
    """Rebuild a state from :meth:`to_data` output, checking every field.

    Raises:
        CorruptStateError: a field is missing, mistyped, out of range or
            inconsistent with the others.
    """
    f = partial(v.field, data)
    seats, options, rng = snapshot_header(game, data)
    state = cls(game, seats, options)
    state.rng = rng
    cards = len(PLOT_CARDS)
    raw_slots = f("slots")
    # The quick game's draft comes before campaign 1: no plots laid yet.
    drafting = f("phase") == DRAFT
    if not isinstance(raw_slots, list) or len(raw_slots) not in (
        (0,) if drafting else state.campaign_plot_counts()
    ):
        raise CorruptStateError("slots must list the plots of one campaign")
    state.slots = []
    for i, slot in enumerate(raw_slots):
        if not isinstance(slot, list) or len(slot) != 2:
            raise CorruptStateError(f"slots[{i}] must be [card, rotated]")
        state.slots.append(
            (v.integer(slot[0], "slot card", 0, cards - 1), v.boolean(slot[1], "rotated"))
        )
    state.shape = region_shape(len(state.slots) // 4)
    state.wing_order = v.int_list(f("wing_order"), "wing_order", 0, WINGS - 1, WINGS, True)
    state.deck = v.int_list(f("deck"), "deck", 0, cards - 1, unique=True)
    state.box = v.int_list(f("box"), "box", 0, cards - 1, unique=True)
    total = ARCHAEOLOGISTS_PER_COLOUR
    state.general = v.int_list(f("general"), "general", 0, total, COLOURS)
    state.personal = v.int_table(f("personal"), "personal", seats, COLOURS, 0, total)
    state.won = _won_from(f("won"), seats)
    state.used = v.int_table(f("used"), "used", seats, len(ALL_PATRONS), 0, cards)
    state.prestige = v.int_list(f("prestige"), "prestige", 0, 10 * cards, seats)
    state.museum = v.int_list(f("museum"), "museum", EMPTY, COLOURS - 1, ROOM_IDS)
    state.tiebreak = v.int_list(f("tiebreak"), "tiebreak", 0, COLOURS + 1, COLOURS)
    state.active = v.bool_list(f("active"), "active", seats)
    state.board = v.int_list(f("board"), "board", EMPTY, COLOURS - 1, state.shape.size)
    state.ranks = v.int_list(f("ranks"), "ranks", 0, COLOURS - 1, unique=True)
    state.plots_left = v.int_list(f("plots_left"), "plots_left", 0, len(act.SIDES) - 1, unique=True)
    state.campaign = v.integer(
        f("campaign"), "campaign", 0 if drafting else 1, len(state.campaign_plot_counts())
    )
    state.start_seat = v.integer(f("start_seat"), "start_seat", 0, seats - 1)
    state.turn = v.integer(f("turn"), "turn", 0, seats - 1)
    state.phase = v.choice(f("phase"), "phase", PHASES)
    state.final_seat = v.integer(f("final_seat"), "final_seat", -1, seats - 1)
    state.area = v.integer(f("area"), "area", -1, state.shape.areas)
    state.rank_index = v.integer(f("rank_index"), "rank_index", 0, COLOURS)
    state.awaiting = v.choice(
        f("awaiting"), "awaiting", ("", AWAIT_REWARD, AWAIT_DISCARD, AWAIT_TIE)
    )
    state.on_river = v.boolean(f("on_river"), "on_river")
    state.area_museum = v.integer(f("area_museum"), "area_museum", 0, 2)
    state.tie_asked = v.boolean(f("tie_asked"), "tie_asked")
    _load_variant_fields(state, data)
    state.cards = _count_patrons(state.won, state.nile_won)
    dealt = [card for card, _ in state.slots]
    won = [card for row in state.won for card in row]
    drafting = state.draft_row
    if (
        len(set(dealt)) != len(dealt)
        or len(set(won)) != len(won)
        or set(state.deck) & {*state.box, *dealt, *won, *drafting}
        or set(state.box) & {*won, *drafting}
        or set(drafting) & {*dealt, *won}
    ):
        raise CorruptStateError("a plot card is in two places at once")
    if len({*state.deck, *state.box, *dealt, *won, *drafting}) != cards:
        raise CorruptStateError("every plot card must be somewhere")
    final = f("final")
    if final is not None and (
        state.phase != OVER
        or not isinstance(final, list)
        or len(final) != seats
        or not all(isinstance(e, dict) and type(e.get("total")) is int for e in final)
    ):
        raise CorruptStateError("final scores must be a list of breakdowns, once over")
    if state.phase == OVER and final is None:
        raise CorruptStateError("a finished match must carry its final scores")
    state.final = copy.deepcopy(final)
    if sorted(state.wing_order) != list(range(WINGS)):
        raise CorruptStateError("wing order is not a permutation of the five patrons")
    if any(
        u > c
        for row_u, row_c in zip(state.used, state.cards, strict=True)
        for u, c in zip(row_u, row_c, strict=True)
    ):
        raise CorruptStateError("a patron is used more often than it is held")
    for colour in range(COLOURS):
        held = sum(row[colour] for row in state.personal)
        placed = state.board.count(colour) + state.museum.count(colour)
        if state.general[colour] + held + placed != total:
            raise CorruptStateError(f"{COLOUR_NAMES[colour]} archaeologists do not add up")
    state.index_museum()
    state.lay_terrain()
    return state


def state_from_view(
    cls: type[MykerinosState], game: Game, view: Mapping[str, Any], seed: int
) -> MykerinosState:
    """A state whose view equals ``view``; the deck's order is sampled from ``seed``.

    The deck holds exactly the plots no view shows (not in the region, the box
    or anybody's won plots), in a random order.

    Raises:
        CorruptStateError: the view is not one this class produced.
    """
    try:
        return _from_view(cls, game, view, seed)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise CorruptStateError(f"not a Mykerinos view: {exc}") from exc


def _from_view(
    cls: type[MykerinosState], game: Game, view: Mapping[str, Any], seed: int
) -> MykerinosState:
    colour = {name: i for i, name in enumerate(COLOUR_NAMES)}
    seats = int(view["seats"])
    data: JsonDict = {
        "game": "mykerinos",
        "seats": seats,
        "options": dict(view["options"]),
        "slots": [[p["card"], p["rotated"]] for p in view["region"]["plots"]],
        "wing_order": [int(CODE_TO_PATRON[code]) for code in view["museum"]["wings"]],
        "box": list(view["box"]),
        "general": [view["general_reserve"][name] for name in COLOUR_NAMES],
        "personal": [[p["reserve"].get(name, 0) for name in COLOUR_NAMES] for p in view["players"]],
        "used": [
            [p["patrons"][PATRON_CODES[q]]["used"] for q in ALL_PATRONS] for p in view["players"]
        ],
        "won": [list(p["plots_won"]) for p in view["players"]],
        "prestige": [p["prestige"] for p in view["players"]],
        "museum": [EMPTY] * ROOM_IDS,
        "tiebreak": [view["tiebreak"].get(name, 0) for name in COLOUR_NAMES],
        "active": [bool(p["active"]) for p in view["players"]],
        "campaign": view["campaign"],
        "start_seat": view["start_seat"],
        "turn": view["current_seat"] if view["current_seat"] is not None else 0,
        "phase": view["phase"],
        "final_seat": -1 if view["final_action_seat"] is None else view["final_action_seat"],
        "area": -1,
        "ranks": [],
        "rank_index": 0,
        "plots_left": [],
        "awaiting": "",
        "on_river": False,
        "area_museum": 0,
        "tie_asked": False,
        "final": view.get("final"),
        "draft_row": [],
        "draft_index": 0,
        "nile_won": [list(p["nile_cards"]) for p in view["players"]],
        "tokens": [p["tokens"] for p in view["players"]],
        "nile_rows": [n["card"] for n in view["region"].get("nile", [])],
        "nile_rotated": [n["rotated"] for n in view["region"].get("nile", [])],
        "nile_box": [],
        "blocked": [],
        "blocked_rooms": [EMPTY] * ROOM_IDS,
        "nile_governor_deck": [],
        "nile_neutral_deck": [],
    }
    for room in view["museum"]["rooms"]:
        if room["occupant"] is not None:
            data["museum"][parse_room(room["room"])] = colour[room["occupant"]]
    size = view["region"]["rows"] * 8
    board = [EMPTY] * size
    for name, who in view["occupied"].items():
        board[parse_space(name)] = colour[who]
    data["board"] = board
    data["blocked"] = [EMPTY] * size
    if "delimitation" in view:
        d = view["delimitation"]
        data["area"] = d["area"]
        data["ranks"] = [colour[c] for c in d["order"]]
        data["rank_index"] = d["rank_index"]
        data["plots_left"] = [act.SIDES.index(x) for x in d["plots_left"]]
        data["awaiting"] = d["awaiting"]
        data["on_river"] = d["river"]
        data["area_museum"] = d["museum_rewards"]
        data["tie_asked"] = d["tie_asked"]
    if "draft" in view:
        draft = view["draft"]
        data["draft_row"] = list(draft["plots"])
        data["draft_index"] = draft["index"]
    sampler = Rng(seed)
    if "nile" in view:
        _nile_from_view(data, view["nile"], colour, sampler)
    shown = {
        *data["box"],
        *(c for row in data["won"] for c in row),
        *(s[0] for s in data["slots"]),
        *data["draft_row"],
    }
    deck = [card.id for card in PLOT_CARDS if card.id not in shown]
    if len(deck) != view["deck_size"]:
        raise ValueError(f"{len(deck)} unseen plots but the deck holds {view['deck_size']}")
    sampler.shuffle(deck)
    data["deck"] = deck
    data["rng"] = sampler.next_u64()
    return state_from_data(cls, game, data)


def _won_from(value: Any, seats: int) -> list[list[int]]:
    if not isinstance(value, list) or len(value) != seats:
        raise CorruptStateError(f"won must list the plots of {seats} seats")
    rows = [
        v.int_list(row, f"won[{i}]", 0, len(PLOT_CARDS) - 1, unique=True)
        for i, row in enumerate(value)
    ]
    for row in rows:
        if any(PLOT_CARDS[card].patron is None for card in row):
            raise CorruptStateError("the plot without a patron is never kept")
    return rows


def _count_patrons(won: list[list[int]], nile_won: list[list[int]]) -> list[list[int]]:
    """Patron cards held per seat: plots won (or drafted) and Governor Nile cards."""
    counts = [[0] * len(ALL_PATRONS) for _ in won]
    for seat, row in enumerate(won):
        for card in row:
            patron = PLOT_CARDS[card].patron
            assert patron is not None
            counts[seat][patron] += 1
    for seat, row in enumerate(nile_won):
        counts[seat][Patron.GOVERNOR] += sum(1 for c in row if nile.NILE_CARDS[c].governor)
    return counts


def _nile_from_view(
    data: JsonDict, shown: Mapping[str, Any], colour: Mapping[str, int], sampler: Rng
) -> None:
    """Fill The Nile's fields of ``data`` from a view's ``nile`` part.

    The two decks hold the Nile cards no view shows, shuffled (the special card,
    if unseen, at the bottom of the neutral deck).
    """
    data["nile_box"] = list(shown["box"])
    for name, who in shown["blocked"].items():
        data["blocked"][parse_space(name)] = colour[who]
    for name, who in shown["blocked_rooms"].items():
        data["blocked_rooms"][parse_room(name)] = colour[who]
    seen = {*data["nile_box"], *data["nile_rows"], *(c for row in data["nile_won"] for c in row)}
    governors = [c for c in nile.GOVERNOR_DECK if c not in seen]
    neutrals = [c for c in nile.NEUTRAL_DECK if c not in seen]
    if len(governors) != shown["governor_deck"] or len(neutrals) != shown["neutral_deck"]:
        raise ValueError("the Nile decks' sizes do not match the unseen Nile cards")
    sampler.shuffle(governors)
    data["nile_governor_deck"] = governors
    data["nile_neutral_deck"] = neutral_deck_order(neutrals, sampler)


def neutral_deck_order(deck: list[int], sampler: Rng) -> list[int]:
    """The neutral Nile deck reshuffled, its special card (if still there) at the bottom."""
    others = [c for c in deck if c != nile.SPECIAL_CARD]
    sampler.shuffle(others)
    return others + [c for c in deck if c == nile.SPECIAL_CARD]


def _load_variant_fields(state: MykerinosState, data: Mapping[str, Any]) -> None:
    """Read and check the quick game's draft and The Nile's fields of a snapshot."""
    f = partial(v.field, data)
    seats = state.seat_count
    plots = len(PLOT_CARDS)
    state.draft_row = v.int_list(f("draft_row"), "draft_row", 0, plots - 1, unique=True)
    state.draft_index = v.integer(f("draft_index"), "draft_index", 0, 2 * seats - 1)
    if any(PLOT_CARDS[c].patron is None for c in state.draft_row):
        raise CorruptStateError("the 5-point plot is never drafted")
    if (state.phase == DRAFT) != bool(state.draft_row):
        raise CorruptStateError("the draft row is shown exactly during the draft")
    if (state.phase == DRAFT) != (state.campaign == 0) or (state.slots and state.campaign == 0):
        raise CorruptStateError("the draft comes before the first campaign, with no region")
    if state.phase == DRAFT and state.turn != state.draft_order[state.draft_index]:
        raise CorruptStateError("the draft turn does not match the draft order")
    cards = len(nile.NILE_CARDS)
    state.nile_governor_deck = v.int_list(
        f("nile_governor_deck"), "nile_governor_deck", 0, cards - 1, unique=True
    )
    state.nile_neutral_deck = v.int_list(
        f("nile_neutral_deck"), "nile_neutral_deck", 0, cards - 1, unique=True
    )
    state.nile_rows = v.int_list(f("nile_rows"), "nile_rows", 0, cards - 1, unique=True)
    rotated = data.get("nile_rotated", [False] * len(state.nile_rows))
    state.nile_rotated = v.bool_list(rotated, "nile_rotated", len(state.nile_rows))
    state.nile_box = v.int_list(f("nile_box"), "nile_box", 0, cards - 1, unique=True)
    if state.nile_rows and len(state.nile_rows) != state.shape.area_rows:
        raise CorruptStateError("one Nile card lies on each row of areas")
    rows = range(act.NILE_SIDE, act.NILE_SIDE + len(state.nile_rows))
    sides = rows if state.on_river else range(act.NILE_SIDE)
    if any(side not in sides for side in state.plots_left):
        raise CorruptStateError("the cards left to claim are not on the table")
    if state.on_river and state.phase != DELIMITATION:
        raise CorruptStateError("the river is scored only during delimitation")
    kept = f("nile_won")
    if not isinstance(kept, list) or len(kept) != seats:
        raise CorruptStateError(f"nile_won must list the Nile cards of {seats} seats")
    state.nile_won = [
        v.int_list(row, f"nile_won[{i}]", 0, cards - 1, unique=True) for i, row in enumerate(kept)
    ]
    places = [
        *state.nile_governor_deck,
        *state.nile_neutral_deck,
        *state.nile_on_table(),
        *state.nile_box,
        *(c for row in state.nile_won for c in row),
    ]
    if len(set(places)) != len(places):
        raise CorruptStateError("a Nile card is in two places at once")
    if state.with_nile and len(places) != cards:
        raise CorruptStateError("every Nile card must be somewhere")
    if not state.with_nile and places:
        raise CorruptStateError("Nile cards in a match without The Nile")
    if any(nile.NILE_CARDS[c].governor for c in state.nile_neutral_deck) or any(
        not nile.NILE_CARDS[c].governor for c in state.nile_governor_deck
    ):
        raise CorruptStateError("a Nile card is in the wrong deck")
    if any(
        nile.NILE_CARDS[c].effect not in (nile.GOVERNOR, nile.TIE_WINNER)
        for row in state.nile_won
        for c in row
    ):
        raise CorruptStateError("only Governor cards and the tie card are kept")
    state.tokens = v.int_list(f("tokens"), "tokens", 0, BLOCKING_TOKENS, seats)
    state.blocked = v.int_list(f("blocked"), "blocked", EMPTY, seats - 1, state.shape.size)
    state.blocked_rooms = v.int_list(
        f("blocked_rooms"), "blocked_rooms", EMPTY, seats - 1, ROOM_IDS
    )
    for seat in range(seats):
        down = state.blocked.count(seat) + state.blocked_rooms.count(seat)
        if state.with_nile and state.tokens[seat] + down != BLOCKING_TOKENS:
            raise CorruptStateError("blocking tokens do not add up")
        if not state.with_nile and (state.tokens[seat] or down):
            raise CorruptStateError("blocking tokens in a match without The Nile")
