"""Mykerinos action labels: what an action does, and why one is not legal now.

Clients show these sentences beside the legal actions and with refused ones; the
state's ``describe`` and ``explain_illegal`` read them from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from senet.games.mykerinos import actions as act
from senet.games.mykerinos import nile
from senet.games.mykerinos.actions import MykerinosAction
from senet.games.mykerinos.constants import (
    AWAIT_DISCARD,
    AWAIT_TIE,
    BLOCKING,
    COLOUR_NAMES,
    DELIMITATION,
    DRAFT,
    EMPTY,
    NEUTRAL_TURN,
    PATRON_OF_KIND,
    SIDE_NAMES,
)
from senet.games.mykerinos.museum import room_label, room_value
from senet.games.mykerinos.patrons import Patron
from senet.games.mykerinos.plots import PLOT_CARDS
from senet.games.mykerinos.region import space_name
from senet.games.wording import a_or_an

if TYPE_CHECKING:
    from senet.games.mykerinos.state import MykerinosState


#: Labels that depend on the action and the edition alone, by (action, classic):
#: a prompt lists dozens of placements, the same ones turn after turn.
_LABELS: dict[tuple[MykerinosAction, bool], str] = {}
_LABELS_KEPT = 20_000
#: Kinds whose label also names what lies in the area (plots, Nile cards).
_STATEFUL_KINDS = frozenset({act.TAKE, act.DISCARD})


def describe(state: MykerinosState, action: Any) -> str:
    """A short label for ``action`` in ``state``, in the edition's patron names."""
    if action.__class__ is MykerinosAction:  # as listed by legal_actions: canonical
        label = _LABELS.get((action, state.classic))
        if label is not None:
            return label
    a: MykerinosAction = state.coerce_action(action)
    if a.kind in _STATEFUL_KINDS:
        return _describe(state, a)
    key = (a, state.classic)
    label = _LABELS.get(key)
    if label is None:
        if len(_LABELS) >= _LABELS_KEPT:
            _LABELS.clear()
        label = _LABELS[key] = _describe(state, a)
    return label


def _describe(state: MykerinosState, a: MykerinosAction) -> str:
    spaces = ", ".join(space_name(s) for s in a.spaces)
    kind = a.kind
    names = state.names
    label = _variant_label(state, a, spaces)
    if label:
        return label
    if kind == act.START:
        return f"Start an excavation at {spaces}"
    if kind == act.EXPAND:
        return f"Expand an excavation onto {spaces}"
    if kind == act.CURATOR:
        return f"{names[Patron.CURATOR]}: start an excavation with two archaeologists on {spaces}"
    if kind == act.COLONEL:
        return f"{names[Patron.COLONEL]}: expand with three archaeologists onto {spaces}"
    if kind == act.EXPLORER:
        verb = "start an excavation on the pyramid" if len(a.spaces) == 1 else "expand onto"
        return f"{names[Patron.EXPLORER]}: {verb} {spaces}"
    if kind == act.HEIRESS:
        verb = "start an excavation at" if len(a.spaces) == 1 else "expand onto"
        return (
            f"{names[Patron.HEIRESS]}: take one archaeologist from the general reserve, "
            f"then {verb} {spaces}"
        )
    if kind == act.DIRECTOR:
        return (
            f"{names[Patron.DIRECTOR]}: place an archaeologist in the museum, "
            f"{room_label(a.arg, names)}"
        )
    if kind == act.PASS:
        return "Pass (out of this campaign)"
    if kind == act.NEUTRAL_START:
        return f"Neutral player: start an excavation at {spaces}"
    if kind == act.NEUTRAL_EXPAND:
        return f"Neutral player: expand onto {spaces}"
    if kind == act.NEUTRAL_SKIP:
        return "No action for the neutral player"
    if kind in (act.TAKE, act.DISCARD) and state.phase == DELIMITATION and a.arg < 2:
        card = PLOT_CARDS[state.slots[2 * state.area + a.arg][0]]
        patron = "no patron" if card.patron is None else names[card.patron]
        what = f"the {SIDE_NAMES[a.arg]} plot ({patron}, {card.points} points)"
        if kind == act.TAKE:
            return f"Take {what}"
        return f"The neutral player discards {what}"
    if kind == act.TAKE:
        return f"Take the {SIDE_NAMES[a.arg]} plot of the area being scored"
    if kind == act.DISCARD:
        return f"The neutral player discards the {SIDE_NAMES[a.arg]} plot"
    if kind == act.MUSEUM:
        if state.classic:
            return (
                "Send an archaeologist from the general reserve to the museum, "
                f"{room_label(a.arg, names)}"
            )
        return (
            "Send one of your archaeologists of this area to the museum, "
            f"{room_label(a.arg, names)}"
        )
    return a.notation()


