"""Remote bots (issue 37): a registered bot's key leases that bot's decisions
and no other; a worker killed mid-match leaves the match to its clock.

Issue 37: "their own worker, in any language, leases that bot's decisions over
BotService with the key and plays them. A remote bot that stops answering is
handled by the match's clocks and leave policy."
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable

import pytest

from senet.bots.hosted import HostedBotWorker
from senet.service.access import Caller
from senet.service.bot_names import remote_strategy
from senet.service.identity import Identity
from senet.service.records import SeatPlan
from senet.service.server import RunningServer
from senet.service.slots import Slots
from senet.v1 import (
    bot_service_pb2,
    bot_service_pb2_grpc,
    ladder_service_pb2_grpc,
    match_pb2,
    player_service_pb2_grpc,
)
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import match_service_pb2 as ms
from senet.v1 import player_service_pb2 as ppb
from tests.service.conftest import Client, Code, Deployment, expect_error, wait_until

GAME = "pebbles"


async def register(client: Client, name: str, owner: str = "ada") -> lpb.RegisterBotResponse:
    """A guest identity for ``owner``, and a bot of theirs."""
    players = player_service_pb2_grpc.PlayerServiceStub(client.channel)
    guest = await players.RegisterGuest(ppb.RegisterGuestRequest(display_name=owner))
    ladder = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    return await ladder.RegisterBot(
        lpb.RegisterBotRequest(name=name, game_ids=[GAME]),
        metadata=(("x-senet-identity", guest.identity_token),),
    )


def acquire(client: Client, key: str) -> Awaitable[bot_service_pb2.AcquireBotDecisionsResponse]:
    stub = bot_service_pb2_grpc.BotServiceStub(client.channel)
    request = bot_service_pb2.AcquireBotDecisionsRequest(worker_id="w1", capacity=8, lease_ms=2000)
    return stub.AcquireBotDecisions(request, metadata=(("x-senet-bot-key", key),))


async def hosted_match(server: RunningServer, bot_ids: list[str], decision_ms: int) -> str:
    """A clocked match of registered bots, as the ladder makes them."""
    slots = Slots(server.servicer.service, server.ladder_servicer.ladders.store)  # type: ignore[union-attr]
    seats = [SeatPlan("bot", remote_strategy(b)) for b in bot_ids]
    return await slots.start(f"test:{time.monotonic_ns()}", GAME, seats, decision_ms)


async def test_registering_needs_an_identity_and_a_known_game(deployment: Deployment) -> None:
    server = await deployment.start()
    client = deployment.client(server)
    ladder = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    request = lpb.RegisterBotRequest(name="b1", game_ids=[GAME])
    await expect_error(ladder.RegisterBot(request), Code.UNAUTHENTICATED, "IDENTITY_REQUIRED")
    players = player_service_pb2_grpc.PlayerServiceStub(client.channel)
    guest = await players.RegisterGuest(ppb.RegisterGuestRequest(display_name="ada"))
    me = (("x-senet-identity", guest.identity_token),)
    for bad, reason in (
        (lpb.RegisterBotRequest(name="no spaces", game_ids=[GAME]), "MALFORMED_REQUEST"),
        (lpb.RegisterBotRequest(name="b1"), "MALFORMED_REQUEST"),
        (lpb.RegisterBotRequest(name="b1", game_ids=["chess"]), "UNKNOWN_GAME"),
    ):
        await expect_error(ladder.RegisterBot(bad, metadata=me), Code.INVALID_ARGUMENT, reason)
    done = await ladder.RegisterBot(request, metadata=me)
    assert done.bot.subject == f"bot:{guest.subject}/b1" and done.bot.active
    assert len(done.bot_key) > 30
    listed = await ladder.ListBots(lpb.ListBotsRequest(game_id=GAME))
    assert [b.bot_id for b in listed.bots] == [done.bot.bot_id]


async def test_a_bot_key_leases_its_own_bots_decisions_only(deployment: Deployment) -> None:
    server = await deployment.start()
    client = deployment.client(server)
    mine, theirs = await register(client, "mine"), await register(client, "theirs", "bob")
    await expect_error(acquire(client, "sbk_guess"), Code.UNAUTHENTICATED, "BAD_BOT_KEY")
    assert not (await acquire(client, mine.bot_key)).decisions
    match_id = await hosted_match(server, [mine.bot.bot_id] * 2, 60_000)
    assert not (await acquire(client, theirs.bot_key)).decisions
    got = (await acquire(client, mine.bot_key)).decisions
    assert [(d.match_id, d.strategy) for d in got] == [(match_id, remote_strategy(mine.bot.bot_id))]
    # Registering again replaces the key: the old one stops working at once.
    remote = server.ladder_servicer.remote  # type: ignore[union-attr]
    owner = Identity(mine.bot.owner, "ada", guest=True)
    again, new_key = await remote.register(owner, "mine", [GAME])
    assert again.bot_id == mine.bot.bot_id and new_key != mine.bot_key
    await expect_error(acquire(client, mine.bot_key), Code.UNAUTHENTICATED, "BAD_BOT_KEY")
    assert not (await acquire(client, new_key)).decisions  # still leased to the first call


def remote_seat(bot_id: str) -> match_pb2.SeatPlan:
    return match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy=remote_strategy(bot_id))


async def test_a_registered_bots_seat_shows_its_name_from_creation_to_the_end(
    deployment: Deployment,
) -> None:
    """Spectators and the bot's author see the bot's name, not its queue's id."""
    server = await deployment.start()
    client = deployment.client(server)
    mine = await register(client, "AlphaPebble")
    seats = [remote_seat(mine.bot.bot_id)] * 2
    created = await client.create(seats, game_id=GAME)
    assert [(s.display_name, s.claimed) for s in created.match.seats] == [
        ("AlphaPebble", False)
    ] * 2
    target = f"127.0.0.1:{server.port}"
    playing = asyncio.create_task(HostedBotWorker(target, mine.bot_key, "random").run())
    try:

        async def finished() -> bool:
            summary = (await client.get(created.match_id)).match
            return summary.status == match_pb2.MATCH_STATUS_FINISHED

        await wait_until(finished, 60)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
    summary = (await client.get(created.match_id)).match
    assert [(s.display_name, s.claimed) for s in summary.seats] == [("AlphaPebble", True)] * 2
    listed = await client.stub.ListMatches(ms.ListMatchesRequest(), metadata=client.metadata)
    assert [s.display_name for s in listed.matches[0].seats] == ["AlphaPebble"] * 2


