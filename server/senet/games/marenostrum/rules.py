"""Board queries and the arithmetic of the rules, as functions of a state.

Kept apart from the state machine so that each rule of the text has one small
function a test can call: role counts, revenue, adjacency (borders and trireme
chains), what may be built where, battle totals, losses, and the moves of the
military phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from senet.games.marenostrum import actions as act
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import (
    CITY_SITES,
    ICONS,
    LAND_NEIGHBOURS,
    PROVINCES,
    SEA_NEIGHBOURS,
    SHORES,
)
from senet.games.marenostrum.cards import (
    AUTO_SIX,
    BATTLE_BONUS,
    BREAK_SIX,
    COASTAL,
    DIE_BONUS,
    FLIGHT,
    FORTRESS_BONUS,
    GUARD,
    INCOME,
    MOVE_RANGE,
    PYRAMIDS_INDEX,
    RAID,
    ROLE_BONUS,
    SEA_SUPPORT,
    SET_BONUS,
    SILENCE,
    creature_effect,
    effects_of,
)
from senet.games.marenostrum.civilizations import CIVS, FREE_CAPITALS
from senet.games.marenostrum.commodities import CARD_TYPES, COMMODITY_TYPES, TAX
from senet.games.marenostrum.constants import (
    ARTEMIS_POWER,
    COMMERCE_ROLE,
    CONSTRUCTION,
    CREATURE_UNIT,
    FORTRESS_UNIT,
    LEGION_UNIT,
    MILITARY_ROLE,
    NOBODY,
    POLITICAL_ROLE,
    PRIEST_ROLE,
    ROLE_BONUS_NAMES,
)
from senet.games.marenostrum.tokens import CARAVAN, CITY, MARKET, TEMPLE
from senet.games.rng import Rng

if TYPE_CHECKING:
    from senet.games.marenostrum.data import MareData

A = MareAction


def _flight_reach() -> tuple[frozenset[int], ...]:
    """Per province, the provinces two spaces away over land and sea (a sea is a space
    flown over; a flight ends on land)."""
    out = []
    for p in range(PROVINCES):
        first = {*LAND_NEIGHBOURS[p], *SHORES[p]}
        second = set(first)
        for space in first:
            second.update(LAND_NEIGHBOURS[space] if space < PROVINCES else SHORES[space])
        out.append(frozenset(q for q in second if q < PROVINCES and q != p))
    return tuple(out)


#: Pegasus's reach (computed once: the map does not change).
FLIGHT_REACH = _flight_reach()
#: Per province, the other provinces on a sea it touches (Penthesilea's raids).
SAME_SEA: tuple[frozenset[int], ...] = tuple(
    frozenset(q for sea in SHORES[p] for q in SHORES[sea] if q != p) for p in range(PROVINCES)
)


def new_rng(seed: int = 0) -> Rng:
    """The match's generator (every die and shuffle comes from it)."""
    return Rng(seed)


# ------------------------------------------------------------------ counting
def caravan_count(state: MareData, province: int) -> int:
    """Caravans built in ``province``."""
    return bin(state.caravans[province]).count("1")


def role_counts(state: MareData, seat: int) -> list[int]:
    """Text criteria per role, for ``seat`` (ruling R6: buildings in provinces under
    its influence, occupied or not; every own unit on the map, triremes in port too)."""
    civ = state.civ_of[seat]
    counts = [0, 0, 0, 0]
    for p in range(PROVINCES):
        if state.influence[p] != civ:
            continue
        markets = state.markets[p]
        temples = state.temples[p]
        counts[COMMERCE_ROLE] += caravan_count(state, p) + markets
        counts[PRIEST_ROLE] += temples + markets
        counts[POLITICAL_ROLE] += state.cities[p] + temples
        counts[MILITARY_ROLE] += state.fortresses[p]
    counts[MILITARY_ROLE] += (
        sum(state.legions[civ]) + sum(state.creatures[civ]) + sum(state.triremes[civ])
    )
    for effect in effects_of(state.owned[seat], ROLE_BONUS):
        counts[ROLE_BONUS_NAMES.index(effect.arg)] += effect.amount
    return counts


def piece_counts(state: MareData, civ: int) -> list[int]:
    """Legions, creatures and fortresses of ``civ`` on the board."""
    fortresses = sum(state.fortresses[p] for p in range(PROVINCES) if state.influence[p] == civ)
    return [sum(state.legions[civ]), sum(state.creatures[civ]), fortresses]


def trireme_count(state: MareData, civ: int) -> int:
    return sum(state.triremes[civ])


