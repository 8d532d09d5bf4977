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
    assert places_with_resigned([1, 2, 3], {}) == [1, 2, 3]
    assert places_with_resigned([1, 2, 3], {0: 0.0}) == [3, 1, 2]
    # Seats that left at the same moment (or at moments not known) keep the core's order.
    assert places_with_resigned([2, 1, 1, 4], {1: 0.0, 2: 0.0}) == [1, 3, 3, 2]
    assert places_with_resigned([1, 1, 3], {0: 5.0, 1: 5.0}) == [2, 2, 1]


def test_of_two_resigned_seats_the_one_that_stayed_longer_ranks_higher() -> None:
    """Players are placed in the order they drop out, whatever the scores of the
    play-out: a player who stays after the others resigned never ranks below them."""
    assert places_with_resigned([1, 2, 3], {0: 5.0, 1: 9.0}) == [3, 2, 1]
    assert places_with_resigned([1, 2], {0: 1.0, 1: 2.0}) == [2, 1]
    assert places_with_resigned([1, 2, 3], {0: 3.0, 1: 2.0, 2: 1.0}) == [1, 2, 3]
    assert places_with_resigned([3, 1, 1, 4], {1: 7.0, 2: 7.0, 3: 8.0}) == [1, 3, 3, 2]


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


async def test_players_who_all_resign_are_placed_in_the_order_they_left(
    server: RunningServer,
) -> None:
    """Ann resigns, then Bob, then Cy, the last left, leaves too: the server plays
    every seat out, and Cy places first, Bob second, Ann last, whatever the scores."""
    async with SenetClient(target_of(server)) as client:
        match_id = await client.create_match("mykerinos", 3, seed=12)
        ann, bob, cy = [await client.join(match_id, name) for name in ("Ann", "Bob", "Cy")]
        for seat in (ann, bob, cy):
            assert (await seat.leave()).outcome == match_service_pb2.LEAVE_OUTCOME_RESIGNED
        final = await client.get(match_id)
        for _ in range(600):
            if final.match.status == match_pb2.MATCH_STATUS_FINISHED:
                break
            await asyncio.sleep(0.1)
            final = await client.get(match_id)
        assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
        places = {s.display_name: final.match.places[s.seat] for s in final.match.seats}
        assert places == {"Cy": 1, "Bob": 2, "Ann": 3}, list(final.match.scores)


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
