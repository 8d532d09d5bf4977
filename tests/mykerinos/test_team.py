"""The team game: two teams of two, seated alternately (rulings T-1..T-4)."""

from __future__ import annotations

import pytest

from senet.games import get_game
from senet.games.errors import IllegalActionError, InvalidOptionsError
from senet.games.mykerinos.patrons import Patron
from senet.games.mykerinos.region import parse_space
from tests.mykerinos.builders import (
    BLUE,
    GREEN,
    RED,
    WHITE,
    card_id,
    fill,
    give_cards,
    lay_region,
    new_state,
    notations,
    put,
    set_museum,
    set_turn,
    start_delimitation,
)


def test_team_game_needs_exactly_four_players() -> None:
    game = get_game("mykerinos")
    for seats in (2, 3):
        with pytest.raises(InvalidOptionsError, match="exactly 4 players"):
            game.new_match(seats, {"team": True})
    assert new_state(4, team=True).team


def test_each_campaign_five_of_your_colour_and_three_of_your_teammates_ruling_t1() -> None:
    state = new_state(4, team=True)
    assert state.mate(BLUE) == GREEN and state.mate(RED) == WHITE
    for seat in range(4):
        reserve = state.personal[seat]
        assert reserve[seat] == 5 and reserve[(seat + 2) % 4] == 3
        assert sum(reserve) == 8
    assert state.view(None)["teams"] == [[0, 2], [1, 3]]


def test_teammate_archaeologists_start_and_expand_from_their_colour_ruling_t2() -> None:
    state = new_state(4, team=True)
    lay_region(state, fill([], 8), pyramids=[])
    set_turn(state, BLUE, campaign=2)
    put(state, GREEN, "c3")
    put(state, BLUE, "f5")
    legal = notations(state)
    assert "ta a1" in legal  # a start anywhere, with Green's archaeologist
    assert "tb c4 c5" in legal  # an expansion chains from Green's excavation ...
    assert "tb f6 f7" not in legal  # ... not from Blue's own
    events = state.apply(BLUE, "tb c4 c5")
    placed = next(e.data for e in events if e.kind == "placed")
    assert placed["colour"] == "green" and placed["seat"] == BLUE
    assert state.board[parse_space("c4")] == GREEN and state.personal[BLUE][GREEN] == 1


def test_patrons_only_with_your_own_archaeologists_ruling_t3() -> None:
    state = new_state(4, team=True)
    lay_region(state, fill([], 8), pyramids=[])
    set_turn(state, BLUE, campaign=2)
    give_cards(state, BLUE, cur=1)
    events = state.apply(BLUE, "cur a1 a2")
    placed = next(e.data for e in events if e.kind == "placed")
    assert placed["colour"] == "blue"  # the Curator never places Green's archaeologists
    assert state.personal[BLUE][GREEN] == 3


def test_teammate_actions_exist_only_in_the_team_game() -> None:
    state = new_state(4)
    assert not any(n.startswith("t") for n in notations(state))
    with pytest.raises(IllegalActionError, match="only the team game"):
        state.apply(state.turn, "ta a1")


def test_a_team_scores_its_lower_members_total_and_teammates_share_the_place() -> None:
    state = new_state(4, team=True)
    state.prestige = [10, 7, 4, 9]
    assert state.individual_scores() == [10, 7, 4, 9]
    assert state.scores() == [4, 7, 4, 7]  # Blue+Green: min(10, 4); Red+White: min(7, 9)
    assert state.ranking() == [2, 1, 2, 1]
    view = state.view(RED)
    assert view["scores"] == [4, 7, 4, 7] and view["individual_scores"] == [10, 7, 4, 9]


def test_team_tie_broken_by_both_members_reserves_ruling_t4() -> None:
    state = new_state(4, team=True)
    state.prestige = [5, 5, 5, 5]
    state.personal[BLUE][BLUE], state.personal[GREEN][GREEN] = 1, 1
    state.personal[RED][RED], state.personal[WHITE][WHITE] = 3, 0
    assert state.ranking() == [2, 1, 2, 1]


def test_third_place_may_leave_the_last_plot_to_a_teammate_behind_ruling_m10() -> None:
    state = new_state(4, team=True)
    lay_region(state, fill([card_id("cur", 3), card_id("col", 0)], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    put(state, RED, "a1", "b1", "c1")
    put(state, WHITE, "a2", "b2")
    put(state, BLUE, "a3")  # third place; Green, Blue's teammate, is fourth
    put(state, GREEN, "b3")
    start_delimitation(state, {RED: 1, WHITE: 2, BLUE: 3, GREEN: 4})
    state.apply(RED, "take r")
    state.apply(WHITE, "mus col3")
    assert state.current_seat() == BLUE and notations(state) == {"take l", "leave"}
    events = state.apply(BLUE, "leave")
    assert [e.data for e in events if e.kind == "plot_left"] == [{"seat": BLUE, "area": 0}]
    # Green's claim has one choice, so it is handed out.
    assert state.cards[GREEN][Patron.CURATOR] == 1 and state.prestige[GREEN] == 3
    assert state.cards[BLUE][Patron.CURATOR] == 0


def test_no_leaving_a_plot_without_a_teammate_behind_ruling_m10() -> None:
    state = new_state(4, team=True)
    lay_region(state, fill([card_id("cur", 3), card_id("col", 0)], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    put(state, RED, "a1", "b1", "c1")
    put(state, GREEN, "a2", "b2")
    put(state, BLUE, "a3")  # third place; Green, Blue's teammate, is ahead
    put(state, WHITE, "b3")
    start_delimitation(state, {RED: 1, GREEN: 2, BLUE: 3, WHITE: 4})
    state.apply(RED, "take r")
    state.apply(GREEN, "mus col3")
    assert state.cards[BLUE][Patron.CURATOR] == 1  # one choice: handed out
