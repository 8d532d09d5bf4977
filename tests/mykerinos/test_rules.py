"""Scenario table for the rules of the base game and the rulings in docs/rules/mykerinos.md.

Each test names the rule (or ruling id, ``M-n``) it pins.
"""

from __future__ import annotations

import pytest

from senet.games.errors import IllegalActionError, MalformedActionError
from senet.games.mykerinos import MYKERINOS, MykerinosState, parse_action
from senet.games.mykerinos import actions as act
from senet.games.mykerinos.museum import parse_room
from senet.games.mykerinos.patrons import PATRONS, Patron
from senet.games.mykerinos.plots import PLOT_CARDS, SPECIAL_PLOT_ID
from senet.games.mykerinos.region import parse_space, space_name
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


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize(("seats", "own", "neutral"), [(2, 11, 4), (3, 11, 0), (4, 8, 0)])
def test_setup_and_planning_allotments(seats: int, own: int, neutral: int) -> None:
    state = new_state(seats, seed=11)
    assert sorted(state.wing_order) == [0, 1, 2, 3, 4]
    assert 0 <= state.start_seat < seats
    assert len(state.deck) == 36 - 8 and len(state.slots) == 8
    assert state.shape.rows == 6
    for seat in range(seats):
        assert state.personal[seat][seat] == own
        assert state.general[seat] == 25 - own
    if neutral:
        assert [state.personal[s][GREEN] for s in range(seats)] == [4, 4]
        assert state.general[GREEN] == 25 - 8


def test_deck_has_seven_cards_per_patron_and_one_five_point_card() -> None:
    assert len(PLOT_CARDS) == 36
    for patron in PATRONS:
        assert sum(1 for c in PLOT_CARDS if c.patron == patron) == 7
    special = PLOT_CARDS[SPECIAL_PLOT_ID]
    assert special.patron is None and special.points == 5


def test_rotated_plot_turns_its_pyramids_half_a_turn() -> None:
    card = next(c for c in PLOT_CARDS if c.pyramids == (True, False, False, False, False, False))
    assert card.pyramid_at(0, 0, rotated=False)
    assert card.pyramid_at(2, 1, rotated=True)
    assert not card.pyramid_at(0, 0, rotated=True)


def test_same_seed_same_setup_different_seed_different_setup() -> None:
    a, b, c = new_state(3, seed=5), new_state(3, seed=5), new_state(3, seed=6)
    assert a.to_data() == b.to_data()
    assert a.to_data() != c.to_data()


# ------------------------------------------------------------------------- notation
@pytest.mark.parametrize(
    "text",
    ["a c2", "b c3 d3", "cur c2 c3", "col c3 d3 e3", "exp c2", "exp c3 d3", "hei c2",
     "hei c3 d3", "dir exp5", "dir col/exp", "pass", "na c2", "nb c3 d3", "nskip",
     "take l", "take r", "mus hei3", "discard r"],
)  # fmt: skip
def test_notation_round_trips(text: str) -> None:
    assert parse_action(text).notation() == text


def test_placement_order_does_not_matter_ruling_m14() -> None:
    assert parse_action("b d3 c3") == parse_action("b c3 d3")
    assert parse_action("dir exp/col") == parse_action("dir col/exp")
    assert parse_action("TAKE Left") == parse_action("take l")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("", "empty"), ("b c3", "takes 2"), ("a z9", "not a space"), ("dir exp4", "not a museum"),
     ("fly c2", "unknown action"), ("b c2 c2", "twice"), ("take x", "l or r")],
)  # fmt: skip
def test_malformed_notation_says_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(MalformedActionError, match=fragment):
        parse_action(text)


@pytest.mark.parametrize(
    "text",
    ["a c²", "a c٣", "a c\uff12", "a c⑤", "a c\U0001d7d9", "b c3 d\uff13", "a c02", "a c10",
     "dir exp\uff15", "dir exp⑤", "mus hei³", "take n\uff11", "take n¹", "block f\u0665"],
)  # fmt: skip
def test_rows_and_numbered_names_are_ascii_digits_written_one_way(text: str) -> None:
    with pytest.raises(MalformedActionError):
        parse_action(text)
    state = new_state(4)
    seat = state.current_seat()
    assert seat is not None
    before = state.to_data()
    with pytest.raises(MalformedActionError):
        state.apply(seat, text)
    assert state.to_data() == before


