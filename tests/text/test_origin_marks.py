"""The log says when the seat's holder did not choose a move: played on timeout
(by which fallback), by the bot that took the seat over, or for a resigned seat.

Every game's renderer words the move; the mark is added once for all of them
(:func:`senet.text.renderer.log_lines`), so the terminal, the full-screen and the
web client say it alike.
"""

from __future__ import annotations

import io

import pytest

from senet.codec import codec_for
from senet.games import all_games, get_game
from senet.text.renderer import log_lines, marked, origin_note, renderer_for
from senet.v1 import match_pb2
from tests.text.test_text_client import _spawn

MARKS = [
    (match_pb2.ACTION_ORIGIN_TIMEOUT, "random", "played on timeout (random)"),
    (match_pb2.ACTION_ORIGIN_TIMEOUT, "greedy", "played on timeout (greedy bot)"),
    (
        match_pb2.ACTION_ORIGIN_TAKEOVER,
        "greedy",
        "played by the greedy bot that took the seat over",
    ),
    (match_pb2.ACTION_ORIGIN_RESIGNED, "random", "played for the resigned seat (random)"),
]


@pytest.mark.parametrize(("origin", "strategy", "note"), MARKS)
def test_each_origin_has_its_words(
    origin: match_pb2.ActionOrigin.ValueType, strategy: str, note: str
) -> None:
    update = match_pb2.MatchUpdate(seat=1, notation="pass", origin=origin, origin_strategy=strategy)
    assert origin_note(update) == note
    lines = marked(["B (Ann): pass", "  an event"], update)
    assert lines == [f"B (Ann): pass -- {note}", "  an event"]


def test_the_seats_own_moves_are_not_marked() -> None:
    for origin in (match_pb2.ACTION_ORIGIN_SEAT, match_pb2.ACTION_ORIGIN_UNSPECIFIED):
        update = match_pb2.MatchUpdate(seat=0, notation="pass", origin=origin)
        assert origin_note(update) == ""
        assert marked(["A (Ann, you): pass"], update) == ["A (Ann, you): pass"]


@pytest.mark.parametrize("game_id", [game.info.id for game in all_games()])
def test_every_games_log_marks_a_move_played_on_timeout(game_id: str) -> None:
    game = get_game(game_id)
    state = game.new_match(game.info.min_seats, seed=3)
    seat = state.current_seat()
    assert seat is not None
    view = codec_for(game_id).view_to_proto(state.view(seat))
    update = match_pb2.MatchUpdate(
        version=1,
        seat=seat,
        notation=state.legal_actions()[0].notation(),
        origin=match_pb2.ACTION_ORIGIN_TIMEOUT,
        origin_strategy="random",
    )
    lines = log_lines(renderer_for(game_id), update, view, None, seat)
    assert lines[0].endswith(f"{update.notation} -- played on timeout (random)"), lines
    # Before the first view arrives, the plain line carries the mark too.
    assert log_lines(renderer_for(game_id), update, None, None, seat) == [
        f"seat {seat}: {update.notation} -- played on timeout (random)"
    ]


@pytest.mark.slow
def test_the_terminal_says_which_of_your_moves_the_server_played(server_address: str) -> None:
    """Ada never answers: her decisions time out, and her log says so."""
    log = io.StringIO()
    child = _spawn(
        "--server", server_address, "--new", "mykerinos", "--seats", "1", "--bots", "1",
        "--decision-s", "0.3", "--name", "Ada", "--seed", "5", log=log,
    )  # fmt: skip
    child.expect(r"\(Ada, you\): [^\r\n]* -- played on timeout \(random\)", timeout=60)
    child.terminate(force=True)
    assert "Traceback" not in log.getvalue()
