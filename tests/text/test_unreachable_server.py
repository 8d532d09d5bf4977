"""A move made while no server answers is sent again until one does, not spent.

An operator's trial killed the only replica under a scripted ``senet play``: each
of twelve input lines was used up as "Not accepted: No Senet server answers", and
once a replica was back the script's moves were gone."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from tests.conftest import _free_port
from tests.text.conftest import REPO, spawn_server, stop_server
from tests.text.test_lobby_terminal import ENV


def _serve(port: int, redis_url: str, prefix: str, log: IO[bytes]) -> subprocess.Popen[bytes]:
    """A server on ``port`` over the test's Redis (so a restarted one has its matches)."""
    flags = ("--redis-url", redis_url, "--key-prefix", prefix, "--embedded-bot-workers", "1")
    proc = spawn_server(port, log, *flags)
    assert proc is not None, "senet serve did not start"
    return proc


class _Lines:
    """A child's output, line by line, read on a thread so a wait can time out."""

    def __init__(self, stream: IO[str]) -> None:
        self.seen: list[str] = []
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)

    def until(self, found: Callable[[str], bool], timeout_s: float = 90) -> str:
        while True:
            try:
                line = self._lines.get(timeout=timeout_s)
            except queue.Empty:
                raise AssertionError("".join(self.seen[-60:])) from None
            self.seen.append(line)
            if found(line):
                return line


@pytest.mark.slow
def test_a_move_made_while_the_server_is_down_is_played_once_it_is_back(
    redis_url: str, tmp_path: Path
) -> None:
    port, prefix = _free_port(), f"t-{uuid.uuid4().hex[:8]}"
    with (tmp_path / "server.log").open("ab") as log:
        server = _serve(port, redis_url, prefix, log)
        player = subprocess.Popen(
            [sys.executable, "-m", "senet.cli", "play", "--server", f"127.0.0.1:{port}",
             "--new", "mykerinos", "--bots", "1", "--bot-strategy", "random", "--seed", "5",
             "--line", "--no-clear", "--no-color"],
            cwd=REPO, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert player.stdin is not None and player.stdout is not None
        lines = _Lines(player.stdout)
        try:
            lines.until(lambda line: "YOUR TURN" in line)
            stop_server(server, 20)
            player.stdin.write("1\n")
            player.stdin.flush()
            lines.until(lambda line: "again for up to" in line)
            server = _serve(port, redis_url, prefix, log)
            played = lines.until(lambda line: line.startswith(("Played ", "Not accepted")))
            assert played.startswith("Played "), "".join(lines.seen[-40:])
            player.stdin.write("quit\np\n")
            player.stdin.close()
            assert player.wait(timeout=60) == 0, "".join(lines.seen[-40:])
        finally:
            if player.poll() is None:
                player.kill()
                player.wait()
            stop_server(server, 20)
