"""The rulebook's "may" as decisions (A-9): advancing, Patron and Chichén Itzá draws,
linguist artifacts; and every advance firing its site's effect (A-10)."""

from __future__ import annotations

from senet.games.archeos import ArcheosState
from senet.games.archeos.cards import Colour
from senet.games.archeos.sites import ADVANCED, Special
from tests.archeos.builders import (
    end_season,
    event,
    kinds,
    new_state,
    notations,
    play,
    set_deck,
    set_display,
    set_hand,
    set_turn,
)

PURPLE = int(Colour.PURPLE)


def _state(*roles: str, advanced: Special, seats: int = 2) -> ArcheosState:
    state = new_state(seats, roles=(*roles, "student"), advanced=advanced)
    set_turn(state, 0)
    set_display(state, "o-stu")
    set_deck(state, *(["b-stu"] * 6), monkeys=3)
    return state


def test_tantallon_seat_zero_may_stay_alone_on_the_large_star_ruling_a9() -> None:
    # The position: seat 0 alone on space 2 (3 points), seat 1 alone on 3.
    state = _state("botanist", advanced=Special.TANTALLON_CASTLE)
    state.positions[0][PURPLE] = 2
    state.positions[1][PURPLE] = 3
    set_hand(state, 0, "p-bot", "p-stu", "p-stu")
    play(state, 0, "lead p-bot col", "add p-stu", "add p-stu", "go")
    assert state.step == "choose_advance" and notations(state) == {"adv p", "skip"}
    play(state, 0, "skip")
    assert state.positions[0][PURPLE] == 2 and state.frame[0] == 0  # the Botanist still frames
    track = ADVANCED[Special.TANTALLON_CASTLE]
    sites = event(end_season(state, 1), "season_scored").data["sites"]
    assert sites[0][PURPLE] == track.points[2] == 3
    assert sites[1][PURPLE] == track.points[3] == 5


def test_advancing_where_it_cannot_hurt_is_not_asked_ruling_a9() -> None:
    state = _state("botanist", advanced=Special.TANTALLON_CASTLE)
    set_hand(state, 0, "r-bot", "r-stu")
    play(state, 0, "lead r-bot col", "add r-stu", "go")
    assert state.positions[0][int(Colour.RED)] == 1 and state.step == "turn"


def test_a_declined_advance_gives_no_cartographer_expedition_ruling_a9() -> None:
    state = _state("cartographer", advanced=Special.RAPA_NUI)
    set_hand(state, 0, "b-car", "r-stu")
    play(state, 0, "lead b-car col", "go")
    assert notations(state) == {"adv b", "skip"}
    play(state, 0, "skip")
    assert state.positions[0][int(Colour.BLUE)] == 0 and state.step == "turn"


def test_patron_may_decline_a_draw_that_may_reach_a_monkey_ruling_a9() -> None:
    state = _state("patron", advanced=Special.UR)
    state.monkeys = 2
    set_hand(state, 0, "r-pat", "r-stu")
    set_deck(state, "monkey", "g-stu", "g-stu")
    play(state, 0, "lead r-pat col", "add r-stu", "go")
    assert state.step == "patron" and notations(state) == {"draw", "skip"}
    deck_before = list(state.deck)
    events = play(state, 0, "skip")
    assert state.deck == deck_before and state.hands[0] == [] and state.turn == 1
    assert "cards_drawn" not in kinds(events) and "monkey_drawn" not in kinds(events)


def test_patron_draw_is_asked_even_from_the_monkey_free_top_ruling_a9() -> None:
    state = _state("patron", advanced=Special.UR)
    set_hand(state, 0, "r-pat", "r-stu")
    state.monkey_free_top = 6
    play(state, 0, "lead r-pat col", "add r-stu", "go")
    assert state.step == "patron" and notations(state) == {"draw", "skip"}
    assert state.describe("draw") == "Patron: draw 2 cards"  # no monkey can come
    play(state, 0, "draw")
    assert len(state.hands[0]) == 2 and state.turn == 1


def test_patron_may_decline_a_safe_draw_ruling_a9() -> None:
    state = _state("patron", advanced=Special.UR)
    set_hand(state, 0, "r-pat", "r-stu")
    state.monkey_free_top = 6
    play(state, 0, "lead r-pat col", "add r-stu", "go", "skip")
    assert state.hands[0] == [] and len(state.deck) == 9 and state.turn == 1


def test_chichen_itza_draws_up_to_its_number_one_card_at_a_time_ruling_a9() -> None:
    state = _state("botanist", advanced=Special.CHICHEN_ITZA)
    green = int(Colour.GREEN)
    state.positions[0][green] = 4  # crossing 4 -> 5 allows 3 cards
    set_hand(state, 0, "g-bot", "g-stu", "g-stu", "g-stu", "g-stu")
    set_deck(state, "r-stu", "p-stu", "o-stu", "y-stu", monkeys=3)
    state.monkey_free_top = 1
    play(state, 0, "lead g-bot col", "add g-stu", "add g-stu", "add g-stu", "add g-stu", "go")
    # Every card is a choice, the safe first one too.
    assert len(state.hands[0]) == 0 and state.step == "chichen"
    assert notations(state) == {"draw", "skip"}
    assert state.describe("draw") == "Chichén Itzá: draw a card (3 left)"
    play(state, 0, "draw")
    assert len(state.hands[0]) == 1 and state.step == "chichen"
    assert state.describe("draw") == "Chichén Itzá: draw a card (2 left; a monkey may come)"
    play(state, 0, "draw")
    assert len(state.hands[0]) == 2 and state.step == "chichen"
    play(state, 0, "skip")
    assert len(state.hands[0]) == 2 and state.turn == 1 and state.chichen_draws == 0


