"""The text client (``senet play``): rendering, input, and a whole match in a terminal.

Rendering tests draw views of seeded random matches (taken through the codec, exactly
what the server sends) and check what a person must be able to read in 80 columns
without colour. The end-to-end test starts ``senet serve`` in a child process and plays
a two-player match in a pseudo-terminal: pexpect types for seat 0 (numbers, notation,
and invalid input), a small in-test client plays seat 1 over PlayMatch.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

import pexpect
import pytest

from senet.client.client import SenetClient
from senet.client.options import parse_options
from senet.codec import codec_for
from senet.games import GameState, get_game
from senet.text import choose, drawing
from senet.text.actions import FULL_LIST_MAX
from senet.text.cli import check, seat_plan
from senet.text.mykerinos import tables
from senet.text.mykerinos.actions import HELP, action_lines
from senet.text.mykerinos.board import board_lines
from senet.text.mykerinos.events import describe_event, update_lines
from senet.text.mykerinos.names import Seats
from senet.text.mykerinos.renderer import MYKERINOS_RENDERER
from senet.text.mykerinos.scores import final_score_lines
from senet.text.mykerinos.table import match_lines
from senet.text.mykerinos.tables import (
    COLOUR_LETTER,
    EFFECT_NAME,
    GOVERNOR,
    PATRON_CODE,
    PATRON_NAME,
    PATRONS,
)
from senet.v1 import match_pb2, match_service_pb2
from senet.v1 import mykerinos_pb2 as pb
from tests.sync import run_sync
from tests.text.conftest import REPO

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


# ------------------------------------------------------------------ random views
@dataclass
class Captured:
    """A view of a match at one moment, with a summary naming its seats."""

    moment: str
    view: pb.MykerinosView
    summary: match_pb2.MatchSummary
    legal: list[match_pb2.LegalAction]


def _summary(seats: int, state: GameState) -> match_pb2.MatchSummary:
    names = ["Ada", "Bob", "Cleo", "Dmitri"]
    summary = match_pb2.MatchSummary(
        match_id="0123456789abcdef",
        game_id="mykerinos",
        status=match_pb2.MATCH_STATUS_ACTIVE,
        seats=[
            match_pb2.SeatInfo(seat=i, display_name=names[i], claimed=True) for i in range(seats)
        ],
    )
    seat = state.current_seat()
    if seat is None:
        summary.status = match_pb2.MATCH_STATUS_FINISHED
    else:
        summary.current_seat = seat
    return summary


def _capture(moment: str, seats: int, state: GameState) -> Captured:
    codec = codec_for("mykerinos")
    view = codec.view_to_proto(state.view(0)).mykerinos
    legal = []
    if state.current_seat() is not None:
        legal = [
            match_pb2.LegalAction(
                action=codec.action_to_proto(a), notation=a.notation(), label=state.describe(a)
            )
            for a in state.legal_actions()
        ]
    return Captured(moment, view, _summary(seats, state), legal)


def _play_random(seats: int, seed: int, options: dict[str, bool] | None = None) -> list[Captured]:
    """Views at the start, in excavation with patron cards, in delimitation, at the end."""
    state = get_game("mykerinos").new_match(seats=seats, options=options, seed=seed)
    rng = random.Random(seed)
    captured = [_capture("start", seats, state)]
    wanted = {"campaign 2 excavation", "delimitation", "final campaign"}
    while state.current_seat() is not None:
        view = codec_for("mykerinos").view_to_proto(state.view(0)).mykerinos
        if view.campaign == 2 and view.phase == pb.MYKERINOS_PHASE_EXCAVATION:
            moment = "campaign 2 excavation"
        elif view.phase == pb.MYKERINOS_PHASE_DELIMITATION:
            moment = "delimitation"
        elif view.campaign == view.campaigns:
            moment = "final campaign"
        else:
            moment = ""
        if moment in wanted and rng.random() < 0.3:
            wanted.discard(moment)
            captured.append(_capture(moment, seats, state))
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions()))
    captured.append(_capture("over", seats, state))
    return captured


@pytest.fixture(scope="module")
def views() -> list[Captured]:
    out = []
    for seats, seed in ((2, 3), (3, 11), (4, 5)):
        out += _play_random(seats, seed)
    return out


def _text(captured: Captured, cs: drawing.Charset = drawing.UNICODE) -> str:
    return drawing.to_text(match_lines(captured.view, captured.summary, 0, cs))


# ------------------------------------------------------------------ rendering
def test_every_moment_fits_80_columns_and_shows_the_table(views: list[Captured]) -> None:
    assert {c.moment for c in views} >= {"start", "delimitation", "over"}
    for captured in views:
        text = _text(captured)
        lines = text.splitlines()
        assert max(len(line) for line in lines) <= drawing.WIDTH, captured.moment
        assert "\x1b" not in text
        view = captured.view
        # The museum: all 15 rooms, by name.
        assert len(view.museum.rooms) == 15
        for room in view.museum.rooms:
            assert room.name in text, (captured.moment, room.name)
        # Every player, by colour and name.
        for player in view.players:
            name = captured.summary.seats[player.seat].display_name
            assert re.search(rf"{COLOUR_LETTER[player.colour]} \w+ +{name}", text)
        # Area numbers (scoring order) and each plot's points and patron.
        for area in range(len(view.region.plots) // 2):
            assert f"Area {area + 1}" in text
        for plot in view.region.plots:
            assert f"{plot.points} {PATRON_CODE.get(plot.patron, '---')}" in text
        assert f"campaign {view.campaign} of {view.campaigns}" in text
        assert "TIEBREAK 1:" in text
        if view.phase == pb.MYKERINOS_PHASE_DELIMITATION:
            assert f"DELIMITATION scoring area {view.delimitation.area + 1}" in text
            assert "plots left:" in text


def test_board_cells_show_archaeologists_pyramids_and_empty_spaces(
    views: list[Captured],
) -> None:
    for captured in views:
        view = captured.view
        rows = {
            int(line[:2]): line
            for line in _text(captured).splitlines()
            if re.match(r"^ ?\d ┃", line)
        }
        assert sorted(rows) == list(range(1, view.region.rows + 1))
        occupied = {(o.space.column, o.space.row): o.colour for o in view.occupied}
        pyramids = {(s.column, s.row) for s in view.region.pyramids}
        for row, line in rows.items():
            cells = [line[4 + 3 * column + column // 2 + 1] for column in range(8)]
            for column, cell in enumerate(cells):
                space = (column, row - 1)
                if space in occupied:
                    expected = COLOUR_LETTER[occupied[space]]
                elif space in pyramids:
                    expected = "^"
                else:
                    expected = "."
                assert cell == expected, (captured.moment, space, line)
            # Area borders every 4 columns, plot borders between them.
            assert line[3] == line[17] == line[31] == "┃"
            assert line[10] == line[24] == "│"


def test_players_reserves_patrons_and_scores(views: list[Captured]) -> None:
    captured = next(c for c in views if c.moment == "final campaign")
    text = _text(captured)
    for player in captured.view.players:
        assert re.search(rf"score +{player.prestige}\b", text)
        for entry in player.patrons:
            if entry.patron == GOVERNOR:
                continue  # shown only with The Nile
            code = PATRON_CODE[entry.patron]
            used = f" ({entry.used} used)" if entry.used else ""
            assert f"{code} {entry.cards}{used}" in text
    assert "GENERAL reserve" in text
    assert "you)" in text


def test_final_scores_breakdown(views: list[Captured]) -> None:
    for captured in (c for c in views if c.moment == "over"):
        text = drawing.to_text(final_score_lines(captured.view, captured.summary, 0))
        assert max(len(line) for line in text.splitlines()) <= drawing.WIDTH
        assert "FINAL SCORES" in text
        for patron in PATRONS:
            assert PATRON_NAME[patron] in text
        for score in captured.view.final_scores:
            assert re.search(rf"\b{score.total}\b", text.split("TOTAL", 1)[1].splitlines()[0])
            for entry in score.patrons:
                if entry.cards:
                    value = entry.room_value or 1
                    assert f"{entry.cards}\u00d7{value}={entry.points}" in text
            assert f"{score.sets}\u00d75={score.set_points}" in text
        assert "Place" in text
        assert "wins!" in text or "share the victory" in text


def test_no_colour_and_ascii(views: list[Captured]) -> None:
    captured = views[1]
    lines = match_lines(captured.view, captured.summary, 0, drawing.ASCII)
    plain = io.StringIO()
    console = drawing.make_console(no_color=True, file=plain, force_terminal=True)
    for line in lines:
        console.print(line)
    assert "\x1b" not in plain.getvalue()
    assert plain.getvalue().isascii()
    coloured = io.StringIO()
    console = drawing.make_console(file=coloured, force_terminal=True)
    for line in lines:
        console.print(line)
    assert "\x1b[" in coloured.getvalue()
    assert ANSI_RE.sub("", coloured.getvalue()) == plain.getvalue()


def test_action_list_numbers_every_action_with_notation_and_label(
    views: list[Captured],
) -> None:
    long_list = next(c.legal for c in views if len(c.legal) > FULL_LIST_MAX)
    text = drawing.to_text(action_lines(long_list))
    assert max(len(line) for line in text.splitlines()) <= drawing.WIDTH
    numbers = [int(n) for n in re.findall(r"(?:^|(?<= ))(\d+) (?=[a-z])", text, re.M)]
    assert sorted(numbers) == list(range(1, len(long_list) + 1))
    for number, action in enumerate(long_list, 1):
        assert f"{number} {action.notation}" in text
    assert "A: start an excavation" in text
    short = long_list[:5]
    text = drawing.to_text(action_lines(short))
    for number, action in enumerate(short, 1):
        assert re.search(
            rf"{number}  {re.escape(action.notation)} +{re.escape(action.label)}", text
        )


def test_shared_label_starts_become_a_heading() -> None:
    rooms = ["cur3", "col/exp", "dir5"]
    legal = [match_pb2.LegalAction(notation="take l", label="Take the left plot (Heiress, 2)")]
    legal += [
        match_pb2.LegalAction(
            notation=f"mus {room}",
            label=f"Send one of your archaeologists of this area to the museum, {room} room",
        )
        for room in rooms
    ]
    text = drawing.to_text(action_lines(legal))
    assert "Send one of your archaeologists of this area to the museum:" in text
    for number, room in enumerate(rooms, 2):
        assert re.search(rf"{number}  mus {re.escape(room)} +{re.escape(room)} room", text)
    assert "1  take l       Take the left plot (Heiress, 2)" in text


def test_update_lines_describe_the_events(views: list[Captured]) -> None:
    captured = views[0]
    seats = Seats(captured.view, captured.summary, 0)
    update = match_pb2.MatchUpdate(seat=1, notation="pass")
    update.events.add().mykerinos.passed.CopyFrom(
        pb.MykerinosEvent.Passed(seat=1, tiebreak_space=1)
    )
    taken = update.events.add().mykerinos.plot_taken
    taken.CopyFrom(
        pb.MykerinosEvent.PlotTaken(
            seat=0, area=2, side=pb.MYKERINOS_SIDE_LEFT, points=3,
            patron=pb.MYKERINOS_PATRON_EXPLORER,
        )
    )  # fmt: skip
    lines = update_lines(update, seats)
    assert lines[0] == "Red (Bob): pass"
    assert "Red (Bob) passed: tiebreak space 1." in lines[1]
    assert "Blue (Ada, you) took the left plot of area 3: 3 pts, Explorer." in lines[2]


# ------------------------------------------------------------------ input
def _legal(*notations: str) -> list[match_pb2.LegalAction]:
    return [match_pb2.LegalAction(notation=n, label=f"label of {n}") for n in notations]


def test_resolve_numbers_notation_and_commands() -> None:
    """Mykerinos input, with that game's hints (aliases, board spaces typed alone)."""

    def resolve(text: str, legal: list[match_pb2.LegalAction]) -> choose.Choice:
        return choose.resolve(text, legal, MYKERINOS_RENDERER.input_hints)

    legal = _legal("a c2", "b c3 d3", "exp c4", "a c4", "dir col/exp", "take l", "pass")
    assert resolve("2", legal) == choose.Submit("b c3 d3")
    assert resolve(" B  D3, C3 ", legal) == choose.Submit("b c3 d3")
    assert resolve("take left", legal) == choose.Submit("take l")
    assert resolve("dir exp/col", legal) == choose.Submit("dir col/exp")
    assert resolve("c2", legal) == choose.Submit("a c2")
    assert resolve("PASS", legal) == choose.Submit("pass")
    problem = resolve("c4", legal)
    assert isinstance(problem, choose.Problem)
    assert "3 (exp c4)" in problem.message and "4 (a c4)" in problem.message
    assert isinstance(resolve("h9", legal), choose.Problem)
    out_of_range = resolve("12", legal)
    assert isinstance(out_of_range, choose.Problem)
    assert "1 to 7" in out_of_range.message
    assert isinstance(resolve("", legal), choose.Problem)
    assert resolve("?", legal) == choose.Command("help")
    assert resolve("quit", legal) == choose.Command("quit")
    assert resolve("? 2", legal) == choose.Command("explain", "2: b c3 d3 - label of b c3 d3")
    # Not listed: the server decides and explains.
    assert resolve("b z9 c2", legal) == choose.Submit("b z9 c2", known=False)
    assert max(len(line) for line in HELP.splitlines()) <= drawing.WIDTH


