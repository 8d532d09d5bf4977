"""Fixtures of the terminal tests: ``senet serve`` (embedded store) in a child process."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.conftest import _free_port

REPO = Path(__file__).resolve().parents[2]


def spawn_server(port: int, log: IO[bytes], *flags: str) -> subprocess.Popen[bytes] | None:
    """``senet serve`` with ``flags`` on ``port``, once it serves; None (and the
    process gone) when it did not start there."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--no-log-json", "--log-level", "WARNING", *flags],
        cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline().decode(errors="replace")
    if line.startswith(f"Senet is serving on 127.0.0.1:{port}"):
        return proc
    stop_server(proc)
    return None


def stop_server(proc: subprocess.Popen[bytes], timeout_s: float = 10) -> None:
    """Stop a server as an orchestrator does (SIGTERM), killing it if it hangs."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _serve(tmp_path: Path, *flags: str) -> Iterator[str]:
    """Run ``senet serve`` with ``flags`` until the test ends; yields its address.

    A port taken between picking and binding fails the start, so three ports are tried.
    """
    log = (tmp_path / "server.log").open("ab")
    for _attempt in range(3):
        port = _free_port()
        proc = spawn_server(port, log, *flags)
        if proc is not None:
            break
    else:
        log.close()
        pytest.fail(f"senet serve did not start:\n{(tmp_path / 'server.log').read_text()}")
    try:
        yield f"127.0.0.1:{port}"
    finally:
        stop_server(proc)
        log.close()


@pytest.fixture
def server_address(tmp_path: Path) -> Iterator[str]:
    """A server without bot workers."""
    yield from _serve(tmp_path, "--embedded-bot-workers", "0")


@pytest.fixture
def server_with_bots(tmp_path: Path) -> Iterator[str]:
    """A server with one embedded bot worker, so bot seats play."""
    yield from _serve(tmp_path, "--embedded-bot-workers", "1")
