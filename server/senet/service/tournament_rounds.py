"""Tournament rounds and standings: pure functions of the entrants and results.

Round robin: every group of ``seats`` entrants meets once. With two seats the
circle method gives n - 1 rounds (n rounded up to even: one entrant rests a
round, a *bye*); with more, the groups are packed greedily into rounds in which
nobody plays twice. Swiss: each round groups entrants with similar points who
have not met yet where possible, the lowest-placed entrants without a bye
resting when the count does not divide. In both, seats are rotated: each group
sits in the order that gives every entrant the seats they have held least.

Points: a game is worth 1 to its winner and 0 to its last, shares between (a
seat's points are the seats placed behind it, ties counting half, over the
others): a two-seat game gives 1, 1/2 or 0. A bye is worth 1/2. Standings rank by
points, then Buchholz (the points of every opponent met, which rewards a harder
draw), then first places, then name.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BYE_POINTS = 0.5


@dataclass(frozen=True)
class Game:
    """A finished game: the entrants in seat order and their places (1 is best)."""

    entrants: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """One entrant's line."""

    entrant: str
    points: float
    buchholz: float
    wins: int
    played: int


def game_points(places: Sequence[int]) -> list[float]:
    """Each seat's points from the places: seats behind count 1, ties 1/2, over the others."""
    others = len(places) - 1
    if others <= 0:
        return [0.0 for _ in places]
    return [
        sum(1.0 if p < q else 0.5 if p == q else 0.0 for j, q in enumerate(places) if j != i)
        / others
        for i, p in enumerate(places)
    ]


def seat_order(group: Sequence[str], seats_held: Counter[tuple[str, int]]) -> tuple[str, ...]:
    """The rotation of ``group`` that gives its entrants the seats they held least;
    ``seats_held`` is updated with the order chosen."""
    rotations = [tuple(group[i:]) + tuple(group[:i]) for i in range(len(group))]
    best = min(rotations, key=lambda r: sum(seats_held[(e, s)] for s, e in enumerate(r)))
    for seat, entrant in enumerate(best):
        seats_held[(entrant, seat)] += 1
    return best


def round_robin(entrants: Sequence[str], seats: int) -> list[list[tuple[str, ...]]]:
    """Every round of a round robin, each a list of groups in seat order."""
    if seats < 2 or len(entrants) < seats:
        raise ValueError(f"a round robin needs at least {seats} entrants and 2 seats")
    if seats == 2:
        rounds = _circle(list(entrants))
    else:
        rounds = _packed(list(itertools.combinations(entrants, seats)))
    held: Counter[tuple[str, int]] = Counter()
    return [[seat_order(group, held) for group in games] for games in rounds]


def _circle(entrants: list[str]) -> list[list[tuple[str, ...]]]:
    players: list[str | None] = [*entrants, None] if len(entrants) % 2 else list(entrants)
    n = len(players)
    rounds: list[list[tuple[str, ...]]] = []
    for _ in range(n - 1):
        pairs = [(players[i], players[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def _packed(groups: list[tuple[str, ...]]) -> list[list[tuple[str, ...]]]:
    rounds = []
    left = list(groups)
    while left:
        busy: set[str] = set()
        this = []
        for group in list(left):
            if busy.isdisjoint(group):
                this.append(group)
                busy.update(group)
                left.remove(group)
        rounds.append(this)
    return rounds


def swiss_rounds(entrants: int, seats: int) -> int:
    """A Swiss tournament's default length: enough rounds to single out a winner."""
    return max(1, math.ceil(math.log(max(entrants, 2), max(seats, 2))))


def swiss_round(
    entrants: Sequence[str],
    games: Iterable[Game],
    byes: Iterable[str],
    seats: int,
) -> tuple[list[tuple[str, ...]], list[str]]:
    """The next Swiss round: its groups in seat order, and who rests (a bye).

    ``entrants`` in seeding order (it breaks ties of points); ``games`` and
    ``byes`` are every earlier round's.
    """
    games = list(games)
    byes = list(byes)
    table = standings(entrants, games, byes)
    order = [s.entrant for s in table]
    resting: list[str] = []
    for entrant in reversed(order):  # the lowest-placed rest first, once each if possible
        if len(resting) == len(order) % seats:
            break
        if entrant not in byes:
            resting.append(entrant)
    for entrant in reversed(order):
        if len(resting) == len(order) % seats:
            break
        if entrant not in resting:
            resting.append(entrant)
    met = {frozenset(pair) for g in games for pair in itertools.combinations(g.entrants, 2)}
    waiting = [e for e in order if e not in resting]
    groups = []
    while waiting:
        group = [waiting.pop(0)]
        while len(group) < seats:
            fresh = [e for e in waiting if all(frozenset((e, g)) not in met for g in group)]
            pick = fresh[0] if fresh else waiting[0]
            waiting.remove(pick)
            group.append(pick)
        groups.append(group)
    held: Counter[tuple[str, int]] = Counter()
    for game in games:
        for seat, entrant in enumerate(game.entrants):
            held[(entrant, seat)] += 1
    return [seat_order(g, held) for g in groups], resting


def standings(
    entrants: Sequence[str], games: Iterable[Game], byes: Iterable[str] = ()
) -> list[Standing]:
    """Every entrant's line, best first (points, Buchholz, first places, seeding)."""
    games = list(games)
    points = dict.fromkeys(entrants, 0.0)
    wins = dict.fromkeys(entrants, 0)
    played = dict.fromkeys(entrants, 0)
    opponents: dict[str, list[str]] = {e: [] for e in entrants}
    for entrant in byes:
        points[entrant] += BYE_POINTS
    for game in games:
        for entrant, place, won in zip(
            game.entrants, game.places, game_points(game.places), strict=True
        ):
            points[entrant] += won
            played[entrant] += 1
            wins[entrant] += place == 1
            opponents[entrant] += [o for o in game.entrants if o != entrant]
    seeding = {e: i for i, e in enumerate(entrants)}
    lines = [
        Standing(e, points[e], sum(points[o] for o in opponents[e]), wins[e], played[e])
        for e in entrants
    ]
    lines.sort(key=lambda s: (-s.points, -s.buchholz, -s.wins, seeding[s.entrant]))
    return lines
