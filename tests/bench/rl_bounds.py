"""What bounds the learning environment's speed from above.

The benchmark (:mod:`tests.bench.rl`) sets the environment's steps per second beside
the rules core's decisions per second. These two environments and the writers'
replay (:class:`WriterReplay`) tell where the rest of a step goes:

- :func:`free_observation_environment` is a game's real environment whose tensor
  writers cost nothing: each returns the seat's first tensor, copied as a real one
  is. Everything else is the real step (the core's legal actions and move, the mask,
  PettingZoo's bookkeeping), so its speed against the core is the most the
  environment could reach with an observation that cost nothing;
- :class:`BareEnvironment` is PettingZoo's AEC API with no game and no Senet code:
  each step copies a tensor and a mask of the game's sizes, made once, and counts.
  Its speed against the core's, ``f``, gives ``f / (1 + f)``: the most any AEC
  environment of the game could reach, since a step does at least this and the
  core's decision;
- :func:`python_writer_environment` is the real environment with its direct writers
  and their plan engine run as Python instead of their compiled twins
  (:mod:`senet.rl.native`): what the twins gain, measured in the same run.
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from senet.games import GameState
from senet.rl import native
from senet.rl.encoding import TensorWriter, encoding_for
from senet.rl.pettingzoo import SenetEnv, env
from tests.bench.null_env import calibrate, random_decisions, spread


class _FirstTensor(TensorWriter):
    """A writer that leaves the first tensor it wrote in place: observations free.
    Installed over a real writer (its class swapped), so it keeps the array the
    environment's numpy view was made over."""

    written = False

    def encode(self, state: GameState, viewer: int | None) -> array[float]:
        if not self.written:
            self.written = True
            return super().encode(state, viewer)
        return self.out


def free_observation_environment(game_id: str, seats: int) -> SenetEnv:
    """The real environment of ``game_id`` at ``seats`` with observations that cost
    nothing (each seat's tensor is the first one written for it)."""
    environment = env(game_id, seats)
    for writer in environment._tensors:
        writer.__class__ = _FirstTensor
    return environment


def python_writer_environment(game_id: str, seats: int) -> SenetEnv:
    """The real environment of ``game_id`` at ``seats`` whose direct writers run as
    Python (as where no twin is built), whatever twins are built."""
    environment = env(game_id, seats)
    with native.python_only():
        factory = encoding_for(game_id).direct_tensor(seats, environment.options)
    if factory is not None:
        for writer in environment._tensors:
            writer._direct = factory()
    return environment


def writes_compiled(environment: SenetEnv) -> bool:
    """Whether ``environment``'s seats are written by compiled twins."""
    direct = environment._tensors[0]._direct
    return direct is not None and type(direct).__module__.startswith(native.TWIN_PACKAGE)


class BareEnvironment(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """PettingZoo's AEC API over no game, at a game's sizes.

    Seats act in turn; the mask offers ``legal`` indexes spread over the space; a
    match lasts ``length`` steps. Each observation is a copy of one tensor and one
    mask made at the start, the least a step can hand out (a fresh tensor and mask),
    and a step counts.

    Args:
        game: The game's environment, whose spaces this one takes.
        legal: Ones in the mask.
        length: Steps per match.
    """

    metadata = {"name": "bare_v0", "is_parallelizable": False}

    def __init__(self, game: SenetEnv, legal: int, length: int) -> None:
        super().__init__()
        self.possible_agents = list(game.possible_agents)
        agent = self.possible_agents[0]
        self._observation_space = game.observation_space(agent)
        self._action_space = game.action_space(agent)
        self._tensor = np.zeros(game.encoder.size, np.float32)
        self._mask = np.zeros(len(game.space), np.int8)
        self._mask[spread(legal, len(game.space))] = 1
        self._length = length
        self._moves = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._moves = 0
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self._tensor.copy(), "action_mask": self._mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self._moves += 1
        if self._moves >= self._length:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self._moves % len(self.possible_agents)]


def bare_environment(game_id: str, seats: int) -> BareEnvironment:
    """The bare AEC environment at the sizes of ``game_id``'s environment at ``seats``,
    as many legal actions a step and steps a match as its random matches have."""
    real = env(game_id, seats)
    calibration = calibrate(real.game, seats, real.options)
    return BareEnvironment(real, calibration.legal, calibration.length)


class WriterReplay:
    """A game's random matches, recorded once, replayed through its tensor writers.

    One writer per seat follows the recorded positions in order (each seat's own
    decisions, as in an episode), so :meth:`once` costs what the observations of
    those matches cost, and :meth:`twice` the same with each observation written a
    second time from the same state. The second call finds nothing changed: it is
    the writer's comparisons alone, the least a writer that finds what changed by
    comparing values can take (a rules core reports no changes of its own).

    Args:
        game_id: A game with an encoding.
        seats: Seat count.
        matches: Random matches recorded (seeds 1, 2, ...).
    """

    def __init__(self, game_id: str, seats: int, matches: int = 4) -> None:
        environment = env(game_id, seats)
        self.positions = [
            (state.clone(), seat)
            for state, seat, _ in random_decisions(
                environment.game, seats, environment.options, matches
            )
        ]
        self._writers = [environment.encoder.writer() for _ in range(seats)]

    def once(self) -> int:
        """Write every recorded observation; return how many."""
        writers = self._writers
        for state, seat in self.positions:
            writers[seat].encode(state, seat)
        return len(self.positions)

    def twice(self) -> int:
        """Write every recorded observation, then again from the same state."""
        writers = self._writers
        for state, seat in self.positions:
            writer = writers[seat]
            writer.encode(state, seat)
            writer.encode(state, seat)
        return len(self.positions)
