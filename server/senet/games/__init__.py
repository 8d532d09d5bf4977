"""Pure rules cores. Nothing in this package imports grpc, redis or generated code.

Typical use::

    from senet.games import get_game
    state = get_game("mykerinos").new_match(seats=3, seed=7)
    while not state.is_over():
        seat = state.current_seat()
        state.apply(seat, state.legal_actions()[0])
"""

from senet.games.errors import (
    CorruptStateError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidOptionsError,
    MalformedActionError,
    NotYourTurnError,
    UnknownActionError,
    UnknownGameError,
)
from senet.games.interface import (
    Action,
    Event,
    Game,
    GameInfo,
    GameState,
    OptionSpec,
    SampleMatch,
)
from senet.games.plugins import PluginError, PluginRegistry
from senet.games.registry import all_games, get_game
from senet.games.rng import Rng

__all__ = [
    "Action",
    "CorruptStateError",
    "Event",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "InvalidOptionsError",
    "MalformedActionError",
    "NotYourTurnError",
    "OptionSpec",
    "PluginError",
    "PluginRegistry",
    "Rng",
    "SampleMatch",
    "UnknownActionError",
    "UnknownGameError",
    "all_games",
    "get_game",
]