def test_resolve_knows_no_game_without_hints() -> None:
    legal = _legal("move e2 e4", "move e4 e2", "lead r-bot col", "play 5", "pass")
    # Arguments in any order, any case; an exact match wins over a reordered one.
    assert choose.resolve("move e4 e2", legal) == choose.Submit("move e4 e2")
    assert choose.resolve("LEAD col r-bot", legal) == choose.Submit("lead r-bot col")
    assert choose.resolve("play 5", legal) == choose.Submit("play 5")
    # Without hints nothing is typed alone or aliased; a listed first word goes to the
    # server, which judges the rest.
    assert choose.resolve("move e2 e9", legal) == choose.Submit("move e2 e9", known=False)
    # A first word no legal action starts with: the words this position allows, only.
    for typed in ("e2", "take left", "zz9"):
        problem = choose.resolve(typed, legal)
        assert isinstance(problem, choose.Problem), typed
        assert problem.message == (
            f"No action starts with {typed.split()[0]!r} now: you can play "
            "lead, move, pass, play (or a number from 1 to 5; ? for help)."
        )


def test_resolve_asks_when_reordered_input_fits_several_actions() -> None:
    legal = _legal("x a/b c", "x c b/a")
    several = choose.resolve("x c a/b", legal)
    assert isinstance(several, choose.Problem)
    assert "1 (x a/b c)" in several.message and "2 (x c b/a)" in several.message


