"""Gymnasium's single-agent API: one seat of a game, Senet's bots at the others.

Most single-agent libraries (Stable-Baselines3 and sb3-contrib's ``MaskablePPO``,
CleanRL's single-agent scripts, anything that takes a :class:`gymnasium.Env`) train
one agent against a fixed world. ``env("mykerinos", seats=2, opponents="greedy")``
is that world: the agent plays ``seat`` (0 unless told; ``None`` draws a seat at
each reset, so that a policy learns every seat), and the other seats are played by
bot strategies, by name (``random``, ``greedy``, ``mcts`` or one published in the
``senet.bot_strategies`` group) with an optional search budget (``mcts@50i``,
``mcts@0.05s``; ``mcts`` alone searches 1,000 iterations a move, which makes
episodes slow), or as :class:`~senet.bots.Strategy` objects.

Observations, actions and rewards are those of the PettingZoo environment this one
drives (:mod:`senet.rl.pettingzoo`): a dict of the seat's float32 tensor and the
int8 mask over the game's fixed action space, an index of that space, and at the
end the share of the other seats the agent finishes ahead of minus the share it
finishes behind. :meth:`SingleSeatEnv.action_masks` gives the mask as booleans, the
method ``MaskablePPO`` asks an environment for. An index the mask forbids raises
``ValueError``, as in the PettingZoo environment, unless ``illegal="lose"``: then
the agent forfeits, the episode ending at once with the worst reward, -1 (PettingZoo's
``TerminateIllegalWrapper`` does the same), which lets a learner without masks
(plain PPO or DQN) learn what is legal.

The bots are honest players: each starts from its seat's view
(:func:`senet.bots.base.information_set_root`), so neither they nor the agent see
what their seat may not. A bot named here is built afresh at each reset, seeded from
the episode's seed, so an episode replays exactly from its seed and the agent's
actions (a :class:`~senet.bots.Strategy` object keeps its own generator).

Importing this module registers ``senet/<game id>-v<encoding version>`` with
Gymnasium for every installed game with an encoding, so that
``gymnasium.make("senet/mykerinos-v1", seats=2, opponents="greedy")`` builds the
same environment (``gymnasium.make("senet.rl.gymnasium:senet/mykerinos-v1")``
imports the module first). The version is the encoding's: a policy trained on one
version is not valid for another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from senet.bots import Strategy
from senet.bots.base import StrategySpec
from senet.games import Rng, all_games
from senet.rl.encoding import ENCODINGS, encoding_for
from senet.rl.pettingzoo import SenetEnv, agent_name, final_rewards

#: Mixed into an episode's seed for its bots' seeds and for a drawn seat: the match's
#: own generator never shares a stream with them.
_BOT_SALT = 0x5EA7_B075
_SEAT_SALT = 0x5EA7_5EA7

#: What plays a seat that is not the agent's.
Opponent = str | Strategy
#: What an action the mask forbids does: raise ``ValueError``, or lose the episode.
ILLEGAL_POLICIES = ("raise", "lose")
#: The reward of an agent that forfeits by an illegal action: the worst a match gives.
FORFEIT = -1.0


class SingleSeatEnv(gymnasium.Env[dict[str, Any], int]):
    """One seat of a Senet game as a Gymnasium environment, bots at the others.

    Args:
        game_id: A game with an encoding (``senet.rl_encodings``).
        seats: Seat count (the game's least when omitted).
        options: Match options (over the game's bounded defaults).
        seat: The agent's seat; ``None``: drawn from each episode's seed.
        opponents: One strategy for every other seat, or one per other seat in seat
            order (the agent's seat left out): a :class:`Strategy`, or a spec
            (``"greedy"``, ``"mcts@50i"``: :class:`~senet.bots.base.StrategySpec`),
            each seat's strategy built anew for each episode from its seed.
        max_steps: Truncate an episode after this many actions of all seats
            (``None``: never).
        illegal: What an action the mask forbids does (``ILLEGAL_POLICIES``):
            ``"raise"`` ``ValueError``, or ``"lose"`` the episode (reward -1).
        render_mode: ``"ansi"``, ``"human"``, ``"rgb_array"`` or ``None`` (as the
            PettingZoo environment: the table as a spectator sees it).

    Raises:
        ValueError: a seat outside the match, a wrong number of opponents, an
            unknown strategy name or illegal-action policy.
    """

    metadata = {
        "render_modes": list(SenetEnv.RENDER_MODES),
        "render_fps": SenetEnv.metadata["render_fps"],
        "name": "senet_single_seat",
    }

    def __init__(
        self,
        game_id: str,
        seats: int | None = None,
        options: Mapping[str, object] | None = None,
        *,
        seat: int | None = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        max_steps: int | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        if illegal not in ILLEGAL_POLICIES:
            raise ValueError(f"illegal must be one of {ILLEGAL_POLICIES}, not {illegal!r}")
        self.illegal = illegal
        self.match = SenetEnv(game_id, seats, options, render_mode, max_steps)
        count = self.match.seats
        if seat is not None and not 0 <= seat < count:
            raise ValueError(f"seat must be one of 0-{count - 1} or None, not {seat}")
        if isinstance(opponents, (str, Strategy)):
            opponents = [opponents] * (count - 1)
        if len(opponents) != count - 1:
            raise ValueError(f"{count} seats need {count - 1} opponents, got {len(opponents)}")
        # A spec that names no strategy here fails now, not at reset.
        self.opponents: list[StrategySpec | Strategy] = [
            StrategySpec.parse(opponent) if isinstance(opponent, str) else opponent
            for opponent in opponents
        ]
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"senet_{game_id}_single_seat"}
        first = agent_name(0)
        self.observation_space = self.match.observation_space(first)
        self.action_space = self.match.action_space(first)
        self.seat = 0 if seat is None else seat
        self._bots: dict[int, Strategy] = {}
        self._observation: dict[str, Any] | None = None
        #: Whether the episode is over: the match ended or was cut short, or the
        #: agent forfeited.
        self._ended = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a match: from ``seed``, or the next seed of the last seeded sequence;
        the bots play until it is the agent's turn."""
        super().reset(seed=seed)
        # The match keeps the sequence of episode seeds; the seat and the bots are
        # drawn from the one it took.
        self.match.reset(seed=seed)
        episode = self.match.episode_seed
        count = self.match.seats
        drawn = self.fixed_seat is None
        self.seat = Rng(episode ^ _SEAT_SALT).below(count) if drawn else self.seat
        others = [s for s in range(count) if s != self.seat]
        seeds = Rng(episode ^ _BOT_SALT)
        self._bots = {
            other: opponent.make(seeds.next_u64() >> 1)
            if isinstance(opponent, StrategySpec)
            else opponent
            for other, opponent in zip(others, self.opponents, strict=True)
        }
        self._ended = False
        self._play_bots()
        self._ended = self._match_done()
        return self._observe(), {"seat": self.seat}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Play the agent's ``action``, then the bots until the agent's next turn or
        the end.

        Raises:
            ValueError: the mask forbids ``action`` (with ``illegal="raise"``).
            RuntimeError: the episode is over (reset first).
        """
        if self._ended or self._observation is None:
            raise RuntimeError("the episode is over: call reset() first")
        index = int(action)
        mask = self._observation["action_mask"]
        if self.illegal == "lose" and not (0 <= index < len(mask) and mask[index]):
            self._ended = True
            # A new observation of the same position: a caller keeps what it is handed.
            forfeited = {key: value.copy() for key, value in self._observation.items()}
            return forfeited, FORFEIT, True, False, {"seat": self.seat, "forfeit": index}
        self.match.step(index)
        self._play_bots()
        observation = self._observe()
        agent = agent_name(self.seat)
        terminated = bool(self.match.terminations[agent])
        truncated = bool(self.match.truncations[agent]) and not terminated
        self._ended = terminated or truncated
        reward = final_rewards(self.match.state)[self.seat] if terminated else 0.0
        return observation, float(reward), terminated, truncated, {"seat": self.seat}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent's turn as booleans (``MaskablePPO``'s call)."""
        if self._observation is None:
            raise RuntimeError("call reset() first")
        mask: npt.NDArray[np.bool_] = self._observation["action_mask"].astype(np.bool_)
        return mask

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        return self.match.render()

    def close(self) -> None:
        self.match.close()

    def _match_done(self) -> bool:
        """Whether the match ended or was cut short for the agent's seat."""
        agent = agent_name(self.seat)
        return bool(self.match.terminations[agent] or self.match.truncations[agent])

    def _play_bots(self) -> None:
        """Let the bots act while the match goes on and the agent is not to act."""
        match, agent = self.match, agent_name(self.seat)
        while not self._match_done() and match.agent_selection != agent:
            seat = match.possible_agents.index(match.agent_selection)
            chosen = self._bots[seat].choose(match.state, seat)
            match.step(match.space.index_of(chosen))

    def _observe(self) -> dict[str, Any]:
        self._observation = self.match.observe(agent_name(self.seat))
        return self._observation


def env(
    game_id: str,
    seats: int | None = None,
    options: Mapping[str, object] | None = None,
    **kwargs: Any,
) -> SingleSeatEnv:
    """The single-seat environment of ``game_id`` (see :class:`SingleSeatEnv`)."""
    return SingleSeatEnv(game_id, seats, options, **kwargs)


def register() -> list[str]:
    """Register ``senet/<game id>-v<encoding version>`` for every installed game with
    an encoding (done on import; a registered id is left as it is); return the ids."""
    ids = []
    for game in all_games():
        game_id = game.info.id
        if game_id not in ENCODINGS.game_ids():
            continue
        env_id = f"senet/{game_id}-v{encoding_for(game_id).version}"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id, entry_point=f"{__name__}:SingleSeatEnv", kwargs={"game_id": game_id}
            )
        ids.append(env_id)
    return ids


#: The Gymnasium ids of the installed games.
ENV_IDS = register()
