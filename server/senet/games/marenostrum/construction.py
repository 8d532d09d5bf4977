"""What a seat may build or buy now, and where.

The same list serves the construction step (paid in cards, see
:mod:`~senet.games.marenostrum.purchases`) and the free set-up (paid in points, only
near the capital).
"""

from __future__ import annotations

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import CITY_SITES, ICONS, PROVINCES, SHORES
from senet.games.marenostrum.cards import (
    BUILD_LIMIT,
    COASTAL,
    EXEMPT,
    PYRAMIDS_INDEX,
    creature_effect,
    effects_of,
)
from senet.games.marenostrum.constants import (
    CREATURE_UNIT,
    FORTRESS_UNIT,
    LEGION_UNIT,
    NOBODY,
    SETUP,
)
from senet.games.marenostrum.purchases import Purchases
from senet.games.marenostrum.tokens import (
    BUY_ITEM,
    CARAVAN,
    CARAVAN_ITEM,
    CITY,
    CITY_ITEM,
    CONVERT_ITEM,
    CREATURE,
    FORTRESS,
    HERO_COST,
    INFLUENCE,
    ITEM_COST,
    ITEMS,
    LEGION,
    MARKET,
    MARKET_ITEM,
    MAX_CREATURES,
    MAX_FORTRESSES,
    MAX_INFLUENCE,
    MAX_LEGIONS,
    MAX_TRIREMES,
    TEMPLE,
    TEMPLE_ITEM,
    TRIREME,
)

A = MareAction

#: The items a province holds one of at most, unless a card lifts the limit (L109).
LIMITED_ITEMS = (TEMPLE_ITEM, MARKET_ITEM, FORTRESS)


def build_limits(owned: list[int]) -> dict[int, int]:
    """How many temples, markets and fortresses (by item) one province may hold for the
    owner of the cards ``owned``.

    Text (L109): "Players cannot build ... more than one temple, market, or fortress
    per province (except with Statue of Zeus)"; how far a card lifts a limit is its
    ``build_limit`` effect (ruling R53)."""
    return {
        item: max([1, *(e.amount for e in effects_of(owned, BUILD_LIMIT) if e.arg == ITEMS[item])])
        for item in LIMITED_ITEMS
    }


