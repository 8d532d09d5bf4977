"""The text client draws Archeos Society from protocol messages only."""

from __future__ import annotations

from senet.codec import codec_for
from senet.games import Rng, get_game
from senet.games.archeos import ArcheosState
from senet.games.archeos.sites import COMPASS
from senet.text.archeos.scores import final_score_lines
from senet.text.archeos.table import match_lines
from senet.text.drawing import ASCII, WIDTH
from senet.text.renderer import renderer_for
from senet.v1 import archeos_pb2 as pb

CODEC = codec_for("archeos")


def _view(seats: int, steps: int, viewer: int | None, **options: object) -> pb.ArcheosView:
    state = get_game("archeos").new_match(seats, options=options, seed=4)
    rng = Rng(9)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply_unchecked(rng.choice(state.legal_actions()))
    return CODEC.view_to_proto(state.view(viewer)).archeos


def test_every_line_fits_80_columns_for_every_seat_count() -> None:
    for seats in range(2, 7):
        for steps in (0, 60, 400):
            view = _view(seats, steps, 0)
            for line in match_lines(view, None, 0):
                assert line.cell_len <= WIDTH, line.plain


def test_tracks_show_vehicles_and_the_lines_to_cross() -> None:
    view = _view(3, 0, None, advanced_site="uluru")
    plain = [line.plain for line in match_lines(view, None, None, ASCII)]
    red = plain.index("Uluru (red, advanced)")  # the log names sites by colour
    assert plain[red + 1].startswith(" [ABC ]>1[")
    blue = plain.index("blue site")
    assert ">" + str(COMPASS.thresholds[1]) in plain[blue + 1]


def test_own_hand_grouped_by_colour_and_role_others_only_counted() -> None:
    view = _view(4, 30, 2)
    text = "\n".join(line.plain for line in match_lines(view, None, 2))
    assert text.count("your hand:") == 1 and "by colour:" in text and "by role:" in text
    assert "(seat 2, you)" in text
    spectator = "\n".join(line.plain for line in match_lines(_view(4, 30, None), None, None))
    assert "your hand" not in spectator


def test_monkeys_scores_and_final_table() -> None:
    view = _view(2, 5000, 0)
    assert view.step == pb.ARCHEOS_STEP_OVER
    lines = [line.plain for line in final_score_lines(view, None, 0)]
    assert lines[0] == "FINAL SCORES" and lines[-1].endswith(("wins!", "share the victory!"))
    header = match_lines(view, None, 0, ASCII)[1].plain
    assert "monkeys ***" in header


def test_long_action_lists_group_archeos_kinds_and_help_is_per_game() -> None:
    from senet.text.archeos.actions import HELP, action_lines

    state = get_game("archeos").new_match(4, seed=2)
    assert isinstance(state, ArcheosState)
    seat = state.current_seat()
    assert seat is not None
    state.hands[seat] = sorted(range(0, 60, 5))[:10]
    state.hands[seat] = [c for c in state.hands[seat] if c // 6 != 5]
    legal = [CODEC.legal_action_to_proto(state, a) for a in state.legal_actions()]
    assert len(legal) > 16
    plain = [line.plain for line in action_lines(legal)]
    assert "Lead an expedition (card, then col or role):" in plain
    assert all(len(line) <= WIDTH for line in plain)
    assert "lead r-bot col" in renderer_for("archeos").help_text
    assert all(len(line) <= WIDTH for line in HELP.splitlines())


def test_a_season_s_scores_are_named_by_seat() -> None:
    """A usability trial read "Season 3 scored: 54 35 49 41" and had to count seats."""
    from senet.text.archeos.events import describe_event
    from senet.text.archeos.names import Seats
    from senet.v1 import match_pb2

    seats = [
        match_pb2.SeatInfo(seat=s, display_name=n, claimed=True)
        for s, n in enumerate(["Ada", "Bo", "Cy"])
    ]
    summary = match_pb2.MatchSummary(game_id="archeos", seats=seats)
    view = pb.ArcheosView(players=[pb.ArcheosPlayer() for _ in seats])
    event = pb.ArcheosEvent(kind=pb.ARCHEOS_EVENT_KIND_SEASON_SCORED, season=3, scores=[54, 35, 49])
    assert describe_event(event, Seats(view, summary, viewer=1)) == (
        "Season 3 scored: A (Ada) 54, B (Bo, you) 35, C (Cy) 49."
    )
