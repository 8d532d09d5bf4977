"""Setting up a match: the standard start or the free set-up, then the first roles.

The standard set-up places every civilization's printed start; the free set-up
(option ``free_setup``) gives each player 9 points to spend in each of five rounds,
in a random order, its first choice possibly the capital. Civilizations nobody
plays are neutral and garrison their capital and the provinces bordering it
(ruling R3).
"""

from __future__ import annotations

from itertools import product

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import ICONS, LAND_NEIGHBOURS, PROVINCES, SPACE_IDS
from senet.games.marenostrum.cards import OWNABLE_IDS, POOL_INDEXES, SET_ASIDE
from senet.games.marenostrum.civilizations import (
    CAPITALS,
    CIVS,
    FREE_CAPITALS,
    START,
    START_TAX_CARDS,
    in_match,
)
from senet.games.marenostrum.commodities import TAX
from senet.games.marenostrum.constants import (
    NOBODY,
    ROLE_IDS,
    SETUP_BUILD,
    SETUP_CAPITAL,
)
from senet.games.marenostrum.construction import Construction
from senet.games.marenostrum.tokens import (
    CARAVAN,
    CITY,
    FREE_SETUP_POINTS,
    FREE_SETUP_ROUNDS,
    HERO_COST,
    ITEM_COST,
    MARKET,
    TEMPLE,
)


def role_tie_breaks(leaders: list[list[int]]) -> list[tuple[int, ...]]:
    """The set-up's ways to hand out the roles (text: "In case of a tie, tied players
    randomly determine who receives the role, but avoid giving one player two roles
    during setup"; ruling R9).

    Args:
        leaders: Per role (in ``ROLE_IDS`` order), the seats with the most of its
            criterion: a sole leader gets the role, tied leaders draw for it.

    Returns:
        Every assignment (a holder per role) that gives the roles to as many
        different players as any tie-break can, in a fixed order; the match draws
        one of them with its generator, so the draw is random only among these.
    """
    assignments = list(product(*leaders))
    most = max(len(set(a)) for a in assignments)
    return [a for a in assignments if len(set(a)) == most]


def neutral_claims(neutrals: list[int], reserved: set[int]) -> dict[int, list[int]]:
    """Per province, the neutral civilizations whose garrison it would take (ruling R3).

    Text: "place 1 influence marker, 1 mythological creature pawn, 1 legion, and 1
    fortress in its capital province. Additionally, place 1 influence marker, 1
    legion, and 1 fortress in each region adjacent to that capital."

    Args:
        neutrals: The civilizations nobody plays.
        reserved: Provinces of the players' own set-ups, left to them (ruling R38).

    Returns:
        Province to claiming neutrals (several only where the capitals of two neutrals
        border one province, as Judaea borders both Aegyptus and Babylonia).
    """
    claims = {CAPITALS[civ]: [civ] for civ in neutrals}
    for civ in neutrals:
        for province in LAND_NEIGHBOURS[CAPITALS[civ]]:
            # A capital is always its own civilization's (none borders another).
            if province not in reserved and province not in CAPITALS:
                claims.setdefault(province, []).append(civ)
    return claims


