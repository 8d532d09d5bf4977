"""The ladder scheduler: one match per slot however many replicas schedule,
ratings settled, replays kept, bots that time out benched.

Issue 37: "A ladder per game (and seat count) runs continuously on the server: a
scheduler, safe to run on several replicas at once (one match per scheduling
slot, never two), creates rated matches among active registered bots [...] with
per-decision clocks, at a bounded number of matches in flight that an operator
sets." and "the ladder marks it inactive after repeated timeouts".
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections import defaultdict
from typing import Any

import pytest

from senet.bots.hosted import HostedBotWorker
from senet.service.access import Caller
from senet.service.ladder import LadderMatch, Ladders, LadderSpec
from senet.service.matches import MatchService
from senet.service.ratings import RatingValue
from senet.service.remote_bots import SEEN, RemoteBot
from senet.service.server import RunningServer
from senet.store import StoreUnavailable
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc, player_service_pb2_grpc
from senet.v1 import player_service_pb2 as ppb
from tests.service.conftest import (
    GUEST_ADA,
    Code,
    Deployment,
    announce,
    expect_error,
    wait_until,
)

GAME = "pebbles"


def ladders_of(server: RunningServer) -> Ladders:
    assert server.ladder_servicer is not None
    return server.ladder_servicer.ladders


def count_creations(service: MatchService, created: dict[str, set[str]]) -> None:
    """Record every match id each creation request id returned on ``service``."""
    original = service.create_match

    async def counting(*args: Any, **kwargs: Any) -> Any:
        snapshot = await original(*args, **kwargs)
        created[kwargs.get("request_id", "")].add(snapshot.summary.match_id)
        return snapshot

    service.create_match = counting  # type: ignore[method-assign]


async def register(ladders: Ladders, *names: str) -> list[RemoteBot]:
    return [(await ladders.remote.register(GUEST_ADA, name, [GAME]))[0] for name in names]


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["redis"])
async def test_two_schedulers_on_redis_make_one_match_per_slot(deployment: Deployment) -> None:
    # No workers, and a ladder that seats bots without one (ladder_presence_s=0).
    replicas = [
        await deployment.start(ladder_interval_s=0.02, ladder_presence_s=0) for _ in range(2)
    ]
    created: dict[str, set[str]] = defaultdict(set)
    for replica in replicas:
        count_creations(replica.servicer.service, created)
    one = ladders_of(replicas[0])
    bots = await register(one, "a", "b", "c")
    # No workers: every decision times out and the server plays it, so matches end fast.
    spec = LadderSpec(GAME, 2, decision_ms=20, max_in_flight=2, inactive_after=100_000)
    await one.start(Caller(is_admin=True), spec)

    async def played_six() -> bool:
        return await one.played(spec.ladder_id) >= 6

    await wait_until(played_six, 120)
    await one.start(Caller(is_admin=True), LadderSpec(GAME, 2, 20, 0, 100_000))  # pause

    async def drained() -> bool:
        return not await one.in_flight(spec.ladder_id)

    await wait_until(drained, 60)
    # A slot whose seats were claimed before the pause is still played: wait it out.
    await asyncio.sleep(0.3)
    await wait_until(drained, 60)
    for match_ids in created.values():
        assert len(match_ids) == 1  # however many replicas created it
    made = sorted(set().union(*created.values()))

    async def listed() -> bool:
        # Another replica may pass an ended slot while its closer still lists it.
        return sorted(m.match_id for m in await one.recent(spec.ladder_id, 200)) == made

    await wait_until(listed, 60)
    recent = await one.recent(spec.ladder_id, 200)
    assert len(recent) == await one.played(spec.ladder_id)  # each counted once
    finished = [m for m in recent if m.status == "finished"]
    docs = await one.players.ratings(spec.ladder_id, [b.subject for b in bots])
    assert sum(RatingValue.from_json(d).matches for d in docs) == 2 * len(finished)
    service = replicas[1].servicer.service
    for match in finished:
        export = await service.export(match.match_id)  # every ladder match has a replay
        assert export.places == list(match.places)
        assert (await service.get(Caller(), match.match_id)).summary.rated


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_a_bot_that_keeps_timing_out_is_benched(deployment: Deployment) -> None:
    server = await deployment.start(ladder_interval_s=0.05)
    ladders = ladders_of(server)
    one, two, ghost = await register(ladders, "one", "two", "ghost")
    target = f"127.0.0.1:{server.port}"
    workers = [
        HostedBotWorker(
            target, (await ladders.remote.register(GUEST_ADA, b.name, [GAME]))[1], "random"
        )
        for b in (one, two)
    ]
    tasks = [asyncio.create_task(w.run()) for w in workers]
    # The ghost's worker called once and then never answers: the ladder seats it.
    await ladders.remote.saw_worker(ghost)
    try:
        # A clock the working bots keep on a loaded machine, which the ghost never
        # does (at 150 ms this test failed once under -n 2 at load 15 to 20).
        spec = LadderSpec(GAME, 2, decision_ms=600, max_in_flight=2, inactive_after=2)
        await ladders.start(Caller(is_admin=True), spec)

        async def benched() -> bool:
            return not (await ladders.remote.bot(ghost.bot_id)).active

        await wait_until(benched, 60)
        resting = await ladders.remote.bot(ghost.bot_id)
        assert "in a row timed out" in resting.note and resting.benches == 1
        # A rest of the default 60 s; its worker, which never called since, keeps
        # it benched after that too.
        assert 0 < resting.benched_until - time.time() <= 60
        # Matches made before the bench may still end after later ones (the ghost's
        # last match is slow: every one of its decisions times out), so the matches
        # looked at are those made since, however they end.
        seen = {m.match_id for m in await ladders.in_flight(spec.ladder_id)}
        seen |= {m.match_id for m in await ladders.recent(spec.ladder_id, 200)}
        since = time.time()

        async def made_since() -> list[LadderMatch]:
            ended = await ladders.recent(spec.ladder_id, 200)
            return [m for m in ended if m.match_id not in seen and m.created_at >= since]

        async def three_made_since() -> bool:
            return len(await made_since()) >= 3

        await wait_until(three_made_since, 90)
        assert all(ghost.bot_id not in m.bot_ids for m in await made_since())
        assert (await ladders.remote.bot(one.bot_id)).active

        client = deployment.client(server)
        stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
        got = await stub.GetLadder(lpb.GetLadderRequest(ladder_id=spec.ladder_id))
        assert got.matches_played >= 3 and got.spec.max_in_flight == 2
        rows = {s.bot.name: s for s in got.standings}
        assert set(rows) == {"one", "two", "ghost"} and not rows["ghost"].bot.active
        assert rows["ghost"].bot.benched_until_ms == int(resting.benched_until * 1000)
        assert (
            rows["one"].matches > 0 and rows["one"].low < rows["one"].rating.mu < rows["one"].high
        )
        await expect_error(
            stub.GetLadder(lpb.GetLadderRequest(ladder_id="nope-2")),
            Code.NOT_FOUND,
            "LADDER_NOT_FOUND",
        )
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_starting_a_ladder_needs_the_admin_key_and_a_seat_count_it_allows(
    deployment: Deployment,
) -> None:
    server = await deployment.start(admin_key="s3cret", ladder_max_in_flight=3)
    client = deployment.client(server)
    stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    request = lpb.StartLadderRequest(spec=lpb.LadderSpec(game_id=GAME, max_in_flight=9))
    await expect_error(stub.StartLadder(request), Code.PERMISSION_DENIED, "ADMIN_KEY_REQUIRED")
    admin = (("x-senet-admin-key", "s3cret"),)
    started = await stub.StartLadder(request, metadata=admin)
    assert started.ladder_id == f"{GAME}-2" and started.spec.max_in_flight == 3  # the cap
    bad = lpb.StartLadderRequest(spec=lpb.LadderSpec(game_id=GAME, seat_count=9))
    await expect_error(
        stub.StartLadder(bad, metadata=admin), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
    )


async def test_a_lane_whose_scheduler_died_mid_slot_goes_on(deployment: Deployment) -> None:
    """A replica that created a slot's match and died before recording it leaves
    the slot to the next pass, which records the same match (never a second)."""
    # Passes by hand only; no workers, seated anyway (ladder_presence_s=0).
    server = await deployment.start(ladder_interval_s=3600, ladder_presence_s=0)
    ladders = ladders_of(server)
    await register(ladders, "a", "b")
    spec = await ladders.start(
        Caller(is_admin=True), LadderSpec(GAME, 2, decision_ms=60_000, max_in_flight=1)
    )
    await ladders.pass_once()
    (first,) = await ladders.in_flight(spec.ladder_id)
    await ladders.store.delete("inflight:" + spec.ladder_id, f"ladder:{spec.ladder_id}:0:0")
    await ladders.pass_once()
    (again,) = await ladders.in_flight(spec.ladder_id)
    assert (again.match_id, again.bot_ids) == (first.match_id, first.bot_ids)


async def test_a_ladder_seats_only_bots_whose_worker_is_calling(deployment: Deployment) -> None:
    """A bot registered before its worker runs, or whose worker stopped long ago,
    waits: were it seated, every decision would time out and the ladder would bench
    it before its worker came."""
    server = await deployment.start(ladder_interval_s=3600)  # passes by hand only
    ladders = ladders_of(server)
    keys: dict[str, str] = {}  # by name
    names: dict[str, str] = {}  # by bot id
    for name in ("early", "served", "gone"):
        bot, keys[name] = await ladders.remote.register(GUEST_ADA, name, [GAME])
        names[bot.bot_id] = name
    spec = await ladders.start(
        Caller(is_admin=True), LadderSpec(GAME, 2, decision_ms=60_000, max_in_flight=2)
    )
    await ladders.pass_once()
    assert not await ladders.in_flight(spec.ladder_id)  # no worker has called yet
    client = deployment.client(server)
    for name in ("early", "served", "gone"):
        await announce(client.channel, keys[name])
    gone = next(bot_id for bot_id, name in names.items() if name == "gone")
    await ladders.store.put(SEEN, gone, f"{time.time() - 3600:.3f}")  # an hour ago
    await ladders.pass_once()
    in_flight = await ladders.in_flight(spec.ladder_id)
    assert in_flight and all(
        {names[b] for b in m.bot_ids} == {"early", "served"} for m in in_flight
    )
    stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    listed = {b.name: b for b in (await stub.ListBots(lpb.ListBotsRequest(game_id=GAME))).bots}
    now_ms = time.time() * 1000
    assert all(0 < now_ms - listed[n].worker_seen_ms < 60_000 for n in ("early", "served"))
    assert now_ms - listed["gone"].worker_seen_ms > 3_000_000 and listed["gone"].active
    index = await stub.ListLadders(lpb.ListLaddersRequest(game_id=GAME))
    assert (index.ladders[0].active_bots, index.ladders[0].bots) == (2, 3)


async def _first_match_over(deployment: Deployment) -> tuple[Ladders, LadderSpec, LadderMatch]:
    """A two-bot ladder, scheduled by hand, whose first match has ended (no workers:
    every decision times out and the server plays it; the ladder seats bots without
    workers, ladder_presence_s=0)."""
    server = await deployment.start(ladder_interval_s=3600, ladder_presence_s=0)
    ladders = ladders_of(server)
    await register(ladders, "a", "b")
    spec = LadderSpec(GAME, 2, decision_ms=20, max_in_flight=1, inactive_after=100_000)
    spec = await ladders.start(Caller(is_admin=True), spec)
    await ladders.pass_once()
    (first,) = await ladders.in_flight(spec.ladder_id)

    async def over() -> bool:
        return (await ladders.slots.result(first.match_id)).status != "active"

    await wait_until(over, 60)
    return ladders, spec, first


async def test_a_lane_whose_closer_died_after_claiming_the_end_goes_on(
    deployment: Deployment,
) -> None:
    """A replica that claimed a slot's end (having listed its match) and died
    before moving the lane on left the lane at that slot for good; the next pass now
    passes the ended slot."""
    ladders, spec, first = await _first_match_over(deployment)
    assert await ladders.slots.end(f"ladder:{spec.ladder_id}:0:0")  # then the closer dies
    await ladders.pass_once()
    (second,) = await ladders.in_flight(spec.ladder_id)
    assert second.match_id != first.match_id


class _Died(Exception):
    """The replica running a pass stopped here."""


@pytest.mark.parametrize("dies_at", ["listing", "claiming the end"])
async def test_a_match_whose_closer_died_is_listed_and_counted_once(
    deployment: Deployment, dies_at: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replica closing a finished match dies before listing it, or after listing
    it and before claiming the slot's end: the next pass lists and counts the match,
    once, and moves the lane on."""
    ladders, spec, first = await _first_match_over(deployment)
    target: Any = ladders.store if dies_at == "listing" else ladders.slots
    name = "push_once" if dies_at == "listing" else "end"
    real = getattr(target, name)

    async def dies(*args: Any, **kwargs: Any) -> Any:
        if dies_at == "claiming the end":
            await real(*args, **kwargs)  # listed, then the replica dies before the claim
        raise _Died

    monkeypatch.setattr(target, name, dies)
    with pytest.raises(_Died):
        await ladders.pass_once()
    monkeypatch.setattr(target, name, real)
    await ladders.pass_once()
    await ladders.pass_once()
    listed = await ladders.recent(spec.ladder_id, 10)
    assert [m.match_id for m in listed] == [first.match_id]
    assert listed[0].status == "finished"
    assert await ladders.played(spec.ladder_id) == 1
    (second,) = await ladders.in_flight(spec.ladder_id)
    assert second.match_id != first.match_id


