"""Rulings of docs/rules/archeos.md that no role or site scenario pins already."""

from __future__ import annotations

from senet.games.archeos import ArcheosState
from senet.games.archeos.cards import Colour, parse_card
from senet.games.archeos.sites import ADVANCED, LINGUIST_END, Special
from tests.archeos.builders import (
    end_season,
    event,
    new_state,
    play,
    set_deck,
    set_display,
    set_hand,
    set_turn,
)


def _state(*roles: str, advanced: Special = Special.CHICHEN_ITZA) -> ArcheosState:
    state = new_state(3, roles=(*roles, "student"), advanced=advanced)
    set_turn(state, 0)
    set_display(state, "o-stu")
    set_deck(state, *(["b-stu"] * 6), monkeys=3)
    return state


def test_linguist_track_stops_at_its_end_ruling_a5() -> None:
    state = _state("linguist")
    state.linguist[0] = LINGUIST_END - 1
    set_hand(state, 0, "r-lin", "r-stu", "r-stu")
    play(state, 0, "lead r-lin col", "add r-stu", "add r-stu", "go")
    assert state.linguist[0] == LINGUIST_END
    assert state.step == "linguist"  # the artifact on the last space still counts


def test_linguist_free_advance_may_cash_in_on_uluru_ruling_a10() -> None:
    state = _state("linguist", advanced=Special.ULURU)
    set_hand(state, 0, "b-lin", "b-stu")
    play(state, 0, "lead b-lin col", "add b-stu", "go")
    assert state.step == "linguist"
    play(state, 0, "adv r")
    assert state.positions[0][int(Colour.RED)] == 1 and state.step == "uluru"
    events = play(state, 0, "cash")
    assert event(events, "uluru_cashed").data["points"] == ADVANCED[Special.ULURU].points[1]
    assert state.positions[0][int(Colour.RED)] == 0 and state.step == "turn"


def test_cartographer_chain_ruling_a11() -> None:
    state = _state("cartographer", "patron", advanced=Special.TANTALLON_CASTLE)
    set_hand(state, 0, "r-car", "b-car", "g-pat", "y-stu")
    set_deck(state, "p-stu", "p-stu", monkeys=3)
    play(state, 0, "lead r-car col", "go")
    assert state.step == "extra"
    play(state, 0, "lead b-car col", "go")
    assert state.step == "extra"  # the second Cartographer advanced too
    play(state, 0, "lead g-pat col", "go", "draw")
    # The Patron led the last expedition: y-stu to the display, then one card drawn.
    assert len(state.hands[0]) == 1 and state.turn == 1
    assert len(state.expeditions[0]) == 3


def test_third_monkey_during_patron_draws_ends_the_turn_ruling_a20() -> None:
    state = _state("patron")
    state.monkeys = 2
    set_hand(state, 0, "r-pat", "r-stu")
    set_deck(state, "p-stu", "monkey", "g-stu", "g-stu", "g-stu", "g-stu", "g-stu", "g-stu")
    events = play(state, 0, "lead r-pat col", "add r-stu", "go", "draw")
    assert event(events, "season_ending").data == {"season": 1, "seat": 0}
    assert state.season == 2 and state.first_seat == 0


def test_professors_all_equal_nobody_moves_ruling_a15() -> None:
    state = _state("professor")
    state.positions[1][int(Colour.BLUE)] = 2
    events = end_season(state, 0)
    assert all(e.data["reason"] != "professor" for e in events if e.kind == "vehicle_moved")
    assert state.positions[1][int(Colour.BLUE)] == 2
    assert state.season == 2 and state.step == "turn"


def test_determinized_copies_of_a_physician_keeping_cards_play_on_ruling_a12() -> None:
    state = _state("physician")
    set_hand(state, 0, "r-phy", "r-stu", "b-stu", "y-stu", "o-stu")
    play(state, 0, "lead r-phy col", "add r-stu", "go", "keep b-stu")
    for viewer in (None, 1, 2):
        twin = state.determinize(viewer, 5)
        assert twin.kept == [] and twin.view(viewer) == state.view(viewer)
        twin.apply(0, "done")  # the resampled hand keeps nothing and plays on
    mine = state.determinize(0, 5)
    assert mine.kept == state.kept


def test_keep_notation_is_redacted_for_other_seats_ruling_a12() -> None:
    from senet.games.archeos import ARCHEOS

    assert ARCHEOS.public_notation("keep r-stu") == "keep"
    assert ARCHEOS.public_notation("take r-stu") == "take r-stu"
    assert ARCHEOS.public_notation("done") == "done"


