"""LeaveMatch: a seat reopens before the start; after it, the leave policy applies.

Resigned seats are played out by the replicas themselves (no bot worker) and
ranked last; under the bot policy a bot worker takes the seat over. Either way
the leaver's token stops working at once.
"""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest

from senet.bots.worker import BotWorker
from senet.client.client import SeatClient, SenetClient
from senet.client.errors import SenetRpcError
from senet.service.matches import places_with_resigned
from senet.service.server import RunningServer
from senet.v1 import match_pb2, match_service_pb2
from tests.service.conftest import WORKER_KEY, refused, target_of


async def _play_out(seat: SeatClient, seed: int) -> match_service_pb2.PlayMatchResponse | None:
    rng = random.Random(seed)

    async def decide(turn: match_service_pb2.YourTurn) -> str:
        return rng.choice(list(turn.actions)).notation

    return await asyncio.wait_for(seat.play(decide), 120)


def test_resigned_seats_are_placed_after_all_others_keeping_ties() -> None:
    assert places_with_resigned([1, 2, 3], set()) == [1, 2, 3]
    assert places_with_resigned([1, 2, 3], {0}) == [3, 1, 2]
    assert places_with_resigned([2, 1, 1, 4], {1, 2}) == [1, 3, 3, 2]
    assert places_with_resigned([1, 1, 3], {0, 1}) == [2, 2, 1]


async def test_before_the_start_the_seat_reopens(server: RunningServer) -> None:
    async with SenetClient(target_of(server)) as client:
        match_id = await client.create_match("mykerinos", 3)
        ann = await client.join(match_id, "Ann")
        left = await ann.leave()
        assert left.outcome == match_service_pb2.LEAVE_OUTCOME_REOPENED
        assert not left.match.seats[ann.seat].claimed
        await refused(ann.get(), "BAD_TOKEN")
        await refused(ann.leave(), "BAD_TOKEN")  # a retry: the seat is gone already
        bob = await client.join(match_id, "Bob")
        assert bob.seat == ann.seat


@pytest.mark.slow
async def test_a_resigned_seat_is_played_out_by_the_server_and_ranked_last(
    server: RunningServer,
) -> None:
    async with SenetClient(target_of(server)) as client:
        match_id = await client.create_match("mykerinos", 2, seed=11)
        ann = await client.join(match_id, "Ann")
        bob = await client.join(match_id, "Bob")
        left = await ann.leave()
        assert left.outcome == match_service_pb2.LEAVE_OUTCOME_RESIGNED
        assert left.match.seats[ann.seat].resigned
        assert left.match.leave_policy == match_pb2.LEAVE_POLICY_RESIGN
        await refused(ann.submit("x"), "BAD_TOKEN")
        # No bot worker runs: the server plays Ann's seat to the end.
        last = await _play_out(bob, 1)
        assert last is not None and last.update.status == match_pb2.MATCH_STATUS_FINISHED
        final = await client.get(match_id)
        assert list(final.match.places) == [2, 1]
        export = await client.export(match_id)
        assert list(export.places) == [2, 1]
        by_seat = {(a.seat, a.origin, a.origin_strategy) for a in export.actions}
        assert by_seat == {
            (ann.seat, match_pb2.ACTION_ORIGIN_RESIGNED, "random"),
            (bob.seat, match_pb2.ACTION_ORIGIN_SEAT, ""),
        }


@pytest.mark.slow
async def test_under_the_bot_policy_a_bot_takes_the_seat_over(server: RunningServer) -> None:
    target = target_of(server)
    async with SenetClient(target) as client:
        match_id = await client.create_match(
            "mykerinos",
            2,
            seed=5,
            leave_policy=match_pb2.LEAVE_POLICY_BOT,
            leave_bot_strategy="greedy",
        )
        ann = await client.join(match_id, "Ann")
        bob = await client.join(match_id, "Bob")
        left = await ann.leave()
        assert left.outcome == match_service_pb2.LEAVE_OUTCOME_TAKEN_OVER
        seat_info = left.match.seats[ann.seat]
        assert seat_info.takeover_strategy == "greedy" and seat_info.display_name == "Ann"
        await refused(ann.get(), "BAD_TOKEN")
        worker = BotWorker(target, worker_key=WORKER_KEY, capacity=1, lease_ms=2000)
        stop = asyncio.Event()
        task = asyncio.create_task(worker.run(stop))
        try:
            last = await _play_out(bob, 2)
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)
        assert last is not None and last.update.status == match_pb2.MATCH_STATUS_FINISHED
        assert worker.moves > 0 and set(worker.acquired) == {(match_id, ann.seat)}
        assert sorted((await client.get(match_id)).match.places) in ([1, 2], [1, 1])
        export = await client.export(match_id)
        by_seat = {(a.seat, a.origin, a.origin_strategy) for a in export.actions}
        assert by_seat == {
            (ann.seat, match_pb2.ACTION_ORIGIN_TAKEOVER, "greedy"),
            (bob.seat, match_pb2.ACTION_ORIGIN_SEAT, ""),
        }


async def test_leave_checks_its_caller_and_the_policy(server: RunningServer) -> None:
    async with SenetClient(target_of(server)) as client:
        await refused(
            client.create_match("mykerinos", 2, leave_policy=match_pb2.LEAVE_POLICY_BOT),
            "MALFORMED_REQUEST",
        )
        await refused(
            client.create_match("mykerinos", 2, leave_bot_strategy="greedy"), "MALFORMED_REQUEST"
        )
        match_id = await client.create_match("mykerinos", 2)
        with pytest.raises(SenetRpcError) as caught:
            await client.seat(match_id, 0, "").leave()
        assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED
