"""The statistics of a head-to-head test: a sequential probability ratio test on
the win share, and its interval. Pure functions, no I/O.

Engine authors test a change by playing the new version against the old until
the result is clear, not for a fixed number of games: Wald's sequential
probability ratio test (SPRT) stops as soon as the games played make one of two
hypotheses about A's win share ``p`` much likelier than the other,

* H0: ``p = p0`` (A is not stronger; 0.5 by default),
* H1: ``p = p1`` (A is stronger; 0.6 by default),

with error rates of at most about ``alpha`` (accepting H1 when H0 holds) and
``beta`` (accepting H0 when H1 holds). A draw counts as half a win and half a
loss, so that the win share is A's score per game. The share is reported with
its Wilson score interval, which, unlike the normal approximation, stays within
[0, 1] and is sound for few games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Verdict = Literal["running", "a_stronger", "not_stronger", "undecided"]
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Hypotheses:
    """The test's settings: the two win shares and the two error rates."""

    p0: float = 0.5
    p1: float = 0.6
    alpha: float = 0.05
    beta: float = 0.05

    def check(self) -> None:
        """Raises: ValueError unless 0 < p0 < p1 < 1 and both rates are in (0, 0.5)."""
        if not 0 < self.p0 < self.p1 < 1:
            raise ValueError(f"need 0 < p0 < p1 < 1, got p0={self.p0}, p1={self.p1}")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, got {rate}")

    @property
    def lower(self) -> float:
        """The log-likelihood ratio at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The log-likelihood ratio at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)


@dataclass(frozen=True)
class Score:
    """A's games against B."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        """A's score: a win 1, a draw 1/2."""
        return self.wins + self.draws / 2

    @property
    def share(self) -> float:
        """A's win share (0.5 before any game)."""
        return self.points / self.games if self.games else 0.5

    def add(self, score: float) -> Score:
        """This score after one more game that A scored ``score`` in (1, 0.5 or 0)."""
        if score > 0.5:
            return Score(self.wins + 1, self.losses, self.draws)
        if score < 0.5:
            return Score(self.wins, self.losses + 1, self.draws)
        return Score(self.wins, self.losses, self.draws + 1)


def llr(score: Score, h: Hypotheses) -> float:
    """The log-likelihood ratio of H1 against H0 after ``score`` (draws as halves)."""
    won, lost = score.points, score.games - score.points
    return won * math.log(h.p1 / h.p0) + lost * math.log((1 - h.p1) / (1 - h.p0))


def verdict(score: Score, h: Hypotheses, max_games: int) -> Verdict:
    """Where the test stands: decided once the ratio crosses a bound; undecided
    when ``max_games`` were played without that."""
    ratio = llr(score, h)
    if ratio >= h.upper:
        return "a_stronger"
    if ratio <= h.lower:
        return "not_stronger"
    return "undecided" if score.games >= max_games else "running"


def wilson(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share of ``points`` in ``games`` ((0, 1) for none)."""
    if games <= 0:
        return 0.0, 1.0
    share = points / games
    denominator = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / denominator
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
