"""Learning-adapter benchmark: the PettingZoo environment beside the raw rules core.

For every game with an encoding, at its reference seat count (as in
:mod:`tests.bench.rules`), three workloads, interleaved round by round, each figure
the median over rounds:

- *core*: random full matches through the rules core (``legal_actions()``, a seeded
  choice, ``apply_unchecked``), in decisions per second: the issue's baseline;
- *core + view*: the same, plus the deciding seat's view (``view(seat)``) before each
  decision. This is the least any environment must do whose observations come from
  the seat's view, so the fair baseline for the adapter's own overhead: the core
  alone never builds a view, and a view costs about as much as a decision or more;
- *env*: random full episodes through :func:`senet.rl.pettingzoo.env` (``last()``
  with its observation tensor and action mask, a seeded choice among the mask's
  ones, ``step``), in environment steps per second; one environment per game, reset
  for each episode;
- *null env*: the same loop through the same environment (same action space, same
  tensor) over a core with no rules (:mod:`tests.bench.null_env`): as many legal
  actions per step and steps per episode as the game's random matches have, a
  counter as the move, the same tensor at every step. The floor: what the AEC API,
  numpy and the adapter's fixed costs take before any game work.

Machine-readable lines::

    rl.<game_id>.env_steps_per_s: <median environment steps/s>
    rl.<game_id>.env_vs_core: <that / the core's median decisions/s (target >= 0.5)>
    rl.<game_id>.core_view_decisions_per_s: <median core + view decisions/s>
    rl.<game_id>.env_vs_core_view: <env steps/s / core + view decisions/s>
    rl.<game_id>.null_env_steps_per_s: <median null environment steps/s>
    rl.<game_id>.env_vs_null_env: <env steps/s / null environment steps/s>
    rl.<game_id>.null_env_vs_core: <null environment steps/s / core decisions/s>
    rl.<game_id>.env_vs_core_ceiling: <f / (1 + f), f the figure above: the most
                                       env_vs_core can reach within the AEC API>

A real step costs a null step plus the game's own decision (the legal actions and
the move the core workload times), so with an observation that cost nothing its
speed over the core's would be ``1 / (1 / f + 1)``: the ceiling the issue's target
is to be read against.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

import numpy as np

from senet.games import Game, Rng, all_games
from senet.rl.encoding import ENCODINGS
from senet.rl.pettingzoo import SenetEnv, env
from tests.bench.null_env import null_environment
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

#: One environment per game and seat count, reset for each episode as a training loop
#: does (building one per episode cost a short Pebbles episode a third of its time).
_ENVIRONMENTS: dict[tuple[str, int], SenetEnv] = {}


def play_env_episode(game: Game, seats: int, seed: int) -> int:
    """One random episode of the game's environment from ``seed``; return its steps."""
    environment = _ENVIRONMENTS.get((game.info.id, seats))
    if environment is None:
        environment = _ENVIRONMENTS[game.info.id, seats] = env(game.info.id, seats)
    return play_episode(environment, seed)


def null_env_workload(game: Game, seats: int, label: str) -> Workload:
    """Episodes of the game's environment over its null core (see :mod:`tests.bench.null_env`)."""
    environment, _ = null_environment(game.info.id, seats)
    seeds = iter(range(1, 1 << 62))
    return Workload(label, lambda: play_episode(environment, next(seeds)))


def play_episode(environment: SenetEnv, seed: int) -> int:
    """One random episode of ``environment`` from ``seed``; return its steps."""
    environment.reset(seed=seed)
    chooser = Rng(seed ^ CHOOSER_SALT)
    steps = 0
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        # The int8 mask seen as booleans: numpy finds a boolean array's ones several
        # times faster (25 against 4 us over Mare Nostrum's 10,453 entries).
        legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
        environment.step(int(legal[chooser.below(len(legal))]))
        steps += 1
    return steps


def play_core_with_views(game: Game, seats: int, seed: int) -> int:
    """One random match through the rules core, building the deciding seat's view
    before each decision (as :func:`tests.bench.rules.play_senet_game` otherwise);
    return its decisions."""
    state = game.new_match(seats, dict(game.info.bounded_match_options), seed=seed)
    chooser = Rng(seed ^ CHOOSER_SALT)
    decisions = 0
    while not state.is_over():
        seat = state.deciding_seats()[0]
        state.view(seat)
        acts = state.legal_actions_for(seat)
        state.apply_unchecked(chooser.choice(acts), seat)
        decisions += 1
    return decisions


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
    measured: list[tuple[Game, Workload, Workload, Workload, Workload]] = []
    for game in chosen:
        seats = reference_seats(game)
        label = f"{game.info.id} {seats}p"
        core = senet_workload(game, seats, label=f"{label} core")
        viewed = senet_workload(game, seats, play_core_with_views, f"{label} core + view")
        adapter = senet_workload(game, seats, play_env_episode, f"{label} env")
        null = null_env_workload(game, seats, f"{label} null env")
        measured.append((game, core, viewed, adapter, null))
    order = [w for _, *workloads in measured for w in workloads]
    out(
        f"rl benchmark: random full episodes, {budget.rounds} interleaved round(s) of "
        f">={budget.seconds:g} s per workload; median over rounds"
    )
    measure_interleaved(order, budget)
    figures: dict[str, float] = {}
    for game, core, viewed, adapter, null in measured:
        core_rate = core.median_steps_per_second()
        viewed_rate = viewed.median_steps_per_second()
        env_rate = adapter.median_steps_per_second()
        null_rate = null.median_steps_per_second()
        out(
            f"  {core.label}: {core_rate:,.0f} decisions/s; {viewed.label}: "
            f"{viewed_rate:,.0f} decisions/s; {adapter.label}: {env_rate:,.0f} steps/s "
            f"({_paired(adapter, core):.3f} of the core's, {_paired(adapter, viewed):.3f} of "
            f"the core + view's, median per round); {null.label}: {null_rate:,.0f} steps/s "
            f"({_paired(null, core):.3f} of the core's; the env {_paired(adapter, null):.3f} "
            "of it)"
        )
        figures[f"rl.{game.info.id}.env_steps_per_s"] = round(env_rate, 1)
        figures[f"rl.{game.info.id}.env_vs_core"] = round(env_rate / core_rate, 3)
        figures[f"rl.{game.info.id}.core_view_decisions_per_s"] = round(viewed_rate, 1)
        figures[f"rl.{game.info.id}.env_vs_core_view"] = round(env_rate / viewed_rate, 3)
        figures[f"rl.{game.info.id}.null_env_steps_per_s"] = round(null_rate, 1)
        figures[f"rl.{game.info.id}.env_vs_null_env"] = round(env_rate / null_rate, 3)
        floor = null_rate / core_rate
        figures[f"rl.{game.info.id}.null_env_vs_core"] = round(floor, 3)
        figures[f"rl.{game.info.id}.env_vs_core_ceiling"] = round(floor / (1 + floor), 3)
    for name, value in figures.items():
        out(f"{name}: {value:g}")
    return figures


def _paired(workload: Workload, baseline: Workload) -> float:
    """The median over rounds of ``workload``'s rate over ``baseline``'s in that round."""
    return statistics.median(
        w.steps_per_second / b.steps_per_second
        for w, b in zip(workload.samples, baseline.samples, strict=True)
    )
