"""Watching and playing a match: WatchMatch and PlayMatch streams.

A stream starts with a snapshot of the match (unless it resumes after a version
it had), then follows the match's feed (:mod:`senet.service.feeds`): each
committed batch becomes one item through
:class:`~senet.service.stream_steps.StreamSteps`, and heartbeats fill the
silences. A PlayMatch stream also carries its seat's prompts
(:mod:`senet.service.prompts`). A stream opened with a seat's token ends with
BadToken as soon as that token is revoked.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from senet.games import get_game
from senet.service import errors
from senet.service.access import Caller, MatchAccess, is_started, meta_of, seat_of
from senet.service.prompts import seat_prompt
from senet.service.stream_steps import PlayItem, Sink, StreamSteps, WatchItem
from senet.service.views import Heartbeat, MatchSnapshot
from senet.store import StoredMatch


async def watch(
    access: MatchAccess, caller: Caller, match_id: str, from_version: int | None
) -> AsyncIterator[WatchItem]:
    """A snapshot (unless resuming), then every update, redacted; heartbeats when idle.

    Ends after the update that finishes the match. A stream opened with a
    seat's token ends with BadToken as soon as that token is revoked (the
    seat was handed to another bot worker, left or taken over), before any
    later update private to the seat: see :func:`stream_steps.still_holds`.
    """
    stored = await access.load(match_id)
    seat = seat_of(stored, caller)
    async for item, _ in stream_from(access, stored, seat, from_version, None, None):
        assert item is not None
        yield item


async def play(
    access: MatchAccess,
    caller: Caller,
    match_id: str,
    from_version: int | None,
    sink: Sink | None = None,
) -> AsyncIterator[PlayItem]:
    """:func:`watch` for a seat, with its prompts: each item comes with the
    seat's legal actions when the seat must decide at its version (and, when
    resuming, a prompt at ``from_version`` itself comes first, alone).

    The turn is checked on what the item says (the seats to decide) before any
    work, so the other seats' streams cost nothing per update; the seat's own
    prompt comes from this replica's cached head when it holds that version (the
    usual case: it committed the action), else from the store.

    Where several seats decide at once, a seat is prompted when it starts to
    decide and after each of its own moves, not when another deciding seat
    moves: its open prompt still stands then (see
    :func:`senet.service.submissions.decision_stands`).

    ``sink``: takes the items made as commits are published (see
    :class:`StreamSteps`), instead of their being yielded.
    """
    stored = await access.load(match_id)
    seat = access.acting_seat(stored, caller)
    if from_version is not None:
        # Updates start after from_version: if the seat must decide at it, no
        # update would ever prompt it (the other seats wait on it).
        game_id = meta_of(stored).game_id
        claim = stored.seats[seat]
        legal = await seat_prompt(access, caller, game_id, match_id, from_version, seat, claim)
        if legal is not None:
            yield PlayItem(None, legal)
    async for item in stream_from(access, stored, seat, from_version, caller, sink):
        yield item


async def stream_from(
    access: MatchAccess,
    stored: StoredMatch,
    seat: int | None,
    from_version: int | None,
    prompted: Caller | None,
    sink: Sink | None,
) -> AsyncIterator[PlayItem]:
    """:func:`watch` of a match loaded at the stream's start, for ``seat``;
    with ``prompted`` (the seat's caller), each item with the seat's prompt
    when it must decide (see :func:`play`).

    ``sink``: where the stream's items go when a commit is pushed to it
    (see :class:`StreamSteps`); those items are not yielded.
    """
    meta = meta_of(stored)
    claim_json = None if seat is None else stored.seats[seat]
    game = get_game(meta.game_id)
    steps = StreamSteps(access, game, stored.match_id, seat, claim_json, prompted, sink)
    # A stream that saw the match before its start reads from before it:
    # the start comes first, as a snapshot of the real deal (and the prompt).
    before_start = not is_started(meta, stored.seats) and not from_version
    if from_version is None:
        state = access.read_state(game, stored)
        snapshot = MatchSnapshot(access.summary(stored, meta, state), state.view(seat), seat)
        deciding = snapshot.summary.deciding
        legal = None
        if prompted is not None and claim_json is not None and seat in deciding:
            # The snapshot read off the cached head (read_state) is used
            # before any await: its prompt then comes from that same head, at once.
            legal = await seat_prompt(
                access, prompted, meta.game_id, stored.match_id, stored.version, seat, claim_json
            )
        yield PlayItem(snapshot, legal)
        steps.was_deciding = seat in deciding
        steps.cursor = stored.version
        if state.is_over():
            return
        if before_start:
            steps.cursor = -1
    else:
        if from_version > stored.version:
            raise errors.VersionAhead(
                f"from_version {from_version} is ahead of the match (version {stored.version})",
                {"currentVersion": stored.version},
            )
        steps.cursor = -1 if before_start else from_version
        if from_version == stored.version and stored.status == "finished":
            return
    push = None if sink is None else steps.push
    feed = access.feeds.updates(
        stored.match_id, steps.cursor, access.settings.heartbeat_s, seat, push
    )
    async for batch in feed:
        if batch is None:
            yield PlayItem(Heartbeat(max(steps.cursor, 0)), None)
            continue
        item = await steps.later(batch)
        if item is not None:
            yield item
        if steps.done:
            return
