"""One scenario per role: what leading an expedition with it does (and its season end).

Sites: Chichén Itzá (green) is the advanced board in these scenarios and no green
card is played, so every track used here is the compass side: thresholds 1, 2, 2, 3...
"""

from __future__ import annotations

from senet.games.archeos import ArcheosState
from senet.games.archeos.cards import Colour, Role, card
from senet.games.archeos.sites import Special
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

GREEN_SITE = Special.CHICHEN_ITZA
RED, BLUE, ORANGE = int(Colour.RED), int(Colour.BLUE), int(Colour.ORANGE)


def _state(*roles: str, seats: int = 3) -> ArcheosState:
    state = new_state(seats, roles=(*roles, "student"), advanced=GREEN_SITE)
    set_turn(state, 0)
    set_display(state, "o-stu", "o-stu")
    set_deck(state, *(["b-stu"] * 6), monkeys=3)
    return state


def test_botanist_frames_the_expedition_at_least_as_large_and_pays_at_season_end() -> None:
    state = _state("botanist")
    set_hand(state, 0, "r-bot", "r-stu")
    set_hand(state, 1, "b-bot")
    set_hand(state, 2, "y-bot", "y-stu")
    play(state, 0, "lead r-bot col", "add r-stu", "go")
    assert state.score[0] == 2 and state.frame == [0, 0, 2]
    play(state, 1, "lead b-bot col", "go")  # 1 card < 2: no frame, no points
    assert state.score[1] == 0 and state.frame[0] == 0
    play(state, 2, "lead y-bot col", "add y-stu", "go")  # 2 >= 2: takes the frame
    assert state.score[2] == 2 and state.frame == [2, 0, 2]
    events = end_season(state, 0)
    bonus = [e.data for e in events if e.kind == "season_bonus"]
    assert bonus == [{"seat": 2, "bonus": "botanist", "points": 2}]
    assert state.frame[0] == -1


def test_cartographer_that_advances_may_play_one_more_expedition() -> None:
    state = _state("cartographer")
    set_hand(state, 0, "r-car", "r-stu", "b-stu", "b-stu", "y-stu")
    play(state, 0, "lead r-car col", "add r-stu", "go")
    assert state.positions[0][RED] == 1
    assert state.step == "extra"
    assert {"lead b-stu col", "lead y-stu role", "done"} <= notations(state)
    play(state, 0, "lead b-stu col", "add b-stu", "go")
    assert [len(e) for e in state.expeditions[0]] == [2, 2]
    # The cards still in hand go to the display after the extra expedition.
    assert state.hands[0] == [] and state.display.count(card(Role.STUDENT, Colour.YELLOW)) == 1
    assert state.turn == 1


def test_cartographer_that_does_not_advance_gets_no_extra_expedition() -> None:
    state = _state("cartographer")
    state.positions[0][RED] = 3  # leaving space 3 needs 3 cards
    set_hand(state, 0, "r-car", "r-stu", "b-stu")
    play(state, 0, "lead r-car col", "add r-stu", "go")
    assert state.positions[0][RED] == 3 and state.turn == 1


def test_curator_places_one_relic_of_the_leaders_colour() -> None:
    state = _state("curator")
    set_hand(state, 0, "r-cur", "r-stu")
    events = play(state, 0, "lead r-cur col", "go")
    assert event(events, "relic_placed").data == {"seat": 0, "colour": "red"}
    set_turn(state, 0)
    set_hand(state, 0, "r-cur")
    events = play(state, 0, "lead r-cur col", "go")
    assert "relic_placed" not in kinds(events)  # only one relic of each colour
    assert state.relics[0] == [True, False, False, False, False, False]


def test_curator_relics_score_at_game_end() -> None:
    state = _state("curator", seats=2)
    state.season = 2  # the last season of a two-player game
    state.relics[0] = [True, True, True, False, False, False]
    before = state.score[0]
    events = end_season(state, 1)
    final = event(events, "game_over")
    assert state.final is not None and state.final[0]["relic_points"] == 5
    assert final.data["scores"][0] >= before + 5


def test_guide_counts_one_more_card_for_the_threshold_only() -> None:
    state = _state("guide")
    state.positions[0][RED] = 1  # leaving space 1 needs 2 cards
    set_hand(state, 0, "r-gui")
    play(state, 0, "lead r-gui col", "go")
    assert state.positions[0][RED] == 2
    assert state.expeditions[0] == [[card(Role.GUIDE, Colour.RED)]]


def test_linguist_moves_by_size_and_each_artifact_advances_any_vehicle() -> None:
    state = _state("linguist")
    set_hand(state, 0, "r-lin", "r-stu", "b-stu")
    play(state, 0, "lead r-lin role", "go")  # role basis: only linguists fit
    assert state.linguist[0] == 1 and state.turn == 1
    set_turn(state, 0)
    set_hand(state, 0, "r-lin", "r-stu", "r-stu")
    play(state, 0, "lead r-lin col", "add r-stu", "add r-stu", "go")
    # 1 -> 4 passes the artifact on space 2: one free advance, anywhere.
    assert state.linguist[0] == 4 and state.step == "linguist"
    assert notations(state) == {"adv r", "adv o", "adv y", "adv g", "adv b", "adv p"}
    play(state, 0, "adv b")
    assert state.positions[0][BLUE] == 1 and state.turn == 1
    events = end_season(state, 2)
    bonus = [e.data for e in events if e.kind == "season_bonus"]
    assert bonus == [{"seat": 0, "bonus": "linguist", "points": 2}]


