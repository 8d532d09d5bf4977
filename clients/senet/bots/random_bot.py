"""The random bot: a baseline every other strategy must beat, and a cheap opponent."""

from __future__ import annotations

from typing import ClassVar

from senet.bots.base import Strategy, check_turn
from senet.games import Action, GameState


class RandomStrategy(Strategy):
    """Uniform over the legal actions, drawn from the strategy's seeded generator.

    The legal actions are the one thing it reads from ``state``: a seat always knows
    its own options (the conformance suite checks they never depend on hidden parts).
    """

    name: ClassVar[str] = "random"

    def choose(self, state: GameState, seat: int) -> Action:
        check_turn(state, seat)
        return self.rng.choice(state.legal_actions_for(seat))
