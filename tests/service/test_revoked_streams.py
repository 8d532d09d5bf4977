"""A stream authorizes again whenever its seat's claim changes: once a token is
revoked, its open WatchMatch/PlayMatch stream delivers none of the seat's later
private events and ends with UNAUTHENTICATED / BAD_TOKEN.

The issue's scenario: a bot seat's decision is re-leased to another worker (a new
token replaces the old one's claim) while a stream opened with the old token is
still open; the hidden card draws of that seat must stop reaching it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from senet.service import errors
from senet.service.bots_api import BotDecisions, LeasedDecision
from senet.service.matches import Caller, MatchService, WatchItem
from senet.service.records import SeatPlan, UpdateRecord
from senet.service.settings import Settings
from senet.service.views import LegalActions, MatchUpdate
from senet.store.memory import MemoryStore

WORKER = Caller(is_worker=True)


async def _play_one(service: MatchService, decision: LeasedDecision) -> None:
    """Play ``decision`` (the first legal action) with its token."""
    caller = Caller(token=decision.token)
    legal = await service.legal_actions(caller, decision.match_id)
    notation = str(legal.actions[0].notation)
    await service.submit(
        caller, decision.match_id, notation, None, f"v{decision.version}", None, lambda o: o
    )


async def _collect(stream: object, into: list[WatchItem]) -> BaseException | None:
    try:
        async for item in stream:  # type: ignore[attr-defined]
            into.append(item)
    except errors.ServiceError as exc:
        return exc
    return None


async def _collect_played(
    service: MatchService, caller: Caller, match_id: str, into: list[WatchItem]
) -> BaseException | None:
    """A PlayMatch stream's items, pushed to its sink or pulled from it, as a
    compact stream gets them; its error, or None once the match is over."""
    over = asyncio.Event()

    def sink(item: WatchItem | None, prompt: LegalActions | None) -> None:
        if item is None:
            over.set()
        else:
            into.append(item)

    async def pull() -> BaseException | None:
        try:
            async for step in service.play(caller, match_id, None, sink):
                if step.item is not None:
                    into.append(step.item)
        except errors.ServiceError as exc:
            return exc
        return None

    pulling = asyncio.create_task(pull())
    ending = asyncio.create_task(over.wait())
    await asyncio.wait([pulling, ending], return_when=asyncio.FIRST_COMPLETED)
    ending.cancel()
    if not pulling.done():  # the end was pushed: the generator waits on
        pulling.cancel()
        return None
    return pulling.result()


def _stream(
    kind: str, service: MatchService, caller: Caller, match_id: str, into: list[WatchItem]
) -> Coroutine[Any, Any, BaseException | None]:
    if kind == "watch":
        return _collect(service.watch(caller, match_id, None), into)
    return _collect_played(service, caller, match_id, into)


STREAMS = pytest.mark.parametrize("kind", ["watch", "play"])


@pytest.mark.slow
@STREAMS
async def test_a_re_leased_bot_seat_s_old_token_stream_gets_no_private_draws(kind: str) -> None:
    service = MatchService(MemoryStore(), Settings(heartbeat_s=0.05))
    bots = BotDecisions(service)
    plans = [SeatPlan("bot", "random")] * 3
    created = await service.create_match(Caller(is_admin=True), "archeos", {}, plans, seed=7)
    match_id = created.summary.match_id
    first = (await bots.acquire(WORKER, "a", 1, lease_ms=100))[0]
    seat, old_token = first.seat, first.token
    received: list[WatchItem] = []
    watcher = asyncio.create_task(
        _stream(kind, service, Caller(token=old_token), match_id, received)
    )
    await asyncio.sleep(0.25)  # worker "a" stalls past its lease
    again = await bots.acquire(WORKER, "b", 1, lease_ms=60_000)
    assert [(d.seat, d.version) for d in again] == [(seat, first.version)]
    assert again[0].token != old_token
    revoked_at = first.version
    decisions = again
    while decisions:  # worker "b" plays the match out; no decision waits long
        for decision in decisions:
            await _play_one(service, decision)
            await bots.release(WORKER, "b", [(match_id, decision.seat, decision.version)])
        decisions = await bots.acquire(WORKER, "b", 8, lease_ms=60_000, wait_ms=1000)
    ended = await asyncio.wait_for(watcher, 10)

    assert isinstance(ended, errors.BadToken) and "revoked" in str(ended)
    updates = [item for item in received if isinstance(item, MatchUpdate)]
    assert all(update.version <= revoked_at for update in updates)
    # The test means something: the seat did draw hidden cards after the re-lease.
    later = await service.store.events_after(match_id, revoked_at, 10_000)
    private = [
        event
        for batch in later
        for event in UpdateRecord.from_json(batch.events_json).events_for(seat)
        if event.audience is not None
    ]
    assert private


@STREAMS
@pytest.mark.parametrize("leave_policy", ["resign", "bot"])
async def test_leaving_ends_the_stream_opened_with_the_left_seat_s_token(
    leave_policy: str, kind: str
) -> None:
    service = MatchService(MemoryStore(), Settings(heartbeat_s=0.05))
    created = await service.create_match(
        Caller(is_admin=True),
        "archeos",
        {},
        [SeatPlan("open")] * 2,
        seed=3,
        leave_policy=leave_policy,  # type: ignore[arg-type]
        leave_bot_strategy="random" if leave_policy == "bot" else "",
    )
    match_id = created.summary.match_id
    tokens = [(await service.join(Caller(), match_id, s, f"p{s}"))[1] for s in (0, 1)]
    player = (await service.get(Caller(), match_id)).summary.current_seat
    assert player is not None
    leaver = 1 - player
    received: list[WatchItem] = []
    leaver_caller = Caller(token=tokens[leaver])
    watcher = asyncio.create_task(_stream(kind, service, leaver_caller, match_id, received))
    await asyncio.sleep(0.1)
    await service.leave(Caller(token=tokens[leaver]), match_id)
    left_at = await service.version_of(match_id)
    me = Caller(token=tokens[player])
    # The player acts until the turn passes: that commit names the left seat's
    # new claim, and the old token's stream ends there.
    while (await service.get(me, match_id)).summary.current_seat == player:
        legal = await service.legal_actions(me, match_id)
        notation = str(legal.actions[0].notation)
        await service.submit(me, match_id, notation, None, f"r{legal.version}", None, lambda o: o)
    ended = await asyncio.wait_for(watcher, 10)
    assert isinstance(ended, errors.BadToken)
    assert all(u.version <= left_at for u in received if isinstance(u, MatchUpdate))
    assert left_at < await service.version_of(match_id)
