"""Hosted matches never stall: a seeded mix of everything that hands a seat on.

Two replicas over one store (a real Redis, a Redis Cluster, where the queues
and the matches live in different slots, and the embedded store shared in
process), a bot worker on each, and matches of every game whose people behave
as people do: some play every prompt, some never act (their clocks run out,
and after enough timeouts in a row a bot takes the seat), some play a while and
leave (their seat resigns or goes to a bot, by the match's leave policy).
Every seat's moves go through a replica picked at random, so claims change on
one replica while the other decides.

Every match must finish, and none may stand still on the way. Races between
the hand-overs (a takeover's claim swap against a timeout's commit, a worker's
lease against a swap) leave a match waiting for good rather than failing a
call, so this test states the one outcome that matters and, when a match is
stuck, shows where it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass

import pytest

from senet.bots.worker import BotWorker
from senet.client.client import SeatClient, SenetClient
from senet.client.errors import SenetRpcError
from senet.service.server import RunningServer
from senet.v1 import match_pb2, match_service_pb2
from tests.service.conftest import WORKER_KEY, Deployment

#: Matches of each game, each with its own seed.
GAMES: tuple[tuple[str, int, dict[str, bool | int | str]], ...] = (
    ("mykerinos", 2, {"quick": True}),
    ("mykerinos", 3, {"quick": True}),
    ("archeos", 2, {}),
    ("marenostrum", 3, {"turn_limit": 1}),
)
ROUNDS = 3
#: A match whose version has not moved for this long is stuck: its clocks
#: alone (40-80 ms a decision) would have moved it hundreds of times.
STILL_S = 20.0
BEHAVIOURS = ("player", "idle", "quitter")


@dataclass
class Person:
    """One open seat and what its player does."""

    seat: SeatClient
    behaviour: str
    rng: random.Random


async def _act(person: Person) -> None:
    """Play every prompt; a quitter leaves after a few moves."""
    moves = 0
    quit_after = person.rng.randint(1, 6)

    async def decide(turn: match_service_pb2.YourTurn) -> str | None:
        nonlocal moves
        moves += 1
        return person.rng.choice(list(turn.actions)).notation

    if person.behaviour == "player":
        await person.seat.play(decide)
        return
    while moves < quit_after:
        try:
            turn = await person.seat.legal_actions()
        except SenetRpcError:
            return  # the seat was handed on meanwhile (its clock ran out too often)
        if turn.actions:
            try:
                await person.seat.submit(person.rng.choice(list(turn.actions)).notation)
                moves += 1
            except SenetRpcError:
                pass  # too late (its clock ran out) or not its turn: look again
        await asyncio.sleep(0.01)
    with contextlib.suppress(SenetRpcError):  # already handed on, or the match is over
        await person.seat.leave()


async def _match(
    clients: list[SenetClient], game: str, seats: int, options: dict[str, bool | int | str],
    seed: int,
) -> tuple[str, list[asyncio.Task[None]]]:  # fmt: skip
    rng = random.Random(seed)
    control = match_pb2.TimeControl(
        decision_ms=rng.choice((40, 80)),
        handover_after=rng.choice((1, 2)),
        handover_strategy="greedy",
        timeout_policy=rng.choice(
            (match_pb2.TIMEOUT_POLICY_BOT_MOVE, match_pb2.TIMEOUT_POLICY_RESIGN)
        ),
    )
    if control.timeout_policy == match_pb2.TIMEOUT_POLICY_RESIGN:
        control.ClearField("handover_after")
        control.ClearField("handover_strategy")
    bots = ["random"] if rng.random() < 0.5 else []
    people = seats - len(bots)
    to_bot = rng.random() < 0.5
    match_id = await rng.choice(clients).create_match(
        game, people, bots=bots, options=options, seed=seed, time_control=control,
        leave_policy=match_pb2.LEAVE_POLICY_BOT if to_bot else match_pb2.LEAVE_POLICY_RESIGN,
        leave_bot_strategy="greedy" if to_bot else "",
    )  # fmt: skip
    tasks = []
    for n in range(people):
        seat = await rng.choice(clients).join(match_id, f"p{n}")
        behaviour = rng.choice(BEHAVIOURS)
        if behaviour != "idle":
            person = Person(seat, behaviour, random.Random(rng.random()))
            tasks.append(asyncio.create_task(_act(person)))
    return match_id, tasks


async def _where_it_waits(client: SenetClient, match_id: str) -> str:
    got = (await client.get(match_id)).match
    seats = [
        (s.seat, s.display_name, s.takeover_strategy, s.resigned, s.bot_strategy) for s in got.seats
    ]
    return f"{match_id}: version {got.version}, deciding {list(got.deciding_seats)}, seats {seats}"


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory", "redis", "redis-cluster"])
async def test_hosted_matches_with_every_kind_of_hand_over_all_finish(
    deployment: Deployment, server: RunningServer
) -> None:
    second = await deployment.start()
    targets = [f"127.0.0.1:{s.port}" for s in (server, second)]
    clients = [SenetClient(t) for t in targets]
    stop = asyncio.Event()
    workers = [BotWorker(t, worker_key=WORKER_KEY, capacity=8, lease_ms=2000) for t in targets]
    running = [asyncio.create_task(w.run(stop)) for w in workers]
    people: list[asyncio.Task[None]] = []
    try:
        matches = []
        for round_ in range(ROUNDS):
            for n, (game, seats, options) in enumerate(GAMES):
                match_id, tasks = await _match(clients, game, seats, options, 100 * round_ + n)
                matches.append(match_id)
                people += tasks

        async def stuck(match_id: str) -> bool:
            """Whether the match stops moving before it finishes."""
            loop = asyncio.get_running_loop()
            version, moved = -1, loop.time()
            while loop.time() - moved < STILL_S:
                got = (await clients[0].get(match_id)).match
                if got.status == match_pb2.MATCH_STATUS_FINISHED:
                    return False
                if got.version != version:
                    version, moved = got.version, loop.time()
                await asyncio.sleep(0.2)
            return True

        verdicts = await asyncio.gather(*(stuck(m) for m in matches))
        waiting = [m for m, still in zip(matches, verdicts, strict=True) if still]
        assert not waiting, "stuck matches:\n" + "\n".join(
            [await _where_it_waits(clients[0], m) for m in waiting]
        )
    finally:
        stop.set()
        for task in people:
            task.cancel()
        await asyncio.gather(*people, return_exceptions=True)
        await asyncio.wait_for(asyncio.gather(*running), 10)
        for client in clients:
            await client.close()
