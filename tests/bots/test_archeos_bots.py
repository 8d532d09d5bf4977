"""The stock bots play Archeos Society: legally, from what their seat sees, and the
searching ones better than random."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from senet.bots.archeos.heuristics import archeos_values
from senet.bots.base import STRATEGY_NAMES, Strategy, make_strategy, state_from_proto_view
from senet.bots.heuristics import evaluator_for
from senet.codec import codec_for
from senet.games import GameState, Rng, get_game
from senet.games.archeos import ArcheosState

GAME = get_game("archeos")
MCTS_ITERATIONS = 20


def _strategy(name: str, seed: int) -> Strategy:
    return make_strategy(name, seed=seed, iterations=MCTS_ITERATIONS)


def _play(seats: int, seed: int, strategies: list[Strategy]) -> GameState:
    state = GAME.new_match(seats, seed=seed)
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None
        action = strategies[seat].choose(state, seat)
        state.apply(seat, action)
    return state


def _positions(seats: int, seed: int, every: int) -> Iterator[ArcheosState]:
    state = GAME.new_match(seats, seed=seed)
    rng = Rng(seed)
    step = 0
    while not state.is_over():
        if step % every == 0:
            copy = state.clone()
            assert isinstance(copy, ArcheosState)
            yield copy
        state.apply_unchecked(rng.choice(state.legal_actions()))
        step += 1


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 6])
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_random_and_greedy_play_full_matches(name: str, seats: int) -> None:
    state = _play(seats, seats, [_strategy(name, 10 + s) for s in range(seats)])
    assert state.is_over() and len(state.ranking()) == seats


@pytest.mark.slow
def test_mcts_plays_a_full_match() -> None:
    strategies = [_strategy("mcts", 1)] + [_strategy("random", s) for s in range(1, 3)]
    state = _play(3, 5, strategies)
    assert state.is_over()


@pytest.mark.slow
@pytest.mark.parametrize("name", STRATEGY_NAMES)
def test_choices_do_not_depend_on_other_hands_or_the_deck(name: str) -> None:
    checked = 0
    for state in _positions(4, seed=8, every=41):
        seat = state.current_seat()
        assert seat is not None
        expected = _strategy(name, seed=5).choose(state, seat)
        twin = state.determinize(seat, 3)
        assert _strategy(name, seed=5).choose(twin, seat) == expected
        checked += 1
    assert checked > 8


def test_a_remote_bot_decides_like_a_local_one() -> None:
    codec = codec_for("archeos")
    for state in _positions(3, seed=4, every=37):
        seat = state.current_seat()
        assert seat is not None
        message = codec.view_to_proto(state.view(seat))
        rebuilt = state_from_proto_view(
            "archeos", message, seat=seat, seed=99, options=state.options
        )
        assert rebuilt.view(seat) == state.view(seat)
        for name in ("random", "greedy"):
            local = _strategy(name, seed=2).choose(state, seat)
            assert _strategy(name, seed=2).choose(rebuilt, seat) == local


@pytest.mark.slow
def test_greedy_beats_random_clearly() -> None:
    wins = 0
    for match in range(8):
        seat = match % 4
        strategies = [_strategy("random", 100 * match + s) for s in range(4)]
        strategies[seat] = _strategy("greedy", match)
        wins += _play(4, 2000 + match, strategies).ranking()[seat] == 1
    assert wins >= 6  # random's expectation is 2 of 8


def test_archeos_evaluator_values_advancing_and_bigger_expeditions() -> None:
    assert evaluator_for("archeos") is archeos_values
    state = GAME.new_match(4, seed=1, options={"advanced_site": "uluru"})
    assert isinstance(state, ArcheosState)
    before = archeos_values(state)[1]
    state.positions[1][4] = 3  # blue, a compass board
    assert archeos_values(state)[1] > before
    final = _play(2, 3, [_strategy("random", 1), _strategy("random", 2)])
    assert archeos_values(final) == [float(s) for s in final.scores()]
