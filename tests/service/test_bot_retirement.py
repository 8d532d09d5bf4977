"""Retiring a registered bot: its owner (or the admin key) takes it off the server.

Before, a bot could only be registered: its owner's count never went down (16 by
default, then RESOURCE_EXHAUSTED for good), and the bots each tournament command
registers stayed in every listing and standings of their game. A retired bot's key
stops working and it leaves the listings, the ladders and its owner's count; its
ratings and matches stay, and the matches already planned with it still play (the
clock plays its decisions).
"""

from __future__ import annotations

from collections.abc import Awaitable

import pytest

from senet.service.access import Caller
from senet.service.ladder import LadderSpec
from senet.service.ratings import RatingValue
from senet.service.records import dumps
from senet.service.remote_bots import BOTS, RETIRED
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc, match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, Code, Deployment, expect_error, wait_until
from tests.service.test_bot_registration import ADMIN, guest_token
from tests.service.test_ladder import ladders_of
from tests.service.test_remote_bots import GAME, acquire, remote_seat


def _stub(client: Client) -> ladder_service_pb2_grpc.LadderServiceAsyncStub:
    return ladder_service_pb2_grpc.LadderServiceStub(client.channel)


async def _register(client: Client, token: str, name: str) -> lpb.RegisterBotResponse:
    return await _stub(client).RegisterBot(
        lpb.RegisterBotRequest(name=name, game_ids=[GAME]),
        metadata=(("x-senet-identity", token),),
    )


def _retire(
    client: Client, bot_id: str, *metadata: tuple[str, str]
) -> Awaitable[lpb.RetireBotResponse]:
    return _stub(client).RetireBot(lpb.RetireBotRequest(bot_id=bot_id), metadata=metadata)


async def _listed(client: Client) -> set[str]:
    return {b.name for b in (await _stub(client).ListBots(lpb.ListBotsRequest())).bots}


