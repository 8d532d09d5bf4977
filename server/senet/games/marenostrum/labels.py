"""Human labels for Mare Nostrum actions, and why an action is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from senet.games.errors import IllegalActionError
from senet.games.marenostrum import actions as act
from senet.games.marenostrum import gifts, occupation
from senet.games.marenostrum.board import PROVINCES, SPACE_NAMES
from senet.games.marenostrum.cards import GODS, OWNABLE
from senet.games.marenostrum.civilizations import CIV_NAMES
from senet.games.marenostrum.commodities import CARD_NAMES
from senet.games.marenostrum.constants import (
    BARTER,
    DECLARE,
    GIFT,
    KEEP,
    NAVAL_GOD,
    PAY,
    ROLE_GOD,
    ROLE_NAMES,
    SEA_GOD,
    SPELL,
    TRADE_GOD,
    UNIT_KINDS,
    WAR_GOD,
)
from senet.games.marenostrum.tokens import BUILDING_NAMES, CARAVAN, CITY, ITEMS
from senet.games.wording import a_or_an

if TYPE_CHECKING:
    from senet.games.marenostrum.state import MareState


def _card(index: int) -> str:
    return a_or_an(f"{CARD_NAMES[index]} card")


def _invoke_label(state: MareState, god: str, space: int, target: int) -> str:
    """What invoking a god does, e.g. "Invoke Mars: +6 to your 7 against 12 in this
    battle (Peloponnesus)"."""
    if god == "mars":
        if state.step != WAR_GOD or not state.rolled:
            return f"Invoke Mars: +6 in this battle ({SPACE_NAMES[space]})"
        mine, theirs = state.war_totals()
        where = SPACE_NAMES[space]
        return f"Invoke Mars: +6 to your {mine} against {theirs} in this battle ({where})"
    if god == "hermes":
        return "Invoke Hermes: three cards of the kinds you produce"
    if god == "isis":
        return "Invoke Isis: every player draws a card from the bank"
    if god == "ishtar":
        return f"Invoke Ishtar: +2 to your count for {ROLE_NAMES[space]}"
    if god == "poseidon":
        if state.step == SEA_GOD and len(state.crossing) >= 4:
            return (
                f"Invoke Poseidon: sink the trireme of {CIV_NAMES[target]} carrying the "
                f"crossing in {SPACE_NAMES[space]} (it fails)"
            )
        if state.step == NAVAL_GOD:
            return (
                f"Invoke Poseidon: sink a trireme of {CIV_NAMES[target]} in "
                f"{SPACE_NAMES[space]} before the battle"
            )
        return f"Invoke Poseidon: sink a trireme of {CIV_NAMES[target]} in {SPACE_NAMES[space]}"
    if god == "baal":
        return f"Invoke Baal: destroy the {CARD_NAMES[target]} caravan of {SPACE_NAMES[space]}"
    return f"Invoke Vulcan: destroy a city of {SPACE_NAMES[space]}"


def _gift_label(state: MareState, card: int) -> str:
    """``gift``: the card that brings it, e.g. "Queen of Sheba: take a wine card from
    the bank"."""
    gift = gifts.due(state, state.actor) if state.step == GIFT else None
    if gift is None:
        return f"Take {_card(card)} from the bank"
    more = f" ({gift.left - 1} more to take)" if gift.left > 1 else ""
    return f"{gift.giver}: take {_card(card)} from the bank{more}"


def _spell_label(state: MareState, province: int) -> str:
    """``enchant``: whose legion does not roll, e.g. "Circe: a legion of Rome does not
    roll in this battle (Etruria)"."""
    where = SPACE_NAMES[province]
    if state.step != SPELL or not state.queue:
        return f"Circe: an enemy legion does not roll in the battle in {where}"
    _, enemy = state.battle_at_hand()
    mover = state.civ_of[state.queue[0]]
    other = enemy if state.civ_of[state.actor] == mover else mover
    return f"Circe: a legion of {CIV_NAMES[other]} does not roll in this battle ({where})"


def _hold_label(state: MareState, building: int, commodity: int) -> str:
    """``hold``: the unit and the building, e.g. "Put the legion on the city of
    Aegyptus"."""
    province = state.after_space
    if not 0 <= province < PROVINCES:
        return f"Put a unit on the {BUILDING_NAMES[building]}"
    civ = state.occupier[province]
    legions = state.legions[civ][province] if civ >= 0 else 0
    creatures = state.creatures[civ][province] if civ >= 0 else 0
    noun = "unit" if legions and creatures else "creature" if creatures else "legion"
    left = occupation.units_to_place(state, province)
    unit = f"the {noun}" if left == 1 else f"a {noun}"
    where = SPACE_NAMES[province]
    if building == CARAVAN:
        what = f"the {CARD_NAMES[commodity]} caravan"
    elif building == CITY and state.cities[province] > 1:
        what = "a city"
    else:
        what = f"the {BUILDING_NAMES[building]}"
    return f"Put {unit} on {what} of {where}"


def _via_label(state: MareState, sea: int) -> str:
    """``via``: the chain so far and this sea, e.g. "Carry the legion by Mare Libycum
    and Mare Ionium"."""
    crossing = state.blockade
    legions, creatures = (crossing[0], crossing[1]) if len(crossing) >= 4 else (0, 0)
    units = "the units"
    if legions + creatures == 1:
        units = "the legion" if legions else "the creature"
    seas = [SPACE_NAMES[s] for s in (*crossing[4:], sea)]
    route = seas[0] if len(seas) == 1 else f"{', '.join(seas[:-1])} and {seas[-1]}"
    return f"Carry {units} by {route}"


