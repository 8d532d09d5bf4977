"""The turn's frame: the role step, and the phases played seat by seat in an order.

A turn starts with the role step (roles follow the building counts; a holder tied by
others hands the role on), then commerce, offerings, construction and the military
phase. The last three are played one seat at a time, in the order the role holder
of the phase chooses (the ``order`` step); :meth:`TurnOrder._begin_player` prepares
each seat's part and :meth:`TurnOrder._next_player` hands over to the next.
"""

from __future__ import annotations

from abc import abstractmethod

from senet.games.marenostrum import gods, rules
from senet.games.marenostrum.board import PROVINCES, SPACE_IDS, SPACES
from senet.games.marenostrum.cards import (
    FREE_BUILD,
    GODS,
    KEEP_TAX_EFFECT,
    MYTHOLOGY_HANNIBAL,
    OWNABLE_IDS,
    Effect,
    effects_of,
)
from senet.games.marenostrum.commodities import CARD_TYPES, TAX
from senet.games.marenostrum.constants import (
    BUILD,
    CONSTRUCTION,
    KEEP,
    MILITARY,
    NAVAL,
    NOBODY,
    OFFERING,
    OFFERINGS,
    ORDER,
    PHASE_NAMES,
    PHASE_ROLE,
    ROLE_GOD,
    ROLE_IDS,
    ROLE_TIE,
    SPELL_POWER,
)
from senet.games.marenostrum.data import MareData
from senet.games.marenostrum.tokens import ITEMS, KEEP_TAX

HANNIBAL = OWNABLE_IDS.index("hannibal")


