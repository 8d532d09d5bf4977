"""One scenario per site board side: the compass side and the six advanced sides."""

from __future__ import annotations

import pytest

from senet.games.archeos import ArcheosState
from senet.games.archeos.actions import SECOND_VEHICLE
from senet.games.archeos.cards import Colour, Role, card
from senet.games.archeos.sites import ADVANCED, COMPASS, RAPA_NUI_BONUS, Special
from senet.games.errors import CorruptStateError
from tests.archeos.builders import (
    end_season,
    event,
    new_state,
    notations,
    play,
    set_deck,
    set_display,
    set_hand,
    set_turn,
)


def _state(advanced: Special, seats: int = 3) -> ArcheosState:
    state = new_state(seats, advanced=advanced)
    set_turn(state, 0)
    set_display(state, "o-stu", "o-stu")
    set_deck(state, *(["b-stu"] * 6), monkeys=3)
    return state


def test_compass_side_one_space_per_expedition_if_the_size_meets_the_line() -> None:
    state = _state(Special.ULURU)
    blue = int(Colour.BLUE)
    set_hand(state, 0, "b-bot", "b-stu", "b-stu")
    play(state, 0, "lead b-bot col", "add b-stu", "add b-stu", "go")
    # 3 cards would cross several lines, but an expedition never moves more than one.
    assert state.positions[0][blue] == 1
    set_turn(state, 0)
    state.positions[0][blue] = 3  # leaving space 3 needs 3 cards
    set_hand(state, 0, "b-bot", "b-stu")
    play(state, 0, "lead b-bot col", "add b-stu", "go")
    assert state.positions[0][blue] == 3  # played anyway, without advancing
    assert COMPASS.thresholds[3] == 3


def test_compass_side_scores_the_space_each_season_and_vehicles_stay() -> None:
    state = _state(Special.ULURU)
    state.positions[0][int(Colour.BLUE)] = 4
    state.positions[1][int(Colour.PURPLE)] = 2
    events = end_season(state, 2)
    sites = event(events, "season_scored").data["sites"]
    assert sites[0][int(Colour.BLUE)] == COMPASS.points[4]
    assert sites[1][int(Colour.PURPLE)] == COMPASS.points[2]
    assert state.positions[0][int(Colour.BLUE)] == 4


def test_chichen_itza_draws_the_cards_shown_at_the_line_crossed_at_end_of_turn() -> None:
    state = _state(Special.CHICHEN_ITZA)
    green = int(Colour.GREEN)
    state.positions[0][green] = 2
    track = ADVANCED[Special.CHICHEN_ITZA]
    set_hand(state, 0, "g-bot", "g-stu", "g-stu", "y-stu")
    set_deck(state, "r-stu", "p-stu", "o-stu", "b-stu", monkeys=3)
    state.monkey_free_top = 4
    events = play(state, 0, "lead g-bot col", "add g-stu", "add g-stu", "go")
    assert state.step == "chichen" and not [e for e in events if e.kind == "cards_drawn"]
    events = play(state, 0, *(["draw"] * track.draws[2]))
    assert state.positions[0][green] == 3
    drawn = [e.data for e in events if e.kind == "cards_drawn"]
    assert drawn == [{"seat": 0, "count": 1, "reason": "chichen_itza"}] * track.draws[2]
    assert len(state.hands[0]) == track.draws[2]  # y-stu went to the display first


def test_chichen_itza_draws_come_after_the_physician_keeps_cards() -> None:
    state = _state(Special.CHICHEN_ITZA)
    green = int(Colour.GREEN)
    state.positions[0][green] = 4  # crossing 4 -> 5 draws 3
    set_hand(state, 0, "g-phy", *(["g-stu"] * 4), *(["r-stu"] * 4), "y-stu")
    state.roles = sorted({*state.roles, int(Role.PHYSICIAN)})
    play(state, 0, "lead g-phy col", "add g-stu", "add g-stu", "add g-stu", "add g-stu", "go")
    play(state, 0, "keep r-stu", "keep r-stu", "keep r-stu", "keep r-stu", "keep y-stu")
    while state.step == "chichen":
        play(state, 0, "draw")
    # Five kept, then three drawn for crossing the line out of space 4.
    assert ADVANCED[Special.CHICHEN_ITZA].draws[4] == 3
    assert len(state.hands[0]) == 8 and state.turn == 1


def test_rapa_nui_farthest_scores_three_more_and_restarts() -> None:
    state = _state(Special.RAPA_NUI)
    blue = int(Colour.BLUE)
    state.positions[0][blue] = 3
    state.positions[1][blue] = 3
    state.positions[2][blue] = 1
    events = end_season(state, 2)
    scored = event(events, "season_scored").data
    assert scored["rapa_nui"] == [0, 1]
    track = ADVANCED[Special.RAPA_NUI]
    assert scored["sites"][0][blue] == track.points[3]
    assert [p[blue] for p in state.positions] == [0, 0, 1]
    assert scored["scores"][0] - scored["scores"][2] >= RAPA_NUI_BONUS


