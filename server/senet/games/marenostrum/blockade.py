"""The Greek blockade: a crossing into a Greek province may be attacked at sea.

Text (L154): an attack on a Greek province across the sea must "specify units and
triremes": the attacker chooses the chain among his own (``via``, sea by sea, only
where the choice changes which Greek ships can attack it) and the units (``move``,
then ``done``) in the ``declare`` step; the Greek player may then attack the carrying
trireme in each sea of the chain where he has one too (``blockade``). A sunk carrier
sends the units back; otherwise the move goes on.

Every crossing by a chain of triremes, the blockaded one included once Greece has
answered, waits before it lands on Poseidon's holder where he may sink one of its
carriers (``sea_god``, ruling R56): a carrier sunk by him breaks it as a blockade does.
Before each attack of Greece's, too, he may sink a trireme of an enemy of his there
(``naval_god``, ruling R57).
"""

from __future__ import annotations

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import gods, rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import LAND_NEIGHBOURS, SHORES, SPACE_IDS
from senet.games.marenostrum.cards import FLIGHT, creature_effect
from senet.games.marenostrum.civilizations import GREECE
from senet.games.marenostrum.constants import (
    BLOCKADE,
    DECLARE,
    GROUND,
    NAVAL_GOD,
    NOBODY,
    SEA_GOD,
)
from senet.games.marenostrum.military import Military

A = MareAction


