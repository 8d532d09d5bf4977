"""The rulebook's setup, turn, season and scoring rules, each as a scenario.

The rulebook has no worked numeric examples beyond its two tables, so every rule it
states in a sentence is pinned here instead; rulings (A-n, ``docs/rules/archeos.md``)
are named in the tests that pin them.
"""

from __future__ import annotations

from senet.games.archeos import ARCHEOS, ArcheosState
from senet.games.archeos.cards import (
    COPIES,
    MONKEY,
    MONKEYS,
    ROLES,
    Role,
    card,
    cut_bounds,
    deck_for,
    parse_card,
)
from senet.games.archeos.scoring import place_by_score_then_expeditions, tiebreak_sizes
from senet.games.archeos.sites import (
    COMPASS,
    EXPEDITION_POINTS,
    RELIC_POINTS,
    expedition_points,
    relic_points,
)
from senet.games.archeos.state import seasons_for
from senet.games.errors import IllegalActionError, InvalidOptionsError
from tests.archeos.builders import (
    cards,
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


def test_box_holds_159_cards_twice_as_many_students_ruling_a1() -> None:
    total = sum(COPIES[r] * 6 for r in range(ROLES)) + MONKEYS
    assert total == 159
    assert COPIES[Role.STUDENT] == 2 * COPIES[Role.BOTANIST]


def test_setup_one_card_each_display_of_players_plus_two_monkeys_below_ruling_a7() -> None:
    for seats in range(2, 7):
        state = ARCHEOS.new_match(seats, seed=seats)
        assert isinstance(state, ArcheosState)
        assert len(state.roles) == 6
        assert all(len(h) == 1 for h in state.hands)
        assert len(state.display) == seats + 2
        assert state.deck.count(MONKEY) == MONKEYS
        top = state.deck[len(state.deck) - state.monkey_free_top :]
        assert MONKEY not in top
        assert state.monkey_free_top == cut_bounds(len(state.deck) - MONKEYS)[0]
        assert sum(state.positions[s][c] for s in range(seats) for c in range(6)) == 0


def _first_monkey_depth(state: ArcheosState) -> int:
    """How many cards lie above the first monkey."""
    return list(reversed(state.deck)).index(MONKEY)


def test_the_cut_is_half_ish_at_a_hidden_point_above_a_public_bound_ruling_a7() -> None:
    assert cut_bounds(70) == (28, 42) and cut_bounds(61) == (24, 36)
    depths, middles = [], []
    for seed in range(60):
        state = ARCHEOS.new_match(2, {"role_student": True}, seed=seed)
        assert isinstance(state, ArcheosState)
        cut = len(state.deck) - MONKEYS
        low, _ = cut_bounds(cut)
        # Only the bound is shown; the monkeys are never above it.
        assert state.view(0)["deck_monkey_free_top"] == state.monkey_free_top == low
        assert _first_monkey_depth(state) >= low
        depths.append(_first_monkey_depth(state))
        middles.append(cut // 2)
    # An exact half would keep every first monkey at or below the middle.
    assert any(d < m for d, m in zip(depths, middles, strict=True))
    assert len(set(depths)) > 10
    # The cut comes from the match's seed, so a replay deals the same deck.
    again = [ARCHEOS.new_match(2, {"role_student": True}, seed=7) for _ in range(2)]
    assert isinstance(again[0], ArcheosState) and isinstance(again[1], ArcheosState)
    assert again[0].deck == again[1].deck


def test_seasons_two_for_two_or_three_players_three_for_four_to_six() -> None:
    assert [seasons_for(n) for n in range(2, 7)] == [2, 2, 3, 3, 3]


def test_roles_chosen_by_option_the_rest_at_random() -> None:
    state = new_state(4, roles=("physician", "mercenary"), seed=5)
    assert {Role.PHYSICIAN, Role.MERCENARY} <= set(state.roles) and len(state.roles) == 6
    try:
        new_state(4, roles=tuple(r.name.lower() for r in Role)[:7])
    except InvalidOptionsError as exc:
        assert "at most 6" in str(exc)
    else:
        raise AssertionError("seven roles were accepted")
    assert sorted(deck_for(state.roles)) == sorted(
        c for r in state.roles for c in [card(r, col) for col in range(6)] * COPIES[r]
    )


def test_take_one_display_card_not_replenished() -> None:
    state = new_state(3)
    set_turn(state, 0)
    set_display(state, "r-stu", "b-bot")
    set_hand(state, 0)
    play(state, 0, "take b-bot")
    assert state.display == cards("r-stu") and state.hands[0] == cards("b-bot")


def test_draw_one_card_or_two_when_the_display_is_empty() -> None:
    state = new_state(3)
    set_turn(state, 0)
    set_hand(state, 0)
    set_display(state, "r-stu")
    set_deck(state, "b-stu", "g-stu", "o-stu", monkeys=3)
    play(state, 0, "draw")
    assert state.hands[0] == cards("b-stu")
    set_turn(state, 0)
    set_display(state)
    play(state, 0, "draw")
    assert sorted(state.hands[0]) == sorted(cards("b-stu", "g-stu", "o-stu"))


def test_a_monkey_is_set_aside_and_another_card_drawn() -> None:
    state = new_state(3)
    set_turn(state, 0)
    set_hand(state, 0)
    set_display(state, "r-stu")
    set_deck(state, "monkey", "b-stu", monkeys=2)
    events = play(state, 0, "draw")
    assert state.monkeys == 1 and state.hands[0] == cards("b-stu")
    assert event(events, "monkey_drawn").data == {"seat": 0, "monkeys": 1}


def test_third_monkey_ends_the_season_at_once_and_its_drawer_starts_the_next() -> None:
    state = new_state(3)
    events = end_season(state, 2)
    assert event(events, "season_ending").data == {"season": 1, "seat": 2}
    assert state.season == 2 and state.first_seat == 2 and state.turn == 2


def test_hand_limit_ten_no_gaining_and_draws_stop_at_ten_ruling_a8() -> None:
    state = new_state(3)
    set_turn(state, 0)
    set_hand(state, 0, *(["r-stu"] * 4), *(["b-stu"] * 4), "g-stu", "o-stu")
    set_display(state, "y-stu")
    assert not any(n.startswith(("take", "draw")) for n in notations(state))
    try:
        state.apply(0, "draw")
    except IllegalActionError as exc:
        assert "10 cards" in str(exc)
    else:
        raise AssertionError("drew with a full hand")
    set_hand(state, 0, *(["r-stu"] * 4), *(["b-stu"] * 4), "g-stu")
    set_display(state)
    set_deck(state, "p-stu", "p-stu", monkeys=3)
    play(state, 0, "draw")  # two cards due, one fits
    assert len(state.hands[0]) == 10 and len(state.deck) == 4


def test_expedition_same_colour_or_same_role_with_one_leader() -> None:
    state = new_state(3)
    set_turn(state, 0)
    set_hand(state, 0, "r-bot", "r-stu", "b-bot", "b-stu")
    play(state, 0, "lead r-bot col")
    assert notations(state) == {"add r-stu", "go"}
    state = new_state(3)
    set_turn(state, 0)
    set_hand(state, 0, "r-bot", "r-stu", "b-bot", "b-stu")
    play(state, 0, "lead r-bot role")
    assert notations(state) == {"add b-bot", "go"}


def test_cards_are_added_in_card_order_so_each_set_is_one_line_of_play_ruling_a13() -> None:
    state = new_state(3)
    set_turn(state, 0)
    set_hand(state, 0, "r-bot", "r-stu", "r-car", "r-gui")
    play(state, 0, "lead r-bot col", "add r-gui")
    assert notations(state) == {"add r-stu", "go"}  # r-car comes before r-gui


def test_after_an_expedition_the_rest_of_the_hand_goes_to_the_display() -> None:
    state = new_state(3)
    set_turn(state, 0)
    set_display(state)
    set_hand(state, 0, "r-bot", "b-stu", "g-stu")
    play(state, 0, "lead r-bot col", "go")
    assert state.hands[0] == [] and state.display == sorted(cards("b-stu", "g-stu"))


def test_season_end_returns_cards_scores_sites_then_expeditions() -> None:
    state = new_state(4, advanced=None, seed=3)
    state.advanced = 0  # Uluru advanced; blue is a compass board
    blue = 4
    state.positions[0][blue] = 2
    state.expeditions[0] = [cards("b-stu", "b-stu", "b-stu"), cards("r-stu")]
    state.expeditions[1] = [cards(*["g-stu"] * 6), cards("o-stu", "o-stu")]
    events = end_season(state, 3)
    scored = event(events, "season_scored").data
    assert scored["sites"][0][blue] == COMPASS.points[2]
    assert scored["expeditions"][:2] == [3 + 0, 12 + 1]
    # Not the last season: expeditions went back to the deck, vehicles stayed.
    assert state.expeditions[0] == [] and state.positions[0][blue] == 2
    assert state.season == 2


def test_expedition_and_relic_tables() -> None:
    assert [expedition_points(n) for n in range(1, 9)] == [0, 1, 3, 5, 8, 12, 12, 12]
    assert EXPEDITION_POINTS[1:] == (0, 1, 3, 5, 8, 12)
    assert [relic_points(n) for n in range(7)] == list(RELIC_POINTS) == [0, 1, 3, 5, 10, 15, 20]


def test_ties_go_to_the_largest_final_season_expedition_then_the_next_ruling_a18() -> None:
    sizes = [
        tiebreak_sizes([cards("r-stu", "r-stu", "r-stu"), cards("b-stu")]),
        tiebreak_sizes([cards("g-stu", "g-stu", "g-stu"), cards("y-stu", "y-stu")]),
        tiebreak_sizes([cards("p-stu", "p-stu", "p-stu", "b-mer", "b-mer")]),
    ]
    assert sizes == [[3, 1], [3, 2], [3]]
    assert place_by_score_then_expeditions([20, 20, 20], sizes) == [2, 1, 3]
    assert place_by_score_then_expeditions([20, 20, 21], sizes) == [3, 2, 1]
    assert place_by_score_then_expeditions([5, 5], [[2], [2]]) == [1, 1]


def test_the_game_ends_after_the_last_season_with_final_scores() -> None:
    state = new_state(2)
    state.season = 2
    events = end_season(state, 0)
    assert state.is_over() and state.current_seat() is None and state.legal_actions() == []
    assert event(events, "game_over").data["scores"] == state.scores()
    assert state.final is not None and len(state.final) == 2


def test_card_notation() -> None:
    assert parse_card("r-bot") == card(Role.BOTANIST, 0)
    assert parse_card("purple-student") == card(Role.STUDENT, 5)
