"""The boards: every legal action a board offers to click can be clicked, spectators see
no hand, names are escaped, and a game without a board gets the generic one."""

from __future__ import annotations

import random
import re

import pytest

from senet.codec import codec_for
from senet.games import get_game
from senet.v1 import archeos_pb2, generic_pb2, match_pb2
from senet.web.boards import WEB_BOARDS, board_for
from senet.web.boards.generic import GENERIC_BOARD

TARGET = re.compile(r'data-target="([^"]+)"')


def _summary(game_id: str, seats: int, name: str = "Ada") -> match_pb2.MatchSummary:
    summary = match_pb2.MatchSummary(match_id="m1", game_id=game_id)
    for seat in range(seats):
        summary.seats.add(seat=seat, kind=match_pb2.SEAT_KIND_OPEN, display_name=f"{name}{seat}")
    return summary


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_id", "seats"),
    [("mykerinos", 4), ("mykerinos", 2), ("archeos", 3), ("marenostrum", 4)],
)
def test_every_target_of_every_legal_action_is_on_the_board(game_id: str, seats: int) -> None:
    """Along random playouts, each key a legal action names is an element of the drawn board."""
    board, codec = board_for(game_id), codec_for(game_id)
    rng = random.Random(7)
    clicked = 0
    for seed in range(3):
        state = get_game(game_id).new_match(seats, seed=seed)
        summary = _summary(game_id, seats)
        for _step in range(400):
            if state.is_over():
                break
            seat = state.current_seat()
            assert seat is not None
            view = codec.view_to_proto(state.view(seat))
            drawn = set(TARGET.findall(board.draw(view, summary, seat)))
            legal = state.legal_actions()
            for action in legal:
                keys = board.targets(codec.legal_action_to_proto(state, action), view)
                assert set(keys) <= drawn, (action.notation(), keys)
                clicked += bool(keys)
            state.apply(seat, rng.choice(legal))
    assert clicked > 100


def test_the_spectator_sees_no_hand_and_a_seat_sees_only_its_own() -> None:
    state = get_game("archeos").new_match(3, seed=3)
    codec, board = codec_for("archeos"), board_for("archeos")
    summary = _summary("archeos", 3)
    spectator = board.draw(codec.view_to_proto(state.view(None)), summary, None)
    assert "Your hand" not in spectator and 'data-target="h:' not in spectator
    seat_view = codec.view_to_proto(state.view(1))
    mine = board.draw(seat_view, summary, 1)
    hand = seat_view.archeos.players[1].hand
    assert "Your hand" in mine and len(hand) > 0
    assert all(not p.hand for p in seat_view.archeos.players if p.seat != 1)


def test_display_names_are_escaped() -> None:
    state = get_game("mykerinos").new_match(2, seed=1)
    view = codec_for("mykerinos").view_to_proto(state.view(0))
    drawn = board_for("mykerinos").draw(view, _summary("mykerinos", 2, "<script>x"), 0)
    assert "<script>" not in drawn and "&lt;script&gt;x0" in drawn


def test_a_game_without_a_board_gets_the_generic_one() -> None:
    assert board_for("no-such-game") is GENERIC_BOARD
    assert {"archeos", "marenostrum", "mykerinos"} <= set(WEB_BOARDS.game_ids())
    view = match_pb2.View(generic=generic_pb2.GenericView())
    drawn = GENERIC_BOARD.draw(view, _summary("pebbles", 2), None)
    assert "<pre>" in drawn and "pebbles" in drawn
    action = match_pb2.LegalAction(notation="take 1", label="Take one pebble")
    assert GENERIC_BOARD.targets(action, view) == []


def test_each_board_serves_the_game_it_is_registered_for() -> None:
    for game_id in WEB_BOARDS.game_ids():
        assert board_for(game_id).game_id == game_id


def test_the_mykerinos_patron_draft_is_on_the_board_and_chosen_there() -> None:
    state = get_game("mykerinos").new_match(3, {"quick": True}, seed=2)
    codec, board = codec_for("mykerinos"), board_for("mykerinos")
    seat = state.current_seat()
    assert seat is not None
    view = codec.view_to_proto(state.view(seat))
    assert view.mykerinos.HasField("draft")
    drawn = board.draw(view, _summary("mykerinos", 3), seat)
    assert "Patron draft" in drawn
    # The draft comes before the first campaign, not in a "campaign 0".
    assert "Before campaign 1 of 3 · " in drawn and "Campaign 0" not in drawn
    drafts = [a for a in state.legal_actions() if a.notation().startswith("draft")]
    assert drafts
    for action in drafts:
        keys = board.targets(codec.legal_action_to_proto(state, action), view)
        assert keys and set(keys) <= set(TARGET.findall(drawn))


