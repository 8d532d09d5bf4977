"""Learning-adapter benchmark: the PettingZoo environment beside the raw rules core.

For every game with an encoding, at its reference seat count (as in
:mod:`tests.bench.rules`): random full matches through the rules core
(``legal_actions()``, a seeded choice, ``apply_unchecked``) in decisions per second,
and random full episodes through :func:`senet.rl.pettingzoo.env` (``last()`` with its
observation tensor and action mask, a seeded choice among the mask's ones,
``step``) in environment steps per second. Workloads are interleaved round by round
and each figure is the median over rounds. Machine-readable lines::

    rl.<game_id>.env_steps_per_s: <median environment steps/s>
    rl.<game_id>.env_vs_core: <that / the core's median decisions/s (target >= 0.5)>
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

import numpy as np

from senet.games import Game, Rng, all_games
from senet.rl.encoding import ENCODINGS
from senet.rl.pettingzoo import env
from tests.bench.rules import (
    CHOOSER_SALT,
    DEFAULT_BUDGET,
    QUICK_BUDGET,
    Budget,
    Workload,
    measure_interleaved,
    reference_seats,
    senet_workload,
)


def play_env_episode(game: Game, seats: int, seed: int) -> int:
    """One random episode of the game's environment from ``seed``; return its steps."""
    environment = env(game.info.id, seats)
    environment.reset(seed=seed)
    chooser = Rng(seed ^ CHOOSER_SALT)
    steps = 0
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(legal[chooser.below(len(legal))]))
        steps += 1
    return steps


def run(
    *,
    quick: bool = False,
    out: Callable[[str], None] = print,
    budget: Budget | None = None,
    games: Sequence[Game] | None = None,
) -> dict[str, float]:
    """Measure, print human-readable lines then ``name: value`` lines; return the latter."""
    if budget is None:
        budget = QUICK_BUDGET if quick else DEFAULT_BUDGET
    chosen = [
        g for g in (all_games() if games is None else games) if g.info.id in ENCODINGS.game_ids()
    ]
    pairs: list[tuple[Game, Workload, Workload]] = []
    for game in chosen:
        seats = reference_seats(game)
        core = senet_workload(game, seats, label=f"{game.info.id} {seats}p core")
        adapter = senet_workload(game, seats, play_env_episode, f"{game.info.id} {seats}p env")
        pairs.append((game, core, adapter))
    order = [w for _, core, adapter in pairs for w in (core, adapter)]
    out(
        f"rl benchmark: random full episodes, {budget.rounds} interleaved round(s) of "
        f">={budget.seconds:g} s per workload; median over rounds"
    )
    measure_interleaved(order, budget)
    figures: dict[str, float] = {}
    for game, core, adapter in pairs:
        core_rate = core.median_steps_per_second()
        env_rate = adapter.median_steps_per_second()
        paired = statistics.median(
            e.steps_per_second / c.steps_per_second
            for e, c in zip(adapter.samples, core.samples, strict=True)
        )
        out(
            f"  {core.label}: {core_rate:,.0f} decisions/s; {adapter.label}: "
            f"{env_rate:,.0f} steps/s ({paired:.3f} of the core's, median per round)"
        )
        figures[f"rl.{game.info.id}.env_steps_per_s"] = round(env_rate, 1)
        figures[f"rl.{game.info.id}.env_vs_core"] = round(env_rate / core_rate, 3)
    for name, value in figures.items():
        out(f"{name}: {value:g}")
    return figures
