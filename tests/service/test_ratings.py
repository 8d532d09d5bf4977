"""Ratings: OpenSkill per player and game, settled exactly once per rated match,
whoever settles it and however often; GetPlayer and ListLeaderboard show them.

Issue 36: "updated exactly once when a rated match ends (settlement keyed by match
id, safe to retry and across replicas), resigned and timed-out seats ranked as the
match ranks them."
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from senet.service.matches import Caller, MatchService
from senet.service.matchmaking import QueuedMatch, QueuedSeat
from senet.service.ratings import (
    RatingValue,
    ResultRecord,
    SeatResult,
    rated_after,
    rated_seats,
    settle,
    settlement_of,
)
from senet.service.records import SeatPlan
from senet.service.server import RunningServer
from senet.store.players import Claim, MemoryPlayerStore, PlayerStore
from senet.store.redis_players import RedisPlayerStore
from senet.store.redis_store import RedisStore
from senet.v1 import player_service_pb2 as pb
from senet.v1 import player_service_pb2_grpc
from tests.conftest import STORE_BUDGET_S
from tests.service.conftest import Deployment, expect_error

GAME = "pebbles"


# ---------------------------------------------------------------- the pure step
def test_the_winner_gains_and_the_loser_loses() -> None:
    winner, loser = rated_after([RatingValue(), RatingValue()], [1, 2])
    assert winner.mu > RatingValue().mu > loser.mu
    assert winner.sigma < RatingValue().sigma and loser.sigma < RatingValue().sigma
    assert (winner.matches, loser.matches) == (1, 1)


def test_a_tie_moves_equal_ratings_equally() -> None:
    first, second = rated_after([RatingValue(), RatingValue()], [1, 1])
    assert first == second


def test_an_upset_moves_ratings_more_than_the_expected_result() -> None:
    strong, weak = RatingValue(35.0, 3.0, 40), RatingValue(15.0, 3.0, 40)
    expected = rated_after([strong, weak], [1, 2])
    upset = rated_after([strong, weak], [2, 1])
    assert strong.mu - upset[0].mu > expected[0].mu - strong.mu


def test_a_subject_holding_two_seats_is_rated_once_at_its_best_place() -> None:
    seats = [SeatResult("bot:greedy@1", 3), SeatResult("ada", 2), SeatResult("bot:greedy@1", 1)]
    assert rated_seats(seats) == [SeatResult("bot:greedy@1", 1), SeatResult("ada", 2)]


# ---------------------------------------------------------------- the store
@pytest.fixture(params=["memory", "redis"])
async def players(
    request: pytest.FixtureRequest,
) -> AsyncIterator[tuple[PlayerStore, PlayerStore]]:
    """Two handles on one player store: two replicas' views of it."""
    if request.param == "memory":
        shared = MemoryPlayerStore()
        yield shared, shared
        return
    url = request.getfixturevalue("redis_url")
    prefix = request.getfixturevalue("redis_key_prefix")
    stores = [
        RedisStore.from_url(url, key_prefix=prefix, socket_timeout_s=STORE_BUDGET_S)
        for _ in range(2)
    ]
    try:
        yield RedisPlayerStore(stores[0]), RedisPlayerStore(stores[1])
    finally:
        for store in stores:
            await store.close()


async def _rating(players: PlayerStore, subject: str) -> RatingValue:
    (doc,) = await players.ratings(GAME, [subject])
    return RatingValue.from_json(doc)


async def test_a_settlement_is_written_once_and_a_replay_changes_nothing(
    players: tuple[PlayerStore, PlayerStore],
) -> None:
    one, other = players
    seats = [SeatResult("ada", 1, "Ada"), SeatResult("bob", 2, "Bob")]
    assert await settle(one, "m1", GAME, seats) == "settled"
    after = [await _rating(one, "ada"), await _rating(one, "bob")]
    assert await settle(other, "m1", GAME, seats) == "duplicate"  # another replica
    assert await settle(one, "m1", GAME, seats) == "duplicate"  # a retry
    assert [await _rating(other, "ada"), await _rating(other, "bob")] == after
    assert after[0].matches == after[1].matches == 1
    recent = [ResultRecord.from_json(r) for r in await other.recent("ada", 10)]
    assert [(r.match_id, r.place, r.seat_count) for r in recent] == [("m1", 1, 2)]
    # Each result names every seat, so a player's page can name the opponents.
    assert recent[0].seats == tuple(seats)
    board, total = await other.leaderboard(GAME, 0, 10)
    assert [s for s, _ in board] == ["ada", "bob"] and total == 2


async def test_a_settlement_worked_out_from_stale_ratings_is_refused(
    players: tuple[PlayerStore, PlayerStore],
) -> None:
    one, other = players
    seats = [SeatResult("ada", 1), SeatResult("bob", 2)]
    stale = settlement_of("m2", GAME, seats, [None, None], 0.0)
    assert await settle(one, "m1", GAME, seats) == "settled"
    assert await other.settle(stale) == "conflict"
    assert not await other.is_settled("m2")
    assert (await _rating(one, "ada")).matches == 1


