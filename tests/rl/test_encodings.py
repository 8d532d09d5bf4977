"""Every game's action space holds every legal action, and its observations show only views.

Random playouts of every registered game, seat count and variant: at each position the
legal actions of every deciding seat map into the space (and back), the mask marks
exactly them, and each seat's observation has the declared length and equals the
observation of a twin re-dealt by ``determinize`` for that seat (the conformance
suite's check on views, applied to the tensors).
"""

from __future__ import annotations

from typing import Any

import pytest

from senet.games import Rng, all_games, get_game
from senet.rl.encoding import (
    ENCODINGS,
    ObservationEncoder,
    action_space,
    encoding_for,
    observation_encoder,
)
from senet.rl.features import counts, number, per_seat
from tests.rl.cases import case_id, cases

CASES = cases()
SEEDS = (1, 2, 3)
MAX_DECISIONS = 3000


def test_every_registered_game_has_an_encoding() -> None:
    assert {g.info.id for g in all_games()} <= set(ENCODINGS.game_ids())
    for game in all_games():
        assert encoding_for(game.info.id).version >= 1


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_space_is_indexed_once_and_reads_back(case: tuple[str, int, dict[str, Any]]) -> None:
    game_id, seats, options = case
    space = action_space(game_id, seats, options)
    game = get_game(game_id)
    assert len(set(space.notations)) == len(space) > 0
    for index, action in enumerate(space.actions):
        assert space.index_of(action) == index
        assert game.parse_action(space.notations[index]) == action
    assert action_space(game_id, seats, options) is space


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_playouts_stay_in_the_space_and_observations_hide_what_is_hidden(
    case: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    game_id, seats, options = case
    space = action_space(game_id, seats, options)
    encoder = observation_encoder(game_id, seats, options)
    state = get_game(game_id).new_match(seats, options, seed=seed)
    rng = Rng(seed * 7919)
    for step in range(MAX_DECISIONS):
        if state.is_over():
            break
        for deciding in state.deciding_seats():
            legal = state.legal_actions_for(deciding)
            mask = space.mask(legal)
            assert sum(mask) == len(set(legal))
            assert [space.actions[i] for i in space.indexes(legal)] == legal
        if step % 5 == 0:
            for seat in range(seats):
                observation = encoder.encode(state.view(seat))
                assert len(observation) == encoder.size
                twin = state.determinize(seat, rng.next_u64())
                assert encoder.encode(twin.view(seat)) == observation, f"seat {seat}, step {step}"
        actor = state.deciding_seats()[rng.below(len(state.deciding_seats()))]
        choices = state.legal_actions_for(actor)
        state.apply(actor, choices[rng.below(len(choices))])
    assert state.is_over(), "the playout did not end"
    for seat in range(seats):
        assert len(encoder.encode(state.view(seat))) == encoder.size


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_tensor_cache_equals_a_fresh_encoding_at_every_step(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """Each seat's cache, fed that seat's view after every action, gives the tensor a
    fresh encoding gives: no feature keeps a slice its view no longer supports (and no
    view shares a list with the state that a later action changes in place)."""
    game_id, seats, options = case
    encoder = observation_encoder(game_id, seats, options)
    caches = [encoder.cache() for _ in range(seats)]
    state = get_game(game_id).new_match(seats, options, seed=11)
    rng = Rng(11)
    for step in range(MAX_DECISIONS):
        for seat in range(seats):
            view = state.view(seat)
            assert list(caches[seat].encode(view)) == encoder.encode(view), (
                f"seat {seat}, step {step}"
            )
        if state.is_over():
            break
        actor = state.deciding_seats()[rng.below(len(state.deciding_seats()))]
        choices = state.legal_actions_for(actor)
        state.apply_unchecked(choices[rng.below(len(choices))], actor)
    assert state.is_over()


def test_a_cache_follows_changes_under_a_mapping_in_an_entry_and_of_a_missing_key() -> None:
    """The cache's comparison of a view with the last one, key by key and one level
    down, misses no change: under a mapping that another feature reads whole, inside
    one seat's entry, a key that goes away, a mapping that becomes ``None``."""
    encoder = ObservationEncoder(
        [
            number("a.b", "a", "b"),
            counts("a", "a", vocabulary=("b", "c")),
            per_seat("players", "players", max_seats=2, inner=[number("x", "x"), number("y", "y")]),
            number("n", "n"),
        ]
    )
    views: list[dict[str, Any]] = [
        {"a": {"b": 1, "c": 2}, "players": [{"x": 1, "y": 2}, {"x": 3, "y": 4}], "n": 1},
        {"a": {"b": 1, "c": 5}, "players": [{"x": 1, "y": 2}, {"x": 3, "y": 4}], "n": 1},
        {"a": {"b": 1, "c": 5}, "players": [{"x": 1, "y": 2}, {"x": 3, "y": 7}], "n": 1},
        {"a": {"b": 1, "c": 5}, "players": [{"x": 1, "y": 2}, {"x": 3, "y": 7}]},
        {"a": None, "players": [{"x": 1}, {"x": 3, "y": 7}], "n": 2},
        {"a": {"b": 2}, "players": [{"x": 1, "y": 2}, {"x": 3, "y": 4}], "n": 2},
    ]
    cache = encoder.cache()
    for step, view in enumerate(views):
        view = {"viewer": 1, "seats": 2, **view}
        assert list(cache.encode(view)) == encoder.encode(view), f"view {step}"
