"""Learning-adapter benchmark: the PettingZoo environment beside the raw rules core.

For every game with an encoding, at its reference seat count (as in
:mod:`tests.bench.rules`), these workloads, interleaved round by round; each rate is
the median over rounds, and each ratio the median over rounds of the ratio within
the round (the machine's speed moves between rounds):

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
  numpy and the adapter's fixed costs take before any game work;
- *free observation*: the real environment whose tensor writers cost nothing (each
  seat's first tensor stays, copied at every step as a real one is;
  :func:`tests.bench.rl_bounds.free_observation_environment`): the most the
  environment could reach if the observation were free;
- *bare env*: PettingZoo's AEC API alone, with no game and no Senet code, at the
  game's sizes (:class:`tests.bench.rl_bounds.BareEnvironment`): a tensor and a mask
  copied, a counter. No AEC environment of the game can step faster than the core's
  decision and this together;
- *env as Python*: the same environment with its direct writers (and the plan
  engine they run on, :mod:`senet.rl.cells`) run as Python rather than their
  compiled twins (:mod:`senet.rl.native`,
  :func:`tests.bench.rl_bounds.python_writer_environment`): the twins' gain, in the
  same run (equal to *env* where no twin is built);
- *writer* and *writer twice*: the seats' tensor writers over recorded positions of
  random matches, each observation written once, then twice (the second call from
  the same state finds nothing changed: the comparisons alone;
  :class:`tests.bench.rl_bounds.WriterReplay`), in observations per second.

Machine-readable lines::

    rl.<game_id>.env_steps_per_s: <median environment steps/s>
    rl.<game_id>.env_vs_core: <that / the core's median decisions/s (target >= 0.5)>
    rl.<game_id>.writer_compiled: <1 when the environment's writers are compiled twins>
    rl.<game_id>.env_python_steps_per_s: <median env as Python steps/s>
    rl.<game_id>.compiled_vs_python: <env steps/s / env as Python steps/s>
    rl.<game_id>.core_view_decisions_per_s: <median core + view decisions/s>
    rl.<game_id>.env_vs_core_view: <env steps/s / core + view decisions/s>
    rl.<game_id>.null_env_steps_per_s: <median null environment steps/s>
    rl.<game_id>.env_vs_null_env: <env steps/s / null environment steps/s>
    rl.<game_id>.null_env_vs_core: <null environment steps/s / core decisions/s>
    rl.<game_id>.env_vs_core_ceiling: <f / (1 + f), f the figure above: the most
                                       env_vs_core can reach within the AEC API>
    rl.<game_id>.free_observation_vs_core: <free observation steps/s / core
                                           decisions/s>
    rl.<game_id>.observation_share: <1 - env / free observation: the share of a
                                    step the observation takes>
    rl.<game_id>.bare_env_vs_core: <bare env steps/s / core decisions/s>
    rl.<game_id>.bare_ceiling: <b / (1 + b), b the figure above: the most any AEC
                               environment's env_vs_core can reach>
    rl.<game_id>.writer_vs_decision: <an observation written / a core decision, in
                                     time>
    rl.<game_id>.writer_compare_vs_decision: <the writer's comparisons alone / a
                                             core decision>
    rl.<game_id>.env_vs_core_bound: <1 / (1 / free_observation_vs_core +
                                    writer_compare_vs_decision): the most env_vs_core
                                    can reach with an observation that costs only
                                    the comparisons that find what changed>

A real step costs a null step plus the game's own decision (the legal actions and
the move the core workload times), so with an observation that cost nothing its
speed over the core's would be ``1 / (1 / f + 1)``: the ceiling the issue's target
is to be read against.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from senet.games import Game, Rng, all_games
from senet.rl.encoding import ENCODINGS
from senet.rl.pettingzoo import SenetEnv, env
from tests.bench.null_env import null_environment
from tests.bench.rl_bounds import (
    WriterReplay,
    bare_environment,
    free_observation_environment,
    python_writer_environment,
    writes_compiled,
)
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


def episodes_workload(environment: AECEnv[str, dict[str, Any], int], label: str) -> Workload:
    """Random episodes of ``environment``, the next seed at each call."""
    seeds = iter(range(1, 1 << 62))
    return Workload(label, lambda: play_episode(environment, next(seeds)))


def play_episode(environment: AECEnv[str, dict[str, Any], int], seed: int) -> int:
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
        # times faster (25 against 4 us over Mare Nostrum's 10,453 entries), and in
        # one call (``np.flatnonzero`` wraps ``nonzero`` in two more).
        legal = observation["action_mask"].view(np.bool_).nonzero()[0]
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
    measured: list[_Measured] = []
    for game in chosen:
        seats = reference_seats(game)
        label = f"{game.info.id} {seats}p"
        game_id = game.info.id
        replay = WriterReplay(game_id, seats)
        measured.append(
            _Measured(
                game=game,
                core=senet_workload(game, seats, label=f"{label} core"),
                viewed=senet_workload(game, seats, play_core_with_views, f"{label} core + view"),
                env=senet_workload(game, seats, play_env_episode, f"{label} env"),
                python=episodes_workload(
                    python_writer_environment(game_id, seats), f"{label} env as Python"
                ),
                null=episodes_workload(null_environment(game_id, seats)[0], f"{label} null env"),
                free=episodes_workload(
                    free_observation_environment(game_id, seats), f"{label} free observation"
                ),
                bare=episodes_workload(bare_environment(game_id, seats), f"{label} bare env"),
                writer=Workload(f"{label} writer", replay.once),
                writer_twice=Workload(f"{label} writer twice", replay.twice),
                compiled=writes_compiled(env(game_id, seats)),
            )
        )
    order = [w for m in measured for w in m.workloads()]
    out(
        f"rl benchmark: random full episodes, {budget.rounds} interleaved round(s) of "
        f">={budget.seconds:g} s per workload; median over rounds"
    )
    measure_interleaved(order, budget)
    figures: dict[str, float] = {}
    for m in measured:
        core, viewed, adapter, python, null, free, bare, writer, twice = m.workloads()
        core_rate = core.median_steps_per_second()
        viewed_rate = viewed.median_steps_per_second()
        env_rate = adapter.median_steps_per_second()
        null_rate = null.median_steps_per_second()
        free_rate = free.median_steps_per_second()
        bare_rate = bare.median_steps_per_second()
        written = 1 / writer.median_steps_per_second()
        compared = _comparisons_s(writer.median_steps_per_second(), twice.median_steps_per_second())
        # Every ratio is the median over rounds of the ratio within a round: the
        # machine's speed moves between rounds, and the medians of two workloads may
        # come from rounds at different speeds.
        ratios = {
            "env_vs_core": _per_round(lambda c, e: e / c, core, adapter),
            "env_vs_core_view": _per_round(lambda v, e: e / v, viewed, adapter),
            "compiled_vs_python": _per_round(lambda p, e: e / p, python, adapter),
            "env_vs_null_env": _per_round(lambda n, e: e / n, null, adapter),
            "null_env_vs_core": _per_round(lambda c, n: n / c, core, null),
            "env_vs_core_ceiling": _per_round(lambda c, n: n / (c + n), core, null),
            "free_observation_vs_core": _per_round(lambda c, f: f / c, core, free),
            "observation_share": _per_round(lambda f, e: 1 - e / f, free, adapter),
            "bare_env_vs_core": _per_round(lambda c, b: b / c, core, bare),
            "bare_ceiling": _per_round(lambda c, b: b / (c + b), core, bare),
            "writer_vs_decision": _per_round(lambda c, w: c / w, core, writer),
            "writer_compare_vs_decision": _per_round(_compared, core, writer, twice),
            "env_vs_core_bound": _per_round(
                lambda c, f, w, t: 1 / (c / f + _compared(c, w, t)), core, free, writer, twice
            ),
        }
        out(
            f"  {core.label}: {core_rate:,.0f} decisions/s; {viewed.label}: "
            f"{viewed_rate:,.0f} decisions/s; {adapter.label}: {env_rate:,.0f} steps/s; "
            f"{python.label}: {python.median_steps_per_second():,.0f} steps/s; "
            f"{null.label}: {null_rate:,.0f} steps/s; {free.label}: {free_rate:,.0f} steps/s; "
            f"{bare.label}: {bare_rate:,.0f} steps/s; an observation written "
            f"{written * 1e6:.1f} us, its comparisons alone {compared * 1e6:.1f} us, "
            f"a core decision {1e6 / core_rate:.1f} us (medians)"
        )
        name = f"rl.{m.game.info.id}"
        figures[f"{name}.env_steps_per_s"] = round(env_rate, 1)
        figures[f"{name}.writer_compiled"] = float(m.compiled)
        figures[f"{name}.env_python_steps_per_s"] = round(python.median_steps_per_second(), 1)
        figures[f"{name}.core_view_decisions_per_s"] = round(viewed_rate, 1)
        figures[f"{name}.null_env_steps_per_s"] = round(null_rate, 1)
        for figure, value in ratios.items():
            figures[f"{name}.{figure}"] = round(value, 3)
    for name, value in figures.items():
        out(f"{name}: {value:g}")
    return figures


@dataclass(frozen=True)
class _Measured:
    """One game's workloads (see the module's docstring)."""

    game: Game
    core: Workload
    viewed: Workload
    env: Workload
    python: Workload
    null: Workload
    free: Workload
    bare: Workload
    writer: Workload
    writer_twice: Workload
    #: Whether the environment's writers are compiled twins.
    compiled: bool

    def workloads(self) -> tuple[Workload, ...]:
        return (
            self.core, self.viewed, self.env, self.python, self.null, self.free,
            self.bare, self.writer, self.writer_twice,
        )  # fmt: skip


def _per_round(ratio: Callable[..., float], *workloads: Workload) -> float:
    """The median over rounds of ``ratio`` of the workloads' rates in that round."""
    rounds = zip(*(w.samples for w in workloads), strict=True)
    return statistics.median(ratio(*(s.steps_per_second for s in samples)) for samples in rounds)


def _comparisons_s(once: float, twice: float) -> float:
    """The writer's comparisons alone, in seconds an observation, from the rates of
    the writer and of the writer writing each observation twice."""
    return max(0.0, 1 / twice - 1 / once)


def _compared(core: float, once: float, twice: float) -> float:
    """The writer's comparisons alone in core decisions (``core``: their rate)."""
    return _comparisons_s(once, twice) * core
