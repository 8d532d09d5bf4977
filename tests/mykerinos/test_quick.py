"""The quick game: a patron draft, then three campaigns (rulings Q-1..Q-3)."""

from __future__ import annotations

import pytest

from senet.games.errors import IllegalActionError
from senet.games.mykerinos.plots import PLOT_CARDS, SPECIAL_PLOT_ID
from senet.games.mykerinos.state import DRAFT, EXCAVATION
from tests.mykerinos.builders import new_state, notations


def test_quick_game_reveals_eight_plots_and_drafts_in_snake_order() -> None:
    state = new_state(3, quick=True, seed=4)
    assert state.phase == DRAFT and len(state.draft_row) == 8
    assert SPECIAL_PLOT_ID not in state.draft_row
    start = state.start_seat
    order = [(start + i) % 3 for i in range(3)]
    assert state.draft_order == order + order[::-1]
    view = state.view(None)
    assert view["draft"]["plots"] == state.draft_row
    for seat in state.draft_order:
        assert state.current_seat() == seat
        choice = sorted(notations(state))[0]
        state.apply(seat, choice)
    # Six drafted, the other two discarded; campaign 1 starts with the patrons held.
    assert sum(len(w) for w in state.won) == 6 and len(state.box) == 2
    assert state.phase == EXCAVATION and state.campaign == 1
    assert state.campaign_plot_counts() == (8, 8, 12)
    assert len(state.deck) == 36 - 8 - 8  # 28 left for 8 + 8 + 12 plots, minus this region


def test_drafted_patrons_are_usable_in_the_first_campaign_ruling_q2() -> None:
    state = new_state(4, quick=True, seed=2)
    while state.phase == DRAFT:
        seat = state.current_seat()
        assert seat is not None
        legal = sorted(notations(state))
        state.apply(seat, "draft cur" if "draft cur" in legal else legal[0])
    holders = [s for s in range(4) if state.cards[s][0]]
    assert holders
    seat = state.current_seat()
    assert seat is not None
    state.turn = holders[0]
    assert "cur" in {n.split()[0] for n in notations(state)}
    without = next(s for s in range(4) if not state.cards[s][0])
    state.turn = without
    with pytest.raises(IllegalActionError, match="you have no Curator card"):
        state.apply(without, "cur a1 a2")


def test_nothing_but_drafting_during_the_draft() -> None:
    state = new_state(3, quick=True)
    with pytest.raises(IllegalActionError, match="draft your patrons"):
        state.apply(state.turn, "pass")


def test_draft_offers_each_patron_once_and_only_those_shown() -> None:
    state = new_state(2, quick=True, seed=9)
    shown = {PLOT_CARDS[c].patron for c in state.draft_row}
    offered = {a.arg for a in state.legal_actions()}
    assert offered == {int(p) for p in shown if p is not None}


def test_the_five_point_plot_is_replaced_and_shuffled_back_ruling_q1() -> None:
    for seed in range(200):
        probe = new_state(4, seed=seed)
        order = [s[0] for s in probe.slots]
        if SPECIAL_PLOT_ID in order[:8]:
            break
    else:
        pytest.fail("no seed puts the 5-point plot among the first eight")
    state = new_state(4, quick=True, seed=seed)
    assert SPECIAL_PLOT_ID not in state.draft_row and SPECIAL_PLOT_ID in state.deck
    assert len(state.draft_row) == 8


def test_quick_game_ends_after_three_campaigns() -> None:
    from senet.games import Rng

    state = new_state(3, quick=True, seed=1)
    rng = Rng(3)
    campaigns = set()
    while not state.is_over():
        campaigns.add(state.campaign)
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions()))
    assert campaigns == {0, 1, 2, 3} and state.view(None)["campaigns"] == 3