# ----------------------------------------------------------------------- excavation
def test_start_anywhere_empty_but_never_on_a_pyramid() -> None:
    state = new_state(4)
    lay_region(state, pyramids=["c2"])
    set_turn(state, BLUE)
    put(state, RED, "d2")
    moves = notations(state)
    assert "a a1" in moves and "a h6" in moves
    assert "a c2" not in moves and "a d2" not in moves
    before = state.to_data()
    with pytest.raises(IllegalActionError, match="pyramid"):
        state.apply(BLUE, "a c2")
    with pytest.raises(IllegalActionError, match="occupied"):
        state.apply(BLUE, "a d2")
    assert state.to_data() == before


def test_expand_chains_from_your_own_archaeologist() -> None:
    state = new_state(4)
    lay_region(state, pyramids=[])
    set_turn(state, BLUE)
    put(state, BLUE, "c2")
    put(state, RED, "e2")
    moves = notations(state)
    assert "b c3 c4" in moves  # c3 touches c2, c4 touches c3 (across the area border)
    assert "b d2 d3" in moves
    assert "b d3 d4" not in moves  # d3 is only diagonal to c2
    assert "b e3 e4" not in moves  # touching Red does not count
    with pytest.raises(IllegalActionError, match="next to one of your archaeologists"):
        state.apply(BLUE, "b d3 d4")


def test_expand_needs_two_archaeologists_ruling_m3() -> None:
    state = new_state(4)
    lay_region(state, pyramids=[])
    set_turn(state, BLUE)
    put(state, BLUE, "c2")
    set_reserve(state, BLUE, BLUE, 1)
    assert not any(m.startswith("b ") for m in notations(state))
    with pytest.raises(IllegalActionError, match="needs 2"):
        state.apply(BLUE, "b c3 c4")


def test_no_patrons_in_the_first_campaign() -> None:
    # Cards won in campaign 1 are usable from campaign 2 (M-16): nobody holds one yet.
    state = new_state(4)
    set_turn(state, BLUE)
    assert not any(m.split()[0] in act.PATRON_KINDS for m in notations(state))
    with pytest.raises(IllegalActionError, match="first campaign"):
        state.apply(BLUE, "cur a1 b1")


def test_each_patron_card_once_per_campaign_two_cards_twice() -> None:
    state = new_state(4)
    lay_region(state, pyramids=[])
    give_cards(state, BLUE, cur=2)
    set_turn(state, BLUE, campaign=2)
    state.apply(BLUE, "cur a1 b1")
    set_turn(state, BLUE)
    state.apply(BLUE, "cur a4 b4")
    set_turn(state, BLUE)
    assert not any(m.startswith("cur ") for m in notations(state))
    with pytest.raises(IllegalActionError, match="already used"):
        state.apply(BLUE, "cur a6 b6")


def test_curator_two_adjacent_anywhere_colonel_three_in_a_chain() -> None:
    state = new_state(4)
    lay_region(state, pyramids=["g5"])
    give_cards(state, BLUE, cur=1, col=1)
    set_turn(state, BLUE, campaign=2)
    put(state, BLUE, "a1")
    moves = notations(state)
    assert "cur g1 h1" in moves and "cur g1 h2" not in moves
    assert "cur g4 g5" not in moves  # no pyramid, even with a patron
    assert "col a2 a3 a4" in moves and "col b1 c1 c2" in moves
    assert "col b1 b2 a2" not in {m for m in moves}  # sorted notation only
    assert "col b1 a2 b2" in moves  # b1 -> b2 -> a2, written in board order
    assert "col c1 d1 e1" not in moves  # must start next to your archaeologist


def test_explorer_start_on_a_pyramid_only_ruling_m4() -> None:
    state = new_state(4)
    lay_region(state, pyramids=["c2"])
    give_cards(state, BLUE, exp=1)
    set_turn(state, BLUE, campaign=2)
    moves = notations(state)
    assert "exp c2" in moves
    assert "exp a1" not in moves


