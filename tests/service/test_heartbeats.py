"""Idle streams get heartbeats: one heartbeat period after their last message,
never sooner, and none while updates keep coming."""

from __future__ import annotations

import asyncio
import time

from senet.service.matches import MatchService
from senet.service.settings import Settings
from senet.service.views import Heartbeat, MatchSnapshot, MatchUpdate
from senet.store.memory import MemoryStore
from tests.service.conftest import service_match

HEARTBEAT_S = 0.1


async def test_an_idle_stream_gets_heartbeats_no_sooner_than_their_period() -> None:
    service = MatchService(MemoryStore(), Settings(heartbeat_s=HEARTBEAT_S))
    match_id, callers = await service_match(service, 2, seed=3)
    stream = aiter(service.watch(callers[0], match_id, None))
    assert isinstance(await anext(stream), MatchSnapshot)
    last = time.monotonic()
    for _ in range(3):
        item = await asyncio.wait_for(anext(stream), 20 * HEARTBEAT_S)
        now = time.monotonic()
        assert isinstance(item, Heartbeat) and item.version == 0
        assert now - last >= HEARTBEAT_S
        last = now


async def test_a_stream_that_keeps_receiving_updates_gets_no_heartbeat() -> None:
    service = MatchService(MemoryStore(), Settings(heartbeat_s=HEARTBEAT_S))
    match_id, callers = await service_match(service, 2, seed=3)
    stream = aiter(service.watch(callers[0], match_id, None))
    assert isinstance(await anext(stream), MatchSnapshot)
    for version in range(12):
        legal = await service.legal_actions(callers[0], match_id)
        if not legal.actions:
            legal = await service.legal_actions(callers[1], match_id)
        caller = callers[legal.seat]
        notation = legal.actions[0].notation
        await service.submit(caller, match_id, notation, version, f"r{version}", None, lambda o: o)
        started = time.monotonic()
        item = await asyncio.wait_for(anext(stream), 20 * HEARTBEAT_S)
        if time.monotonic() - started < HEARTBEAT_S / 2:  # not held up by a busy machine
            assert isinstance(item, MatchUpdate) and item.version == version + 1
        await asyncio.sleep(HEARTBEAT_S / 4)
