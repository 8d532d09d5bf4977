"""The commerce phase: revenue, then the trade the Director sizes, and Ulysses's barter.

Offers are the one place where several seats decide at once (``deciding_seats``):
every trader picks its offered cards, hidden in ``offers``, and the offers are
revealed together when the last trader is done. Then the traders take from each
other's face-up offers in turn, starting with the Director.
"""

from __future__ import annotations

from senet.games.marenostrum import actions as act
from senet.games.marenostrum import gifts, gods, rules
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.cards import EXCHANGE, effects_of
from senet.games.marenostrum.commodities import CARD_NAMES, CARD_TYPES, COMMODITY_TYPES
from senet.games.marenostrum.constants import (
    BARTER,
    COMMERCE,
    COMMERCE_ROLE,
    COMPENSATE,
    GIFT,
    GIFT_TAKEN,
    NOBODY,
    OFFER,
    TAKE,
    TRADE_GOD,
    TRADE_SIZE,
)
from senet.games.marenostrum.turns import TurnOrder

A = MareAction


class Commerce(TurnOrder):
    """Revenue, the trade (size, offers, takes, compensation) and the barter."""

    def _start_commerce(self) -> None:
        self.phase = COMMERCE
        director = self.roles[COMMERCE_ROLE]
        taken = sum(GIFT_TAKEN.values())
        self.powers_used = [used & ~taken for used in self.powers_used]
        for i in range(self.seat_count):
            self.collect(*rules.revenue(self, (director + i) % self.seat_count))
        self._ask_gifts()

    def _ask_gifts(self) -> None:
        """Once the income is in, each owner of a card that brings a commodity of his
        choice takes it, in seat order from the Director, as the income is paid
        (rulings R52 and R44; :mod:`.gifts`). Then the holders of gods decide (ruling
        R18)."""
        director = self.roles[COMMERCE_ROLE]
        for i in range(self.seat_count):
            seat = (director + i) % self.seat_count
            if gifts.settle(self, seat):
                self.step = GIFT
                self.actor = seat
                return
        self._ask_trade_gods(0)

    def _ask_trade_gods(self, place: int) -> None:
        """Before the Director sizes the trade, each holder of a god with a power to
        use now decides, in seat order from the Director (ruling R18), from the seat at
        ``place`` in that order on; then the Director sizes the trade."""
        director = self.roles[COMMERCE_ROLE]
        for i in range(place, self.seat_count):
            seat = (director + i) % self.seat_count
            if gods.invoke_options(self, seat):
                self.step = TRADE_GOD
                self.actor = seat
                return
        self.step = TRADE_SIZE
        self.actor = director

    def _trade_god_done(self, invoked: bool) -> None:
        """The holder asked invoked a god (he is asked again while he holds another
        with a power to use) or passed (the next holder is asked)."""
        place = (self.actor - self.roles[COMMERCE_ROLE]) % self.seat_count
        self._ask_trade_gods(place if invoked else place + 1)

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

    def offer_cards(self, seat: int) -> list[int]:
        """Cards ``seat`` may offer next.

        Cards are offered in card-type order, each set in one way only; a card is
        offered only if enough cards of its type or later remain to finish."""
        hand = self.hands[seat]
        row = self.offers[seat]
        last = max([0, *(c for c in range(CARD_TYPES) if row[c])])
        needed = self.trade_size - sum(row)
        out: list[int] = []
        above = sum(hand[last:])
        for c in range(last, CARD_TYPES):
            if hand[c] and above >= needed:
                out.append(c)
            above -= hand[c]
        return out

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
        if not any(any(row) for row in self.face_up) or not self.take_options():
            self._end_trade()
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

    def _end_trade(self) -> None:
        """The chain is over: every card taken, or the taker has nobody to take from.

        Either way the Director has taken one card more than was taken from him and
        the last victim (the taker now) one card fewer; every other trader is even.
        Text step 8 (ruling R8) then has the Director give that player a card."""
        director = self.roles[COMMERCE_ROLE]
        for seat in self.traders:
            for card in range(CARD_TYPES):
                # Ruling R8: offered cards nobody could take go back to their owner.
                self.hands[seat][card] += self.face_up[seat][card]
            self.face_up[seat] = [0] * CARD_TYPES
        short = self.taker
        if short != director:
            # Text step 8: the Director gives the player one card short a card, from
            # the cards taken or the hand.
            for card in range(CARD_TYPES):
                self.hands[director][card] += self.face_down[director][card]
            self.face_down[director] = [0] * CARD_TYPES
            self.step = COMPENSATE
            self.actor = director
            return
        self._finish_trade()

    def _compensate(self, card: int) -> None:
        """Text step 8: the Director gives ``card`` to the player one card short."""
        director = self.roles[COMMERCE_ROLE]
        self.hands[director][card] -= 1
        self.hands[self.taker][card] += 1
        self.emit("compensated", seat=director, to=self.taker)
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
        """Ulysses: a card of the hand for any commodity of the bank but its own kind
        (ruling R21)."""
        if not any(e.arg == "after_trade" for e in effects_of(self.owned[seat], EXCHANGE)):
            return []
        hand, bank = self.hands[seat], self.bank
        wanted = [t for t in COMMODITY_TYPES if bank[t]]
        return [A(act.BARTER, c, t) for c in range(CARD_TYPES) if hand[c] for t in wanted if t != c]

    def _barter(self, action: MareAction) -> None:
        seat = self.actor
        if action.kind == act.BARTER:
            self.hands[seat][action.a] -= 1
            self.bank[action.a] += 1
            self.hands[seat][action.b] += 1
            self.bank[action.b] -= 1
            self.emit("card_power", seat=seat, card="ulysses")
        self._start_offerings()