class TurnOrder(MareData):
    """The role step and the ordered phases; commerce comes in between (a hook)."""

    def _start_turn(self) -> None:
        self.turn += 1
        limit = int(self.options.get("turn_limit", 0))
        if limit and self.turn > limit:
            self._finish(NOBODY, "turn_limit")
            return
        self.emit("turn_started", turn=self.turn)
        if self.turn > 1:
            self.role_index = 0
            self.ishtar_role = NOBODY
            holder = gods.ishtar_holder(self)
            if holder != NOBODY:
                # Ishtar's holder decides before the roles move (ruling R18).
                self.step = ROLE_GOD
                self.actor = holder
                return
            self._settle_roles()
            return
        self._start_commerce()

    def _settle_roles(self) -> None:
        """Reassign the roles (after Ishtar's holder has decided), then commerce."""
        if not self._reassign_roles():
            self._start_commerce()

    @abstractmethod
    def _start_commerce(self) -> None:
        """Begin the commerce phase once the roles are settled
        (:class:`~senet.games.marenostrum.commerce.Commerce`)."""

    def _reassign_roles(self) -> bool:
        """Text: the holder keeps a role on a tie; among tied others the holder picks.

        Returns True when the holder must pick (a ``role_tie`` decision)."""
        while self.role_index < len(ROLE_IDS):
            role = self.role_index
            holder = self.roles[role]
            counts = [self.role_count(s, role) for s in range(self.seat_count)]
            best = max(counts)
            if counts[holder] < best:
                tied = [s for s in range(self.seat_count) if counts[s] == best]
                if len(tied) > 1:
                    self.step = ROLE_TIE
                    self.actor = holder
                    return True
                self._give_role(role, tied[0])
            self.role_index += 1
        return False

    def role_tie_candidates(self) -> list[int]:
        """Seats tied for the role the holder is handing on."""
        role = self.role_index
        counts = [self.role_count(s, role) for s in range(self.seat_count)]
        return [s for s in range(self.seat_count) if counts[s] == max(counts)]

    def role_count(self, seat: int, role: int) -> int:
        """The role criterion of ``seat``, with Ishtar's +2 where she was used."""
        bonus = (
            gods.ISHTAR_BONUS
            if role == self.ishtar_role and (self.god_holder[gods.ISHTAR] == seat)
            else 0
        )
        return rules.role_counts(self, seat)[role] + bonus

    def _give_role(self, role: int, seat: int) -> None:
        if self.roles[role] != seat:
            self.roles[role] = seat
            self.emit("role_changed", role=ROLE_IDS[role], seat=seat)

    def _grant_role(self, seat: int) -> None:
        """The holder of a tied role hands it to ``seat``; the role step goes on."""
        self._give_role(self.role_index, seat)
        self.role_index += 1
        if not self._reassign_roles():
            self._start_commerce()

    def _start_phase(self, phase: int) -> None:
        """Start a phase whose order a role holder chooses, seat by seat."""
        self.phase = phase
        self.queue = []
        self.unordered = list(range(self.seat_count))
        if phase == MILITARY:
            self.powers_used = [used & ~SPELL_POWER for used in self.powers_used]
        self._order_next()

    def _order_next(self) -> None:
        if len(self.unordered) > 1:
            self.step = ORDER
            self.actor = self.roles[PHASE_ROLE[self.phase]]
            return
        self.queue += self.unordered
        self.unordered = []
        self.emit("order", phase=PHASE_NAMES[self.phase], seats=list(self.queue))
        self._begin_player()

    def _place_in_order(self, seat: int) -> None:
        """The role holder puts ``seat`` next in this phase's order."""
        self.unordered.remove(seat)
        self.queue.append(seat)
        self._order_next()

    def _begin_player(self) -> None:
        """The first seat of the queue plays its part of the phase."""
        if not self.queue:
            self._end_phase()
            return
        seat = self.queue[0]
        self.actor = seat
        if self.phase == OFFERINGS:
            self.step = OFFERING
        elif self.phase == CONSTRUCTION:
            self.step = BUILD
            self.powers_used[seat] = 0
            free = effects_of(self.owned[seat], FREE_BUILD)
            if self.options.get("mythology_hannibal") and HANNIBAL in self.owned[seat]:
                free.append(MYTHOLOGY_HANNIBAL)
            self._grant_free_builds(seat, free)
        else:
            self.step = NAVAL
            self.powers_used[seat] &= SPELL_POWER
            self.moved_legions = [0] * PROVINCES
            self.moved_creatures = [0] * PROVINCES
            self.moved_triremes = [0] * SPACES
            self.fought = []
            self.cursed = []

    def _grant_free_builds(self, seat: int, effects: list[Effect]) -> None:
        """Add the free builds of ``effects`` to ``seat``'s this construction phase."""
        for effect in effects:
            self.free_left[seat][ITEMS.index(effect.arg)] += effect.amount

    def _next_player(self) -> None:
        seat = self.queue.pop(0)
        self.free_left[seat] = [0] * len(ITEMS)
        self._begin_player()

    def _end_phase(self) -> None:
        if self.phase == OFFERINGS:
            self._start_construction()
        elif self.phase == CONSTRUCTION:
            self._discard()
            self._lapse_conversions()
            self._keep_next()
        else:
            self._start_turn()

    def _lapse_conversions(self) -> None:
        """Text: a conversion is completed "During the next building phase" or not at
        all. Conversions start only after battles, so every one still standing when a
        construction phase ends has had its building phase (ruling R41); the unit on
        the marker stays where it is."""
        for province, civ in enumerate(self.converter):
            if civ == NOBODY:
                continue
            self.converter[province] = NOBODY
            self.emit(
                "conversion_lapsed",
                seat=self.seat_of[civ],
                province=SPACE_IDS[province],
            )

    def _start_offerings(self) -> None:
        # Text: every god goes back to the heavens when an offering phase begins.
        self.god_holder = [NOBODY] * len(GODS)
        self.god_used = [0] * len(GODS)
        self._start_phase(OFFERINGS)

    def _start_construction(self) -> None:
        self.new_influence = [0] * PROVINCES
        self._start_phase(CONSTRUCTION)

    def _discard(self) -> None:
        """Text (L95): "All Commodity Cards not used to make sets must be discarded at
        the end of the Construction Phase. Players may keep two Tax Cards" (Solomon 5):
        what is over the limit goes back now; what to keep of the rest is each
        player's choice (the ``keep`` step, ruling R48)."""
        self.queue = []
        for seat in range(self.seat_count):
            keep = max(
                [KEEP_TAX, *(e.amount for e in effects_of(self.owned[seat], KEEP_TAX_EFFECT))]
            )
            hand = self.hands[seat]
            for card in range(CARD_TYPES):
                back = hand[card] - keep if card == TAX else hand[card]
                if back > 0:
                    hand[card] -= back
                    self.bank[card] += back
            if hand[TAX]:
                self.queue.append(seat)

    def _keep_next(self) -> None:
        """The next player holding tax cards chooses how many to keep; once nobody is
        left to choose, the military phase begins."""
        if self.queue:
            self.step = KEEP
            self.actor = self.queue[0]
            return
        self._start_phase(MILITARY)

    def keep_options(self, seat: int) -> list[int]:
        """Cards ``seat`` may give back before keeping the rest: a tax card, if held."""
        return [TAX] if self.hands[seat][TAX] else []

    def _give_back(self, seat: int, card: int) -> None:
        """``seat`` gives ``card`` back to the bank instead of keeping it (ruling R48);
        public, as every payment is: hand sizes and the bank are public."""
        self.hands[seat][card] -= 1
        self.bank[card] += 1
        if not self.hands[seat][TAX]:
            self._kept()

    def _kept(self) -> None:
        """The player to choose keeps what he holds; the next one chooses."""
        self.queue.pop(0)
        self._keep_next()
