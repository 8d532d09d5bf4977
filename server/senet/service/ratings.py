"""Ratings: OpenSkill per player and game, settled once per rated match.

A rating is OpenSkill's Plackett-Luce (mu, sigma); leaderboards rank by the
conservative rating mu - 3 sigma, so a newcomer's lucky first win does not put
them above players who have shown their skill many times. :func:`rated_after`
is the pure step (ratings before and places in, ratings after out); the rest
reads and writes through the player store.

Settlement is keyed by the match id and compares every player's rating with the
one it was worked out from (:meth:`senet.store.players.PlayerStore.settle`): a
replay, by this replica or another, answers ``duplicate``; a rating changed
meanwhile by another match's settlement answers ``conflict``, and the
settlement is worked out again from fresh ratings. Resigned and timed-out seats
are ranked as the match ranks them (the summary's places: resigned seats last).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import metadata
from typing import Any

from openskill.models import PlackettLuce

from senet.games.bots import STRATEGY_GROUP
from senet.service.documents import known_fields
from senet.service.records import dumps, loads
from senet.store.players import PlayerStore, RatingWrite, Settlement, SettleOutcome

MODEL = PlackettLuce()
#: How many times a settlement is worked out again after a conflict.
_SETTLE_TRIES = 8


@dataclass(frozen=True)
class RatingValue:
    """One player's rating in one game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0

    @property
    def conservative(self) -> float:
        """What leaderboards rank by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str | None) -> RatingValue:
        """The stored rating (the default rating when None)."""
        if text is None:
            return cls()
        data = loads(text)
        return cls(float(data["mu"]), float(data["sigma"]), int(data.get("matches", 0)))


@dataclass(frozen=True)
class SeatResult:
    """A seat of a finished rated match: who held it, where it placed, and the
    name it showed (kept with every player's result, so a result names the
    opponents)."""

    subject: str
    place: int
    name: str = ""


@dataclass(frozen=True)
class ResultRecord:
    """One settled match of one player, newest first in their recent results."""

    match_id: str
    game_id: str
    place: int
    seat_count: int
    mu: float
    sigma: float
    delta: float
    settled_at: float
    #: The ladder that rated it (its rating pool); "": matchmaking.
    ladder_id: str = ""
    #: Every seat of the match in seat order (none in records settled before
    #: they were recorded).
    seats: tuple[SeatResult, ...] = ()

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ResultRecord:
        data: dict[str, Any] = loads(text)
        data["seats"] = tuple(
            SeatResult(**known_fields(SeatResult, s)) for s in data.get("seats", ())
        )
        return cls(**known_fields(cls, data))


def pool_of(game_id: str, seat_count: int) -> str:
    """The rating pool of one game at one seat count (a ladder's id: ``mykerinos-4``).

    A ladder rates each seat count apart: a bot's strength at two seats says
    little of it at four, where it is judged against three others at once.
    """
    return f"{game_id}-{seat_count}"


def rated_after(before: Sequence[RatingValue], places: Sequence[int]) -> list[RatingValue]:
    """Every seat's rating after a match with these places (1 is best, ties share
    a place), each seat a team of one."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        RatingValue(team[0].mu, team[0].sigma, old.matches + 1)
        for team, old in zip(rated, before, strict=True)
    ]


def rated_seats(seats: Sequence[SeatResult]) -> list[SeatResult]:
    """The seats that are rated: each subject once, at its best place (a match
    with two seats of one bot strategy rates that strategy once)."""
    best: dict[str, SeatResult] = {}
    for seat in seats:
        held = best.get(seat.subject)
        if held is None or seat.place < held.place:
            best[seat.subject] = seat
    return list(best.values())


def settlement_of(
    match_id: str,
    game_id: str,
    seats: Sequence[SeatResult],
    before: Sequence[str | None],
    now: float,
    pool: str = "",
) -> Settlement:
    """The settlement of a match, from the stored rating documents of its rated
    seats (in the order of :func:`rated_seats`), into ``pool`` (default: the
    game's ratings over every seat count)."""
    rated = rated_seats(seats)
    old = [RatingValue.from_json(doc) for doc in before]
    new = rated_after(old, [s.place for s in rated])
    writes = []
    for seat, doc, was, now_rating in zip(rated, before, old, new, strict=True):
        result = ResultRecord(
            match_id,
            game_id,
            seat.place,
            len(seats),
            now_rating.mu,
            now_rating.sigma,
            now_rating.conservative - was.conservative,
            now,
            pool if pool and pool != game_id else "",
            tuple(seats),
        )
        writes.append(
            RatingWrite(
                seat.subject, doc, now_rating.to_json(), now_rating.conservative, result.to_json()
            )
        )
    return Settlement(match_id, pool or game_id, tuple(writes))


async def settle(
    players: PlayerStore,
    match_id: str,
    game_id: str,
    seats: Sequence[SeatResult],
    pool: str = "",
) -> SettleOutcome:
    """Settle a finished rated match once; safe to call again, from any replica.

    ``pool`` names the ratings it changes (see
    :class:`senet.store.players.Settlement`): the game's by default, a ladder's
    (:func:`pool_of`) for a ladder match.

    Returns:
        ``settled`` when this call wrote it, ``duplicate`` when it was written
        before, ``conflict`` only when other settlements kept changing these
        players' ratings through every try (call again later).
    """
    subjects = [s.subject for s in rated_seats(seats)]
    outcome: SettleOutcome = "conflict"
    for _ in range(_SETTLE_TRIES):
        if await players.is_settled(match_id):
            return "duplicate"
        before = await players.ratings(pool or game_id, subjects)
        settlement = settlement_of(match_id, game_id, seats, before, time.time(), pool)
        outcome = await players.settle(settlement)
        if outcome != "conflict":
            return outcome
    return outcome


@functools.cache
def strategy_version(strategy: str) -> str:
    """The version a bot strategy is rated under: its distribution's version (a
    new release of a strategy is a new player, as its strength may change)."""
    for point in metadata.entry_points(group=STRATEGY_GROUP):
        if point.name == strategy and point.dist is not None:
            return point.dist.version
    try:
        return metadata.version("senet")
    except metadata.PackageNotFoundError:
        return "0"
