"""A bot decision released while still due is handed back, not dropped: a
worker that gives a decision up without acting cannot stall the match."""

from __future__ import annotations

import asyncio

import pytest

from senet.service import bots_api
from senet.service.bots_api import BotDecisions, LeasedDecision
from senet.service.matches import Caller, MatchService
from senet.service.records import SeatPlan
from senet.service.settings import Settings
from senet.store.memory import MemoryStore

WORKER = Caller(is_worker=True)
RETRY_MS = 50


async def _bot_match(service: MatchService) -> str:
    plans = [SeatPlan("bot", "random")] * 3
    created = await service.create_match(Caller(is_admin=True), "archeos", {}, plans, seed=7)
    return created.summary.match_id


async def _act(service: MatchService, decision: LeasedDecision) -> None:
    caller = Caller(token=decision.token)
    legal = await service.legal_actions(caller, decision.match_id)
    notation = legal.actions[0].notation
    request_id = f"v{decision.version}"
    await service.submit(caller, decision.match_id, notation, None, request_id, None, lambda o: o)


def _refs(decisions: list[LeasedDecision]) -> list[tuple[str, int, int]]:
    return [(d.match_id, d.seat, d.version) for d in decisions]


async def test_a_decision_given_up_comes_back_after_the_retry_delay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bots_api, "GIVEN_UP_RETRY_MS", RETRY_MS)
    service = MatchService(MemoryStore(), Settings())
    bots = BotDecisions(service)
    await _bot_match(service)
    given_up = await bots.acquire(WORKER, "quitter", 1, lease_ms=60_000)
    assert len(given_up) == 1
    await bots.release(WORKER, "quitter", _refs(given_up))  # without acting
    assert await bots.acquire(WORKER, "other", 1, lease_ms=60_000) == []  # not at once
    await asyncio.sleep(2 * RETRY_MS / 1000)
    again = await bots.acquire(WORKER, "other", 1, lease_ms=60_000)
    assert _refs(again) == _refs(given_up)  # the same seat, at the same version

    await _act(service, again[0])
    await bots.release(WORKER, "other", _refs(again))  # done: dropped
    await asyncio.sleep(2 * RETRY_MS / 1000)
    following = await bots.acquire(WORKER, "other", 8, lease_ms=60_000)
    assert all(d.version > again[0].version for d in following)


@pytest.mark.slow
async def test_bots_that_give_up_every_other_decision_still_finish_their_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bots_api, "GIVEN_UP_RETRY_MS", 1)
    service = MatchService(MemoryStore(), Settings())
    bots = BotDecisions(service)
    match_id = await _bot_match(service)
    skipped = 0
    for turn in range(10_000):
        decisions = await bots.acquire(WORKER, "w", 8, lease_ms=60_000, wait_ms=1000)
        if not decisions:
            break
        for decision in decisions:
            if turn % 2:
                await _act(service, decision)
            else:
                skipped += 1
        await bots.release(WORKER, "w", _refs(decisions))
    snapshot = await service.get(Caller(), match_id)
    assert snapshot.summary.status == "finished" and skipped > 0