def test_play_arguments() -> None:
    def parse(*argv: str) -> argparse.Namespace:
        from senet.text.cli import add_arguments

        parser = argparse.ArgumentParser()
        add_arguments(parser)
        return parser.parse_args(argv)

    assert seat_plan(parse("--new", "mykerinos", "--bots", "2")) == (1, 2)
    assert seat_plan(parse("--new", "mykerinos")) == (2, 0)
    assert seat_plan(parse("--new", "mykerinos", "--players", "4", "--bots", "1")) == (3, 1)
    assert seat_plan(parse("--new", "mykerinos", "--seats", "3")) == (3, 0)
    assert check(parse("--new", "m", "--seats", "2", "--players", "4")) is not None
    assert check(parse("--new", "m", "--players", "1", "--bots", "1")) is not None
    assert check(parse("--resume", "abc", "--seat", "0")) is not None
    assert check(parse("--watch", "abc")) is None
    assert parse_options(["campaigns=3", "quick=true", "name=x"]) == {
        "campaigns": 3,
        "quick": True,
        "name": "x",
    }


# ------------------------------------------------------------------ end to end
async def _random_player(address: str, match_id: str, seed: int) -> None:
    """Seat 1: a quick random player over PlayMatch (passes early to keep it short)."""
    rng = random.Random(seed)

    async def decide(turn: match_service_pb2.YourTurn) -> str:
        notations = [action.notation for action in turn.actions]
        if "pass" in notations and rng.random() < 0.3:
            return "pass"
        if "nskip" in notations and rng.random() < 0.6:
            return "nskip"
        return rng.choice(notations)

    async with SenetClient(address) as client:
        seat = await client.join(match_id, "Bot")
        await seat.play(decide)


