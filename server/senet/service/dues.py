"""What a new version of a match makes due: bot decisions and turn deadlines.

A version that hands a decision to a seat may make two things due: the decision
itself when a bot (or the replicas' minimal policy, for a resigned seat) plays
the seat, and the timeout of that decision when the match has clocks. Both are
queue entries (see senet.store: the BOTS, ZOMBIES and CLOCKS queues), and both
are posted *before* the write that makes them due (a commit, the join that
starts the match, the creation of an all-bot match): if this replica dies
between the two, the entry is already queued; if the write never lands, the
entry is dropped (or posted again) when it is acquired (see
senet.service.bots_api and senet.service.timeouts).

:func:`due_posts` works out the entries (a pure function); :func:`post` writes
them; :func:`post_due` is both, for the writes that decide nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from senet.service.access import MatchAccess, bot_of, control_of, is_started
from senet.service.clocks import Clock, started_ms
from senet.service.records import MatchMeta
from senet.store import BotDecisionRef
from senet.store.base import CLOCKS, BotQueue, now_ms


@dataclass(frozen=True)
class DuePost:
    """One queue entry to post: ``ref``'s decision, played by ``strategy``
    ("timeout" on the CLOCKS queue), free to lease at ``due_ms`` (None: at once)."""

    ref: BotDecisionRef
    strategy: str
    queue: BotQueue
    due_ms: int | None = None


def bot_post(
    match_id: str, meta: MatchMeta, seats: Mapping[int, str], version: int, seat: int
) -> DuePost | None:
    """``seat``'s decision at ``version`` if a bot (or the replicas' minimal
    policy) plays it, else None."""
    player = bot_of(meta, seats, seat)
    if player is None:
        return None
    queue, strategy = player
    return DuePost(BotDecisionRef(match_id, seat, version), strategy, queue)


def deadline_post(
    match_id: str,
    meta: MatchMeta,
    seats: Mapping[int, str],
    version: int,
    seat: int,
    clock: Clock | None,
) -> DuePost | None:
    """The timeout entry of ``seat``'s decision at ``version``, due at its
    deadline; None without clocks or before the match starts (see
    senet.service.clocks)."""
    control = control_of(meta)
    if clock is None or control is None or not is_started(meta, seats):
        return None
    start = started_ms(meta, seats) if not clock.turn_started_ms else 0
    due = clock.deadline_ms(control, seat, start)
    return DuePost(BotDecisionRef(match_id, seat, version), "timeout", CLOCKS, due)


def due_posts(
    match_id: str,
    meta: MatchMeta,
    seats: Mapping[int, str],
    version: int,
    deciding: Iterable[int],
    clock: Clock | None,
) -> list[DuePost]:
    """Everything ``version`` makes due for the seats in ``deciding`` (the seats
    whose decision starts with it): each one's bot decision, then its deadline.

    ``seats``: the claims as of ``version`` (those the write makes, for a join);
    ``clock``: the clocks at ``version`` (None: no clocks).
    """
    posts = []
    for seat in deciding:
        for entry in (
            bot_post(match_id, meta, seats, version, seat),
            deadline_post(match_id, meta, seats, version, seat, clock),
        ):
            if entry is not None:
                posts.append(entry)
    return posts


async def post(access: MatchAccess, posts: Iterable[DuePost]) -> None:
    """Write ``posts`` to their queues, in order, stamped with the time of each
    post; bot workers waiting on this replica wake at once for a bot decision
    (other replicas' posts are polled)."""
    for entry in posts:
        await access.store.post_bot_decision(
            entry.ref, entry.strategy, now_ms(), entry.queue, entry.due_ms
        )
        if entry.queue != CLOCKS:
            access.ring_bot_bell()


async def post_due(
    access: MatchAccess,
    match_id: str,
    meta: MatchMeta,
    seats: Mapping[int, str],
    version: int,
    deciding: Iterable[int],
    clock: Clock | None,
) -> None:
    """Post what ``version`` makes due for ``deciding`` (see :func:`due_posts`),
    before the write that makes it due."""
    await post(access, due_posts(match_id, meta, seats, version, deciding, clock))
