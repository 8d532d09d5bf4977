"""A timeout whose commit meets a changed seat claim is applied on fresh data,
never dropped.

A timeout's commit checks the claims it decided on: the acting seat's and the
next person's. Another seat's claim can change between the keeper's load and
that commit: the other player's seat was just handed to a bot (its own second
timeout in a row), or a bot worker was handed its decision. The decision that
timed out is still due then; dropping its entry would leave a match whose idle
player no one acts for, waiting for good.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable

from senet.service.clocks import TimeControl
from senet.service.matches import MatchService
from senet.service.records import SeatClaim, new_token, token_hash
from senet.service.settings import Settings
from senet.store import CommitOutcome, CommitRequest
from senet.store.memory import MemoryStore
from tests.service.conftest import head_state, service_match

DECISION_MS = 30


class ClaimChangingStore(MemoryStore):
    """Before the next commit is checked, swaps the claim of a seat it checks
    (the next seat's when it checks one, else the mover's) for another token's."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.changed: int | None = None

    def start_commit(self, match_id: str, request: CommitRequest) -> Awaitable[CommitOutcome]:
        if not self.armed:
            return super().start_commit(match_id, request)
        self.armed = False
        seat = request.next_seat if request.next_seat is not None else request.seat
        assert seat is not None
        self.changed = seat
        commit = super().start_commit

        async def changed_then_committed() -> CommitOutcome:
            claim = SeatClaim.from_json((await self.load(match_id)).seats[seat])
            other = dataclasses.replace(claim, token_hash=token_hash(new_token()))
            await self.replace_seat_claim(match_id, seat, other.to_json())
            return await commit(match_id, request)

        return changed_then_committed()


async def test_a_timeout_whose_commit_meets_a_changed_claim_is_applied() -> None:
    store = ClaimChangingStore()
    service = MatchService(store, Settings())
    control = TimeControl(decision_ms=DECISION_MS)
    match_id, _callers = await service_match(service, 2, 6, time_control=control)
    stored, state = await head_state(service, match_id)
    seat = state.current_seat()
    assert seat is not None
    await asyncio.sleep(2 * DECISION_MS / 1000)  # past the deadline

    store.armed = True
    verdict, _ = await service.time_out(match_id, seat, stored.version)

    assert store.changed is not None  # the claim did change under the first commit
    assert verdict == "done"
    after = await store.load(match_id)
    assert after.version == stored.version + 1
