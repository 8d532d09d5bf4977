"""What a commit must write and post: a pure function, no store, no clock read.

An applied action (the :class:`UpdateRecord` the rules core's step made) becomes a
commit in :func:`plan_commit`: the clocks are charged, the update is stamped with
the claims the commit checks and who chose the action, and the log entry, the
update and the new head document become the store's :class:`CommitRequest`.
Beside it come the queue entries the new version makes due (bot decisions and
deadlines, :mod:`senet.service.dues`), to be posted before the request is sent.
:mod:`senet.service.submissions` carries the plan out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from senet.games import get_game
from senet.service.access import clock_view, control_of
from senet.service.cache import CachedMatch
from senet.service.clocks import Clock, started_ms
from senet.service.dues import DuePost, due_posts
from senet.service.records import HeadDocument, UpdateRecord, action_origin, claim_fingerprint
from senet.store import CommitRequest


@dataclass(slots=True)
class CommitPlan:
    """Everything one commit writes and posts (a per-call value:
    slotted, not frozen, see docs/performance.md)."""

    #: What the store is asked to write, on top of the entry's version.
    request: CommitRequest
    #: The update as committed: with the clocks' view, the claims the commit
    #: checks, the request id and the action's origin.
    record: UpdateRecord
    #: The clocks after the action (None: the match has no clocks).
    clock: Clock | None
    #: The queue entries the new version makes due, to post before the commit.
    posts: tuple[DuePost, ...]


def request_key(seat: int, request_id: str) -> str:
    """How the store files a seat's request id: a retry finds its original version."""
    return f"{seat}:{request_id}"


def plan_commit(
    match_id: str,
    entry: CachedMatch,
    record: UpdateRecord,
    before: Sequence[int],
    now: float,
    *,
    request_id: str,
    timed_out: bool = False,
) -> CommitPlan:
    """The commit of ``entry``'s applied state as ``record`` (at ``entry.version``).

    Args:
        match_id: The match.
        entry: The match as the action found it, its state already changed in
            place by the action (the state written as the new head).
        record: The update the action made (see submissions.apply_action).
        before: The seats that had to decide before the action. Of the seats
            deciding after it, those still deciding since then (other than the
            mover) keep their queued bot decision and their deadline; the
            others get new ones.
        now: The commit's time (seconds since the epoch): the log entry's, the
            head's, and the clocks' charge.
        request_id: The seat's request id (the store files it for retries).
        timed_out: The action is the fallback of a timeout: the clocks count
            it as one (and give no increment), and the update is marked as the
            timeout's. Otherwise the acting seat's claim says who chose the
            action (its holder, or a takeover: :func:`action_origin`).
    """
    meta, seats, state = entry.meta, entry.seats, entry.state
    seat = record.seat
    status = record.status
    next_seat = record.current_seat if status == "active" else None
    deciding = record.deciding_seats() if status == "active" else ()
    waiting = {s for s in before if s != seat}
    clock = entry.clock
    clock_data = record.clock
    control = control_of(meta)
    if clock is not None and control is not None:
        start = 0 if clock.turn_started_ms else started_ms(meta, seats)
        clock = clock.after(control, seat, int(now * 1000), start, timed_out, before, deciding)
        view = clock_view(meta, seats, clock, deciding)
        clock_data = None if view is None else view.to_data()
    fresh = [due for due in deciding if due not in waiting]
    posts = due_posts(match_id, meta, seats, record.version, fresh, clock)
    # A person's seat may be taken over (its player left): the commit checks
    # that the claim it decided on is still there (bot seats stay bot seats).
    check_next = next_seat is not None and meta.seats[next_seat].kind == "open"
    claims = {str(seat): claim_fingerprint(seats[seat])}
    if check_next and next_seat is not None and next_seat in seats:
        claims[str(next_seat)] = claim_fingerprint(seats[next_seat])
    origin, strategy = action_origin(seats[seat], timed_out)
    record = record.committed(clock_data, claims, request_id, origin, strategy)
    rules = get_game(meta.game_id).info.rules_version
    head = HeadDocument(
        state.snapshot_data(), now, None if clock is None else clock.to_data(), rules, entry.dealt
    )
    request = CommitRequest(
        expected_version=entry.version,
        request_key=request_key(seat, request_id),
        log_entry_json=record.log_entry_json(request_id, now, rules),
        events_json=record.to_json(),
        snapshot_json=head.to_json(),
        status=status,
        seat=seat,
        seat_claim_json=seats[seat],
        next_seat=next_seat if check_next else None,
        next_seat_claim_json=(
            seats.get(next_seat) if next_seat is not None and check_next else None
        ),
    )
    return CommitPlan(request, record, clock, tuple(posts))
