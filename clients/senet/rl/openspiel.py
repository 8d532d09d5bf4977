"""OpenSpiel's game API over any game with an encoding: ``senet_<id>`` Python games.

:func:`register` registers each installed game (``pyspiel.register_game``), so that
``pyspiel.load_game("senet_mykerinos", {"players": 3})`` and OpenSpiel's algorithms
work on it. Parameters: ``players`` (the seat count), ``seed`` (the first match's
seed), ``max_game_length`` (a cap on actions: OpenSpiel needs one) and every match
option of the game, with its default (the bounded defaults of
:func:`senet.rl.encoding.bounded_options`).

How Senet's games map to OpenSpiel's model:

* **Imperfect information, sequential.** Seats that decide at once (Mare Nostrum's
  hidden offers) act one after the other in seat order; the core never shows a seat
  another's pending choice, so this is the same game.
* **Chance is sampled** (``SAMPLED_STOCHASTIC``): shuffles and dice come from the
  match's seeded generator inside the rules core, not from chance nodes. Each new
  initial state takes the next seed of the game's sequence (started from ``seed``).
  :meth:`SenetSpielState.resample_from_infostate` re-deals what a seat cannot see
  (a state rebuilt from the seat's view), which is what information-set search needs.
* **Observations from the seat's view only**: the observation and information state
  tensors are the encoding's tensor of ``GameState.view(seat)``, the strings its
  canonical JSON; a public observer (no private information) reads the spectator's
  view. The information state is the view, which keeps what each game lets a seat
  remember (its log, its own hidden choices), not a full recall of every observation.
* **Actions** are the indexes of the game's action space (the PettingZoo adapter's);
  returns come at the end, as there (``final_rewards``), zero-sum in [-1, 1]. A match
  cut at ``max_game_length`` ends with the returns of its ranking at that point.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from senet.games import Game, GameState, Rng, all_games, get_game
from senet.rl.encoding import (
    ENCODINGS,
    ActionSpace,
    ObservationEncoder,
    TensorWriter,
    action_space,
    bounded_options,
    observation_encoder,
)
from senet.rl.pettingzoo import final_rewards

#: Actions after which a match is cut (OpenSpiel's ``max_game_length``), unless told.
DEFAULT_MAX_GAME_LENGTH = 20_000
_RESERVED = ("players", "seed", "max_game_length")


def spiel_name(game_id: str) -> str:
    """The OpenSpiel short name of ``game_id``."""
    return f"senet_{game_id}"


def _game_type(game: Game) -> Any:
    defaults = game.normalize_options(game.info.min_seats, bounded_options(game))
    parameters: dict[str, Any] = {
        "players": game.info.min_seats,
        "seed": 0,
        "max_game_length": DEFAULT_MAX_GAME_LENGTH,
        **defaults,
    }
    return pyspiel.GameType(
        short_name=spiel_name(game.info.id),
        long_name=f"Senet {game.info.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.info.max_seats,
        min_num_players=game.info.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class SenetSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Senet game, seat count and options as an OpenSpiel game.

    :func:`register` makes one subclass per game, naming its :attr:`game_id`.

    Args:
        params: OpenSpiel's parameters (``players``, ``seed``, ``max_game_length``
            and the match options).
    """

    #: A game with an encoding.
    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_id = self.game_id
        self.senet_game = get_game(game_id)
        given = dict(params or {})
        self.seats = int(given.pop("players", self.senet_game.info.min_seats))
        self.max_game_length = int(given.pop("max_game_length", DEFAULT_MAX_GAME_LENGTH))
        self.seeds = Rng(int(given.pop("seed", 0)))
        self.options = self.senet_game.normalize_options(self.seats, given)
        self.space: ActionSpace = action_space(game_id, self.seats, self.options)
        self.encoder: ObservationEncoder = observation_encoder(game_id, self.seats, self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.space),
            max_chance_outcomes=0,
            num_players=self.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_game_length,
        )
        super().__init__(_game_type(self.senet_game), info, dict(params or {}))

    def __deepcopy__(self, _memo: dict[int, Any]) -> SenetSpielGame:
        """The game itself: OpenSpiel clones a state by deep-copying its attributes, and
        every state of a game shares the game (and its sequence of seeds)."""
        return self

    def new_initial_state(self, *args: Any) -> SenetSpielState:
        """A new match; its seed is drawn when the state is first looked at (so clones,
        which OpenSpiel builds from a fresh initial state, draw none)."""
        return SenetSpielState(self)

    def next_seed(self) -> int:
        """The seed of the next match of this game's sequence."""
        return self.seeds.next_u64() >> 1

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> SenetObserver:
        """The observer OpenSpiel asks for (observation and information state alike)."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)}")
        return SenetObserver(self.encoder, iig_obs_type)


class _Match:
    """Holds a core state; OpenSpiel deep-copies a state's attributes to clone it, and
    this makes that copy the core's own (cheap) clone."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, _memo: dict[int, Any]) -> _Match:
        return _Match(self.state.clone())


