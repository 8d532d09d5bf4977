"""Submitting an action: check, apply with the rules core, commit, replay.

:func:`submit` is SubmitAction (and a PlayMatch submission). On the fast path it
takes this replica's cached head of the match (:mod:`senet.service.cache`),
applies the action to it (:func:`apply_action`: nothing leaves the process) and
commits on top of the cached version (:func:`commit`: one store round trip).
Whenever the cache may be stale (a conflict, an unknown token, a rules error)
the slow path loads the match and decides again on fresh data, up to
``COMMIT_RETRIES`` times. What a commit writes and posts is planned by the pure
:func:`senet.service.commit_plan.plan_commit`; this module carries it out.

A retried request id gets its original outcome (:func:`replayed`); a decision
made at an older version may still stand when other seats deciding at once
moved meanwhile (:func:`decision_stands`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from senet.games import Event, get_game
from senet.games.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
)
from senet.games.wording import a_or_an
from senet.service import dues, errors
from senet.service.access import (
    Caller,
    MatchAccess,
    check_id,
    is_started,
    meta_of,
    parsed,
    seat_in,
    seat_of,
)
from senet.service.cache import CachedMatch
from senet.service.commit_plan import plan_commit, request_key
from senet.service.idempotency import check_request_id
from senet.service.records import UpdateRecord, token_hash
from senet.service.views import SubmitOutcome
from senet.store import EventBatch, StoredMatch

_MAX_NOTATION = 200
COMMIT_RETRIES = 5
#: How far behind a simultaneous decision may be and still stand (versions).
_SIMULTANEOUS_REACH = 64
R = TypeVar("R")


@dataclass(slots=True)
class Submission:
    """One action to submit for the seat holding the token of ``token_hash``
    (a per-call value: slotted, not frozen, see docs/performance.md)."""

    token_hash: str
    notation: str
    request_id: str
    #: The fallback action of a timed-out decision (see senet.service.handover).
    timed_out: bool = False


def another_game_message(action_game: str, match_game: str) -> str:
    """Why a typed action of another game than the match's is refused."""
    return (
        f"this action belongs to another game: {a_or_an(action_game)} action was sent "
        f"to {a_or_an(match_game)} match"
    )


async def submit(
    access: MatchAccess,
    caller: Caller,
    match_id: str,
    notation: str,
    expected_version: int | None,
    request_id: str,
    action_game: str | None,
    render: Callable[[SubmitOutcome], R],
) -> tuple[SubmitOutcome, R]:
    """Check, apply and commit one action for the caller's seat (see
    :meth:`senet.service.matches.MatchService.submit`)."""
    check_id(match_id)
    check_request_id(request_id, required=True)
    if not isinstance(notation, str) or len(notation) > _MAX_NOTATION:
        raise errors.MalformedRequest(
            f"action notation is limited to {_MAX_NOTATION} chars",
            {"field": "notation", "limit": _MAX_NOTATION, "size": len(str(notation))},
        )
    if caller.token is None:
        raise errors.TokenRequired("send the seat token as 'authorization: Bearer <token>'")
    digest = token_hash(caller.token)
    request = Submission(digest, notation, request_id)
    access.take_token(f"{match_id}:{digest}")
    cached = access.cache.get(match_id)
    if cached is not None and expected_version in (None, cached.version):
        access.cache.forget(match_id)  # this submission owns the cached state now
        try:
            done = await submit_cached(access, match_id, cached, request, action_game, render)
        except (GameError, errors.ServiceError):
            done = None  # decide again on fresh data
        if done is not None:
            return done
    attempt = 0
    while attempt < COMMIT_RETRIES:
        attempt += 1
        stored = await access.load(match_id)
        entry = parsed(stored)
        stands = False
        if expected_version is not None and expected_version != stored.version:
            # The parsed head stays out of the cache during these reads: a choice
            # that still stands decides on it, and another submission taking it
            # meanwhile would change its state in place. Otherwise it is cached.
            seat = seat_of(stored, caller)
            assert seat is not None
            replay = await replayed(access, stored, seat, request.request_id, request.notation)
            if replay is not None:
                access.cache.put(match_id, entry)
                return replay, render(replay)
            stands = await decision_stands(access, stored, seat, expected_version)
            if not stands:
                access.cache.put(match_id, entry)
                raise errors.StaleVersion(
                    f"the match is at version {stored.version}, not {expected_version}",
                    {"currentVersion": stored.version},
                )
        done = await submit_fresh(access, match_id, entry, request, action_game, render)
        if done is not None:
            return done
        # The head moved on between our load and commit: the next pass judges the
        # submission again on it (a replay, a choice that still stands, or stale).
        if stands:
            # Another seat deciding at once committed first: that happens only
            # while this choice still stands (a bounded number of times), and
            # giving up would drop a decision nobody else will make.
            attempt = min(attempt, COMMIT_RETRIES - 1)
    raise errors.StaleVersion("the match is changing too fast; retry")