async def test_a_bot_kept_off_ladders_is_never_seated_nor_ranked_there(
    deployment: Deployment,
) -> None:
    """A trial found the bots `senet tournament create` hosts playing rated ladder
    matches, though the docs say they are registered for the tournament alone.
    Registered with ``off_ladders``, a bot plays only what it is entered in."""
    server = await deployment.start(ladder_interval_s=3600, ladder_presence_s=0)
    client = deployment.client(server)
    stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    players = player_service_pb2_grpc.PlayerServiceStub(client.channel)
    guest = await players.RegisterGuest(ppb.RegisterGuestRequest(display_name="Ada"))
    identity = (("x-senet-identity", guest.identity_token),)
    for name, off in (("one", False), ("two", False), ("hosted", True)):
        request = lpb.RegisterBotRequest(name=name, game_ids=[GAME], off_ladders=off)
        registered = await stub.RegisterBot(request, metadata=identity)
        assert registered.bot.off_ladders is off
    ladders = ladders_of(server)
    spec = await ladders.start(
        Caller(is_admin=True), LadderSpec(GAME, 2, decision_ms=60_000, max_in_flight=3)
    )
    for _ in range(3):
        await ladders.pass_once()
    names = {b.bot_id: b.name for b in await ladders.remote.bots()}
    in_flight = await ladders.in_flight(spec.ladder_id)
    assert in_flight and all({names[b] for b in m.bot_ids} == {"one", "two"} for m in in_flight)
    got = await stub.GetLadder(lpb.GetLadderRequest(ladder_id=spec.ladder_id))
    assert {s.bot.name for s in got.standings} == {"one", "two"}
    index = await stub.ListLadders(lpb.ListLaddersRequest(game_id=GAME))
    assert (index.ladders[0].active_bots, index.ladders[0].bots) == (2, 2)
    listed = {b.name: b for b in (await stub.ListBots(lpb.ListBotsRequest(game_id=GAME))).bots}
    assert listed["hosted"].off_ladders and not listed["one"].off_ladders
    # Registering again sets it anew: the same bot may join the ladders later.
    again = lpb.RegisterBotRequest(name="hosted", game_ids=[GAME])
    assert not (await stub.RegisterBot(again, metadata=identity)).bot.off_ladders


async def test_a_store_outage_is_said_every_few_seconds_not_at_every_pass(
    deployment: Deployment, caplog: pytest.LogCaptureFixture
) -> None:
    """An operator's trial counted 54 'ladder pass failed' lines in 12 s of a Redis
    outage on one replica (beside the matchmaking, clock and lobby loops')."""
    server = await deployment.start(ladder_interval_s=3600)
    ladders = ladders_of(server)
    ladders.settings = dataclasses.replace(ladders.settings, ladder_interval_s=0.001)
    failures = 0

    async def failing() -> None:
        nonlocal failures
        failures += 1
        raise StoreUnavailable("redis unavailable")

    ladders.passes = [failing]
    with caplog.at_level(logging.WARNING, logger="senet.ladder"):
        loop = asyncio.create_task(ladders.run())

        async def fifty() -> bool:
            return failures >= 50

        await wait_until(fifty, 30)
        loop.cancel()
        await asyncio.gather(loop, return_exceptions=True)
    told = [r for r in caplog.records if r.getMessage() == "ladder pass failed"]
    assert len(told) == 1 and told[0].error == "redis unavailable"  # type: ignore[attr-defined]
