"""A bot benched for timing out rests, then comes back once its worker calls.

Issue 37: "the ladder marks it inactive after repeated timeouts". A bench that only
registering again could end (which replaces the bot's key) left a bot whose worker
died and was restarted out of its ladders for good, and said nothing of it; so a
bench is a rest that doubles for each bench in a row (``ladder_bench_rest_s``).
"""

from __future__ import annotations

import time
from dataclasses import replace

from prometheus_client import REGISTRY

from senet.service.access import Caller
from senet.service.ladder import Ladders, LadderSpec
from senet.service.remote_bots import BOTS, MAX_REST_S, SEEN, RemoteBot, rest_s
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc
from tests.service.conftest import GUEST_ADA, Deployment, announce, wait_until
from tests.service.test_ladder import GAME, ladders_of, register

NOTE = "3 decisions in a row timed out (match m1)"


def test_a_rest_doubles_for_each_bench_in_a_row_up_to_a_day() -> None:
    assert [rest_s(60, n) for n in (1, 2, 3, 4)] == [60, 120, 240, 480]
    assert rest_s(60, 20) == MAX_REST_S == 86_400
    assert rest_s(0, 3) == 0  # the operator's "until it registers again"


def test_a_benched_bot_may_come_back_after_its_rest_once_its_worker_called() -> None:
    bot = RemoteBot("b", "o", "n", (GAME,), "h", 0.0, active=False, benches=1, benched_until=100)
    assert not bot.may_come_back(99, 99)  # resting
    assert not bot.may_come_back(101, 99)  # its worker last called during the rest
    assert bot.may_come_back(101, 100.5)
    assert bot.may_come_back(101, None)  # a server that asks for no worker
    assert not replace(bot, benched_until=0).may_come_back(10**10, 10**10)
    assert not replace(bot, active=True).may_come_back(101, 101)


def _back_count(ladder_id: str) -> float:
    sample = REGISTRY.get_sample_value("senet_ladder_bots_back_total", {"ladder": ladder_id})
    return sample or 0.0


async def _edit(ladders: Ladders, bot_id: str, **changes: object) -> None:
    """Rewrite a stored bot (to move its rest into the past without waiting)."""
    bot = await ladders.remote.bot(bot_id)
    await ladders.store.put(BOTS, bot_id, replace(bot, **changes).to_json())  # type: ignore[arg-type]


async def test_a_benched_bot_comes_back_once_rested_and_its_worker_calls(
    deployment: Deployment,
) -> None:
    server = await deployment.start(ladder_interval_s=3600)  # passes by hand only
    ladders = ladders_of(server)
    keys = {}
    for name in ("a", "b"):
        _, keys[name] = await ladders.remote.register(GUEST_ADA, name, [GAME])
    client = deployment.client(server)
    for key in keys.values():
        await announce(client.channel, key)
    b = (await ladders.remote.by_key(keys["b"])).bot_id
    spec = LadderSpec(GAME, 2, decision_ms=60_000, max_in_flight=0)  # paused: no match
    await ladders.start(Caller(is_admin=True), spec)
    stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)

    async def seatable() -> int:
        index = await stub.ListLadders(lpb.ListLaddersRequest(game_id=GAME))
        return index.ladders[0].active_bots

    before = time.time()
    benched, _ = await ladders.remote.bench(b, NOTE, 60)
    assert (benched.active, benched.benches, benched.note) == (False, 1, NOTE)
    # Another replica's pass over the same streak: still one bench.
    assert await ladders.remote.bench(b, "the same streak", 60) == (benched, False)
    assert before + 60 <= benched.benched_until <= time.time() + 60
    listed = {x.name: x for x in (await stub.ListBots(lpb.ListBotsRequest())).bots}
    assert listed["b"].benched_until_ms == int(benched.benched_until * 1000)
    assert listed["a"].benched_until_ms == 0
    await ladders.pass_once()
    assert not (await ladders.remote.bot(b)).active and await seatable() == 1  # resting

    # The rest is over, but the worker last called before it ended (it died).
    now = time.time()
    await _edit(ladders, b, benched_until=now - 10)
    await ladders.store.put(SEEN, b, f"{now - 20:.3f}")
    await ladders.pass_once()
    assert not (await ladders.remote.bot(b)).active

    # Restarted with the same key: its worker calls, and the bot is back.
    await ladders.store.put(SEEN, b, f"{time.time():.3f}")
    before = _back_count(spec.ladder_id)
    await ladders.pass_once()
    assert _back_count(spec.ladder_id) == before + 1  # senet_ladder_bots_back_total
    back = await ladders.remote.bot(b)
    assert (back.active, back.note, back.benches) == (True, "", 1) and await seatable() == 2

    # Benched again in a row: a rest twice as long.
    again, _ = await ladders.remote.bench(b, NOTE, 60)
    assert again.benches == 2 and 119 <= again.benched_until - time.time() <= 120


