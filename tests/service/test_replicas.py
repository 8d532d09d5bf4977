"""Several replicas serving one match: two ``senet serve`` processes sharing Redis.

Replicas keep nothing about a match between calls (or only a cache they must
revalidate), so any replica may take any call: actions alternate between them,
watchers on one see commits made through the other, and eight clients racing on
one match never lose or double-apply an action.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import grpc
import pytest

from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    Deployment,
    Stream,
    check_export,
    current_seat,
    failure_of,
    on,
    play_random,
    seated_match,
)

# What a racing submission may fail with: somebody else acted first.
LOST_RACE = {"STALE_VERSION", "NOT_YOUR_TURN", "ILLEGAL_ACTION", "GAME_OVER"}


async def open_watch(client: Client, match_id: str) -> Stream[ms.WatchMatchResponse]:
    """A watch stream whose first message, a snapshot of version 0, was read."""
    call = client.watch(match_id)
    first = await client.read(call)
    assert first is not None and first.WhichOneof("message") == "snapshot"
    assert first.snapshot.match.version == 0
    return call


async def collect_updates(
    client: Client, call: Stream[ms.WatchMatchResponse]
) -> list[match_pb2.MatchUpdate]:
    """Read a watch stream to its end: updates (and heartbeats) after the snapshot."""
    updates = []
    while (message := await client.read(call, timeout=60)) is not None:
        assert message.WhichOneof("message") in ("update", "heartbeat")
        if message.WhichOneof("message") == "update":
            updates.append(message.update)
    return updates


@pytest.mark.slow
async def test_two_processes_play_one_match_alternating_replicas(
    process_clients: list[Client],
) -> None:
    a, b = process_clients
    match_a = await seated_match(a, 3)
    match_b = on(b, match_a)
    mid = match_a.match_id
    spectator_on_b = await open_watch(match_b.spectator, mid)
    seat_on_a = await open_watch(match_a.seats[1], mid)
    watchers = [
        asyncio.create_task(collect_updates(match_b.spectator, spectator_on_b)),
        asyncio.create_task(collect_updates(match_a.seats[1], seat_on_a)),
    ]
    played = await play_random([match_a, match_b], random.Random(2024), typed_every=4)
    final_a, final_b = await match_a.spectator.get(mid), await match_b.spectator.get(mid)
    assert final_a == final_b and final_a.match.status == match_pb2.MATCH_STATUS_FINISHED
    for updates in await asyncio.gather(*watchers):
        assert [u.version for u in updates] == list(range(1, played.version + 1))
        assert [(u.seat, u.notation) for u in updates] == [
            played.notations[v] for v in range(1, played.version + 1)
        ]
        assert updates[-1].status == match_pb2.MATCH_STATUS_FINISHED
        assert [current_seat(u) for u in updates] == [
            current_seat(played.responses[v]) for v in range(1, played.version + 1)
        ]
    export = await match_b.spectator.export(mid)
    check_export(export, final_a, match_a.commitment)


@dataclass
class Success:
    """A racing submission that succeeded."""

    request_id: str
    seat: int
    notation: str
    response: ms.SubmitActionResponse


async def race_to_the_end(clients: list[Client], match_id: str, tokens: list[str]) -> list[Success]:
    """Clients race: each reads the match and submits for whichever seat must move.

    Every client holds every seat's token. Odd clients all pick the first legal
    action (so they collide on the same action), even ones a random one; each
    submits with ``expected_version`` and a request id of its own, and sometimes
    sends the very same request twice at once, to both replicas.
    """
    successes: list[Success] = []
    lost: list[str] = []

    async def racer(index: int) -> None:
        rng = random.Random(index)
        spectator = clients[index].as_seat(None)
        while True:
            summary = (await spectator.get(match_id)).match
            seat = current_seat(summary)
            if seat is None:
                return
            me = clients[index].as_seat(tokens[seat])
            legal = await me.legal(match_id)
            if not legal.actions:
                continue  # the match moved on between the two reads
            choice = legal.actions[0] if index % 2 else rng.choice(legal.actions)
            request = ms.SubmitActionRequest(
                match_id=match_id,
                notation=choice.notation,
                expected_version=legal.version,
                request_id=f"racer{index}-v{legal.version}",
            )
            twice = rng.random() < 0.25
            senders = [me, clients[(index + 1) % len(clients)].as_seat(tokens[seat])]
            attempts = await asyncio.gather(
                *(s.stub.SubmitAction(request, metadata=s.metadata) for s in senders[: 1 + twice]),
                return_exceptions=True,
            )
            answers = [a for a in attempts if isinstance(a, ms.SubmitActionResponse)]
            for attempt in attempts:
                if isinstance(attempt, grpc.aio.AioRpcError):
                    assert failure_of(attempt).reason in LOST_RACE, failure_of(attempt)
                    lost.append(str(failure_of(attempt).reason))
                else:
                    assert isinstance(attempt, ms.SubmitActionResponse), attempt
            if not answers:
                continue
            # The same request id was committed at most once, whoever answered.
            assert len(answers) == len(attempts), attempts
            assert sorted(a.duplicate for a in answers) == [False, True][: len(answers)]
            assert all(
                (a.version, a.events) == (answers[0].version, answers[0].events) for a in answers
            )
            original = next(a for a in answers if not a.duplicate)
            successes.append(Success(request.request_id, seat, choice.notation, original))
            if rng.random() < 0.3:  # a later retry is answered from the record
                retry = await me.stub.SubmitAction(request, metadata=me.metadata)
                assert retry.duplicate and retry.version == original.version
                assert list(retry.events) == list(original.events)

    await asyncio.gather(*(racer(i) for i in range(len(clients))))
    assert "STALE_VERSION" in lost  # the clients did collide
    return successes


async def check_race(clients: list[Client], match_id: str, tokens: list[str], commitment: str):
    successes = await race_to_the_end(clients, match_id, tokens)
    final = await clients[0].as_seat(None).get(match_id)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    versions = sorted(s.response.version for s in successes)
    assert versions == list(range(1, final.match.version + 1))  # contiguous, none twice
    export = await clients[1].as_seat(None).export(match_id)
    assert len(export.actions) == final.match.version  # nothing lost, nothing applied twice
    by_version = {s.response.version: s for s in successes}
    for logged in export.actions:
        won = by_version[logged.version]
        assert (logged.seat, logged.notation) == (won.seat, won.notation)
    check_export(export, final, commitment)
    for seat, token in enumerate(tokens):  # every seat's own view agrees with the replay
        seen = await clients[seat % 2].as_seat(token).get(match_id)
        assert (seen.viewer_seat, seen.match, seen.view) == (seat, final.match, final.view)


@pytest.mark.slow
async def test_eight_clients_race_through_two_processes(process_clients: list[Client]) -> None:
    a, b = process_clients
    match = await seated_match(a, 3)
    clients = [Client(c.channel) for c in (a, b) * 4]  # alternate replicas
    await check_race(clients, match.match_id, match.tokens, match.commitment)


@pytest.mark.slow
async def test_eight_clients_race_through_two_in_process_replicas(
    deployment: Deployment,
) -> None:
    replicas = [await deployment.start(), await deployment.start()]
    clients = [deployment.client(replicas[i % 2]) for i in range(8)]
    match = await seated_match(clients[0], 2)
    await check_race(clients, match.match_id, match.tokens, match.commitment)
