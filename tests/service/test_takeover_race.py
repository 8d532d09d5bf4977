"""A seat handed to a bot keeps its decision when a worker looks at it before
the handover's claim swap has landed.

A takeover (a player leaving a started match, or a seat timing out too often)
posts the seat's bot decision first and swaps the seat's claim second, so a
replica dying between the two loses nothing. A worker may acquire the entry in
between, from any replica: the stored claim is still the person's then. The
entry is young and the seat is to decide at its version, so the worker must look
again later rather than drop it: nothing else would post the decision again,
and the match would wait for its bot for good.
"""

from __future__ import annotations

import asyncio

from senet.games import get_game
from senet.service.bots_api import BotDecisions, LeasedDecision
from senet.service.matches import Caller, MatchService
from senet.service.records import SeatPlan, Snapshot
from senet.service.settings import Settings
from senet.store.memory import MemoryStore

WORKER = Caller(is_admin=True, is_worker=True)


class SwapSeenLateStore(MemoryStore):
    """Runs ``before_swap`` (once) ahead of the next seat-claim swap."""

    def __init__(self) -> None:
        super().__init__()
        self.before_swap: asyncio.Future[list[LeasedDecision]] | None = None
        self.bots: BotDecisions | None = None

    async def swap_seat_claim(
        self, match_id: str, seat: int, expected_json: str, new_json: str | None
    ) -> bool:
        if self.bots is not None and self.before_swap is None:
            self.before_swap = asyncio.get_running_loop().create_future()
            self.before_swap.set_result(await self.bots.acquire(WORKER, "early", 10, 5000))
        return await super().swap_seat_claim(match_id, seat, expected_json, new_json)


async def test_a_worker_that_looks_before_the_claim_swap_gets_the_decision_later() -> None:
    store = SwapSeenLateStore()
    service = MatchService(store, Settings())
    bots = BotDecisions(service)
    snapshot = await service.create_match(
        Caller(is_admin=True), "mykerinos", {}, [SeatPlan()] * 2, 3,
        leave_policy="bot", leave_bot_strategy="greedy",
    )  # fmt: skip
    match_id = snapshot.summary.match_id
    callers = []
    for seat in range(2):
        _seat, token, _summary = await service.join(Caller(), match_id, seat, f"p{seat}")
        callers.append(Caller(token=token))
    stored = await store.load(match_id)
    state = get_game("mykerinos").state_from_data(Snapshot.from_json(stored.snapshot_json).state)
    mover = state.current_seat()
    assert mover is not None

    store.bots = bots
    outcome, _summary = await service.leave(callers[mover], match_id)

    assert outcome == "taken_over"
    assert store.before_swap is not None and store.before_swap.result() == []
    # The entry was set aside, not dropped: a later acquire is handed it.
    handed = await bots.acquire(WORKER, "late", 10, 5000, wait_ms=5000)
    assert [(d.match_id, d.seat, d.version) for d in handed] == [(match_id, mover, stored.version)]
