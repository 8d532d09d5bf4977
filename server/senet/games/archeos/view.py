"""What a seat sees of an Archeos Society match, one builder per part.

:meth:`ArcheosState.view` calls every builder and :meth:`ArcheosState.view_parts`
only those asked (see :mod:`senet.games.view_parts`): each key here is a path of
``ArcheosState.view_sources``, so a part is rebuilt only when its fields change.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from senet.games.archeos.actions import BASIS_NAMES
from senet.games.archeos.cards import COLOUR_NAMES, COLOURS, ROLE_NAMES, card_name
from senet.games.archeos.constants import NO_SEAT
from senet.games.archeos.sites import SITE_IDS
from senet.games.view_parts import ABSENT, PartBuilder

if TYPE_CHECKING:
    from senet.games.archeos.state import ArcheosState


def _names(cards: list[int]) -> list[str]:
    return [card_name(c) for c in cards]


#: The keys of a seat's entry of ``players`` (``hand`` and ``kept``: its own only).
PLAYER_KEYS = frozenset(
    {
        "seat", "score", "hand_size", "known_hand", "sites", "linguist", "relics",
        "professor_tokens", "expeditions", "hand", "kept",
    }
)  # fmt: skip


def players(state: ArcheosState, viewer: int | None, keys: set[str] | None = None) -> Any:
    """The ``players`` table: each seat's entry, with only ``keys`` when given (one
    function with a test per key, not a builder per key: the whole table is built for
    every view the server sends, and a call per key doubled its cost)."""
    want = PLAYER_KEYS if keys is None else keys
    table = []
    for s in range(state.seat_count):
        entry: dict[str, Any] = {}
        if "seat" in want:
            entry["seat"] = s
        if "score" in want:
            entry["score"] = state.score[s]
        if "hand_size" in want:
            entry["hand_size"] = len(state.hands[s])
        if "known_hand" in want:
            entry["known_hand"] = [card_name(c) for c in state.known[s]]
        if "sites" in want:
            entry["sites"] = list(state.positions[s])
        if "linguist" in want:
            entry["linguist"] = state.linguist[s]
        if "relics" in want:
            relics = state.relics[s]
            entry["relics"] = [COLOUR_NAMES[c] for c in range(COLOURS) if relics[c]]
        if "professor_tokens" in want:
            entry["professor_tokens"] = list(state.tokens[s])
        if "expeditions" in want:
            entry["expeditions"] = [[card_name(c) for c in e] for e in state.expeditions[s]]
        if s == viewer:
            if "hand" in want:
                entry["hand"] = [card_name(c) for c in state.hands[s]]
            if "kept" in want:
                entry["kept"] = [card_name(c) for c in state.kept] if s == state.turn else []
        table.append(entry)
    return table


def _frame(state: ArcheosState, viewer: int | None) -> Any:
    seat, expedition, size = state.frame
    return None if seat == NO_SEAT else {"seat": seat, "expedition": expedition, "size": size}


def _expedition(state: ArcheosState, viewer: int | None) -> Any:
    return {
        "cards": _names(state.exp_cards),
        "basis": BASIS_NAMES[state.exp_basis],
        "limit": state.exp_limit,
        "advanced": state.exp_advanced,
    }


def _pending(state: ArcheosState, viewer: int | None) -> Any:
    return {
        "in_ur": state.in_ur,
        "linguist_advances": state.linguist_left,
        "keep_limit": state.keep_limit,
        "chichen_draws": state.chichen_draws,
        "ur_queue": list(state.ur_queue),
        "professor_moves": [list(p) for p in state.prof_queue],
    }


#: The view's parts in their order (``players`` is built by :func:`players`).
PARTS: dict[str, PartBuilder] = {
    "game": lambda state, viewer: "archeos",
    "viewer": lambda state, viewer: viewer,
    "seats": lambda state, viewer: state.seat_count,
    "options": lambda state, viewer: dict(state.options),
    "roles": lambda state, viewer: [ROLE_NAMES[r] for r in state.roles],
    "advanced_site": lambda state, viewer: SITE_IDS[state.advanced],
    "season": lambda state, viewer: state.season,
    "seasons": lambda state, viewer: state.seasons(),
    "step": lambda state, viewer: state.step,
    "current_seat": lambda state, viewer: state.current_seat(),
    "first_seat": lambda state, viewer: state.first_seat,
    "last_monkey_seat": lambda state, viewer: (
        None if state.last_monkey == NO_SEAT else state.last_monkey
    ),
    "deck_size": lambda state, viewer: len(state.deck),
    "deck_monkey_free_top": lambda state, viewer: state.monkey_free_top,
    "monkeys_drawn": lambda state, viewer: state.monkeys,
    "display": lambda state, viewer: _names(state.display),
    "professor_supply": lambda state, viewer: list(state.supply),
    "botanist_frame": _frame,
    "expedition": _expedition,
    "pending": _pending,
    "players": players,
    "scores": lambda state, viewer: state.scores(),
    "final": lambda state, viewer: ABSENT if state.final is None else copy.deepcopy(state.final),
    "ranking": lambda state, viewer: ABSENT if state.final is None else state.ranking(),
}