def test_ta_sekhet_maat_two_vehicles_choose_one_and_the_rear_one_scores() -> None:
    state = _state(Special.TA_SEKHET_MAAT)
    yellow = int(Colour.YELLOW)
    set_hand(state, 0, "y-bot", "y-stu")
    play(state, 0, "lead y-bot col", "add y-stu", "go")
    # Both vehicles on the start space: one choice, made for you.
    assert state.positions[0][yellow] == 1 and state.positions[0][SECOND_VEHICLE] == 0
    set_turn(state, 0)
    set_hand(state, 0, "y-bot", "y-stu")
    play(state, 0, "lead y-bot col", "add y-stu", "go")
    assert notations(state) == {"adv y", "adv y2"}
    play(state, 0, "adv y")
    assert state.positions[0][yellow] == 2
    events = end_season(state, 1)
    track = ADVANCED[Special.TA_SEKHET_MAAT]
    assert event(events, "season_scored").data["sites"][0][yellow] == track.points[0]


def test_tantallon_castle_large_star_alone_small_star_shared() -> None:
    state = _state(Special.TANTALLON_CASTLE)
    purple = int(Colour.PURPLE)
    state.positions[0][purple] = 3
    state.positions[1][purple] = 2
    state.positions[2][purple] = 2
    events = end_season(state, 0)
    sites = event(events, "season_scored").data["sites"]
    track = ADVANCED[Special.TANTALLON_CASTLE]
    assert sites[0][purple] == track.points[3]
    assert sites[1][purple] == sites[2][purple] == track.shared_points[2]


def test_uluru_cash_in_after_advancing_and_no_season_end_points() -> None:
    state = _state(Special.ULURU)
    red = int(Colour.RED)
    track = ADVANCED[Special.ULURU]
    state.positions[0][red] = 1
    set_hand(state, 0, "r-bot", "r-stu")
    play(state, 0, "lead r-bot col", "add r-stu", "go")
    assert state.step == "uluru" and notations(state) == {"cash", "stay"}
    before = state.score[0]
    play(state, 0, "cash")
    assert state.score[0] == before + track.points[2] + 2  # the Botanist's 2 come after
    assert state.positions[0][red] == 0
    state.positions[1][red] = 5
    events = end_season(state, 2)
    assert event(events, "season_scored").data["sites"][1][red] == 0


def test_ur_third_monkey_gives_each_player_one_expedition_limited_by_the_track() -> None:
    state = _state(Special.UR)
    orange = int(Colour.ORANGE)
    state.positions[1][orange] = 2  # may play up to 3 cards
    set_hand(state, 1, "b-stu", "b-stu", "b-stu", "b-stu")
    set_hand(state, 2, "r-stu")
    set_hand(state, 0, "y-stu")
    events = end_season(state, 1)
    assert event(events, "season_ending").data["seat"] == 1
    # Seat 1 drew the last monkey, so it starts the round.
    assert state.step == "ur" and state.turn == 1
    play(state, 1, "lead b-stu col", "add b-stu", "add b-stu")
    assert notations(state) == {"go"}  # the Ur limit of 3 is reached
    play(state, 1, "go")
    assert state.step == "ur" and state.turn == 2
    play(state, 2, "pass")
    assert state.step == "ur" and state.turn == 0
    events = play(state, 0, "lead y-stu col", "go")
    scored = event(events, "season_scored").data
    assert scored["expeditions"][1] == 3


def test_ur_cartographer_plays_a_single_expedition_ruling_a14() -> None:
    state = _state(Special.UR)  # the default roles include the Cartographer
    state.positions[1][int(Colour.ORANGE)] = 3  # may play up to 4 cards
    set_hand(state, 1, "r-car", "r-stu", "b-stu", "b-stu")
    set_hand(state, 2, "g-stu")
    set_hand(state, 0, "y-stu")
    end_season(state, 1)
    assert state.step == "ur" and state.turn == 1
    play(state, 1, "lead r-car col", "add r-stu", "go")
    # The Cartographer advanced, yet the round moves on: no second expedition.
    assert state.positions[1][int(Colour.RED)] == 1
    assert state.step == "ur" and state.turn == 2
    assert notations(state) == {"lead g-stu col", "lead g-stu role", "pass"}
    assert len(state.expeditions[1]) == 1


def test_ur_limits_and_chichen_draws_are_data() -> None:
    ur = ADVANCED[Special.UR]
    assert len(ur.ur_limits) == len(ur.points)
    chichen = ADVANCED[Special.CHICHEN_ITZA]
    assert len(chichen.draws) == len(chichen.thresholds)
    assert card(Role.STUDENT, Colour.RED) == 66


def test_a_snapshot_with_a_vehicle_beyond_its_track_is_refused() -> None:
    state = new_state(3)
    game = state.game
    assert game.state_from_data(state.to_data()).to_data() == state.to_data()
    for target in (0, len(state.positions[0]) - 1):
        data = state.to_data()
        data["positions"][1][target] = 20
        with pytest.raises(CorruptStateError, match="beyond the end of its track"):
            game.state_from_data(data)