def markers_on_board(state: MareData, civ: int) -> int:
    return state.influence.count(civ)


def provinces_of(state: MareData, civ: int) -> int:
    return state.influence.count(civ)


# ------------------------------------------------------------------ revenue
def claims(state: MareData, province: int) -> tuple[int, int, int, int]:
    """How an occupier's units share the province's income (ruling R10): one unit per
    city, then per caravan, then the temple and the market for the doubling.

    Returns (cities, caravans, temple doubles, market doubles) the occupier claims.
    """
    civ = state.occupier[province]
    units = state.legions[civ][province] + state.creatures[civ][province]
    cities = min(units, state.cities[province])
    units -= cities
    caravans = min(units, caravan_count(state, province))
    units -= caravans
    temple = 1 if units and state.temples[province] and cities else 0
    units -= temple
    market = 1 if units and state.markets[province] and caravans else 0
    return cities, caravans, temple, market


def revenue(state: MareData, seat: int) -> tuple[int, list[int]]:
    """Cards ``seat`` collects this commerce phase (text, Commerce A)."""
    civ = state.civ_of[seat]
    cards = [0] * CARD_TYPES
    for p in range(PROVINCES):
        owner = state.influence[p]
        occupier = state.occupier[p]
        if owner != civ and occupier != civ:
            continue
        icons = [ICONS[p][i] for i in range(len(ICONS[p])) if state.caravans[p] >> i & 1]
        cities = state.cities[p]
        tax_each = 2 if state.temples[p] else 1
        goods_each = 2 if state.markets[p] else 1
        if occupier != NOBODY:
            c_cities, c_caravans, temple, market = claims(state, p)
            if occupier == civ:
                cards[TAX] += c_cities * (2 if temple else 1)
                for card in icons[:c_caravans]:
                    cards[card] += 2 if market else 1
            if owner == civ:
                # The owner keeps what the occupier does not claim.
                cards[TAX] += (cities - c_cities) * (1 if temple else tax_each)
                for card in icons[c_caravans:]:
                    cards[card] += 1 if market else goods_each
            continue
        cards[TAX] += cities * tax_each
        for card in icons:
            cards[card] += goods_each
    for effect in effects_of(state.owned[seat], INCOME):
        if effect.arg == "tax":
            cards[TAX] += effect.amount
        elif effect.arg == "tax_per_temple":
            temples = sum(state.temples[p] for p in range(PROVINCES) if state.influence[p] == civ)
            cards[TAX] += effect.amount * temples
        elif effect.arg in ("produced", "any"):
            # Designed: the commodity of that kind the bank holds most of.
            kinds = [c for c in COMMODITY_TYPES if cards[c]] if effect.arg == "produced" else []
            kinds = kinds or list(COMMODITY_TYPES)
            best = max(kinds, key=lambda c: (state.bank[c], -c))
            cards[best] += effect.amount
    return seat, cards


# ------------------------------------------------------------------ adjacency
def chain_shores(state: MareData, civ: int, province: int) -> set[int]:
    """Provinces reachable from ``province`` along a chain of ``civ``'s triremes."""
    row = state.triremes[civ]
    seen: set[int] = set()
    frontier = [s for s in SHORES[province] if row[s]]
    while frontier:
        sea = frontier.pop()
        if sea in seen:
            continue
        seen.add(sea)
        frontier.extend(n for n in SEA_NEIGHBOURS[sea] if row[n] and n not in seen)
    out: set[int] = set()
    for sea in seen:
        out.update(SHORES[sea])
    out.discard(province)
    return out


def chain_path(state: MareData, civ: int, start: int, end: int) -> list[int]:
    """The seas of the shortest chain of ``civ``'s triremes from ``start`` to ``end``
    (the chain an invader declares for the Greek blockade)."""
    row = state.triremes[civ]
    previous: dict[int, int] = {s: -1 for s in SHORES[start] if row[s]}
    frontier = list(previous)
    while frontier:
        sea = frontier.pop(0)
        if end in SHORES[sea]:
            path = [sea]
            while previous[path[-1]] != -1:
                path.append(previous[path[-1]])
            return path[::-1]
        for n in SEA_NEIGHBOURS[sea]:
            if row[n] and n not in previous:
                previous[n] = sea
                frontier.append(n)
    return []


def neighbours(state: MareData, civ: int, province: int) -> set[int]:
    """Provinces adjacent to ``province`` for ``civ``: borders and trireme chains."""
    return set(LAND_NEIGHBOURS[province]) | chain_shores(state, civ, province)


