"""PettingZoo's AEC API over any game with an encoding.

``env("marenostrum", seats=4, options={"turn_limit": 2})`` is one match per episode,
seeded by ``reset(seed=...)`` (the match seed: the same seed and actions replay the
same match). Agents are ``seat_0`` ... ``seat_<n-1>``. Each observation is a dict:
``observation`` (the game's float32 tensor, from the agent's view only) and
``action_mask`` (int8 over the game's fixed action space); ``infos`` are empty, and
:meth:`SenetEnv.view` gives the structured view for those who want it.

Where several seats decide at once (Mare Nostrum's hidden trade offers), they act one
after the other in seat order, the AEC way: each acts on its own view, which never
shows another seat's pending choice, and the core reveals the choices together.

Rewards come at the end only: a seat gets the share of the other seats it finishes
ahead of minus the share it finishes behind (``ranking()``, ties count for neither),
so the winner of a two-seat match gets 1 and the loser -1.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from senet.games import GameState, Rng, get_game
from senet.rl.encoding import TensorWriter, action_space, bounded_options, observation_encoder
from senet.rl.render import table_image, table_text
from senet.rl.rewards import final_rewards

__all__ = ["SenetEnv", "agent_name", "env", "final_rewards"]

#: The episode seed when ``reset`` is given none and was never seeded.
DEFAULT_SEED = 0
#: What an episode's bookkeeping holds besides the match (copied by ``deepcopy``).
_EPISODE_FIELDS = (
    "agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos",
    "agent_selection", "_seeds", "episode_seed", "_last_action", "_last_seat", "steps",
    "_rewarded",
)  # fmt: skip


def agent_name(seat: int) -> str:
    """The PettingZoo agent of ``seat``."""
    return f"seat_{seat}"


class SenetEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """One Senet game as a PettingZoo AEC environment.

    Args:
        game_id: A game with an encoding (``senet.rl_encodings``).
        seats: Seat count (the game's least when omitted).
        options: Match options (over the game's bounded defaults,
            :func:`senet.rl.encoding.bounded_options`).
        render_mode: ``"ansi"`` (the table as a spectator sees it, drawn by the text
            client, under the step, the last action and the scores), ``"human"``
            (the same printed after every reset and step), ``"rgb_array"`` (the
            same drawn into an image of a fixed size) or ``None``
            (:mod:`senet.rl.render`).
        max_steps: Truncate an episode after this many actions (``None``: never).
    """

    RENDER_MODES = ("ansi", "human", "rgb_array")
    metadata = {
        "render_modes": list(RENDER_MODES),
        "render_fps": 2,
        "name": "senet_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        seats: int | None = None,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        self.game = get_game(game_id)
        self.seats = self.game.info.min_seats if seats is None else seats
        self.options = self.game.normalize_options(
            self.seats, {**bounded_options(self.game), **(options or {})}
        )
        self.space = action_space(game_id, self.seats, self.options)
        self.encoder = observation_encoder(game_id, self.seats, self.options)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {self.RENDER_MODES} or None")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": f"senet_{game_id}_v{self.space.version}"}
        self.possible_agents = [agent_name(seat) for seat in range(self.seats)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        tensor = spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (len(self.space),), np.int8)
        self._observation_spaces = {
            agent: spaces.Dict({"observation": tensor, "action_mask": mask})
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(len(self.space)) for agent in self.possible_agents
        }
        #: One tensor writer per seat: each seat's observation is rewritten where the
        #: core says its view changed only, or by the game's direct writer.
        self._tensors: list[TensorWriter] = []
        self.rebuild_writers()
        #: The legal actions of the last seat asked and their indexes, with the state
        #: and step they were asked at.
        self._legal: tuple[GameState | None, int, int, list[Any], list[int]] = (
            None, -1, -1, [], []
        )  # fmt: skip
        self._seeds = Rng(DEFAULT_SEED)
        #: The match seed of the current episode (what ``reset`` was given or drew).
        self.episode_seed = DEFAULT_SEED
        self.state: GameState = self.game.new_match(self.seats, self.options, seed=DEFAULT_SEED)
        self._last_action: Any = None
        self._last_seat = 0
        self.steps = 0
        #: Whether this episode has handed out rewards yet: until then every reward is
        #: 0, so a step need not clear or accumulate them.
        self._rewarded = False

    def __deepcopy__(self, memo: dict[int, Any]) -> SenetEnv:
        """An independent environment at the same point of the same episode: the
        match cloned by its core, the bookkeeping copied, and writers of its own
        (a writer's floats are seen by numpy and kept by a compiled engine, so
        they are made afresh rather than copied; the next observations are the same)."""
        twin = SenetEnv(
            self.game.info.id, self.seats, self.options, self.render_mode, self.max_steps
        )
        memo[id(self)] = twin
        twin.state = self.state.clone()
        for name in _EPISODE_FIELDS:
            if hasattr(self, name):
                setattr(twin, name, copy.deepcopy(getattr(self, name), memo))
        return twin

    def rebuild_writers(self, *, direct: bool = True) -> None:
        """Start each seat's tensor afresh, with or without the game's direct writer
        (:meth:`senet.rl.encoding.ObservationEncoder.writer`)."""
        self._tensors = [self.encoder.writer(direct=direct) for _ in range(self.seats)]
        #: Each writer's float32s seen by numpy, made once: a writer keeps one array
        #: for its life, so the view stays current, and each observation is one copy
        #: (a view made per step cost about a third as much again).
        self._floats = [np.frombuffer(writer.out, np.float32) for writer in self._tensors]

    @property
    def last_notation(self) -> str:
        """The notation of the last action played this episode (``""`` before any);
        spelled when asked, as only rendering reads it."""
        return "" if self._last_action is None else str(self._last_action.notation())

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match: from ``seed``, or the next seed of the last seeded sequence."""
        if seed is not None:
            self._seeds = Rng(seed)
            match_seed = seed
        else:
            match_seed = self._seeds.next_u64() >> 1
        self.episode_seed = match_seed
        self.state = self.game.new_match(self.seats, self.options, seed=match_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._last_action = None
        self.steps = 0
        self._rewarded = False
        self.agent_selection = self._next_agent()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        mask = np.frombuffer(self.space.index_mask(self._legal_indexes(seat)), np.int8)
        self._tensors[seat].encode(self.state, seat)
        tensor = self._floats[seat].copy()
        return {"observation": tensor, "action_mask": mask}

    def _legal_indexes(self, seat: int) -> list[int]:
        """The indexes of ``seat``'s legal actions now, worked out once per step
        (observing and then stepping would ask for them twice)."""
        state, steps, asked, _, indexes = self._legal
        if state is not self.state or steps != self.steps or asked != seat:
            legal = self.state.legal_actions_for(seat)
            indexes = self.space.indexes(legal)
            self._legal = (self.state, self.steps, seat, legal, indexes)
        return indexes

    def view(self, agent: str) -> dict[str, Any]:
        """The agent's view as structured data (``GameState.view``)."""
        return self.state.view(self._seat_of[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat_of[agent]
        index = -1 if action is None else int(action)
        if not 0 <= index < len(self.space):
            raise ValueError(f"{agent} must play an index of the action space, not {action!r}")
        chosen = self.space.actions[index]
        if index not in self._legal_indexes(seat):
            raise ValueError(
                f"{agent} cannot play {chosen.notation()!r} (index {action}): its mask is 0"
            )
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
        self.state.apply_unchecked(chosen, seat)
        self._last_action = chosen
        self._last_seat = seat
        self.steps += 1
        if self.state.is_over():
            for other, reward in zip(self.agents, final_rewards(self.state), strict=True):
                self.rewards[other] = reward
                self.terminations[other] = True
            self._rewarded = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {other: True for other in self.agents}
        self.agent_selection = self._next_agent()
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The table as a spectator sees it: text (``ansi``), printed (``human``),
        an image (``rgb_array``), or nothing without a render mode."""
        if self.render_mode is None:
            return None
        scores = ", ".join(str(score) for score in self.state.scores())
        last = f"seat {self._last_seat} played {self.last_notation}" if self.steps else "dealt"
        heading = f"step {self.steps}: {last}; scores {scores}"
        if self.render_mode == "rgb_array":
            return table_image(self.state, self.game.info.id, heading)
        text = table_text(self.state, self.game.info.id, heading)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        return None

    def _next_agent(self) -> str:
        deciding = self.state.deciding_seats()
        return self.possible_agents[deciding[0] if deciding else 0]


def env(
    game_id: str,
    seats: int | None = None,
    options: Mapping[str, object] | None = None,
    **kwargs: Any,
) -> SenetEnv:
    """The AEC environment of ``game_id`` (see :class:`SenetEnv` for the arguments)."""
    return SenetEnv(game_id, seats, options, **kwargs)
