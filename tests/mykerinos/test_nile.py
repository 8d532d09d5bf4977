"""The Nile expansion: river spaces, Nile cards, the Governor and blocking tokens.

Scenarios follow the Special Edition rulebook's Nile section; rulings N-1..N-10 of
``docs/rules/mykerinos.md`` are pinned here by name.
"""

from __future__ import annotations

import pytest

from senet.games.errors import IllegalActionError
from senet.games.mykerinos import nile
from senet.games.mykerinos.museum import parse_room
from senet.games.mykerinos.patrons import Patron
from senet.games.mykerinos.region import parse_space, space_name
from senet.games.mykerinos.scoring import exhibition, patron_sets
from senet.games.mykerinos.state import AWAIT_TIE, BLOCKING, DELIMITATION, EMPTY, MykerinosState
from tests.mykerinos.builders import (
    BLUE,
    GREEN,
    RED,
    WHITE,
    fill,
    give_cards,
    lay_nile,
    lay_region,
    new_state,
    nile_card,
    notations,
    put,
    set_museum,
    set_turn,
    start_delimitation,
)

BLACK = GREEN  # the rulebook's Black (see test_rulebook_examples)
GOVERNOR_3 = nile_card(nile.GOVERNOR, 3)  # river d1 d2 d3; right bank e1, e3; pyramid e2
POINT_AND_ONE = nile_card(nile.POINT_AND_ARCHAEOLOGIST)  # river d4 d5 d6; pyramid e6


def nile_state(
    seats: int = 3, cards: tuple[int, ...] = (GOVERNOR_3, POINT_AND_ONE)
) -> MykerinosState:
    state = new_state(seats, nile=True)
    lay_region(state, fill([], 8), pyramids=[])
    lay_nile(state, cards)
    return state


def test_nile_cards_cover_the_inner_columns_ruling_n1() -> None:
    state = nile_state()
    river = [space_name(i) for i, r in enumerate(state.river) if r]
    assert river == ["d1", "d2", "d3", "d4", "d5", "d6"]
    # The card's land replaces the covered spaces, pyramids included.
    assert state.pyramid[parse_space("e2")] and state.pyramid[parse_space("e6")]
    assert not state.pyramid[parse_space("e1")]
    view = state.view(BLUE)
    assert view["region"]["river"] == river
    assert [n["card"] for n in view["region"]["nile"]] == [GOVERNOR_3, POINT_AND_ONE]


def test_each_campaign_lays_one_card_of_each_deck_and_the_final_one_the_last_three() -> None:
    state = new_state(4, nile=True, seed=5)
    assert len(state.nile_rows) == 2
    assert sorted(nile.NILE_CARDS[c].governor for c in state.nile_rows) == [False, True]
    assert state.nile_neutral_deck[-1] == nile.SPECIAL_CARD  # at the bottom of its deck
    # Skip to the final campaign: the remaining two Governor cards and the special card.
    state.nile_governor_deck = state.nile_governor_deck[-2:]
    state.nile_neutral_deck = [nile.SPECIAL_CARD]
    state.campaign = 3
    state._start_campaign()
    assert state.shape.area_rows == 3 and len(state.nile_rows) == 3
    assert nile.SPECIAL_CARD in state.nile_rows
    assert sum(nile.NILE_CARDS[c].governor for c in state.nile_rows) == 2
    assert state.nile_governor_deck == [] and state.nile_neutral_deck == []


