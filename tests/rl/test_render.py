"""Rendering the learning environments: the table as a spectator sees it, as text
(``ansi``, or printed: ``human``) or as an image of a fixed size (``rgb_array``),
which video recorders and Stable-Baselines3's ``make_vec_env`` (given an id) ask
every environment for."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import render_test

from senet.games import Rng, get_game
from senet.rl.gymnasium import ENV_IDS
from senet.rl.pettingzoo import SenetEnv, env
from senet.rl.render import IMAGE_ROWS, table_text
from tests.rl.cases import GAME_IDS, least

#: What each game's table shows first (the generic renderer draws the view's fields).
TITLES = {
    "archeos": "ARCHEOS SOCIETY",
    "marenostrum": "MARE NOSTRUM",
    "mykerinos": "MYKERINOS",
    "pebbles": "game: pebbles",
}


def play(environment: SenetEnv, steps: int, seed: int = 3) -> None:
    """Reset and play the mask's first legal action ``steps`` times (or to the end)."""
    environment.reset(seed=seed)
    for _ in range(steps):
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            return
        legal = observation["action_mask"].view(np.bool_).nonzero()[0]
        environment.step(int(legal[0]))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_ansi_is_the_spectators_table_under_the_last_action(game_id: str) -> None:
    seats, options = least(game_id)
    environment = env(game_id, seats, options, render_mode="ansi")
    environment.reset(seed=5)
    first = environment.render()
    assert isinstance(first, str)
    assert first.splitlines()[0].startswith("step 0: dealt; scores ")
    assert TITLES[game_id] in first
    play(environment, 6, seed=5)
    text = environment.render()
    assert isinstance(text, str)
    seat, notation = environment._last_seat, environment.last_notation
    assert text.splitlines()[0].startswith(
        f"step {environment.steps}: seat {seat} played {notation};"
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_render_shows_nothing_a_spectator_may_not_see(game_id: str) -> None:
    """A twin re-dealt for any seat (every card that seat cannot see drawn again)
    renders the same: the render is the spectator's view, which sees less than any seat."""
    seats, options = least(game_id)
    state = get_game(game_id).new_match(seats, options, seed=8)
    rng = Rng(8)
    for step in range(60):
        if state.is_over():
            break
        if step % 10 == 0:
            shown = table_text(state, game_id, "heading")
            for seat in range(seats):
                twin = state.determinize(seat, rng.next_u64())
                assert table_text(twin, game_id, "heading") == shown, (seat, step)
        actor = state.deciding_seats()[0]
        legal = state.legal_actions_for(actor)
        state.apply(actor, legal[rng.below(len(legal))])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rgb_array_frames_have_one_size_all_episode_long(game_id: str) -> None:
    seats, options = least(game_id)
    environment = env(game_id, seats, options, render_mode="rgb_array")
    environment.reset(seed=2)
    first = environment.render()
    assert isinstance(first, np.ndarray)
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[0] > IMAGE_ROWS * 10 and first.shape[1] > 80 * 5
    assert (first < 128).any() and (first > 128).any()  # text on a background
    play(environment, 30, seed=2)
    later = environment.render()
    assert isinstance(later, np.ndarray)
    assert later.shape == first.shape and not np.array_equal(later, first)


def test_human_mode_prints_the_table_after_every_reset_and_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    environment = env("mykerinos", 2, render_mode="human")
    play(environment, 3)
    printed = capsys.readouterr().out
    headings = [line for line in printed.splitlines() if line.startswith("step ")]
    assert [h.split(":")[0] for h in headings] == ["step 0", "step 1", "step 2", "step 3"]
    assert environment.render() is None
    assert capsys.readouterr().out.startswith("step 3: ")


def test_no_render_mode_renders_nothing_and_an_unknown_one_is_refused() -> None:
    assert env("mykerinos", 2).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        env("mykerinos", 2, render_mode="svg")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pettingzoos_render_test_passes(game_id: str) -> None:
    seats, options = least(game_id)

    def make(render_mode: str | None = None) -> SenetEnv:
        return env(game_id, seats, options, render_mode=render_mode)

    render_test(make)


def test_an_id_made_as_stable_baselines3_makes_it_renders_frames() -> None:
    """``make_vec_env("senet/...")`` asks ``gymnasium.make`` for ``rgb_array``
    (after ``import senet.rl.gymnasium``, which registers the ids)."""
    assert "senet/mykerinos-v1" in ENV_IDS
    made: Any = gymnasium.make("senet/mykerinos-v1", seats=2, render_mode="rgb_array")
    made.reset(seed=1)
    frame = made.render()
    assert isinstance(frame, np.ndarray) and frame.ndim == 3
    made.close()
