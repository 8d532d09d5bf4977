"""Purchases and their payment: builds, heroes and wonders, conversions, gods.

Everything bought with cards goes the same way: :meth:`Purchases._start_purchase`
notes the purchase and its cost, the ``pay`` step takes one card at a time (a set of
tax cards or of different commodities), and :meth:`Purchases._complete_purchase`
delivers it. Heroes, wonders, a conversion and a god are not in ``ITEMS``: they are
paid as the pseudo items ``BUY_ITEM``, ``CONVERT_ITEM`` and ``GOD_ITEM``.
"""

from __future__ import annotations

from senet.games.marenostrum.board import ICONS, SPACE_IDS
from senet.games.marenostrum.cards import (
    FREE_BUILD,
    GODS,
    OWNABLE_IDS,
    PYRAMIDS_INDEX,
    SET_HELPERS,
    effects_of,
)
from senet.games.marenostrum.civilizations import CIV_IDS
from senet.games.marenostrum.commodities import CARD_NAMES, COMMODITY_TYPES, TAX
from senet.games.marenostrum.constants import ARTEMIS_POWER, BUILD, CONSTRUCTION, NOBODY, OVER, PAY
from senet.games.marenostrum.occupation import release
from senet.games.marenostrum.tokens import (
    BUY_ITEM,
    CARAVAN,
    CARAVAN_ITEM,
    CITY,
    CITY_ITEM,
    CONVERT_ITEM,
    CREATURE,
    FORTRESS,
    GOD_ITEM,
    INFLUENCE,
    ITEMS,
    LEGION,
    MARKET,
    MARKET_ITEM,
    TEMPLE,
    TEMPLE_ITEM,
    TRIREME,
)
from senet.games.marenostrum.turns import TurnOrder


class Purchases(TurnOrder):
    """Paying for a purchase card by card, and delivering it (the win may follow)."""

    def _start_purchase(self, seat: int, item: int, a: int, b: int, c: int) -> None:
        """Buy at the offering or construction step: pay now, or at once when free.

        The set-up never comes here: its builds spend points (``_setup_build``)."""
        cost = self.cost(seat, item, a)
        free = self.free_item(seat, item)
        if free >= 0:
            self.free_left[seat][free] -= 1
        self.purchase = [item, a, b, c]
        self.pay_left = cost
        self.pay_mask = 0
        if cost == 0:
            self._complete_purchase()
        else:
            self.step = PAY

    def pay_options(self) -> list[tuple[int, int]]:
        """What ``actor`` may pay next: ``(card, helper)``, the set staying completable.

        Commodities are paid in rising order. ``helper`` is -1, or the card that counts
        as one more card of a set of commodities it begins (the Temple of Artemis,
        ruling R20): its owner chooses the set it helps."""
        hand = self.hands[self.actor]
        left = self.pay_left
        mask = self.pay_mask
        if mask == 1:
            return [(TAX, -1)]
        out = []
        if mask == 0 and hand[TAX] >= left:
            out.append((TAX, -1))
        last = mask.bit_length() - 1 if mask else 0
        higher = [t for t in COMMODITY_TYPES if t > last and hand[t]]
        out.extend((card, -1) for i, card in enumerate(higher) if len(higher) - i >= left)
        spare = self._set_help()
        if spare:
            helper = next(c for c in self.owned[self.actor] if c in SET_HELPERS)
            out.extend(
                (card, helper) for i, card in enumerate(higher) if len(higher) - i + spare >= left
            )
        return out

    def _set_help(self) -> int:
        """Cards the Temple of Artemis can count in the set being paid: none once the
        set has begun, and never the whole set (ruling R20)."""
        if self.pay_mask:
            return 0
        return min(self.set_spare(self.actor), self.pay_left - 1)

    def _pay(self, card: int, helper: int = -1) -> None:
        seat = self.actor
        self.hands[seat][card] -= 1
        self.bank[card] += 1
        if helper >= 0:
            self.pay_left -= self._set_help()
            self.powers_used[seat] |= ARTEMIS_POWER
            self.emit("card_power", seat=seat, card=OWNABLE_IDS[helper])
        self.pay_mask |= 1 if card == TAX else 1 << card
        self.pay_left -= 1
        if self.pay_left == 0:
            self._complete_purchase()

    def _complete_purchase(self) -> None:
        seat = self.actor
        civ = self.civ_of[seat]
        item, a, b, c = self.purchase
        self.purchase = []
        self.pay_mask = 0
        if item == GOD_ITEM:
            self.god_holder[a] = seat
            self.emit("offering", seat=seat, god=GODS[a].id)
            self._next_player()
            return
        if item == BUY_ITEM:
            self.owned[seat] = sorted([*self.owned[seat], a])
            if a in self.available:
                self.available.remove(a)
            self.emit("bought", seat=seat, card=OWNABLE_IDS[a])
            if self.phase == CONSTRUCTION:
                # Text (L112): "Advantages from a Hero or Wonder are conferred
                # immediately upon purchase": this phase's free builds too.
                self._grant_free_builds(seat, effects_of([a], FREE_BUILD))
            self._check_victory(seat, a)
        elif item == CONVERT_ITEM:
            old = self.influence[a]
            self.influence[a] = civ
            self.converter[a] = NOBODY
            self.occupier[a] = NOBODY
            release(self, a)
            self.new_influence[a] = 1
            self.emit("converted", seat=seat, province=SPACE_IDS[a], previous=CIV_IDS[old])
        else:
            self._place_item(civ, item, b, c)
        if self.step != OVER:
            self.step = BUILD

    def _place_item(self, civ: int, item: int, province: int, commodity: int) -> None:
        if item == INFLUENCE:
            self.influence[province] = civ
            self.new_influence[province] = 1
        elif item == CITY_ITEM:
            self._add_building(province, CITY)
        elif item == CARAVAN_ITEM:
            self.caravans[province] |= 1 << ICONS[province].index(commodity)
            self.stock[CARAVAN] -= 1
        elif item == TEMPLE_ITEM:
            self._add_building(province, TEMPLE)
        elif item == MARKET_ITEM:
            self._add_building(province, MARKET)
        elif item == FORTRESS:
            self.fortresses[province] += 1
        elif item == LEGION:
            self.legions[civ][province] += 1
        elif item == TRIREME:
            self.triremes[civ][province] += 1
        elif item == CREATURE:
            self.creatures[civ][province] += 1
        self.emit(
            "built",
            seat=self.seat_of[civ],
            item=ITEMS[item],
            province=SPACE_IDS[province],
            commodity=CARD_NAMES[commodity] if commodity >= 0 else None,
        )

    def _check_victory(self, seat: int, card: int) -> None:
        """Text: the Pyramids, or 4 heroes and/or wonders (5 in the long game), at once."""
        heroes = sum(1 for c in self.owned[seat] if c != PYRAMIDS_INDEX)
        if card == PYRAMIDS_INDEX:
            self._finish(seat, "pyramids")
        elif heroes >= self.victory_cards():
            self._finish(seat, "heroes_and_wonders")
