"""Pebbles, the test-suite game, is registered only through its entry points.

``tests/plugins/senet_pebbles-0.dist-info`` declares its rules core and codec;
``tests/conftest.py`` puts that folder on the path of the tests and of every process
they start. A process that does not have it (``make run``, an installed Senet) does
not see the game.
"""

from __future__ import annotations

import os
import subprocess
import sys

from senet.codec import codec_for
from senet.codec.generic import GenericCodec
from senet.games import all_games, get_game
from tests import plugins

LIST_GAMES = "from senet.games import all_games; print(' '.join(g.info.id for g in all_games()))"


def test_the_test_game_comes_from_its_entry_points() -> None:
    assert "pebbles" in [game.info.id for game in all_games()]
    assert type(get_game("pebbles")).__module__ == "tests.pebbles.core.game"
    assert isinstance(codec_for("pebbles"), GenericCodec)


def _games_seen_by_a_child(env: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", LIST_GAMES],
        env=env,
        cwd=plugins.ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.split()


def test_child_processes_see_it_and_a_plain_senet_does_not() -> None:
    assert "pebbles" in _games_seen_by_a_child(dict(os.environ))
    plain = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    assert "pebbles" not in _games_seen_by_a_child(plain)