def test_nile_cards_are_rotated_like_plots_and_their_banks_swap_ruling_n2() -> None:
    # GOVERNOR_3 as printed: river d1 d2 d3 (left column), pyramid e2. Half a turn
    # puts the river on the right column and the land, pyramid included, on the left
    # bank, which belongs to the left area.
    state = new_state(3, nile=True)
    lay_region(state, fill([], 8), pyramids=[])
    lay_nile(state, [GOVERNOR_3, POINT_AND_ONE], rotated=[True, False])
    river = [space_name(i) for i, r in enumerate(state.river) if r]
    assert river == ["e1", "e2", "e3", "d4", "d5", "d6"]
    assert state.pyramid[parse_space("d2")] and not state.pyramid[parse_space("e2")]
    laid = state.view(BLUE)["region"]["nile"]
    assert [(n["card"], n["rotated"], n["cells"]) for n in laid] == [
        (GOVERNOR_3, True, ".~P~.~"),
        (POINT_AND_ONE, False, nile.NILE_CARDS[POINT_AND_ONE].cells),
    ]
    # A left-bank archaeologist counts for the left area once the river is scored.
    put(state, RED, "d1")
    put(state, BLUE, "c1", "c2")
    put(state, BLACK, "e1", "f1", "g1")  # Black alone wins the river (e1)
    start_delimitation(state, {BLUE: 1, RED: 2, BLACK: 3})
    state.apply(BLACK, "take n1")
    assert state.area == 0 and state.ranks == [BLUE, RED]
    # Dealing rotates each card half a turn at random, as plots are (classic: never).
    dealt = [new_state(3, nile=True, seed=seed).nile_rotated for seed in range(12)]
    assert {r for rows in dealt for r in rows} == {False, True}
    classic = [new_state(3, nile=True, classic=True, seed=seed) for seed in range(6)]
    assert not any(r for state in classic for r in state.nile_rotated)


def test_a_match_saved_before_nile_cards_rotated_loads_with_them_as_printed() -> None:
    """A match in flight across the upgrade: its snapshot has no ``nile_rotated``,
    and its cards were laid as printed, so they load that way."""
    state = new_state(3, nile=True, seed=14)
    state.nile_rotated = [False] * len(state.nile_rows)
    state.lay_terrain()
    data = state.to_data()
    del data["nile_rotated"]
    loaded = type(state).from_data(state.game, data)
    assert loaded == state


def test_river_spaces_are_legal_for_actions_a_and_b() -> None:
    state = nile_state()
    set_turn(state, BLUE)
    put(state, BLUE, "c1")
    legal = notations(state)
    assert "a d2" in legal  # a start on the river
    assert "b d1 d2" in legal  # an expansion onto the river
    state.apply(BLUE, "b d1 d2")
    assert state.board[parse_space("d2")] == BLUE


def test_rulebook_nile_example_blue_takes_the_patron_card_red_second_black_nothing() -> None:
    state = nile_state(3)
    # River: Blue 2, Red 1, Black 1; Blue and Black also stand on the right bank.
    put(state, BLUE, "d1", "d2", "e1")
    put(state, RED, "d3")
    put(state, BLACK, "d4", "e3")
    general_before = list(state.general)
    red_reserve = state.personal[RED][RED]
    events = start_delimitation(state, {RED: 1, BLUE: 2, BLACK: 3})

    ranked = next(e for e in events if e.kind == "river_ranked")
    assert [(o["colour"], o["count"]) for o in ranked.data["order"]] == [
        ("blue", 2),
        ("red", 1),  # Red beats Black's 1 on the tiebreak
        ("green", 1),
    ]
    assert state.current_seat() == BLUE and state.on_river
    assert notations(state) == {"take n1", "take n2"}  # no museum from the river
    events = state.apply(BLUE, "take n1")
    taken = [e.data for e in events if e.kind == "nile_card_taken"]
    assert taken[0]["seat"] == BLUE and taken[0]["points"] == 3
    assert state.prestige[BLUE] == 3 and state.cards[BLUE][Patron.GOVERNOR] == 1
    # Red, second, receives the other card: 1 point and 1 archaeologist.
    assert (taken[1]["seat"], taken[1]["automatic"]) == (RED, True)
    assert state.prestige[RED] == 1 and state.personal[RED][RED] == red_reserve + 1
    # Black gets nothing; river archaeologists went home, bank ones stayed.
    assert state.prestige[BLACK] == 0
    assert any(e.kind == "river_done" for e in events)
    for space in ("d1", "d2", "d3", "d4"):
        assert state.board[parse_space(space)] == EMPTY
    assert state.general[BLUE] == general_before[BLUE] + 2
    assert state.general[BLACK] == general_before[BLACK] + 1
    # The bank archaeologists now count in the right area of the top row.
    area = next(e for e in events if e.kind == "area_ranked" and e.data["area"] == 1)
    assert [(o["colour"], o["count"]) for o in area.data["order"]] == [("blue", 1), ("green", 1)]


