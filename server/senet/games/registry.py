"""The games this installation hosts, found through the ``senet.games`` plug-in group."""

from __future__ import annotations

from senet.games.interface import Game
from senet.games.plugins import PluginRegistry

GAMES: PluginRegistry[Game] = PluginRegistry("senet.games", "game", lambda game: game.info.id)


def get_game(game_id: str) -> Game:
    """Return the game whose id is ``game_id``.

    Raises:
        UnknownGameError: no installed plug-in provides that game.
    """
    return GAMES.get(game_id)


def all_games() -> list[Game]:
    """Every installed game, sorted by id."""
    return GAMES.all()
