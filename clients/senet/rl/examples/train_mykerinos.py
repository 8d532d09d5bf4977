"""Train a small Mykerinos agent: ``python -m senet.rl.examples.train_mykerinos``.

The agent is an :class:`~senet.rl.examples.afterstate.AfterstatePolicy`: a small
network over the observation tensor, scoring the seat's view after each legal action.
Two phases, in two-seat matches on the rules core:

1. **Imitation** (``--imitate`` seconds, none unless told): in
   matches of the greedy bot against the random one, each of the greedy bot's
   choices is made more probable (an Adam step up its log-probability's gradient).
   Meant for training against greedy, which a policy from zero weights almost never
   scores against; in runs of a few minutes it has not helped (a linear score
   copies greedy's taste for keeping archaeologists, not when to spend them).
2. **REINFORCE** for the rest: the learner takes seat 0 and seat 1 in turn against
   the random bot (``--opponent``), samples its actions from the softmax, and after
   each match every choice it made is pushed towards or away from by its score
   margin (its score less the opponent's, over 20) less a running average. The
   margin, not the win alone, because a loss by 2 should count for more than one by 20.

The weights go to ``--out``; the ``rl_mykerinos`` strategy plays them where
``SENET_RL_MYKERINOS_POLICY`` names the file (:mod:`senet.rl.examples.mykerinos_agent`).
At the end it plays ``--evaluate`` matches (100 unless told) against each of the
random and the greedy bots and prints its win shares. A line every ``--progress``
seconds (10 unless told) says what it is doing and how many matches it has played, as
a run lasts minutes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from senet.bots import Strategy, make_strategy
from senet.games import get_game
from senet.rl.encoding import encoding_for, observation_encoder
from senet.rl.examples.afterstate import HIDDEN, AfterstatePolicy, Optimizer, afterstates
from senet.rl.examples.mykerinos_agent import GAME_ID, POLICY_VARIABLE, AfterstateStrategy

SEATS = 2
MARGIN_SCALE = 20.0


class Progress:
    """Prints what the run is doing at most every ``every`` seconds (0: never).

    Args:
        every: Seconds between lines.
        started: When the run started (``time.monotonic()``); lines give the time since.
    """

    def __init__(self, every: float, started: float) -> None:
        self.every = every
        self.started = started
        self._due = started + every

    def tick(self, doing: str) -> None:
        """Print ``doing`` if a line is due."""
        now = time.monotonic()
        if self.every <= 0 or now < self._due:
            return
        self._due = now + self.every
        print(f"{now - self.started:6.0f} s: {doing}", flush=True)


SILENT = Progress(0.0, 0.0)


def _margin(scores: list[int], seat: int) -> float:
    return (scores[seat] - scores[1 - seat]) / MARGIN_SCALE


def imitate(
    policy: AfterstatePolicy,
    optimizer: Optimizer,
    seconds: float,
    seed: int,
    progress: Progress = SILENT,
) -> int:
    """Make the greedy bot's choices more probable for ``seconds``; return the matches."""
    game = get_game(GAME_ID)
    deadline = time.monotonic() + seconds
    played = 0
    while time.monotonic() < deadline:
        state = game.new_match(SEATS, seed=seed + played)
        teacher = played % 2
        players = [make_strategy("random", seed=seed + played) for _ in range(SEATS)]
        players[teacher] = make_strategy("greedy", seed=seed + played)
        while not state.is_over():
            seat = state.deciding_seats()[0]
            action = players[seat].choose(state, seat)
            legal = state.legal_actions_for(seat)
            if seat == teacher and len(legal) > 1:
                rows = afterstates(state, seat, legal, seed + played)
                p = policy.probabilities(rows)
                optimizer.ascend(policy.gradients(rows, p, legal.index(action)))
            state.apply_unchecked(action, seat)
        played += 1
        progress.tick(f"imitating greedy: {played} matches")
    return played


def reinforce(
    policy: AfterstatePolicy,
    optimizer: Optimizer,
    seconds: float,
    episodes: int | None,
    seed: int,
    opponent: str,
    progress: Progress = SILENT,
) -> int:
    """REINFORCE against ``opponent`` for ``seconds`` (or ``episodes`` matches)."""
    game = get_game(GAME_ID)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    deadline = time.monotonic() + seconds
    played = 0
    while time.monotonic() < deadline and (episodes is None or played < episodes):
        match_seed = seed * 1_000_003 + played
        state = game.new_match(SEATS, seed=match_seed)
        learner = played % 2
        other = make_strategy(opponent, seed=match_seed)
        gradients = [np.zeros_like(array) for array in policy.parameters()]
        while not state.is_over():
            seat = state.deciding_seats()[0]
            legal = state.legal_actions_for(seat)
            if seat != learner:
                action = other.choose(state, seat)
            elif len(legal) == 1:
                action = legal[0]
            else:
                rows = afterstates(state, seat, legal, match_seed + len(legal))
                p = policy.probabilities(rows)
                chosen = int(rng.choice(len(legal), p=p))
                for total, part in zip(gradients, policy.gradients(rows, p, chosen), strict=True):
                    total += part
                action = legal[chosen]
            state.apply_unchecked(action, seat)
        margin = _margin(state.scores(), learner)
        optimizer.ascend([total * (margin - baseline) for total in gradients])
        baseline += 0.05 * (margin - baseline)
        played += 1
        progress.tick(
            f"reinforcing against {opponent}: {played} matches, "
            f"score margin {baseline * MARGIN_SCALE:+.1f} (moving average)"
        )
    return played