async def test_its_owner_retires_a_bot_whose_key_then_stops_working(
    deployment: Deployment,
) -> None:
    server = await deployment.start(bot_max_per_owner=1)
    client = deployment.client(server)
    owner, other = await guest_token(client), await guest_token(client)
    mine = await _register(client, owner, "mine")
    refused = _register(client, owner, "second")  # one bot per owner on this server
    await expect_error(refused, Code.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
    bot_id = mine.bot.bot_id

    await expect_error(_retire(client, bot_id), Code.UNAUTHENTICATED, "IDENTITY_REQUIRED")
    stolen = _retire(client, bot_id, ("x-senet-identity", other))
    await expect_error(stolen, Code.PERMISSION_DENIED, "NOT_YOUR_BOT")
    unknown = _retire(client, "0123456789abcdef0123", ("x-senet-identity", owner))
    await expect_error(unknown, Code.NOT_FOUND, "BOT_NOT_FOUND")
    await expect_error(_retire(client, ""), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    assert await _listed(client) == {"mine"}  # the refusals changed nothing

    got = await _stub(client).GetBot(lpb.GetBotRequest(bot_id=bot_id))  # no credentials
    assert (got.bot.name, got.bot.active, got.retired_ms) == ("mine", True, 0)
    retired = await _retire(client, bot_id, ("x-senet-identity", owner))
    assert retired.bot.bot_id == bot_id and retired.retired_ms > 0 and not retired.bot.active
    again = await _retire(client, bot_id, ("x-senet-identity", owner))
    assert again == retired  # a retry answers the same
    assert await _listed(client) == set()
    # Unlisted, it still has its page: GetBot answers it as retired.
    got = await _stub(client).GetBot(lpb.GetBotRequest(bot_id=bot_id))
    assert (got.bot, got.retired_ms) == (retired.bot, retired.retired_ms)
    never = _stub(client).GetBot(lpb.GetBotRequest(bot_id="0123456789abcdef0123"))
    await expect_error(never, Code.NOT_FOUND, "BOT_NOT_FOUND")
    empty = _stub(client).GetBot(lpb.GetBotRequest())
    await expect_error(empty, Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    await expect_error(acquire(client, mine.bot_key), Code.UNAUTHENTICATED, "BAD_BOT_KEY")
    # Kept apart: what every ladder pass reads does not grow with retired bots.
    store = ladders_of(server).store
    assert await store.get(BOTS, bot_id) is None and await store.get(RETIRED, bot_id)

    # Its place in the owner's count is free; its name registers it again, the same bot.
    assert (await _register(client, owner, "second")).bot.name == "second"
    await expect_error(_register(client, owner, "mine"), Code.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
    second = next(iter((await _stub(client).ListBots(lpb.ListBotsRequest())).bots))
    await _retire(client, second.bot_id, ("x-senet-identity", owner))
    back = await _register(client, owner, "mine")
    assert back.bot.bot_id == bot_id and back.bot.active
    assert (await acquire(client, back.bot_key)) is not None


@pytest.mark.parametrize("store_kind", ["memory"])
async def test_the_admin_key_retires_any_bot(deployment: Deployment) -> None:
    server = await deployment.start(admin_key=ADMIN, bot_registration="guests")
    client = deployment.client(server)
    bot = await _register(client, await guest_token(client), "theirs")
    retired = await _retire(client, bot.bot.bot_id, ("x-senet-admin-key", ADMIN))
    assert retired.retired_ms > 0


async def test_a_retired_bot_is_seated_only_where_a_clock_plays_it(
    deployment: Deployment,
) -> None:
    """Matches planned with it before (a claimed ladder slot) are still made, and
    their clock plays its decisions; a match without a clock, a new tournament or
    test, or a ladder's next draw never seats it."""
    server = await deployment.start(ladder_interval_s=3600, ladder_presence_s=0)
    client = deployment.client(server)
    ladders = ladders_of(server)
    owner = await guest_token(client)
    gone, kept, third = [await _register(client, owner, n) for n in ("gone", "kept", "third")]
    spec = LadderSpec(GAME, 2, decision_ms=60_000, max_in_flight=2)
    spec = await ladders.start(Caller(is_admin=True), spec)
    planned = [gone.bot.bot_id, kept.bot.bot_id]
    await ladders.slots.claim(f"ladder:{spec.ladder_id}:0:0", dumps(planned))
    await _retire(client, gone.bot.bot_id, ("x-senet-identity", owner))

    await ladders.pass_once()
    lanes = {m.bot_ids for m in await ladders.in_flight(spec.ladder_id)}
    assert tuple(planned) in lanes  # the slot claimed before goes on
    assert all(gone.bot.bot_id not in seats for seats in lanes - {tuple(planned)})
    listed = await client.stub.ListMatches(ms.ListMatchesRequest(), metadata=client.metadata)
    names = [[s.display_name for s in m.seats] for m in listed.matches]
    assert ["gone", "kept"] in names  # named as it was

    seats = [match_pb2.SeatPlan(), remote_seat(gone.bot.bot_id)]
    failure = await expect_error(
        client.create(seats, game_id=GAME), Code.NOT_FOUND, "BOT_NOT_FOUND"
    )
    assert "retired" in failure.message
    clocked = ms.CreateMatchRequest(
        game_id=GAME,
        seats=seats,
        time_control=match_pb2.TimeControl(
            decision_ms=1000, timeout_policy=match_pb2.TIMEOUT_POLICY_BOT_MOVE
        ),
    )
    assert (await client.stub.CreateMatch(clocked, metadata=client.metadata)).match_id

    tournament = lpb.CreateTournamentRequest(
        game_id=GAME,
        format=lpb.TOURNAMENT_FORMAT_ROUND_ROBIN,
        entrants=[lpb.TournamentEntrant(bot_id=b.bot.bot_id) for b in (gone, kept, third)],
    )
    await expect_error(_stub(client).CreateTournament(tournament), Code.NOT_FOUND, "BOT_NOT_FOUND")
    test = lpb.StartHeadToHeadRequest(game_id=GAME, bot_a=kept.bot.bot_id, bot_b=gone.bot.bot_id)
    await expect_error(
        _stub(client).StartHeadToHead(test, metadata=(("x-senet-identity", owner),)),
        Code.NOT_FOUND,
        "BOT_NOT_FOUND",
    )
    ladder = await _stub(client).GetLadder(lpb.GetLadderRequest(ladder_id=spec.ladder_id))
    assert {s.bot.name for s in ladder.standings} == {"kept", "third"}


async def test_a_match_drawn_before_the_retirement_is_rated_under_the_bots_subject(
    deployment: Deployment,
) -> None:
    # No workers: the clock plays every decision (20 ms), too few in a row to bench.
    server = await deployment.start(ladder_interval_s=3600, ladder_presence_s=0)
    client = deployment.client(server)
    ladders = ladders_of(server)
    owner = await guest_token(client)
    gone, kept = [await _register(client, owner, n) for n in ("gone", "kept")]
    spec = LadderSpec(GAME, 2, decision_ms=20, max_in_flight=1, inactive_after=100_000)
    spec = await ladders.start(Caller(is_admin=True), spec)
    planned = [gone.bot.bot_id, kept.bot.bot_id]
    await ladders.slots.claim(f"ladder:{spec.ladder_id}:0:0", dumps(planned))
    await _retire(client, gone.bot.bot_id, ("x-senet-identity", owner))

    async def played() -> bool:
        await ladders.pass_once()
        return await ladders.played(spec.ladder_id) >= 1

    await wait_until(played, 60)
    docs = await ladders.players.ratings(spec.ladder_id, [gone.bot.subject, kept.bot.subject])
    assert [RatingValue.from_json(d).matches for d in docs] == [1, 1]
    got = await _stub(client).GetLadder(lpb.GetLadderRequest(ladder_id=spec.ladder_id))
    assert {s.bot.name for s in got.standings} == {"kept"}
    assert list(got.recent[0].bot_names) == ["gone", "kept"]  # named, though retired


async def test_a_bots_own_key_retires_it_and_a_retry_answers_the_same(
    deployment: Deployment,
) -> None:
    """An author who let ``senet ladder join`` register the bot under a throwaway
    guest holds only its key."""
    server = await deployment.start()
    client = deployment.client(server)
    mine = await _register(client, await guest_token(client), "mine")
    theirs = await _register(client, await guest_token(client), "theirs")
    wrong = _retire(client, theirs.bot.bot_id, ("x-senet-bot-key", mine.bot_key))
    await expect_error(wrong, Code.PERMISSION_DENIED, "NOT_YOUR_BOT")
    forged = _retire(client, "", ("x-senet-bot-key", "sbk_forged"))
    await expect_error(forged, Code.UNAUTHENTICATED, "BAD_BOT_KEY")
    retired = await _retire(client, "", ("x-senet-bot-key", mine.bot_key))
    assert retired.bot.bot_id == mine.bot.bot_id and retired.retired_ms > 0
    assert await _retire(client, "", ("x-senet-bot-key", mine.bot_key)) == retired
    assert await _retire(client, mine.bot.bot_id, ("x-senet-bot-key", mine.bot_key)) == retired
    assert await _listed(client) == {"theirs"}
    refused = await expect_error(acquire(client, mine.bot_key), Code.UNAUTHENTICATED, "BAD_BOT_KEY")
    assert "retired" in refused.message