class SetUp(Construction):
    """Laying out a new match, the free set-up's rounds and the first roles."""

    def setup(self, seed: int) -> None:
        """Lay out a new match from ``seed``: civilizations, cards, board, roles."""
        self.rng = rules.new_rng(seed)
        civs = [civ for civ in range(CIVS) if in_match(civ, self.seat_count)]
        self.rng.shuffle(civs)
        self.civ_of = civs[: self.seat_count]
        self.seat_of = [NOBODY] * CIVS
        for seat, civ in enumerate(self.civ_of):
            self.seat_of[civ] = seat
        pool = list(POOL_INDEXES)
        self.rng.shuffle(pool)
        self.set_aside = sorted(pool[:SET_ASIDE])
        self.available = sorted(pool[SET_ASIDE:])
        self._place_neutrals(civs)
        for seat in range(self.seat_count):
            self._draw(seat, TAX, START_TAX_CARDS)
        if self.options.get("free_setup"):
            order = list(range(self.seat_count))
            self.rng.shuffle(order)
            self.queue = order
            self._setup_next()
            return
        for seat, civ in enumerate(self.civ_of):
            self._place_start(civ)
            self.owned[seat] = [civ]
        self._setup_roles()
        self._start_turn()

    def _place_neutrals(self, civs: list[int]) -> None:
        """Text: a neutral's capital gets influence, creature, legion and fortress, and
        each province adjacent to it influence, legion and fortress (ruling R3:
        adjacent by a border, on the map as drawn). Ruling R38: a province of a
        player's own set-up stays the player's; one that two neutrals claim goes to one
        of them, drawn with the match's generator. ``civs``: the civilizations in the match."""
        claims = neutral_claims(
            [civ for civ in civs if self.seat_of[civ] == NOBODY],
            set().union(*(self._own_setup(civ) for civ in self.civ_of)),
        )
        for province, claimants in sorted(claims.items()):
            civ = claimants[0] if len(claimants) == 1 else self.rng.choice(claimants)
            self.influence[province] = civ
            self.legions[civ][province] += 1
            self.fortresses[province] += 1
            if province == CAPITALS[civ]:
                self.creatures[civ][province] += 1

    def _own_setup(self, civ: int) -> set[int]:
        """Provinces of a player's own set-up, which no neutral garrisons (ruling R38):
        its printed start, or in the free set-up its capital and the provinces
        bordering it (where it may build, ruling R13)."""
        if self.options.get("free_setup"):
            capital = CAPITALS[civ]
            return {capital, *LAND_NEIGHBOURS[capital]}
        return set(START[civ].provinces)

    def _place_start(self, civ: int) -> None:
        start = START[civ]
        for province in start.provinces:
            self.influence[province] = civ
        for province in start.cities:
            self._add_building(province, CITY)
        for province, commodity in start.caravans:
            self.caravans[province] |= 1 << ICONS[province].index(commodity)
            self.stock[CARAVAN] -= 1
        for province in start.temples:
            self._add_building(province, TEMPLE)
        for province in start.markets:
            self._add_building(province, MARKET)
        for province in start.fortresses:
            self.fortresses[province] += 1
        for province in start.legions:
            self.legions[civ][province] += 1
        for sea in start.triremes:
            self.triremes[civ][sea] += 1

    def _setup_roles(self) -> None:
        """Text: roles by building possession; ties at random, but nobody gets two
        where some tie-break avoids it (ruling R9)."""
        counts = [rules.role_counts(self, seat) for seat in range(self.seat_count)]
        leaders = []
        for role in range(len(ROLE_IDS)):
            values = [counts[s][role] for s in range(self.seat_count)]
            leaders.append([s for s in range(self.seat_count) if values[s] == max(values)])
        choices = role_tie_breaks(leaders)
        chosen = choices[0] if len(choices) == 1 else self.rng.choice(choices)
        self.roles = list(chosen)
        self.emit("roles_assigned", roles=list(self.roles))

    def _setup_next(self) -> None:
        """Free set-up: the next player of this round spends 9 points."""
        seat = self.queue[0]
        civ = self.civ_of[seat]
        self.actor = seat
        self.points_left = FREE_SETUP_POINTS
        self.new_influence = [0] * PROVINCES
        if (
            self.influence[self.capital[civ]] != civ
            and len(FREE_CAPITALS[civ]) > 1
            and (self.setup_turns < self.seat_count)
        ):
            choices = rules.free_capitals(self, civ)
            if len(choices) > 1:
                self.step = SETUP_CAPITAL
                return
            self.capital[civ] = choices[0]
        self.step = SETUP_BUILD
        if not self.build_options(seat):
            self._setup_advance()

    def _setup_build(self, action: MareAction) -> None:
        seat = self.actor
        if action.kind == act.BUY:
            self.points_left -= HERO_COST
            self.owned[seat] = sorted([*self.owned[seat], action.a])
            self.emit("bought", seat=seat, card=OWNABLE_IDS[action.a])
        else:
            self.points_left -= ITEM_COST[action.a]
            # A marker placed now, the capital's included, is no base for another
            # marker until the next round (L107); the capital still takes buildings in
            # this one (ruling R37, :meth:`can_place`).
            self._place_item(self.civ_of[seat], action.a, action.b, action.c)
        if self.points_left == 0 or not self.build_options(seat):
            self._setup_advance()

    def _setup_advance(self) -> None:
        """The next player builds; after five rounds the game begins (text)."""
        self.points_left = 0
        self.queue.append(self.queue.pop(0))
        self.setup_turns += 1
        if self.setup_turns >= FREE_SETUP_ROUNDS * self.seat_count:
            self.queue = []
            self.new_influence = [0] * PROVINCES
            self._setup_roles()
            self._start_turn()
            return
        self._setup_next()

    def _found_capital(self, seat: int, province: int) -> None:
        """Free set-up: ``seat`` founds its capital in ``province``, then builds."""
        self.capital[self.civ_of[seat]] = province
        self.emit("capital_founded", seat=seat, province=SPACE_IDS[province])
        self.step = SETUP_BUILD
        if not self.build_options(seat):
            self._setup_advance()