def test_a_white_archaeologist_in_a_museum_room_does_not_look_like_an_empty_room() -> None:
    from senet.v1 import mykerinos_pb2 as pb
    from senet.web.mykerinos.board import EMPTY_ROOM, PIECE

    assert PIECE[pb.MYKERINOS_COLOUR_WHITE][0] != EMPTY_ROOM[0]
    state = get_game("mykerinos").new_match(4, seed=1)
    view = codec_for("mykerinos").view_to_proto(state.view(None))
    view.mykerinos.museum.rooms[0].occupant = pb.MYKERINOS_COLOUR_WHITE
    drawn = board_for("mykerinos").draw(view, _summary("mykerinos", 4), None)
    rooms = re.findall(r'<rect[^>]*class="room( empty)?"[^>]*>', drawn)
    occupied = [room for room in re.findall(r"<rect[^>]*>", drawn) if 'class="room"' in room]
    assert len(occupied) == 1 and 'stroke-width="3"' in occupied[0]
    assert len(rooms) == len(view.mykerinos.museum.rooms)


def test_the_mykerinos_players_table_names_seats_as_the_seats_table_does() -> None:
    from senet.web.frames import seat_label

    state = get_game("mykerinos").new_match(2, seed=1)
    view = codec_for("mykerinos").view_to_proto(state.view(0))
    summary = _summary("mykerinos", 2)
    summary.seats[1].kind = match_pb2.SEAT_KIND_BOT
    summary.seats[1].bot_strategy = "greedy"
    summary.seats[1].display_name = ""
    drawn = board_for("mykerinos").draw(view, summary, 0)
    label = seat_label(summary, view, 1, 0)
    assert "greedy" in label and label in drawn and "seat 1" not in drawn


def test_archeos_cards_show_whole_role_names_and_stacked_vehicles_stay_apart() -> None:
    from senet.web.archeos.board import VEHICLE_R, stack_offset

    offsets = [stack_offset(slot) for slot in range(6)]
    for index, (x, y) in enumerate(offsets):
        for other_x, other_y in offsets[index + 1 :]:
            assert (x - other_x) ** 2 + (y - other_y) ** 2 >= (2 * VEHICLE_R) ** 2
    state = get_game("archeos").new_match(3, seed=3)
    view = codec_for("archeos").view_to_proto(state.view(None))
    view.archeos.display[0].role = archeos_pb2.ARCHEOS_ROLE_CARTOGRAPHER
    drawn = board_for("archeos").draw(view, _summary("archeos", 3), None)
    roles = re.findall(r'class="card-role"[^>]*>([^<]+)<', drawn)
    assert "Cartographer" in roles


def test_the_archeos_display_and_deck_come_first_when_the_viewer_chooses_a_turn() -> None:
    """A turn begins with a choice: take a display card, draw from the deck, or lead
    an expedition; the seat choosing sees the display and the deck before the site
    tracks (first screen), the others see the tracks first."""
    state = get_game("archeos").new_match(3, seed=4)
    codec, board = codec_for("archeos"), board_for("archeos")
    seat = state.current_seat()
    assert seat is not None
    summary = _summary("archeos", 3)
    summary.current_seat = seat
    view = codec.view_to_proto(state.view(seat))
    assert view.archeos.step == archeos_pb2.ARCHEOS_STEP_TURN
    drawn = board.draw(view, summary, seat)
    assert drawn.index("<h3>Your hand</h3>") < drawn.index("<h3>Display</h3>")
    assert drawn.index("<h3>Display</h3>") < drawn.index("The site tracks")
    other = (seat + 1) % 3
    theirs = board.draw(codec.view_to_proto(state.view(other)), summary, other)
    assert theirs.index("The site tracks") < theirs.index("<h3>Display</h3>")


def test_the_mykerinos_team_game_shows_who_partners_whom_and_each_team_score() -> None:
    """A usability trial could not tell partners apart on the web: the team game's
    teams (seats 0+2 and 1+3) and their scores, the lower member's, are on the board."""
    state = get_game("mykerinos").new_match(4, {"team": True}, seed=1)
    view = codec_for("mykerinos").view_to_proto(state.view(0))
    view.mykerinos.individual_scores[:] = [12, 7, 9, 15]
    drawn = board_for("mykerinos").draw(view, _summary("mykerinos", 4), 0)
    assert "Teams" in drawn
    assert "Ada0" in drawn and re.search(
        r"Ada0[^<]* and [^<]*Ada2[^<]*: 9 \(the lower of 12, 9\)", drawn
    )
    assert re.search(r"Ada1[^<]* and [^<]*Ada3[^<]*: 7 \(the lower of 7, 15\)", drawn)
    alone = get_game("mykerinos").new_match(4, seed=1)
    plain = codec_for("mykerinos").view_to_proto(alone.view(0))
    assert "Teams" not in board_for("mykerinos").draw(plain, _summary("mykerinos", 4), 0)
