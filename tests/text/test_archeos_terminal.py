"""End to end: a person plays a whole Archeos Society match in a terminal against a
hosted bot (``senet serve`` with one embedded bot worker, ``senet play`` under pexpect)."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from tests.text.test_text_client import PROMPT, REPO, _free_port, _group, _spawn


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


@pytest.mark.slow
def test_a_person_plays_archeos_against_a_bot(server_with_bots: str) -> None:
    log = io.StringIO()
    child = _spawn(
        "--server", server_with_bots, "--new", "archeos", "--bots", "1", "--name", "Ada",
        "--seed", "3", "--option", "advanced_site=ur", log=log,
    )  # fmt: skip
    rng = random.Random(4)
    screens = 0
    seen_hand = False
    while True:
        index = child.expect([PROMPT, "FINAL SCORES", pexpect.EOF], timeout=60)
        if index != 0:
            break
        screen = str(child.before or "")
        seen_hand |= "your hand:" in screen and "by colour:" in screen
        screens += 1
        if screens == 1:
            assert "Ur (advanced)" in screen and "SITES" in screen
            child.sendline("?")
            child.expect("Cards are colour-role")
            continue
        child.sendline(str(rng.randint(1, int(_group(child)))))
    assert index == 1, log.getvalue()[-3000:]
    child.expect(pexpect.EOF, timeout=30)
    assert screens > 20 and seen_hand
    assert re.search(r"(wins|share the victory)!", str(child.before or ""))