async def decision_stands(
    access: MatchAccess, stored: StoredMatch, seat: int, version: int
) -> bool:
    """Whether ``seat``'s decision made at ``version`` still stands at the stored
    version, though the match moved on: the seat was one of several deciding at
    once then, and every version since was another deciding seat's choice,
    after which this seat still had to decide. Such choices are hidden from
    each other and commute (the conformance suite checks it), so the position
    the seat decided on is, for it, the current one.
    """
    behind = stored.version - version
    if version < 1 or behind < 1 or behind > _SIMULTANEOUS_REACH:
        return False
    batches = await access.store.events_after(stored.match_id, version - 1, limit=behind + 1)
    records = [UpdateRecord.from_json(batch.events_json) for batch in batches]
    if [r.version for r in records] != list(range(version, stored.version + 1)):
        return False
    first, later = records[0], records[1:]
    return (
        len(first.deciding_seats()) > 1
        and seat in first.deciding_seats()
        and all(r.seat != seat and seat in r.deciding_seats() for r in later)
    )


async def submit_cached(
    access: MatchAccess,
    match_id: str,
    entry: CachedMatch,
    request: Submission,
    action_game: str | None,
    render: Callable[[SubmitOutcome], R],
) -> tuple[SubmitOutcome, R] | None:
    """Apply on the cached head ``entry`` and commit at its version; None when
    the cache cannot decide: the token is unknown to the cached claims (they may
    predate the caller's), the cached match has not started (its claims may
    predate the last join), or the head moved on. Rules errors are raised (the
    caller decides again on fresh data).

    The caller hands over ``entry`` (it is in no cache): its state is changed
    in place, without a copy. Refused before any change, the entry goes back to
    the cache as it was; once changed, only a committed entry is cached, as the
    new head.
    """
    seat = seat_in(entry.seats, request.token_hash)
    if seat is None or not is_started(entry.meta, entry.seats):
        access.cache.put(match_id, entry)
        return None
    try:
        record, events, before = apply_action(entry, seat, request.notation, action_game)
    except (NotYourTurnError, GameOverError, IllegalActionError, MalformedActionError):
        access.cache.put(match_id, entry)
        raise
    return await commit(access, match_id, entry, request, record, events, before, render)


async def submit_fresh(
    access: MatchAccess,
    match_id: str,
    entry: CachedMatch,
    request: Submission,
    action_game: str | None,
    render: Callable[[SubmitOutcome], R],
) -> tuple[SubmitOutcome, R] | None:
    """Apply on ``entry``, just loaded from the store, and commit at its version;
    None when the head moved on meanwhile. Refusals are final: they raise
    (a rules error on a retry of a request that went through meanwhile answers
    with its outcome). ``entry`` is handed over as to :func:`submit_cached`.

    Raises:
        BadToken: the token holds no seat of the match.
        MatchNotStarted: an open seat is still unclaimed.
    """
    seat = seat_in(entry.seats, request.token_hash)
    if seat is None:
        access.cache.put(match_id, entry)
        raise errors.BadToken("this token holds no seat in this match")
    if not is_started(entry.meta, entry.seats):
        access.cache.put(match_id, entry)
        open_seats = sum(
            1
            for s, plan in enumerate(entry.meta.seats)
            if plan.kind == "open" and s not in entry.seats
        )
        raise errors.MatchNotStarted(
            "the match has not started: it waits for every open seat to be claimed",
            {"openSeats": open_seats},
        )
    try:
        record, events, before = apply_action(entry, seat, request.notation, action_game)
    except (NotYourTurnError, GameOverError, IllegalActionError):
        access.cache.put(match_id, entry)
        # A retry of a request that went through meanwhile: its outcome.
        stored = await access.load(match_id)
        replay = await replayed(access, stored, seat, request.request_id, request.notation)
        if replay is not None:
            return replay, render(replay)
        raise
    except MalformedActionError:
        access.cache.put(match_id, entry)
        raise
    return await commit(access, match_id, entry, request, record, events, before, render)


def apply_action(
    entry: CachedMatch, seat: int, notation: str, action_game: str | None
) -> tuple[UpdateRecord, list[Event], tuple[int, ...]]:
    """Apply ``seat``'s action to ``entry.state`` in place; the update it makes
    (at the next version), the core's events and the seats that had to decide
    before it.

    Checked against ``entry.legal`` when the legal actions are already known.

    Raises:
        MalformedActionError: the action is for another game or unreadable.
        NotYourTurnError, GameOverError, IllegalActionError: the rules core
            refused it. Nothing is changed when any of these is raised.
    """
    if action_game is not None and action_game != entry.meta.game_id:
        raise MalformedActionError(another_game_message(action_game, entry.meta.game_id))
    state = entry.state
    action = state.read_action(seat, notation, entry.legal)
    before = state.deciding_seats()
    events = state.apply(seat, action, legal=entry.legal)
    deciding = state.deciding_seats()
    record = UpdateRecord(
        entry.version + 1,
        seat,
        action.notation(),
        [e.to_data() for e in events],
        "finished" if state.is_over() else "active",
        state.current_seat(),
        deciding=list(deciding) if len(deciding) > 1 else None,
    )
    return record, events, before