def test_heiress_takes_from_general_then_starts_or_expands_ruling_m5() -> None:
    state = new_state(4)
    lay_region(state, pyramids=[])
    give_cards(state, BLUE, hei=1)
    set_turn(state, BLUE, campaign=2)
    put(state, BLUE, "c2")
    set_reserve(state, BLUE, BLUE, 1)
    general = state.general[BLUE]
    moves = notations(state)
    assert "hei a1" in moves and "hei c3 c4" in moves
    state.apply(BLUE, "hei c3 c4")
    assert state.general[BLUE] == general - 1
    assert state.personal[BLUE][BLUE] == 0


def test_heiress_unavailable_when_general_reserve_is_empty() -> None:
    state = new_state(4)
    give_cards(state, BLUE, hei=1)
    set_turn(state, BLUE, campaign=2)
    set_reserve(state, BLUE, BLUE, state.personal[BLUE][BLUE] + state.general[BLUE])
    assert state.general[BLUE] == 0
    assert not any(m.startswith("hei ") for m in notations(state))
    with pytest.raises(IllegalActionError, match="general reserve"):
        state.apply(BLUE, "hei a1")


def test_director_places_from_personal_reserve_ruling_m8() -> None:
    state = new_state(4)
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    give_cards(state, BLUE, dir=1)
    set_turn(state, BLUE, campaign=2)
    reserve = state.personal[BLUE][BLUE]
    rooms = {m for m in notations(state) if m.startswith("dir ")}
    # From the fountain: the five 3-rooms and the five 2-rooms, no 5-room.
    assert len(rooms) == 10 and not any(r.endswith("5") for r in rooms)
    state.apply(BLUE, "dir col3")
    assert state.personal[BLUE][BLUE] == reserve - 1
    assert state.museum[parse_room("col3")] == BLUE
    with pytest.raises(IllegalActionError):
        state.apply(RED, "dir col5")  # not Red's turn... and not Red's room either


def test_pass_takes_the_lowest_free_tiebreak_space() -> None:
    state = new_state(4, seed=2)
    order, spaces = [], []
    while state.campaign == 1:
        seat = state.current_seat()
        assert seat is not None
        for event in state.apply(seat, "pass"):
            if event.kind == "passed":
                order.append(event.data["seat"])
                spaces.append(event.data["tiebreak_space"])
    assert spaces == [1, 2, 3, 4]
    # The last to pass starts the next campaign.
    assert state.start_seat == order[-1]


def test_last_active_player_gets_one_more_action_then_passes_ruling_m13() -> None:
    state = new_state(3, seed=3)
    lay_region(state, pyramids=[])
    first = state.current_seat()
    assert first is not None
    second, third = (first + 1) % 3, (first + 2) % 3
    state.apply(first, "pass")
    state.apply(second, "a a1")
    state.apply(third, "pass")
    assert state.current_seat() == second and state.final_seat == second
    events = state.apply(second, "a a2")
    passed = [e.data for e in events if e.kind == "passed"]
    assert passed == [{"seat": second, "tiebreak_space": 3, "automatic": True}]
    assert state.phase != "excavation" or state.campaign == 2


def test_unused_archaeologists_are_kept_for_the_next_campaign() -> None:
    state = new_state(4, seed=8)
    while state.campaign == 1:
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, "pass")
    assert all(state.personal[s][s] == 16 for s in range(4))


def test_short_general_reserve_gives_as_many_as_possible() -> None:
    state = new_state(4, seed=8)
    set_reserve(state, BLUE, BLUE, 20)  # general now holds 5 blue
    while state.campaign == 1:
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, "pass")
    assert state.personal[BLUE][BLUE] == 25 and state.general[BLUE] == 0


def test_two_player_neutral_action_may_follow_a_pass_ruling_m7() -> None:
    state = new_state(2, seed=1)
    seat = state.current_seat()
    assert seat is not None
    state.apply(seat, "pass")
    assert not state.active[seat] and state.tiebreak[seat] == 1
    assert state.phase == "neutral" and state.current_seat() == seat
    assert "nskip" in notations(state) and any(n.startswith("na ") for n in notations(state))
    neutral_before = state.personal[seat][GREEN]
    state.apply(seat, next(n for n in sorted(notations(state)) if n.startswith("na ")))
    assert state.personal[seat][GREEN] == neutral_before - 1
    assert state.phase == "excavation" and state.current_seat() == 1 - seat


