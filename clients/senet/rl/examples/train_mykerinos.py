"""Train a small Mykerinos agent: ``python -m senet.rl.examples.train_mykerinos``.

First (``--imitate`` seconds, a third of the time unless told) the policy learns to
pick what the greedy bot picks, in matches the greedy bot plays against the random
one: a policy that starts from random weights almost never scores against greedy,
so reinforcement alone has little to learn from. Then two-seat matches through the
PettingZoo environment: the learner takes seat 0 and seat 1 in turn against the
greedy bot (``--opponent``), and after each match every choice it made is pushed
towards or away from by its score margin (its score less the opponent's, over 20)
less a running average: REINFORCE with a baseline and Adam steps. The margin, not
the environment's win/loss reward, because a beginner loses nearly every match
against greedy and a loss by 2 should count for more than one by 20.

The policy is a :class:`~senet.rl.examples.lowrank.LowRankPolicy`; the file it writes
is what the ``rl_mykerinos`` strategy plays (``mykerinos_agent``). At the end it
plays ``--evaluate`` matches against the random and the greedy bots and prints its
win shares.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from senet.bots import make_strategy
from senet.games import get_game
from senet.rl.encoding import action_space
from senet.rl.examples.lowrank import Adam, Gradients, LowRankPolicy
from senet.rl.pettingzoo import SenetEnv, agent_name, env
from senet.rl.policy import observe

GAME_ID = "mykerinos"
SEATS = 2
WIDTH = 16
MARGIN_SCALE = 20.0


def train_episode(
    environment: SenetEnv,
    policy: LowRankPolicy,
    seed: int,
    learner: int,
    rng: np.random.Generator,
    opponent: str,
) -> tuple[float, Gradients]:
    """Play one match from ``seed``; return the learner's margin and its choices' gradient."""
    environment.reset(seed=seed)
    other = make_strategy(opponent, seed=seed)
    gradients = Gradients.zeros_like(policy)
    me = agent_name(learner)
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        if agent == me:
            h, p = policy.probabilities(observation["observation"], legal)
            chosen = int(rng.choice(len(legal), p=p))
            gradients.add_choice(policy, observation["observation"], legal, h, p, chosen)
            environment.step(int(legal[chosen]))
        else:
            seat = 1 - learner
            action = other.choose(environment.state, seat)
            environment.step(environment.space.index_of(action))
    scores = environment.state.scores()
    return (scores[learner] - scores[1 - learner]) / MARGIN_SCALE, gradients


def train(
    *, seconds: float, episodes: int | None, seed: int, opponent: str = "greedy", rate: float = 0.01
) -> tuple[LowRankPolicy, int]:
    """Train for ``seconds`` (or ``episodes`` matches, whichever ends first)."""
    environment = env(GAME_ID, SEATS)
    space = environment.space
    policy = LowRankPolicy.fresh(
        environment.encoder.size, len(space), WIDTH, space.fingerprint, seed
    )
    optimizer = Adam(rate)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    played = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (episodes is None or played < episodes):
        reward, gradients = train_episode(
            environment, policy, seed * 1_000_003 + played, played % 2, rng, opponent
        )
        optimizer.ascend(policy, gradients, reward - baseline)
        baseline += 0.02 * (reward - baseline)
        played += 1
    return policy, played


def win_share(policy: LowRankPolicy, opponent: str, matches: int, seed: int) -> float:
    """The share of two-seat matches the policy wins against ``opponent`` (seats alternate;
    a tie counts half)."""
    game = get_game(GAME_ID)
    points = 0.0
    for index in range(matches):
        state = game.new_match(SEATS, seed=seed + index)
        mine = index % 2
        other = make_strategy(opponent, seed=seed + index)
        while not state.is_over():
            seat = state.deciding_seats()[0]
            if seat == mine:
                action = action_space(GAME_ID, SEATS).actions[policy.best(*observe(state, seat))]
            else:
                action = other.choose(state, seat)
            state.apply(seat, action)
        places = state.ranking()
        points += 1.0 if places[mine] < places[1 - mine] else 0.5 if places[0] == places[1] else 0.0
    return points / matches


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=240.0, help="training time (default 240)")
    parser.add_argument("--episodes", type=int, default=None, help="stop after this many matches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="greedy", help="the bot it trains against")
    parser.add_argument(
        "--imitate", type=float, default=None, help="seconds imitating greedy (a third)"
    )
    parser.add_argument("--out", type=Path, default=Path("mykerinos-policy.npz"))
    parser.add_argument("--evaluate", type=int, default=100, help="matches per opponent (0: none)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    policy, played = train(
        seconds=args.seconds, episodes=args.episodes, seed=args.seed, opponent=args.opponent
    )
    policy.save(args.out)
    print(f"trained on {played} matches in {time.monotonic() - started:.0f} s; wrote {args.out}")
    for opponent in ("random", "greedy") if args.evaluate else ():
        share = win_share(policy, opponent, args.evaluate, seed=10_000)
        print(f"win share against {opponent}: {share:.3f} of {args.evaluate} matches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
