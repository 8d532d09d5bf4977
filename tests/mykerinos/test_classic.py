"""The classic (2006) rules: what the Chinese summary states differently (C-1..C-6)."""

from __future__ import annotations

from senet.games.mykerinos.museum import parse_room
from senet.games.mykerinos.patrons import CLASSIC_PATRON_NAMES
from senet.games.mykerinos.state import MykerinosState
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


def test_original_patron_names_in_views_and_labels_ruling_c1() -> None:
    state = new_state(3, classic=True)
    names = state.view(BLUE)["patron_names"]
    assert names["exp"] == "Lord Lemon" and names["col"] == "Colonel Tangerine"
    assert names["cur"] == "Mrs Blackmore" and names["hei"] == "Lady Violet"
    assert names["dir"] == "Sir Brown"
    assert tuple(names.values())[:5] == CLASSIC_PATRON_NAMES[:5]
    set_turn(state, BLUE, campaign=2)
    give_cards(state, BLUE, exp=1)
    labels = [state.describe(a) for a in state.legal_actions() if a.kind == "exp"]
    assert labels and all(label.startswith("Lord Lemon: ") for label in labels)
    assert new_state(3).view(BLUE)["patron_names"]["exp"] == "Explorer"


def test_museum_reward_takes_an_archaeologist_from_the_general_reserve_ruling_c2() -> None:
    state = new_state(4, classic=True)
    lay_region(state, fill([], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    put(state, BLUE, "a1", "b1", "c1")
    put(state, RED, "a2")
    general = state.general[BLUE]
    start_delimitation(state, {BLUE: 1, RED: 2, GREEN: 3, WHITE: 4})
    state.apply(BLUE, "mus exp3")
    assert state.museum[parse_room("exp3")] == BLUE
    assert state.general[BLUE] == general - 1  # from the general reserve ...
    assert [state.board[i] for i in (0, 1, 2)] == [BLUE] * 3  # ... not from the area
    label = new_state(4, classic=True)
    assert "general reserve" in label.describe("mus exp3")


def test_no_museum_reward_with_an_empty_general_reserve_ruling_c2() -> None:
    state = new_state(4, classic=True)
    lay_region(state, fill([], 8), pyramids=[])
    put(state, BLUE, "a1", "b1")
    put(state, RED, "a2")
    state.personal[BLUE][BLUE] += state.general[BLUE]
    state.general[BLUE] = 0
    start_delimitation(state, {BLUE: 1, RED: 2, GREEN: 3, WHITE: 4})
    assert notations(state) == {"take l", "take r"}


def _three_ranked_in_area_one() -> MykerinosState:
    """A classic 4-player game scoring area 1: Blue first, White second, Red third."""
    state = new_state(4, classic=True)
    lay_region(state, fill([card_id("dir", 2), card_id("hei", 0)], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    put(state, BLUE, "a1", "b1", "c1")
    put(state, WHITE, "a2", "b2")
    put(state, RED, "a3")
    start_delimitation(state, {BLUE: 1, WHITE: 2, RED: 3, GREEN: 4})
    return state


def test_third_place_claims_a_plot_only_when_first_and_second_went_to_the_museum_c3() -> None:
    # First takes a plot, second goes to the museum: the last plot is discarded.
    state = _three_ranked_in_area_one()
    state.apply(BLUE, "take l")
    events = state.apply(WHITE, "mus exp3")
    assert not any(e.kind == "plot_taken" and e.data["seat"] == RED for e in events)
    assert any(e.kind == "plot_discarded" and e.data["area"] == 0 for e in events)
    # Both went to the museum: third place takes a plot.
    state = _three_ranked_in_area_one()
    state.apply(BLUE, "mus exp3")
    state.apply(WHITE, "mus col/exp")
    assert state.current_seat() == RED and notations(state) == {"take l", "take r"}


def _classic_two_player_area(neutral_first: bool) -> MykerinosState:
    """Classic two-player game scoring area 1: the neutral player first (3) or second
    (2), Blue with 3 or 2, Red third with 1; the Explorer plot left, the Curator right."""
    state = new_state(2, classic=True)
    lay_region(state, fill([card_id("exp", 0), card_id("cur", 0)], 8), pyramids=[])
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    put(state, GREEN, *(["a1", "b1", "c1"] if neutral_first else ["a1", "b1"]))
    put(state, BLUE, *(["a2", "b2"] if neutral_first else ["a2", "b2", "c2"]))
    put(state, RED, "a3")
    start_delimitation(state, {BLUE: 1, GREEN: 2, RED: 3})
    return state


def test_neutral_discard_does_not_close_the_leftover_to_third_place_ruling_c6() -> None:
    # The rulebook's two-player example (line 325) under classic rules: the neutral
    # player wins, Black (Red here, third) picks its discard, Blue goes to the
    # museum, and Black takes the remaining plot.
    state = _classic_two_player_area(neutral_first=True)
    assert state.current_seat() == RED and notations(state) == {"discard l", "discard r"}
    state.apply(RED, "discard l")
    assert "take r" in notations(state) and "mus cur3" in notations(state)
    events = state.apply(BLUE, "mus cur3")
    taken = [(e.data["seat"], e.data["card"]) for e in events if e.kind == "plot_taken"]
    assert taken == [(RED, card_id("cur", 0))]
    assert card_id("exp", 0) in state.box
    # Neutral second: first place went to the museum and picks the neutral's
    # discard; third place then claims the plot left.
    state = _classic_two_player_area(neutral_first=False)
    state.apply(BLUE, "mus exp3")
    assert state.current_seat() == BLUE and notations(state) == {"discard l", "discard r"}
    events = state.apply(BLUE, "discard r")
    taken = [(e.data["seat"], e.data["card"]) for e in events if e.kind == "plot_taken"]
    assert taken == [(RED, card_id("exp", 0))]


def test_classic_plots_are_never_rotated_ruling_c4() -> None:
    for seed in range(5):
        state = new_state(4, classic=True, seed=seed)
        assert not any(rotated for _, rotated in state.slots)
    assert any(rotated for seed in range(5) for _, rotated in new_state(4, seed=seed).slots)


def test_each_set_of_the_five_patrons_scores_five_under_classic_rules_ruling_c7() -> None:
    # Summary, line 79: "如另外湊齊五張不同贊助者卡片,可額外再加5分" ("collecting five
    # different patron cards besides adds 5 points"); silent on a second set, so the
    # Special Edition's "Each set of 5 different patrons grants 5" applies.
    state = new_state(4, classic=True)
    give_cards(state, BLUE, exp=2, hei=2, col=2, cur=2, dir=2)
    give_cards(state, RED, exp=1, hei=1, col=1, cur=1, dir=1)
    state._finish_game()
    assert state.final is not None
    assert (state.final[BLUE]["sets"], state.final[BLUE]["set_points"]) == (2, 10)
    assert (state.final[RED]["sets"], state.final[RED]["set_points"]) == (1, 5)