def influence_targets(state: MareData, civ: int) -> list[int]:
    """Text: empty provinces next to one held since the start of the turn."""
    out: set[int] = set()
    for p in range(PROVINCES):
        if state.influence[p] == civ and not state.new_influence[p]:
            out.update(q for q in neighbours(state, civ, p) if state.influence[q] == NOBODY)
    return sorted(out)


def convertible(state: MareData, civ: int) -> list[int]:
    """Provinces whose conversion ``civ`` may complete: its unit sits on the marker and
    the province is next to one it has held since the start of the turn (text)."""
    out = []
    for p in range(PROVINCES):
        if state.converter[p] != civ or state.influence[p] in (NOBODY, civ):
            continue
        if any(
            state.influence[q] == civ and not state.new_influence[q]
            for q in neighbours(state, civ, p)
        ):
            out.append(p)
    return out


def free_capitals(state: MareData, civ: int) -> list[int]:
    """Free set-up: where ``civ`` may found its capital (text: Greece, Atlantis)."""
    choices = [p for p in FREE_CAPITALS[civ] if state.influence[p] == NOBODY]
    return choices or [FREE_CAPITALS[civ][0]]


def setup_area(state: MareData, civ: int) -> set[int]:
    """Free set-up: the capital and the provinces next to it (ruling R13: by border
    or across a sea the capital touches)."""
    capital = state.capital[civ]
    area = {capital, *LAND_NEIGHBOURS[capital]}
    for sea in SHORES[capital]:
        area.update(SHORES[sea])
    return area


# ------------------------------------------------------------------ battles
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


