"""The head-to-head test's statistics, without a server: the SPRT stops when the
difference is clear, errs about as rarely as asked, and reports a sound interval.

Issue 37: "a head-to-head test of two versions of a bot that stops by itself when
the difference is clear (a sequential test on the win share, reported with its
interval)".
"""

from __future__ import annotations

import math
import random

import pytest

from senet.service.sequential import Hypotheses, Score, llr, verdict, wilson

H = Hypotheses()


def test_the_bounds_are_walds() -> None:
    assert H.upper == pytest.approx(math.log(0.95 / 0.05))  # 2.944
    assert H.lower == pytest.approx(-math.log(0.95 / 0.05))


def test_a_draw_counts_half() -> None:
    assert Score(wins=1, losses=1).share == Score(draws=2).share == 0.5
    assert llr(Score(wins=1, losses=1), H) == pytest.approx(llr(Score(draws=2), H))
    assert Score().add(1).add(0.5).add(0) == Score(1, 1, 1)


def test_a_clear_difference_stops_the_test_early() -> None:
    score = Score()
    for games in range(1, 400):
        score = score.add(1 if games % 5 else 0)  # A wins four games in five
        if verdict(score, H, 400) != "running":
            break
    assert verdict(score, H, 400) == "a_stronger" and score.games < 80


def test_an_even_match_is_found_not_stronger() -> None:
    score = Score()
    while verdict(score, H, 2000) == "running":
        score = score.add(score.games % 2)
    assert verdict(score, H, 2000) == "not_stronger"


def test_max_games_without_a_decision_is_undecided() -> None:
    close = Score(wins=11, losses=9)  # between the bounds
    assert verdict(close, H, 20) == "undecided" and verdict(close, H, 21) == "running"


@pytest.mark.parametrize(("true_share", "wrong"), [(0.5, "a_stronger"), (0.6, "not_stronger")])
def test_it_errs_about_as_rarely_as_asked(true_share: float, wrong: str) -> None:
    rng = random.Random(2024)
    errors = 0
    runs = 400
    for _ in range(runs):
        score = Score()
        while (v := verdict(score, H, 5000)) == "running":
            score = score.add(1 if rng.random() < true_share else 0)
        errors += v == wrong
    assert errors / runs < 0.08  # alpha = beta = 0.05, with room for chance


def test_the_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and 0.69 < low < 0.73


def test_bad_settings_are_refused() -> None:
    for bad in (Hypotheses(p0=0.6, p1=0.5), Hypotheses(alpha=0.0), Hypotheses(beta=0.7)):
        with pytest.raises(ValueError):
            bad.check()
