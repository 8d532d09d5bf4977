"""No RPC or stream reveals hidden information before the match is over.

In Mykerinos the hidden part is the plot deck: its order (which plots the next
campaigns lay) and the generator that rotates them, i.e. the seed, the generator
state and, until export, the salt of the seed commitment. Seat tokens are secrets
too: each is shown once, to the seat that claimed it.

Two checks: every message any caller receives (unary responses, stream messages,
error messages) is searched for the secret values; and at checkpoints a twin
match, equal but for a reshuffled deck and generator, must look the same to
every seat and to spectators.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message

from senet.games import get_game
from senet.service.records import MatchMeta, Snapshot, token_hash
from senet.service.server import RunningServer
from senet.store import NewMatch
from senet.store import SeatClaim as StoredClaim
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    Code,
    Deployment,
    Failure,
    Resp,
    Seated,
    Stream,
    current_seat,
    expect_error,
    play_random,
    seated_match,
)

SEED = 8_411_296_337_620_514_709  # 19 digits: never in a message by chance


def blob(message: Message) -> bytes:
    """A message as the wire sees it, and as JSON (numbers and strings spelled out)."""
    as_json = json_format.MessageToJson(message, preserving_proto_field_name=True)
    return message.SerializeToString() + b"\n" + as_json.encode()


async def collect(client: Client, call: Stream[Resp]) -> None:
    while await client.read(call, timeout=60) is not None:
        pass


async def stored_secrets(server: RunningServer, match: Seated) -> set[str]:
    """The seed, salt and current generator state of a match, from the store."""
    stored = await server.store.load(match.match_id)
    meta = MatchMeta.from_json(stored.meta_json)
    state = Snapshot.from_json(stored.snapshot_json).state
    return {str(meta.seed), f"{meta.seed:x}", meta.salt, str(state["rng"])}


async def twin_of(server: RunningServer, match: Seated, name: str, seed: int) -> str:
    """A copy of ``match`` (same seats and tokens) whose deck and generator are resampled."""
    stored = await server.store.load(match.match_id)
    game = get_game("mykerinos")
    state = game.state_from_data(Snapshot.from_json(stored.snapshot_json).state)
    twin = state.determinize(None, seed)
    hidden = ("deck", "rng")
    assert [twin.to_data()[k] for k in hidden] != [state.to_data()[k] for k in hidden]
    assert twin.view(None) == state.view(None)
    await server.store.create(
        NewMatch(name, stored.meta_json, Snapshot(twin.to_data(), time.time()).to_json())
    )
    for seat, claim in stored.seats.items():
        assert await server.store.claim_seat(name, StoredClaim(seat, claim))
    return name


def public(summary: match_pb2.MatchSummary) -> match_pb2.MatchSummary:
    """A summary without what tells two matches apart (their id and action count)."""
    out = match_pb2.MatchSummary()
    out.CopyFrom(summary)
    out.match_id, out.version = "", 0
    return out


async def compare_with_twin(server: RunningServer, match: Seated, checkpoint: int) -> None:
    """Every seat and spectators see the match and its twin the same way."""
    twin = await twin_of(server, match, f"twin-{checkpoint}", seed=checkpoint + 1)
    for viewer in [match.spectator, *match.seats]:
        real, other = await viewer.get(match.match_id), await viewer.get(twin)
        assert other.view == real.view
        assert public(other.match) == public(real.match)
        assert other.viewer_seat == real.viewer_seat
    for seat_client in match.seats:
        real_legal, twin_legal = (
            await seat_client.legal(match.match_id),
            await seat_client.legal(twin),
        )
        assert list(twin_legal.actions) == list(real_legal.actions)
    seat = current_seat((await match.spectator.get(twin)).match)
    assert seat is not None
    legal = await match.seats[seat].legal(twin)
    choice = legal.actions[checkpoint % len(legal.actions)]
    twin_b = await twin_of(server, match, f"twin-{checkpoint}-b", seed=checkpoint + 99)
    first = await match.seats[seat].submit(twin, choice.notation)
    second = await match.seats[seat].submit(twin_b, choice.notation)
    # The same action does the same to both, unless it deals new (random) plots.
    if not any(e.mykerinos.HasField("campaign_started") for e in first.events):
        assert list(first.events) == list(second.events)


async def provoke_errors(match: Seated) -> list[Failure]:
    """The usual mistakes, whose error messages must not leak either."""
    mid = match.match_id
    summary = (await match.spectator.get(mid)).match
    seat = current_seat(summary)
    assert seat is not None
    mover, waiting = match.seats[seat], match.seats[(seat + 1) % len(match.seats)]
    legal = {a.notation for a in (await mover.legal(mid)).actions}
    illegal = next(n for n in ("take r", "take l", "pass", "dir exp5", "a a1") if n not in legal)
    failures = [
        await expect_error(mover.submit(mid, illegal), Code.FAILED_PRECONDITION, "ILLEGAL_ACTION"),
        await expect_error(waiting.submit(mid, "pass"), Code.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
        await expect_error(mover.submit(mid, "nope"), Code.INVALID_ARGUMENT, "MALFORMED_ACTION"),
        await expect_error(
            mover.submit(mid, "pass", expected_version=summary.version + 5),
            Code.ABORTED,
            "STALE_VERSION",
        ),
        await expect_error(mover.export(mid), Code.FAILED_PRECONDITION, "MATCH_NOT_FINISHED"),
        await expect_error(
            match.spectator.export(mid), Code.FAILED_PRECONDITION, "MATCH_NOT_FINISHED"
        ),
    ]
    return failures


@pytest.mark.slow
async def test_no_rpc_or_stream_reveals_hidden_information(
    deployment: Deployment, server: RunningServer, client: Client
) -> None:
    match = await seated_match(client, 3, seed=SEED)
    mid = match.match_id
    received = client.received
    joins = [m for m in received if isinstance(m, ms.JoinMatchResponse)]
    assert [j.token for j in joins] == match.tokens
    del received[:]  # from here on, nothing may contain a token

    streams = [
        asyncio.create_task(collect(v, v.watch(mid))) for v in [match.spectator, *match.seats]
    ]
    players = []
    for seat_client in match.seats:
        for compact in (False, True):  # classic and compact streams alike
            call = seat_client.play()
            hello = ms.PlayHello(match_id=mid, compact=compact)
            await call.write(ms.PlayMatchRequest(hello=hello))
            players.append(asyncio.create_task(collect(seat_client, call)))

    secrets: set[str] = {*match.tokens, *(token_hash(t) for t in match.tokens)}
    failures: list[Failure] = []
    rng = random.Random(5)
    for checkpoint in range(6):
        secrets |= await stored_secrets(server, match)
        failures += await provoke_errors(match)
        for viewer in [match.spectator, *match.seats]:
            await viewer.get(mid)
            if viewer.token is not None:
                await viewer.legal(mid)
        await compare_with_twin(server, match, checkpoint)
        await play_random([match], rng, count=25)

    played = await play_random([match], rng)  # to the end
    assert played.version > 0
    await asyncio.wait_for(asyncio.gather(*streams, *players), 60)
    final = await match.spectator.get(mid)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED

    assert len(received) > 500
    for message in received:
        data = blob(message)
        leaked = [s for s in secrets if s.encode() in data]
        assert not leaked, (type(message).__name__, leaked)
    for failure in failures:
        assert not [s for s in secrets if s in failure.message], failure

    export = await match.spectator.export(mid)  # only now are seed and salt revealed
    assert str(SEED).encode() in blob(export) and export.seed_salt.encode() in blob(export)
