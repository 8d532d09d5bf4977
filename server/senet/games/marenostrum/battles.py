"""Battles as functions of a state: who fights where, the dice, losses, and control.

A battle is fought where two civilizations' ground units stand (ground) or where the
mover attacks an enemy fleet (naval); each side totals its dice and bonuses and loses a
unit per 5 points of the other side (text). The state machine that runs battles is
:mod:`~senet.games.marenostrum.military`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from senet.games.marenostrum import actions as act
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import ICONS, PROVINCES, SHORES
from senet.games.marenostrum.cards import (
    AUTO_SIX,
    BATTLE_BONUS,
    BREAK_SIX,
    DIE_BONUS,
    FORTRESS_BONUS,
    GUARD,
    SEA_SUPPORT,
    SILENCE,
    creature_effect,
    effects_of,
)
from senet.games.marenostrum.civilizations import CIVS
from senet.games.marenostrum.constants import (
    CREATURE_UNIT,
    FORTRESS_UNIT,
    LEGION_UNIT,
    NOBODY,
    SPELL_POWER,
    SPELLBOUND,
)
from senet.games.marenostrum.occupation import release
from senet.games.marenostrum.tokens import CARAVAN, CITY, MARKET, TEMPLE

if TYPE_CHECKING:
    from senet.games.marenostrum.data import MareData

A = MareAction


def ground_units(state: MareData, civ: int, province: int) -> int:
    """Legions, creatures and (for the owner) fortresses of ``civ`` in ``province``."""
    count = state.legions[civ][province] + state.creatures[civ][province]
    if state.influence[province] == civ:
        count += state.fortresses[province]
    return count


def civs_present(state: MareData, province: int) -> list[int]:
    return [c for c in range(CIVS) if ground_units(state, c, province)]


def at_war(state: MareData, province: int) -> bool:
    """Text: a province is at war while several players' units stand in it."""
    return len(civs_present(state, province)) > 1


def next_enemy(state: MareData, mover: int, province: int) -> int:
    """The next civilization ``mover`` must fight in ``province`` this turn, if any."""
    for civ in civs_present(state, province):
        if civ != mover and province * CIVS + civ not in state.fought:
            return civ
    return NOBODY