def test_up_to_lets_a_player_stop_short_of_a_full_hand_ruling_a9() -> None:
    # The audit's position: a 7-card Patron expedition crosses Chichén Itzá's line
    # out of space 4 (3 cards); drawing everything would fill the hand to 10 and
    # leave the next turn no way to gain a card.
    state = _state("patron", "botanist", "guide", "cartographer", advanced=Special.CHICHEN_ITZA)
    set_display(state, "o-stu", "o-stu", "p-stu")
    set_deck(state, *(["b-stu"] * 20), monkeys=3)
    state.monkey_free_top = 20
    state.positions[0][int(Colour.GREEN)] = 4
    set_hand(state, 0, "g-pat", "g-stu", "g-stu", "g-stu", "g-bot", "g-gui", "g-car")
    set_hand(state, 1, "r-stu")
    play(state, 0, "lead g-pat col", "add g-bot", "add g-car", "add g-gui")
    play(state, 0, "add g-stu", "add g-stu", "add g-stu", "go")
    assert state.step == "patron"
    play(state, 0, "draw")
    assert len(state.hands[0]) == 7 and state.step == "chichen" and state.chichen_draws == 3
    play(state, 0, "draw", "skip")
    assert len(state.hands[0]) == 8 and state.turn == 1
    play(state, 1, "take o-stu")
    assert "draw" in notations(state) and "take p-stu" in notations(state)


def test_a_full_hand_ends_the_up_to_draw_without_asking_ruling_a8() -> None:
    state = _state("patron", "botanist", "guide", "cartographer", advanced=Special.CHICHEN_ITZA)
    set_deck(state, *(["b-stu"] * 20), monkeys=3)
    state.positions[0][int(Colour.GREEN)] = 4
    set_hand(state, 0, "g-pat", "g-bot", "g-car", "g-gui", *(["g-stu"] * 4))
    play(state, 0, "lead g-pat col", "add g-bot", "add g-car", "add g-gui")
    play(state, 0, *(["add g-stu"] * 4), "go", "draw")
    assert len(state.hands[0]) == 8 and state.chichen_draws == 3
    play(state, 0, "draw", "draw")
    # Ten cards: the third card cannot come, so nothing more is asked.
    assert len(state.hands[0]) == 10 and state.turn == 1 and state.chichen_draws == 0


def test_linguist_artifact_may_be_skipped_where_advancing_can_hurt_ruling_a9() -> None:
    state = _state("linguist", advanced=Special.TANTALLON_CASTLE)
    for site in range(6):
        if site != PURPLE:
            state.positions[0][site] = 7  # every compass track is at its end
    set_hand(state, 0, "r-lin", "r-stu")
    play(state, 0, "lead r-lin col", "add r-stu", "go")
    # The artifact (space 2) can only go to Tantallon Castle, where it may hurt.
    assert state.step == "linguist" and notations(state) == {"adv p", "skip"}
    play(state, 0, "skip")
    assert state.positions[0][PURPLE] == 0 and state.step == "turn"


def test_professor_season_end_advance_may_cash_in_on_uluru_ruling_a10() -> None:
    state = _state("professor", advanced=Special.ULURU)
    red = int(Colour.RED)
    for site in range(6):
        if site != red:
            state.positions[0][site] = 7
    state.tokens[0] = [3]
    state.supply = [1, 2, 4, 5, 6]
    end_season(state, 1)
    assert state.step == "uluru" and state.turn == 0 and state.positions[0][red] == 1
    events = play(state, 0, "cash")
    assert event(events, "uluru_cashed").data["points"] == ADVANCED[Special.ULURU].points[1]
    assert state.positions[0][red] == 0 and state.season == 2


def test_bots_skip_an_advance_that_only_costs_their_own_points() -> None:
    from senet.bots.greedy import one_ply_scores
    from senet.bots.heuristics import evaluator_for

    state = _state("botanist", advanced=Special.TANTALLON_CASTLE, seats=3)
    state.positions[0][PURPLE] = 2
    state.positions[1][PURPLE] = state.positions[2][PURPLE] = 3  # already sharing
    set_hand(state, 0, "p-bot", "p-stu", "p-stu")
    play(state, 0, "lead p-bot col", "add p-stu", "add p-stu", "go")
    legal = state.legal_actions()
    scores = one_ply_scores(state, 0, legal, evaluator_for("archeos"))
    assert legal[scores.index(max(scores))].notation() == "skip"
