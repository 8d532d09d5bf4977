"""The bot brains: legal, reproducible, honest about hidden information, and useful.

Strategies are exercised on the Mykerinos rules core directly (no server): full
matches for every seat count, replays with the same seeds, positions whose hidden
part has been resampled, and a seeded greedy-versus-random tournament.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from senet.bots import STRATEGY_NAMES, Strategy, make_strategy, state_from_proto_view
from senet.bots.greedy import GreedyStrategy
from senet.bots.heuristics import (
    evaluator_for,
    final_rewards,
    rewards_from_values,
    score_values,
)
from senet.bots.mcts import MctsStrategy
from senet.bots.mykerinos.heuristics import mykerinos_values
from senet.bots.random_bot import RandomStrategy
from senet.codec import codec_for
from senet.games import GameState, Rng, get_game
from senet.games.mykerinos import MykerinosState

GAME = get_game("mykerinos")
#: Small budgets: these tests check behaviour, not strength.
MCTS_ITERATIONS = 20


#: Whole matches search every decision: fewer iterations still exercise the search.
FULL_MATCH_ITERATIONS = 6


def _strategy(name: str, seed: int, iterations: int = MCTS_ITERATIONS) -> Strategy:
    return make_strategy(name, seed=seed, iterations=iterations)


def _play(
    seats: int, seed: int, strategies: list[Strategy], limit: int | None = None
) -> tuple[GameState, list[str]]:
    """Play a match with one strategy per seat, checking each choice is legal."""
    state = GAME.new_match(seats, seed=seed)
    log: list[str] = []
    while not state.is_over() and (limit is None or len(log) < limit):
        seat = state.current_seat()
        assert seat is not None
        action = strategies[seat].choose(state, seat)
        assert action in state.legal_actions()
        state.apply(seat, action)  # checked again by the core
        log.append(action.notation())
    return state, log


def _positions(seats: int, seed: int, every: int) -> Iterator[MykerinosState]:
    """Every ``every``-th position of a seeded random match (copies, to keep)."""
    state = GAME.new_match(seats, seed=seed)
    rng = Rng(seed)
    step = 0
    while not state.is_over():
        if step % every == 0:
            copy = state.clone()
            assert isinstance(copy, MykerinosState)
            yield copy
        state.apply_unchecked(rng.choice(state.legal_actions()))
        step += 1


# ------------------------------------------------------------------ playing
@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("name", STRATEGY_NAMES)
@pytest.mark.slow
def test_every_strategy_plays_full_matches_legally(name: str, seats: int) -> None:
    strategies = [
        _strategy(name, seed=10 * seats + s, iterations=FULL_MATCH_ITERATIONS) for s in range(seats)
    ]
    state, log = _play(seats, seed=seats, strategies=strategies)
    assert state.is_over()
    assert len(log) > 20
    assert len(state.ranking()) == seats


@pytest.mark.parametrize(("name", "limit"), [("random", None), ("greedy", None), ("mcts", 60)])
@pytest.mark.slow
def test_seeded_strategies_replay_exactly(name: str, limit: int | None) -> None:
    def run(offset: int = 0) -> list[str]:
        strategies = [
            _strategy(name, seed=s + offset, iterations=FULL_MATCH_ITERATIONS) for s in range(3)
        ]
        return _play(3, 8, strategies, limit)[1]

    first = run()
    assert run() == first
    other = run(100)
    assert other != first, "the seed should matter"


# ---------------------------------------------------- hidden information
@pytest.mark.parametrize("name", STRATEGY_NAMES)
@pytest.mark.slow
def test_choices_do_not_depend_on_hidden_parts(name: str) -> None:
    """Two states the seat cannot tell apart get the same answer from the same seed.

    ``determinize`` reshuffles the deck and reseeds the state's generator (all that a
    Mykerinos seat cannot see); a strategy that read them would choose differently
    sooner or later over these positions, which span all phases and campaigns.
    """
    checked = 0
    for seats in (2, 4):
        for state in _positions(seats, seed=21, every=9):
            seat = state.current_seat()
            assert seat is not None
            expected = _strategy(name, seed=5).choose(state, seat)
            for resample in (1, 2):
                twin = state.determinize(seat, resample)
                assert twin.deck != state.deck or len(state.deck) < 2
                assert _strategy(name, seed=5).choose(twin, seat) == expected
            checked += 1
    assert checked > 20


@pytest.mark.slow
@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_search_never_touches_the_state_it_is_given(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lookahead runs on copies rebuilt from the view: the real state is only asked
    for its view and its legal actions, never cloned, serialized or advanced."""
    originals: list[GameState] = []

    def guard(method: Callable[..., object]) -> Callable[..., object]:
        def guarded(self: MykerinosState, *args: object, **kwargs: object) -> object:
            assert not any(self is o for o in originals), f"{method.__name__} on the real state"
            return method(self, *args, **kwargs)

        return guarded

    for method in ("clone", "to_data", "determinize", "_apply"):
        monkeypatch.setattr(MykerinosState, method, guard(getattr(MykerinosState, method)))
    for state in _positions(4, seed=3, every=17):
        originals.append(state)
        seat = state.current_seat()
        assert seat is not None
        assert state.legal_actions()  # positions come from unfinished matches
        _strategy(name, seed=1).choose(state, seat)
        originals.pop()


