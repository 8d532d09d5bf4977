"""The matches the learning-adapter tests play: every registered game, seat count and variant."""

from __future__ import annotations

from typing import Any

from senet.games import Game, all_games, get_game

#: Every registered game, the test suite's included.
GAME_IDS = sorted(g.info.id for g in all_games())


def least(game_id: str) -> tuple[int, dict[str, Any]]:
    """The game's least seat count and its short-match options."""
    game = get_game(game_id)
    return game.info.min_seats, dict(game.info.short_match_options)


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    """(game id, seats, options): each seat count with the base game, and each variant at
    the least seat count it allows, all with the game's short-match options."""
    found: list[tuple[str, int, dict[str, Any]]] = []
    for game in all_games():
        short = dict(game.info.short_match_options)
        for seats in range(game.info.min_seats, game.info.max_seats + 1):
            found.append((game.info.id, seats, short))
        for spec in game.info.options:
            if spec.variant:
                seats = _least_seats(game, {**short, spec.name: True})
                found.append((game.info.id, seats, {**short, spec.name: True}))
    return found


def _least_seats(game: Game, options: dict[str, Any]) -> int:
    for seats in range(game.info.min_seats, game.info.max_seats + 1):
        try:
            game.normalize_options(seats, options)
        except ValueError:
            continue
        return seats
    raise AssertionError(f"no seat count allows {options} in {game.info.id}")


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    game_id, seats, options = case
    switched = "+".join(k for k, v in options.items() if v is True)
    return f"{game_id}-{seats}" + (f"-{switched}" if switched else "")
