"""Who plays the next ladder match: drawn by rating uncertainty, the same on every
replica for one slot.

Issue 37: "creates rated matches among active registered bots, choosing opponents
by rating uncertainty so new bots play more".
"""

from __future__ import annotations

import random
from collections import Counter

from senet.service.ladder import slot_rng
from senet.service.ladder_pairing import Candidate, choose_seats, closeness

SETTLED = 1.0
NEW = 8.33


def test_new_bots_play_more_than_settled_ones() -> None:
    pool = [Candidate(f"old{i}", 25.0, SETTLED) for i in range(6)] + [Candidate("new", 25.0, NEW)]
    rng = random.Random(7)
    seated = Counter(b for _ in range(600) for b in choose_seats(pool, 2, rng) or [])
    assert seated["new"] > 500  # nearly every match: its rating knows least
    assert all(seated[f"old{i}"] < seated["new"] / 3 for i in range(6))


def test_a_bot_busy_in_other_lanes_is_drawn_less() -> None:
    idle, busy = Candidate("idle", 25.0, 5.0), Candidate("busy", 25.0, 5.0, busy=3)
    others = [Candidate(f"o{i}", 25.0, 1.0) for i in range(4)]
    rng = random.Random(3)
    seated = Counter(
        b for _ in range(400) for b in choose_seats([idle, busy, *others], 2, rng) or []
    )
    assert seated["idle"] > 1.3 * seated["busy"]


def test_close_ratings_make_likelier_opponents() -> None:
    first = Candidate("a", 30.0, 2.0)
    assert closeness(first, Candidate("b", 30.0, 2.0)) == 1.0
    assert closeness(first, Candidate("c", 20.0, 2.0)) < closeness(first, Candidate("d", 28.0, 2.0))


def test_seats_are_distinct_and_none_without_enough_bots() -> None:
    pool = [Candidate(f"b{i}", 25.0, 8.0) for i in range(3)]
    seats = choose_seats(pool, 3, random.Random(1))
    assert seats is not None and sorted(seats) == ["b0", "b1", "b2"]
    assert choose_seats(pool, 4, random.Random(1)) is None


def test_every_replica_draws_the_same_seats_for_one_slot() -> None:
    pool = [Candidate(f"b{i}", 20.0 + i, 3.0 + i) for i in range(8)]
    shuffled = list(reversed(pool))
    slot = "ladder:mykerinos-2:0:17"
    assert choose_seats(pool, 2, slot_rng(slot)) == choose_seats(shuffled, 2, slot_rng(slot))
