"""Pebbles, the test-suite game, through the server on both stores.

Pebbles has no messages of its own: the server hosts it through the generic arm of
the protocol, found only through its entry points (``tests/plugins``). A whole match
plays by notation and by typed generic actions and replays from its export; bad
moves are refused with a reason; and the pebble a seat draws reaches that seat
alone (which events are private is this game's own fact; everything else about
secrecy is checked for every game by ``tests/service/test_secrecy.py``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from google.protobuf.message import Message

from senet.codec import codec_for
from senet.codec.generic import read_object
from senet.games import get_game
from senet.service.server import RunningServer
from senet.v1 import generic_pb2, match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    Code,
    Deployment,
    Seated,
    check_export,
    expect_error,
    messages_in,
    play_random,
)

GAME = "pebbles"


async def pebbles_match(
    deployment: Deployment, server: RunningServer, seats: int, seed: int
) -> Seated:
    """A Pebbles match with every seat claimed, each seat on a client of its own."""
    admin = deployment.client(server)
    created = await admin.create(seats, seed=seed, game_id=GAME)
    tokens = [(await admin.join(created.match_id, s, f"p{s}")).token for s in range(seats)]
    return Seated(
        created.match_id,
        seed,
        created.match.seed_commitment,
        tokens,
        [deployment.client(server, token) for token in tokens],
        deployment.client(server),
    )


def generic(notation: str, game_id: str = GAME) -> match_pb2.Action:
    return match_pb2.Action(generic=generic_pb2.GenericAction(game_id=game_id, notation=notation))


async def test_a_whole_match_by_notation_and_typed_actions_replays(
    deployment: Deployment, server: RunningServer
) -> None:
    match = await pebbles_match(deployment, server, 3, seed=404)
    legal = await match.seats[0].legal(match.match_id)
    assert [a.action.WhichOneof("game") for a in legal.actions] == ["generic"] * len(legal.actions)
    assert all(a.label.startswith("Play a ") for a in legal.actions)
    first = legal.actions[0]
    hand_built = await match.seats[0].submit(match.match_id, typed=generic(first.notation))
    assert hand_built.version == 1
    assert [e.generic.kind for e in hand_built.events][:1] == ["played"]

    played = await play_random([match], random.Random(3), typed_every=2)
    assert (played.version, len(played.responses)) == (24, 23)  # one decision per pebble
    final = await match.spectator.get(match.match_id)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    assert final.view.WhichOneof("game") == "generic"
    assert read_object(final.view.generic.data)["turn"] is None
    export = await match.spectator.export(match.match_id)
    state = check_export(export, final, match.commitment)
    assert state.game.info.id == GAME and len(state.scores()) == 3


async def test_bad_moves_are_refused_with_a_reason(
    deployment: Deployment, server: RunningServer
) -> None:
    match = await pebbles_match(deployment, server, 2, seed=5)
    me = match.seats[0]
    view = read_object((await me.get(match.match_id)).view.generic.data)
    missing = next(v for v in range(1, 9) if v not in view["hand"])
    failure = await expect_error(
        me.submit(match.match_id, f"play {missing}"), Code.FAILED_PRECONDITION, "ILLEGAL_ACTION"
    )
    assert f"holds no {missing}" in failure.message
    await expect_error(
        me.submit(match.match_id, typed=generic(f"play {missing}")),
        Code.FAILED_PRECONDITION,
        "ILLEGAL_ACTION",
    )
    for bad in ("play 0", "pass", ""):
        await expect_error(
            me.submit(match.match_id, typed=generic(bad)), Code.INVALID_ARGUMENT, "MALFORMED_ACTION"
        )
    await expect_error(me.submit(match.match_id, "play"), Code.INVALID_ARGUMENT, "MALFORMED_ACTION")
    wrong_game = await expect_error(
        me.submit(
            match.match_id,
            typed=codec_for("mykerinos").action_to_proto(
                get_game("mykerinos").parse_action("pass")
            ),
        ),
        Code.INVALID_ARGUMENT,
        "MALFORMED_ACTION",
    )
    assert wrong_game.message == (
        "this action belongs to another game: a mykerinos action was sent to a pebbles match"
    )
    await expect_error(
        me.submit(match.match_id, typed=generic("play 1", game_id="chess")),
        Code.INVALID_ARGUMENT,
        "UNKNOWN_GAME",
    )
    await expect_error(
        match.seats[1].submit(match.match_id, f"play {view['hand'][0]}"),
        Code.FAILED_PRECONDITION,
        "NOT_YOUR_TURN",
    )
    assert (await match.spectator.get(match.match_id)).match.version == 0


def _draws(received: list[Message]) -> list[dict[str, Any]]:
    """Every ``drew_tile`` event a client received, decoded."""
    return [
        read_object(inner.data)
        for message in received
        for inner in messages_in(message)
        if isinstance(inner, generic_pb2.GenericEvent) and inner.kind == "drew_tile"
    ]


async def _watch_to_the_end(client: Client, match_id: str) -> None:
    call = client.watch(match_id)
    while True:
        message = await client.read(call)
        assert isinstance(message, ms.WatchMatchResponse)
        update = message.update if message.HasField("update") else None
        if update is not None and update.status == match_pb2.MATCH_STATUS_FINISHED:
            call.cancel()
            return


async def test_a_drawn_pebble_reaches_its_seat_alone(
    deployment: Deployment, server: RunningServer
) -> None:
    match = await pebbles_match(deployment, server, 3, seed=77)
    watchers = [*match.seats, match.spectator]
    watching = [asyncio.create_task(_watch_to_the_end(c, match.match_id)) for c in watchers]
    await play_random([match], random.Random(9), typed_every=3)
    await asyncio.wait_for(asyncio.gather(*watching), 20)
    for seat, client in enumerate(watchers):
        viewer = seat if seat < 3 else None
        draws = _draws(client.received)
        assert all(event["seat"] == viewer for event in draws), (viewer, draws)
        if viewer is not None:
            assert draws, f"seat {viewer} never saw its own draws"


@pytest.mark.slow
async def test_server_processes_host_the_test_game(process_clients: list[Client]) -> None:
    """A ``senet serve`` child process finds Pebbles through the inherited PYTHONPATH."""
    first, second = process_clients
    assert GAME in [g.id for g in (await first.list_games()).games]
    created = await first.create(2, seed=12, game_id=GAME)
    tokens = [(await first.join(created.match_id, s)).token for s in range(2)]
    replicas = [
        Seated(
            created.match_id,
            12,
            created.match.seed_commitment,
            tokens,
            [Client(via.channel, token) for token in tokens],
            Client(via.channel),
        )
        for via in (first, second)
    ]
    played = await play_random(replicas, random.Random(1), typed_every=2)
    assert played.version == 24
    final = await second.get(created.match_id)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
