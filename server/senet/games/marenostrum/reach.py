"""The map's reach as functions of a state: borders, trireme chains and moves.

Where a civilization may place influence or convert, which provinces a trireme
chain links, and the moves of the military phase (sailing, marching, raids and
flights).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from senet.games.marenostrum import actions as act
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.battles import (
    at_war,
    enemy_stands,
    ground_units,
    refresh_control,
    seat_cards,
)
from senet.games.marenostrum.board import LAND_NEIGHBOURS, PROVINCES, SEA_NEIGHBOURS, SHORES
from senet.games.marenostrum.cards import (
    COASTAL,
    FLIGHT,
    MOVE_RANGE,
    RAID,
    creature_effect,
    effects_of,
)
from senet.games.marenostrum.civilizations import CIVS, FREE_CAPITALS
from senet.games.marenostrum.constants import NOBODY

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


def chains(state: MareData, civ: int, start: int, end: int) -> list[list[int]]:
    """Every chain of ``civ``'s triremes from ``start`` to ``end``: seas in order, each
    holding one of its triremes, the first on ``start``'s shore and the last the first
    on ``end``'s (no chain runs on past a sea that already reaches ``end``, nor comes
    back to ``start``'s shore)."""
    row = state.triremes[civ]
    out: list[list[int]] = []

    def walk(path: list[int]) -> None:
        if end in SHORES[path[-1]]:
            out.append(list(path))
            return
        for sea in SEA_NEIGHBOURS[path[-1]]:
            if row[sea] and sea not in path and start not in SHORES[sea]:
                path.append(sea)
                walk(path)
                path.pop()

    for sea in SHORES[start]:
        if row[sea]:
            walk([sea])
    return out


def neighbours(state: MareData, civ: int, province: int) -> set[int]:
    """Provinces adjacent to ``province`` for ``civ``: borders and trireme chains."""
    return set(LAND_NEIGHBOURS[province]) | chain_shores(state, civ, province)


def is_base(state: MareData, civ: int, province: int) -> bool:
    """Whether ``province`` is one ``civ`` controls for L107 ("adjacent to a province
    already controlled at the beginning of the turn", ruling R51): under its influence
    since the turn began and not occupied by another civilization, whose occupation
    lasts until "Control reverts to the legitimate owner when invader units leave"
    (L149)."""
    return (
        state.influence[province] == civ
        and not state.new_influence[province]
        and state.occupier[province] in (NOBODY, civ)
    )


def influence_targets(state: MareData, civ: int) -> list[int]:
    """Text (L107): free provinces next to one controlled since the start of the turn
    (:func:`is_base`).

    A marker is built (L108), so none goes where L111 forbids building: "at war or
    under military occupation", that is where another civilization's legions or
    creatures stand (ruling R47)."""
    out: set[int] = set()
    for p in range(PROVINCES):
        if is_base(state, civ, p):
            out.update(
                q
                for q in neighbours(state, civ, p)
                if state.influence[q] == NOBODY and not enemy_stands(state, civ, q)
            )
    return sorted(out)


def convertible(state: MareData, civ: int) -> list[int]:
    """Provinces whose conversion ``civ`` may complete: its unit sits on the marker, the
    province is next to one it controls since the start of the turn (:func:`is_base`),
    and it is not at war (L150: "respecting normal construction rules (province must
    be adjacent to empire, cost paid)", and nothing is built at war)."""
    out = []
    for p in range(PROVINCES):
        if state.converter[p] != civ or state.influence[p] in (NOBODY, civ):
            continue
        if at_war(state, p):
            continue
        if any(is_base(state, civ, q) for q in neighbours(state, civ, p)):
            out.append(p)
    return out


def free_capitals(state: MareData, civ: int) -> list[int]:
    """Free set-up: where ``civ`` may found its capital (text: Greece, Atlantis)."""
    choices = [p for p in FREE_CAPITALS[civ] if state.influence[p] == NOBODY]
    return choices or [FREE_CAPITALS[civ][0]]


def setup_area(state: MareData, civ: int) -> set[int]:
    """Free set-up: the capital and the provinces sharing a border with it (text:
    "Capital Provinces and immediately adjacent provinces"; ruling R13: adjacent by
    a border, as everywhere in the text, never across a sea)."""
    capital = state.capital[civ]
    return {capital, *LAND_NEIGHBOURS[capital]}


def move_range(state: MareData, civ: int, unit: str) -> int:
    """Spaces a ``unit`` of ``civ`` may move (1; Atlas, Jason, Ariadne: 2)."""
    return max(
        [1, *(e.amount for e in effects_of(seat_cards(state, civ), MOVE_RANGE) if e.arg == unit)]
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
    """Provinces a legion of ``civ`` reaches from ``province`` by land borders.

    With Ariadne's two provinces, the legion passes only through a province where no
    other civilization's ground units or fortress stand: L130, ground units "MUST
    fight when in a space occupied by opposing units", so it stops there (ruling R35).
    """
    seen = {province}
    frontier = [province]
    for step in range(move_range(state, civ, "legion")):
        frontier = [
            n
            for s in frontier
            if step == 0 or not any(ground_units(state, o, s) for o in range(CIVS) if o != civ)
            for n in LAND_NEIGHBOURS[s]
            if n not in seen
        ]
        seen.update(frontier)
    seen.discard(province)
    return sorted(seen)


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


def in_port(state: MareData, civ: int) -> bool:
    """Whether ``civ`` has a trireme built and not launched yet.

    Text: "Triremes just constructed move to an adjacent sea space" (L124) "during
    the Military Phase" (L110): the launch is part of the owner's next naval moves,
    not a choice (ruling R43), so its naval moves do not end while one is in port."""
    return any(state.triremes[civ][p] for p in range(PROVINCES))


def sail(state: MareData, civ: int, start: int, end: int) -> None:
    state.triremes[civ][start] -= 1
    state.triremes[civ][end] += 1
    state.moved_triremes[end] += 1
    if start >= PROVINCES:
        state.moved_triremes[start] = min(state.moved_triremes[start], state.triremes[civ][start])


def raids(state: MareData, civ: int) -> bool:
    """Penthesilea: ``civ``'s legions may attack across one sea without triremes."""
    return any(e.arg == "legion" for e in effects_of(seat_cards(state, civ), RAID))


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
