"""The gods' powers: each usable once while its card is held (text), then flipped.

Powers that only ever help their holder are used at the first moment they apply
(ruling R18): Hermes and Isis right after revenue, Ishtar at the role step on the
first role the +2 can win or keep, Mars in the holder's first ground battle. Powers
that hurt a rival are an ``invoke`` decision of their holder: Poseidon in the
holder's naval moves, Baal and Vulcan in the holder's construction turn. Athena
guards her holder against every other god's power; Antigone guards her owner's
provinces that hold a temple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import ICONS, PROVINCES, SPACES
from senet.games.marenostrum.cards import GOD_IDS
from senet.games.marenostrum.civilizations import CIVS
from senet.games.marenostrum.commodities import CARD_NAMES, CARD_TYPES, COMMODITY_TYPES, draw
from senet.games.marenostrum.constants import NOBODY
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


def after_revenue(state: MareData, produced: list[list[int]]) -> None:
    """Hermes, then Isis (notes 3.7: Hermes comes before Isis)."""
    for seat in range(state.seat_count):
        if ready(state, HERMES, seat):
            kinds = [c for c in COMMODITY_TYPES if produced[seat][c]] or list(COMMODITY_TYPES)
            for _ in range(HERMES_CARDS):
                fullest = max(kinds, key=lambda c: (state.bank[c], -c))
                draw(state.bank, state.hands[seat], fullest, 1)
            _use(state, HERMES)
    for seat in range(state.seat_count):
        if ready(state, ISIS, seat):
            _use(state, ISIS)
            for each in range(state.seat_count):
                pool = [c for c in range(CARD_TYPES) for _ in range(state.bank[c])]
                if pool:
                    card = state.rng.choice(pool)
                    draw(state.bank, state.hands[each], card, 1)
                    state.emit(
                        "card_drawn_private", frozenset({each}), seat=each, card=CARD_NAMES[card]
                    )
                    state.emit("card_drawn", seat=each)


def ishtar_role(state: MareData, counts: list[list[int]]) -> int:
    """Ishtar: the first role the +2 wins or keeps for her holder; uses her then."""
    for seat in range(state.seat_count):
        if not ready(state, ISHTAR, seat):
            continue
        for role in range(len(state.roles)):
            best = max(counts[s][role] for s in range(state.seat_count))
            mine = counts[seat][role]
            if mine < best <= mine + ISHTAR_BONUS:
                counts[seat][role] += ISHTAR_BONUS
                _use(state, ISHTAR)
                return role
    return NOBODY


def mars_bonus(state: MareData, civ: int) -> int:
    """Mars: +6 to his holder's total in its first ground battle."""
    seat = state.seat_of[civ]
    if seat != NOBODY and ready(state, MARS, seat):
        _use(state, MARS)
        return MARS_BONUS
    return 0


def invoke_options(state: MareData, seat: int, naval: bool) -> list[MareAction]:
    """``invoke`` actions of ``seat`` now: Poseidon at sea, Baal and Vulcan on land."""
    civ = state.civ_of[seat]
    out: list[MareAction] = []
    if naval and ready(state, POSEIDON, seat):
        for enemy in range(CIVS):
            if enemy == civ or protected(state, enemy):
                continue
            out.extend(
                MareAction(act.INVOKE, POSEIDON, sea, enemy)
                for sea in range(PROVINCES, SPACES)
                if state.triremes[enemy][sea]
            )
    if naval:
        return out
    for p in range(PROVINCES):
        owner = state.influence[p]
        if owner in (NOBODY, civ) or protected(state, owner):
            continue
        if state.temples[p] and rules.guards_temples(state, owner):
            continue
        if ready(state, BAAL, seat):
            out.extend(
                MareAction(act.INVOKE, BAAL, p, commodity)
                for i, commodity in enumerate(ICONS[p])
                if state.caravans[p] >> i & 1
            )
        # Designed: never a capital's last city.
        last = p == state.capital[owner] and state.cities[p] == 1
        if ready(state, VULCAN, seat) and state.cities[p] and not last:
            out.append(MareAction(act.INVOKE, VULCAN, p))
    return out


def invoke(state: MareData, action: MareAction) -> None:
    """Apply an ``invoke``: the targeted piece goes back to its stock."""
    god, space, extra = action.a, action.b, action.c
    _use(state, god)
    if god == POSEIDON:
        state.triremes[extra][space] -= 1
    elif god == BAAL:
        state.caravans[space] &= ~(1 << ICONS[space].index(extra))
        state.stock[CARAVAN] += 1
    else:
        state.cities[space] -= 1
        state.stock[CITY] += 1