def describe(state: MareState, action: Any) -> str:
    """A short label for any well-formed action."""
    action = state.coerce_action(action)
    kind, a, b, c = action
    if kind == act.SIZE:
        return f"Every trader offers {a} card{'s' if a != 1 else ''}"
    if kind == act.OFFER:
        return f"Offer {_card(a)}"
    if kind == act.TAKE:
        return f"Take {_card(b)} from seat {a}"
    if kind == act.GIVE:
        return f"Give {_card(a)} to the player one card short"
    if kind == act.GRANT:
        # Which role, and the count the seats tie at: the prompt says all a holder needs.
        role = state.role_index
        if 0 <= role < len(ROLE_NAMES) and 0 <= a < state.seat_count:
            tied = state.role_count(a, role)
            return f"Hand the {ROLE_NAMES[role]} role (tied at {tied}) to seat {a}"
        return f"Hand the tied role to seat {a}"
    if kind == act.NEXT:
        return f"Seat {a} plays next in this phase"
    if kind == act.GOD:
        return f"Make an offering to {GODS[a].name}"
    if kind == act.INVOKE:
        return _invoke_label(state, GODS[a].id, b, c)
    if kind == act.HOLD:
        return _hold_label(state, a, b)
    if kind == act.BLOCKADE:
        return f"Break the crossing: attack the carrying trireme in {SPACE_NAMES[a]}"
    if kind == act.VIA:
        return _via_label(state, a)
    if kind == act.SWAP:
        return f"Cleopatra: give {_card(a)} to the bank for {_card(b)}"
    if kind == act.BARTER:
        return f"Ulysses: give {_card(a)} to the bank for {_card(b)}"
    if kind == act.GAZE:
        return f"Medusa: turn a legion of {CIV_NAMES[b]} in {SPACE_NAMES[a]} to stone"
    if kind == act.GILD:
        return f"Midas: turn {_card(a)} into two tax cards"
    if kind == act.ENCHANT:
        return _spell_label(state, a)
    if kind == act.GIFT:
        return _gift_label(state, a)
    if kind == act.PASS:
        if state.step == WAR_GOD:
            return "Keep Mars for a later battle"
        if state.step == ROLE_GOD:
            return "Leave Ishtar's power unused"
        if state.step == TRADE_GOD:
            return "Keep the god's power for later"
        if state.step == SPELL:
            return "Keep Circe's spell for a later battle this phase"
        if state.step == SEA_GOD:
            return "Let the crossing land, keeping Poseidon"
        if state.step == NAVAL_GOD:
            return "Let the battle be fought, keeping Poseidon"
        return "Keep the hand as it is" if state.step == BARTER else "Make no offering"
    if kind == act.BUILD:
        what = ITEMS[a] if c < 0 else f"{CARD_NAMES[c]} caravan"
        return f"Build {a_or_an(what)} in {SPACE_NAMES[b]}"
    if kind == act.BUY:
        return f"Buy {OWNABLE[a].name}"
    if kind == act.CONVERT:
        if a < 0:
            return "Convert the province (a unit on the influence marker)"
        return f"Complete the conversion of {SPACE_NAMES[a]}"
    if kind == act.PAY:
        if state.step == KEEP:
            return f"Give {_card(a)} back to the bank instead of keeping it"
        if b >= 0:
            return f"Pay {_card(a)}, {OWNABLE[b].name} counting as one more card of the set"
        return f"Pay {_card(a)}"
    if kind == act.CAPITAL:
        return f"Found the capital in {SPACE_NAMES[a]}"
    if kind == act.SAIL:
        if a < PROVINCES:
            return f"Launch the trireme built in {SPACE_NAMES[a]} into {SPACE_NAMES[b]}"
        return f"Move a trireme from {SPACE_NAMES[a]} to {SPACE_NAMES[b]}"
    if kind == act.FIGHT:
        return f"Attack {CIV_NAMES[b]}'s triremes in {SPACE_NAMES[a]}"
    if kind == act.MOVE:
        unit = ("legion", "creature")[a]
        if state.step == DECLARE:
            return f"Add {a_or_an(unit)} of {SPACE_NAMES[b]} to the crossing"
        return f"Move {a_or_an(unit)} from {SPACE_NAMES[b]} to {SPACE_NAMES[c]}"
    if kind == act.LOSE:
        return f"Lose {a_or_an(UNIT_KINDS[a])}"
    if kind == act.SACK:
        what = BUILDING_NAMES[a] if b < 0 else f"{CARD_NAMES[b]} caravan"
        return f"Sack the province: destroy its {what}"
    if kind == act.OCCUPY:
        return "Occupy the province: claim its income"
    if state.step == KEEP:
        return "Keep the tax cards in hand"
    return "End this part of the turn"


def explain_illegal(state: MareState, action: Any) -> str:
    """Why ``action`` is not among the legal actions now."""
    try:
        action = state.coerce_action(action)
    except IllegalActionError as exc:
        return str(exc)
    legal = state.legal_actions()
    kinds = sorted({a.kind for a in legal})
    if action.kind not in kinds:
        return f"now ({state.step}) the choices are: {', '.join(kinds)}"
    if state.step == PAY:
        # The payer alone decides in this step, so naming its choices shows no one else's.
        choices = ", ".join(a.notation() for a in legal)
        return f"the set being paid ({state.pay_left} card(s) left) can take now: {choices}"
    return f"that {action.kind} is not possible now ({state.step})"
