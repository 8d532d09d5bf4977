"""End to end: a person plays a whole Archeos Society match in a terminal against a
hosted bot (``senet serve`` with one embedded bot worker, ``senet play`` under pexpect)."""

from __future__ import annotations

import io
import random
import re

import pexpect
import pytest

from tests.text.test_text_client import PROMPT, _group, _spawn, leave_at_the_end


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
            assert "Ur (" in screen and "advanced)" in screen and "SITES" in screen
            child.sendline("?")
            child.expect("Cards are colour-role")
            continue
        child.sendline(str(rng.randint(1, int(_group(child)))))
    assert index == 1, log.getvalue()[-3000:]
    ending = leave_at_the_end(child)
    assert screens > 20 and seen_hand
    assert re.search(r"(wins|share the victory)!", ending)
