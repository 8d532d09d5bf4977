"""Archeos Society action labels: what an action does, and why one is not legal now.

Clients show these sentences beside the legal actions and with refused ones; the
state's ``describe`` and ``explain_illegal`` read them from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from senet.games.archeos import actions as act
from senet.games.archeos.actions import (
    BASIS_NAMES,
    BY_COLOUR,
    SECOND_VEHICLE,
    site_of_target,
    target_name,
)
from senet.games.archeos.cards import COLOUR_NAMES, HAND_LIMIT, Role, card_label, role_of
from senet.games.archeos.constants import (
    BUILD,
    CHICHEN,
    CHOOSE_ADVANCE,
    EXTRA,
    KEEP,
    LINGUIST,
    OVER,
    PATRON,
    PROFESSOR,
    PROFESSOR_MOVE,
    TURN,
    ULURU,
    UR,
)
from senet.games.archeos.sites import SITE_NAMES, Special

if TYPE_CHECKING:
    from senet.games.archeos.state import ArcheosState


def describe(state: ArcheosState, action: Any) -> str:
    """A short label for ``action`` in ``state``."""
    a = state.coerce_action(action)
    kind = a.kind
    if kind == act.TAKE:
        return f"Take the {card_label(a.card)} from the display"
    if kind == act.DRAW:
        if state.step == PATRON:
            count = min(len(state.exp_cards), HAND_LIMIT - len(state.hands[state.turn]))
            risk = " (a monkey may come)" if state.draw_may_reach_monkey(count) else ""
            return f"Patron: draw {_cards(count)}{risk}"
        if state.step == CHICHEN:
            risk = "; a monkey may come" if state.draw_may_reach_monkey(1) else ""
            return f"Chichén Itzá: draw a card ({state.chichen_draws} left{risk})"
        return "Draw 2 cards from the deck" if not state.display else "Draw a card from the deck"
    if kind == act.SKIP:
        if state.step == PATRON:
            return "Patron: draw nothing"
        if state.step == CHICHEN:
            return "Chichén Itzá: draw no more cards"
        if state.step == LINGUIST:
            return "Linguist artifact: advance no vehicle"
        return "Do not advance a vehicle with this expedition"
    if kind == act.LEAD:
        basis = "colour" if a.arg == BY_COLOUR else "role"
        return f"Lead an expedition with the {card_label(a.card)} (same {basis})"
    if kind == act.ADD:
        return f"Add the {card_label(a.card)} to the expedition"
    if kind == act.GO:
        return (
            f"Play the expedition ({_cards(len(state.exp_cards))})"
            if state.exp_cards
            else "Play the expedition"
        )
    if kind in (act.ADVANCE, act.BACK):
        site = (
            SITE_NAMES[site_of_target(a.arg)]
            if state.is_advanced(Special(site_of_target(a.arg)))
            else COLOUR_NAMES[site_of_target(a.arg)] + " site"
        )
        vehicle = " (second vehicle)" if a.arg == SECOND_VEHICLE else ""
        verb = "Advance" if kind == act.ADVANCE else "Move back"
        return f"{verb} your vehicle on {site}{vehicle}"
    if kind == act.CASH:
        return "Uluru: take the points and send the vehicle back to the start"
    if kind == act.STAY:
        return "Uluru: leave the vehicle where it is"
    if kind == act.PROFESSOR:
        return f"Take professor token {a.arg}"
    if kind == act.KEEP:
        return f"Keep the {card_label(a.card)} in your hand"
    if kind == act.DONE:
        return "Stop keeping cards" if state.step == KEEP else "Play no extra expedition"
    return "Play no expedition at the end of the season (Ur)"


def explain_illegal(state: ArcheosState, action: Any) -> str:
    """Why ``action`` is not legal for the seat to move in ``state``."""
    a = state.coerce_action(action)
    step = state.step
    if step == OVER:
        return "the match is over"
    seat = state.turn
    expected = {
        TURN: "take a display card, draw, or lead an expedition",
        BUILD: "add a card to the expedition or play it (go)",
        CHOOSE_ADVANCE: "choose which vehicle the expedition advances (adv), or skip",
        ULURU: "cash or stay on Uluru",
        LINGUIST: "choose a vehicle for the linguist artifact (adv), or skip",
        PROFESSOR: "take a professor token (prof)",
        EXTRA: "lead an extra expedition or say done",
        KEEP: "keep a card or say done",
        UR: "lead a season-end expedition or pass",
        PROFESSOR_MOVE: "move a vehicle for the professors",
        PATRON: "draw the Patron's cards or skip",
        CHICHEN: "draw a Chichén Itzá card or skip the rest",
    }[step]
    kinds = {x.kind for x in state.legal_actions()}
    hand = state.hands[seat]
    if step == TURN and a.kind in (act.TAKE, act.DRAW) and len(hand) >= HAND_LIMIT:
        return f"your hand already holds {HAND_LIMIT} cards: play an expedition"
    if a.kind not in kinds:
        return f"now you must {expected}"
    if a.kind == act.TAKE:
        if len(hand) >= HAND_LIMIT:
            return f"your hand already holds {HAND_LIMIT} cards"
        return f"the display holds no {card_label(a.card)}"
    if a.kind == act.LEAD:
        if role_of(a.card) == Role.MERCENARY:
            return "a Mercenary cannot lead an expedition"
        return f"your hand holds no {card_label(a.card)}"
    if a.kind == act.ADD:
        if len(state.exp_cards) >= state.exp_limit:
            return f"this expedition may hold at most {state.exp_limit} cards"
        if not state.fits_expedition(a.card):
            basis = BASIS_NAMES[state.exp_basis]
            return f"the {card_label(a.card)} does not match the expedition's {basis}"
        if a.card not in hand:
            return f"your hand holds no {card_label(a.card)}"
        return "add cards in card order (role, then colour): this one comes before the last added"
    if a.kind == act.KEEP:
        if len(state.kept) >= state.keep_limit:
            return f"you may keep at most {state.keep_limit} cards"
        return "that card is not left in your hand, or comes before the last kept card"
    if a.kind == act.PROFESSOR:
        if a.arg not in state.supply:
            return f"professor token {a.arg} has been taken"
        return f"the token must not exceed the expedition's size ({len(state.exp_cards)})"
    if a.kind in (act.ADVANCE, act.BACK):
        return f"your vehicle at {target_name(a.arg)} cannot move that way now"
    return f"now you must {expected}"


def _cards(count: int) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{count} card{'' if count == 1 else 's'}"