class GreekBlockade(Military):
    """Declaring a crossing the Greek player may attack, and his sea battles."""

    def _carrying_chains(self, civ: int, unit: int, start: int, end: int) -> list[list[int]]:
        """The chains of ``civ``'s triremes a ground move of ``unit`` from ``start`` to
        ``end`` crosses by (none when it goes by land, raids or flies)."""
        if end in LAND_NEIGHBOURS[start] or (
            unit == 0 and end in rules.land_reach(self, civ, start)
        ):
            return []
        # Neither a raid (no ships) nor a flight (never carried) crosses by trireme.
        if unit == 0 and rules.raids(self, civ) and end in rules.raid_targets(self, civ, start):
            return []
        if unit == 1 and creature_effect(civ, FLIGHT):
            return []
        return rules.chains(self, civ, start, end)

    def _ground_move(self, seat: int, action: MareAction) -> None:
        """A ground move of the mover: declared where Greece may blockade it, else a
        crossing by sea Poseidon's holder may break (ruling R56), else a march."""
        if self._blockade_starts(seat, action):
            return
        unit, start, end = action.a, action.b, action.c
        civ = self.civ_of[seat]
        if gods.may_strike_at_sea(self, civ):
            chains = self._carrying_chains(civ, unit, start, end)
            if chains:
                # Poseidon may strike any sea of any chain, so every chain is the same
                # to both players: the shortest carries it (as in R19).
                chain = min(chains, key=lambda c: (len(c), c))
                self._cross(seat, int(unit == 0), int(unit == 1), start, end, chain)
                return
        self._march(seat, unit, start, end)

    def _cross(
        self, seat: int, legions: int, creatures: int, start: int, end: int, chain: list[int]
    ) -> None:
        """A crossing along ``chain`` is about to land: Poseidon's holder, where he has a
        target in it, sinks a carrier or lets it land (ruling R56); else it lands."""
        holder = gods.sea_god_holder(self, self.civ_of[seat], chain)
        if holder == NOBODY:
            self._land(seat, legions, creatures, start, end)
            return
        self.crossing = [legions, creatures, start, end, *chain]
        self.step = SEA_GOD
        self.actor = holder

    def sea_god_options(self) -> list[MareAction]:
        """Poseidon on a trireme carrying the crossing at hand (ruling R56)."""
        mover = self.civ_of[self.queue[0]]
        return gods.sea_god_options(self, self.actor, mover, self.crossing[4:])

    def _sea_god(self, sunk: int) -> None:
        """Poseidon's holder has sunk a carrier of the crossing at hand in the sea
        ``sunk``, which breaks it as a blockade does (the units stay at their start,
        free to move again), or let it land (``sunk`` NOBODY)."""
        mover_seat = self.queue[0]
        mover = self.civ_of[mover_seat]
        legions, creatures, start, end, *chain = self.crossing
        self.crossing = []
        self.step = GROUND
        self.actor = mover_seat
        if sunk != NOBODY:
            for sea in chain:
                self.moved_triremes[sea] = min(self.moved_triremes[sea], self.triremes[mover][sea])
            self._emit_broken(mover_seat, sunk, legions, creatures, start, end)
            return
        self._land(mover_seat, legions, creatures, start, end)

    def _emit_broken(
        self, seat: int, sea: int, legions: int, creatures: int, start: int, end: int
    ) -> None:
        """Poseidon sank a carrier of ``seat``'s crossing in ``sea``: the units it
        carried stay at ``start``."""
        self.emit(
            "crossing_broken",
            seat=seat,
            sea=SPACE_IDS[sea],
            start=SPACE_IDS[start],
            end=SPACE_IDS[end],
            legions=legions,
            creatures=creatures,
        )

    def _blockade_starts(self, seat: int, action: MareAction) -> bool:
        """Text: an attack on a Greek province across the sea must declare its chain;
        the Greek player may then attack its triremes where he has one too."""
        civ = self.civ_of[seat]
        greek = self.seat_of[GREECE]
        unit, start, end = action.a, action.b, action.c
        if greek == NOBODY or civ == GREECE or self.influence[end] != GREECE:
            return False
        options = self._carrying_chains(civ, unit, start, end)
        if not any(self.triremes[GREECE][sea] for chain in options for sea in chain):
            return False
        self.blockade = [int(unit == 0), int(unit == 1), start, end]
        self.blockaded = []
        self._complete_chain()
        if not self.chain_complete() or self.join_options():
            self.step = DECLARE
            self.actor = seat
        else:
            self._declared(seat)
        return True

    def chain_complete(self) -> bool:
        """Whether the declared chain reaches the crossing's end."""
        return len(self.blockade) > 4 and self.blockade[3] in SHORES[self.blockade[-1]]

    def _chain_choices(self) -> list[list[int]]:
        """One chain per set of seas where Greece could attack it, the shortest of each
        (the others are the same to both players), among those the chain so far
        begins."""
        civ = self.civ_of[self.queue[0]]
        start, end = self.blockade[2:4]
        chosen = self.blockade[4:]
        best: dict[frozenset[int], list[int]] = {}
        for chain in rules.chains(self, civ, start, end):
            if chain[: len(chosen)] != chosen:
                continue
            contested = frozenset(sea for sea in chain if self.triremes[GREECE][sea])
            if contested not in best or (len(chain), chain) < (
                len(best[contested]),
                best[contested],
            ):
                best[contested] = chain
        return sorted(best.values(), key=lambda c: (len(c), c))

    def via_options(self) -> list[MareAction]:
        """``via <sea>``: the next sea of the chain, where the choice changes something."""
        choices = self._chain_choices()
        if self.chain_complete() or len(choices) < 2:
            return []
        depth = len(self.blockade) - 4
        return [A(act.VIA, sea) for sea in sorted({c[depth] for c in choices})]

    def _complete_chain(self) -> None:
        """Finish the chain by itself once no choice is left (the shortest remaining)."""
        choices = self._chain_choices()
        if not self.chain_complete() and len(choices) == 1:
            self.blockade[4:] = choices[0]

    def join_options(self) -> list[MareAction]:
        """Text: the attacker specifies the units of the crossing: more unmoved units of
        the same province may join it along the same chain (ruling R34)."""
        civ = self.civ_of[self.queue[0]]
        legions, creatures, start, end = self.blockade[:4]
        out: list[MareAction] = []
        if self.legions[civ][start] - self.moved_legions[start] > legions:
            out.append(A(act.MOVE, 0, start, end))
        if (
            self.creatures[civ][start] - self.moved_creatures[start] > creatures
            and not creature_effect(civ, FLIGHT)
            and end in rules.creature_targets(self, civ, start)
        ):
            out.append(A(act.MOVE, 1, start, end))
        return out

    def declare_options(self) -> list[MareAction]:
        """The chain's next sea while it is open; then more units, or ``done``."""
        if not self.chain_complete():
            return self.via_options()
        return [*self.join_options(), A(act.DONE)]

    def _declare(self, action: MareAction) -> None:
        if action.kind == act.VIA:
            self.blockade.append(action.a)
            self._complete_chain()
            if not self.chain_complete() or self.join_options():
                return
        elif action.kind == act.MOVE:
            self.blockade[action.a] += 1
            if self.join_options():
                return
        self._declared(self.actor)

    def _declared(self, seat: int) -> None:
        """The crossing is declared: the Greek player answers."""
        self.step = BLOCKADE
        self.actor = self.seat_of[GREECE]
        self._emit_declared(seat)
        if not self.blockade_options():
            # A chain that passes no Greek trireme cannot be attacked: it goes through.
            self._let_through(seat)

    def _emit_declared(self, seat: int) -> None:
        legions, creatures, start, end = self.blockade[:4]
        self.emit(
            "blockade_declared",
            seat=seat,
            start=SPACE_IDS[start],
            end=SPACE_IDS[end],
            chain=[SPACE_IDS[s] for s in self.blockade[4:]],
            legions=legions,
            creatures=creatures,
        )

    def blockade_options(self) -> list[int]:
        """Chain seas where Greece has a trireme and has not attacked yet."""
        mover = self.civ_of[self.queue[0]]
        return [
            sea
            for sea in self.blockade[4:]
            if sea not in self.blockaded
            and self.triremes[GREECE][sea]
            and self.triremes[mover][sea]
        ]

    def _blockade(self, action: MareAction) -> None:
        """Notes 6: a broken chain sends the units back to their start, free to move
        again; otherwise the move goes on and the ground battle follows as usual."""
        mover_seat = self.queue[0]
        mover = self.civ_of[mover_seat]
        if action.kind == act.BLOCKADE:
            sea = action.a
            self.blockaded.append(sea)
            # Before the dice, Poseidon's holder with an enemy in it (ruling R57).
            holder = gods.naval_god_holder(self, sea, (GREECE, mover), NOBODY)
            if holder != NOBODY:
                self.step = NAVAL_GOD
                self.actor = holder
                return
            self._fight_blockade()
            return
        self._let_through(mover_seat)

    def _fight_blockade(self) -> None:
        """Roll Greece's attack on the carrier in the last sea attacked."""
        mover = self.civ_of[self.queue[0]]
        sea = self.blockaded[-1]
        self.step = BLOCKADE
        self.actor = self.seat_of[GREECE]
        # Text: "This attack is only against transporting triremes": the chain's.
        self._roll_sea(sea, GREECE, mover, 1)
        # Conducted as a battle, Mars included (ruling R18).
        if not self._mars_decides(GREECE, mover, (self.triremes[GREECE][sea], 1)):
            self._blockade_fought(NOBODY)

    def sea_battle_sides(self) -> tuple[int, int, int]:
        """The blockade battle about to be rolled: the last sea Greece attacked,
        Greece and the mover (else as :class:`Military`)."""
        if not self.blockade:
            return super().sea_battle_sides()
        return self.blockaded[-1], GREECE, self.civ_of[self.queue[0]]

    def _naval_god(self, target: int) -> None:
        """Poseidon's holder has decided before a blockade battle (else as
        :class:`Military`): the mover's trireme he sinks there is the carrier, which
        breaks the crossing (L154); the Greek fleet's last one sunk there leaves no
        attack there; else Greece attacks."""
        if not self.blockade:
            super()._naval_god(target)
            return
        mover_seat = self.queue[0]
        sea, _, mover = self.sea_battle_sides()
        self.step = BLOCKADE
        self.actor = self.seat_of[GREECE]
        if target == mover:
            self.moved_triremes[sea] = min(self.moved_triremes[sea], self.triremes[mover][sea])
            legions, creatures, start, end = self.blockade[:4]
            self._emit_broken(mover_seat, sea, legions, creatures, start, end)
            self._close_blockade(mover_seat)
        elif self.triremes[GREECE][sea]:
            self._fight_blockade()
        elif not self.blockade_options():
            self._let_through(mover_seat)

    def _blockade_fought(self, mars: int) -> None:
        """The rolled attack on the carrier in the last sea attacked has its losses
        (Mars adding 6 to the side ``mars``): a sunk carrier holds the crossing, else
        Greece may attack it further along the chain, else it lands."""
        mover_seat = self.queue[0]
        mover = self.civ_of[mover_seat]
        sea = self.blockaded[-1]
        self.step = BLOCKADE
        self.actor = self.seat_of[GREECE]
        fight = self._sea_losses(sea, GREECE, mover, 1, mars)
        self.moved_triremes[sea] = min(self.moved_triremes[sea], self.triremes[mover][sea])
        self.emit(
            "blockade_battle",
            sea=SPACE_IDS[sea],
            greek=fight.first,
            invader=fight.second,
            greek_losses=fight.first_lost,
            invader_losses=fight.second_lost,
            greek_dice=fight.first_dice,
            invader_dice=fight.second_dice,
        )
        if fight.second_lost:
            self.emit("blockade_held", province=SPACE_IDS[self.blockade[3]])
            self._close_blockade(mover_seat)
            return
        if not self.blockade_options():
            self._let_through(mover_seat)

    def _let_through(self, mover_seat: int) -> None:
        """Greece attacks no more: the declared units cross, Poseidon's holder
        deciding first where he may (ruling R56)."""
        legions, creatures, start, end, *chain = self.blockade
        self._close_blockade(mover_seat)
        self._cross(mover_seat, legions, creatures, start, end, chain)

    def war_space(self) -> int:
        """The space of the battle Mars's holder is deciding on: the last sea Greece
        attacked while a crossing waits on the blockade."""
        return self.blockaded[-1] if self.blockade else super().war_space()

    def war_first(self) -> int:
        """Greece's total comes first in a blockade battle (else as :class:`Military`)."""
        return GREECE if self.blockade else super().war_first()

    def roll_battle_at_hand(self) -> None:
        """As :meth:`Military.roll_battle_at_hand`, a blockade battle included."""
        if not self.blockade:
            super().roll_battle_at_hand()
            return
        self._roll_sea(self.blockaded[-1], GREECE, self.civ_of[self.queue[0]], 1)

    def _war_god(self, invoked: bool) -> None:
        """Mars's holder has decided on a blockade battle (else as :class:`Military`)."""
        if not self.blockade:
            super()._war_god(invoked)
            return
        self._blockade_fought(self.civ_of[self.actor] if invoked else NOBODY)

    def _land(self, seat: int, legions: int, creatures: int, start: int, end: int) -> None:
        """The declared units cross: each moves as a ``move`` would."""
        for unit, count in ((0, legions), (1, creatures)):
            for _ in range(count):
                self._march(seat, unit, start, end)

    def _close_blockade(self, mover_seat: int) -> None:
        self.blockade = []
        self.blockaded = []
        self.step = GROUND
        self.actor = mover_seat