def _spawn(*argv: str, log: io.StringIO) -> pexpect.spawn[str]:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "senet.cli", "play", *argv, "--no-color", "--no-clear", "--line"],
        cwd=str(REPO),
        env={
            "PATH": "/usr/bin:/bin",
            "TERM": "xterm",
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            # The test suite's own plug-in games (tests/plugins) are seen by the client too.
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        },
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 80),
    )
    child.logfile_read = log
    return child


def leave_at_the_end(child: pexpect.spawn[str]) -> str:
    """A player's session at a terminal ends by asking about a rematch: Enter alone
    leaves. Returns what the end printed before the question."""
    child.expect("Enter alone leaves", timeout=30)
    ending = str(child.before or "")
    child.sendline("")
    child.expect(pexpect.EOF, timeout=30)
    return ending


def _group(child: pexpect.spawn[str]) -> str:
    """The first group of the last pattern ``child`` matched."""
    match = child.match
    assert isinstance(match, re.Match)
    return str(match.group(1))


def _before(child: pexpect.spawn[str]) -> str:
    """What ``child`` printed before the last match."""
    return str(child.before or "")


PROMPT = r"Your move \(1-(\d+), notation, \? for help\) > "


@pytest.mark.slow
def test_a_person_plays_a_whole_match_in_a_terminal(server_address: str) -> None:
    started = time.monotonic()
    log = io.StringIO()
    child = _spawn(
        "--server", server_address, "--new", "mykerinos", "--seats", "2",
        "--name", "Ada", "--seed", "5", log=log,
    )  # fmt: skip
    child.expect(r"--join ([0-9a-f]+)")
    match_id = _group(child)
    child.expect(r"your token: (\S+)")
    token = _group(child)

    errors: list[BaseException] = []

    def bot() -> None:
        try:
            run_sync(_random_player(server_address, match_id, seed=7))
        except BaseException as exc:  # reported by the test below
            errors.append(exc)

    thread = threading.Thread(target=bot, daemon=True)
    thread.start()

    listing = ""
    campaign = 0
    placed = 0
    decisions = 0
    mistakes = ["a z9", "99"]
    while True:
        index = child.expect([PROMPT, "FINAL SCORES", pexpect.EOF], timeout=30)
        if index != 0:
            break
        screen = _before(child)
        if "YOUR TURN" in screen:
            listing = screen.rsplit("YOUR TURN", 1)[1]
            found = re.search(r"campaign (\d+) of \d+", screen)
            if found and int(found.group(1)) != campaign:
                campaign, placed = int(found.group(1)), 0
        if mistakes:
            child.sendline(mistakes[0])
            if mistakes.pop(0) == "99":
                child.expect("There is no action 99: choose a number from 1 to")
            else:
                child.expect(r"Not accepted: 'z9' is not a space")
            continue
        decisions += 1
        start = re.search(r"(?<!\S)\d+ (a [a-h][1-9])\b", listing)
        if re.search(r"^\s*\d+ +pass\b", listing, re.M) and placed >= 3:
            child.sendline("pass")
        elif re.search(r"^\s*\d+ +nskip\b", listing, re.M) and decisions % 2:
            child.sendline("nskip")
        elif start is not None and placed == 0:
            child.sendline(start.group(1).upper())  # notation, in capitals
            placed += 1
        else:
            child.sendline("1")
            placed += 1
        assert decisions < 200, "the match does not end"
    assert index == 1, log.getvalue()[-3000:]
    leave_at_the_end(child)
    child.close()
    assert child.exitstatus == 0
    thread.join(timeout=30)
    assert not errors, errors

    out = ANSI_RE.sub("", log.getvalue())
    final = out[out.rindex("FINAL SCORES") :]
    assert "TOTAL" in final and "Place" in final
    assert "Sets of 5 patrons" in final and "Curator" in final
    assert "wins!" in final or "share the victory" in final
    assert "Red (Bot): " in out  # the other seat's moves arrived live
    assert "Blue (Ada, you): a " in out  # the notation typed in capitals was played
    assert "Traceback" not in out
    assert decisions >= 5, decisions

    # The finished match can be watched, and the token resumes the seat.
    for argv in (
        ("--watch", match_id),
        ("--resume", match_id, "--seat", "0", f"--token={token}"),
    ):
        viewer = _spawn("--server", server_address, *argv, log=io.StringIO())
        viewer.expect("FINAL SCORES")
        if argv[0] == "--resume":
            leave_at_the_end(viewer)  # a player is asked about a rematch; a watcher is not
        else:
            viewer.expect(pexpect.EOF)
        viewer.close()
        assert viewer.exitstatus == 0
    assert time.monotonic() - started < 90