def test_no_neutral_action_after_the_forced_pass_ruling_m7() -> None:
    state = new_state(2, seed=1)
    first = state.current_seat()
    assert first is not None
    state.apply(first, "pass")
    state.apply(first, "nskip")
    second = 1 - first
    own = next(n for n in sorted(notations(state)) if n.startswith("a "))
    state.apply(second, own)  # the last active player's one more action
    state.apply(second, "nskip")
    # The forced pass that follows offers no second neutral action.
    assert state.tiebreak[second] == 3 and state.phase == "delimitation"


def test_neutral_archaeologists_running_short_go_to_the_start_player_first() -> None:
    state = new_state(2, seed=1)
    start = state.start_seat
    set_reserve(state, start, GREEN, 0)
    set_reserve(state, 1 - start, GREEN, 0)
    state.general[GREEN] = 5  # (the rest stands on the board in a real game)
    state.campaign = 0
    state._start_campaign()
    assert state.personal[start][GREEN] == 4 and state.personal[1 - start][GREEN] == 1


# --------------------------------------------------------------------- delimitation
def _area_with(state: MykerinosState, left: int, right: int) -> None:
    lay_region(state, fill([left, right], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])


def test_third_place_never_museum_and_chooses_between_two_plots_ruling_m10() -> None:
    state = new_state(4)
    _area_with(state, card_id("cur", 0), card_id("col", 0))
    put(state, BLUE, "a1", "b1", "c1")
    put(state, RED, "a2", "b2")
    put(state, WHITE, "a3")
    start_delimitation(state, {BLUE: 1, RED: 2, WHITE: 3, GREEN: 4})
    state.apply(BLUE, "mus cur3")
    state.apply(RED, "mus col3")
    assert state.current_seat() == WHITE
    assert notations(state) == {"take l", "take r"}
    with pytest.raises(IllegalActionError, match="never choose the museum"):
        state.apply(WHITE, "mus exp3")
    state.apply(WHITE, "take r")
    assert state.cards[WHITE][Patron.COLONEL] == 1
    assert card_id("cur", 0) in state.box  # the unclaimed plot goes to the box


def test_no_archaeologists_no_reward_and_five_point_plot_goes_to_the_box() -> None:
    state = new_state(4)
    _area_with(state, SPECIAL_PLOT_ID, card_id("hei", 2))
    put(state, RED, "a1")
    start_delimitation(state, {BLUE: 1, RED: 2, WHITE: 3, GREEN: 4})
    assert state.current_seat() == RED
    state.apply(RED, "take l")
    assert state.prestige[RED] == 5 and sum(state.cards[RED]) == 0
    assert SPECIAL_PLOT_ID in state.box
    assert card_id("hei", 2) in state.box  # nobody else was in the area
    assert state.prestige[BLUE] == 0


def _neutral_second() -> MykerinosState:
    """Two players: Blue 3 first, the neutral player 2 second, Red 1 third."""
    state = new_state(2)
    _area_with(state, card_id("cur", 0), card_id("col", 0))
    put(state, BLUE, "a1", "b1", "c1")
    put(state, GREEN, "a2", "b2")
    put(state, RED, "a3")
    start_delimitation(state, {BLUE: 1, GREEN: 2, RED: 3})
    return state


def test_two_player_neutral_second_first_place_picks_the_discard() -> None:
    state = _neutral_second()
    state.apply(BLUE, "mus cur3")
    assert state.current_seat() == BLUE  # first place chooses what the neutral discards
    assert notations(state) == {"discard l", "discard r"}
    events = state.apply(BLUE, "discard r")
    assert card_id("col", 0) in state.box
    assert [e.data["seat"] for e in events if e.kind == "plot_taken"] == [RED]


def test_two_player_neutral_second_with_nobody_behind_discards_without_asking_ruling_m6() -> None:
    # Blue first goes to the museum; the neutral player, second and last, discards
    # one plot and the other leaves the game too: nobody is asked which.
    state = new_state(2)
    _area_with(state, card_id("cur", 0), card_id("col", 0))
    put(state, BLUE, "a1", "b1", "c1")
    put(state, GREEN, "a2", "b2")
    start_delimitation(state, {BLUE: 1, GREEN: 2, RED: 3})
    events = state.apply(BLUE, "mus cur3")
    discarded = [e.data for e in events if e.kind == "plot_discarded" and e.data["area"] == 0]
    assert [d["chosen_by"] for d in discarded] == [None, None]
    assert {card_id("cur", 0), card_id("col", 0)} <= set(state.box)
    assert state.phase == "excavation" and state.campaign == 2  # nothing else to decide


