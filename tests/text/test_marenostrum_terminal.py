"""End to end: a person plays a Mare Nostrum turn in a terminal, trade included, against
two hosted bots (``senet serve`` with an embedded bot worker, ``senet play`` under
pexpect, line mode, 80 columns).

Seed 4 seats the person (seat 0) as the Director of Commerce, so the person sets the
trade's size, offers a card and takes first; then the person builds nothing, passes
the offering and ends each part of the turn, until the second turn begins.
"""

from __future__ import annotations

import io
import re

import pexpect
import pytest

from tests.text.test_text_client import PROMPT, _spawn

#: An action line of the list: number, then notation (two spaces before the label).
ACTION = re.compile(r"^\s*(\d+)\s+(\S+(?: \S+)*?)(?:\s{2,}|$)", re.MULTILINE)


def _actions(screen: str) -> list[str]:
    """The notations of the listed actions (after the last YOUR TURN heading)."""
    listing = screen.rsplit("YOUR TURN - choose an action:", 1)[-1]
    return [m.group(2) for m in ACTION.finditer(listing)]


def _pick(notations: list[str]) -> str:
    """The person's choice: a one-card trade, else pass, done or leave, else action 1."""
    for wanted in ("size 1", "pass", "done", "leave"):
        if wanted in notations:
            return wanted
    return "1"


@pytest.mark.slow
def test_a_person_plays_a_marenostrum_turn_with_a_trade(server_with_bots: str) -> None:
    log = io.StringIO()
    child = _spawn(
        "--server", server_with_bots, "--new", "marenostrum", "--bots", "2", "--name", "Ada",
        "--seed", "4", log=log,
    )  # fmt: skip
    played: list[str] = []
    screens = 0
    while "Turn 2 begins." not in log.getvalue():
        index = child.expect([PROMPT, "FINAL SCORES", pexpect.EOF], timeout=60)
        assert index == 0, log.getvalue()[-3000:]
        screen = str(child.before or "")
        screens += 1
        if screens == 1:
            assert "PROVINCES  id=owner" in screen and "your hand:" in screen
            assert "Roles:" in screen and "Gods:" in screen and "To buy:" in screen
            # The resume command is printed whole, to be copied; the table fits.
            table = screen[screen.index("MARE NOSTRUM: MYTHOLOGY") :]
            wide = [line for line in table.splitlines() if len(line.rstrip("\r")) > 80]
            assert not wide, wide
            child.sendline("?")
            child.expect("build caravan lati wine")
            child.expect(PROMPT)
            child.sendline("zoom italia")
            child.expect("lati Latium: Rome capital")
            child.expect(PROMPT)
        notations = _actions(screen)
        if not notations:  # a prompt while the bots move: ask for the screen again
            child.sendline("board")
            continue
        choice = _pick(notations)
        played.append(choice if choice != "1" else notations[0])
        child.sendline(choice)
        assert screens < 200, log.getvalue()[-3000:]
    kinds = {notation.split()[0] for notation in played}
    assert {"size", "offer", "take"} <= kinds, played
    text = log.getvalue()
    assert "TRADE  1 card(s) each" in text
    assert "Offers revealed" in text and "takes" in text
    child.expect(PROMPT, timeout=60)
    child.sendline("quit")
    child.expect("Leave for good")
    child.sendline("p")
    child.expect(pexpect.EOF, timeout=30)
