"""End to end: a person plays Pebbles, the test suite's game, in a terminal against a
hosted bot. Pebbles has no text renderer of its own: the generic one draws it from the
view alone, so this proves a new game is playable in the text client with no text code.
Then the rematch the end offers, from its printed command."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pexpect
import pytest

from tests.text.test_text_client import PROMPT, _group, _spawn


@pytest.mark.slow
def test_a_person_plays_pebbles_drawn_by_the_generic_renderer(server_with_bots: str) -> None:
    log = io.StringIO()
    child = _spawn(
        "--server", server_with_bots, "--new", "pebbles", "--bots", "1", "--name", "Ada",
        "--seed", "5", log=log,
    )  # fmt: skip
    screens = 0
    while True:
        index = child.expect([PROMPT, "FINAL SCORES", pexpect.EOF], timeout=60)
        if index != 0:
            break
        screen = str(child.before or "")
        screens += 1
        if screens == 1:
            assert "PEBBLES" in screen and "STATE" in screen
            assert re.search(r"hand: \d", screen), screen
        assert int(_group(child)) >= 1
        child.sendline("1")
    assert index == 1, log.getvalue()[-3000:]
    child.expect("Enter alone leaves", timeout=30)
    assert screens >= 5
    ending = str(child.before or "")
    assert re.search(r"(wins|share the victory)!", ending)

    # The end says how to check the deal; its chosen seed owes nothing to Ada's entropy.
    check = re.search(r"verify --server (\S+) (\w+) --commitment ([0-9a-f]{64})(.*)", ending)
    assert check is not None and "--entropy" not in check[4], ending
    verified = subprocess.run(
        [sys.executable, "-m", "senet.cli", "verify", "--server", check[1], check[2],
         "--commitment", check[3]],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert verified.returncode == 0 and verified.stdout.endswith(" fair.\n"), verified.stdout

    # The end offers the rematch: typed, it moves Ada on a seat beside the same bot,
    # and it starts at once.
    asked = re.search(r"--rematch (\w+) --token=(\S+)", ending)
    assert asked is not None and "Play a rematch" in ending, ending
    child.sendline("rematch")
    child.expect(r"Rematch: match (\w+)\.", timeout=30)
    rematch_id = _group(child)
    child.expect(r"You are seat (\d)", timeout=30)
    assert _group(child) == "1"  # seat 0 before
    child.expect(PROMPT, timeout=60)
    child.sendline("quit")
    child.expect("Leave for good", timeout=30)
    child.sendline("p")
    child.expect(pexpect.EOF, timeout=30)

    # The command the end printed asks again: the same rematch, seat and token.
    again = _spawn(
        "--server", server_with_bots, "--rematch", asked[1], "--token", asked[2], log=log
    )
    again.expect(r"Rematch of (\w+): match (\w+)\.", timeout=30)
    match = again.match
    assert isinstance(match, re.Match) and (match[1], match[2]) == (asked[1], rematch_id)
    again.expect(r"You are seat (\d)", timeout=30)
    assert _group(again) == "1"
    again.expect(PROMPT, timeout=60)
    again.sendline("quit")
    again.expect("Leave for good", timeout=30)
    again.sendline("p")
    again.expect(pexpect.EOF, timeout=30)