async def commit(
    access: MatchAccess,
    match_id: str,
    entry: CachedMatch,
    request: Submission,
    record: UpdateRecord,
    events: list[Event],
    before: tuple[int, ...],
    render: Callable[[SubmitOutcome], R],
) -> tuple[SubmitOutcome, R] | None:
    """Commit ``entry``'s applied state as ``record`` at ``entry.version``; the
    outcome and its rendered reply, or None when the head moved on.

    What is written and posted is :func:`plan_commit`'s plan. The posts go
    first; the commit is sent next, and while the store confirms it this
    replica renders the reply: work the round trip would otherwise sit idle
    for. Committed, the state becomes the cached head, and its legal actions,
    which the next submission checks against, are worked out a loop turn later,
    once the reply is on its way (see :func:`legal_ahead`).
    """
    request_id = request.request_id
    plan = plan_commit(
        match_id,
        entry,
        record,
        before,
        time.time(),
        request_id=request_id,
        timed_out=request.timed_out,
    )
    record = plan.record
    seat, status = record.seat, record.status
    await dues.post(access, plan.posts)
    pending = access.store.start_commit(match_id, plan.request)
    committed = SubmitOutcome(
        game_id=entry.meta.game_id,
        version=record.version,
        events=[e for e in events if e.visible_to(seat)],
        status=status,
        duplicate=False,
        request_id=request_id,
        current_seat=record.current_seat,
    )
    try:  # while the store confirms the commit
        rendered = render(committed)
    except Exception:
        with contextlib.suppress(Exception):
            await pending  # never leave a commit unobserved
        raise
    outcome = await pending
    if outcome.result == "committed":
        if outcome.version != record.version:
            raise RuntimeError(  # the store broke its contract: INTERNAL
                f"store committed version {outcome.version}, expected {record.version}"
            )
        head = entry.committed(outcome.version, plan.clock)
        access.cache.put(match_id, head)
        # This replica's watchers (the mover's own stream among them) get the
        # update now, not after the reader's next store read.
        access.feeds.committed_here(
            match_id, EventBatch(outcome.version, plan.request.events_json), seat
        )
        if status == "active":
            asyncio.get_running_loop().call_soon(legal_ahead, access, match_id, head)
        else:
            await access.publish_lobby_entry(match_id, entry.meta, entry.seats, status)
        return committed, rendered
    if outcome.result == "duplicate":
        stored = await access.load(match_id)
        replay = await replayed(access, stored, seat, request_id, record.notation)
        return None if replay is None else (replay, render(replay))
    access.cache.forget(match_id)
    return None


def legal_ahead(access: MatchAccess, match_id: str, head: CachedMatch) -> None:
    """Work out a cached head's legal actions for the next submission's check.

    Scheduled once the reply is on its way, so no caller waits for it. Skipped
    when a submission took the head meanwhile (it builds the list itself).
    """
    if access.cache.peek(match_id) is head:
        legal = tuple(head.state.legal_actions())
        access.cache.put(match_id, head.with_legal(legal))


async def replayed(
    access: MatchAccess, stored: StoredMatch, seat: int, request_id: str, notation: str
) -> SubmitOutcome | None:
    """The original outcome of ``seat``'s already committed request, or None.

    Raises:
        RequestIdReused: that request committed another action than
            ``notation``: a new action needs a new request id, and silently
            answering with the old outcome would drop it.
    """
    version = await access.store.request_version(stored.match_id, request_key(seat, request_id))
    if version is None:
        return None
    batches = await access.store.events_after(stored.match_id, version - 1, limit=1)
    record = UpdateRecord.from_json(batches[0].events_json)
    game_id = meta_of(stored).game_id
    if not _same_action(game_id, record.notation, notation):
        raise errors.RequestIdReused(
            f"request id {request_id!r} already committed {record.notation!r} at "
            f"version {version}; send a new action with a new request id",
            {"committedVersion": version},
        )
    return SubmitOutcome(
        game_id=game_id,
        version=version,
        events=record.events_for(seat),
        status=record.status,
        duplicate=True,
        request_id=request_id,
        current_seat=record.current_seat,
    )


def _same_action(game_id: str, committed: str, sent: str) -> bool:
    """Whether ``sent`` (as a client wrote it) is the action committed as ``committed``."""
    if sent == committed:
        return True
    try:
        return get_game(game_id).parse_action(sent).notation() == committed
    except GameError:
        return False
