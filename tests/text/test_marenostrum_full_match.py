"""End to end: a person plays a whole six-seat Mare Nostrum match in a terminal against
five hosted bots (issue 18): ``senet serve`` with an embedded bot worker, ``senet play
--new marenostrum --bots 5`` under pexpect (line mode, 80 columns).

The person sets every trade it directs to one card, passes where it may, ends each
part of its turns, and otherwise plays the first action listed, until the final
scores. The match is shortened with the game's ``turn_limit`` option, given on the
command line (``--option turn_limit=3``), which ends and ranks a match nobody won.
"""

from __future__ import annotations

import io
import re

import pexpect
import pytest

from tests.text.test_marenostrum_terminal import _actions
from tests.text.test_text_client import ANSI_RE, PROMPT, _spawn

TURNS = 3
SEATS = 6


def _pick(notations: list[str]) -> str:
    """The person's choice: a one-card trade, else pass, done or leave, else action 1."""
    for wanted in ("size 1", "pass", "done", "leave"):
        if wanted in notations:
            return wanted
    return "1"


@pytest.mark.slow
def test_a_person_plays_a_whole_six_seat_marenostrum_match(server_with_bots: str) -> None:
    log = io.StringIO()
    child = _spawn(
        "--server", server_with_bots, "--new", "marenostrum", "--bots", str(SEATS - 1),
        "--name", "Ada", "--seed", "11", "--option", f"turn_limit={TURNS}", log=log,
    )  # fmt: skip
    played: list[str] = []
    while True:
        index = child.expect([PROMPT, "FINAL SCORES", pexpect.EOF], timeout=60)
        if index != 0:
            break
        notations = _actions(str(child.before or ""))
        assert notations, log.getvalue()[-3000:]
        choice = _pick(notations)
        played.append(notations[0] if choice == "1" else choice)
        child.sendline(choice)
        assert len(played) < 500, "the match does not end"
    assert index == 1, log.getvalue()[-3000:]
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    assert child.exitstatus == 0, log.getvalue()[-3000:]

    out = ANSI_RE.sub("", log.getvalue())
    assert "Traceback" not in out
    final = out[out.rindex("FINAL SCORES") :]
    # One line per seat, first to sixth, each with what it owns.
    places = re.findall(r"^\s*(\d)(?:st|nd|rd|th) ", final, re.MULTILINE)
    assert sorted(int(p) for p in places)[0] == 1 and len(places) == SEATS, final
    assert final.count("owns ") == SEATS
    assert "(Ada, you)" in final
    assert "wins!" in final or "Turn limit reached:" in final
    # The person went through whole turns: trades (sized or offered), the offerings,
    # building and moving, and saw the bots' moves arrive.
    kinds = {notation.split()[0] for notation in played}
    assert {"pass", "done"} <= kinds, played
    assert kinds & {"size", "offer", "take"}, played
    assert "Offers revealed" in out
    assert f"Turn {TURNS} begins." in out or "wins!" in final
