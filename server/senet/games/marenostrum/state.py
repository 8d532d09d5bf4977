"""The Mare Nostrum state machine: set-up, the role step and the four phases.

One :class:`MareState` is a whole match. A decision sets ``step`` (and ``actor``)
and stops; the choice made there continues the phase. Which choices a step offers
and what each does is one table, :data:`STEPS`, with the powers a seat may use in
the middle of a step, :data:`POWERS`, consulted first (see :meth:`MareState._dispatch`).

Trade offers are the one place where several seats decide at once
(:meth:`MareState.deciding_seats`): every trader picks its offered cards, hidden in
``offers``, and the offers are revealed together when the last trader is done.

Hidden information: hands (sizes are public), pending offers (their size is
public) and the heroes and wonders set aside (derivable from the public pool, so
never shown). Everything else is public.

The class is put together from one mixin per part of the game, each in its module:
``data`` (the attributes and the queries every phase asks), ``set_up``, ``turns``
(the role step and the ordered phases), ``commerce``, ``purchases`` (paying, for
builds, heroes, wonders and gods), ``construction``, ``military``, ``blockade`` and
``powers`` (heroes' and wonders' powers played as actions). Beside them: ``rules``
(the board queries and the arithmetic of the rules), ``gods``, ``labels``,
``snapshot`` and the data modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from senet.games.errors import MalformedActionError
from senet.games.interface import Event, Game, JsonDict
from senet.games.marenostrum import actions as act
from senet.games.marenostrum import gifts, gods, labels, occupation, rules, snapshot
from senet.games.marenostrum.actions import MareAction, is_well_formed
from senet.games.marenostrum.blockade import GreekBlockade
from senet.games.marenostrum.cards import GODS
from senet.games.marenostrum.commerce import Commerce
from senet.games.marenostrum.commodities import CARD_TYPES
from senet.games.marenostrum.constants import (
    AFTER_BATTLE,
    BARTER,
    BLOCKADE,
    BUILD,
    COMMERCE,
    COMPENSATE,
    CONSTRUCTION,
    DECLARE,
    GIFT,
    GROUND,
    KEEP,
    LOSSES,
    NAVAL,
    NAVAL_GOD,
    NOBODY,
    OCCUPATION,
    OFFER,
    OFFERING,
    ORDER,
    OVER,
    PAY,
    ROLE_GOD,
    ROLE_TIE,
    SEA_GOD,
    SETUP_BUILD,
    SETUP_CAPITAL,
    SPELL,
    TAKE,
    TRADE_GOD,
    TRADE_SIZE,
    WAR_GOD,
)
from senet.games.marenostrum.powers import CardPowers
from senet.games.marenostrum.set_up import SetUp
from senet.games.marenostrum.snapshot import FIELDS
from senet.games.marenostrum.tokens import BUY_ITEM, CONVERT_ITEM, GOD_ITEM

A = MareAction


class MareState(SetUp, Commerce, GreekBlockade, CardPowers):
    """A Mare Nostrum: Mythology match in progress (or finished)."""

    state_fields = FIELDS
    #: What each part of the view is built from (:attr:`GameState.view_sources`).
    view_sources = snapshot.VIEW_SOURCES

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
        step = STEPS.get(self.step)
        return [] if step is None else step.actions(self, seat)

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
        """Play a legal ``action`` of ``seat``: a power by its kind, else by the step.

        The powers come first because a step offers them beside its own choices
        (Poseidon at the naval step; Baal, Vulcan, Cleopatra and Midas at the build
        step; Medusa at the ground step) and they leave the step where it is: the
        step's handler would read one as its own choice (a sail, a build, a move) and
        carry the phase on. No step offers a power's kind among its own choices, so
        this order is the only precedence between the two tables.
        """
        power = POWERS.get(action.kind)
        if power is not None:
            power(self, seat, action)
            return
        step = STEPS.get(self.step)
        if step is not None:
            step.play(self, seat, action)

    # ------------------------------------------------------ steps of the set-up
    def _capital_actions(self, seat: int) -> list[MareAction]:
        return [A(act.CAPITAL, p) for p in rules.free_capitals(self, self.civ_of[seat])]

    def _play_capital(self, seat: int, action: MareAction) -> None:
        self._found_capital(seat, action.a)

    def _setup_build_actions(self, seat: int) -> list[MareAction]:
        # Text: each round's 9 points are all spent; ``done`` only when nothing fits.
        return self.build_options(seat) or [A(act.DONE)]

    def _play_setup_build(self, seat: int, action: MareAction) -> None:
        if action.kind == act.DONE:
            self._setup_advance()
        else:
            self._setup_build(action)

    # ------------------------------------------- steps of the turn's frame
    def _role_tie_actions(self, seat: int) -> list[MareAction]:
        return [A(act.GRANT, s) for s in self.role_tie_candidates()]

    def _play_role_tie(self, seat: int, action: MareAction) -> None:
        self._grant_role(action.a)

    def _order_actions(self, seat: int) -> list[MareAction]:
        return [A(act.NEXT, s) for s in self.unordered]

    def _play_order(self, seat: int, action: MareAction) -> None:
        self._place_in_order(action.a)

    # ------------------------------------------------------ steps of commerce
    def _trade_size_actions(self, seat: int) -> list[MareAction]:
        return [A(act.SIZE, k) for k in range(self.hand_size(seat) + 1)]

    def _play_trade_size(self, seat: int, action: MareAction) -> None:
        self._start_trade(action.a)

    def _offer_actions(self, seat: int) -> list[MareAction]:
        return [A(act.OFFER, c) for c in self.offer_cards(seat)]

    def _play_offer(self, seat: int, action: MareAction) -> None:
        self._offer(seat, action.a)

    def _take_actions(self, seat: int) -> list[MareAction]:
        return [A(act.TAKE, s, c) for s, c in self.take_options()]

    def _play_take(self, seat: int, action: MareAction) -> None:
        self._take(action.a, action.b)

    def _compensate_actions(self, seat: int) -> list[MareAction]:
        hand = self.hands[seat]
        return [A(act.GIVE, c) for c in range(CARD_TYPES) if hand[c]]

    def _play_compensate(self, seat: int, action: MareAction) -> None:
        self._compensate(action.a)

    def _barter_actions(self, seat: int) -> list[MareAction]:
        return [*self.barter_options(seat), A(act.PASS)]

    def _play_barter(self, seat: int, action: MareAction) -> None:
        self._barter(action)

    # ------------------------------------ steps of offerings and construction
    def _offering_actions(self, seat: int) -> list[MareAction]:
        out = []
        if self.can_pay(seat, self.cost(seat, GOD_ITEM)):
            out = [A(act.GOD, g) for g in range(len(GODS)) if self.god_holder[g] == NOBODY]
        return [*out, A(act.PASS)]

    def _play_offering(self, seat: int, action: MareAction) -> None:
        if action.kind == act.PASS:
            self._next_player()
        else:
            self._start_purchase(seat, GOD_ITEM, action.a, -1, -1)

    def _build_actions(self, seat: int) -> list[MareAction]:
        invoke = gods.invoke_options(self, seat)
        return [*self.build_options(seat), *self.power_options(seat), *invoke, A(act.DONE)]

    def _play_build(self, seat: int, action: MareAction) -> None:
        kind = action.kind
        if kind == act.DONE:
            self._next_player()
        elif kind == act.BUY:
            self._start_purchase(seat, BUY_ITEM, action.a, -1, -1)
        elif kind == act.CONVERT:
            self._start_purchase(seat, CONVERT_ITEM, action.a, -1, -1)
        else:
            self._start_purchase(seat, action.a, action.a, action.b, action.c)

    def _keep_actions(self, seat: int) -> list[MareAction]:
        return [*(A(act.PAY, c) for c in self.keep_options(seat)), A(act.DONE)]

    def _play_keep(self, seat: int, action: MareAction) -> None:
        if action.kind == act.DONE:
            self._kept()
        else:
            self._give_back(seat, action.a)

    def _pay_actions(self, seat: int) -> list[MareAction]:
        return [A(act.PAY, card, helper) for card, helper in self.pay_options()]

    def _play_pay(self, seat: int, action: MareAction) -> None:
        self._pay(action.a, action.b)

    # ----------------------------------------------- steps of the military phase
    def _naval_actions(self, seat: int) -> list[MareAction]:
        civ = self.civ_of[seat]
        naval = rules.naval_options(self, civ)
        done = [] if rules.in_port(self, civ) else [A(act.DONE)]
        return [*naval, *gods.invoke_options(self, seat), *done]

    def _play_naval(self, seat: int, action: MareAction) -> None:
        if action.kind == act.DONE:
            self._end_naval()
        elif action.kind == act.SAIL:
            self._sail(seat, action.a, action.b)
        else:
            self._naval_battle(action.a, action.b)

    def _ground_actions(self, seat: int) -> list[MareAction]:
        moves = rules.ground_options(self, self.civ_of[seat])
        return [*moves, *self.gaze_options(seat), A(act.DONE)]

    def _play_ground(self, seat: int, action: MareAction) -> None:
        if action.kind == act.DONE:
            self._end_ground()
        else:
            self._ground_move(seat, action)

    def _declare_actions(self, seat: int) -> list[MareAction]:
        return self.declare_options()

    def _play_declare(self, seat: int, action: MareAction) -> None:
        self._declare(action)

    def _blockade_actions(self, seat: int) -> list[MareAction]:
        return [*(A(act.BLOCKADE, sea) for sea in self.blockade_options()), A(act.DONE)]

    def _play_blockade(self, seat: int, action: MareAction) -> None:
        self._blockade(action)

    def _sea_god_actions(self, seat: int) -> list[MareAction]:
        return [*self.sea_god_options(), A(act.PASS)]

    def _play_sea_god(self, seat: int, action: MareAction) -> None:
        self._sea_god(NOBODY)

    def _naval_god_actions(self, seat: int) -> list[MareAction]:
        return [*self.naval_god_options(), A(act.PASS)]

    def _play_naval_god(self, seat: int, action: MareAction) -> None:
        self._naval_god(NOBODY)

    def _losses_actions(self, seat: int) -> list[MareAction]:
        return [A(act.LOSE, k) for k in self.loss_options()]

    def _play_losses(self, seat: int, action: MareAction) -> None:
        self._choose_loss(action.a)

    def _after_battle_actions(self, seat: int) -> list[MareAction]:
        return rules.after_battle_options(self, self.after_space)

    def _play_after_battle(self, seat: int, action: MareAction) -> None:
        self._after_battle(action)

    def _occupation_actions(self, seat: int) -> list[MareAction]:
        return occupation.hold_options(self, self.after_space)

    def _play_occupation(self, seat: int, action: MareAction) -> None:
        self._hold(action)

    def _war_god_actions(self, seat: int) -> list[MareAction]:
        return [*gods.mars_options(self, self.war_space()), A(act.PASS)]

    def _play_war_god(self, seat: int, action: MareAction) -> None:
        self._war_god(False)

    def _gift_actions(self, seat: int) -> list[MareAction]:
        gift = gifts.due(self, seat)
        return [] if gift is None else [A(act.GIFT, card) for card in gift.kinds]

    def _play_gift(self, seat: int, action: MareAction) -> None:
        gift = gifts.due(self, seat)
        assert gift is not None, "the gift step offers only what is due"
        gifts.take(self, seat, gift, action.a)
        if gift.taken:
            self._ask_gifts()
        else:
            self._hermes_next(seat)

    def _hermes_next(self, seat: int) -> None:
        """Hermes's holder picks his next card where he has a choice (``gift``, ruling
        R18); once he has them all, the turn he invoked Hermes in goes on: the commerce
        phase's gods, his construction turn or his naval moves."""
        if gifts.settle(self, seat):
            self.step = GIFT
            self.actor = seat
        elif self.phase == COMMERCE:
            self._trade_god_done(True)
        elif self.phase == CONSTRUCTION:
            self.step = BUILD
        else:
            self.step = NAVAL

    def _spell_actions(self, seat: int) -> list[MareAction]:
        return [A(act.ENCHANT, self.battle_at_hand()[0]), A(act.PASS)]

    def _play_spell(self, seat: int, action: MareAction) -> None:
        self._spell(action.kind == act.ENCHANT)

    def _role_god_actions(self, seat: int) -> list[MareAction]:
        return [*gods.ishtar_options(self, seat), A(act.PASS)]

    def _play_role_god(self, seat: int, action: MareAction) -> None:
        self._settle_roles()

    def _trade_god_actions(self, seat: int) -> list[MareAction]:
        return [*gods.invoke_options(self, seat), A(act.PASS)]

    def _play_trade_god(self, seat: int, action: MareAction) -> None:
        self._trade_god_done(False)

    # ------------------------------------------- powers, played in any step
    def _play_invoke(self, seat: int, action: MareAction) -> None:
        gods.invoke(self, action)
        if action.a == gods.HERMES:
            self._hermes_next(seat)
        elif self.step == WAR_GOD:
            self._war_god(True)
        elif self.step == SEA_GOD:
            self._sea_god(action.b)
        elif self.step == NAVAL_GOD:
            self._naval_god(action.c)
        elif self.step == ROLE_GOD:
            self._settle_roles()
        elif self.step == TRADE_GOD:
            self._trade_god_done(True)

    def _play_swap(self, seat: int, action: MareAction) -> None:
        self._swap(seat, action.a, action.b)

    def _play_gild(self, seat: int, action: MareAction) -> None:
        self._gild(seat, action.a)

    def _play_gaze(self, seat: int, action: MareAction) -> None:
        self._gaze(seat, action.a, action.b)

    # ------------------------------------------------------------------ labels
    def describe(self, action: Any) -> str:
        return labels.describe(self, action)

    def explain_illegal(self, action: Any) -> str:
        return labels.explain_illegal(self, action)

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> JsonDict:
        return snapshot.view_of(self, seat)

    def view_parts(self, seat: int | None, parts: Iterable[tuple[str, ...]]) -> JsonDict:
        return snapshot.view_parts_of(self, seat, parts)

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