def test_cards_taken_from_the_display_stay_known_ruling_a26() -> None:
    state = _state("physician")
    set_display(state, "b-bot", "o-stu")
    set_hand(state, 1, "g-stu")
    play(state, 0, "draw")
    play(state, 1, "take b-bot")
    assert state.view(2)["players"][1]["known_hand"] == ["b-bot"]
    assert state.view(None)["players"][1]["hand_size"] == 2
    for seed in range(5):
        # (state_from_view does the same; the conformance suite checks it on real
        # matches, whose cards add up, unlike this hand-built position.)
        twin = state.determinize(2, seed)
        assert parse_card("b-bot") in twin.hands[1]
    # Played in an expedition, it is no longer in the hand, and no longer known.
    set_turn(state, 1)
    play(state, 1, "lead b-bot col", "go")
    assert state.known[1] == [] and state.view(0)["players"][1]["known_hand"] == []
    # A Physician keeping cards: known cards not shown going to the display stay known.
    set_turn(state, 1)
    set_display(state, "r-stu", "y-stu")
    play(state, 1, "take r-stu")
    set_turn(state, 1)
    play(state, 1, "take y-stu")
    set_turn(state, 1)
    set_hand(state, 1, "r-phy", "r-stu", "y-stu", "g-stu")
    play(state, 1, "lead r-phy role", "go", "keep y-stu")
    assert state.known[1] == [parse_card("y-stu")]


def test_a_state_rebuilt_from_a_view_keeps_the_known_cards_ruling_a26() -> None:
    from senet.games.archeos import ARCHEOS
    from senet.games.rng import Rng

    state = ARCHEOS.new_match(4, seed=9)
    assert isinstance(state, ArcheosState)
    rng = Rng(2)
    checked = 0
    while not state.is_over() and checked < 20:
        if any(state.known):
            rebuilt = ARCHEOS.state_from_view(state.view(None), checked)
            assert isinstance(rebuilt, ArcheosState)
            for seat in range(4):
                hand = list(rebuilt.hands[seat])
                for card in state.known[seat]:
                    hand.remove(card)  # raises if a known card was not dealt back
            checked += 1
        state.apply_unchecked(rng.choice(state.legal_actions()))
    assert checked == 20


def test_linguist_artifacts_may_move_the_vehicle_the_expedition_moved_ruling_a28() -> None:
    """Line 52: "You can never advance more than 1 space with a single expedition";
    line 128: each artifact advances "1 of your vehicles at any site, regardless of
    expedition size or threshold level". The expedition moves red one space and its
    two artifacts may move red again."""
    state = _state("linguist")
    set_hand(state, 0, "r-lin", "r-stu", "r-stu", "r-stu", "r-stu")
    play(state, 0, "lead r-lin col", "add r-stu", "add r-stu", "add r-stu", "add r-stu", "go")
    assert state.positions[0][int(Colour.RED)] == 1 and state.linguist[0] == 5
    assert state.step == "linguist" and "adv r" in {a.notation() for a in state.legal_actions()}
    play(state, 0, "adv r", "adv r")
    assert state.positions[0][int(Colour.RED)] == 3 and state.step == "turn"


def test_chichen_itza_cards_of_each_line_crossed_in_a_turn_add_up_ruling_a29() -> None:
    """Line 186: "draw up to the number of cards shown next to the threshold number
    you crossed": each crossing is a vehicle advance of its own (A-10), so a turn that
    crosses two lines is offered both lines' cards, each one still "up to"."""
    state = _state("linguist", advanced=Special.CHICHEN_ITZA)
    set_hand(state, 0, "g-lin", "g-stu")
    play(state, 0, "lead g-lin col", "add g-stu", "go")
    assert state.positions[0][int(Colour.GREEN)] == 1 and state.chichen_draws == 1
    play(state, 0, "adv g")
    assert state.positions[0][int(Colour.GREEN)] == 2 and state.chichen_draws == 2
    assert {a.notation() for a in state.legal_actions()} == {"draw", "skip"}


def test_a_cartographer_that_cashes_in_on_uluru_still_advanced_ruling_a30() -> None:
    """Line 99: "If you advance your vehicle with this expedition, you may immediately
    play 1 additional expedition"; line 208: "If you gain the points, reset your
    vehicle back to the left most space of the track". The advance happened; the reset
    is a later effect of the site, so the extra expedition stands."""
    state = _state("cartographer", advanced=Special.ULURU)
    set_hand(state, 0, "r-car", "b-stu")
    play(state, 0, "lead r-car col", "go")
    assert state.step == "uluru"
    play(state, 0, "cash")
    assert state.positions[0][int(Colour.RED)] == 0 and state.step == "extra"
