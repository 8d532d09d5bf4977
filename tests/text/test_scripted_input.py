"""``senet play`` with its input from a script (a pipe, not a terminal): each line
waits for the player's turn, however early it was read, and the end of the script
waits behind the lines, instead of being answered "not your turn yet" and lost."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.text.conftest import REPO
from tests.text.test_lobby_terminal import ENV


def play(server: str, script: str) -> subprocess.CompletedProcess[str]:
    """``senet play --line`` against a greedy bot, its input ``script``."""
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", "play", "--server", server,
         "--new", "archeos", "--bots", "1", "--bot-strategy", "greedy", "--seed", "4",
         "--line", "--no-clear", "--no-color"],
        cwd=REPO, env=ENV, input=script, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_piped_moves_are_played_on_the_players_turns_then_the_script_leaves(
    server_with_bots: str,
) -> None:
    done = play(server_with_bots, "1\n1\nhelp\n1\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr + out[-3000:]
    assert "not your turn" not in out
    played = [line for line in out.splitlines() if line.startswith("Played ")]
    assert len(played) == 3, out[-3000:]
    # The help line came between two moves and was answered there.
    assert out.index("Cards are colour-role") > out.index(played[1])
    assert out.index("End of input: leaving the match.") > out.index(played[2])
    assert "--resume" in out.split("End of input")[1]


@pytest.mark.slow
def test_a_script_may_quit_and_answer_the_question(server_with_bots: str) -> None:
    done = play(server_with_bots, "1\nquit\np\n")
    out = done.stdout
    assert done.returncode == 0, done.stderr + out[-3000:]
    assert sum(line.startswith("Played ") for line in out.splitlines()) == 1
    assert "Leave for good (l) or pause" in out and "Paused: your seat is kept." in out
    assert "End of input" not in out


def test_the_full_screen_needs_standard_error_a_terminal_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The full screen draws on standard error: with it sent to a file (``2>log``)
    a usability trial saw a blank screen whose keys still played. Line mode then."""
    import argparse

    from senet.text.cli import full_screen

    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    args = argparse.Namespace(line=False)
    for stderr_tty, expected in ((True, True), (False, False)):
        monkeypatch.setattr(sys, "stdin", Stream(True))
        monkeypatch.setattr(sys, "stdout", Stream(True))
        monkeypatch.setattr(sys, "stderr", Stream(stderr_tty))
        assert full_screen(args) is expected
