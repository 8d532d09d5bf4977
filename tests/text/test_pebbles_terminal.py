"""End to end: a person plays Pebbles, the test suite's game, in a terminal against a
hosted bot. Pebbles has no text renderer of its own: the generic one draws it from the
view alone, so this proves a new game is playable in the text client with no text code."""

from __future__ import annotations

import io
import re

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
    child.expect(pexpect.EOF, timeout=30)
    assert screens >= 5
    assert re.search(r"(wins|share the victory)!", str(child.before or ""))
