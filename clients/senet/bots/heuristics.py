"""Position evaluation for the bots, in each game's own score units: the generic part.

An *evaluator* maps a state to one number per seat: roughly the final score that
seat can expect from here. Greedy compares its seat's number with its rivals';
MCTS turns the numbers into rewards in [0, 1] when it cuts a playout short. Both
call it thousands of times per move, so evaluators read the state's fields directly
and avoid building views or dicts.

A game's evaluator is a plug-in: a :class:`GameHeuristics` published in the
``senet.bot_heuristics`` entry-point group under the game id (Senet's own live in
:mod:`senet.bots.mykerinos` and :mod:`senet.bots.archeos`). A game without one gets
:func:`score_values`, the scores so far, which is the honest fallback: it knows
nothing about the game but never misleads about what is already won.

A plug-in may also give the search an evaluator of its own
(:func:`search_evaluator_for`) that knows more, a forecast of what a position will
bring, say. Greedy keeps the plain one: it is the fixed yardstick the bots
benchmark measures MCTS against, and a greedy that knew more would move it.

Evaluators may read the whole state they are given: strategies only ever hand
them determinized copies (see ``senet.bots.base``), so nothing hidden leaks.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from senet.games import GameState
from senet.games.plugins import PluginRegistry

Evaluator = Callable[[GameState], list[float]]
#: Per seat, the seats on its side (itself first; its teammates in a team game).
Sides = Sequence[Sequence[int]]

#: Share of a reward in [0, 1] that comes from the place (the rest: the score margin).
RANK_WEIGHT = 0.6


# ------------------------------------------------------------------ generic
def score_values(state: GameState) -> list[float]:
    """The fallback evaluator: each seat's score so far."""
    return [float(score) for score in state.scores()]


def advantage(values: Sequence[float], seat: int, allies: Collection[int] = ()) -> float:
    """How far ``seat`` is ahead of its strongest rival (negative when behind).

    Greedy maximizes this rather than its own value so that it also counts what
    an action takes away from the leader (a block, a plot a rival wanted).
    ``allies`` (teammates) are not rivals.
    """
    rivals = [v for s, v in enumerate(values) if s != seat and s not in allies]
    return values[seat] - max(rivals) if rivals else values[seat]


def _rewards(
    places: Sequence[int], values: Sequence[float], sides: Sides | None = None
) -> list[float]:
    """Blend of place and margin, each in [0, 1], so rewards stay comparable.

    The place part is the share of rivals beaten (ties count half); the margin part
    is the lead over the best rival, divided by the spread of all values, so that a
    narrow win is worth less than a wide one whatever the game's score scale.
    """
    n = len(values)
    if n == 1:
        return [1.0]
    spread = max(max(values) - min(values), 1.0)
    out = []
    for seat in range(n):
        worse = sum(1 for p in places if p > places[seat])
        tied = sum(1 for p in places if p == places[seat]) - 1
        place = (worse + 0.5 * tied) / (n - 1)
        margin = advantage(values, seat, sides[seat] if sides else ()) / spread
        out.append(RANK_WEIGHT * place + (1.0 - RANK_WEIGHT) * (0.5 + 0.5 * margin))
    return out


def rewards_from_values(values: Sequence[float], sides: Sides | None = None) -> list[float]:
    """Per-seat rewards in [0, 1] for a position judged by an evaluator (``sides``:
    see ``GameState.sides``; teammates have equal values, so they share a place)."""
    places = [1 + sum(1 for other in values if other > v) for v in values]
    return _rewards(places, values, sides)


def final_rewards(state: GameState) -> list[float]:
    """Per-seat rewards in [0, 1] of a finished match: its ranking (the game's tie
    rules decide places) blended with the final score margin."""
    scores = [float(score) for score in state.scores()]
    return _rewards(state.ranking(), scores, state.sides())


# ------------------------------------------------------------------ plug-ins
@dataclass(frozen=True)
class GameHeuristics:
    """What the bots know of one game beyond its rules: a ``senet.bot_heuristics`` plug-in.

    Attributes:
        game_id: The game served (the entry point's name must be the same).
        values: The game's evaluator (greedy's, and MCTS's without ``search_values``).
        search_values: The evaluator MCTS searches with, when it differs.
    """

    game_id: str
    values: Evaluator
    search_values: Evaluator | None = None


#: The bot heuristics of every installed game, loaded when a game is first asked for.
BOT_HEURISTICS: PluginRegistry[GameHeuristics] = PluginRegistry(
    "senet.bot_heuristics", "bot heuristics", lambda heuristics: heuristics.game_id
)


def evaluator_for(game_id: str) -> Evaluator:
    """The evaluator of ``game_id``, or :func:`score_values` for a game without one."""
    heuristics = BOT_HEURISTICS.find(game_id)
    return heuristics.values if heuristics is not None else score_values


def search_evaluator_for(game_id: str) -> Evaluator:
    """The evaluator MCTS searches ``game_id`` with: the plug-in's ``search_values``,
    else :func:`evaluator_for`'s."""
    heuristics = BOT_HEURISTICS.find(game_id)
    if heuristics is not None and heuristics.search_values is not None:
        return heuristics.search_values
    return evaluator_for(game_id)
