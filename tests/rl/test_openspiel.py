"""The OpenSpiel adapter: OpenSpiel's own random simulation check on every registered game,
and OpenSpiel's information-set MCTS playing each through it.

OpenSpiel's C++ ``ISMCTSBot`` cannot search a Python game (it crashes in the
binding), so the search here is OpenSpiel's Python IS-MCTS
(``open_spiel.python.algorithms.ismcts``), which plays every game to the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from senet.games import all_games, get_game
from senet.rl.encoding import action_space, observation_encoder
from senet.rl.openspiel import SenetSpielState, load, register, spiel_name
from tests.rl.cases import case_id, cases

GAME_IDS = sorted(g.info.id for g in all_games())


def _edge_cases() -> list[tuple[str, int, dict[str, Any]]]:
    """The adapter cases at each game's least and most seats, and every variant (the
    seat counts between add nothing the adapter does differently)."""
    found = []
    for game_id, seats, options in cases():
        info = get_game(game_id).info
        if seats in (info.min_seats, info.max_seats) or any(v is True for v in options.values()):
            found.append((game_id, seats, options))
    return found


def _short(game_id: str) -> dict[str, Any]:
    return dict(get_game(game_id).info.short_match_options)


@pytest.mark.slow
def test_every_registered_game_is_an_openspiel_game() -> None:
    names = register()
    assert names == [spiel_name(game_id) for game_id in GAME_IDS]
    for game_id in GAME_IDS:
        game = pyspiel.load_game(spiel_name(game_id))
        kind = game.get_type()
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert game.num_players() == get_game(game_id).info.min_seats


@pytest.mark.slow
@pytest.mark.parametrize("case", _edge_cases(), ids=case_id)
def test_openspiel_random_simulation(case: tuple[str, int, dict[str, Any]]) -> None:
    game_id, seats, options = case
    game = load(game_id, players=seats, **options)
    assert game.num_distinct_actions() == len(action_space(game_id, seats, options))
    assert game.observation_tensor_size() == observation_encoder(game_id, seats, options).size
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_observations_are_the_seat_view_only() -> None:
    """What a seat observes (tensor and string, information state alike) is unchanged
    when everything it cannot see is re-dealt."""
    game_id = "archeos"
    game = load(game_id, **_short(game_id))
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(60):
        state.apply_action(int(rng.choice(state.legal_actions())))
    for seat in range(game.num_players()):
        twin = state.resample_from_infostate(seat, lambda: 0.25)
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.observation_tensor(seat) == state.observation_tensor(seat)
        assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)


def test_a_seed_replays_the_same_matches() -> None:
    def first_moves(seed: int) -> list[str]:
        state = load("mykerinos", seed=seed).new_initial_state()
        rng = np.random.default_rng(0)
        for _ in range(30):
            state.apply_action(int(rng.choice(state.legal_actions())))
        return [str(state), state.information_state_string(0)]

    assert first_moves(4) == first_moves(4)
    assert first_moves(4) != first_moves(5)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_information_set_mcts_plays_each_game_to_the_end(game_id: str) -> None:
    game = load(game_id, **_short(game_id))
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3, random_state=rng)
    state: SenetSpielState = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.core.is_over()
