"""The gods' powers: each usable once while its card is held (text), then flipped.

Text (L82): "At any point while holding the God card, the player can activate its
power." Every power but Athena's (a standing guard) is an ``invoke`` decision of its
holder (ruling R18): Ishtar at the role step, on a role whose outcome her +2 changes
(a step of its own, before the roles move); Mars in each battle the holder fights, at
sea too, once its dice are seen and where his +6 changes its losses (a step of its own,
so he may keep Mars for a later one); Hermes, Isis, Baal,
Vulcan and Poseidon in each of the holder's own turns while he holds the card, his
construction turn and his naval moves, and once more in the next commerce phase, before
the trade is sized (a step of its own, his last moment); Poseidon also when another
player's crossing by sea is about to land, on a trireme carrying it (a step of its own,
ruling R56), and before a sea battle in which he has an enemy, on a trireme of that
enemy there (a step of its own, ruling R57). Athena guards her holder
against every other god's power; Antigone guards her owner's provinces that hold a temple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import ICONS, PROVINCES, SPACES
from senet.games.marenostrum.cards import GOD_IDS
from senet.games.marenostrum.civilizations import CIVS
from senet.games.marenostrum.commodities import CARD_NAMES, CARD_TYPES, draw
from senet.games.marenostrum.constants import HERMES_DUE, HERMES_UNIT, NOBODY
from senet.games.marenostrum.tokens import CARAVAN, CITY

if TYPE_CHECKING:
    from senet.games.marenostrum.data import MareData

ATHENA, BAAL, HERMES, ISIS, ISHTAR, MARS, POSEIDON, VULCAN = (
    GOD_IDS.index(name)
    for name in ("athena", "baal", "hermes", "isis", "ishtar", "mars", "poseidon", "vulcan")
)
#: Hermes: extra cards among the commodities the holder produces ([C1]).
HERMES_CARDS = 3
ISHTAR_BONUS = 2
MARS_BONUS = 6


def ready(state: MareData, god: int, seat: int) -> bool:
    """Whether ``seat`` holds ``god`` with its power unused."""
    return state.god_holder[god] == seat and not state.god_used[god]


def _use(state: MareData, god: int) -> None:
    state.god_used[god] = 1
    state.emit("god_invoked", seat=state.god_holder[god], god=GOD_IDS[god])


def protected(state: MareData, civ: int) -> bool:
    """Athena: her holder's pieces cannot be a god's target."""
    holder = state.god_holder[ATHENA]
    return holder != NOBODY and state.civ_of[holder] == civ


def hermes(state: MareData, seat: int) -> None:
    """Hermes: three cards among the kinds the holder produces (notes 3.7), which he
    picks one by one (``gift``; ruling R18); any commodity when the bank holds none
    of those kinds."""
    state.powers_used[seat] = (state.powers_used[seat] & ~HERMES_DUE) | (HERMES_CARDS * HERMES_UNIT)


def hermes_left(state: MareData, seat: int) -> int:
    """The cards Hermes still brings ``seat``."""
    return (state.powers_used[seat] & HERMES_DUE) // HERMES_UNIT


def hermes_kinds(state: MareData, seat: int) -> list[int]:
    """The resource cards ``seat`` may take for Hermes (R55): the kinds it produces,
    tax cards included where its cities yield them, that the bank holds, else any
    the bank holds."""
    produced = rules.revenue(state, seat)[1]
    kinds = [c for c in range(CARD_TYPES) if produced[c] and state.bank[c]]
    return kinds or [c for c in range(CARD_TYPES) if state.bank[c]]


def hermes_take(state: MareData, seat: int, card: int) -> None:
    """``seat`` takes one of Hermes's cards, ``card`` (-1: none, the bank is empty;
    the card is lost)."""
    if card >= 0:
        draw(state.bank, state.hands[seat], card, 1)
    state.powers_used[seat] -= HERMES_UNIT


def isis(state: MareData) -> None:
    """Isis: every player draws a card at random from the bank (each sees only its own)."""
    for each in range(state.seat_count):
        pool = [c for c in range(CARD_TYPES) for _ in range(state.bank[c])]
        if pool:
            card = state.rng.choice(pool)
            draw(state.bank, state.hands[each], card, 1)
            state.emit("card_drawn_private", frozenset({each}), seat=each, card=CARD_NAMES[card])
            state.emit("card_drawn", seat=each)


def ishtar_options(state: MareData, seat: int) -> list[MareAction]:
    """``invoke ishtar <role>`` for each role whose outcome her +2 to ``seat``'s count
    changes: who keeps or wins it, or who is tied for it (ruling R18)."""
    if not ready(state, ISHTAR, seat):
        return []
    counts = [rules.role_counts(state, s) for s in range(state.seat_count)]
    out = []
    for role, holder in enumerate(state.roles):
        column = [row[role] for row in counts]
        boosted = list(column)
        boosted[seat] += ISHTAR_BONUS
        if _role_outcome(column, holder) != _role_outcome(boosted, holder):
            out.append(MareAction(act.INVOKE, ISHTAR, role))
    return out


def _role_outcome(counts: list[int], holder: int) -> set[int]:
    """The seats a role can go to (text: the holder keeps it on a tie)."""
    best = max(counts)
    if holder != NOBODY and counts[holder] == best:
        return {holder}
    return {s for s, n in enumerate(counts) if n == best}


def ishtar_holder(state: MareData) -> int:
    """The seat that may invoke Ishtar at this role step (NOBODY if none may, or if
    her +2 would change no role)."""
    seat = state.god_holder[ISHTAR]
    if seat == NOBODY or not ishtar_options(state, seat):
        return NOBODY
    return seat


def war_god_holder(state: MareData, first: int, second: int) -> int:
    """The seat that may invoke Mars in the battle of ``first`` against ``second``:
    his holder, if he fights in it with the power unused (NOBODY if none)."""
    for civ in (first, second):
        seat = state.seat_of[civ]
        if seat != NOBODY and ready(state, MARS, seat):
            return seat
    return NOBODY


def sea_god_options(state: MareData, seat: int, mover: int, chain: list[int]) -> list[MareAction]:
    """``invoke poseidon <sea> <mover>`` for each sea of the crossing's ``chain`` where
    ``mover`` (another's civilization, not guarded by Athena) has a trireme: the ship
    carrying the crossing there (ruling R56)."""
    if not ready(state, POSEIDON, seat) or state.civ_of[seat] == mover or protected(state, mover):
        return []
    return [
        MareAction(act.INVOKE, POSEIDON, sea, mover)
        for sea in sorted(set(chain))
        if state.triremes[mover][sea]
    ]


def sea_god_holder(state: MareData, mover: int, chain: list[int]) -> int:
    """The seat asked whether Poseidon breaks ``mover``'s crossing along ``chain``:
    his holder, where he has a target in it (NOBODY if none). The god is one card,
    so at most one seat is asked."""
    seat = state.god_holder[POSEIDON]
    if seat == NOBODY or not sea_god_options(state, seat, mover, chain):
        return NOBODY
    return seat


def naval_god_options(
    state: MareData, seat: int, sea: int, sides: tuple[int, int]
) -> list[MareAction]:
    """``invoke poseidon <sea> <side>`` for each side of the sea battle in ``sea`` that
    is ``seat``'s enemy (another's civilization, not guarded by Athena) with a trireme
    there (ruling R57)."""
    if not ready(state, POSEIDON, seat):
        return []
    civ = state.civ_of[seat]
    return [
        MareAction(act.INVOKE, POSEIDON, sea, side)
        for side in sorted(set(sides))
        if side != civ and not protected(state, side) and state.triremes[side][sea]
    ]


def naval_god_holder(state: MareData, sea: int, sides: tuple[int, int], skip: int) -> int:
    """The seat asked whether Poseidon strikes before the sea battle of ``sides`` in
    ``sea``: his holder, where he has a target in it and is not ``skip`` (the mover,
    who could invoke him in his naval moves just before); NOBODY if none."""
    seat = state.god_holder[POSEIDON]
    if seat in (NOBODY, skip) or not naval_god_options(state, seat, sea, sides):
        return NOBODY
    return seat


def may_strike_at_sea(state: MareData, mover: int) -> bool:
    """Whether Poseidon, held unused by another than ``mover``'s player, may strike
    ``mover``'s ships (the cheap test before a crossing's chain is worked out)."""
    seat = state.god_holder[POSEIDON]
    return (
        seat != NOBODY
        and not state.god_used[POSEIDON]
        and state.civ_of[seat] != mover
        and not protected(state, mover)
    )


def mars_options(state: MareData, space: int) -> list[MareAction]:
    """``invoke mars <space>`` for the battle whose dice were just rolled there."""
    return [MareAction(act.INVOKE, MARS, space)]


def invoke_options(state: MareData, seat: int) -> list[MareAction]:
    """``invoke`` actions of ``seat`` now, in its construction turn, its naval moves or
    before the trade is sized (ruling R18): Poseidon, Hermes, Isis, Baal and Vulcan,
    each while held unused."""
    civ = state.civ_of[seat]
    out: list[MareAction] = []
    if ready(state, POSEIDON, seat):
        for enemy in range(CIVS):
            if enemy == civ or protected(state, enemy):
                continue
            out.extend(
                MareAction(act.INVOKE, POSEIDON, sea, enemy)
                for sea in range(PROVINCES, SPACES)
                if state.triremes[enemy][sea]
            )
    if ready(state, HERMES, seat) and any(state.bank):
        out.append(MareAction(act.INVOKE, HERMES))
    if ready(state, ISIS, seat) and any(state.bank):
        out.append(MareAction(act.INVOKE, ISIS))
    baal, vulcan = ready(state, BAAL, seat), ready(state, VULCAN, seat)
    if not (baal or vulcan):
        return out  # the provinces' targets are Baal's and Vulcan's only
    for p in range(PROVINCES):
        owner = state.influence[p]
        if owner in (NOBODY, civ) or protected(state, owner):
            continue
        if state.temples[p] and rules.guards_temples(state, owner):
            continue
        if baal:
            out.extend(
                MareAction(act.INVOKE, BAAL, p, commodity)
                for i, commodity in enumerate(ICONS[p])
                if state.caravans[p] >> i & 1
            )
        # Designed: never a capital's last city.
        last = p == state.capital[owner] and state.cities[p] == 1
        if vulcan and state.cities[p] and not last:
            out.append(MareAction(act.INVOKE, VULCAN, p))
    return out


def invoke(state: MareData, action: MareAction) -> None:
    """Apply an ``invoke``: the god's card flips, then its power acts. Mars's +6 is
    added by the battle it is invoked for (:mod:`.military`), Ishtar's +2 by the role
    step (:mod:`.turns`)."""
    god, space, extra = action.a, action.b, action.c
    _use(state, god)
    if god == POSEIDON:
        state.triremes[extra][space] -= 1
    elif god == BAAL:
        state.caravans[space] &= ~(1 << ICONS[space].index(extra))
        state.stock[CARAVAN] += 1
    elif god == VULCAN:
        state.cities[space] -= 1
        state.stock[CITY] += 1
    elif god == HERMES:
        hermes(state, state.god_holder[god])
    elif god == ISIS:
        isis(state)
    elif god == ISHTAR:
        state.ishtar_role = space
