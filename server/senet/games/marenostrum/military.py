"""The military phase: naval moves and battles, ground moves, battles and losses.

A seat's military turn is its naval moves (``naval``), then its ground moves
(``ground``); ending them fights every ground battle its units are in (text: ground
battles are obligatory), each followed by the losses the owners choose (``losses``)
and, for a winner that may, a sack, an occupation or a conversion (``after_battle``);
an occupier with a choice of buildings then puts his units on them (``occupation``).
Every battle, at sea too, rolls its dice first; where Mars's +6 would change its
losses, his holder then invokes him or keeps him (``war_god``), and the losses follow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from senet.games.interface import Game, JsonDict
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
    NAVAL,
    NAVAL_GOD,
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

    def __init__(self, game: Game, seat_count: int, options: JsonDict) -> None:
        super().__init__(game, seat_count, options)
        # Per province, the invader who has made his after-battle choice there (sack,
        # occupy, convert) and stands there since (ruling R40).
        self.chosen_by = [NOBODY] * PROVINCES
        # The battle at hand once its dice are rolled, while Mars's holder decides:
        # per side (the mover, or Greece in a blockade, first), its total, then the
        # faces it rolled.
        self.rolled: list[list[int]] = []

    def _end_naval(self) -> None:
        self.step = GROUND

    def _end_ground(self) -> None:
        """The mover's battles, and every invader left alone in an enemy province who
        has not chosen there yet, whoever moved (ruling R40), in map order."""
        civ = self.civ_of[self.actor]
        self._forget_choices()
        self.pending = [
            p
            for p in range(PROVINCES)
            if self._attackers(civ, p) or self._exploiter(civ, p) != NOBODY
        ]
        self._resolve_pending()

    def _exploiter(self, mover: int, province: int) -> int:
        """The sole surviving invader who chooses in ``province`` now (ruling R40)."""
        return rules.exploiter(self, mover, province, self.chosen_by[province])

    def _forget_choices(self) -> None:
        """An invader whose units have all left a province (or fallen there) has no
        choice made there any more: back, he chooses again (ruling R40)."""
        for p, civ in enumerate(self.chosen_by):
            if civ != NOBODY and not self._attackers(civ, p):
                self.chosen_by[p] = NOBODY

    def _attackers(self, civ: int, province: int) -> int:
        """Text (L130): "Legions and Creatures MUST fight when in a space occupied by
        opposing units (Legions, Creatures, or Fortresses)": a fortress is fought, it
        does not attack (it "cannot move", L138), so in its owner's turn a province
        where he has only fortresses sees no battle (ruling R49)."""
        return self.legions[civ][province] + self.creatures[civ][province]

    def _resolve_pending(self) -> None:
        """Fight every battle the mover's ground units are in, then the after-battle
        choices (text: ground battles are obligatory)."""
        mover = self.civ_of[self.queue[0]]
        while self.pending:
            province = self.pending[0]
            enemy = NOBODY
            if self._attackers(mover, province):
                enemy = rules.next_enemy(self, mover, province)
            if enemy != NOBODY:
                self.fought.append(province * CIVS + enemy)
                caster = rules.spell_caster(self, mover, enemy, province)
                if caster != NOBODY:
                    # Circe's spell keeps a legion from rolling: asked before the dice.
                    self.step = SPELL
                    self.actor = caster
                    return
                if self._fight_ground(mover, enemy, province) or self._next_loss():
                    return
                continue
            self.pending.pop(0)
            chooser = self._exploiter(mover, province)
            if chooser == NOBODY:
                continue
            if rules.after_battle_options(self, province):
                self.step = AFTER_BATTLE
                self.after_space = province
                self.actor = self.seat_of[chooser]
                return
            # The Sphinx's riddle left him nothing to choose (ruling R29): he has had
            # his choice all the same.
            self.chosen_by[province] = chooser
        self.step = GROUND
        self._next_player()

    def battle_at_hand(self) -> tuple[int, int]:
        """The battle Circe's owner or Mars's holder is deciding on: (space, enemy
        of the mover); at sea outside a blockade, the space is a sea."""
        space, enemy = divmod(self.fought[-1], CIVS)
        return space, enemy

    def war_space(self) -> int:
        """The space of the battle Mars's holder is deciding on."""
        return self.battle_at_hand()[0]

    def war_first(self) -> int:
        """The civilization whose total comes first in ``rolled``: the mover."""
        return self.civ_of[self.queue[0]]

    def war_totals(self) -> tuple[int, int]:
        """The rolled totals of the battle Mars's holder (the actor) decides on: his
        side's, then the other's."""
        mine = 0 if self.civ_of[self.actor] == self.war_first() else 1
        return self.rolled[mine][0], self.rolled[1 - mine][0]

    def _spell(self, cast: bool) -> None:
        """Circe's owner has cast her spell on the battle at hand or kept it: the
        battle is fought, Mars's holder deciding once its dice are seen."""
        province, enemy = self.battle_at_hand()
        if cast:
            self.powers_used[self.actor] |= SPELL_POWER | SPELLBOUND
            self.emit("card_power", seat=self.actor, card="circe")
        self.actor = self.queue[0]
        if not self._fight_ground(self.civ_of[self.actor], enemy, province):
            self._ground_fought()

    def _war_god(self, invoked: bool) -> None:
        """Mars's holder has seen the dice and invoked him (+6 to his side) or kept
        him: the battle's losses follow."""
        mars = self.civ_of[self.actor] if invoked else NOBODY
        self.actor = self.queue[0]
        if self.war_space() >= PROVINCES:
            self._naval_losses(mars)
            return
        province, enemy = self.battle_at_hand()
        self._ground_losses(self.civ_of[self.actor], enemy, province, mars)
        self._ground_fought()

    def _ground_fought(self) -> None:
        """The battle at hand has its losses: the owners choose theirs, then the
        mover's other battles follow."""
        if not self._next_loss():
            self._resolve_pending()

    def _mars_decides(self, first: int, second: int, units: tuple[int, int]) -> bool:
        """Hand the rolled battle of ``first`` against ``second`` to Mars's holder
        where his +6 would change it, that is destroy one more unit of the other
        side (ruling R18); ``units``: what each side can lose. True when he decides."""
        holder = gods.war_god_holder(self, first, second)
        if holder == NOBODY:
            return False
        side = 0 if self.civ_of[holder] == first else 1
        if self.rolled[side][0] // 5 >= units[1 - side]:
            return False
        self.step = WAR_GOD
        self.actor = holder
        return True

    def _fight_ground(self, mover: int, enemy: int, province: int) -> bool:
        """Roll the ground battle of ``mover`` against ``enemy``; Mars's holder then
        decides where he may (True), else its losses follow at once (False)."""
        self._roll_ground(mover, enemy, province)
        units = (
            rules.ground_units(self, mover, province),
            rules.ground_units(self, enemy, province),
        )
        if self._mars_decides(mover, enemy, units):
            return True
        self._ground_losses(mover, enemy, province, NOBODY)
        return False

    def _ground_battle(self, mover: int, enemy: int, province: int, mars: int = NOBODY) -> None:
        """Fight ``mover`` against ``enemy`` outright, Mars adding 6 to the side ``mars``."""
        self._roll_ground(mover, enemy, province)
        self._ground_losses(mover, enemy, province, mars)

    def _roll_ground(self, mover: int, enemy: int, province: int) -> None:
        """The Centaurs strike, then both sides roll; the totals wait in ``rolled``."""
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
        self.rolled = [[attack, *attack_dice], [defence, *defence_dice]]

    def roll_battle_at_hand(self) -> None:
        """Roll the battle Mars's holder decides on, in a match saved before he
        decided after the dice (an earlier release asked him before them): he sees
        them now."""
        space, enemy = self.battle_at_hand()
        mover = self.civ_of[self.queue[0]]
        if space >= PROVINCES:
            self._roll_sea(space, mover, enemy)
        else:
            self._roll_ground(mover, enemy, space)

    def _ground_losses(self, mover: int, enemy: int, province: int, mars: int) -> None:
        """The rolled ground battle, Mars adding 6 to the side ``mars``: each side
        loses a unit per 5 points of the other's total (its owner chooses which)."""
        (attack, *attack_dice), (defence, *defence_dice) = self.rolled
        self.rolled = []
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
        self._forget_choices()
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

    def _roll_sea(self, sea: int, first: int, second: int, second_ships: int = -1) -> None:
        """Both fleets in ``sea`` roll, ``first``'s dice first (the order fixes the
        draws); the totals wait in ``rolled`` for the losses.

        ``second_ships``: only that many of ``second``'s triremes fight and may be lost
        (the carrier a blockade attacks)."""
        first_dice: list[int] = []
        second_dice: list[int] = []
        ships = self.triremes[second][sea] if second_ships < 0 else second_ships
        first_total = rules.naval_total(self, first, sea, first_dice)
        second_total = rules.naval_total(self, second, sea, second_dice, ships)
        self.rolled = [[first_total, *first_dice], [second_total, *second_dice]]

    def _sea_losses(
        self, sea: int, first: int, second: int, second_ships: int, mars: int
    ) -> SeaFight:
        """The rolled sea fight, Mars adding 6 to the side ``mars``: each fleet loses a
        trireme per 5 points the other rolled (``second_ships`` as :meth:`_roll_sea`)."""
        fight = SeaFight()
        (fight.first, *fight.first_dice), (fight.second, *fight.second_dice) = self.rolled
        self.rolled = []
        fight.first += gods.MARS_BONUS if mars == first else 0
        fight.second += gods.MARS_BONUS if mars == second else 0
        second_ships = self.triremes[second][sea] if second_ships < 0 else second_ships
        fight.first_lost = min(fight.second // 5, self.triremes[first][sea])
        fight.second_lost = min(fight.first // 5, second_ships)
        self.triremes[first][sea] -= fight.first_lost
        self.triremes[second][sea] -= fight.second_lost
        return fight

    def _naval_battle(self, sea: int, enemy: int) -> None:
        """Text (L127): a naval battle is "Conducted using the Rules for Battle", Mars
        included: his holder decides once the dice are seen (ruling R18). Before the
        dice, Poseidon's holder with an enemy in it may sink one of its triremes
        (``naval_god``, ruling R57); the mover had that choice in his naval moves."""
        mover = self.civ_of[self.actor]
        self.fought.append(sea * CIVS + enemy)
        holder = gods.naval_god_holder(self, sea, (mover, enemy), self.actor)
        if holder != NOBODY:
            self.step = NAVAL_GOD
            self.actor = holder
            return
        self._fight_naval()

    def sea_battle_sides(self) -> tuple[int, int, int]:
        """The sea battle Poseidon's holder decides on: its sea and its two sides."""
        sea, enemy = self.battle_at_hand()
        return sea, self.civ_of[self.queue[0]], enemy

    def naval_god_options(self) -> list[MareAction]:
        """Poseidon on a trireme of an enemy side of the sea battle at hand (R57)."""
        sea, first, second = self.sea_battle_sides()
        return gods.naval_god_options(self, self.actor, sea, (first, second))

    def _naval_god(self, target: int) -> None:
        """Poseidon's holder has sunk a trireme of ``target`` (NOBODY: he passed):
        a side left with no trireme there fights no battle, and the mover's naval
        moves go on; else the battle is fought."""
        sea, mover, enemy = self.sea_battle_sides()
        self.actor = self.queue[0]
        self.moved_triremes[sea] = min(self.moved_triremes[sea], self.triremes[mover][sea])
        if self.triremes[mover][sea] and self.triremes[enemy][sea]:
            self._fight_naval()
            return
        self.fought.pop()
        self.step = NAVAL

    def _fight_naval(self) -> None:
        """Roll the naval battle at hand; Mars's holder decides where he may, else its
        losses follow at once."""
        sea, enemy = self.battle_at_hand()
        mover = self.civ_of[self.queue[0]]
        self.step = NAVAL
        self._roll_sea(sea, mover, enemy)
        units = (self.triremes[mover][sea], self.triremes[enemy][sea])
        if not self._mars_decides(mover, enemy, units):
            self._naval_losses(NOBODY)

    def _naval_losses(self, mars: int) -> None:
        """The rolled naval battle at hand loses its triremes; the mover's naval moves
        go on."""
        sea, enemy = self.battle_at_hand()
        mover = self.civ_of[self.queue[0]]
        fight = self._sea_losses(sea, mover, enemy, -1, mars)
        self.moved_triremes[sea] = min(self.moved_triremes[sea], self.triremes[mover][sea])
        self.step = NAVAL
        self.actor = self.queue[0]
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
        self.chosen_by[province] = chooser
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
        # Before the move: an invader walking back into a province he had left
        # finds his old choice there gone.
        self._forget_choices()
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