def _variant_label(state: MykerinosState, a: MykerinosAction, spaces: str) -> str:
    """Labels of the variants' actions ('' for the base game's)."""
    kind = a.kind
    if kind == act.TEAM_START:
        return f"Start an excavation at {spaces} with your teammate's archaeologist"
    if kind == act.TEAM_EXPAND:
        return f"Expand your teammate's excavation onto {spaces} with their archaeologists"
    if kind == act.DRAFT:
        return f"Draft {a_or_an(state.names[a.arg])} patron card"
    if kind == act.GOVERNOR:
        verb = "start an excavation at" if len(a.spaces) == 1 else "expand onto"
        return f"Governor: {verb} {spaces}, then place a blocking token"
    if kind == act.BLOCK:
        if a.arg >= act.ROOM_TARGET:
            where = f"the museum's {room_label(a.arg - act.ROOM_TARGET, state.names)}"
        else:
            where = space_name(a.arg)
        return f"Put a blocking token on {where}"
    if kind == act.USE_TIE:
        return "Discard your tie card to win this tie"
    if kind == act.KEEP_TIE:
        return "Keep your tie card for a later tie"
    if kind == act.LEAVE:
        return "Leave the last plot to your teammate placed behind you"
    if kind in (act.TAKE, act.DISCARD) and a.arg >= act.NILE_SIDE:
        row = a.arg - act.NILE_SIDE
        what = f"the Nile card of row {row + 1}"
        if state.phase == DELIMITATION and row < len(state.nile_rows):
            card = nile.NILE_CARDS[state.nile_rows[row]]
            what += f" ({card.effect.replace('_', ' ')}, {card.points} points)"
        if kind == act.TAKE:
            return f"Take {what}"
        return f"The neutral player discards {what}"
    return ""


def explain_illegal(state: MykerinosState, action: Any) -> str:
    """Why ``action`` is not legal for the seat to move in ``state``."""
    a: MykerinosAction = state.coerce_action(action)
    seat, kind = state.turn, a.kind
    if state.phase == DRAFT:
        if kind != act.DRAFT:
            return "quick game: first draft your patrons (draft cur, draft col, ...)"
        return f"no revealed plot of the {state.names[a.arg]} is left"
    if state.phase == BLOCKING:
        if kind != act.BLOCK:
            return "place your Governor's blocking token: block SPACE or block ROOM"
        return _why_not_block(state, a.arg)
    if state.phase == DELIMITATION:
        return _why_not_reward(state, seat, a)
    if kind in (act.BLOCK, act.USE_TIE, act.KEEP_TIE, act.DRAFT):
        return {
            act.BLOCK: "a blocking token goes down right after a Governor action",
            act.DRAFT: "the patron draft happens before the first campaign of a quick game",
        }.get(kind, "the tie card is played when a tie arises during delimitation")
    if state.phase == NEUTRAL_TURN:
        if kind not in (act.NEUTRAL_START, act.NEUTRAL_EXPAND, act.NEUTRAL_SKIP):
            return "you may now act for the neutral player (na, nb) or skip (nskip)"
        assert state.neutral is not None
        return _why_not_placement(
            state, seat, state.neutral, a, state.personal[seat][state.neutral]
        )
    if kind in (act.NEUTRAL_START, act.NEUTRAL_EXPAND, act.NEUTRAL_SKIP):
        return "the neutral player acts only after your own action, in the two-player game"
    if kind in (act.TEAM_START, act.TEAM_EXPAND):
        mate = state.mate(seat)
        if mate is None:
            return "only the team game places a teammate's archaeologists"
        return _why_not_placement(state, seat, mate, a, state.personal[seat][mate])
    if kind in (act.TAKE, act.MUSEUM, act.DISCARD, act.LEAVE):
        return "rewards are chosen during delimitation, after everybody has passed"
    patron = PATRON_OF_KIND.get(kind)
    if patron is not None:
        if state.campaign < 2 and not state.quick:
            return "nobody has patrons during the first campaign"
        if not state.has_patron(seat, patron):
            held = state.cards[seat][patron]
            if held == 0:
                return f"you have no {state.names[patron]} card"
            return f"your {state.names[patron]} card(s) are already used this campaign"
        if patron == Patron.GOVERNOR and state.tokens[seat] < 1:
            returned = [s for s in a.spaces if s < state.shape.size and state.blocked[s] == seat]
            if not returned:
                return (
                    "all three of your blocking tokens are on the board: the Governor "
                    "needs one, so it must place on one of your own blocked spaces"
                )
    own = state.personal[seat][seat]
    if kind == act.DIRECTOR:
        if own < 1:
            return "you have no archaeologist in your personal reserve"
        return _why_not_room(state, seat, a.arg)
    if kind == act.HEIRESS:
        if state.general[seat] < 1:
            return "the general reserve has none of your archaeologists left"
        own += 1
    return _why_not_placement(state, seat, seat, a, own)