def test_mercenaries_are_wild_cannot_lead_and_leave_before_expedition_points() -> None:
    state = _state("mercenary")
    set_hand(state, 0, "r-stu", "b-mer", "b-mer")
    assert not any(n.startswith("lead b-mer") for n in notations(state))
    play(state, 0, "lead r-stu col", "add b-mer", "add b-mer", "go")
    assert len(state.expeditions[0][0]) == 3
    events = end_season(state, 1)
    scored = event(events, "season_scored").data
    assert scored["expeditions"][0] == 0  # a 1-card expedition once the mercenaries go
    assert state.expeditions[0] == []


def test_ten_mercenaries_at_the_start_of_a_turn_go_to_the_display() -> None:
    state = _state("mercenary")
    mercenaries = [f"{c}-mer" for c in "roygb" for _ in range(2)]
    set_hand(state, 1, *mercenaries)
    set_hand(state, 0, "r-stu")
    events = play(state, 0, "take o-stu")
    assert event(events, "mercenaries_discarded").data["seat"] == 1
    assert state.hands[1] == [] and state.turn == 2
    assert sum(1 for c in state.display if c // 6 == Role.MERCENARY) == 10


def test_patron_draws_as_many_cards_as_the_expedition_after_the_display() -> None:
    state = _state("patron")
    set_hand(state, 0, "r-pat", "r-stu", "y-stu")
    set_deck(state, "g-stu", "p-stu", "o-stu", monkeys=3)
    play(state, 0, "lead r-pat col", "add r-stu", "go", "draw")
    # y-stu went to the display first; then two cards from the deck.
    assert state.hands[0] == sorted(
        [card(Role.STUDENT, Colour.GREEN), card(Role.STUDENT, Colour.PURPLE)]
    )
    assert card(Role.STUDENT, Colour.YELLOW) in state.display


def test_photographer_expedition_scores_one_size_larger() -> None:
    state = _state("photographer")
    set_hand(state, 0, "r-pho", "r-stu")
    play(state, 0, "lead r-pho col", "add r-stu", "go")
    events = end_season(state, 1)
    assert event(events, "season_scored").data["expeditions"][0] == 3  # size 3, not 2


def test_physician_keeps_up_to_the_expedition_size_in_secret() -> None:
    state = _state("physician")
    set_hand(state, 0, "r-phy", "r-stu", "b-stu", "y-stu", "o-stu")
    play(state, 0, "lead r-phy col", "add r-stu", "go")
    assert state.step == "keep"
    assert notations(state) == {"keep o-stu", "keep y-stu", "keep b-stu", "done"}
    play(state, 0, "keep y-stu")
    # Only the physician's own view shows what is being kept.
    assert state.view(0)["players"][0]["kept"] == ["y-stu"]
    assert "kept" not in state.view(1)["players"][0] and "hand" not in state.view(1)["players"][0]
    events = play(state, 0, "keep b-stu")  # the second keeps the limit: done
    assert event(events, "cards_kept").data == {"seat": 0, "count": 2}
    assert sorted(state.hands[0]) == sorted(
        [card(Role.STUDENT, Colour.YELLOW), card(Role.STUDENT, Colour.BLUE)]
    )
    assert card(Role.STUDENT, Colour.ORANGE) in state.display and state.turn == 1


def test_pilot_advances_at_any_site_whose_threshold_is_met() -> None:
    state = _state("pilot")
    state.positions[0][BLUE] = 3  # needs 3: too far for a 2-card expedition
    set_hand(state, 0, "r-pil", "r-stu")
    play(state, 0, "lead r-pil col", "add r-stu", "go")
    assert notations(state) == {"adv r", "adv o", "adv y", "adv g", "adv p"}
    play(state, 0, "adv o")
    assert state.positions[0][ORANGE] == 1 and state.positions[0][RED] == 0


def test_professor_takes_a_token_and_moves_the_extremes_at_season_end() -> None:
    state = _state("professor")
    set_hand(state, 0, "r-pro", "r-stu", "r-stu")
    play(state, 0, "lead r-pro col", "add r-stu", "add r-stu", "go")
    assert notations(state) == {"prof 1", "prof 2", "prof 3"}
    play(state, 0, "prof 3")
    assert state.tokens[0] == [3] and 3 not in state.supply
    state.positions[1][BLUE] = 2
    end_season(state, 1)
    # Highest (seat 0) advances one vehicle anywhere; the lowest (1 and 2, zero) go
    # back where they can: seat 1 only on blue (automatic), seat 2 nowhere.
    assert state.step == "professor_move" and state.turn == 0
    play(state, 0, "adv p")
    assert state.positions[1][BLUE] == 1
    assert state.season == 2 and state.supply == [1, 2, 3, 4, 5, 6]


def test_student_leader_never_advances() -> None:
    state = _state()
    set_hand(state, 0, "r-stu", "r-stu", "r-stu")
    events = play(state, 0, "lead r-stu col", "add r-stu", "add r-stu", "go")
    assert "vehicle_moved" not in kinds(events)
    assert state.positions[0][RED] == 0