# ------------------------------------------------------------------ variants
def _variant_moments(
    seats: int, seed: int, options: dict[str, bool]
) -> Iterator[tuple[GameState, Captured]]:
    """Every position of a seeded random variant match, with its capture."""
    state = get_game("mykerinos").new_match(seats=seats, options=options, seed=seed)
    rng = random.Random(seed)
    while True:
        yield state, _capture("", seats, state)
        seat = state.current_seat()
        if seat is None:
            return
        state.apply(seat, rng.choice(state.legal_actions()))


@pytest.mark.slow
def test_nile_match_shows_river_cards_tokens_and_river_delimitation() -> None:
    seen = {"river", "blocked", "river delimitation", "tokens", "tie card"}
    for state, captured in _variant_moments(3, 8, {"nile": True}):
        text = _text(captured)
        assert max(len(line) for line in text.splitlines()) <= drawing.WIDTH
        view = state.view(0)
        assert "NILE decks:" in text
        for player in captured.view.players:
            assert f"tokens {player.tokens}" in text
            seen.discard("tokens")
        if any(card >= 5 for p in view["players"] for card in p["nile_cards"]):
            assert "tie card" in text
            seen.discard("tie card")
        for card in captured.view.region.nile.cards:
            assert f"n{card.row + 1} rows" in text
            assert EFFECT_NAME[card.effect] in text
        board = {space: colour for space, colour in view["occupied"].items()}
        for space in view["region"].get("river", []):
            if space not in board and space not in view["nile"]["blocked"]:
                assert _board_char(captured, space) == "~"
                seen.discard("river")
        for space, owner in view["nile"]["blocked"].items():
            assert _board_char(captured, space) == owner[0]  # lower-case owner letter
            seen.discard("blocked")
        for room, owner in view["nile"]["blocked_rooms"].items():
            assert f"{room} {owner[0]}" in text
        if view.get("delimitation", {}).get("river"):
            assert "DELIMITATION scoring the river" in text
            assert "Nile cards left:" in text
            seen.discard("river delimitation")
    assert not seen, f"never drawn: {seen}"