def test_third_place_on_the_river_gets_nothing_and_unclaimed_cards_leave() -> None:
    state = nile_state(3)
    put(state, BLUE, "d1")
    start_delimitation(state, {BLUE: 1, RED: 2, BLACK: 3})
    assert notations(state) == {"take n1", "take n2"}
    events = state.apply(BLUE, "take n2")
    discarded = [e.data["card"] for e in events if e.kind == "nile_card_discarded"]
    assert discarded == [GOVERNOR_3] and GOVERNOR_3 in state.nile_box


def test_final_campaign_second_place_chooses_between_two_cards_ruling_n5() -> None:
    state = new_state(3, nile=True)
    lay_region(state, fill([], 12), pyramids=[])
    special = nile.SPECIAL_CARD
    governors = [c for c in nile.GOVERNOR_DECK][:2]
    lay_nile(state, [governors[0], special, governors[1]])
    river = [space_name(i) for i, r in enumerate(state.river) if r]
    put(state, BLUE, river[0], river[1])
    put(state, RED, river[2])
    put(state, BLACK, river[3])
    start_delimitation(state, {BLUE: 1, RED: 2, BLACK: 3})
    assert notations(state) == {"take n1", "take n2", "take n3"}
    state.apply(BLUE, "take n2")
    assert state.prestige[BLUE] == 8  # the special card
    assert state.current_seat() == RED and notations(state) == {"take n1", "take n3"}
    events = state.apply(RED, "take n3")
    assert [e.data["card"] for e in events if e.kind == "nile_card_discarded"] == [governors[0]]


def test_neutral_backed_effects_two_archaeologists_and_eight_points() -> None:
    two = nile_card(nile.TWO_ARCHAEOLOGISTS)
    state = nile_state(3, cards=(GOVERNOR_3, two))
    river_row2 = [space_name(i) for i, r in enumerate(state.river) if r and i >= 24]
    put(state, RED, river_row2[0])
    start_delimitation(state, {RED: 1, BLUE: 2, BLACK: 3})
    events = state.apply(RED, "take n2")
    taken = next(e.data for e in events if e.kind == "nile_card_taken")
    assert (taken["effect"], taken["archaeologists"], taken["points"]) == (
        nile.TWO_ARCHAEOLOGISTS,
        2,
        0,
    )
    assert two in state.nile_box and state.prestige[RED] == 0


def test_two_player_neutral_on_the_river_discards_a_card() -> None:
    state = nile_state(2)
    neutral = state.neutral
    assert neutral is not None
    put(state, neutral, "d1", "d2")
    put(state, BLUE, "d3")
    start_delimitation(state, {BLUE: 1, RED: 3})
    # The neutral player wins the river; the other player chooses its discard (M-6).
    assert state.current_seat() == RED
    assert notations(state) == {"discard n1", "discard n2"}
    state.apply(RED, "discard n1")
    assert GOVERNOR_3 in state.nile_box
    assert state.prestige[BLUE] == 1  # Blue, second, took the remaining card


def test_two_player_final_river_neutral_second_discards_without_asking_ruling_n4() -> None:
    # Final campaign, three cards: Blue first takes one, the neutral player second
    # discards one of the two left, and the last leaves the game too (third place
    # gets nothing on the river). Which one it discards changes nothing: nobody is
    # asked, and the next decision is the first area's.
    state = new_state(2, nile=True)
    lay_region(state, fill([], 12), pyramids=[])
    governors = list(nile.GOVERNOR_DECK)[:2]
    lay_nile(state, [governors[0], nile.SPECIAL_CARD, governors[1]])
    river = [space_name(i) for i, r in enumerate(state.river) if r]
    put(state, BLUE, *river[:3])
    put(state, GREEN, *river[3:5])
    put(state, RED, river[5])
    start_delimitation(state, {BLUE: 1, GREEN: 2, RED: 3})
    events = state.apply(BLUE, "take n2")
    discarded = [e.data for e in events if e.kind == "nile_card_discarded"]
    assert sorted(d["card"] for d in discarded) == sorted(governors)
    assert all(d["chosen_by"] is None for d in discarded)
    assert set(governors) <= set(state.nile_box) and state.prestige[BLUE] == 8
    assert state.phase == "excavation" and state.campaign == 2  # the areas were empty


