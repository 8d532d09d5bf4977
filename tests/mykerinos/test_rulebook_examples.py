"""Every worked example of the Special Edition rulebook, as a scenario.

Colours: the rulebook's examples use blue, red, white and black; Senet's four
colours are blue, red, green and white, so the rulebook's *Black* is played by
green here.
"""

from __future__ import annotations

from senet.games.mykerinos.museum import parse_room
from senet.games.mykerinos.patrons import Patron
from senet.games.mykerinos.scoring import exhibition
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
    set_reserve,
    set_turn,
    start_delimitation,
)

BLACK = GREEN


def test_delimitation_example_blue_wins_tie_white_museum_red_plot_black_nothing() -> None:
    state = new_state(4)
    director_2pt, heiress = card_id("dir", 2), card_id("hei", 0)
    lay_region(state, fill([director_2pt, heiress], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    put(state, BLUE, "a1", "b1", "c1")
    put(state, WHITE, "a2", "b2", "c2")
    put(state, RED, "a3", "b3")
    put(state, BLACK, "c3")
    events = start_delimitation(state, {RED: 1, BLUE: 2, WHITE: 3, BLACK: 4})

    ranked = next(e for e in events if e.kind == "area_ranked")
    assert [o["colour"] for o in ranked.data["order"]] == ["blue", "white", "red", "green"]
    # Blue won the 3-3 tie with White thanks to the lower tiebreak marker.
    assert state.current_seat() == BLUE
    assert {"take l", "take r", "mus exp3", "mus col/exp"} <= notations(state)

    state.apply(BLUE, "take l")
    assert state.prestige[BLUE] == 2
    assert state.cards[BLUE][Patron.DIRECTOR] == 1

    assert state.current_seat() == WHITE
    events = state.apply(WHITE, "mus exp3")
    assert state.museum[parse_room("exp3")] == WHITE
    # Red, third, is lucky: the remaining plot is his without a choice to make.
    taken = [e for e in events if e.kind == "plot_taken"]
    assert [(e.data["seat"], e.data["side"], e.data["automatic"]) for e in taken] == [
        (RED, "right", True)
    ]
    assert state.cards[RED][Patron.HEIRESS] == 1
    # Black gets nothing: no plot remains and the museum is closed to 3rd and 4th.
    assert sum(state.cards[BLACK]) == 0
    assert state.prestige[BLACK] == 0
    # Every archaeologist of the area went back to the general reserve.
    assert state.campaign == 2
    for colour in range(4):
        held = sum(state.personal[s][colour] for s in range(4))
        assert state.general[colour] + held + state.museum.count(colour) == 25


def test_museum_example_two_room_opens_the_explorer_five_room() -> None:
    state = new_state(4)
    set_museum(state, ["cur", "col", "exp", "hei", "dir"], {"exp3": RED})
    set_turn(state, BLUE, campaign=2)
    give_cards(state, BLUE, dir=2)
    set_reserve(state, BLUE, BLUE, 3)

    rooms = {n for n in notations(state) if n.startswith("dir ")}
    assert "dir exp3" not in rooms  # Red holds it
    assert "dir exp5" not in rooms  # no way in yet
    assert "dir exp/hei" in rooms
    reason = state.explain_illegal(state.coerce_action("dir exp5"))
    assert "neighbouring 2- or 3-room" in reason

    state.apply(BLUE, "dir exp/hei")
    set_turn(state, BLUE)
    rooms = {n for n in notations(state) if n.startswith("dir ")}
    # The 2-room scores for both Explorer and Heiress and opens both 5-rooms.
    assert {"dir exp5", "dir hei5"} <= rooms
    assert "dir col5" not in rooms


def test_explorer_escape_through_a_pyramid() -> None:
    state = new_state(4)
    lay_region(state, pyramids=["b2", "d2", "b1"])
    set_turn(state, BLUE, campaign=2)
    give_cards(state, BLUE, exp=1)
    put(state, BLUE, "c2")
    put(state, RED, "c1", "c3")

    moves = notations(state)
    assert not any(m.startswith("b ") for m in moves)  # walled in: no plain expansion
    assert "exp a2 b2" in moves  # through the b2 pyramid, out onto a2
    assert "exp d2 e2" in moves
    assert "exp b1 b2" not in moves  # exactly one archaeologist on a pyramid
    reason = state.explain_illegal(state.coerce_action("exp b1 b2"))
    assert "exactly one" in reason

    state.apply(BLUE, "exp a2 b2")
    assert state.board[8] == BLUE and state.board[9] == BLUE  # a2, b2
    assert state.used[BLUE][Patron.EXPLORER] == 1


def test_final_scoring_example_totals_36() -> None:
    wings = ["cur", "col", "exp", "hei", "dir"]
    state = new_state(4)
    set_museum(state, wings, {"exp5": BLUE, "exp/hei": BLUE, "col3": BLUE})
    give_cards(state, BLUE, exp=3, hei=2, col=3, cur=2, dir=1)
    result = exhibition(state.cards[BLUE], state.museum, BLUE)
    assert result["patrons"]["exp"]["points"] == 15
    assert result["patrons"]["hei"]["points"] == 4
    assert result["patrons"]["col"]["points"] == 9
    assert result["patrons"]["cur"]["points"] + result["patrons"]["dir"]["points"] == 3
    assert result["set_points"] == 5
    assert result["total"] == 36


def test_two_player_blue_acts_then_expands_the_neutral_excavation() -> None:
    state = new_state(2)
    lay_region(state, pyramids=[])
    neutral = state.neutral
    assert neutral == GREEN
    set_turn(state, BLUE)
    put(state, neutral, "d4")
    state.apply(BLUE, "a b2")
    assert state.current_seat() == BLUE and state.phase == "neutral"
    moves = notations(state)
    assert "nb d5 d6" in moves and "na h6" in moves and "nskip" in moves
    assert "nb a5 a6" not in moves  # an expansion must touch the neutral excavation
    state.apply(BLUE, "nb d5 d6")
    assert state.personal[BLUE][neutral] == 2
    assert state.current_seat() == RED and state.phase == "excavation"


def test_two_player_neutral_marker_on_two_first_passer_wins_ties() -> None:
    state = new_state(2, seed=4)
    first = state.current_seat()
    assert first is not None
    state.apply(first, "pass")
    if state.phase == "neutral":  # a neutral action may follow a pass (M-7)
        state.apply(first, "nskip")
    assert state.tiebreak[first] == 1
    second = 1 - first
    # The last active player gets one action, then passes on space 3.
    state.apply(second, state.legal_actions()[0])
    if state.phase == "neutral":
        state.apply(second, "nskip")
    assert state.tiebreak[second] == 3
    assert state.tiebreak[GREEN] == 2


def test_two_player_neutral_wins_black_discards_blue_museum_black_takes() -> None:
    state = new_state(2)
    explorer, other = card_id("exp", 0), card_id("cur", 0)
    lay_region(state, fill([explorer, other], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    neutral = GREEN
    blue, black = BLUE, RED  # the rulebook's Black is the second player here
    put(state, neutral, "a1", "b1", "c1")
    put(state, blue, "a2", "b2")
    put(state, black, "a3")
    start_delimitation(state, {blue: 1, neutral: 2, black: 3})

    # The neutral player won the area: the third-placed player picks its discard.
    assert state.current_seat() == black
    assert notations(state) == {"discard l", "discard r"}
    state.apply(black, "discard l")  # the Explorer card Blue wanted
    assert explorer in state.box
    assert state.current_seat() == blue
    events = state.apply(blue, "mus cur3")
    assert state.museum[parse_room("cur3")] == blue
    taken = [e.data for e in events if e.kind == "plot_taken"]
    assert [(t["seat"], t["card"]) for t in taken] == [(black, other)]
