"""The military phase: naval moves and battles, ground moves, battles and losses.

A seat's military turn is its naval moves (``naval``), then its ground moves
(``ground``); ending them fights every ground battle its units are in (text: ground
battles are obligatory), each followed by the losses the owners choose (``losses``)
and, for a winner that may, a sack, an occupation or a conversion (``after_battle``);
an occupier with a choice of buildings then puts his units on them (``occupation``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import gods, occupation, rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import PROVINCES, SPACE_IDS
from senet.games.marenostrum.cards import CURSE, FIRST_STRIKE, REGROW, creature_effect
from senet.games.marenostrum.civilizations import CIV_IDS, CIVS
from senet.games.marenostrum.constants import (
    AFTER_BATTLE,
    CREATURE_UNIT,
    GROUND,
    LEGION_UNIT,
    LOSSES,
    NOBODY,
    OCCUPATION,
    SPELL,
    SPELL_POWER,
    SPELLBOUND,
    WAR_GOD,
)
from senet.games.marenostrum.turns import TurnOrder


@dataclass
class SeaFight:
    """Two fleets' fight: each side's total, the faces it rolled and its losses."""

    first: int = 0
    second: int = 0
    first_lost: int = 0
    second_lost: int = 0
    first_dice: list[int] = field(default_factory=list)
    second_dice: list[int] = field(default_factory=list)


class Military(TurnOrder):
    """Moves, battles, losses and what follows a won ground battle."""

    def _end_naval(self) -> None:
        self.step = GROUND

    def _end_ground(self) -> None:
        civ = self.civ_of[self.actor]
        self.pending = [p for p in range(PROVINCES) if self._attackers(civ, p)]
        self._resolve_pending()

    def _attackers(self, civ: int, province: int) -> int:
        """Text (L130): "Legions and Creatures MUST fight when in a space occupied by
        opposing units (Legions, Creatures, or Fortresses)": a fortress is fought, it
        does not attack (it "cannot move", L138), so in its owner's turn a province
        where he has only fortresses sees no battle (ruling R49)."""
        return self.legions[civ][province] + self.creatures[civ][province]

    def _resolve_pending(self) -> None:
        """Fight every battle the mover's ground units are in, then the after-battle
        choices (text: ground battles are obligatory)."""
        mover = self.civ_of[self.actor]
        while self.pending:
            province = self.pending[0]
            enemy = NOBODY
            if self._attackers(mover, province):
                enemy = rules.next_enemy(self, mover, province)
            if enemy != NOBODY:
                self.fought.append(province * CIVS + enemy)
                if self._ask_before_battle(mover, enemy, province, spell_asked=False):
                    return
                self._ground_battle(mover, enemy, province)
                if self._next_loss():
                    return
                continue
            self.pending.pop(0)
            chooser = rules.exploiter(self, mover, province)
            if chooser != NOBODY and rules.after_battle_options(self, province):
                self.step = AFTER_BATTLE
                self.after_space = province
                self.actor = self.seat_of[chooser]
                return
        self.step = GROUND
        self._next_player()

    def _ask_before_battle(self, mover: int, enemy: int, province: int, spell_asked: bool) -> bool:
        """Hand the battle's choices before its dice to the seats that have them:
        Circe's owner first (ruling R23), then Mars's holder, who then knows whether
        her spell is on the battle (ruling R18). True when a seat must decide."""
        if not spell_asked:
            caster = rules.spell_caster(self, mover, enemy, province)
            if caster != NOBODY:
                self.step = SPELL
                self.actor = caster
                return True
        holder = gods.war_god_holder(self, mover, enemy)
        if holder != NOBODY:
            self.step = WAR_GOD
            self.actor = holder
            return True
        return False

    def battle_at_hand(self) -> tuple[int, int]:
        """The battle Circe's owner or Mars's holder is deciding on: (province, enemy
        of the mover)."""
        province, enemy = divmod(self.fought[-1], CIVS)
        return province, enemy

    def _spell(self, cast: bool) -> None:
        """Circe's owner has cast her spell on the battle at hand or kept it: Mars's
        holder is asked next, then the battle is fought."""
        province, enemy = self.battle_at_hand()
        if cast:
            self.powers_used[self.actor] |= SPELL_POWER | SPELLBOUND
            self.emit("card_power", seat=self.actor, card="circe")
        mover = self.civ_of[self.queue[0]]
        if not self._ask_before_battle(mover, enemy, province, spell_asked=True):
            self._fight_at_hand()

    def _war_god(self, invoked: bool) -> None:
        """Mars's holder has invoked him (+6 to his side) or kept him: fight on."""
        self._fight_at_hand(self.civ_of[self.actor] if invoked else NOBODY)

    def _fight_at_hand(self, mars: int = NOBODY) -> None:
        """The choices before its dice made, the battle at hand is fought (Mars adds 6
        to the side ``mars``) and the mover's other battles follow."""
        province, enemy = self.battle_at_hand()
        self.actor = self.queue[0]
        self._ground_battle(self.civ_of[self.actor], enemy, province, mars)
        if not self._next_loss():
            self._resolve_pending()

    def _ground_battle(self, mover: int, enemy: int, province: int, mars: int = NOBODY) -> None:
        """Fight ``mover`` against ``enemy``; Mars adds 6 to the side ``mars``."""
        self.regrown = []
        # The Sphinx's riddle outlives a battle it defends in (ruling R29).
        cursed = self.creatures[enemy][province] and creature_effect(enemy, CURSE)
        if cursed and province not in self.cursed:
            self.cursed.append(province)
        for side, other in ((mover, enemy), (enemy, mover)):
            self._first_strike(side, other, province)
        attack_dice: list[int] = []
        defence_dice: list[int] = []
        attack = rules.battle_total(self, mover, province, True, enemy, attack_dice)
        defence = rules.battle_total(self, enemy, province, False, mover, defence_dice)
        if any(used & SPELLBOUND for used in self.powers_used):
            self.powers_used = [used & ~SPELLBOUND for used in self.powers_used]
        attack += gods.MARS_BONUS if mars == mover else 0
        defence += gods.MARS_BONUS if mars == enemy else 0
        lost_mover = min(defence // 5, rules.ground_units(self, mover, province))
        lost_enemy = min(attack // 5, rules.ground_units(self, enemy, province))
        self.emit(
            "battle",
            province=SPACE_IDS[province],
            attacker=CIV_IDS[mover],
            defender=CIV_IDS[enemy],
            attack=attack,
            defence=defence,
            attacker_losses=lost_mover,
            defender_losses=lost_enemy,
            attack_dice=attack_dice,
            defence_dice=defence_dice,
        )
        self.losses = [
            row
            for row in ([mover, province, lost_mover], [enemy, province, lost_enemy])
            if row[2] > 0
        ]

    def _first_strike(self, side: int, other: int, province: int) -> None:
        """Centaurs: before the dice, each destroys enemy legions (ruling R28)."""
        strike = creature_effect(side, FIRST_STRIKE)
        creatures = self.creatures[side][province]
        if strike is None or not creatures:
            return
        kills = min(strike.amount * creatures, self.legions[other][province])
        for _ in range(kills):
            rules.remove_unit(self, other, province, LEGION_UNIT)
        if kills:
            self.emit(
                "first_strike",
                province=SPACE_IDS[province],
                civ=CIV_IDS[side],
                victim=CIV_IDS[other],
                legions=kills,
            )

    def loss_options(self) -> list[int]:
        civ, province, _ = self.losses[0]
        return rules.loss_kinds(self, civ, province)

    def _choose_loss(self, kind: int) -> None:
        """The owner lost a unit of ``kind``; the battles go on once no choice is left."""
        self._lose(kind)
        if not self._next_loss():
            self._resolve_pending()

    def _next_loss(self) -> bool:
        """Apply losses whose owner has no choice; True when a seat must choose."""
        while self.losses:
            civ, province, count = self.losses[0]
            kinds = rules.loss_kinds(self, civ, province)
            if count <= 0 or not kinds:
                self.losses.pop(0)
                continue
            seat = self.seat_of[civ]
            if len(kinds) > 1 and seat != NOBODY:
                self.step = LOSSES
                self.actor = seat
                return True
            # Neutrals lose legions, then fortresses, then creatures (ruling R12).
            kind = kinds[0] if seat != NOBODY else rules.neutral_loss(kinds)
            self._lose(kind)
        self.actor = self.queue[0]
        rules.refresh_control(self)
        return False

    def _lose(self, kind: int) -> None:
        row = self.losses[0]
        civ, province, _ = row
        regrow = creature_effect(civ, REGROW) if kind == CREATURE_UNIT else None
        if regrow is not None and civ not in self.regrown:
            # The Hydra: once a battle, a roll of 4 or more and the loss leaves it be.
            self.regrown.append(civ)
            roll = self.rng.below(6) + 1
            survives = roll >= regrow.amount
            self.emit(
                "regrow", province=SPACE_IDS[province], civ=CIV_IDS[civ], roll=roll, ok=survives
            )
            if not survives:
                rules.remove_unit(self, civ, province, kind)
        else:
            rules.remove_unit(self, civ, province, kind)
        row[2] -= 1
        if row[2] == 0:
            self.losses.pop(0)

    def _sea_fight(self, sea: int, first: int, second: int, second_ships: int = -1) -> SeaFight:
        """Both fleets in ``sea`` roll, ``first``'s dice first (the order fixes the
        draws), and each loses a trireme per 5 points the other rolled.

        ``second_ships``: only that many of ``second``'s triremes fight and may be lost
        (the carrier a blockade attacks)."""
        fight = SeaFight()
        second_ships = self.triremes[second][sea] if second_ships < 0 else second_ships
        fight.first = rules.naval_total(self, first, sea, fight.first_dice)
        fight.second = rules.naval_total(self, second, sea, fight.second_dice, second_ships)
        fight.first_lost = min(fight.second // 5, self.triremes[first][sea])
        fight.second_lost = min(fight.first // 5, second_ships)
        self.triremes[first][sea] -= fight.first_lost
        self.triremes[second][sea] -= fight.second_lost
        return fight

    def _naval_battle(self, sea: int, enemy: int) -> None:
        mover = self.civ_of[self.actor]
        self.fought.append(sea * CIVS + enemy)
        fight = self._sea_fight(sea, mover, enemy)
        self.moved_triremes[sea] = min(self.moved_triremes[sea], self.triremes[mover][sea])
        self.emit(
            "naval_battle",
            sea=SPACE_IDS[sea],
            attacker=CIV_IDS[mover],
            defender=CIV_IDS[enemy],
            attack=fight.first,
            defence=fight.second,
            attacker_losses=fight.first_lost,
            defender_losses=fight.second_lost,
            attack_dice=fight.first_dice,
            defence_dice=fight.second_dice,
        )

    def _after_battle(self, action: MareAction) -> None:
        """The sole surviving invader (the actor, maybe not the mover) has chosen."""
        province = self.after_space
        chooser = self.civ_of[self.actor]
        self.after_space = NOBODY
        if action.kind == act.SACK:
            rules.sack(self, province, action.a, action.b)
            self.emit("sacked", seat=self.actor, province=SPACE_IDS[province])
        elif action.kind == act.OCCUPY:
            self.occupier[province] = chooser
            occupation.release(self, province)
            self.emit("occupied", seat=self.actor, province=SPACE_IDS[province])
            if occupation.place_forced(self, province):
                # Text (L149): the occupier places his units (ruling R10).
                self.step = OCCUPATION
                self.after_space = province
                return
        else:
            self.converter[province] = chooser
            self.emit("converting", seat=self.actor, province=SPACE_IDS[province])
        self.actor = self.queue[0]
        self._resolve_pending()

    def _hold(self, action: MareAction) -> None:
        """The occupier has put a unit on a building; the battles go on once every
        unit whose place is a choice stands."""
        province = self.after_space
        occupation.hold(self, province, action.a, action.b)
        if occupation.place_forced(self, province):
            return
        self.after_space = NOBODY
        self.actor = self.queue[0]
        self._resolve_pending()

    def _march(self, seat: int, unit: int, start: int, end: int) -> None:
        rules.march(self, self.civ_of[seat], unit, start, end)
        self.emit(
            "moved",
            seat=seat,
            unit=("legion", "creature")[unit],
            start=SPACE_IDS[start],
            end=SPACE_IDS[end],
        )

    def _sail(self, seat: int, start: int, end: int) -> None:
        """A naval move: one of ``seat``'s triremes sails from ``start`` to ``end``."""
        rules.sail(self, self.civ_of[seat], start, end)
        self.emit("sailed", seat=seat, start=SPACE_IDS[start], end=SPACE_IDS[end])