# ------------------------------------------------------------------ Governor
def governor_turn(seats: int = 3) -> MykerinosState:
    state = nile_state(seats)
    set_turn(state, BLUE, campaign=2)
    give_cards(state, BLUE, gov=1)
    return state


def test_governor_starts_or_expands_then_blocks_a_space_or_a_room() -> None:
    state = governor_turn()
    put(state, BLUE, "a1")
    legal = notations(state)
    assert "gov h5" in legal and "gov a2 a3" in legal
    state.apply(BLUE, "gov h5")
    assert state.phase == BLOCKING and state.current_seat() == BLUE
    targets = notations(state)
    assert "block b5" in targets and "block e2" in targets  # an empty pyramid is a space too
    assert "block h5" not in targets and "block a1" not in targets  # occupied
    assert any(t.startswith("block ") and "/" in t for t in targets)  # 2-rooms
    state.apply(BLUE, "block b5")
    assert state.tokens[BLUE] == 2 and state.blocked[parse_space("b5")] == BLUE
    assert state.current_seat() == RED


def test_nobody_else_places_on_a_blocked_space_or_room_ruling_n6() -> None:
    state = governor_turn()
    state.apply(BLUE, "gov h5")
    state.apply(BLUE, "block b5")
    assert not any("b5" in n for n in notations(state))
    with pytest.raises(IllegalActionError, match="b5 is under blue's blocking token"):
        state.apply(RED, "a b5")
    # A blocked museum room is closed to the others' Director.
    state.blocked_rooms[parse_room("exp3")] = BLUE
    state.tokens[BLUE] -= 1
    give_cards(state, RED, dir=1)
    assert "dir exp3" not in notations(state)
    with pytest.raises(IllegalActionError, match="blocking token"):
        state.apply(RED, "dir exp3")


def test_the_owner_places_on_their_blocked_space_and_takes_the_token_back() -> None:
    state = governor_turn()
    state.apply(BLUE, "gov h5")
    state.apply(BLUE, "block b5")
    set_turn(state, BLUE)
    events = state.apply(BLUE, "a b5")
    assert [e.kind for e in events][:2] == ["placed", "token_returned"]
    assert state.tokens[BLUE] == 3 and state.blocked[parse_space("b5")] == EMPTY


def test_director_into_your_own_blocked_room_returns_the_token() -> None:
    state = governor_turn()
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    state.apply(BLUE, "gov h5")
    state.apply(BLUE, "block exp3")
    set_turn(state, BLUE)
    give_cards(state, BLUE, dir=1, gov=1)
    state.apply(BLUE, "dir exp3")
    assert state.museum[parse_room("exp3")] == BLUE and state.tokens[BLUE] == 3


def test_governor_needs_a_token_in_hand_or_one_it_frees_ruling_n7() -> None:
    # All three of Blue's tokens are down: two in the region, one in the museum.
    state = governor_turn()
    set_museum(state, ["cur", "col", "exp", "hei", "dir"])
    put(state, BLUE, "a1")
    state.tokens[BLUE] = 0
    for space in ("a3", "h6"):
        state.blocked[parse_space(space)] = BLUE
    state.blocked_rooms[parse_room("exp3")] = BLUE
    # Only a start or an expansion onto one of Blue's own blocked spaces, which
    # brings its token back to Blue's play area in time to be placed again.
    governor = {n for n in notations(state) if n.startswith("gov ")}
    assert governor == {"gov a3", "gov h6", "gov a2 a3"}
    with pytest.raises(IllegalActionError, match="must place on one of your own blocked spaces"):
        state.apply(BLUE, "gov h5")
    events = state.apply(BLUE, "gov a2 a3")
    assert [e.kind for e in events] == ["placed", "token_returned"]
    assert state.phase == BLOCKING and state.tokens[BLUE] == 1
    state.apply(BLUE, "block c5")
    assert state.tokens[BLUE] == 0 and state.blocked[parse_space("c5")] == BLUE
    # Every token in the museum: no Governor placement can free one.
    state = governor_turn()
    state.tokens[BLUE] = 0
    for room in ("exp3", "col3", "hei3"):
        state.blocked_rooms[parse_room(room)] = BLUE
    assert not any(n.startswith("gov ") for n in notations(state))