Actions = Callable[[MareState, int], list[MareAction]]
Play = Callable[[MareState, int, MareAction], None]


class Step(NamedTuple):
    """One decision step: the choices it offers a seat, and what a choice does."""

    actions: Actions
    play: Play


#: Every decision step, in the order of a turn. ``over`` is not a step: nothing is
#: offered and nothing is played once the match has ended.
STEPS: dict[str, Step] = {
    SETUP_CAPITAL: Step(MareState._capital_actions, MareState._play_capital),
    SETUP_BUILD: Step(MareState._setup_build_actions, MareState._play_setup_build),
    ROLE_GOD: Step(MareState._role_god_actions, MareState._play_role_god),
    ROLE_TIE: Step(MareState._role_tie_actions, MareState._play_role_tie),
    TRADE_GOD: Step(MareState._trade_god_actions, MareState._play_trade_god),
    TRADE_SIZE: Step(MareState._trade_size_actions, MareState._play_trade_size),
    OFFER: Step(MareState._offer_actions, MareState._play_offer),
    TAKE: Step(MareState._take_actions, MareState._play_take),
    COMPENSATE: Step(MareState._compensate_actions, MareState._play_compensate),
    BARTER: Step(MareState._barter_actions, MareState._play_barter),
    ORDER: Step(MareState._order_actions, MareState._play_order),
    OFFERING: Step(MareState._offering_actions, MareState._play_offering),
    BUILD: Step(MareState._build_actions, MareState._play_build),
    PAY: Step(MareState._pay_actions, MareState._play_pay),
    KEEP: Step(MareState._keep_actions, MareState._play_keep),
    NAVAL: Step(MareState._naval_actions, MareState._play_naval),
    GROUND: Step(MareState._ground_actions, MareState._play_ground),
    DECLARE: Step(MareState._declare_actions, MareState._play_declare),
    BLOCKADE: Step(MareState._blockade_actions, MareState._play_blockade),
    SEA_GOD: Step(MareState._sea_god_actions, MareState._play_sea_god),
    NAVAL_GOD: Step(MareState._naval_god_actions, MareState._play_naval_god),
    LOSSES: Step(MareState._losses_actions, MareState._play_losses),
    AFTER_BATTLE: Step(MareState._after_battle_actions, MareState._play_after_battle),
    OCCUPATION: Step(MareState._occupation_actions, MareState._play_occupation),
    WAR_GOD: Step(MareState._war_god_actions, MareState._play_war_god),
    SPELL: Step(MareState._spell_actions, MareState._play_spell),
    GIFT: Step(MareState._gift_actions, MareState._play_gift),
}

#: The powers a step offers beside its own choices, by action kind; each leaves the
#: step where it is. :meth:`MareState._dispatch` consults them before :data:`STEPS`.
POWERS: dict[str, Play] = {
    act.INVOKE: MareState._play_invoke,
    act.SWAP: MareState._play_swap,
    act.GILD: MareState._play_gild,
    act.GAZE: MareState._play_gaze,
}


__all__ = ["POWERS", "STEPS", "MareState", "Step"]
