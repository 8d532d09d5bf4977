"""Heroes' and wonders' powers a seat plays as actions: Cleopatra, Midas, Medusa.

Each is once per phase (the ``*_POWER`` bits of ``powers_used``). Powers that only
change a number (costs, dice, revenue) live in the rules where the number is used;
the gods' powers are in :mod:`~senet.games.marenostrum.gods`.
"""

from __future__ import annotations

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import PROVINCES, SPACE_IDS
from senet.games.marenostrum.cards import EXCHANGE, PETRIFY, effects_of
from senet.games.marenostrum.civilizations import CIV_IDS, CIVS
from senet.games.marenostrum.commodities import COMMODITY_TYPES, TAX
from senet.games.marenostrum.constants import (
    CLEOPATRA_POWER,
    LEGION_UNIT,
    MEDUSA_POWER,
    MIDAS_POWER,
)
from senet.games.marenostrum.data import MareData

A = MareAction


class CardPowers(MareData):
    """The ``swap``, ``gild`` and ``gaze`` choices and what they do."""

    def power_options(self, seat: int) -> list[MareAction]:
        """Cleopatra's swap and Midas's gilding, once each per construction phase."""
        out: list[MareAction] = []
        hand, bank, used = self.hands[seat], self.bank, self.powers_used[seat]
        for effect in effects_of(self.owned[seat], EXCHANGE):
            if effect.arg == "swap" and not used & CLEOPATRA_POWER:
                if bank[TAX]:
                    out.extend(A(act.SWAP, c, TAX) for c in COMMODITY_TYPES if hand[c])
                if hand[TAX]:
                    out.extend(A(act.SWAP, TAX, c) for c in COMMODITY_TYPES if bank[c])
            elif effect.arg == "gild" and not used & MIDAS_POWER and bank[TAX] >= effect.amount:
                out.extend(A(act.GILD, c) for c in COMMODITY_TYPES if hand[c])
        return out

    def gild_amount(self, seat: int) -> int:
        """Tax cards Midas's touch gives ``seat`` for one commodity."""
        return max(
            [0, *(e.amount for e in effects_of(self.owned[seat], EXCHANGE) if e.arg == "gild")]
        )

    def gaze_options(self, seat: int) -> list[MareAction]:
        """Medusa: an enemy legion where ``seat``'s units stand, never in the legion's
        own capital, once per military phase (ruling R24)."""
        civ = self.civ_of[seat]
        if self.powers_used[seat] & MEDUSA_POWER or not effects_of(self.owned[seat], PETRIFY):
            return []
        out: list[MareAction] = []
        for p in range(PROVINCES):
            if not rules.ground_units(self, civ, p):
                continue
            out.extend(
                A(act.GAZE, p, enemy)
                for enemy in range(CIVS)
                if enemy != civ and self.legions[enemy][p] and p != self.capital[enemy]
            )
        return out

    def _gaze(self, seat: int, province: int, enemy: int) -> None:
        self.powers_used[seat] |= MEDUSA_POWER
        rules.remove_unit(self, enemy, province, LEGION_UNIT)
        rules.refresh_control(self)
        self.emit("petrified", seat=seat, province=SPACE_IDS[province], civ=CIV_IDS[enemy])

    def _exchange(self, seat: int, change: dict[int, int], power: int, name: str) -> None:
        for card, delta in change.items():
            self.hands[seat][card] += delta
            self.bank[card] -= delta
        self.powers_used[seat] |= power
        self.emit("card_power", seat=seat, card=name)

    def _swap(self, seat: int, give: int, get: int) -> None:
        """Cleopatra: one card of the hand for one of the bank, tax for a commodity or back."""
        self._exchange(seat, {give: -1, get: 1}, CLEOPATRA_POWER, "cleopatra")

    def _gild(self, seat: int, card: int) -> None:
        """Midas: a commodity of the hand for tax cards of the bank."""
        self._exchange(seat, {card: -1, TAX: self.gild_amount(seat)}, MIDAS_POWER, "midas")