class SenetSpielState(pyspiel.State):  # type: ignore[misc]
    """One match as an OpenSpiel state."""

    def __init__(self, game: SenetSpielGame, match: GameState | None = None) -> None:
        super().__init__(game)
        self._spiel = game
        self._match = None if match is None else _Match(match)
        self._steps = 0

    @property
    def core(self) -> GameState:
        """The rules core's state (built on first use from the game's next seed)."""
        if self._match is None:
            game = self._spiel
            self._match = _Match(
                game.senet_game.new_match(game.seats, game.options, seed=game.next_seed())
            )
        return self._match.state

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.core.deciding_seats()[0]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._spiel.space.indexes(self.core.legal_actions_for(player)))

    def _apply_action(self, action: int) -> None:
        seat = self.core.deciding_seats()[0]
        self.core.apply_unchecked(self._spiel.space.actions[action], seat)
        self._steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return self._spiel.space.notations[action]

    def is_terminal(self) -> bool:
        return self.core.is_over() or self._steps >= self._spiel.max_game_length

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._spiel.seats
        return final_rewards(self.core)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SenetSpielState:
        """A state that ``player_id`` cannot tell from this one: rebuilt from its view
        alone (``Game.state_from_view``, as the bots' forward model is), what the view
        hides sampled from a seed drawn with ``probability_sampler`` (a callable giving
        a float in [0, 1), as OpenSpiel's IS-MCTS passes). Built from the view, the
        sample never depends on the hidden parts of this state."""
        seed = int(float(probability_sampler()) * (1 << 62))
        sample = self._spiel.senet_game.state_from_view(self.core.view(player_id), seed)
        twin = SenetSpielState(self._spiel, sample)
        twin._steps = self._steps
        return twin

    def __str__(self) -> str:
        return _canonical(self.core.view(None))


def _canonical(view: Mapping[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class SenetObserver:
    """OpenSpiel's Python observer: a seat's view as the encoding's tensor and as JSON.

    A public observer (no private information) reads the spectator's view; one that
    asks for every seat's private information is refused, as no seat sees that.
    """

    def __init__(self, encoder: ObservationEncoder, iig_obs_type: Any) -> None:
        private = None if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Senet's games show no observer every seat's private information")
        self._public_only = private == pyspiel.PrivateInfoType.NONE
        self._encoder = encoder
        #: One tensor writer per viewer: successive states differ little.
        self._writers: dict[int | None, TensorWriter] = {}
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {name: self.tensor[at : at + size] for name, at, size in encoder.layout}

    def _view(self, state: SenetSpielState, player: int) -> dict[str, Any]:
        return state.core.view(None if self._public_only else player)

    def set_from(self, state: SenetSpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        viewer = None if self._public_only else player
        writer = self._writers.get(viewer)
        if writer is None:
            writer = self._writers[viewer] = self._encoder.writer()
        self.tensor[:] = writer.encode(state.core, viewer)

    def string_from(self, state: SenetSpielState, player: int) -> str:
        """``player``'s view of ``state`` as canonical JSON."""
        return _canonical(self._view(state, player))


#: The registered classes, by game id. OpenSpiel keeps each for the life of the
#: process; a class (unlike a closure) is still alive when OpenSpiel's registry lets
#: go of it at exit, after the interpreter has stopped, so it is not freed then.
_REGISTERED: dict[str, type[SenetSpielGame]] = {}


def register(game_ids: list[str] | None = None) -> list[str]:
    """Register ``senet_<id>`` for each game (every installed game with an encoding when
    ``None``); return the OpenSpiel names. Registering a name twice is a no-op."""
    wanted = game_ids or sorted(g.info.id for g in all_games() if g.info.id in ENCODINGS.game_ids())
    known = set(pyspiel.registered_names())
    for game_id in wanted:
        if spiel_name(game_id) not in known:
            name = f"SenetSpiel_{game_id}"
            cls = type(name, (SenetSpielGame,), {"game_id": game_id, "__module__": __name__})
            _REGISTERED[game_id] = cls
            pyspiel.register_game(_game_type(get_game(game_id)), cls)
    return [spiel_name(game_id) for game_id in wanted]


def load(game_id: str, **params: Any) -> SenetSpielGame:
    """``pyspiel.load_game`` of ``senet_<game_id>`` (registered first if need be)."""
    register([game_id])
    game: SenetSpielGame = pyspiel.load_game(spiel_name(game_id), params)
    return game