async def test_two_replicas_settling_matches_of_one_player_at_once_lose_no_update(
    players: tuple[PlayerStore, PlayerStore],
) -> None:
    one, other = players
    outcomes = await asyncio.gather(
        settle(one, "m1", GAME, [SeatResult("ada", 1), SeatResult("bob", 2)]),
        settle(other, "m2", GAME, [SeatResult("ada", 1), SeatResult("cy", 2)]),
        settle(other, "m1", GAME, [SeatResult("ada", 1), SeatResult("bob", 2)]),
        settle(one, "m2", GAME, [SeatResult("ada", 1), SeatResult("cy", 2)]),
    )
    assert sorted(outcomes) == ["duplicate", "duplicate", "settled", "settled"]
    assert (await _rating(one, "ada")).matches == 2
    assert {ResultRecord.from_json(r).match_id for r in await one.recent("ada", 10)} == {
        "m1",
        "m2",
    }


# ---------------------------------------------------------------- end to end
async def _play_out(service: MatchService, match_id: str, callers: list[Caller]) -> None:
    """Each deciding seat plays its first legal action until the match ends."""
    for _ in range(2000):
        summary = (await service.get(Caller(), match_id)).summary
        if summary.status != "active":
            return
        for seat in summary.deciding:
            if summary.seats[seat].resigned:
                continue  # played by the server
            legal = await service.legal_actions(callers[seat], match_id)
            if legal.actions:
                await service.submit(
                    callers[seat],
                    match_id,
                    legal.actions[0].notation,
                    legal.version,
                    f"r{legal.version}-{seat}",
                    None,
                    lambda outcome: outcome,
                )
                break
        else:
            await asyncio.sleep(0.02)  # a resigned seat, played by the server
    raise AssertionError("the match did not end")


async def _rated_match(
    server: RunningServer, subjects: list[str], leaver: int | None = None
) -> str:
    """A finished rated pebbles match, remembered as queued, whose ``leaver`` resigned."""
    service = server.servicer.service
    snapshot = await service.create_match(
        Caller(is_admin=True), GAME, {}, [SeatPlan()] * len(subjects), None
    )
    match_id = snapshot.summary.match_id
    callers = []
    for seat, subject in enumerate(subjects):
        _, token, _ = await service.join(Caller(), match_id, seat, subject, subject=subject)
        callers.append(Caller(token=token))
    assert server.player_servicer is not None
    players = server.player_servicer.matchmaker.players
    for subject in subjects:
        await players.put_player(subject, f'{{"name": "{subject.title()}"}}')
    record = QueuedMatch(GAME, True, tuple(QueuedSeat(s) for s in subjects))
    assert await players.claim(Claim((), (), 0, match_id, record.to_json()))  # no tickets to take
    if leaver is not None:
        await service.leave(callers[leaver], match_id)
    await _play_out(service, match_id, callers)
    return match_id


async def test_a_rated_match_shows_on_the_player_page_and_the_leaderboard(
    deployment: Deployment,
) -> None:
    """The seat that resigned is ranked last, as the match ranks it; settling again
    (the next sweep, another replica) changes nothing."""
    first, second = await deployment.start(), await deployment.start()
    match_id = await _rated_match(first, ["ada", "bob"], leaver=0)
    assert first.player_servicer is not None and second.player_servicer is not None
    await first.player_servicer.matchmaker.sweep_once()
    await second.player_servicer.matchmaker.sweep_once()  # released: nothing to do
    record = QueuedMatch(GAME, True, (QueuedSeat("ada"), QueuedSeat("bob")))
    await second.player_servicer.matchmaker.check_match(match_id, record)  # a replay
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(second))
    ada = await stub.GetPlayer(pb.GetPlayerRequest(subject="ada"))
    assert ada.display_name == "Ada"
    assert [(r.game_id, r.matches) for r in ada.ratings] == [(GAME, 1)]
    assert [(r.match_id, r.place) for r in ada.recent] == [(match_id, 2)]
    assert ada.recent[0].delta < 0
    board = await stub.ListLeaderboard(pb.ListLeaderboardRequest(game_id=GAME, page_size=1))
    assert [(e.rank, e.subject, e.matches) for e in board.entries] == [(1, "bob", 1)]
    assert board.total == 2 and board.next_page_token
    rest = await stub.ListLeaderboard(
        pb.ListLeaderboardRequest(game_id=GAME, page_token=board.next_page_token)
    )
    assert [(e.rank, e.subject) for e in rest.entries] == [(2, "ada")]
    assert not rest.next_page_token
    assert rest.entries[0].rating.conservative == pytest.approx(
        rest.entries[0].rating.mu - 3 * rest.entries[0].rating.sigma
    )


async def test_player_and_leaderboard_errors(deployment: Deployment) -> None:
    server = await deployment.start()
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    code = grpc.StatusCode
    await expect_error(
        stub.GetPlayer(pb.GetPlayerRequest(subject="nobody")), code.NOT_FOUND, "PLAYER_NOT_FOUND"
    )
    await expect_error(
        stub.ListLeaderboard(pb.ListLeaderboardRequest(game_id="chess")),
        code.INVALID_ARGUMENT,
        "UNKNOWN_GAME",
    )
    await expect_error(
        stub.ListLeaderboard(pb.ListLeaderboardRequest(game_id=GAME, page_token="x")),
        code.INVALID_ARGUMENT,
        "INVALID_PAGE_TOKEN",
    )
    await expect_error(
        stub.ListLeaderboard(pb.ListLeaderboardRequest(game_id=GAME, page_size=101)),
        code.INVALID_ARGUMENT,
        "MALFORMED_REQUEST",
    )
    empty = await stub.ListLeaderboard(pb.ListLeaderboardRequest(game_id=GAME))
    assert (list(empty.entries), empty.total, empty.next_page_token) == ([], 0, "")
