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

from senet.service.bots_api import BotDecisions, LeasedDecision
from senet.service.matches import Caller, MatchService
from senet.service.settings import Settings
from senet.store.memory import MemoryStore
from tests.service.conftest import head_state, service_match

WORKER = Caller(is_admin=True, is_worker=True)


class SwapSeenLateStore(MemoryStore):
    """Once ``bots`` is set, a worker acquires just before the next claim swap
    (what it was handed: ``early``)."""

    def __init__(self) -> None:
        super().__init__()
        self.bots: BotDecisions | None = None
        self.early: list[LeasedDecision] | None = None

    async def swap_seat_claim(
        self, match_id: str, seat: int, expected_json: str, new_json: str | None
    ) -> bool:
        if self.bots is not None and self.early is None:
            self.early = await self.bots.acquire(WORKER, "early", 10, 5000)
        return await super().swap_seat_claim(match_id, seat, expected_json, new_json)


async def test_a_worker_that_looks_before_the_claim_swap_gets_the_decision_later() -> None:
    store = SwapSeenLateStore()
    service = MatchService(store, Settings())
    bots = BotDecisions(service)
    match_id, callers = await service_match(
        service, 2, 3, leave_policy="bot", leave_bot_strategy="greedy"
    )
    stored, state = await head_state(service, match_id)
    mover = state.current_seat()
    assert mover is not None

    store.bots = bots
    outcome, _summary = await service.leave(callers[mover], match_id)

    assert outcome == "taken_over"
    assert store.early == []  # the worker saw a person's seat
    # The entry was set aside, not dropped: a later acquire is handed it.
    handed = await bots.acquire(WORKER, "late", 10, 5000, wait_ms=5000)
    assert [(d.match_id, d.seat, d.version) for d in handed] == [(match_id, mover, stored.version)]