def train(
    *,
    seconds: float,
    episodes: int | None = None,
    seed: int = 1,
    opponent: str = "random",
    imitation: float = 0.0,
    units: int = HIDDEN,
    progress: Progress = SILENT,
) -> tuple[AfterstatePolicy, int, int]:
    """Imitate greedy for ``imitation`` seconds, then reinforce against ``opponent``
    for the rest of ``seconds``; return the policy and the matches of each phase."""
    size = observation_encoder(GAME_ID, SEATS).size
    policy = AfterstatePolicy.initial(size, GAME_ID, encoding_for(GAME_ID).version, units, seed)
    started = time.monotonic()
    imitated = imitate(policy, Optimizer(policy, 0.01), imitation, seed, progress)
    left = seconds - (time.monotonic() - started)
    optimizer = Optimizer(policy, 0.003)
    reinforced = reinforce(policy, optimizer, left, episodes, seed, opponent, progress)
    return policy, imitated, reinforced


def win_share(
    policy: AfterstatePolicy,
    opponent: str,
    matches: int,
    seed: int,
    progress: Progress = SILENT,
) -> float:
    """The share of two-seat matches the policy wins against ``opponent`` (seats
    alternate; a tie counts half)."""
    game = get_game(GAME_ID)
    points = 0.0
    for index in range(matches):
        state = game.new_match(SEATS, seed=seed + index)
        mine = index % 2
        players: list[Strategy] = [make_strategy(opponent, seed=seed + index)] * SEATS
        players[mine] = AfterstateStrategy(policy, seed=seed + index)
        while not state.is_over():
            seat = state.deciding_seats()[0]
            state.apply(seat, players[seat].choose(state, seat))
        places = state.ranking()
        points += 1.0 if places[mine] < places[1 - mine] else 0.5 if places[0] == places[1] else 0.0
        progress.tick(f"evaluating against {opponent}: {index + 1} of {matches} matches")
    return points / matches


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train a small Mykerinos agent.")
    parser.add_argument("--seconds", type=float, default=240.0, help="training time (default 240)")
    parser.add_argument("--episodes", type=int, default=None, help="reinforced matches at most")
    parser.add_argument("--imitate", type=float, default=0.0, help="seconds imitating greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="random", help="the bot it trains against")
    parser.add_argument("--hidden", type=int, default=HIDDEN, help="hidden units (0: linear)")
    parser.add_argument("--out", type=Path, default=Path("mykerinos-policy.npz"))
    parser.add_argument(
        "--evaluate", type=int, default=100, help="matches per opponent (default 100; 0: none)"
    )
    parser.add_argument(
        "--progress", type=float, default=10.0, help="seconds between progress lines (0: none)"
    )
    args = parser.parse_args(argv)
    started = time.monotonic()
    progress = Progress(args.progress, started)
    imitating = f"{args.imitate:g} s imitating greedy, then " if args.imitate else ""
    evaluating = f"; then {args.evaluate} matches against each of random and greedy"
    print(
        f"training for {args.seconds:g} s: {imitating}REINFORCE against {args.opponent}"
        f"{evaluating if args.evaluate else ''}",
        flush=True,
    )
    policy, imitated, reinforced = train(
        seconds=args.seconds,
        episodes=args.episodes,
        seed=args.seed,
        opponent=args.opponent,
        imitation=args.imitate,
        units=args.hidden,
        progress=progress,
    )
    policy.save(args.out)
    print(
        f"imitated greedy in {imitated} matches, reinforced in {reinforced}, "
        f"{time.monotonic() - started:.0f} s; wrote {args.out} "
        f"(the rl_mykerinos strategy plays it where {POLICY_VARIABLE}={args.out} is set)",
        flush=True,
    )
    for opponent in ("random", "greedy") if args.evaluate else ():
        share = win_share(policy, opponent, args.evaluate, seed=10_000, progress=progress)
        print(f"win share against {opponent}: {share:.3f} of {args.evaluate} matches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