def may_exploit(state: MareData, mover: int, province: int) -> bool:
    """Text: a sole surviving invader may sack, occupy or convert an enemy province."""
    owner = state.influence[province]
    if owner in (NOBODY, mover) or civs_present(state, province) != [mover]:
        return False
    if state.occupier[province] == mover or state.converter[province] == mover:
        return False
    entered = state.moved_legions[province] or state.moved_creatures[province]
    fought = any(f // CIVS == province for f in state.fought)
    return bool(entered or fought)


def _seat_cards(state: MareData, civ: int) -> list[int]:
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

    Against ``enemy``: Circe's owner silences legions of ``civ`` (they do not roll),
    and a Behemoth standing there makes ``civ``'s fortresses and creatures roll.
    The faces rolled, in the order drawn, are appended to ``dice`` when given."""
    cards = _seat_cards(state, civ)
    legions = state.legions[civ][province]
    per_die = 0
    for effect in effects_of(cards, DIE_BONUS):
        unit, _, when = effect.arg.partition(":")
        if unit == "legion" and when in ("", "attack" if attacking else "defend"):
            per_die += effect.amount
    rolling = legions
    breaks = False
    if enemy != NOBODY:
        silenced = sum(e.amount for e in effects_of(_seat_cards(state, enemy), SILENCE))
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


def naval_total(state: MareData, civ: int, sea: int, dice: list[int] | None = None) -> int:
    """Text: a die per trireme in the sea, plus card bonuses and, beside a fleet of
    its owner, the Krakens on the shores of that sea (faces kept as battle_total's)."""
    per_die = sum(
        e.amount for e in effects_of(_seat_cards(state, civ), DIE_BONUS) if e.arg == "trireme"
    )
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


def guards_temples(state: MareData, civ: int) -> bool:
    """Antigone: ``civ``'s temples cannot be sacked, nor its temple provinces struck."""
    return any(e.arg == "temple" for e in effects_of(_seat_cards(state, civ), GUARD))


def after_battle_options(state: MareData, province: int) -> list[MareAction]:
    """Text: sack one building (never a fortress), occupy, or convert; where a Sphinx
    defended this turn, only occupy (ruling R29); Antigone's temples stand (R22)."""
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


# ------------------------------------------------------------------ moves
def move_range(state: MareData, civ: int, unit: str) -> int:
    """Spaces a ``unit`` of ``civ`` may move (1; Atlas, Jason, Ariadne: 2)."""
    return max(
        [1, *(e.amount for e in effects_of(_seat_cards(state, civ), MOVE_RANGE) if e.arg == unit)]
    )


def _within(links: tuple[tuple[int, ...], ...], start: int, steps: int) -> list[int]:
    """Spaces at most ``steps`` links from ``start`` (``start`` excluded), sorted."""
    seen = {start}
    frontier = [start]
    for _ in range(steps):
        frontier = [n for s in frontier for n in links[s] if n not in seen]
        seen.update(frontier)
    seen.discard(start)
    return sorted(seen)


def land_reach(state: MareData, civ: int, province: int) -> list[int]:
    """Provinces a legion of ``civ`` reaches from ``province`` by land borders."""
    return _within(LAND_NEIGHBOURS, province, move_range(state, civ, "legion"))


def naval_options(state: MareData, civ: int) -> list[MareAction]:
    """Launches, sea moves (each trireme once) and optional naval battles (text)."""
    row = state.triremes[civ]
    out: list[MareAction] = []
    for space, count in enumerate(row):
        if not count:
            continue
        if space < PROVINCES:
            out.extend(A(act.SAIL, space, sea) for sea in SHORES[space])
            continue
        if count > state.moved_triremes[space]:
            reach = _within(SEA_NEIGHBOURS, space, move_range(state, civ, "trireme"))
            out.extend(A(act.SAIL, space, sea) for sea in reach)
        for enemy in range(CIVS):
            if (
                enemy != civ
                and state.triremes[enemy][space]
                and space * CIVS + enemy not in state.fought
            ):
                out.append(A(act.FIGHT, space, enemy))
    return out


def sail(state: MareData, civ: int, start: int, end: int) -> None:
    state.triremes[civ][start] -= 1
    state.triremes[civ][end] += 1
    state.moved_triremes[end] += 1
    if start >= PROVINCES:
        state.moved_triremes[start] = min(state.moved_triremes[start], state.triremes[civ][start])


def raids(state: MareData, civ: int) -> bool:
    """Penthesilea: ``civ``'s legions may attack across one sea without triremes."""
    return any(e.arg == "legion" for e in effects_of(_seat_cards(state, civ), RAID))


def raid_targets(state: MareData, civ: int, province: int) -> set[int]:
    """Provinces on a sea ``province`` touches that a raid may attack: under another
    civilization's influence or holding another's ground units (ruling R26)."""
    return {
        q
        for q in SAME_SEA[province]
        if state.influence[q] not in (NOBODY, civ)
        or any(ground_units(state, other, q) for other in range(CIVS) if other != civ)
    }


def creature_targets(state: MareData, civ: int, province: int) -> list[int]:
    """Where a creature of ``civ`` may go: a Pegasus flies two spaces and is never
    carried; a Kraken keeps to coastal provinces; the rest move like legions."""
    if creature_effect(civ, FLIGHT):
        return sorted(FLIGHT_REACH[province])
    targets = neighbours(state, civ, province)
    if creature_effect(civ, COASTAL):
        return sorted(q for q in targets if SHORES[q])
    return sorted(targets)


def ground_options(state: MareData, civ: int) -> list[MareAction]:
    """Each legion and creature that has not moved may cross a border or a chain."""
    out: list[MareAction] = []
    raiding = raids(state, civ)
    for p in range(PROVINCES):
        legions = state.legions[civ][p] - state.moved_legions[p]
        creatures = state.creatures[civ][p] - state.moved_creatures[p]
        if legions <= 0 and creatures <= 0:
            continue
        if legions > 0:
            far = set(land_reach(state, civ, p)) | neighbours(state, civ, p)
            if raiding:
                far |= raid_targets(state, civ, p)
            out.extend(A(act.MOVE, 0, p, q) for q in sorted(far))
        if creatures > 0:
            out.extend(A(act.MOVE, 1, p, q) for q in creature_targets(state, civ, p))
    return out


def set_spare(owned: list[int], used: int, phase: int) -> int:
    """Cards the Temple of Artemis adds to its owner's next set of different
    commodities: once per construction phase (ruling R20)."""
    if phase != CONSTRUCTION or used & ARTEMIS_POWER:
        return 0
    return sum(e.amount for e in effects_of(owned, SET_BONUS) if e.arg == "commodity")


def march(state: MareData, civ: int, unit: int, start: int, end: int) -> None:
    if unit == 0:
        state.legions[civ][start] -= 1
        state.legions[civ][end] += 1
        state.moved_legions[end] += 1
    else:
        state.creatures[civ][start] -= 1
        state.creatures[civ][end] += 1
        state.moved_creatures[end] += 1
    refresh_control(state)


# ------------------------------------------------------------------ ranking
def rank_key(state: MareData, seat: int) -> tuple[int, int, int, int, int]:
    """Ruling R11: the winner; then heroes and wonders, provinces, roles, cities."""
    civ = state.civ_of[seat]
    cities = sum(state.cities[p] for p in range(PROVINCES) if state.influence[p] == civ)
    return (
        1 if state.winner == seat else 0,
        len([c for c in state.owned[seat] if c != PYRAMIDS_INDEX]),
        provinces_of(state, civ),
        state.roles.count(seat),
        cities,
    )


__all__ = ["CITY_SITES"]
