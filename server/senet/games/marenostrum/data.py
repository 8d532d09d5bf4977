"""The data of a Mare Nostrum match and the queries every phase asks.

:class:`MareData` holds every attribute of a match (each is declared once more, for
clones and snapshots, in :mod:`~senet.games.marenostrum.snapshot`), records the events
of the action being applied, and answers what several phases need: what an item costs
a seat, whether it can pay, the ranking. Each phase is a mixin on top of it, in a
module of its own, and :class:`~senet.games.marenostrum.state.MareState` combines
them with the step table.

Every piece on the board belongs to one of the six civilizations (players and neutrals
alike), so the board is a handful of per-civilization rows indexed by space (provinces,
then seas); a seat plays the civilization ``civ_of[seat]``.
"""

from __future__ import annotations

from typing import Any

from senet.games.interface import Event, Game, GameState, JsonDict
from senet.games.marenostrum import rules
from senet.games.marenostrum.board import PROVINCES, SPACES
from senet.games.marenostrum.cards import COST, GOD_COST, GODS, PYRAMIDS_INDEX, effects_of
from senet.games.marenostrum.civilizations import CAPITALS, CIVS
from senet.games.marenostrum.commodities import (
    CARD_NAMES,
    CARD_TYPES,
    COMMODITY_TYPES,
    TAX,
    bank_start,
    draw,
)
from senet.games.marenostrum.constants import NOBODY, OVER, ROLE_IDS, SETUP, SETUP_BUILD
from senet.games.marenostrum.tokens import (
    BUILDING_NAMES,
    BUILDING_STOCK,
    BUY_ITEM,
    CITY,
    CONVERT_ITEM,
    GOD_ITEM,
    HERO_COST,
    INFLUENCE,
    ITEM_COST,
    ITEMS,
    MARKET,
    PYRAMIDS_COST,
    PYRAMIDS_COST_LONG,
    TEMPLE,
    VICTORY_CARDS,
    VICTORY_CARDS_LONG,
)