def test_two_player_neutral_second_after_a_plot_discards_the_other() -> None:
    state = _neutral_second()
    state.apply(BLUE, "take l")
    assert card_id("col", 0) in state.box
    assert sum(state.cards[RED]) == 0 and state.campaign == 2


def test_two_player_only_neutral_in_an_area_discards_both() -> None:
    state = new_state(2)
    _area_with(state, card_id("cur", 0), card_id("col", 0))
    put(state, GREEN, "a1")
    start_delimitation(state, {BLUE: 1, GREEN: 2, RED: 3})
    assert {card_id("cur", 0), card_id("col", 0)} <= set(state.box)


def test_two_player_neutral_first_alone_with_one_player_other_player_picks_ruling_m6() -> None:
    state = new_state(2)
    _area_with(state, card_id("cur", 0), card_id("col", 0))
    put(state, GREEN, "a1", "b1")
    put(state, BLUE, "a2")
    start_delimitation(state, {BLUE: 1, GREEN: 2, RED: 3})
    assert state.current_seat() == RED
    assert notations(state) == {"discard l", "discard r"}
    state.apply(RED, "discard l")
    assert state.current_seat() == BLUE
    state.apply(BLUE, "take r")
    assert state.cards[BLUE][Patron.COLONEL] == 1


def test_museum_reward_moves_one_of_your_archaeologists_from_the_area_ruling_m9() -> None:
    state = new_state(4)
    _area_with(state, card_id("cur", 0), card_id("col", 0))
    put(state, BLUE, "a1", "b1")
    put(state, RED, "a2")
    start_delimitation(state, {BLUE: 1, RED: 2, WHITE: 3, GREEN: 4})
    general = state.general[BLUE]
    state.apply(BLUE, "mus hei3")
    assert state.museum[parse_room("hei3")] == BLUE
    assert state.board.count(BLUE) == 1  # one left the area for the museum
    state.apply(RED, "take l")
    # the other Blue archaeologist went back to the general reserve; the plot
    # left over went to the box
    assert state.general[BLUE] >= general + 1 - 8


# -------------------------------------------------------------------- end of game
def test_full_game_has_four_campaigns_the_last_with_twelve_plots() -> None:
    state = MYKERINOS.new_match(3, seed=21)
    seen_rows = {}
    while not state.is_over():
        seen_rows[state.campaign] = state.shape.rows  # type: ignore[attr-defined]
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, "pass")
    assert seen_rows == {1: 6, 2: 6, 3: 6, 4: 9}
    assert state.view(None)["deck_size"] == 0
    assert state.current_seat() is None


def test_final_tie_broken_by_personal_reserve_then_shared_ruling_m12() -> None:
    state = new_state(3)
    state.final = [{"total": 10}, {"total": 10}, {"total": 10}]
    state.phase = "over"
    for seat, reserve in enumerate([4, 6, 4]):
        set_reserve(state, seat, seat, reserve)
    assert state.ranking() == [2, 1, 2]
    assert [e["total"] for e in state.final] == [10, 10, 10]


def test_neutral_archaeologists_in_the_reserve_count_for_the_tie_ruling_m12() -> None:
    state = new_state(2)
    state.final = [{"total": 10}, {"total": 10}]
    state.phase = "over"
    set_reserve(state, BLUE, BLUE, 3)
    set_reserve(state, RED, RED, 4)
    set_reserve(state, BLUE, GREEN, 2)  # neutral archaeologists Blue still holds
    set_reserve(state, RED, GREEN, 0)
    assert state.ranking() == [1, 2]
    # The view shows the same reserve the tie is decided on.
    players = state.view(None)["players"]
    assert sum(players[BLUE]["reserve"].values()) == 5
    assert sum(players[RED]["reserve"].values()) == 4


def test_space_names() -> None:
    assert space_name(parse_space("h9")) == "h9"
    assert parse_space("a1") == 0 and parse_space("b2") == 9
