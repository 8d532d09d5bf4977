"""The greedy bot: one ply of lookahead judged by the game's evaluator.

Cheap enough to play hundreds of actions a second, and a fair yardstick: it knows
what things are worth (``senet.bots.heuristics``) but not what rivals will do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from senet.bots.base import Strategy, check_turn, information_set_root
from senet.bots.heuristics import Evaluator, advantage, evaluator_for
from senet.games import Action, GameState

#: Scores closer than this are ties (float noise must not decide between equals).
TIE_TOLERANCE = 1e-9


def one_ply_scores(
    state: GameState, seat: int, actions: Sequence[Action], evaluate: Evaluator
) -> list[float]:
    """For each action, ``seat``'s advantage over its best rival right after it
    (teammates are not rivals).

    ``state`` must be a determinized copy (it is read whole); it is not modified.
    """
    allies = state.sides()[seat]
    scores = []
    for action in actions:
        after = state.clone()
        after.apply_unchecked(action, seat)
        scores.append(advantage(evaluate(after), seat, allies))
    return scores


class GreedyStrategy(Strategy):
    """Pick the action whose result the evaluator likes best; ties by the seeded rng.

    The lookahead runs on one sample of the information set (a state rebuilt from
    the seat's view), which matters only when an action ends a campaign and the
    next region is dealt from the unseen deck.
    """

    name: ClassVar[str] = "greedy"

    def __init__(self, *, seed: int, evaluator: Evaluator | None = None) -> None:
        super().__init__(seed=seed)
        self.evaluator = evaluator

    def choose(self, state: GameState, seat: int) -> Action:
        check_turn(state, seat)
        legal = state.legal_actions_for(seat)
        if len(legal) == 1:
            return legal[0]
        sample = information_set_root(state, seat, self.rng.next_u64())
        evaluate = self.evaluator or evaluator_for(state.game.info.id)
        scores = one_ply_scores(sample, seat, legal, evaluate)
        top = max(scores)
        best = [a for a, score in zip(legal, scores, strict=True) if score >= top - TIE_TOLERANCE]
        return self.rng.choice(best)
