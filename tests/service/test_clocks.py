"""Turn clocks: a clocked match whose players never act finishes by timeouts.

Deadlines live in the store and any live replica enforces them: the same holds
with the replica that served the last action SIGKILLed mid-match (two
``senet serve`` processes over real Redis). The timeout policies: the server
plays the decision (and hands a seat to a bot after N timeouts in a row), or the
seat resigns.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from senet.bots.worker import BotWorker
from senet.client.client import SenetClient
from senet.service.server import RunningServer
from senet.v1 import match_pb2
from tests.service.conftest import WORKER_KEY, ServerProcess

FAST = match_pb2.TimeControl(decision_ms=30)


async def _finish(
    client: SenetClient, match_id: str, within_s: float = 90
) -> match_pb2.MatchSummary:
    """Watch the match to its end; the final summary."""
    async with asyncio.timeout(within_s):
        async for _ in client.watch(match_id):
            pass
    return (await client.get(match_id)).match


@pytest.mark.slow
async def test_a_clocked_match_whose_players_never_act_finishes_by_timeouts(
    server: RunningServer,
) -> None:
    async with SenetClient(f"127.0.0.1:{server.port}") as client:
        match_id = await client.create_match("mykerinos", 2, seed=4, time_control=FAST)
        created = await client.get(match_id)
        assert created.match.time_control.decision_ms == 30
        assert not created.match.clock.HasField("deadline_ms")  # not started yet
        await client.join(match_id, "Ann")
        bob = await client.join(match_id, "Bob")
        started = await bob.get()
        assert started.match.clock.HasField("deadline_ms")
        origins = set()
        async with asyncio.timeout(90):
            async for message in client.watch(match_id):
                if message.WhichOneof("message") == "update":
                    origins.add((message.update.origin, message.update.origin_strategy))
        final = (await client.get(match_id)).match
        assert final.status == match_pb2.MATCH_STATUS_FINISHED
        assert max(final.clock.timeouts_in_row) > 0
        assert sorted(final.places) in ([1, 2], [1, 1])
        # Nobody acted: every move is marked as the timeout fallback's, live and exported.
        assert origins == {(match_pb2.ACTION_ORIGIN_TIMEOUT, "random")}
        export = await client.export(match_id)
        exported = {(a.origin, a.origin_strategy) for a in export.actions}
        assert exported == {(match_pb2.ACTION_ORIGIN_TIMEOUT, "random")}
        assert [(s.display_name, s.kind) for s in export.seats] == [
            ("Ann", match_pb2.SEAT_KIND_OPEN),
            ("Bob", match_pb2.SEAT_KIND_OPEN),
        ]


@pytest.mark.slow
async def test_every_update_carries_the_clocks(server: RunningServer) -> None:
    control = match_pb2.TimeControl(reserve_ms=60_000, increment_ms=1000, decision_ms=40)
    async with SenetClient(f"127.0.0.1:{server.port}") as client:
        match_id = await client.create_match("mykerinos", 2, seed=8, time_control=control)
        await client.join(match_id, "Ann")
        await client.join(match_id, "Bob")
        seen = 0
        async with asyncio.timeout(60):
            async for message in client.watch(match_id):
                if message.WhichOneof("message") == "update":
                    clock = message.update.clock
                    assert len(clock.remaining_ms) == 2
                    assert all(0 < r <= 60_000 for r in clock.remaining_ms)
                    if message.update.status == match_pb2.MATCH_STATUS_ACTIVE:
                        assert clock.HasField("deadline_ms")
                    seen += 1
        assert seen > 0


@pytest.mark.slow
async def test_after_n_timeouts_in_a_row_a_bot_takes_the_seat(server: RunningServer) -> None:
    target = f"127.0.0.1:{server.port}"
    control = match_pb2.TimeControl(decision_ms=30, handover_after=2, handover_strategy="greedy")
    async with SenetClient(target) as client:
        match_id = await client.create_match("mykerinos", 2, seed=6, time_control=control)
        await client.join(match_id, "Ann")
        await client.join(match_id, "Bob")
        worker = BotWorker(target, worker_key=WORKER_KEY, capacity=2, lease_ms=2000)
        stop = asyncio.Event()
        task = asyncio.create_task(worker.run(stop))
        try:
            final = await _finish(client, match_id)
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)
        assert final.status == match_pb2.MATCH_STATUS_FINISHED
        assert [s.takeover_strategy for s in final.seats] == ["greedy", "greedy"]
        assert worker.moves > 0


@pytest.mark.slow
async def test_the_resign_policy_resigns_the_seat_that_times_out(server: RunningServer) -> None:
    control = match_pb2.TimeControl(decision_ms=30, timeout_policy=match_pb2.TIMEOUT_POLICY_RESIGN)
    async with SenetClient(f"127.0.0.1:{server.port}") as client:
        match_id = await client.create_match("mykerinos", 2, seed=2, time_control=control)
        await client.join(match_id, "Ann")
        await client.join(match_id, "Bob")
        final = await _finish(client, match_id)
        assert final.status == match_pb2.MATCH_STATUS_FINISHED
        assert all(s.resigned for s in final.seats)  # both idle: both resigned in turn


async def test_time_controls_are_checked(server: RunningServer) -> None:
    async with SenetClient(f"127.0.0.1:{server.port}") as client:
        for bad in (
            match_pb2.TimeControl(),
            match_pb2.TimeControl(increment_ms=5),
            match_pb2.TimeControl(decision_ms=10, handover_strategy="oracle"),
            match_pb2.TimeControl(
                decision_ms=10, handover_after=2, timeout_policy=match_pb2.TIMEOUT_POLICY_RESIGN
            ),
        ):
            with pytest.raises(Exception) as caught:
                await client.create_match("mykerinos", 2, time_control=bad)
            assert getattr(caught.value, "reason", "") == "MALFORMED_REQUEST"


@pytest.fixture
async def replicas(server_processes: list[ServerProcess]) -> AsyncIterator[list[ServerProcess]]:
    yield server_processes


@pytest.mark.slow
async def test_killing_the_serving_replica_loses_no_timeout(
    replicas: list[ServerProcess],
) -> None:
    """Two replicas over real Redis; the one that served every call so far dies."""
    doomed, survivor = replicas
    async with SenetClient(doomed.address) as via_doomed, SenetClient(survivor.address) as via_b:
        match_id = await via_doomed.create_match(
            "mykerinos", 2, seed=9, time_control=match_pb2.TimeControl(decision_ms=150)
        )
        await via_doomed.join(match_id, "Ann")
        await via_doomed.join(match_id, "Bob")
        # Let some timeouts happen, then kill the replica mid-match (SIGKILL).
        async with asyncio.timeout(30):
            while (await via_b.get(match_id)).match.version < 3:
                await asyncio.sleep(0.1)
        await doomed.kill()
        final = await _finish(via_b, match_id, within_s=120)
        assert final.status == match_pb2.MATCH_STATUS_FINISHED
