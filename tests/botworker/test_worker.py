"""Bot workers end to end: an in-process server, workers, one in-test player.

Checks that the decisions of bot seats get played; that a capacity-1 worker
serves an active match while a thousand matches with bot seats wait for players
(they cost it nothing); and that when a worker dies mid-decision (its task
cancelled, nothing released) another takes the decision over once the lease
expires, the match still finishes, and the dead worker's token is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import grpc
import pytest

from senet.bots.base import Strategy, make_strategy
from senet.bots.worker import BotWorker, rules_differences
from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.codec import game_info_to_proto
from senet.games import Game, all_games, get_game
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store import MatchStore
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from senet.v1 import bot_service_pb2, games_pb2, match_pb2, match_service_pb2
from tests.conftest import STORE_BUDGET_S, play_rules_version

ADMIN = "test-admin-key"
LEASE_MS = 300


@pytest.fixture(params=["memory", "redis"])
async def server(request: pytest.FixtureRequest) -> AsyncIterator[RunningServer]:
    """A server on port 0 with an admin key, over the in-memory store or Redis."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    store: MatchStore
    if request.param == "memory":
        store = MemoryStore()
    else:
        url = request.getfixturevalue("redis_url")
        store = RedisStore.from_url(url, key_prefix=prefix, socket_timeout_s=STORE_BUDGET_S)
    # Tests create many matches from one host: no per-client creation quota.
    settings = Settings(
        port=0, log_json=False, key_prefix=prefix, admin_key=ADMIN, client_creates_per_min=0
    )
    running = await create_server(settings, store, health_interval_s=0.2)
    try:
        yield running
    finally:
        await asyncio.wait_for(running.stop(), 10)


async def _wait_for(condition: object, timeout_s: float, what: str) -> None:
    assert callable(condition)
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def _random_player(
    rng: random.Random, pause_s: float = 0.0
) -> Callable[[match_service_pb2.YourTurn], Awaitable[str]]:
    async def decide(turn: match_service_pb2.YourTurn) -> str:
        if pause_s:
            await asyncio.sleep(pause_s)
        return rng.choice(list(turn.actions)).notation

    return decide


@pytest.mark.slow
async def test_a_capacity_1_worker_serves_the_active_match_beside_1000_waiting_ones(
    server: RunningServer,
) -> None:
    """Issue 14, repro 1: waiting matches with bot seats used to hold every lease."""
    target = f"127.0.0.1:{server.port}"
    bot, open_seat = (
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="random"),
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN),
    )
    async with (
        SenetClient(target, admin_key=ADMIN) as admin,
        SenetClient(target) as player,
    ):
        for start in range(0, 1000, 50):
            await asyncio.gather(
                *(
                    admin.create_match("mykerinos", [bot, open_seat], seed=i)
                    for i in range(start, start + 50)
                )
            )
        greedy = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="greedy")
        match_id = await admin.create_match("mykerinos", [greedy, open_seat], seed=3)
        me = await player.join(match_id, "tester", seat=1)
        worker = BotWorker(target, admin_key=ADMIN, capacity=1, lease_ms=2000, worker_id="solo")
        stop = asyncio.Event()
        bots = asyncio.create_task(worker.run(stop))
        try:
            last = await asyncio.wait_for(me.play(_random_player(random.Random(2))), 120)
        finally:
            stop.set()
            await asyncio.wait_for(bots, 10)
        assert last is not None and last.update.status == match_pb2.MATCH_STATUS_FINISHED
        assert worker.moves > 0
        # Only the active match's seat was ever handed to the worker.
        assert set(worker.acquired) == {(match_id, 0)}


class StuckWorker(BotWorker):
    """A worker that leases one decision and never decides (it will be killed)."""

    async def decide(
        self, client: SenetClient, decision: bot_service_pb2.BotDecision
    ) -> str | match_pb2.Action | None:
        await asyncio.Event().wait()
        return None


@pytest.mark.slow
async def test_a_dead_workers_decision_is_taken_over_and_its_token_refused(
    server: RunningServer,
) -> None:
    target = f"127.0.0.1:{server.port}"
    async with (
        SenetClient(target, admin_key=ADMIN) as admin,
        SenetClient(target) as player,
    ):
        match_id = await admin.create_match("mykerinos", 1, seed=7, bots=["random"] * 3)
        me = await player.join(match_id, "tester")
        assert me.seat == 0
        a = StuckWorker(target, admin_key=ADMIN, capacity=1, lease_ms=LEASE_MS, worker_id="a")
        task_a = asyncio.create_task(a.run())
        human = asyncio.create_task(me.play(_random_player(random.Random(1), 0.01)))
        await _wait_for(lambda: len(a.acquired) == 1, 20, "worker a to lease a decision")
        stuck = a.acquired[0]
        old_token = a.tokens[stuck]
        # a dies holding the lease: nothing released, the lease just expires.
        task_a.cancel()
        await asyncio.gather(task_a, return_exceptions=True)

        b = BotWorker(target, admin_key=ADMIN, capacity=3, lease_ms=LEASE_MS, worker_id="b")
        overlaps: list[object] = []

        async def watch_overlap() -> None:
            while True:
                both = set(a.playing) & set(b.playing)
                if both:
                    overlaps.append(both)
                await asyncio.sleep(0.005)

        watcher = asyncio.create_task(watch_overlap())
        stop = asyncio.Event()
        task_b = asyncio.create_task(b.run(stop))
        await _wait_for(lambda: stuck in b.acquired, 20, "worker b to take the decision over")

        mid, seat = stuck
        with pytest.raises(SenetRpcError) as caught:
            await player.seat(mid, seat, old_token).submit("x", request_id="old")
        assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED
        assert caught.value.reason == "BAD_TOKEN"
        with pytest.raises(SenetRpcError) as caught:
            await player.get(mid, old_token)
        assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED

        await asyncio.wait_for(human, 60)
        final = await admin.get(match_id)
        assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
        await _wait_for(lambda: not b.playing, 10, "b to finish its decisions")
        stop.set()
        await asyncio.wait_for(task_b, 10)
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        assert overlaps == []
        assert {key for key in b.acquired} == {(match_id, s) for s in (1, 2, 3)}


@pytest.mark.slow
async def test_workers_share_the_decisions_of_many_bot_matches(server: RunningServer) -> None:
    target = f"127.0.0.1:{server.port}"
    async with SenetClient(target, admin_key=ADMIN) as admin:
        ids = [
            await admin.create_match("mykerinos", 0, seed=s, bots=["random"] * 2) for s in range(4)
        ]
        workers = [
            BotWorker(target, admin_key=ADMIN, capacity=2, lease_ms=2000, worker_id=w)
            for w in ("p", "q")
        ]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(w.run(stop)) for w in workers]
        try:
            for match_id in ids:
                async with asyncio.timeout(120):
                    async for _ in admin.watch(match_id):
                        pass
        finally:
            stop.set()
            await asyncio.gather(*tasks)
        for match_id in ids:
            assert (await admin.get(match_id)).match.status == match_pb2.MATCH_STATUS_FINISHED
        assert all(w.moves > 0 for w in workers)


async def _into_a_trade(
    server: RunningServer, time_control: match_pb2.TimeControl | None, *, answer: bool
) -> list[match_pb2.MatchSummary]:
    """A 3-player Mare Nostrum match, a person at seat 0 and two random bots. The
    person plays random actions until it is one of several seats offering at once;
    then it holds its offer and reads the summary until only it still decides, or
    until it no longer decides (``answer`` False: it never offers, its clock must).
    Returns the summaries it read from that moment on."""
    target = f"127.0.0.1:{server.port}"
    seen: list[match_pb2.MatchSummary] = []
    done = asyncio.Event()
    rng = random.Random(5)
    async with SenetClient(target, admin_key=ADMIN) as admin, SenetClient(target) as player:
        match_id = await admin.create_match(
            "marenostrum", 1, seed=11, bots=["random"] * 2, time_control=time_control
        )
        me = await player.join(match_id, "tester", seat=0)
        worker = BotWorker(target, admin_key=ADMIN, capacity=4, lease_ms=2000, worker_id="w")
        stop = asyncio.Event()
        bots = asyncio.create_task(worker.run(stop))

        async def decide(turn: match_service_pb2.YourTurn) -> str:
            summary = (await me.get()).match
            if len(summary.deciding_seats) > 1 and not seen:
                seen.append(summary)
                while 0 in summary.deciding_seats and (
                    not answer or len(summary.deciding_seats) > 1
                ):
                    await asyncio.sleep(0.02)
                    summary = (await me.get()).match
                    seen.append(summary)
                done.set()
                if not answer:
                    await asyncio.Event().wait()  # the match moved on without us
            return rng.choice(list(turn.actions)).notation

        play = asyncio.create_task(me.play(decide))
        try:
            await asyncio.wait_for(done.wait(), 90)
        finally:
            play.cancel()
            stop.set()
            await asyncio.wait_for(bots, 10)
            with contextlib.suppress(asyncio.CancelledError, SenetRpcError):
                await play
    return seen


@pytest.mark.slow
async def test_bots_offer_while_a_person_is_still_choosing(server: RunningServer) -> None:
    """Seats deciding at once are each a decision of their own: the bots' offers do
    not wait on the person's, though the person's seat is the current one."""
    seen = await _into_a_trade(server, None, answer=True)
    first, last = seen[0], seen[-1]
    # Which bots are still to offer when the person first looks depends on how
    # fast they are: one may have offered already.
    assert first.current_seat == 0 and {0} < set(first.deciding_seats)
    assert list(last.deciding_seats) == [0]  # everyone else has offered
    assert last.version > first.version


