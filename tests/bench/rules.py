"""Rules benchmark: random full games of every registered game beside python-chess.

Baseline: random full games of chess with python-chess (``list(board.legal_moves)``,
a seeded :class:`random.Random` choice, ``board.push``; at most 400 plies), in moves
per second. For every registered game and every seat count it supports: random full
games through the rules core (``legal_actions()``, ``Rng(seed).choice``,
``apply_unchecked``) in games and decisions per second. Both sides include building
the start position and picking the random move, so each is "a random playout".

The machine is shared and noisy, so the workloads are interleaved: every round
measures each of them for a short time slice (whole games only), alternating the
order from round to round, and each figure is the median over the rounds. The
reference figure, one machine-readable line per game::

    rules.<game_id>.decisions_vs_chess: <median decisions/s at the reference seat
                                         count / median chess moves/s>

with the reference seat count ``min(4, max_seats)`` (4 players for Mykerinos; 6 for
Mare Nostrum, see ``REFERENCE_SEATS``).
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import chess

from senet.games import Game, Rng, all_games

CHESS_MAX_PLIES = 400
# A game that has not ended after this many decisions is treated as a rules bug.
MAX_DECISIONS = 100_000
CHESS_SEED = 20240501
CHOOSER_SALT = 0x5EED


@dataclass(frozen=True)
class Budget:
    """How long to measure.

    Attributes:
        rounds: Interleaved rounds; every figure is the median over them.
        seconds: Minimum wall-clock time per workload per round (whole games only).
        min_games: Minimum games per workload per round.
        warmup_games: Unmeasured games per workload before the first round.
    """

    rounds: int
    seconds: float
    min_games: int = 1
    warmup_games: int = 1

    def __post_init__(self) -> None:
        if self.rounds < 1 or self.min_games < 1 or self.seconds < 0 or self.warmup_games < 0:
            raise ValueError(f"invalid budget: {self}")


# About 9 x 4 x 1.0 s = 36 s with Mykerinos alone; --quick about 3 s.
DEFAULT_BUDGET = Budget(rounds=9, seconds=1.0)
QUICK_BUDGET = Budget(rounds=3, seconds=0.25)


@dataclass(frozen=True)
class Sample:
    """One time slice of one workload."""

    games: int
    steps: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else float("inf")

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


class Workload:
    """A stream of random full games; ``play()`` plays the next one and returns its steps."""

    def __init__(self, label: str, play: Callable[[], int]) -> None:
        self.label = label
        self.play = play
        self.samples: list[Sample] = []

    def measure(self, budget: Budget) -> Sample:
        gc.collect()
        games = steps = 0
        start = time.perf_counter()
        while True:
            steps += self.play()
            games += 1
            elapsed = time.perf_counter() - start
            if games >= budget.min_games and elapsed >= budget.seconds:
                break
        sample = Sample(games, steps, elapsed)
        self.samples.append(sample)
        return sample

    def median_steps_per_second(self) -> float:
        return statistics.median(s.steps_per_second for s in self.samples)

    def median_games_per_second(self) -> float:
        return statistics.median(s.games_per_second for s in self.samples)

    def steps_per_game(self) -> float:
        return sum(s.steps for s in self.samples) / sum(s.games for s in self.samples)


def play_chess_game(rng: random.Random) -> int:
    """Play one random game of chess; return its number of plies."""
    board = chess.Board()
    plies = 0
    while plies < CHESS_MAX_PLIES and not board.is_game_over(claim_draw=False):
        moves = list(board.legal_moves)
        board.push(rng.choice(moves))
        plies += 1
    return plies


def play_senet_game(game: Game, seats: int, seed: int) -> int:
    """Play one random full match of ``game`` from ``seed``; return its number of decisions."""
    state = game.new_match(seats, dict(game.info.bounded_match_options), seed=seed)
    chooser = Rng(seed ^ CHOOSER_SALT)
    decisions = 0
    while not state.is_over():
        acts = state.legal_actions()
        state.apply_unchecked(chooser.choice(acts))
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(
                f"{game.info.id} ({seats} seats, seed {seed}) did not end "
                f"after {MAX_DECISIONS} decisions"
            )
    return decisions


def chess_workload() -> Workload:
    rng = random.Random(CHESS_SEED)
    return Workload(
        f"chess (python-chess {chess.__version__}, <={CHESS_MAX_PLIES} plies)",
        lambda: play_chess_game(rng),
    )


def senet_workload(
    game: Game,
    seats: int,
    play: Callable[[Game, int, int], int] = play_senet_game,
    label: str = "",
) -> Workload:
    """Plays ``game`` at ``seats`` with the next seed at each call (``play`` returns the
    steps it took: the core's random match unless told)."""
    seeds = iter(range(1, 1 << 62))
    return Workload(
        label or f"{game.info.id} {seats}p",
        lambda: play(game, seats, next(seeds)),
    )


def measure_interleaved(order: Sequence[Workload], budget: Budget) -> None:
    """Warm every workload up, then measure each once per round, reversing the order
    every other round so that a drift of the machine's speed within a round cancels."""
    for workload in order:
        for _ in range(budget.warmup_games):
            workload.play()
    for round_index in range(budget.rounds):
        for workload in order if round_index % 2 == 0 else reversed(order):
            workload.measure(budget)


#: Games measured at another seat count than ``min(4, max_seats)``: Mare Nostrum's
#: target is set for its full table of six.
REFERENCE_SEATS = {"marenostrum": 6}


def reference_seats(game: Game) -> int:
    """The seat count whose figure is compared with chess: ``min(4, max_seats)``
    unless :data:`REFERENCE_SEATS` names another."""
    info = game.info
    return REFERENCE_SEATS.get(info.id, max(info.min_seats, min(4, info.max_seats)))


def _spread(values: Sequence[float]) -> str:
    return f"[{min(values):,.0f}-{max(values):,.0f}]"


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
    games = list(all_games() if games is None else games)

    baseline = chess_workload()
    references: dict[str, Workload] = {}
    per_game: dict[str, list[Workload]] = {}
    others: list[Workload] = []
    for game in games:
        info = game.info
        ref = reference_seats(game)
        per_game[info.id] = []
        for seats in range(info.min_seats, info.max_seats + 1):
            workload = senet_workload(game, seats)
            per_game[info.id].append(workload)
            if seats == ref:
                references[info.id] = workload
            else:
                others.append(workload)
    # Chess sits next to the reference workloads so their pairs share the same load;
    # reversing the order every other round cancels any drift within a round.
    order = [baseline, *references.values(), *others]

    out(
        f"rules benchmark: random full games, {budget.rounds} interleaved round(s) of "
        f">={budget.seconds:g} s and >={budget.min_games} game(s) per workload; "
        "median [min-max] over rounds"
    )
    measure_interleaved(order, budget)

    chess_rate = baseline.median_steps_per_second()
    out(
        f"  {baseline.label}: {chess_rate:,.0f} moves/s "
        f"{_spread([s.steps_per_second for s in baseline.samples])}, "
        f"{baseline.median_games_per_second():,.1f} games/s, "
        f"{baseline.steps_per_game():.0f} plies/game (baseline)"
    )
    figures: dict[str, float] = {}
    for game_id, workloads in per_game.items():
        for workload in workloads:
            rate = workload.median_steps_per_second()
            line = (
                f"  {workload.label}: {rate:,.0f} decisions/s "
                f"{_spread([s.steps_per_second for s in workload.samples])}, "
                f"{workload.median_games_per_second():,.1f} games/s, "
                f"{workload.steps_per_game():.0f} decisions/game, "
                f"{rate / chess_rate:.3f}x chess moves/s"
            )
            if workload is references[game_id]:
                paired = statistics.median(
                    s.steps_per_second / c.steps_per_second
                    for s, c in zip(workload.samples, baseline.samples, strict=True)
                )
                line += f" (reference; median of per-round ratios {paired:.3f})"
                figures[f"rules.{game_id}.decisions_vs_chess"] = round(rate / chess_rate, 3)
            out(line)
    for name, value in figures.items():
        out(f"{name}: {value:.3f}")
    return figures