async def test_a_match_played_to_its_end_after_coming_back_forgets_the_benches(
    deployment: Deployment,
) -> None:
    # No workers, a ladder that seats bots without one (ladder_presence_s=0), and
    # a clock every decision times out on, too few in a row to bench.
    server = await deployment.start(ladder_interval_s=3600, ladder_presence_s=0)
    ladders = ladders_of(server)
    a, b = await register(ladders, "a", "b")
    await _edit(ladders, a.bot_id, benches=3, benched_until=time.time() - 5)
    # Without a worker to wait for, a rested bot is back at the next pass.
    await _edit(ladders, b.bot_id, active=False, note=NOTE, benches=1, benched_until=1.0)
    spec = LadderSpec(GAME, 2, decision_ms=20, max_in_flight=1, inactive_after=100_000)
    await ladders.start(Caller(is_admin=True), spec)
    await ladders.pass_once()
    (match,) = await ladders.in_flight(spec.ladder_id)
    assert set(match.bot_ids) == {a.bot_id, b.bot_id}

    async def forgotten() -> bool:
        await ladders.pass_once()
        return (await ladders.remote.bot(a.bot_id)).benches == 0

    await wait_until(forgotten, 60)
    assert (await ladders.remote.bot(b.bot_id)).benches == 0


async def test_a_server_without_rests_keeps_a_bot_benched_until_it_registers_again(
    deployment: Deployment,
) -> None:
    server = await deployment.start(ladder_interval_s=3600, ladder_bench_rest_s=0)
    ladders = ladders_of(server)
    (a,) = await register(ladders, "a")
    benched, _ = await ladders.remote.bench(a.bot_id, NOTE, 0)
    assert benched.benched_until == 0
    await ladders.store.put(SEEN, a.bot_id, f"{time.time() + 1:.3f}")
    spec = LadderSpec(GAME, 2, decision_ms=60_000, max_in_flight=0)
    await ladders.start(Caller(is_admin=True), spec)
    await ladders.pass_once()
    assert not (await ladders.remote.bot(a.bot_id)).active
    again, _ = await ladders.remote.register(GUEST_ADA, "a", [GAME])
    assert (again.active, again.benches, again.benched_until) == (True, 0, 0)


async def test_a_match_begun_before_a_bot_came_back_does_not_bench_it_again(
    deployment: Deployment,
) -> None:
    """Its streak in that match is the one its last bench punished (a worker that
    died in two matches at once is benched once, not once per match)."""
    server = await deployment.start(ladder_interval_s=3600, ladder_presence_s=0)
    ladders = ladders_of(server)
    a, b = await register(ladders, "a", "b")
    # No workers: every decision times out, two in a row bench.
    spec = LadderSpec(GAME, 2, decision_ms=20, max_in_flight=1, inactive_after=2)
    await ladders.start(Caller(is_admin=True), spec)
    await ladders.pass_once()
    (match,) = await ladders.in_flight(spec.ladder_id)
    # a's last rest ended after this match began.
    await _edit(ladders, a.bot_id, benches=1, benched_until=match.created_at + 0.001)

    async def b_benched() -> bool:
        await ladders.pass_once()
        return not (await ladders.remote.bot(b.bot_id)).active

    await wait_until(b_benched, 60)
    kept = await ladders.remote.bot(a.bot_id)
    assert kept.active and kept.benches == 1
