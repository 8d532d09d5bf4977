"""The Mare Nostrum state machine: set-up, the role step and the four phases.

One :class:`MareState` is a whole match. Every piece on the board belongs to one of
the six civilizations (players and neutrals alike), so the board is a handful of
per-civilization rows indexed by space (provinces, then seas); a seat plays the
civilization ``civ_of[seat]``. A decision sets ``step`` (and ``actor``) and stops;
the handler of the decision continues the phase.

Trade offers are the one place where several seats decide at once
(:meth:`deciding_seats`): every trader picks its offered cards, hidden in
``offers``, and the offers are revealed together when the last trader is done.

Hidden information: hands (sizes are public), pending offers (their size is
public) and the heroes and wonders set aside (derivable from the public pool, so
never shown). Everything else is public.

Beside this module: ``rules`` (the board queries: adjacency, battles' arithmetic,
role counts), ``labels``, ``snapshot`` and the data modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from senet.games.errors import MalformedActionError
from senet.games.interface import Event, Game, GameState, JsonDict
from senet.games.marenostrum import actions as act
from senet.games.marenostrum import gods, labels, rules, snapshot
from senet.games.marenostrum.actions import MareAction, is_well_formed
from senet.games.marenostrum.board import (
    CITY_SITES,
    ICONS,
    LAND_NEIGHBOURS,
    PROVINCES,
    SHORES,
    SPACE_IDS,
    SPACES,
)
from senet.games.marenostrum.cards import (
    CIV_HEROES,
    COASTAL,
    COST,
    CURSE,
    EXCHANGE,
    EXEMPT,
    FIRST_STRIKE,
    FLIGHT,
    FORTRESS_LIMIT,
    FREE_BUILD,
    GOD_COST,
    GODS,
    KEEP_TAX_EFFECT,
    MYTHOLOGY_HANNIBAL,
    OWNABLE_IDS,
    PETRIFY,
    POOL_INDEXES,
    PYRAMIDS_INDEX,
    REGROW,
    SET_ASIDE,
    creature_effect,
    effects_of,
)
from senet.games.marenostrum.civilizations import (
    CAPITALS,
    CIV_IDS,
    CIVS,
    FREE_CAPITALS,
    GREECE,
    START,
    START_TAX_CARDS,
)
from senet.games.marenostrum.commodities import (
    CARD_NAMES,
    CARD_TYPES,
    COMMODITY_TYPES,
    TAX,
    bank_start,
    draw,
)
from senet.games.marenostrum.constants import (
    AFTER_BATTLE,
    ARTEMIS_POWER,
    BARTER,
    BLOCKADE,
    BUILD,
    CLEOPATRA_POWER,
    COMMERCE,
    COMMERCE_ROLE,
    COMPENSATE,
    CONSTRUCTION,
    CREATURE_UNIT,
    DECLARE,
    FORTRESS_UNIT,
    GROUND,
    LEGION_UNIT,
    LOSSES,
    MEDUSA_POWER,
    MIDAS_POWER,
    MILITARY,
    MILITARY_ROLE,
    NAVAL,
    NOBODY,
    OFFER,
    OFFERING,
    OFFERINGS,
    ORDER,
    OVER,
    PAY,
    PHASE_NAMES,
    PHASE_ROLE,
    POLITICAL_ROLE,
    PRIEST_ROLE,
    ROLE_IDS,
    ROLE_TIE,
    SETUP,
    SETUP_BUILD,
    SETUP_CAPITAL,
    TAKE,
    TRADE_SIZE,
)
from senet.games.marenostrum.snapshot import FIELDS
from senet.games.marenostrum.tokens import (
    BUILDING_STOCK,
    CARAVAN,
    CARAVAN_ITEM,
    CITY,
    CITY_ITEM,
    CREATURE,
    FORTRESS,
    FREE_SETUP_POINTS,
    FREE_SETUP_ROUNDS,
    HERO_COST,
    INFLUENCE,
    ITEM_COST,
    ITEMS,
    KEEP_TAX,
    LEGION,
    MARKET,
    MARKET_ITEM,
    MAX_CREATURES,
    MAX_FORTRESSES,
    MAX_INFLUENCE,
    MAX_LEGIONS,
    MAX_TRIREMES,
    PYRAMIDS_COST,
    PYRAMIDS_COST_LONG,
    TEMPLE,
    TEMPLE_ITEM,
    TRIREME,
    VICTORY_CARDS,
    VICTORY_CARDS_LONG,
)

A = MareAction
#: Pseudo item numbers for purchases paid like builds.
BUY_ITEM = len(ITEMS)
GOD_ITEM = BUY_ITEM + 1
CONVERT_ITEM = BUY_ITEM + 2
HANNIBAL = OWNABLE_IDS.index("hannibal")
#: Set-up order of the roles (ruling R9): military, political, commerce, priest.
SETUP_ROLE_ORDER = (MILITARY_ROLE, POLITICAL_ROLE, COMMERCE_ROLE, PRIEST_ROLE)


@dataclass
class SeaFight:
    """Two fleets' fight: each side's total, the faces it rolled and its losses."""

    first: int = 0
    second: int = 0
    first_lost: int = 0
    second_lost: int = 0
    first_dice: list[int] = field(default_factory=list)
    second_dice: list[int] = field(default_factory=list)


class MareState(GameState):
    """A Mare Nostrum: Mythology match in progress (or finished)."""

    state_fields = FIELDS

    # ------------------------------------------------------------------ setup
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
        # *chain seas], and
        # the seas where Greece has already attacked it.
        self.blockade: list[int] = []
        self.blockaded: list[int] = []
        self.winner = NOBODY
        self._events: list[Event] | None = None

    def setup(self, seed: int) -> None:
        """Lay out a new match from ``seed``: civilizations, cards, board, roles."""
        self.rng = rules.new_rng(seed)
        civs = list(range(CIVS))
        self.rng.shuffle(civs)
        self.civ_of = civs[: self.seat_count]
        self.seat_of = [NOBODY] * CIVS
        for seat, civ in enumerate(self.civ_of):
            self.seat_of[civ] = seat
        pool = list(POOL_INDEXES)
        self.rng.shuffle(pool)
        self.set_aside = sorted(pool[:SET_ASIDE])
        self.available = sorted(pool[SET_ASIDE:])
        for civ in range(CIVS):
            if self.seat_of[civ] == NOBODY:
                self._place_neutral(civ)
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

    def _place_neutral(self, civ: int) -> None:
        """Text: capital gets influence, creature, legion, fortress; ruling R3: the
        other two starting provinces get influence, legion, fortress."""
        start = START[civ]
        for province in start.provinces:
            self.influence[province] = civ
            self.legions[civ][province] += 1
            self.fortresses[province] += 1
        self.creatures[civ][start.provinces[0]] += 1

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

    def _add_building(self, province: int, kind: int) -> None:
        self.stock[kind] -= 1
        if kind == CITY:
            self.cities[province] += 1
        elif kind == TEMPLE:
            self.temples[province] += 1
        elif kind == MARKET:
            self.markets[province] += 1

    def _setup_roles(self) -> None:
        """Text: roles by building possession; ties at random, but nobody gets two."""
        self.roles = [NOBODY] * len(ROLE_IDS)
        counts = [rules.role_counts(self, seat) for seat in range(self.seat_count)]
        for role in SETUP_ROLE_ORDER:
            values = [counts[s][role] for s in range(self.seat_count)]
            best = [s for s in range(self.seat_count) if values[s] == max(values)]
            if len(best) > 1:
                free = [s for s in best if s not in self.roles]
                best = free or best
            self.roles[role] = best[0] if len(best) == 1 else self.rng.choice(best)
        self.emit("roles_assigned", roles=list(self.roles))

    # ------------------------------------------------------------- helpers
    def emit(self, kind: str, audience: frozenset[int] | None = None, **data: Any) -> None:
        """Record an event of the action being applied (to ``audience`` only, when given).

        Nothing is recorded when the action is applied unchecked (search, replay)."""
        if self._events is not None:
            self._events.append(Event(kind, data, audience))

    def _draw(self, seat: int, card: int, count: int) -> int:
        """Move up to ``count`` cards of ``card`` from the bank to ``seat``'s hand."""
        return draw(self.bank, self.hands[seat], card, count)

    def cost(self, seat: int, item: int, card: int = -1) -> int:
        """What ``item`` costs ``seat`` now: the best single reduction applies (text)."""
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
            if self.free_left[seat][item] > 0:
                return 0
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

    # ------------------------------------------------------------- turn flow
    def _start_turn(self) -> None:
        self.turn += 1
        limit = int(self.options.get("turn_limit", 0))
        if limit and self.turn > limit:
            self._finish(NOBODY, "turn_limit")
            return
        self.emit("turn_started", turn=self.turn)
        if self.turn > 1:
            self.role_index = 0
            counts = [rules.role_counts(self, s) for s in range(self.seat_count)]
            self.ishtar_role = gods.ishtar_role(self, counts)
            if self._reassign_roles():
                return
        self._start_commerce()

    def _reassign_roles(self) -> bool:
        """Text: the holder keeps a role on a tie; among tied others the holder picks.

        Returns True when the holder must pick (a ``role_tie`` decision)."""
        while self.role_index < len(ROLE_IDS):
            role = self.role_index
            holder = self.roles[role]
            counts = [self._role_count(s, role) for s in range(self.seat_count)]
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
        counts = [self._role_count(s, role) for s in range(self.seat_count)]
        return [s for s in range(self.seat_count) if counts[s] == max(counts)]

    def _role_count(self, seat: int, role: int) -> int:
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

    # --------------------------------------------------------------- commerce
    def _start_commerce(self) -> None:
        self.phase = COMMERCE
        director = self.roles[COMMERCE_ROLE]
        produced = [[0] * CARD_TYPES for _ in range(self.seat_count)]
        for i in range(self.seat_count):
            seat, cards = rules.revenue(self, (director + i) % self.seat_count)
            produced[seat] = cards
            self._collect((seat, cards))
        gods.after_revenue(self, produced)
        self.step = TRADE_SIZE
        self.actor = director

    def _collect(self, income: tuple[int, list[int]]) -> None:
        seat, cards = income
        got = [self._draw(seat, card, count) for card, count in enumerate(cards)]
        if any(got):
            self.emit("revenue", seat=seat, cards=sum(got))
            self.emit(
                "revenue_cards",
                frozenset({seat}),
                seat=seat,
                cards={CARD_NAMES[c]: n for c, n in enumerate(got) if n},
            )

    def _start_trade(self, size: int) -> None:
        self.trade_size = size
        director = self.roles[COMMERCE_ROLE]
        self.emit("trade_size", seat=director, size=size)
        traders = [s for s in range(self.seat_count) if self.hand_size(s) >= size]
        if size == 0 or len(traders) < 2:
            self._after_trading()
            return
        self.traders = traders
        self.step = OFFER

    def offer_done(self, seat: int) -> bool:
        """Whether ``seat`` has picked its whole offer."""
        return sum(self.offers[seat]) >= self.trade_size

    def _offer(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.offers[seat][card] += 1
        self.emit("card_offered", seat=seat, offered=sum(self.offers[seat]))
        self.emit("card_offered_private", frozenset({seat}), seat=seat, card=CARD_NAMES[card])
        if all(self.offer_done(s) for s in self.traders):
            self._reveal()

    def _reveal(self) -> None:
        """Text step 3: every offer is turned face up at once."""
        for seat in self.traders:
            self.face_up[seat] = self.offers[seat]
            self.offers[seat] = [0] * CARD_TYPES
        self.emit(
            "offers_revealed",
            offers={
                str(s): {CARD_NAMES[c]: n for c, n in enumerate(self.face_up[s]) if n}
                for s in self.traders
            },
        )
        self.step = TAKE
        self.taker = self.roles[COMMERCE_ROLE]
        self.last_trades = []
        self._next_take()

    def take_options(self) -> list[tuple[int, int]]:
        """(victim, card) pairs the taker may take (rules of text steps 4-6, ruling R8)."""
        taker = self.taker
        options = [
            (s, c)
            for s in self.traders
            if s != taker
            for c in range(CARD_TYPES)
            if self.face_up[s][c]
        ]
        trades = self.last_trades
        if (
            len(trades) == 4
            and {trades[0], trades[1]} == {trades[2], trades[3]}
            and taker in trades
        ):
            blocked = trades[0] if trades[1] == taker else trades[1]
            allowed = [o for o in options if o[0] != blocked]
            # Ruling R8: the limit is lifted when it is the only thing in the way.
            options = allowed or options
        return options

    def _next_take(self) -> None:
        if not any(any(row) for row in self.face_up):
            self._end_trade(complete=True)
        elif not self.take_options():
            self._end_trade(complete=False)
        else:
            self.actor = self.taker

    def _take(self, victim: int, card: int) -> None:
        taker = self.taker
        self.face_up[victim][card] -= 1
        self.face_down[taker][card] += 1
        self.last_trades = [*self.last_trades[-2:], taker, victim]
        self.emit("card_taken", seat=taker, victim=victim, card=CARD_NAMES[card])
        self.taker = victim
        self._next_take()

    def _end_trade(self, complete: bool) -> None:
        director = self.roles[COMMERCE_ROLE]
        for seat in self.traders:
            for card in range(CARD_TYPES):
                # Ruling R8: offered cards nobody could take go back to their owner.
                self.hands[seat][card] += self.face_up[seat][card]
            self.face_up[seat] = [0] * CARD_TYPES
        short = self.taker
        if complete and short != director:
            # Text step 8: the Director gives the player one card short a card, from
            # the cards taken or the hand.
            for card in range(CARD_TYPES):
                self.hands[director][card] += self.face_down[director][card]
            self.face_down[director] = [0] * CARD_TYPES
            self.step = COMPENSATE
            self.actor = director
            return
        self._finish_trade()

    def _finish_trade(self) -> None:
        for seat in self.traders:
            for card in range(CARD_TYPES):
                self.hands[seat][card] += self.face_down[seat][card]
            self.face_down[seat] = [0] * CARD_TYPES
        self.traders = []
        self.trade_size = 0
        self.taker = NOBODY
        self.last_trades = []
        self.emit("trade_over")
        self._after_trading()

    def _after_trading(self) -> None:
        """Ulysses's owner may barter with the bank once the trading is over (R21)."""
        for seat in range(self.seat_count):
            if self.barter_options(seat):
                self.step = BARTER
                self.actor = seat
                return
        self._start_offerings()

    def barter_options(self, seat: int) -> list[MareAction]:
        """Ulysses: a card of the hand for a commodity of the bank the hand lacks."""
        if not any(e.arg == "after_trade" for e in effects_of(self.owned[seat], EXCHANGE)):
            return []
        hand, bank = self.hands[seat], self.bank
        wanted = [t for t in COMMODITY_TYPES if bank[t] and not hand[t]]
        return [A(act.BARTER, c, t) for c in range(CARD_TYPES) if hand[c] for t in wanted]

    def _barter(self, action: MareAction) -> None:
        seat = self.actor
        if action.kind == act.BARTER:
            self.hands[seat][action.a] -= 1
            self.bank[action.a] += 1
            self.hands[seat][action.b] += 1
            self.bank[action.b] -= 1
            self.emit("card_power", seat=seat, card="ulysses")
        self._start_offerings()

    # -------------------------------------------------------- ordered phases
    def _start_phase(self, phase: int) -> None:
        """Start a phase whose order a role holder chooses, seat by seat."""
        self.phase = phase
        self.queue = []
        self.unordered = list(range(self.seat_count))
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
            for effect in free:
                self.free_left[seat][ITEMS.index(effect.arg)] += effect.amount
        else:
            self.step = NAVAL
            self.powers_used[seat] = 0
            self.moved_legions = [0] * PROVINCES
            self.moved_creatures = [0] * PROVINCES
            self.moved_triremes = [0] * SPACES
            self.fought = []
            self.cursed = []

    def _next_player(self) -> None:
        seat = self.queue.pop(0)
        self.free_left[seat] = [0] * len(ITEMS)
        self._begin_player()

    def _end_phase(self) -> None:
        if self.phase == OFFERINGS:
            self._start_construction()
        elif self.phase == CONSTRUCTION:
            self._discard()
            self._start_phase(MILITARY)
        else:
            self._start_turn()

    def _start_offerings(self) -> None:
        # Text: every god goes back to the heavens when an offering phase begins.
        self.god_holder = [NOBODY] * len(GODS)
        self.god_used = [0] * len(GODS)
        self._start_phase(OFFERINGS)

    def _start_construction(self) -> None:
        self.new_influence = [0] * PROVINCES
        self._start_phase(CONSTRUCTION)

    def _discard(self) -> None:
        """Text: unused commodities go back; a player keeps two tax cards (Solomon 5)."""
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

    # ------------------------------------------------------------ purchases
    def _start_purchase(self, seat: int, item: int, a: int, b: int, c: int) -> None:
        """Buy at the offering or construction step: pay now, or at once when free.

        The set-up never comes here: its builds spend points (``_setup_build``)."""
        cost = self.cost(seat, item, a)
        if item < BUY_ITEM and self.free_left[seat][item] > 0:
            self.free_left[seat][item] -= 1
        self.purchase = [item, a, b, c]
        self.pay_left = cost
        self.pay_mask = 0
        if cost == 0:
            self._complete_purchase()
        else:
            self.step = PAY

    def pay_options(self) -> list[int]:
        """Cards ``actor`` may pay next: the set stays completable, commodities rise."""
        hand = self.hands[self.actor]
        left = self.pay_left
        mask = self.pay_mask
        if mask == 1:
            return [TAX]
        out = []
        if mask == 0 and hand[TAX] >= left:
            out.append(TAX)
        last = mask.bit_length() - 1 if mask else 0
        higher = [t for t in COMMODITY_TYPES if t > last and hand[t]]
        # The Temple of Artemis counts in the first commodity set (ruling R20).
        spare = self.set_spare(self.actor) if mask == 0 else 0
        for i, card in enumerate(higher):
            if len(higher) - i + spare >= left:
                out.append(card)
        return out

    def _pay(self, card: int) -> None:
        seat = self.actor
        self.hands[seat][card] -= 1
        self.bank[card] += 1
        if card != TAX and self.pay_mask == 0:
            spare = self.set_spare(seat)
            if spare:
                self.powers_used[seat] |= ARTEMIS_POWER
                self.pay_left -= min(spare, self.pay_left - 1)
                self.emit("card_power", seat=seat, card="artemis")
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
            self._check_victory(seat, a)
        elif item == CONVERT_ITEM:
            old = self.influence[a]
            self.influence[a] = civ
            self.converter[a] = NOBODY
            self.occupier[a] = NOBODY
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

    def _finish(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.step = OVER
        self.queue = []
        self.actor = NOBODY
        self.emit("game_over", winner=winner, reason=reason, ranking=self.ranking())

    # ------------------------------------------------------------ build options
    def can_place(self, civ: int, province: int, war_ok: bool = False) -> bool:
        """Text: own influence, not placed this turn, not at war or occupied (capital ok).

        ``war_ok``: Moses's owner builds in its provinces at war too (ruling R25)."""
        if self.influence[province] != civ or self.new_influence[province]:
            return False
        if province == self.capital[civ]:
            return True
        if self.occupier[province] not in (NOBODY, civ):
            return False
        if self.converter[province] not in (NOBODY, civ):
            return False
        return war_ok or not rules.at_war(self, province)

    def build_options(self, seat: int) -> list[MareAction]:
        """Every ``build``, ``buy`` and ``convert`` ``seat`` can afford and place now."""
        civ = self.civ_of[seat]
        out: list[MareAction] = []
        setup = self.phase == SETUP

        def affordable(item: int, card: int = -1) -> bool:
            if setup:
                return (
                    ITEM_COST[item] <= self.points_left
                    if item < BUY_ITEM
                    else (self.points_left >= HERO_COST)
                )
            return self.can_pay(seat, self.cost(seat, item, card))

        if setup and self.influence[self.capital[civ]] != civ:
            if affordable(INFLUENCE):
                return [A(act.BUILD, INFLUENCE, self.capital[civ])]
            return []
        allowed = rules.setup_area(self, civ) if setup else None
        if affordable(INFLUENCE) and rules.markers_on_board(self, civ) < MAX_INFLUENCE:
            for province in rules.influence_targets(self, civ):
                if allowed is None or province in allowed:
                    out.append(A(act.BUILD, INFLUENCE, province))
        fortress_limit = max([1, *(e.amount for e in effects_of(self.owned[seat], FORTRESS_LIMIT))])
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
            if not self.temples[province] and self.stock[TEMPLE] and affordable(TEMPLE_ITEM):
                out.append(A(act.BUILD, TEMPLE_ITEM, province))
            if not self.markets[province] and self.stock[MARKET] and affordable(MARKET_ITEM):
                out.append(A(act.BUILD, MARKET_ITEM, province))
            if (
                self.fortresses[province] < fortress_limit
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
        for card in [*self.available, PYRAMIDS_INDEX]:
            if affordable(BUY_ITEM, card):
                out.append(A(act.BUY, card))
        return out

    # --------------------------------------------------------------- free set-up
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

    # ---------------------------------------------------------------- military
    def _end_naval(self) -> None:
        self.step = GROUND

    def _end_ground(self) -> None:
        civ = self.civ_of[self.actor]
        self.pending = [p for p in range(PROVINCES) if rules.ground_units(self, civ, p)]
        self._resolve_pending()

    def _resolve_pending(self) -> None:
        """Fight every battle the mover's ground units are in, then the after-battle
        choices (text: ground battles are obligatory)."""
        mover = self.civ_of[self.actor]
        while self.pending:
            province = self.pending[0]
            if not rules.ground_units(self, mover, province):
                self.pending.pop(0)
                continue
            enemy = rules.next_enemy(self, mover, province)
            if enemy != NOBODY:
                self.fought.append(province * CIVS + enemy)
                self._ground_battle(mover, enemy, province)
                if self._next_loss():
                    return
                continue
            self.pending.pop(0)
            if rules.may_exploit(self, mover, province) and rules.after_battle_options(
                self, province
            ):
                self.step = AFTER_BATTLE
                self.after_space = province
                return
        self.step = GROUND
        self._next_player()

    def _ground_battle(self, mover: int, enemy: int, province: int) -> None:
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
        attack += gods.mars_bonus(self, mover)
        defence += gods.mars_bonus(self, enemy)
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

    def _sea_fight(self, sea: int, first: int, second: int) -> SeaFight:
        """Both fleets in ``sea`` roll, ``first``'s dice first (the order fixes the
        draws), and each loses a trireme per 5 points the other rolled."""
        fight = SeaFight()
        fight.first = rules.naval_total(self, first, sea, fight.first_dice)
        fight.second = rules.naval_total(self, second, sea, fight.second_dice)
        fight.first_lost = min(fight.second // 5, self.triremes[first][sea])
        fight.second_lost = min(fight.first // 5, self.triremes[second][sea])
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
        province = self.after_space
        mover = self.civ_of[self.actor]
        self.after_space = NOBODY
        if action.kind == act.SACK:
            rules.sack(self, province, action.a, action.b)
            self.emit("sacked", seat=self.actor, province=SPACE_IDS[province])
        elif action.kind == act.OCCUPY:
            self.occupier[province] = mover
            self.emit("occupied", seat=self.actor, province=SPACE_IDS[province])
        elif action.kind == act.CONVERT:
            self.converter[province] = mover
            self.emit("converting", seat=self.actor, province=SPACE_IDS[province])
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

    # ------------------------------------------------------------ card powers
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

    # ------------------------------------------------------------ Greek blockade
    def _blockade_starts(self, seat: int, action: MareAction) -> bool:
        """Text: an attack on a Greek province across the sea must declare its chain;
        the Greek player may then attack its triremes where he has one too."""
        civ = self.civ_of[seat]
        greek = self.seat_of[GREECE]
        unit, start, end = action.a, action.b, action.c
        if greek == NOBODY or civ == GREECE or self.influence[end] != GREECE:
            return False
        if end in LAND_NEIGHBOURS[start] or (
            unit == 0 and end in rules.land_reach(self, civ, start)
        ):
            return False
        # Neither a raid (no ships) nor a flight (never carried) crosses by trireme.
        if unit == 0 and rules.raids(self, civ) and end in rules.raid_targets(self, civ, start):
            return False
        if unit == 1 and creature_effect(civ, FLIGHT):
            return False
        chain = rules.chain_path(self, civ, start, end)
        if not any(self.triremes[GREECE][sea] for sea in chain):
            return False
        self.blockade = [int(unit == 0), int(unit == 1), start, end, *chain]
        self.blockaded = []
        if self.join_options():
            self.step = DECLARE
            self.actor = seat
        else:
            self._declared(seat)
        return True

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

    def _declare(self, action: MareAction) -> None:
        if action.kind == act.MOVE:
            self.blockade[action.a] += 1
            if self.join_options():
                return
        self._declared(self.actor)

    def _declared(self, seat: int) -> None:
        """The crossing is declared: the Greek player answers."""
        legions, creatures, start, end = self.blockade[:4]
        self.step = BLOCKADE
        self.actor = self.seat_of[GREECE]
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
        legions, creatures, start, end = self.blockade[:4]
        if action.kind == act.BLOCKADE:
            sea = action.a
            self.blockaded.append(sea)
            fight = self._sea_fight(sea, GREECE, mover)
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
            if not self.triremes[mover][sea]:
                self.emit("blockade_held", province=SPACE_IDS[end])
                self._close_blockade(mover_seat)
                return
            if self.blockade_options():
                return
        self._close_blockade(mover_seat)
        for unit, count in ((0, legions), (1, creatures)):
            for _ in range(count):
                self._march(mover_seat, unit, start, end)

    def _close_blockade(self, mover_seat: int) -> None:
        self.blockade = []
        self.blockaded = []
        self.step = GROUND
        self.actor = mover_seat

    # ---------------------------------------------------------------- queries
    def current_seat(self) -> int | None:
        if self.step == OVER:
            return None
        if self.step == OFFER:
            return min(s for s in self.traders if not self.offer_done(s))
        return self.actor

    def is_over(self) -> bool:
        return self.step == OVER

    def deciding_seats(self) -> tuple[int, ...]:
        """Every trader still picking its offer (text: offers are chosen together)."""
        if self.step == OFFER:
            return tuple(s for s in self.traders if not self.offer_done(s))
        return () if self.step == OVER else (self.actor,)

    def legal_actions(self) -> list[MareAction]:  # type: ignore[override]
        seat = self.current_seat()
        return [] if seat is None else self._legal(seat)

    def legal_actions_for(self, seat: int) -> list[MareAction]:  # type: ignore[override]
        return self._legal(seat) if seat in self.deciding_seats() else []

    def _legal(self, seat: int) -> list[MareAction]:
        step = self.step
        if step == OFFER:
            hand = self.hands[seat]
            row = self.offers[seat]
            last = max([0, *(c for c in range(CARD_TYPES) if row[c])])
            # Cards are offered in card-type order, each set in one way only; a card
            # is offered only if enough cards of its type or later remain to finish.
            needed = self.trade_size - sum(row)
            out: list[MareAction] = []
            above = sum(hand[last:])
            for c in range(last, CARD_TYPES):
                if hand[c] and above >= needed:
                    out.append(A(act.OFFER, c))
                above -= hand[c]
            return out
        if step == TAKE:
            return [A(act.TAKE, s, c) for s, c in self.take_options()]
        if step == TRADE_SIZE:
            return [A(act.SIZE, k) for k in range(self.hand_size(seat) + 1)]
        if step == COMPENSATE:
            hand = self.hands[seat]
            return [A(act.GIVE, c) for c in range(CARD_TYPES) if hand[c]]
        if step == ROLE_TIE:
            return [A(act.GRANT, s) for s in self.role_tie_candidates()]
        if step == ORDER:
            return [A(act.NEXT, s) for s in self.unordered]
        if step == OFFERING:
            out = []
            if self.can_pay(seat, self.cost(seat, GOD_ITEM)):
                out = [A(act.GOD, g) for g in range(len(GODS)) if self.god_holder[g] == NOBODY]
            return [*out, A(act.PASS)]
        if step == BUILD:
            invoke = gods.invoke_options(self, seat, False)
            return [*self.build_options(seat), *self.power_options(seat), *invoke, A(act.DONE)]
        if step == SETUP_BUILD:
            return [*self.build_options(seat), A(act.DONE)]
        if step == PAY:
            return [A(act.PAY, c) for c in self.pay_options()]
        if step == SETUP_CAPITAL:
            return [A(act.CAPITAL, p) for p in rules.free_capitals(self, self.civ_of[seat])]
        if step == NAVAL:
            naval = rules.naval_options(self, self.civ_of[seat])
            return [*naval, *gods.invoke_options(self, seat, True), A(act.DONE)]
        if step == GROUND:
            moves = rules.ground_options(self, self.civ_of[seat])
            return [*moves, *self.gaze_options(seat), A(act.DONE)]
        if step == BARTER:
            return [*self.barter_options(seat), A(act.PASS)]
        if step == LOSSES:
            return [A(act.LOSE, k) for k in self.loss_options()]
        if step == BLOCKADE:
            return [*(A(act.BLOCKADE, sea) for sea in self.blockade_options()), A(act.DONE)]
        if step == DECLARE:
            return [*self.join_options(), A(act.DONE)]
        if step == AFTER_BATTLE:
            return [*rules.after_battle_options(self, self.after_space), A(act.LEAVE)]
        return []

    # ------------------------------------------------------------ transitions
    def coerce_action(self, action: object) -> MareAction:
        if isinstance(action, str):
            return act.parse_action(action)
        if isinstance(action, MareAction) and is_well_formed(action):
            return action
        raise MalformedActionError(f"not a Mare Nostrum action: {action!r}")

    def _apply(self, action: Any, events: list[Event] | None) -> None:
        seat = self.current_seat()
        assert seat is not None
        self._apply_for(seat, action, events)

    def _apply_for(self, seat: int, action: Any, events: list[Event] | None) -> None:
        self._events = events
        try:
            self._dispatch(seat, action)
        finally:
            self._events = None

    def _dispatch(self, seat: int, action: MareAction) -> None:
        kind = action.kind
        step = self.step
        if step == OFFER:
            self._offer(seat, action.a)
        elif step == TAKE:
            self._take(action.a, action.b)
        elif step == TRADE_SIZE:
            self._start_trade(action.a)
        elif step == COMPENSATE:
            director = self.roles[COMMERCE_ROLE]
            self.hands[director][action.a] -= 1
            self.hands[self.taker][action.a] += 1
            self.emit("compensated", seat=director, to=self.taker)
            self._finish_trade()
        elif step == ROLE_TIE:
            self._give_role(self.role_index, action.a)
            self.role_index += 1
            if not self._reassign_roles():
                self._start_commerce()
        elif step == BARTER:
            self._barter(action)
        elif step == ORDER:
            self.unordered.remove(action.a)
            self.queue.append(action.a)
            self._order_next()
        elif step == OFFERING:
            if kind == act.PASS:
                self._next_player()
            else:
                self._start_purchase(seat, GOD_ITEM, action.a, -1, -1)
        elif kind == act.INVOKE:
            gods.invoke(self, action)
        elif kind == act.SWAP:
            self._exchange(seat, {action.a: -1, action.b: 1}, CLEOPATRA_POWER, "cleopatra")
        elif kind == act.GILD:
            self._exchange(seat, {action.a: -1, TAX: self.gild_amount(seat)}, MIDAS_POWER, "midas")
        elif kind == act.GAZE:
            self._gaze(seat, action.a, action.b)
        elif step == BUILD:
            if kind == act.DONE:
                self._next_player()
            elif kind == act.BUY:
                self._start_purchase(seat, BUY_ITEM, action.a, -1, -1)
            elif kind == act.CONVERT:
                self._start_purchase(seat, CONVERT_ITEM, action.a, -1, -1)
            else:
                self._start_purchase(seat, action.a, action.a, action.b, action.c)
        elif step == PAY:
            self._pay(action.a)
        elif step == SETUP_CAPITAL:
            self.capital[self.civ_of[seat]] = action.a
            self.emit("capital_founded", seat=seat, province=SPACE_IDS[action.a])
            self.step = SETUP_BUILD
            if not self.build_options(seat):
                self._setup_advance()
        elif step == SETUP_BUILD:
            if kind == act.DONE:
                self._setup_advance()
            else:
                self._setup_build(action)
        elif step == NAVAL:
            if kind == act.DONE:
                self._end_naval()
            elif kind == act.SAIL:
                rules.sail(self, self.civ_of[seat], action.a, action.b)
                self.emit("sailed", seat=seat, start=SPACE_IDS[action.a], end=SPACE_IDS[action.b])
            else:
                self._naval_battle(action.a, action.b)
        elif step == GROUND:
            if kind == act.DONE:
                self._end_ground()
            elif not self._blockade_starts(seat, action):
                self._march(seat, action.a, action.b, action.c)
        elif step == BLOCKADE:
            self._blockade(action)
        elif step == DECLARE:
            self._declare(action)
        elif step == LOSSES:
            self._lose(action.a)
            if not self._next_loss():
                self._resolve_pending()
        elif step == AFTER_BATTLE:
            self._after_battle(action)

    # ------------------------------------------------------------------ results
    def scores(self) -> list[int]:
        """Heroes and wonders owned (the Pyramids count as the winning card)."""
        return [len(self.owned[s]) for s in range(self.seat_count)]

    def ranking(self) -> list[int]:
        """The winner first; then by heroes and wonders, provinces, roles (ruling R11)."""
        keys = [rules.rank_key(self, s) for s in range(self.seat_count)]
        return [1 + sum(1 for other in keys if other > key) for key in keys]

    # ------------------------------------------------------------------ labels
    def describe(self, action: Any) -> str:
        return labels.describe(self, action)

    def explain_illegal(self, action: Any) -> str:
        return labels.explain_illegal(self, action)

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> JsonDict:
        return snapshot.view_of(self, seat)

    def determinize(self, seat: int | None, seed: int) -> MareState:
        """Deal the cards ``seat`` cannot see afresh: other hands and pending offers."""
        return snapshot.determinized(self, seat, seed)

    # ---------------------------------------------------------- serialization
    @classmethod
    def from_data(cls, game: Game, data: Mapping[str, Any]) -> MareState:
        return snapshot.state_from_data(cls, game, data)

    @classmethod
    def from_view(cls, game: Game, view: Mapping[str, Any], seed: int) -> MareState:
        return snapshot.state_from_view(cls, game, view, seed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MareState) and self.to_data() == other.to_data()

    __hash__ = None  # type: ignore[assignment]


__all__ = ["CIV_HEROES", "MareState"]
