"""Matchmaking tickets and how queued tickets are grouped into matches.

:func:`group_tickets` is pure: given the queued tickets and the time, it says which
tickets make a match now, and with how many bots. It needs no store, so it is
tested alone; :mod:`senet.service.matchmaking` carries its groups out (creating the
match, then claiming the tickets atomically, so that no ticket is ever placed twice
even when two replicas group the same queue at once).

Tickets are compatible when they are for the same game, with the same options and
the same mode (rated or casual), and accept a common seat count. Within that, a
group is formed around the ticket that has waited longest: the others closest to
its rating join while they are within the rating tolerance, which widens the longer
either ticket has waited, so that nobody waits for ever for a perfect opponent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Literal

from senet.service.documents import known_fields
from senet.service.records import dumps, loads

TicketState = Literal["queued", "matched"]

#: Rating distance (OpenSkill mu) accepted at once, and how it widens per second
#: of waiting, up to the cap (a default rating's sigma is about 8.3).
BASE_TOLERANCE = 2.0
TOLERANCE_PER_S = 1.0
MAX_TOLERANCE = 60.0


@dataclass(frozen=True)
class Ticket:
    """One player's request to be matched, as stored.

    Attributes:
        ticket_id: Its id (also what the player resumes it with).
        subject: The player's identity.
        name: The player's display name.
        game_id: The game.
        seat_counts: The seat counts the player accepts (and the options allow).
        options: The normalized options (compared as they are).
        rated: Rated or casual.
        bot_fill_after_ms: After this long in the queue, empty seats up to the
            fewest accepted are filled with bots; None: never.
        rating: The player's rating (mu) in the game when queued.
        created_ms: When it was queued (Unix ms).
        secret: The key of the player's seat join (the seat token is minted from
            it, so any replica can hand the token over again).
        state: ``queued`` or ``matched``.
        match_id: The match (matched).
        seat: The seat (matched).
        matched_ms: When it was matched.
        delivered: The player's stream has received the seat token.
        left: The seat was given up for the player (a no-show).
        add_entropy: The player adds entropy to the match's seed: the seat is
            taken when they send it, after the match's commitment (not at once).
    """

    ticket_id: str
    subject: str
    name: str
    game_id: str
    seat_counts: tuple[int, ...]
    options: dict[str, object]
    rated: bool
    bot_fill_after_ms: int | None
    rating: float
    created_ms: int
    secret: str
    state: TicketState = "queued"
    match_id: str = ""
    seat: int = -1
    matched_ms: int = 0
    delivered: bool = False
    left: bool = False
    add_entropy: bool = False

    @property
    def lock(self) -> str:
        """The player's lock for this game: one ticket or queued match at a time."""
        return f"{self.subject}|{self.game_id}"

    @property
    def bucket(self) -> str:
        """Tickets of one bucket may share a match (same game, options and mode)."""
        return dumps([self.game_id, sorted(self.options.items()), self.rated])

    def waited_ms(self, now_ms: int) -> int:
        return max(0, now_ms - self.created_ms)

    def tolerance(self, now_ms: int) -> float:
        """How far from this ticket's rating a co-player may be, now."""
        widened = BASE_TOLERANCE + TOLERANCE_PER_S * self.waited_ms(now_ms) / 1000
        return min(MAX_TOLERANCE, widened)

    def fill_due(self, now_ms: int) -> bool:
        """Whether this ticket has waited long enough to be played with bots."""
        return self.bot_fill_after_ms is not None and self.waited_ms(now_ms) >= (
            self.bot_fill_after_ms
        )

    def matched(self, match_id: str, seat: int, now_ms: int) -> Ticket:
        return replace(self, state="matched", match_id=match_id, seat=seat, matched_ms=now_ms)

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Ticket:
        data = loads(text)
        data["seat_counts"] = tuple(data["seat_counts"])
        return cls(**known_fields(cls, data))