class Construction(Purchases):
    """The ``build``, ``buy`` and ``convert`` choices a seat can afford and place."""

    def can_place(self, civ: int, province: int, war_ok: bool = False) -> bool:
        """Text (L106-L111): own influence, not placed this turn, not at war nor under
        military occupation (the capital excepted).

        The capital founded in a round of the free set-up takes buildings in that round
        (ruling R37), though it is no base for influence until the next (L107). An
        enemy unit standing in the province, alone or fighting, stops building there
        whatever it chose after its battle (ruling R42). ``war_ok``: Moses's owner
        builds in its provinces at war too, where its own units still fight, but not in
        occupied or converting ones (ruling R25)."""
        if self.influence[province] != civ:
            return False
        if self.new_influence[province] and not (
            self.phase == SETUP and province == self.capital[civ]
        ):
            return False
        if province == self.capital[civ]:
            return True
        if self.occupier[province] not in (NOBODY, civ):
            return False
        if self.converter[province] not in (NOBODY, civ):
            return False
        if not rules.enemy_stands(self, civ, province):
            return True
        return war_ok and rules.at_war(self, province)

    def build_options(self, seat: int) -> list[MareAction]:
        """Every ``build``, ``buy`` and ``convert`` ``seat`` can afford and place now."""
        civ = self.civ_of[seat]
        out: list[MareAction] = []
        setup = self.phase == SETUP

        # Whether an item is affordable does not depend on the province, and whether
        # a cost can be paid not on the item: each is worked out once per call, not
        # once per province or card.
        known: dict[tuple[int, int], bool] = {}
        payable: dict[int, bool] = {}

        def affordable(item: int, card: int = -1) -> bool:
            answer = known.get((item, card))
            if answer is None:
                if setup:
                    answer = (
                        ITEM_COST[item] <= self.points_left
                        if item < BUY_ITEM
                        else (self.points_left >= HERO_COST)
                    )
                else:
                    cost = self.cost(seat, item, card)
                    answer = payable.get(cost)
                    if answer is None:
                        answer = payable[cost] = self.can_pay(seat, cost)
                known[item, card] = answer
            return answer

        if setup and self.influence[self.capital[civ]] != civ:
            if affordable(INFLUENCE):
                return [A(act.BUILD, INFLUENCE, self.capital[civ])]
            return []
        allowed = rules.setup_area(self, civ) if setup else None
        if affordable(INFLUENCE) and rules.markers_on_board(self, civ) < MAX_INFLUENCE:
            for province in rules.influence_targets(self, civ):
                if allowed is None or province in allowed:
                    out.append(A(act.BUILD, INFLUENCE, province))
        limits = build_limits(self.owned[seat])
        counts = rules.piece_counts(self, civ)
        war_ok = any(e.arg == "at_war" for e in effects_of(self.owned[seat], EXEMPT))
        coastal = creature_effect(civ, COASTAL) is not None
        for province in range(PROVINCES):
            if not self.can_place(civ, province, war_ok):
                continue
            if allowed is not None and province not in allowed:
                continue
            if (
                self.cities[province] < CITY_SITES[province]
                and self.stock[CITY]
                and affordable(CITY_ITEM)
            ):
                out.append(A(act.BUILD, CITY_ITEM, province))
            if self.stock[CARAVAN] and affordable(CARAVAN_ITEM):
                for i, commodity in enumerate(ICONS[province]):
                    if not self.caravans[province] >> i & 1:
                        out.append(A(act.BUILD, CARAVAN_ITEM, province, commodity))
            if (
                self.temples[province] < limits[TEMPLE_ITEM]
                and self.stock[TEMPLE]
                and affordable(TEMPLE_ITEM)
            ):
                out.append(A(act.BUILD, TEMPLE_ITEM, province))
            if (
                self.markets[province] < limits[MARKET_ITEM]
                and self.stock[MARKET]
                and affordable(MARKET_ITEM)
            ):
                out.append(A(act.BUILD, MARKET_ITEM, province))
            if (
                self.fortresses[province] < limits[FORTRESS]
                and counts[FORTRESS_UNIT] < MAX_FORTRESSES
                and affordable(FORTRESS)
            ):
                out.append(A(act.BUILD, FORTRESS, province))
            units_here = not setup or province == self.capital[civ]
            if units_here and counts[LEGION_UNIT] < MAX_LEGIONS and affordable(LEGION):
                out.append(A(act.BUILD, LEGION, province))
            if (
                units_here
                and SHORES[province]
                and rules.trireme_count(self, civ) < MAX_TRIREMES
                and affordable(TRIREME)
            ):
                out.append(A(act.BUILD, TRIREME, province))
            if (
                units_here
                and counts[CREATURE_UNIT] < MAX_CREATURES
                and (SHORES[province] or not coastal)
                and affordable(CREATURE)
            ):
                out.append(A(act.BUILD, CREATURE, province))
        if setup:
            hero = civ
            if hero not in self.owned[seat] and self.points_left >= HERO_COST:
                out.append(A(act.BUY, hero))
            return out
        if rules.markers_on_board(self, civ) < MAX_INFLUENCE and self.can_pay(
            seat, self.cost(seat, CONVERT_ITEM)
        ):
            for province in rules.convertible(self, civ):
                out.append(A(act.CONVERT, province))
        # The civilization's own hero, when the free set-up left it unbought (ruling
        # R60: L86 "purchase Heroes"; no rule takes it out of the game).
        own_hero = [] if civ in self.owned[seat] else [civ]
        for card in [*own_hero, *self.available, PYRAMIDS_INDEX]:
            if affordable(BUY_ITEM, card):
                out.append(A(act.BUY, card))
        return out
