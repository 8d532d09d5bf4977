"""Tournament statistics: win shares, Wilson intervals, per-entrant summaries, OpenSkill.

Every figure counts *seat appearances*: an entrant listed twice (``random,random``)
plays two seats per match and is scored on both, so an equal player's expected
win rate is ``1 / seats`` whatever the line-up. A tie for first shares the win:
each of ``k`` tied winners gets ``1 / k``, so wins always sum to the match count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class MatchResult:
    """One finished match as the reports need it (seat-indexed lists)."""

    index: int
    match_id: str
    seed: int
    players: list[str]
    scores: list[int]
    places: list[int]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def win_shares(places: Sequence[int]) -> list[float]:
    """Each seat's share of the win: ``1/k`` for each of ``k`` seats placed first."""
    best = min(places)
    winners = sum(1 for p in places if p == best)
    return [1.0 / winners if p == best else 0.0 for p in places]


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion; fractional ``wins`` are allowed.

    Chosen over the normal approximation because it stays inside [0, 1] and is
    sensible for the small samples and extreme rates that tournaments produce.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class EntrantSummary:
    """Aggregates of one entrant (a player label) over all its seat appearances."""

    player: str
    games: int = 0
    wins: float = 0.0
    score_total: float = 0.0
    margin_total: float = 0.0
    place_total: float = 0.0
    rating_mu: float = 0.0
    rating_sigma: float = 0.0
    rating_ordinal: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        return self.margin_total / self.games if self.games else 0.0

    @property
    def mean_place(self) -> float:
        return self.place_total / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [low, high],
            "mean_score": self.mean_score,
            "mean_margin": self.mean_margin,
            "mean_place": self.mean_place,
            "rating": {
                "mu": self.rating_mu,
                "sigma": self.rating_sigma,
                "ordinal": self.rating_ordinal,
            },
        }


def summarize(results: Sequence[MatchResult], players: Sequence[str]) -> list[EntrantSummary]:
    """One summary per distinct player label, in first-listed order, ratings included."""
    summaries = {p: EntrantSummary(p) for p in dict.fromkeys(players)}
    for result in results:
        shares = win_shares(result.places)
        for seat, player in enumerate(result.players):
            entry = summaries[player]
            others = [s for i, s in enumerate(result.scores) if i != seat]
            entry.games += 1
            entry.wins += shares[seat]
            entry.score_total += result.scores[seat]
            entry.margin_total += result.scores[seat] - max(others) if others else 0
            entry.place_total += result.places[seat]
    for player, (mu, sigma, ordinal) in openskill_ratings(results, list(summaries)).items():
        entry = summaries[player]
        entry.rating_mu, entry.rating_sigma, entry.rating_ordinal = mu, sigma, ordinal
    return list(summaries.values())


def openskill_ratings(
    results: Sequence[MatchResult], players: Sequence[str]
) -> dict[str, tuple[float, float, float]]:
    """(mu, sigma, ordinal) per player from each match's places (Plackett-Luce), in order.

    A label in several seats of one match is one player with one rating: every copy
    is rated from the same prior and the copies' posteriors are averaged, so
    ``random,random`` does not move twice as fast as a label listed once.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {p: model.rating(name=p) for p in players}
    for result in results:
        teams = [[ratings[p]] for p in result.players]
        rated = model.rate(teams, ranks=[float(p) for p in result.places])
        updates: dict[str, list[tuple[float, float]]] = {}
        for player, team in zip(result.players, rated, strict=True):
            updates.setdefault(player, []).append((team[0].mu, team[0].sigma))
        for player, posts in updates.items():
            rating = ratings[player]
            rating.mu = sum(mu for mu, _ in posts) / len(posts)
            rating.sigma = sum(sigma for _, sigma in posts) / len(posts)
    return {p: (r.mu, r.sigma, r.ordinal()) for p, r in ratings.items()}
