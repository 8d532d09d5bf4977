"""RequestRematch: the same table again once a match is finished.

The rematch keeps the game, options, clocks, leave policy and bots, draws a new
seed, and moves every seat on by one; each player who still holds their seat has a
seat kept for them that only they can claim, by asking with their old token. The
first to ask creates it on any replica; asking again answers the same seat and token.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator

from senet.client.client import SeatClient, SenetClient
from senet.service import metrics
from senet.service.records import MatchMeta, SeatClaim, SeatPlan
from senet.service.rematches import rematch_plans, rematch_seat
from senet.service.server import RunningServer
from senet.v1 import match_pb2, match_service_pb2
from tests.service.conftest import Deployment, refused, target_of

GAME = "pebbles"


async def _play_out(seats: list[SeatClient], seed: int) -> None:
    """Every seat plays random legal actions until the match is over."""
    rng = random.Random(seed)

    async def decide(turn: match_service_pb2.YourTurn) -> str:
        return rng.choice(list(turn.actions)).notation

    await asyncio.wait_for(asyncio.gather(*(seat.play(decide) for seat in seats)), 120)


async def _finished(client: SenetClient, names: list[str], **create: object) -> list[SeatClient]:
    """A Pebbles match of these players, played to its end."""
    match_id = await client.create_match(GAME, len(names), **create)  # type: ignore[arg-type]
    seats = [await client.join(match_id, name, seat) for seat, name in enumerate(names)]
    await _play_out(seats, 7)
    final = await seats[0].get()
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    return seats


def test_the_seats_move_on_by_one_and_bots_stay_bots() -> None:
    meta = MatchMeta(
        game_id=GAME,
        options={},
        seat_count=4,
        seats=[SeatPlan(), SeatPlan("bot", "greedy"), SeatPlan(), SeatPlan()],
        seed=1,
        salt="",
        commitment="",
        created_at=0.0,
    )
    claims = {
        0: SeatClaim("Ann", "a", 0.0).to_json(),
        1: SeatClaim("bot", "b", 0.0).to_json(),
        2: SeatClaim("Cy", "c", 0.0, takeover="zombie").to_json(),
        3: SeatClaim("Dee", "d", 0.0).to_json(),
    }
    assert [rematch_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert rematch_plans(meta, claims) == [
        SeatPlan("open", name="Dee", kept=True),
        SeatPlan("open", name="Ann", kept=True),
        SeatPlan("bot", "greedy"),
        SeatPlan("open"),  # Cy left the match: anyone may take the seat
    ]


async def test_each_player_claims_the_seat_kept_for_them(server: RunningServer) -> None:
    async with SenetClient(target_of(server)) as client:
        ann, bob = await _finished(client, ["Ann", "Bob"])
        assert (await ann.get()).rematch_match_id == ""

        ann_again = await ann.rematch()
        assert ann_again.match_id != ann.match_id
        assert ann_again.seat == 1
        assert (await bob.get()).rematch_match_id == ann_again.match_id
        waiting = (await ann_again.get()).match
        assert not waiting.started
        assert (waiting.rematch_of, (await ann.get()).match.rematch_of) == (ann.match_id, "")
        assert not waiting.rated and not (await ann.get()).match.rated  # CreateMatch's: casual
        assert [(s.display_name, s.claimed, s.kept) for s in waiting.seats] == [
            ("Bob", False, True),
            ("Ann", True, True),
        ]
        # Bob's seat is his alone: the lobby offers no seat, JoinMatch refuses it.
        await refused(client.join(ann_again.match_id, "Eve"), "NO_OPEN_SEAT")
        refusal = await refused(client.join(ann_again.match_id, "Eve", 0), "SEAT_KEPT")
        assert "kept for Bob" in refusal.message
        assert refusal.facts == {"seat": "0"}
        listed = await client.list_matches_page(game_id=GAME, has_open_seat=True)
        assert ann_again.match_id not in [m.match_id for m in listed.matches]

        bob_again = await bob.rematch()
        assert (bob_again.match_id, bob_again.seat) == (ann_again.match_id, 0)
        started = (await bob_again.get()).match
        assert started.started
        old = (await ann.get()).match
        assert started.seed_commitment != old.seed_commitment
        assert not started.seed_chosen

        # Asking again answers the same seat with the same token.
        retry = await ann.rematch()
        assert (retry.match_id, retry.seat, retry.token) == (
            ann_again.match_id,
            ann_again.seat,
            ann_again.token,
        )
        await _play_out([bob_again, ann_again], 8)
        # A rematch is a match like any other: it has its own rematch.
        third = await ann_again.rematch()
        assert third.match_id not in (ann.match_id, ann_again.match_id)
        assert third.seat == 0


async def test_the_rematch_keeps_the_tables_settings(server: RunningServer) -> None:
    control = match_pb2.TimeControl(decision_ms=60_000)
    async with SenetClient(target_of(server)) as client:
        ann, _bob, _cy = await _finished(
            client,
            ["Ann", "Bob", "Cy"],
            seed=5,
            time_control=control,
            leave_policy=match_pb2.LEAVE_POLICY_BOT,
            leave_bot_strategy="greedy",
        )
        old = (await ann.get()).match
        new = (await (await ann.rematch()).get()).match
        assert new.game_id == GAME and len(new.seats) == 3
        assert dict(new.options) == dict(old.options)
        assert new.time_control.decision_ms == 60_000
        assert (new.leave_policy, new.leave_bot_strategy) == (
            match_pb2.LEAVE_POLICY_BOT,
            "greedy",
        )
        assert old.seed_chosen and not new.seed_chosen  # the server draws a new seed


@contextlib.asynccontextmanager
async def _on_two_replicas(deployment: Deployment) -> AsyncIterator[tuple[SeatClient, SeatClient]]:
    """Ann and Bob's finished match, Ann's seat served by one replica and Bob's by
    another."""
    first, second = await deployment.start(), await deployment.start()
    async with (
        SenetClient(target_of(first)) as one,
        SenetClient(target_of(second)) as other,
    ):
        ann, bob = await _finished(one, ["Ann", "Bob"])
        yield ann, other.seat(bob.match_id, bob.seat, bob.token)


async def test_racing_players_make_one_rematch(deployment: Deployment) -> None:
    async with _on_two_replicas(deployment) as (ann, bob_elsewhere):
        asked = await asyncio.gather(ann.rematch(), bob_elsewhere.rematch())
        assert asked[0].match_id == asked[1].match_id
        assert {s.seat for s in asked} == {0, 1}
        assert (await asked[0].get()).match.started


async def test_who_may_ask(server: RunningServer) -> None:
    async with SenetClient(target_of(server)) as client:
        match_id = await client.create_match(GAME, 2)
        ann = await client.join(match_id, "Ann")
        bob = await client.join(match_id, "Bob")
        await refused(ann.rematch(), "MATCH_NOT_FINISHED")
        await bob.leave()  # resigned: the server plays his seat out
        await _play_out([ann], 3)
        await refused(bob.rematch(), "BAD_TOKEN")
        await refused(client.seat(match_id, 0, "").rematch(), "TOKEN_REQUIRED")
        # Bob left: his seat of the rematch is anyone's.
        again = await ann.rematch()
        eve = await client.join(again.match_id, "Eve")
        assert eve.seat == rematch_seat(bob.seat, 2)
        assert (await eve.get()).match.started


async def test_an_unlisted_match_and_its_rematch_stay_out_of_the_lobby(
    server: RunningServer,
) -> None:
    async with SenetClient(target_of(server)) as client:
        listed = await client.create_match(GAME, 2)
        hidden = await client.create_match(GAME, 2, unlisted=True)
        assert (await client.get(hidden)).match.unlisted
        assert not (await client.get(listed)).match.unlisted
        page = await client.list_matches_page(game_id=GAME)
        ids = [m.match_id for m in page.matches]
        assert listed in ids and hidden not in ids
        # Whoever has the id joins and plays as in any match.
        ann, bob = await client.join(hidden, "Ann"), await client.join(hidden, "Bob")
        await _play_out([ann, bob], 4)
        again = await ann.rematch()
        assert (await again.get()).match.unlisted
        page = await client.list_matches_page(game_id=GAME)
        assert not {hidden, again.match_id} & {m.match_id for m in page.matches}


async def test_a_rematch_is_counted_once_among_the_matches_created(
    server: RunningServer,
) -> None:
    created = metrics.MATCHES_CREATED.labels(GAME)
    async with SenetClient(target_of(server)) as client:
        ann, bob = await _finished(client, ["Ann", "Bob"])
        before = created._value.get()
        await ann.rematch()
        await ann.rematch()  # a retry
        await bob.rematch()  # the other player finds it
        assert created._value.get() == before + 1


async def test_a_declined_rematch_is_refused_to_everyone(server: RunningServer) -> None:
    async with SenetClient(target_of(server)) as client:
        ann, bob = await _finished(client, ["Ann", "Bob"])
        declined = await bob.decline_rematch()
        assert [s.rematch_declined for s in declined.seats] == [False, True]
        assert [s.rematch_declined for s in (await ann.get()).match.seats] == [False, True]
        for asker in (ann, bob):
            refusal = await refused(asker.rematch(), "REMATCH_DECLINED")
            assert refusal.facts == {"seat": "1", "name": "Bob"}
            assert "Bob (seat 1) declined the rematch" in refusal.message
        assert (await ann.get()).rematch_match_id == ""  # nothing was created
        # Declining again (a retry) answers the same; so does the other player's.
        assert await bob.decline_rematch() == declined
        both = await ann.decline_rematch()
        assert [s.rematch_declined for s in both.seats] == [True, True]


async def test_declining_after_asking_opens_the_seat_again(server: RunningServer) -> None:
    async with SenetClient(target_of(server)) as client:
        ann, bob, cy = await _finished(client, ["Ann", "Bob", "Cy"])
        ann_again, bob_again = await ann.rematch(), await bob.rematch()
        await bob.decline_rematch()
        waiting = (await ann_again.get()).match
        assert not waiting.started
        seats = {s.seat: (s.display_name, s.claimed, s.kept) for s in waiting.seats}
        assert seats[bob_again.seat] == ("Bob", False, True)
        await refused(bob_again.get(), "BAD_TOKEN")
        # Those who claimed their seats before keep them; the others are refused.
        retry = await ann.rematch()
        assert (retry.seat, retry.token) == (ann_again.seat, ann_again.token)
        await refused(cy.rematch(), "REMATCH_DECLINED")
        await refused(bob.rematch(), "REMATCH_DECLINED")
        # The waiting player learns of the decline from the finished match.
        finished = (await ann.get()).match
        assert [s.display_name for s in finished.seats if s.rematch_declined] == ["Bob"]


async def test_who_may_decline(server: RunningServer) -> None:
    async with SenetClient(target_of(server)) as client:
        match_id = await client.create_match(GAME, 3)
        ann, bob, cy = [await client.join(match_id, n) for n in ("Ann", "Bob", "Cy")]
        await refused(ann.decline_rematch(), "MATCH_NOT_FINISHED")
        await cy.leave()
        await _play_out([ann, bob], 5)
        await refused(cy.decline_rematch(), "BAD_TOKEN")
        await refused(client.decline_rematch(match_id, ""), "TOKEN_REQUIRED")
        # A started rematch is played or left, not declined.
        ann_again, bob_again = await ann.rematch(), await bob.rematch()
        eve = await client.join(ann_again.match_id, "Eve")
        assert (await eve.get()).match.started
        await refused(ann.decline_rematch(), "REMATCH_STARTED")
        assert (await bob_again.get()).match.started
        assert not any(s.rematch_declined for s in (await ann.get()).match.seats)


async def test_a_decline_racing_a_request_leaves_no_rematch_to_start(
    deployment: Deployment,
) -> None:
    """Ann asks on one replica while Bob declines on another: whatever the order,
    Bob's decline stands and nobody plays the rematch."""
    async with _on_two_replicas(deployment) as (ann, bob):
        asked, declined = await asyncio.gather(
            ann.rematch(), bob.decline_rematch(), return_exceptions=True
        )
        assert isinstance(declined, match_pb2.MatchSummary), declined
        assert declined.seats[bob.seat].rematch_declined
        await refused(bob.rematch(), "REMATCH_DECLINED")
        if isinstance(asked, SeatClient):
            assert not (await asked.get()).match.started
        else:
            await refused(ann.rematch(), "REMATCH_DECLINED")
