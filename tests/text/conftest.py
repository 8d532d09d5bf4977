"""Fixtures of the terminal tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.text.test_text_client import REPO, _free_port


@pytest.fixture
def server_with_bots(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    log = (tmp_path / "server.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--no-log-json", "--log-level", "WARNING",
         "--embedded-bot-workers", "1"],
        cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline().decode(errors="replace")
    if not line.startswith(f"Senet is serving on 127.0.0.1:{port}"):
        proc.kill()
        pytest.fail(f"senet serve did not start:\n{(tmp_path / 'server.log').read_text()}")
    try:
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
