"""The full-screen UI in a real terminal: ``senet play`` inside tmux at 80x24 and 120x40.

tmux runs the command in a pseudo-terminal of the given size and ``capture-pane``
returns the screen as a person sees it. A whole quick Mykerinos match is played by
pressing Enter on the first listed action; at every turn the board's header, every
seat's score line and the prompt must be on the screen. The lobby is used as a
person would: join from the list, then leave for good.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from senet.client.client import SenetClient
from tests.sync import run_sync
from tests.text.conftest import REPO, _serve

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

#: Screens read before giving up (a guard against a hang, not a timing), a tenth of
#: a second apart: within the suite's time limit per test, so a wait that never ends
#: fails with its own message.
MAX_READS = 1500


@pytest.fixture
def server_with_bots(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path, "--embedded-bot-workers", "1")


#: The environment of the tmux server, without the fixed size pytest puts there
#: (COLUMNS, LINES): a program in the pane that read it would not follow a resize.
_TERMINAL_ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}


class Tmux:
    """One tmux server of our own (its own socket), holding one window."""

    def __init__(self, width: int, height: int, command: list[str]) -> None:
        self.socket = f"senet-test-{uuid.uuid4().hex[:8]}"
        line = " ".join(command)
        self._run("new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height), line)

    def _run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            check=True,
            env=_TERMINAL_ENV,
        )
        return done.stdout

    def screen(self) -> str:
        return self._run("capture-pane", "-p", "-t", "play")

    def keys(self, *keys: str) -> None:
        self._run("send-keys", "-t", "play", *keys)

    def resize(self, width: int, height: int) -> None:
        self._run("resize-window", "-t", "play", "-x", str(width), "-y", str(height))

    def size(self) -> str:
        return self._run("display-message", "-p", "-t", "play", "#{window_width}x#{window_height}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def _check(screen: str, width: int, height: int) -> None:
    rows = screen.splitlines()
    assert len(rows) <= height, screen
    assert all(len(row) <= width for row in rows), screen
    # The board: its header, or at the end the score breakdown drawn above it.
    assert "MYKERINOS" in screen or "FINAL SCORES" in screen, screen
    assert "(Ada, you)" in screen, screen  # our seat in the players pane
    assert "(random bot)" in screen, screen
    assert re.search(r"\(Ada, you\) +-?\d+", screen), screen  # our seat and its score
    prompt = ("YOUR TURN", "Waiting for", "The match is over", "Played ")
    assert any(word in screen for word in prompt), screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_a_whole_match_in_a_real_terminal(server_with_bots: str, size: tuple[int, int]) -> None:
    width, height = size
    command = [
        "env", "TERM=xterm-256color", sys.executable, "-m", "senet.cli", "play",
        "--server", server_with_bots, "--new", "mykerinos", "--bots", "1",
        "--option", "quick=true", "--seed", "9", "--name", "Ada", ";", "sleep", "30",
    ]  # fmt: skip
    tmux = Tmux(width, height, [f"cd {REPO} &&", *command])
    try:
        turns = 0
        last = ""
        for _ in range(MAX_READS):
            screen = tmux.screen()
            if "The match is over" in screen and "FINAL" in screen:
                _check(screen, width, height)
                break  # (a screen read between two frames may show one without the other)
            if "YOUR TURN" in screen and screen != last:
                _check(screen, width, height)
                tmux.keys("Enter")
                turns += 1
                last = screen
            time.sleep(0.1)
        else:
            pytest.fail(f"the match did not end:\n{tmux.screen()}")
        assert turns > 10
        tmux.keys("C-q")
        for _ in range(100):
            if "Left the match" in tmux.screen() or "$" in tmux.screen():
                break
            time.sleep(0.1)
    finally:
        tmux.close()


def _wait_screen(tmux: Tmux, *words: str) -> str:
    """The screen once every one of ``words`` is on it."""
    for _ in range(MAX_READS):
        screen = tmux.screen()
        if all(word in screen for word in words):
            return screen
        time.sleep(0.1)
    pytest.fail(f"never saw {words}:\n{tmux.screen()}")


def test_the_lobby_then_leaving_for_good_in_a_real_terminal(server_with_bots: str) -> None:
    """``senet play`` with no match named: the lobby lists the server's matches at
    80x24, Enter joins one, and Ctrl+Q then ``l`` leaves it (the seat reopens)."""

    async def create() -> str:
        async with SenetClient(server_with_bots) as client:
            return await client.create_match("mykerinos", 2, seed=9)

    match_id = run_sync(create())
    command = [
        "env", "TERM=xterm-256color", sys.executable, "-m", "senet.cli", "play",
        "--server", server_with_bots, "--name", "Ada", ";", "sleep", "30",
    ]  # fmt: skip
    tmux = Tmux(80, 24, [f"cd {REPO} &&", *command])
    try:
        screen = _wait_screen(tmux, "MATCHES", match_id)
        assert re.search(rf"{match_id} +mykerinos +waiting +open, open", screen), screen
        tmux.keys("Enter")
        screen = _wait_screen(tmux, f"mykerinos {match_id} - you:", "(Ada, you)")
        assert len(screen.splitlines()) <= 24, screen
        tmux.keys("C-q")
        _wait_screen(tmux, "Leave the match?", "leave for good")
        tmux.keys("l")
        screen = _wait_screen(tmux, "You left; your seat is open for someone else.")
        assert f"Joined match {match_id}." in screen, screen
    finally:
        tmux.close()

    async def seats() -> list[bool]:
        async with SenetClient(server_with_bots) as client:
            return [s.claimed for s in (await client.get(match_id)).match.seats]

    assert run_sync(seats()) == [False, False]


def _not_laid_out(rows: list[str], width: int, height: int, layout: str) -> str:
    """What is not yet as it should be at ``width`` x ``height`` (empty when all is)."""
    status = rows[0].rstrip() if rows else ""
    if len(rows) != height:
        return f"{len(rows)} rows"
    if not status.endswith("connected"):
        return f"status {status!r}"
    if len(status) != width:
        return f"status {len(status)} columns wide"
    if "^q Leave" not in rows[-1]:
        return "no footer on the last row"  # a frame of the old height, or half drawn
    found = _layout("\n".join(rows))
    return "" if found == layout else f"{found} layout"


def _layout(screen: str) -> str:
    """ "wide" when the players pane stands beside the board, "stacked" when below it."""
    rows = screen.splitlines()
    beside = any("MYKERINOS" in row and "PLAYERS" in row for row in rows)
    return "wide" if beside else "stacked"


def test_the_layout_follows_every_resize_both_ways(server_with_bots: str) -> None:
    """80x24, 140x40, 141x40, 140x40, 80x24 (the steps of issue 34): at every size the
    layout is the one for that size, and the status (with "connected" at its right
    end), the players pane, the log and the prompt are all on the screen."""
    command = [
        "env", "TERM=xterm-256color", sys.executable, "-m", "senet.cli", "play",
        "--server", server_with_bots, "--new", "mykerinos", "--bots", "1",
        "--seed", "9", "--name", "Ada", ";", "sleep", "30",
    ]  # fmt: skip
    tmux = Tmux(80, 24, [f"cd {REPO} &&", *command])
    try:
        _wait_screen(tmux, "YOUR TURN")
        tmux.keys("Enter")  # one move of ours, so that the log has a line of ours
        _wait_screen(tmux, "(Ada, you): ")
        for width, height, layout in [
            (140, 40, "wide"), (141, 40, "wide"), (140, 40, "wide"), (80, 24, "stacked"),
            (141, 40, "wide"), (80, 24, "stacked"),
        ]:  # fmt: skip
            tmux.resize(width, height)
            for _ in range(MAX_READS):
                screen = tmux.screen()
                rows = screen.splitlines()
                wrong = _not_laid_out(rows, width, height, layout)
                if not wrong:
                    break
                time.sleep(0.1)
            else:
                pytest.fail(f"{width}x{height}: {wrong} (tmux: {tmux.size()}):\n{screen}")
            print(f"--- {width}x{height}\n{screen}")  # the pane capture, in the test's log
            assert all(len(row) <= width for row in rows), screen
            # Each seat with its score (in the stacked layout, the log follows on the row).
            assert re.search(r"> Blue \(Ada, you\) +-?\d+(  |$)", screen, re.M), screen
            assert re.search(r"\(random bot\) +-?\d+(  |$)", screen, re.M), screen
            assert "(Ada, you): " in screen.split("PLAYERS", 1)[1], screen  # the log
    finally:
        tmux.close()
