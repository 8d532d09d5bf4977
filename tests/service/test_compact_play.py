"""Compact PlayMatch streams (PlayHello.compact): one message per committed action.

A compact stream folds the seat's prompt into the update (or snapshot) at whose
version it must decide, and the reply to its own submission into the update
that submission made. These pin what each seat receives, message by message,
against the classic stream's content.
"""

from __future__ import annotations

import asyncio
import random

import grpc

from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    answer_at_random,
    check_export,
    current_seat,
    mover_of,
    seated_match,
)

PlayCall = grpc.aio.StreamStreamCall[ms.PlayMatchRequest, ms.PlayMatchResponse]


async def _open(player: Client, match_id: str) -> PlayCall:
    call = player.play()
    hello = ms.PlayHello(match_id=match_id, compact=True)
    await call.write(ms.PlayMatchRequest(hello=hello))
    return call


async def _play_compact(
    player: Client, seat: int, match_id: str, rng: random.Random
) -> list[ms.PlayMatchResponse]:
    """Play one seat on a compact stream, answering every prompt; every message."""
    call = await _open(player, match_id)
    messages: list[ms.PlayMatchResponse] = []
    while (message := await player.read(call)) is not None:
        messages.append(message)
        assert message.WhichOneof("message") in ("snapshot", "update"), message
        if message.HasField("turn"):
            turn = message.turn
            assert turn.seat == seat and turn.actions
            await answer_at_random(call, turn, rng, f"s{seat}v{turn.version}")
    return messages


async def test_a_compact_stream_sends_one_message_per_version(client: Client) -> None:
    match = await seated_match(client, 4, seed=31)
    mid = match.match_id
    streams = [
        _play_compact(player, seat, mid, random.Random(seat))
        for seat, player in enumerate(match.seats)
    ]
    received = await asyncio.wait_for(asyncio.gather(*streams), 120)
    final = await match.spectator.get(mid)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    last = final.match.version
    for seat, messages in enumerate(received):
        snapshot, updates = messages[0], messages[1:]
        assert snapshot.WhichOneof("message") == "snapshot"
        # The snapshot, then exactly one message per version: no `submitted`, no
        # separate prompt.
        start = snapshot.snapshot.match.version
        assert [m.update.version for m in updates] == list(range(start + 1, last + 1))
        for message in messages:
            version, deciding = _version_and_next(message)
            # Prompted exactly where the seat must decide, at that version.
            assert message.HasField("turn") == (seat in deciding), message
            if message.HasField("turn"):
                assert message.turn.version == version
        for message in updates:
            update = message.update
            # The mover's own update is its submission's reply; nobody else's is.
            expected = f"s{seat}v{update.version - 1}" if update.seat == seat else ""
            assert message.request_id == expected
    check_export(await match.spectator.export(mid), final, match.commitment)


def _version_and_next(message: ms.PlayMatchResponse) -> tuple[int, tuple[int, ...]]:
    if message.WhichOneof("message") == "snapshot":
        summary = message.snapshot.match
        return summary.version, tuple(summary.deciding_seats)
    update = message.update
    seat = current_seat(update)
    deciding = tuple(update.deciding_seats) or (() if seat is None else (seat,))
    return update.version, deciding


async def test_a_compact_stream_reports_refusals_prompts_again_and_replays_retries(
    client: Client,
) -> None:
    match = await seated_match(client, 2, seed=12)
    mid = match.match_id
    mover, player = await mover_of(match)
    call = await _open(player, mid)
    first = await player.read(call)
    assert first is not None and first.WhichOneof("message") == "snapshot"
    assert first.turn.version == 0 and first.turn.seat == mover
    legal = await player.legal(mid)
    assert list(first.turn.actions) == list(legal.actions)

    # A refused submission: its error, then the prompt again on its own.
    illegal = ms.SubmitActionRequest(notation="take l", expected_version=0, request_id="bad")
    await call.write(ms.PlayMatchRequest(submit=illegal))
    error = await player.read(call)
    assert error is not None and error.error.reason == "ILLEGAL_ACTION"
    again = await player.read(call)
    assert again is not None and again.WhichOneof("message") == "your_turn"
    assert again.your_turn == first.turn

    # A commit: its reply is the update, carrying the request id.
    choice = first.turn.actions[0]
    submit = ms.SubmitActionRequest(typed=choice.action, expected_version=0, request_id="ok")
    await call.write(ms.PlayMatchRequest(submit=submit))
    update = await player.read(call)
    assert update is not None and update.WhichOneof("message") == "update"
    assert (update.update.version, update.update.notation) == (1, choice.notation)
    assert update.request_id == "ok"

    # A retry of the committed request: nothing applied, a `submitted` reply
    # marked as a duplicate of the original commit.
    await call.write(ms.PlayMatchRequest(submit=submit))
    retried = await player.read(call)
    assert retried is not None and retried.WhichOneof("message") == "submitted"
    assert retried.submitted.duplicate and retried.submitted.version == 1
    assert retried.submitted.request_id == "ok"
    assert (await match.spectator.get(mid)).match.version == 1
    call.cancel()


async def test_a_resumed_compact_stream_is_prompted_alone_at_its_version(client: Client) -> None:
    match = await seated_match(client, 2, seed=12)
    mid = match.match_id
    mover, player = await mover_of(match)
    call = player.play()
    hello = ms.PlayHello(match_id=mid, compact=True, from_version=0)
    await call.write(ms.PlayMatchRequest(hello=hello))
    prompt = await player.read(call)
    # No update comes with the version it resumes at: the prompt comes alone.
    assert prompt is not None and prompt.WhichOneof("message") == "your_turn"
    assert prompt.your_turn.version == 0 and prompt.your_turn.seat == mover
    call.cancel()