def _why_not_reward(state: MykerinosState, seat: int, a: MykerinosAction) -> str:
    kind = a.kind
    if state.awaiting == AWAIT_DISCARD:
        sides = " or ".join(f"discard {act.SIDES[s]}" for s in state.plots_left)
        return f"choose which card the neutral player discards: {sides}"
    if state.awaiting == AWAIT_TIE:
        return "you hold the tie card: usetie to win this tie, or keeptie"
    if state.rank_index >= 2 and kind in (act.TAKE, act.MUSEUM):
        if state.on_river:
            return "on the river, third and fourth places get nothing"
        if kind == act.MUSEUM:
            return "third and fourth places may never choose the museum"
        if state.classic and state.top_two_claimed_a_plot():
            return (
                "classic rules: third and fourth places claim a plot only when neither "
                "first nor second place claimed one"
            )
    if kind == act.LEAVE:
        return "only third place may leave the last plot, to a teammate placed behind"
    if kind == act.TAKE:
        if (a.arg >= act.NILE_SIDE) != state.on_river:
            if state.on_river:
                return "the river is being scored: claim a Nile card (take n1, n2, ...)"
            return "Nile cards are claimed when the river is scored, before the areas"
        return "that card has already been claimed"
    if kind == act.MUSEUM:
        if state.on_river:
            return "nobody goes to the museum from the river"
        if state.classic and state.general[seat] < 1:
            return "the general reserve has none of your archaeologists for the museum"
        return _why_not_room(state, seat, a.arg)
    return "delimitation: choose a reward (take l, take r or mus ROOM)"


def _why_not_block(state: MykerinosState, target: int) -> str:
    if target >= act.ROOM_TARGET:
        room = target - act.ROOM_TARGET
        if not state.has_room(room):
            return f"this museum has no {room_label(room, state.names)}"
        return f"the {room_label(room, state.names)} is not empty"
    if target >= state.shape.size:
        return f"{space_name(target)} is outside this campaign's region"
    return f"{space_name(target)} is not empty"


def _why_not_room(state: MykerinosState, colour: int, room: int) -> str:
    name = room_label(room, state.names)
    if not state.has_room(room):
        return f"this museum has no {name} (those wings are not neighbours)"
    if state.museum[room] != EMPTY:
        return f"the {name} is occupied"
    if state.blocked_rooms[room] not in (EMPTY, colour):
        owner = COLOUR_NAMES[state.blocked_rooms[room]]
        return f"the {name} is under {owner}'s blocking token"
    if room_value(room) == 5:
        return (
            f"you may enter the {name} only from your archaeologist in a neighbouring 2- or 3-room"
        )
    return "that room is not available"


def _why_not_placement(
    state: MykerinosState, seat: int, colour: int, a: MykerinosAction, available: int
) -> str:
    spaces = a.spaces
    if available < len(spaces):
        return (
            f"this needs {len(spaces)} archaeologist(s) and your personal reserve has {available}"
        )
    for space in spaces:
        if space >= state.shape.size:
            return f"{space_name(space)} is outside this campaign's region"
        if state.board[space] != EMPTY:
            return f"{space_name(space)} is occupied"
        if state.blocked[space] not in (EMPTY, seat):
            owner = COLOUR_NAMES[state.blocked[space]]
            return f"{space_name(space)} is under {owner}'s blocking token"
    on_pyramids = sum(state.pyramid[s] for s in spaces)
    if a.kind == act.EXPLORER:
        if on_pyramids != 1:
            return "the Explorer places exactly one archaeologist on a pyramid"
    elif on_pyramids:
        first = next(s for s in spaces if state.pyramid[s])
        return f"{space_name(first)} is a pyramid (only the Explorer may dig there)"
    if a.kind in (act.START, act.NEUTRAL_START, act.TEAM_START, act.CURATOR) or len(spaces) == 1:
        return "those spaces must be adjacent to each other"
    return (
        "an expansion starts next to one of your archaeologists and each next "
        "archaeologist goes next to the one placed before it"
    )
