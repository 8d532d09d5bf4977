"""Tournament pairings and standings, without a server.

Issue 37: "a format (round robin; Swiss for more entrants than seats), rounds
created when the previous one ends, seats rotated, standings with tie-breaks".
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from senet.service.tournament_rounds import (
    Game,
    game_points,
    round_robin,
    standings,
    swiss_round,
    swiss_rounds,
)

EIGHT = [f"e{i}" for i in range(8)]


def test_points_share_a_game_by_places() -> None:
    assert game_points([1, 2]) == [1.0, 0.0]
    assert game_points([1, 1]) == [0.5, 0.5]
    assert game_points([2, 1, 3]) == [0.5, 1.0, 0.0]


@pytest.mark.parametrize("count", [4, 5, 8])
def test_a_two_seat_round_robin_meets_everyone_once(count: int) -> None:
    entrants = EIGHT[:count]
    rounds = round_robin(entrants, 2)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    pairs = [frozenset(g) for games in rounds for g in games]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, itertools.combinations(entrants, 2)))
    for games in rounds:  # nobody plays twice in a round
        seated = [e for g in games for e in g]
        assert len(seated) == len(set(seated))
    firsts = Counter(g[0] for games in rounds for g in games)
    assert max(firsts.values()) - min(firsts.values()) <= 1 or count % 2  # seats rotated


def test_a_three_seat_round_robin_plays_every_group_once() -> None:
    rounds = round_robin(EIGHT[:5], 3)
    groups = [frozenset(g) for games in rounds for g in games]
    assert len(groups) == len(set(groups)) == 10


def test_a_swiss_round_pairs_equal_scores_and_avoids_rematches() -> None:
    first, rest = swiss_round(EIGHT, [], [], 2)
    assert not rest and len(first) == 4
    games = [Game(g, (1, 2)) for g in first]  # seat 0 won every game
    second, _ = swiss_round(EIGHT, games, [], 2)
    winners = {g[0] for g in first}
    for group in second:
        assert (group[0] in winners) == (group[1] in winners)  # winners meet winners
        assert frozenset(group) not in {frozenset(g) for g in first}
    held = Counter(seat for g in second for seat, e in enumerate(g) if e in winners)
    assert held[0] == held[1] == 2  # two winners meet: one of them moves to the second seat


def test_an_odd_swiss_field_rests_the_lowest_placed_once_each() -> None:
    seven = EIGHT[:7]
    byes: list[str] = []
    games: list[Game] = []
    for _ in range(3):
        groups, resting = swiss_round(seven, games, byes, 2)
        assert len(resting) == 1 and len(groups) == 3
        byes += resting
        games += [Game(g, (1, 2)) for g in groups]
    assert len(set(byes)) == 3


def test_standings_break_ties_by_buchholz_then_wins() -> None:
    games = [
        Game(("a", "b"), (1, 2)),
        Game(("c", "d"), (1, 2)),
        Game(("a", "c"), (1, 1)),
        Game(("b", "d"), (1, 2)),
    ]
    table = standings(["a", "b", "c", "d"], games)
    assert [s.entrant for s in table] == ["a", "c", "b", "d"]
    a, c = table[0], table[1]
    assert a.points == c.points == 1.5 and a.buchholz > c.buchholz


def test_swiss_length_grows_with_the_field() -> None:
    assert swiss_rounds(8, 2) == 3 and swiss_rounds(16, 2) == 4 and swiss_rounds(9, 3) == 2
