"""Ladder ratings are kept per game and seat count (issue 37: "A ladder per game
(and seat count)"): a bot's 2-seat rating is not its 4-seat one, nor the game's
matchmaking rating, on the standings, the player card and the leaderboards.
"""

from __future__ import annotations

import pytest

from senet.service import ratings
from senet.service.access import Caller
from senet.service.ladder import Ladders, LadderSpec
from senet.service.ratings import RatingValue, SeatResult
from senet.store.players import MemoryPlayerStore
from senet.v1 import player_service_pb2 as ppb
from senet.v1 import player_service_pb2_grpc
from tests.service.conftest import GUEST_ADA, Code, Deployment, expect_error, wait_until

GAME = "pebbles"


async def test_a_settlement_into_a_ladder_pool_leaves_the_other_pools_alone() -> None:
    players = MemoryPlayerStore()
    seats = [SeatResult("bot:a", 1), SeatResult("bot:b", 2)]
    two = ratings.pool_of(GAME, 2)
    assert await ratings.settle(players, "m1", GAME, seats, two) == "settled"
    after = [RatingValue.from_json(d) for d in await players.ratings(two, ["bot:a", "bot:b"])]
    assert after[0].mu > after[1].mu and [r.matches for r in after] == [1, 1]
    for other in (GAME, ratings.pool_of(GAME, 4)):
        assert await players.ratings(other, ["bot:a", "bot:b"]) == [None, None]
        assert await players.leaderboard(other, 0, 10) == ([], 0)
    board, total = await players.leaderboard(two, 0, 10)
    assert [subject for subject, _ in board] == ["bot:a", "bot:b"] and total == 2
    (record,) = [ratings.ResultRecord.from_json(r) for r in await players.recent("bot:a", 5)]
    assert (record.game_id, record.seat_count, record.ladder_id) == (GAME, 2, two)


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_a_two_seat_ladder_rates_its_bots_apart_from_the_three_seat_one(
    deployment: Deployment,
) -> None:
    server, ladder = await deployment.start_ladder(ladder_presence_s=0)  # seat them workerless
    ladders: Ladders = ladder.ladders
    bots = [(await ladders.remote.register(GUEST_ADA, name, [GAME]))[0] for name in ("a", "b", "c")]
    # No workers: every decision times out and the server plays it, so matches end fast.
    two = LadderSpec(GAME, 2, decision_ms=20, max_in_flight=1, inactive_after=100_000)
    three = LadderSpec(GAME, 3, decision_ms=20, max_in_flight=0, inactive_after=100_000)
    await ladders.start(Caller(is_admin=True), two)
    await ladders.start(Caller(is_admin=True), three)  # paused: never plays

    async def settled_two() -> bool:
        rows = await ladders.standings(two)
        return sum(row.rating.matches for row in rows) >= 4

    await wait_until(settled_two, 120)
    await ladders.start(Caller(is_admin=True), LadderSpec(GAME, 2, 20, 0, 100_000))
    assert all(row.rating == RatingValue() for row in await ladders.standings(three))
    subjects = [b.subject for b in bots]
    assert await ladders.players.ratings(GAME, subjects) == [None, None, None]

    client = deployment.client(server)
    stub = player_service_pb2_grpc.PlayerServiceStub(client.channel)
    rated = next(row.bot for row in await ladders.standings(two) if row.rating.matches)
    card = await stub.GetPlayer(ppb.GetPlayerRequest(subject=rated.subject))
    assert {(g.game_id, g.ladder_id) for g in card.ratings} == {(GAME, two.ladder_id)}
    assert card.recent and {r.ladder_id for r in card.recent} == {two.ladder_id}
    board = await stub.ListLeaderboard(ppb.ListLeaderboardRequest(game_id=GAME, seat_count=2))
    assert rated.subject in {e.subject for e in board.entries}
    for seats in (0, 3):
        other = ppb.ListLeaderboardRequest(game_id=GAME, seat_count=seats)
        assert (await stub.ListLeaderboard(other)).total == 0
    await expect_error(
        stub.ListLeaderboard(ppb.ListLeaderboardRequest(game_id=GAME, seat_count=9)),
        Code.INVALID_ARGUMENT,
        "MALFORMED_REQUEST",
    )