async def test_a_match_with_an_unknown_or_unfit_registered_bot_is_refused(
    deployment: Deployment,
) -> None:
    """A seat whose bot nobody registered would wait for ever; one for a bot that
    plays other games would never be played either."""
    server = await deployment.start()
    client = deployment.client(server)
    mine = await register(client, "pebbles-only")
    unknown = remote_seat("0123456789abcdef0123")
    await expect_error(
        client.create([match_pb2.SeatPlan(), unknown], game_id=GAME),
        Code.NOT_FOUND,
        "BOT_NOT_FOUND",
    )
    failure = await expect_error(
        client.create([match_pb2.SeatPlan(), remote_seat(mine.bot.bot_id)], game_id="mykerinos"),
        Code.INVALID_ARGUMENT,
        "MALFORMED_REQUEST",
    )
    assert "pebbles-only" in failure.message and "mykerinos" in failure.message
    listed = await client.stub.ListMatches(ms.ListMatchesRequest(), metadata=client.metadata)
    assert not listed.matches


WORKER_SCRIPT = """
import asyncio, sys
from senet.bots.hosted import HostedBotWorker
asyncio.run(HostedBotWorker(sys.argv[1], sys.argv[2], "random", lease_ms=600).run())
"""


@pytest.mark.slow
async def test_a_worker_killed_mid_match_leaves_it_to_the_clock(deployment: Deployment) -> None:
    server = await deployment.start()
    client = deployment.client(server)
    quitter, stayer = await register(client, "quitter"), await register(client, "stayer")
    service = server.servicer.service
    target = f"127.0.0.1:{server.port}"
    worker = subprocess.Popen([sys.executable, "-c", WORKER_SCRIPT, target, quitter.bot_key])
    stay = HostedBotWorker(target, stayer.bot_key, "random", lease_ms=600)
    playing = asyncio.create_task(stay.run())
    try:
        decision_ms = 300
        watched = await hosted_match(server, [quitter.bot.bot_id, stayer.bot.bot_id], decision_ms)
        other = await hosted_match(server, [stayer.bot.bot_id] * 2, decision_ms)

        async def moved(match_id: str, at_least: int) -> bool:
            return (await service.get(Caller(), match_id)).summary.version >= at_least

        await wait_until(lambda: moved(watched, 4), 30)  # both workers have played
        worker.kill()
        worker.wait(10)

        async def finished(match_id: str) -> bool:
            return (await service.get(Caller(), match_id)).summary.status == "finished"

        await wait_until(lambda: finished(watched), 90)
        await wait_until(lambda: finished(other), 90)  # the other match never waited
        # No decision of the quitter was ever leased by the stayer's worker.
        assert {m for m, _ in stay.acquired} <= {watched, other}
        assert all((m, s) != (watched, 0) for m, s in stay.acquired), (
            "the stayer leased the quitter's seat"
        )
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait(10)
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