@dataclass(frozen=True)
class Group:
    """Tickets that make one match now, and the bots that fill it."""

    tickets: tuple[Ticket, ...]
    seats: int
    bots: int = 0
    #: Every ticket id, sorted: the same group always makes the same match.
    key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", ",".join(sorted(t.ticket_id for t in self.tickets)))


def group_tickets(tickets: Iterable[Ticket], now_ms: int) -> list[Group]:
    """The matches the queued tickets make now; no ticket is in two groups.

    Oldest ticket first, each unplaced ticket anchors a group: compatible tickets
    are added closest rating first while both tolerances allow the distance and a
    seat count stays acceptable to all. The group is a match when it reaches its
    fewest common seat count; short of it, when every member has waited for bots,
    it is filled with bots up to that count.

    Each bucket is walked in rating order outwards from the anchor, so a pass
    costs about the bucket's size per anchor, not its square.
    """
    buckets: dict[str, list[Ticket]] = {}
    for ticket in tickets:
        if ticket.state == "queued":
            buckets.setdefault(ticket.bucket, []).append(ticket)
    groups: list[Group] = []
    for bucket in buckets.values():
        free = sorted(bucket, key=lambda t: (t.rating, t.created_ms, t.ticket_id))
        at = {t.ticket_id: i for i, t in enumerate(free)}
        for anchor in sorted(bucket, key=lambda t: (t.created_ms, t.ticket_id)):
            if anchor.ticket_id not in at:
                continue
            group = _grow(anchor, free, at[anchor.ticket_id], now_ms)
            if group is not None:
                groups.append(group)
                placed = {t.ticket_id for t in group.tickets}
                free = [t for t in free if t.ticket_id not in placed]
                at = {t.ticket_id: i for i, t in enumerate(free)}
    return groups


def _nearest(by_rating: Sequence[Ticket], at: int, reach: float) -> Iterable[Ticket]:
    """The tickets of ``by_rating`` (sorted by rating) within ``reach`` of the
    rating of the one at ``at``, closest first (then oldest)."""
    anchor = by_rating[at]
    left, right = at - 1, at + 1
    while True:
        below = by_rating[left] if left >= 0 else None
        above = by_rating[right] if right < len(by_rating) else None
        if below is not None and anchor.rating - below.rating > reach:
            below = None
        if above is not None and above.rating - anchor.rating > reach:
            above = None
        if below is None and above is None:
            return
        if below is not None and (
            above is None
            or (anchor.rating - below.rating, below.created_ms, below.ticket_id)
            <= (above.rating - anchor.rating, above.created_ms, above.ticket_id)
        ):
            yield below
            left -= 1
        elif above is not None:
            yield above
            right += 1


def _grow(anchor: Ticket, by_rating: Sequence[Ticket], at: int, now_ms: int) -> Group | None:
    counts = set(anchor.seat_counts)
    members = [anchor]
    for other in _nearest(by_rating, at, anchor.tolerance(now_ms)):
        if len(members) >= max(counts):
            break
        if abs(other.rating - anchor.rating) > other.tolerance(now_ms):
            continue
        common = counts & set(other.seat_counts)
        if not common or max(common) < len(members) + 1:
            continue
        counts = common
        members.append(other)
    fitting = sorted(c for c in counts if c >= len(members))
    if not fitting:
        return None
    if len(members) == fitting[0]:
        return Group(tuple(members), len(members))
    if all(t.fill_due(now_ms) for t in members):
        return Group(tuple(members), fitting[0], bots=fitting[0] - len(members))
    return None


def compatible_counts(tickets: Iterable[Ticket]) -> dict[str, int]:
    """How many queued tickets each bucket holds (what a waiting player is told
    as "players found")."""
    counts: dict[str, int] = {}
    for ticket in tickets:
        if ticket.state == "queued":
            counts[ticket.bucket] = counts.get(ticket.bucket, 0) + 1
    return counts