def test_tokens_return_when_delimitation_starts() -> None:
    state = governor_turn()
    state.apply(BLUE, "gov h5")
    state.apply(BLUE, "block b5")
    events = start_delimitation(state, {BLUE: 1, RED: 2, BLACK: 3})
    assert any(e.kind == "tokens_retrieved" for e in events)
    assert state.tokens == [3, 3, 3] and set(state.blocked) == {EMPTY}


def test_governor_cards_score_nothing_but_are_wild_in_sets_ruling_n8() -> None:
    state = new_state(3, nile=True)
    give_cards(state, BLUE, cur=1, col=1, exp=1, hei=1, gov=1)
    result = exhibition(state.cards[BLUE], state.museum, BLUE)
    assert result["governors"] == 1 and result["sets"] == 1
    assert result["total"] == 4 * 1 + 5  # four patrons at 1 point, one set, no Governor points
    assert patron_sets([2, 2, 1, 1, 0], wild=3) == 1
    assert patron_sets([2, 2, 1, 1, 0], wild=4) == 2
    assert patron_sets([0, 0, 0, 0, 0], wild=5) == 1
    assert patron_sets([3, 3, 3, 3, 3], wild=0) == 3


# ------------------------------------------------------------------- tie card
def tie_state() -> MykerinosState:
    state = nile_state(4)
    tie = nile_card(nile.TIE_WINNER)
    state.nile_neutral_deck.remove(tie)
    state.nile_won[RED].append(tie)
    return state


def test_the_tie_card_holder_is_asked_when_losing_a_tie_and_wins_it() -> None:
    state = tie_state()
    put(state, BLUE, "a1", "b1")
    put(state, RED, "a2", "b2")
    start_delimitation(state, {BLUE: 1, RED: 2, BLACK: 3, WHITE: 4})
    assert state.area == 0 and state.awaiting == AWAIT_TIE and state.current_seat() == RED
    assert notations(state) == {"usetie", "keeptie"}
    events = state.apply(RED, "usetie")
    assert [e.data["order"] for e in events if e.kind == "tie_card_used"] == [["red", "blue"]]
    assert state.current_seat() == RED and state.ranks == [RED, BLUE]
    assert not state.nile_won[RED] and nile_card(nile.TIE_WINNER) in state.nile_box


def test_the_tie_card_can_be_kept_for_a_later_tie_ruling_n9() -> None:
    state = tie_state()
    put(state, BLUE, "a1", "b1")
    put(state, RED, "a2", "b2")
    start_delimitation(state, {BLUE: 1, RED: 2, BLACK: 3, WHITE: 4})
    state.apply(RED, "keeptie")
    assert state.current_seat() == BLUE and state.ranks == [BLUE, RED]
    assert state.nile_won[RED]  # kept
    # A holder who wins its ties anyway is not asked.
    state2 = tie_state()
    put(state2, RED, "a1", "b1")
    put(state2, BLUE, "a2", "b2")
    start_delimitation(state2, {RED: 1, BLUE: 2, BLACK: 3, WHITE: 4})
    assert state2.phase == DELIMITATION and state2.awaiting != AWAIT_TIE


def test_nile_options_combine_with_every_player_count_and_the_quick_game() -> None:
    for seats in (2, 3, 4):
        assert new_state(seats, nile=True).with_nile
    quick = new_state(3, nile=True, quick=True)
    assert quick.campaign_plot_counts() == (8, 8, 12)


def test_quick_game_final_campaign_uses_two_governors_and_the_special_card_ruling_n10() -> None:
    state = new_state(3, nile=True, quick=True)
    # Campaigns 1 and 2 take one card from each deck; the final one the last three.
    state.nile_governor_deck = state.nile_governor_deck[:3]
    state.nile_neutral_deck = [state.nile_neutral_deck[0], nile.SPECIAL_CARD]
    state.campaign = 2
    state.phase = "excavation"
    state._start_campaign()
    assert nile.SPECIAL_CARD in state.nile_rows and len(state.nile_rows) == 3
    assert len(state.nile_governor_deck) == 1 and len(state.nile_neutral_deck) == 1
