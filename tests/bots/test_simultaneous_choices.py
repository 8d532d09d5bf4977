"""Bots where several seats decide at once (Mare Nostrum's hidden offers): each
strategy decides for any deciding seat, not only the current one, and refuses a
seat that is not deciding."""

from __future__ import annotations

import pytest

from senet.bots.base import STRATEGY_NAMES, make_strategy
from senet.games import GameState, Rng, get_game


def _simultaneous_positions(limit: int) -> list[GameState]:
    """Positions of a seeded random 4-player match where several seats offer."""
    state = get_game("marenostrum").new_match(4, seed=21, options={"turn_limit": 3})
    rng = Rng(21)
    found: list[GameState] = []
    while not state.is_over() and len(found) < limit:
        if len(state.deciding_seats()) > 1:
            found.append(state.clone())
        state.apply_unchecked(rng.choice(state.legal_actions()))
    assert found, "no simultaneous decision came up"
    return found


@pytest.mark.parametrize("name", STRATEGY_NAMES)
def test_every_deciding_seat_gets_a_legal_choice(name: str) -> None:
    for state in _simultaneous_positions(3):
        current = state.current_seat()
        others = [s for s in state.deciding_seats() if s != current]
        assert others
        for seat in others:
            strategy = make_strategy(name, seed=3, iterations=8)
            action = strategy.choose(state, seat)
            assert action.notation() in {a.notation() for a in state.legal_actions_for(seat)}
            after = state.clone()
            after.apply(seat, action)  # checked: legal for that seat now


def test_a_seat_that_does_not_decide_is_refused() -> None:
    state = get_game("marenostrum").new_match(4, seed=21)
    idle = next(s for s in range(4) if s not in state.deciding_seats())
    with pytest.raises(ValueError, match="must decide now"):
        make_strategy("random", seed=1).choose(state, idle)