@pytest.mark.slow
def test_a_remote_bot_decides_like_a_local_one() -> None:
    """Rebuilt from the protobuf view the server sends, a position gets the same
    choice as the real state (the view says everything the strategy uses)."""
    codec = codec_for("mykerinos")
    for state in _positions(3, seed=4, every=23):
        seat = state.current_seat()
        assert seat is not None
        message = codec.view_to_proto(state.view(seat))
        rebuilt = state_from_proto_view("mykerinos", message, seat=seat, seed=99)
        assert rebuilt.view(seat) == state.view(seat)
        for name in STRATEGY_NAMES:
            local = _strategy(name, seed=2).choose(state, seat)
            assert _strategy(name, seed=2).choose(rebuilt, seat) == local


# ---------------------------------------------------------------- strength
@pytest.mark.slow
def test_greedy_beats_random_clearly() -> None:
    """Greedy in one seat (rotating) against three random bots, 20 seeded 4p matches."""
    places: list[int] = []
    wins = 0
    for game in range(20):
        seat = game % 4
        strategies: list[Strategy] = [RandomStrategy(seed=100 * game + s) for s in range(4)]
        strategies[seat] = GreedyStrategy(seed=game)
        state, _ = _play(4, 1000 + game, strategies)
        place = state.ranking()[seat]
        places.append(place)
        wins += place == 1
    mean = sum(places) / len(places)
    # Random's expected mean place is 2.5; greedy measured 1.1 here (18 wins of 20).
    assert mean < 2.0, places
    assert wins >= 8, places


# ----------------------------------------------------------------- budgets
def test_mcts_budgets() -> None:
    state = GAME.new_match(4, seed=6)
    seat = state.current_seat()
    assert seat is not None
    bot = MctsStrategy(seed=1, iterations=37)
    bot.choose(state, seat)
    assert bot.last_iterations == 37
    timed = MctsStrategy(seed=1, seconds=0.05)
    started = time.perf_counter()
    action = timed.choose(state, seat)
    assert time.perf_counter() - started < 1.0
    assert timed.last_iterations >= 1
    assert action in state.legal_actions()
    both = make_strategy("mcts", seed=1, iterations=5, seconds=10.0)
    assert isinstance(both, MctsStrategy)
    both.choose(state, seat)
    assert both.last_iterations == 5


def test_forced_moves_need_no_search() -> None:
    for state in _positions(2, seed=2, every=1):
        if len(state.legal_actions()) == 1:
            seat = state.current_seat()
            assert seat is not None
            bot = MctsStrategy(seed=1, iterations=1000)
            assert bot.choose(state, seat) == state.legal_actions()[0]
            assert bot.last_iterations == 0
            return
    pytest.fail("no forced move in that match")


def test_registry_and_misuse() -> None:
    assert isinstance(make_strategy("random", seed=1, iterations=9), RandomStrategy)
    assert isinstance(make_strategy("greedy", seed=1, seconds=1.0), GreedyStrategy)
    assert isinstance(make_strategy("mcts", seed=1), MctsStrategy)
    with pytest.raises(ValueError, match="unknown strategy 'chess'"):
        make_strategy("chess", seed=1)
    with pytest.raises(ValueError, match="iterations"):
        make_strategy("mcts", seed=1, iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        make_strategy("mcts", seed=1, seconds=0.0)
    state = GAME.new_match(3, seed=1)
    seat = state.current_seat()
    assert seat is not None
    with pytest.raises(ValueError, match="must decide now"):
        make_strategy("random", seed=1).choose(state, (seat + 1) % 3)


# --------------------------------------------------------------- heuristics
def test_evaluators_and_rewards() -> None:
    assert evaluator_for("mykerinos") is mykerinos_values
    assert evaluator_for("no-such-game") is score_values
    for state in _positions(4, seed=9, every=11):
        values = mykerinos_values(state)
        assert len(values) == 4
        rewards = rewards_from_values(values)
        assert all(0.0 <= r <= 1.0 for r in rewards)
        leader = max(range(4), key=values.__getitem__)
        assert rewards[leader] == max(rewards)
    final, _ = _play(4, 3, [RandomStrategy(seed=s) for s in range(4)])
    rewards = final_rewards(final)
    assert all(0.0 <= r <= 1.0 for r in rewards)
    ranking = final.ranking()
    assert rewards[ranking.index(1)] == max(rewards)
    assert rewards[ranking.index(max(ranking))] == min(rewards)
    # The finished match is judged by its final scores (reserve only breaks ties).
    assert [round(v) for v in mykerinos_values(final)] == final.scores()


def test_mykerinos_evaluator_values_what_the_rules_value() -> None:
    """Majorities, patron cards and museum rooms for held patrons all count."""
    state = GAME.new_match(3, seed=12)
    assert isinstance(state, MykerinosState)
    mover = state.current_seat()
    assert mover is not None
    # A first archaeologist in an empty area promises that area's reward.
    placed = state.clone()
    placed.apply(mover, "a a1")
    assert mykerinos_values(placed)[mover] > mykerinos_values(state)[mover]
    # Cards count, and more with a room of their patron in the museum.
    held = state.clone()
    held.cards[0][2] = 2
    with_room = held.clone()
    with_room.museum[2] = 0  # seat 0 in the Explorer's 3-room
    assert mykerinos_values(with_room)[0] > mykerinos_values(held)[0] > mykerinos_values(state)[0]
