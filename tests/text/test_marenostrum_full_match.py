"""End to end: a person plays a whole six-seat Mare Nostrum match in a terminal against
five hosted bots (issue 18): ``senet serve`` with an embedded bot worker, ``senet play
--new marenostrum --bots 5`` under pexpect (line mode, 80 columns).

The person sets every trade it directs to one card, passes where it may, ends each
part of its turns, and otherwise plays the first action listed, until the final
scores. The match is shortened with the game's ``turn_limit`` option, given on the
command line (``--option turn_limit=3``), which ends and ranks a match nobody won.

A second match seats the person last (``senet play --join``), behind five bots, so
that it offers while lower seats are still offering: the simultaneous decision as a
person meets it in line mode.
"""

from __future__ import annotations

import io
import re

import pexpect
import pytest

from senet.client.client import SenetClient
from senet.v1 import match_pb2
from tests.sync import run_sync
from tests.text.test_marenostrum_terminal import _actions, _pick
from tests.text.test_text_client import ANSI_RE, PROMPT, _spawn, leave_at_the_end

TURNS = 3
SEATS = 6
#: What the client answers a line typed while the seat has nothing to decide.
NOT_YOURS = "It is not your turn yet"
#: The client's answers to a choice typed at a list (the last: the line was dropped).
ANSWERS = ("Played ", "Not accepted", "was not used", NOT_YOURS)


@pytest.mark.slow
def test_a_person_plays_a_whole_six_seat_marenostrum_match(server_with_bots: str) -> None:
    log = io.StringIO()
    # Seed 9: the person (seat 0) is the Director of turn 1, so there is a trade it
    # sizes whatever the random bots direct later.
    child = _spawn(
        "--server", server_with_bots, "--new", "marenostrum", "--bots", str(SEATS - 1),
        "--name", "Ada", "--seed", "9", "--option", f"turn_limit={TURNS}", log=log,
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
        # As a person would: one choice, then its answer. The screen may be drawn again
        # meanwhile, the same list under it, as the bots move: a prompt drawn before the
        # answer is not a new question.
        child.expect(list(ANSWERS), timeout=60)
        assert len(played) < 500, "the match does not end"
    assert index == 1, ANSI_RE.sub("", log.getvalue())[-6000:]
    leave_at_the_end(child)
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


async def _bots_first_match(address: str, bots: int, turns: int, seed: int) -> str:
    """A match whose ``bots`` first seats are hosted random bots and whose last seat
    is open: the person who joins it is never the lowest of the seats offering."""
    async with SenetClient(address) as client:
        bot = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="random")
        person = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN)
        return await client.create_match(
            "marenostrum", [bot] * bots + [person], options={"turn_limit": turns}, seed=seed
        )


@pytest.mark.slow
def test_a_person_offering_beside_bots_is_never_told_it_is_not_their_turn(
    server_with_bots: str,
) -> None:
    """The person (seat 5) offers while the five bots before it offer theirs, one
    after the other: the person's prompt stands through the bots' moves, so nothing
    the person types at a list of actions may be answered as if it were idle."""
    # Seed 11: the person is the Director of turn 1, so there is a trade (one card).
    match_id = run_sync(_bots_first_match(server_with_bots, SEATS - 1, 2, seed=11))
    log = io.StringIO()
    child = _spawn("--server", server_with_bots, "--join", match_id, "--name", "Ada", log=log)
    played = 0
    while True:
        index = child.expect([PROMPT, "FINAL SCORES", pexpect.EOF], timeout=60)
        if index != 0:
            break
        notations = _actions(str(child.before or ""))
        if not notations:  # re-prompted without a list: ask for the screen again
            child.sendline("board")
            continue
        child.sendline(_pick(notations))
        # As a person would: one choice, then its answer (the screen may be drawn
        # again meanwhile, the same list under it, as the bots offer).
        answer = child.expect(list(ANSWERS), timeout=60)
        assert answer != 3, "a choice typed at the list was dropped"
        played += 1
        assert played < 500, "the match does not end"
    assert index == 1, ANSI_RE.sub("", log.getvalue())[-6000:]
    leave_at_the_end(child)
    out = ANSI_RE.sub("", log.getvalue())
    assert "(Ada, you): offer" in out  # the person did offer beside the bots
    assert NOT_YOURS not in out, "a choice typed at the list was dropped"