@pytest.mark.slow
async def test_a_clock_runs_for_each_seat_deciding_at_once(server: RunningServer) -> None:
    """Each deciding seat has its own deadline; the others' offers leave the
    person's clock running (its deadline stands), and its timeout offers for it."""
    control = match_pb2.TimeControl(
        decision_ms=1500, timeout_policy=match_pb2.TIMEOUT_POLICY_BOT_MOVE
    )
    seen = await _into_a_trade(server, control, answer=False)
    first = seen[0]
    deadlines = {d.seat: d.deadline_ms for d in first.clock.deciding_deadlines}
    assert set(deadlines) == set(first.deciding_seats)
    assert first.clock.deadline_ms == deadlines[first.deciding_seats[0]]
    mine = deadlines[0]
    trading = [s for s in seen if 0 in s.deciding_seats and len(s.deciding_seats) > 1]
    assert all({d.seat: d.deadline_ms for d in s.clock.deciding_deadlines}[0] == mine
               for s in trading)  # fmt: skip
    # Once the others have offered, until its clock runs out.
    alone = [s for s in seen if list(s.deciding_seats) == [0] and not s.clock.timeouts_in_row[0]]
    assert all(s.clock.deadline_ms == mine for s in alone)
    last = seen[-1]
    assert 0 not in last.deciding_seats and last.clock.timeouts_in_row[0] >= 1


@pytest.mark.parametrize("server", ["memory"], indirect=True)
async def test_a_worker_says_which_games_the_server_plays_under_other_rules(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker rebuilds each position with its own rules core: started against a
    server of other rules (a rolling upgrade half done), it says so at once."""
    infos = [game.info for game in all_games()]
    assert rules_differences([game_info_to_proto(info) for info in infos]) == []
    archeos = type(get_game("archeos"))
    newer = dataclasses.replace(archeos.info, rules_version=archeos.info.rules_version + 1)
    served = [game_info_to_proto(newer if info.id == "archeos" else info) for info in infos]
    served.append(games_pb2.GameInfo(id="a-game-this-worker-lacks", rules_version=3))
    sentence = (
        f"the server plays Archeos Society rules version {newer.rules_version}, and this "
        f"worker's rules core version {archeos.info.rules_version}: its archeos decisions "
        "may be refused until both run the same release"
    )
    assert rules_differences(served) == [sentence]

    play_rules_version(monkeypatch, "archeos", newer.rules_version)  # the server's rules
    monkeypatch.setattr("senet.bots.worker.get_game", lambda game_id: _older(game_id, archeos))
    worker = BotWorker(f"127.0.0.1:{server.port}", admin_key=ADMIN, capacity=1)
    stop = asyncio.Event()
    with caplog.at_level(logging.WARNING, logger="senet.bots"):
        running = asyncio.create_task(worker.run(stop))
        await _wait_for(lambda: sentence in caplog.messages, 10, "the warning")
        stop.set()
        await asyncio.wait_for(running, 10)


def _older(game_id: str, archeos: type[Game]) -> Game:
    """This worker's rules core: Archeos one version behind the server's."""
    game = get_game(game_id)
    if game_id != "archeos":
        return game
    older = dataclasses.replace(archeos.info, rules_version=archeos.info.rules_version - 1)
    older_archeos: type[Game] = type("OlderArcheos", (archeos,), {"info": older})
    return older_archeos()


class StrategylessWorker(BotWorker):
    """A worker installed without the strategies its seats name (an operator's
    worker started without the package that publishes them)."""

    def strategy_for(self, decision: bot_service_pb2.BotDecision, seed: int) -> Strategy:
        return make_strategy("tinybot", seed=seed)


async def test_a_worker_that_cannot_play_a_strategy_says_so_and_leaves_it_to_one_that_can(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A trial's worker lacked a published strategy: its match stood still while
    the worker said nothing (the failure went to an INFO line). Now it warns once,
    naming the strategy and the fix, and a worker that can play it takes over."""
    target = f"127.0.0.1:{server.port}"
    async with SenetClient(target, admin_key=ADMIN) as admin:
        match_id = await admin.create_match("mykerinos", 0, seed=3, bots=["random"] * 2)
        blind = StrategylessWorker(target, admin_key=ADMIN, lease_ms=LEASE_MS, worker_id="x")
        stop = asyncio.Event()
        with caplog.at_level(logging.WARNING, logger="senet.bots"):
            task = asyncio.create_task(blind.run(stop))
            await _wait_for(lambda: len(blind.acquired) >= 3, 20, "a few leases to expire")
            stop.set()
            await asyncio.wait_for(task, 10)
        assert {mid for mid, _ in blind.acquired} == {match_id}
        told = [r for r in caplog.records if "cannot play strategy" in r.getMessage()]
        assert len(told) == 1 and told[0].levelno == logging.WARNING
        message = told[0].getMessage()
        assert "'random'" in message and "unknown strategy 'tinybot'" in message
        assert "installed where `senet bots` runs" in message
        able = BotWorker(target, admin_key=ADMIN, lease_ms=LEASE_MS, worker_id="y")
        stop = asyncio.Event()
        task = asyncio.create_task(able.run(stop))
        await _wait_for(lambda: able.moves > 0, 20, "a worker that can play to move")
        stop.set()
        await asyncio.wait_for(task, 10)
