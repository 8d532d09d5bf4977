"""Board queries and the arithmetic of the rules, as functions of a state.

Kept apart from the state machine so that each rule of the text has one small
function a test can call: role counts, revenue, the ranking and the Temple of
Artemis here; battles (totals, losses, control) in :mod:`~senet.games.marenostrum.battles`
and the map's reach (borders, trireme chains, what may be placed where, the moves of
the military phase) in :mod:`~senet.games.marenostrum.reach`. Their functions are
re-exported here, so that the phases and the tests ask one namespace, ``rules``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from senet.games.marenostrum.battles import (
    after_battle_options,
    at_war,
    battle_total,
    civs_present,
    enemy_stands,
    exploiter,
    ground_units,
    guards_temples,
    loss_kinds,
    naval_total,
    neutral_loss,
    next_enemy,
    refresh_control,
    remove_unit,
    sack,
    seat_cards,
    spell_caster,
)
from senet.games.marenostrum.board import CITY_SITES, ICONS, PROVINCES
from senet.games.marenostrum.cards import (
    INCOME,
    PYRAMIDS_INDEX,
    ROLE_BONUS,
    SET_BONUS,
    effects_of,
)
from senet.games.marenostrum.commodities import CARD_TYPES, TAX
from senet.games.marenostrum.constants import (
    ARTEMIS_POWER,
    COMMERCE_ROLE,
    CONSTRUCTION,
    MILITARY_ROLE,
    NOBODY,
    POLITICAL_ROLE,
    PRIEST_ROLE,
    ROLE_BONUS_NAMES,
)
from senet.games.marenostrum.occupation import claims
from senet.games.marenostrum.reach import (
    chain_path,
    chain_shores,
    chains,
    convertible,
    creature_targets,
    free_capitals,
    ground_options,
    in_port,
    influence_targets,
    land_reach,
    march,
    move_range,
    naval_options,
    neighbours,
    raid_targets,
    raids,
    sail,
    setup_area,
)
from senet.games.rng import Rng

if TYPE_CHECKING:
    from senet.games.marenostrum.data import MareData


def new_rng(seed: int = 0) -> Rng:
    """The match's generator (every die and shuffle comes from it)."""
    return Rng(seed)


# ------------------------------------------------------------------ counting
def caravan_count(state: MareData, province: int) -> int:
    """Caravans built in ``province``."""
    return bin(state.caravans[province]).count("1")


def role_counts(state: MareData, seat: int) -> list[int]:
    """Text criteria per role, for ``seat`` (ruling R6: buildings in provinces under
    its influence marker, occupied or not, as occupying claims their income and not
    their possession; every own unit on the map, triremes in port too)."""
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
def revenue(state: MareData, seat: int) -> tuple[int, list[int]]:
    """Cards ``seat`` collects this commerce phase (text, Commerce A; ruling R36: a
    province at war pays its influence marker's owner, never its occupier)."""
    civ = state.civ_of[seat]
    cards = [0] * CARD_TYPES
    for p in range(PROVINCES):
        owner = state.influence[p]
        occupier = state.occupier[p]
        if occupier != NOBODY and at_war(state, p):
            # Text (Commerce A, After Battle 1): a province at war still pays the
            # influence marker's owner, so an occupier fought there claims nothing.
            occupier = NOBODY
        if owner != civ and occupier != civ:
            continue
        icons = [ICONS[p][i] for i in range(len(ICONS[p])) if state.caravans[p] >> i & 1]
        cities = state.cities[p]
        tax_each = 2 if state.temples[p] else 1
        goods_each = 2 if state.markets[p] else 1
        if occupier != NOBODY:
            c_cities, c_caravans, temple, market = claims(state, p)
            held = [ICONS[p][i] for i in range(len(ICONS[p])) if c_caravans >> i & 1]
            if occupier == civ:
                cards[TAX] += c_cities * (2 if temple else 1)
                for card in held:
                    cards[card] += 2 if market else 1
            if owner == civ:
                # The owner keeps what the occupier does not hold, doubled while a
                # temple (market) the occupier does not stand on is left to him: the
                # second one the Statue of Zeus allows (ruling R53).
                cards[TAX] += (cities - c_cities) * (2 if state.temples[p] > temple else 1)
                free = [card for card in icons if card not in held]
                for card in free:
                    cards[card] += 2 if state.markets[p] > market else 1
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
    return seat, cards


def set_spare(owned: list[int], used: int, phase: int) -> int:
    """Cards the Temple of Artemis adds to its owner's next set of different
    commodities: once per construction phase (ruling R20)."""
    if phase != CONSTRUCTION or used & ARTEMIS_POWER:
        return 0
    return sum(e.amount for e in effects_of(owned, SET_BONUS) if e.arg == "commodity")


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


__all__ = [
    "after_battle_options",
    "at_war",
    "battle_total",
    "caravan_count",
    "chain_path",
    "chain_shores",
    "chains",
    "civs_present",
    "claims",
    "convertible",
    "creature_targets",
    "enemy_stands",
    "exploiter",
    "free_capitals",
    "ground_options",
    "ground_units",
    "guards_temples",
    "in_port",
    "influence_targets",
    "land_reach",
    "loss_kinds",
    "march",
    "markers_on_board",
    "move_range",
    "naval_options",
    "naval_total",
    "neighbours",
    "neutral_loss",
    "new_rng",
    "next_enemy",
    "piece_counts",
    "provinces_of",
    "raid_targets",
    "raids",
    "rank_key",
    "refresh_control",
    "remove_unit",
    "revenue",
    "role_counts",
    "sack",
    "sail",
    "seat_cards",
    "set_spare",
    "setup_area",
    "spell_caster",
    "trireme_count",
]
