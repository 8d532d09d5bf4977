"""A seat's queued decision survives a commit that posted ahead and never landed.

The decision queues keep one entry per seat. A commit posts the entries of the
decisions it makes due *before* it writes (so a replica dying between the two
loses nothing), and that post replaces the seat's entry. When the seat that
moves must decide again after its move (a turn of several steps), the post
replaces the entry of the very decision being made; should the commit then
fail (the store went away mid-write), the decision is still due and its entry
names a version that will never come. An acquire that finds such an entry,
once it is old enough that its write cannot still be on the way, posts the
decision again at the match's version; a worker that acts at the stored version
while another replica's newer post was lost is served the same way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable

import pytest

from senet.service import bots_api
from senet.service.bots_api import BotDecisions
from senet.service.clocks import TimeControl
from senet.service.matches import LANDED_MS, Caller, MatchService
from senet.service.records import SeatPlan
from senet.service.settings import Settings
from senet.service.views import SubmitOutcome
from senet.store import BotDecisionRef, CommitOutcome, CommitRequest, StoreUnavailable
from senet.store.base import CLOCKS
from senet.store.memory import MemoryStore
from tests.service.conftest import head_state, service_match

WORKER = Caller(is_admin=True, is_worker=True)
GAME = "archeos"


class FailingCommitStore(MemoryStore):
    """The next commit, once armed, fails without landing."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False

    def start_commit(self, match_id: str, request: CommitRequest) -> Awaitable[CommitOutcome]:
        if not self.armed:
            return super().start_commit(match_id, request)
        self.armed = False

        async def failed() -> CommitOutcome:
            raise StoreUnavailable("the store went away mid-commit")

        return failed()


def _same(outcome: SubmitOutcome) -> SubmitOutcome:
    return outcome


async def test_a_decision_whose_commit_failed_after_posting_ahead_is_served_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = FailingCommitStore()
    service = MatchService(store, Settings())
    bots = BotDecisions(service)
    plans = [SeatPlan(kind="bot", bot_strategy="random")] * 2
    created = await service.create_match(Caller(is_admin=True), GAME, {}, plans, 7)
    match_id = created.summary.match_id
    failed_at: tuple[int, int] | None = None
    for _step in range(400):
        leased = await bots.acquire(WORKER, "w", 10, 5000, wait_ms=1000)
        assert len(leased) == 1, leased
        decision = leased[0]
        _stored, state = await head_state(service, match_id)
        action = state.legal_actions_for(decision.seat)[0]
        after = state.clone()
        after.apply(decision.seat, action)
        goes_on = not after.is_over() and decision.seat in after.deciding_seats()
        store.armed = goes_on
        try:
            await service.submit(
                Caller(token=decision.token), match_id, action.notation(),
                decision.version, f"r{decision.version}", None, _same,
            )  # fmt: skip
        except StoreUnavailable:
            failed_at = (decision.seat, decision.version)
        await bots.release(WORKER, "w", [(match_id, decision.seat, decision.version)])
        if failed_at is not None:
            break
    assert failed_at is not None, "no step of a turn of several steps within 400 decisions"
    assert (await store.load(match_id)).version == failed_at[1]  # the commit did not land

    monkeypatch.setattr(bots_api, "LANDED_MS", 0)  # its write is old enough not to come
    served = await bots.acquire(WORKER, "w2", 10, 5000, wait_ms=3000)
    assert [(d.match_id, d.seat, d.version) for d in served] == [(match_id, *failed_at)]


async def test_a_timeout_whose_commit_failed_after_posting_ahead_is_posted_again() -> None:
    store = MemoryStore()
    service = MatchService(store, Settings())
    control = TimeControl(decision_ms=30)
    match_id, _callers = await service_match(service, 2, 5, time_control=control)
    stored, state = await head_state(service, match_id)
    mover = state.current_seat()
    assert mover is not None
    # What a commit that posted ahead and then failed leaves: the seat's entry
    # names the next version, posted long ago.
    long_ago = int(time.time() * 1000) - 10 * LANDED_MS
    ahead = BotDecisionRef(match_id, mover, stored.version + 1)
    await store.post_bot_decision(ahead, "timeout", long_ago, CLOCKS, long_ago)

    verdict, _ = await service.time_out(match_id, mover, stored.version + 1, long_ago)

    assert verdict == "gone"
    await asyncio.sleep(2 * control.decision_ms / 1000)  # past the deadline
    now = int(time.time() * 1000)
    leased = await store.acquire_bot_decisions("keeper", 10, 5000, now, CLOCKS)
    assert [(d.seat, d.version) for d in leased] == [(mover, stored.version)]
    verdict, _ = await service.time_out(match_id, mover, stored.version, leased[0].posted_ms)
    assert verdict == "done"
