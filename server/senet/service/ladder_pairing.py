"""Who plays the next ladder match: a pure choice, by rating uncertainty.

A ladder wants every bot's rating to settle, and a rating settles by playing:
the bots whose ratings are least certain (new bots above all) are drawn most
often, each with a weight of its variance (sigma squared), lowered for every
match it is already playing so that one bot does not fill every lane. The
opponents are drawn the same way, with a preference for close ratings (a match
between bots of similar strength tells the ratings most). The generator is the
caller's, seeded by the slot, so that every replica drawing for one slot draws
the same seats.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """An active bot the ladder may seat: its id, rating and matches in flight."""

    bot_id: str
    mu: float
    sigma: float
    busy: int = 0


def weight(candidate: Candidate) -> float:
    """How often a bot is drawn first: its variance, shared among its busy lanes."""
    return candidate.sigma**2 / (1 + candidate.busy)


def closeness(first: Candidate, other: Candidate) -> float:
    """How well ``other`` suits ``first`` as an opponent: the chance of a draw in
    a normal model of both ratings (1 for equal ratings, less as they part)."""
    spread = first.sigma**2 + other.sigma**2 + 1.0
    return math.exp(-((first.mu - other.mu) ** 2) / (2 * spread))


def _draw(pool: Sequence[Candidate], weights: Sequence[float], rng: random.Random) -> int:
    total = sum(weights)
    if total <= 0:
        return rng.randrange(len(pool))
    point = rng.random() * total
    for i, w in enumerate(weights):
        point -= w
        if point < 0:
            return i
    return len(pool) - 1


def choose_seats(
    candidates: Sequence[Candidate], seat_count: int, rng: random.Random
) -> list[str] | None:
    """The bots of the next match, in seat order (shuffled: no bot keeps a seat);
    None when fewer than ``seat_count`` bots can play."""
    pool = sorted(candidates, key=lambda c: c.bot_id)  # the draw must not hang on the order
    if seat_count < 1 or len(pool) < seat_count:
        return None
    first = pool.pop(_draw(pool, [weight(c) for c in pool], rng))
    chosen = [first]
    while len(chosen) < seat_count:
        weights = [weight(c) * closeness(first, c) for c in pool]
        chosen.append(pool.pop(_draw(pool, weights, rng)))
    seats = [c.bot_id for c in chosen]
    rng.shuffle(seats)
    return seats
