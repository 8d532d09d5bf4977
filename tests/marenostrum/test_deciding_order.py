"""Seats deciding at once may act in any order: every order must leave a position
where each seat still to decide has something to do."""

from __future__ import annotations

import random

import pytest

from senet.games import get_game


@pytest.mark.xfail(
    strict=True,
    reason="known bug, open: a random order of the seats deciding at once reaches a "
    "position where the current seat has no legal action (6 seats, seed 0, step 176)",
)
def test_any_order_of_deciding_seats_leaves_each_one_an_action() -> None:
    game = get_game("marenostrum")
    state = game.new_match(6, {"turn_limit": 2}, seed=0)
    rng = random.Random(0)
    while not state.is_over():
        seat = rng.choice(state.deciding_seats())
        legal = state.legal_actions_for(seat)
        assert legal, f"seat {seat} must decide but has no action"
        state.apply_unchecked(rng.choice(legal))