def exploiter(state: MareData, mover: int, province: int, chosen: int) -> int:
    """The sole surviving invader who now chooses to sack, occupy or convert, if any.

    Text (L147): "Only one invading player survives: The invader chooses one of three
    options". He chooses once he stands alone in the enemy province (ruling R40): at
    the end of the battle that left him alone (in the mover's turn that is the mover,
    or an invader already at war there whom the mover attacked and lost to), after he
    walked in unopposed (L137), or at the end of the ground moves that left him alone
    without a battle (the defenders withdrew, L146, or were petrified). Having chosen
    there (``chosen``: the civilization that has chosen there and stood there since),
    he is not asked again while he stands there, unless he fights there anew;
    occupying or converting there, he keeps what he chose."""
    present = civs_present(state, province)
    owner = state.influence[province]
    if len(present) != 1 or owner == NOBODY:
        return NOBODY
    civ = present[0]
    if civ == owner or state.seat_of[civ] == NOBODY:
        return NOBODY
    if state.occupier[province] == civ or state.converter[province] == civ:
        return NOBODY
    if any(f // CIVS == province for f in state.fought):
        return civ
    return civ if chosen != civ else NOBODY


def enemy_stands(state: MareData, civ: int, province: int) -> bool:
    """Whether another civilization's legions or creatures stand in ``province``.

    Text (L111): nothing is built in a province "at war" or "under military
    occupation"; an enemy unit left standing in it after the battle (on the
    marker, after a sack, or holding the buildings) is that occupation (ruling R42)."""
    return any(
        state.legions[c][province] + state.creatures[c][province] for c in range(CIVS) if c != civ
    )


def seat_cards(state: MareData, civ: int) -> list[int]:
    """The heroes and wonders of the seat playing ``civ`` (none for a neutral)."""
    seat = state.seat_of[civ]
    return state.owned[seat] if seat != NOBODY else []


def _roll(state: MareData, dice: list[int] | None) -> int:
    """One die from the match's generator, its face kept in ``dice`` when given."""
    face = state.rng.below(6) + 1
    if dice is not None:
        dice.append(face)
    return face


def battle_total(
    state: MareData,
    civ: int,
    province: int,
    attacking: bool,
    enemy: int = NOBODY,
    dice: list[int] | None = None,
) -> int:
    """Text: a die per legion, a 6 per creature and fortress, plus card bonuses.

    Against ``enemy``: Circe's spell, where her owner has cast it on this battle
    (:func:`spell_caster`), keeps legions of ``civ`` from rolling, and a Behemoth
    standing there makes ``civ``'s fortresses and creatures roll.
    The faces rolled, in the order drawn, are appended to ``dice`` when given."""
    cards = seat_cards(state, civ)
    legions = state.legions[civ][province]
    per_die = 0
    for effect in effects_of(cards, DIE_BONUS):
        unit, _, when = effect.arg.partition(":")
        if unit == "legion" and when in ("", "attack" if attacking else "defend"):
            per_die += effect.amount
    rolling = legions
    breaks = False
    if enemy != NOBODY:
        caster = state.seat_of[enemy]
        if caster != NOBODY and state.powers_used[caster] & SPELLBOUND:
            silenced = sum(e.amount for e in effects_of(state.owned[caster], SILENCE))
            rolling -= min(legions, silenced)
        breaks = bool(state.creatures[enemy][province]) and bool(creature_effect(enemy, BREAK_SIX))
    sixes = min(rolling, sum(e.amount for e in effects_of(cards, AUTO_SIX)))
    total = 6 * sixes + sum(_roll(state, dice) + per_die for _ in range(rolling - sixes))
    creatures = state.creatures[civ][province]
    fortresses = state.fortresses[province] if state.influence[province] == civ else 0
    fortress_bonus = sum(e.amount for e in effects_of(cards, FORTRESS_BONUS))
    if breaks:
        total += sum(_roll(state, dice) for _ in range(creatures))
        total += sum(_roll(state, dice) + fortress_bonus for _ in range(fortresses))
    else:
        total += 6 * creatures + (6 + fortress_bonus) * fortresses
    total += sum(e.amount for e in effects_of(cards, BATTLE_BONUS))
    return total


def spell_caster(state: MareData, mover: int, enemy: int, province: int) -> int:
    """The seat that may cast Circe's spell before the ground battle of ``mover``
    against ``enemy`` in ``province``, NOBODY if none: her owner, attacking or
    defending, once per military phase, when the other side has a legion there to
    keep from rolling (ruling R23)."""
    for civ, other in ((mover, enemy), (enemy, mover)):
        seat = state.seat_of[civ]
        if (
            seat != NOBODY
            and not state.powers_used[seat] & SPELL_POWER
            and state.legions[other][province]
            and effects_of(state.owned[seat], SILENCE)
        ):
            return seat
    return NOBODY


def naval_total(
    state: MareData, civ: int, sea: int, dice: list[int] | None = None, ships: int = -1
) -> int:
    """Text: a die per trireme in the sea, plus card bonuses and, beside a fleet of
    its owner, the Krakens on the shores of that sea (faces kept as battle_total's).

    ``ships``: only that many of ``civ``'s triremes fight (a blockaded carrier)."""
    per_die = sum(
        e.amount for e in effects_of(seat_cards(state, civ), DIE_BONUS) if e.arg == "trireme"
    )
    if ships < 0:
        ships = state.triremes[civ][sea]
    total = sum(_roll(state, dice) + per_die for _ in range(ships))
    support = creature_effect(civ, SEA_SUPPORT)
    if support and ships:
        row = state.creatures[civ]
        total += support.amount * sum(row[p] for p in SHORES[sea])
    return total


def loss_kinds(state: MareData, civ: int, province: int) -> list[int]:
    """Unit kinds ``civ`` could lose in ``province`` (the owner picks: text)."""
    out = []
    if state.legions[civ][province]:
        out.append(LEGION_UNIT)
    if state.creatures[civ][province]:
        out.append(CREATURE_UNIT)
    if state.influence[province] == civ and state.fortresses[province]:
        out.append(FORTRESS_UNIT)
    return out


def neutral_loss(kinds: list[int]) -> int:
    """Ruling R12: a neutral loses legions, then fortresses, then its creature."""
    for kind in (LEGION_UNIT, FORTRESS_UNIT, CREATURE_UNIT):
        if kind in kinds:
            return kind
    return kinds[0]


def remove_unit(state: MareData, civ: int, province: int, kind: int) -> None:
    if kind == LEGION_UNIT:
        state.legions[civ][province] -= 1
        if civ == state.civ_of[state.queue[0]] if state.queue else False:
            state.moved_legions[province] = min(
                state.moved_legions[province], state.legions[civ][province]
            )
    elif kind == CREATURE_UNIT:
        state.creatures[civ][province] -= 1
        if civ == state.civ_of[state.queue[0]] if state.queue else False:
            state.moved_creatures[province] = min(
                state.moved_creatures[province], state.creatures[civ][province]
            )
    else:
        state.fortresses[province] -= 1


def refresh_control(state: MareData) -> None:
    """Text: occupation and conversion end when the invader's units leave."""
    for p in range(PROVINCES):
        for holder in (state.occupier, state.converter):
            civ = holder[p]
            if civ != NOBODY and not (state.legions[civ][p] + state.creatures[civ][p]):
                holder[p] = NOBODY
        if state.occupier[p] == NOBODY and any(state.held[p]):
            release(state, p)


def guards_temples(state: MareData, civ: int) -> bool:
    """Antigone: ``civ``'s temples cannot be sacked, nor its temple provinces struck."""
    return any(e.arg == "temple" for e in effects_of(seat_cards(state, civ), GUARD))


def after_battle_options(state: MareData, province: int) -> list[MareAction]:
    """Text (L147: "one of three options"): sack one building (never a fortress),
    occupy, or convert, and nothing else (ruling R42); where a Sphinx defended this
    turn, only occupy (ruling R29); Antigone's temples stand (R22)."""
    out = []
    cursed = province in state.cursed
    if cursed:
        return [A(act.OCCUPY)] if state.cities[province] or state.caravans[province] else []
    if state.cities[province]:
        out.append(A(act.SACK, CITY))
    for i, commodity in enumerate(ICONS[province]):
        if state.caravans[province] >> i & 1:
            out.append(A(act.SACK, CARAVAN, commodity))
    if state.temples[province] and not guards_temples(state, state.influence[province]):
        out.append(A(act.SACK, TEMPLE))
    if state.markets[province]:
        out.append(A(act.SACK, MARKET))
    if state.cities[province] or state.caravans[province]:
        out.append(A(act.OCCUPY))
    out.append(A(act.CONVERT))
    return out


def sack(state: MareData, province: int, building: int, commodity: int) -> None:
    """Text: the destroyed building returns to the general stock."""
    if building == CARAVAN:
        state.caravans[province] &= ~(1 << ICONS[province].index(commodity))
    elif building == CITY:
        state.cities[province] -= 1
    elif building == TEMPLE:
        state.temples[province] -= 1
    else:
        state.markets[province] -= 1
    state.stock[building] += 1