class MareData(GameState):
    """Every attribute of a match, and the queries and bookkeeping all phases share."""

    def __init__(self, game: Game, seat_count: int, options: JsonDict) -> None:
        self.game = game
        self.seat_count = seat_count
        self.options = dict(options)
        n = seat_count
        self.rng = rules.new_rng()
        self.civ_of = list(range(n))
        self.seat_of = [NOBODY] * CIVS
        self.capital = list(CAPITALS)
        self.influence = [NOBODY] * PROVINCES
        self.legions = [[0] * PROVINCES for _ in range(CIVS)]
        self.creatures = [[0] * PROVINCES for _ in range(CIVS)]
        # Per civilization and space: launched triremes at sea, unlaunched in provinces.
        self.triremes = [[0] * SPACES for _ in range(CIVS)]
        self.fortresses = [0] * PROVINCES
        self.cities = [0] * PROVINCES
        # Per province, a bit per commodity icon (in ICONS order) carrying a caravan.
        self.caravans = [0] * PROVINCES
        self.temples = [0] * PROVINCES
        self.markets = [0] * PROVINCES
        self.stock = list(BUILDING_STOCK[n])
        self.occupier = [NOBODY] * PROVINCES
        # Per province, the buildings the occupier's units stand on, by building kind
        # (caravans as icon bits): see :mod:`.occupation`.
        self.held = [[0] * len(BUILDING_NAMES) for _ in range(PROVINCES)]
        self.converter = [NOBODY] * PROVINCES
        self.new_influence = [0] * PROVINCES
        self.bank = bank_start()
        self.hands = [[0] * CARD_TYPES for _ in range(n)]
        self.offers = [[0] * CARD_TYPES for _ in range(n)]
        self.face_up = [[0] * CARD_TYPES for _ in range(n)]
        self.face_down = [[0] * CARD_TYPES for _ in range(n)]
        self.traders: list[int] = []
        self.trade_size = 0
        self.taker = NOBODY
        # The last two trades as [taker, victim, taker, victim] (two in a row rule).
        self.last_trades: list[int] = []
        self.owned: list[list[int]] = [[] for _ in range(n)]
        self.available: list[int] = []
        self.set_aside: list[int] = []
        self.god_holder = [NOBODY] * len(GODS)
        self.god_used = [0] * len(GODS)
        self.roles = [NOBODY] * len(ROLE_IDS)
        self.role_index = 0
        # The role Ishtar's +2 went to at this turn's role step (-1: none).
        self.ishtar_role = NOBODY
        self.turn = 0
        self.phase = SETUP
        self.step = SETUP_BUILD
        self.actor = 0
        # Seats still to play in this phase, in order (the first is playing now).
        self.queue: list[int] = []
        # Seats the role holder has not yet placed in this phase's order.
        self.unordered: list[int] = []
        # The purchase being paid: [item, a, b, c], cards still to pay, and the set so
        # far (bit 0: tax; bit t: commodity t).
        self.purchase: list[int] = []
        self.pay_left = 0
        self.pay_mask = 0
        self.free_left = [[0] * len(ITEMS) for _ in range(n)]
        # Per seat, once-per-phase card powers used (the ``*_POWER`` bits).
        self.powers_used = [0] * n
        self.setup_turns = 0
        self.points_left = 0
        # Military: per space, how many of the mover's units arrived this turn.
        self.moved_legions = [0] * PROVINCES
        self.moved_creatures = [0] * PROVINCES
        self.moved_triremes = [0] * SPACES
        # Battles fought this turn by the mover: space * CIVS + enemy civilization.
        self.fought: list[int] = []
        # Provinces where a Sphinx defended this military turn (no sack, no convert).
        self.cursed: list[int] = []
        # Civilizations whose Hydra regrew in the battle being fought.
        self.regrown: list[int] = []
        # Provinces still to resolve after the mover's ground moves.
        self.pending: list[int] = []
        # Losses still to choose: rows [civ, space, count].
        self.losses: list[list[int]] = []
        self.after_space = NOBODY
        # A crossing waiting on the Greek blockade: [legions, creatures, start, end,
        # *chain seas], and the seas where Greece has already attacked it.
        self.blockade: list[int] = []
        self.blockaded: list[int] = []
        # A crossing by sea about to land while Poseidon's holder decides (ruling
        # R56): [legions, creatures, start, end, *chain seas].
        self.crossing: list[int] = []
        self.winner = NOBODY
        self._events: list[Event] | None = None

    def emit(self, kind: str, audience: frozenset[int] | None = None, **data: Any) -> None:
        """Record an event of the action being applied (to ``audience`` only, when given).

        Nothing is recorded when the action is applied unchecked (search, replay)."""
        if self._events is not None:
            self._events.append(Event(kind, data, audience))

    def _draw(self, seat: int, card: int, count: int) -> int:
        """Move up to ``count`` cards of ``card`` from the bank to ``seat``'s hand."""
        return draw(self.bank, self.hands[seat], card, count)

    def collect(self, seat: int, cards: list[int]) -> None:
        """``seat`` draws ``cards`` (a count per card type) as income, as far as the
        bank holds them: how many is public, which ones are told to ``seat`` alone."""
        got = [self._draw(seat, card, count) for card, count in enumerate(cards)]
        if any(got):
            self.emit("revenue", seat=seat, cards=sum(got))
            self.emit(
                "revenue_cards",
                frozenset({seat}),
                seat=seat,
                cards={CARD_NAMES[c]: n for c, n in enumerate(got) if n},
            )

    def free_item(self, seat: int, item: int) -> int:
        """The entry of ``free_left`` that pays ``item`` for ``seat`` now, or -1.

        Completing a conversion is building an influence marker (L150: "the invading
        player MAY construct their own influence marker to replace the existing one
        ... cost paid"), so Hammurabi's free marker pays it as Aeneas's price does
        (ruling R54)."""
        slot = INFLUENCE if item == CONVERT_ITEM else item
        if slot < BUY_ITEM and self.free_left[seat][slot] > 0:
            return slot
        return -1

    def cost(self, seat: int, item: int, card: int = -1) -> int:
        """What ``item`` costs ``seat`` now: the best single reduction applies (text)."""
        if self.free_item(seat, item) >= 0:
            return 0
        if item == GOD_ITEM:
            name, base = "god", GOD_COST
        elif item == CONVERT_ITEM:
            name, base = "influence", ITEM_COST[INFLUENCE]
        elif item == BUY_ITEM:
            if card == PYRAMIDS_INDEX:
                name = "pyramids"
                base = PYRAMIDS_COST_LONG if self.options.get("long_game") else PYRAMIDS_COST
            else:
                name, base = "hero", HERO_COST
        else:
            name, base = ITEMS[item], ITEM_COST[item]
        reduced = [e.amount for e in effects_of(self.owned[seat], COST) if e.arg == name]
        return min([base, *reduced])

    def can_pay(self, seat: int, cost: int) -> bool:
        """Whether ``seat`` holds one set of ``cost`` cards (tax only or all different)."""
        if cost == 0:
            return True
        hand = self.hands[seat]
        kinds = sum(1 for t in COMMODITY_TYPES if hand[t])
        if hand[TAX] >= cost or kinds >= cost:
            return True
        return kinds + self.set_spare(seat) >= cost

    def set_spare(self, seat: int) -> int:
        """Cards the Temple of Artemis adds to ``seat``'s next commodity set now."""
        return rules.set_spare(self.owned[seat], self.powers_used[seat], self.phase)

    def hand_size(self, seat: int) -> int:
        """Cards in ``seat``'s hand (public)."""
        return sum(self.hands[seat])

    def victory_cards(self) -> int:
        """Heroes and wonders a player needs to win."""
        return VICTORY_CARDS_LONG if self.options.get("long_game") else VICTORY_CARDS

    def _add_building(self, province: int, kind: int) -> None:
        self.stock[kind] -= 1
        if kind == CITY:
            self.cities[province] += 1
        elif kind == TEMPLE:
            self.temples[province] += 1
        elif kind == MARKET:
            self.markets[province] += 1

    def scores(self) -> list[int]:
        """Heroes and wonders owned (the Pyramids count as the winning card)."""
        return [len(self.owned[s]) for s in range(self.seat_count)]

    def ranking(self) -> list[int]:
        """The winner first; then by heroes and wonders, provinces, roles (ruling R11)."""
        keys = [rules.rank_key(self, s) for s in range(self.seat_count)]
        return [1 + sum(1 for other in keys if other > key) for key in keys]

    def _finish(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.step = OVER
        self.queue = []
        self.actor = NOBODY
        self.emit("game_over", winner=winner, reason=reason, ranking=self.ranking())