def _board_char(captured: Captured, space: str) -> str:
    """What the board shows on ``space``: the board alone, drawn in ASCII."""
    lines = drawing.to_text(board_lines(captured.view, drawing.ASCII)).splitlines()
    column, row = "abcdefgh".index(space[0]), int(space[1:])
    line = next(line for line in lines if line.startswith(f"{row:>2} "))
    # Row label (3 cells); a border before each plot (every 2 columns); 3 cells a space.
    return line[3 + (column // 2 + 1) + 3 * column + 1]


def test_team_match_shows_teams_and_team_scores() -> None:
    moments = list(_variant_moments(4, 6, {"team": True}))
    # (The generator plays on in place: each capture is what the view was then.)
    for _, captured in [*moments[::25], moments[-1]]:
        text = _text(captured)
        assert max(len(line) for line in text.splitlines()) <= drawing.WIDTH
        own = list(captured.view.individual_scores)
        team_line = next(line for line in text.splitlines() if line.startswith("TEAMS"))
        assert f"B+G score {min(own[0], own[2])}" in team_line
        assert f"R+W score {min(own[1], own[3])}" in team_line
    _, final = moments[-1]
    assert any(final.view.individual_scores)
    text = drawing.to_text(final_score_lines(final.view, final.summary, 0))
    assert "Team (lower member)" in text
    # The team's actions are listed under their own heading.
    listed = next(c.legal for _, c in moments if any(a.notation.startswith("tb") for a in c.legal))
    assert "Team: expand your teammate's excavation" in drawing.to_text(action_lines(listed))


def test_quick_draft_and_classic_names() -> None:
    state, captured = next(iter(_variant_moments(3, 4, {"quick": True, "classic": True})))
    text = _text(captured)
    assert "Patron draft" in text and "PATRON DRAFT" in text
    assert "on offer:" in text and "order:" in text
    # Classic names, from the view, in the draft row and the museum.
    assert "Mrs Blackmore (cur)" in text
    assert "Colonel Tangerine col3" in text
    assert "[R]" in text  # the seat drafting now, readable without colour
    draft = state.view(None)["draft"]
    for code in set(draft["patrons"]):
        count = draft["patrons"].count(code)
        assert f"({code}) {count}" in text
    seats = Seats(captured.view, captured.summary, 0)
    update = match_pb2.MatchUpdate(seat=0, notation="draft exp")
    update.events.add().mykerinos.drafted.CopyFrom(
        pb.MykerinosEvent.Drafted(seat=0, card=3, patron=pb.MYKERINOS_PATRON_EXPLORER)
    )
    assert "Blue (Ada, you) drafted a Lord Lemon." in update_lines(update, seats)[1]


def test_variant_events_are_described() -> None:
    state = get_game("mykerinos").new_match(seats=3, options={"nile": True}, seed=1)
    captured = _capture("", 3, state)
    seats = Seats(captured.view, captured.summary, 0)
    e = pb.MykerinosEvent
    events = [
        e(blocked=e.Blocked(seat=1, space=pb.MykerinosSpace(column=5, row=4))),
        e(
            token_returned=e.TokenReturned(
                seat=1, room=pb.MykerinosRoom(patron=pb.MYKERINOS_PATRON_EXPLORER, value=5)
            )
        ),
        e(river_ranked=e.RiverRanked(order=[pb.MYKERINOS_COLOUR_RED], counts=[2])),
        e(
            nile_card_taken=e.NileCardTaken(
                seat=1, row=0, effect=pb.MYKERINOS_NILE_EFFECT_EIGHT_POINTS, points=8
            )
        ),
        e(tie_card_used=e.TieCardUsed(seat=0)),
    ]
    lines = [describe_event(event, seats) for event in events]
    assert lines == [
        "Red (Bob) put a blocking token on f5.",
        "Red (Bob) took back the blocking token from the Explorer 5-room.",
        "The river is scored: Red 2.",
        "Red (Bob) took the Nile card of row 1: special card, 8 pts.",
        "Blue (Ada, you) used the tie card to win the tie.",
    ]


def test_the_two_player_games_neutral_colour_is_named_in_a_ranking() -> None:
    """A web trial read "Area 6 is scored: Green 2, Red 1, Blue 1" in a two-player
    game, where no seat plays Green: the neutral player does."""
    state = get_game("mykerinos").new_match(seats=2, options={}, seed=1)
    captured = _capture("", 2, state)
    seats = Seats(captured.view, captured.summary, 0)
    neutral = captured.view.neutral_colour
    played = [cast("pb.MykerinosColour.ValueType", seats.colour_of[s]) for s in (0, 1)]
    e = pb.MykerinosEvent
    ranked = e(area_ranked=e.AreaRanked(area=5, order=[neutral, *played], counts=[2, 1, 1]))
    line = describe_event(ranked, seats)
    assert line is not None
    names = [tables.COLOUR_NAME[c] for c in (neutral, *played)]
    assert line == f"Area 6 is scored: {names[0]} (neutral) 2, {names[1]} 1, {names[2]} 1."


def test_the_quick_games_draft_is_before_the_first_campaign_not_campaign_0() -> None:
    """Quick game: "three campaigns after each player drafts two patrons"; the draft
    comes first, so the header does not call it a campaign 0."""
    state = get_game("mykerinos").new_match(3, {"quick": True}, seed=2)
    view = codec_for("mykerinos").view_to_proto(state.view(0)).mykerinos
    assert view.campaign == 0 and view.HasField("draft")
    header = drawing.to_text(match_lines(view, None, 0, drawing.ASCII)).splitlines()[0]
    assert "before campaign 1 of 3" in header and "campaign 0" not in header
