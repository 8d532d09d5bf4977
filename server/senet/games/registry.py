"""The registry of games by id: the one place the server, bots and tests discover games."""

from __future__ import annotations

import functools

from senet.games.errors import UnknownGameError
from senet.games.interface import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Register ``game`` under its id (idempotent for the same object)."""
    existing = _GAMES.get(game.info.id)
    if existing is not None and existing is not game:
        raise ValueError(f"a different game is already registered as {game.info.id!r}")
    _GAMES[game.info.id] = game
    return game


def get_game(game_id: str) -> Game:
    """Return the game registered as ``game_id``.

    Raises:
        UnknownGameError: nothing is registered under that id.
    """
    _load_builtin_games()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise UnknownGameError(f"unknown game {game_id!r} (known: {known})") from None


def all_games() -> list[Game]:
    """Every registered game, sorted by id."""
    _load_builtin_games()
    return [_GAMES[k] for k in sorted(_GAMES)]


@functools.cache
def _load_builtin_games() -> None:
    # Imported lazily so that importing one game does not drag in every other one,
    # and so that registration happens exactly once, by each game's own module.
    import senet.games.archeos
    import senet.games.mykerinos  # noqa: F401
