"""Mare Nostrum: Mythology end to end, as a user of the server plays it (issue 18).

Real sockets and the real Redis store (the session's private ``redis-server``):

* six seats played only by hosted bots (random and greedy, embedded bot workers),
  from creation to the final places, through the trade's simultaneous hidden offers;
* three seats played by clients over gRPC, where the two undrawn civilizations
  are neutral empires on the board, shown as such in every view, and Atlantis
  (which plays only with six) is absent.

Both matches are shortened with the game's own ``turn_limit`` option, which ends and
ranks a match nobody has won; the export of each replays, with the rules core
alone, to the final scores and places the server reported.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from senet.cli.beside import embedded_bot_workers
from senet.service.server import RunningServer
from senet.v1 import games_pb2, match_pb2
from senet.v1 import mare_nostrum_pb2 as mn
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, Deployment, check_export, current_seat

GAME = "marenostrum"
CIVILIZATIONS = 6
#: Turns each match lasts: enough for several trades, short enough for the suite.
SIX_SEAT_TURNS = 6
THREE_SEAT_TURNS = 8
#: How long a stream may stay silent while bots are playing before the test gives up.
STREAM_SILENCE_S = 60.0


def turn_limit(turns: int) -> dict[str, games_pb2.OptionValue]:
    return {"turn_limit": games_pb2.OptionValue(int_value=turns)}


@pytest.fixture
async def redis_deployment(redis_url: str, redis_key_prefix: str) -> AsyncIterator[Deployment]:
    """In-process servers over the private Redis (never the memory store)."""
    running = Deployment("redis", redis_url, redis_key_prefix)
    try:
        yield running
    finally:
        await running.close()


@dataclass
class Watched:
    """What a spectator's WatchMatch stream delivered, from snapshot to the end."""

    snapshot: ms.WatchMatchResponse | None = None
    updates: list[match_pb2.MatchUpdate] = field(default_factory=list)

    def events(self) -> list[mn.MareNostrumEvent]:
        return [e.marenostrum for u in self.updates for e in u.events]


async def watch_to_end(client: Client, match_id: str) -> Watched:
    """Read a WatchMatch stream until the server ends it (after the finishing update)."""
    watched = Watched()
    call = client.watch(match_id)
    while (message := await client.read(call, timeout=STREAM_SILENCE_S)) is not None:
        if message.HasField("snapshot"):
            watched.snapshot = message
        elif message.HasField("update"):
            watched.updates.append(message.update)
    return watched


def assert_places(places: list[int], scores: list[int]) -> None:
    """Places are 1-based, the best score is first, and a better score is never placed
    behind a worse one (ties may share a place)."""
    assert len(places) == len(scores)
    assert min(places) == 1 and max(places) <= len(places)
    for a, score_a in enumerate(scores):
        for b, score_b in enumerate(scores):
            if score_a > score_b:
                assert places[a] <= places[b], (places, scores)


@pytest.mark.slow
async def test_six_hosted_bots_play_a_match_to_the_end_on_redis(
    redis_deployment: Deployment,
) -> None:
    """Issue 18, first scenario: nobody but bot workers plays; the match must still
    go through every phase, the simultaneous offers included, and end ranked."""
    server = await redis_deployment.start()
    stop = asyncio.Event()
    workers = asyncio.create_task(embedded_bot_workers(2)(server, stop))
    client = redis_deployment.client(server)
    strategies = ["random", "greedy", "greedy", "random", "greedy", "random"]
    plans = [match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy=s) for s in strategies]
    try:
        created = await client.create(
            plans, seed=618, game_id=GAME, options=turn_limit(SIX_SEAT_TURNS)
        )
        match_id = created.match_id
        watched = await watch_to_end(client.as_seat(None), match_id)
    finally:
        stop.set()
        await asyncio.wait_for(workers, 10)

    final = await client.get(match_id)
    summary, view = final.match, final.view.marenostrum
    assert summary.status == match_pb2.MATCH_STATUS_FINISHED
    assert current_seat(summary) is None and not summary.deciding_seats
    assert [s.kind for s in summary.seats] == [match_pb2.SEAT_KIND_BOT] * 6
    assert [s.bot_strategy for s in summary.seats] == strategies
    assert_places(list(summary.places), list(summary.scores))
    assert list(view.places) == list(summary.places)
    assert view.step == mn.MARE_NOSTRUM_STEP_OVER
    # Six seats: every civilization is played, none is neutral.
    assert sorted(c.seat for c in view.civilizations if c.HasField("seat")) == list(range(6))

    assert watched.snapshot is not None
    assert [u.version for u in watched.updates] == list(range(1, summary.version + 1))
    assert watched.updates[-1].status == match_pb2.MATCH_STATUS_FINISHED
    events = watched.events()
    over = [e for e in events if e.kind == mn.MARE_NOSTRUM_EVENT_KIND_GAME_OVER]
    assert len(over) == 1 and list(over[0].places) == list(summary.places)
    if not over[0].HasField("winner"):
        assert over[0].reason == "turn_limit"
    # The bots went through the trade: several seats offered at once, hidden, then
    # the offers were revealed (and the spectator only ever saw the public form).
    assert any(len(u.deciding_seats) > 1 for u in watched.updates)
    assert any(e.kind == mn.MARE_NOSTRUM_EVENT_KIND_OFFERS_REVEALED for e in events)
    offers = [u for u in watched.updates if u.notation.startswith("offer")]
    assert offers and all(u.notation == "offer" for u in offers)
    # Turn 1 starts with the match (the snapshot); the updates start the others, up
    # to the limit, unless somebody won before it.
    assert watched.snapshot.snapshot.view.marenostrum.turn == 1
    turns = [e.turn for e in events if e.kind == mn.MARE_NOSTRUM_EVENT_KIND_TURN_STARTED]
    assert turns == list(range(2, SIX_SEAT_TURNS + 1)) or over[0].HasField("winner")

    export = await client.export(match_id)
    check_export(export, final, created.match.seed_commitment)


async def play_three_seats(
    seats: list[Client], spectator: Client, match_id: str, rng: random.Random
) -> list[ms.SubmitActionResponse]:
    """Random legal actions to the end; among several deciding seats a random one
    acts, every fifth action is sent typed. Returns the replies, in order."""
    replies = []
    summary = (await spectator.get(match_id)).match
    version, deciding = summary.version, list(summary.deciding_seats)
    while deciding:
        seat = rng.choice(deciding)
        legal = await seats[seat].legal(match_id)
        assert (legal.version, legal.seat) == (version, seat) and legal.actions
        choice = rng.choice(legal.actions)
        typed = version % 5 == 0
        reply = await seats[seat].submit(
            match_id,
            None if typed else choice.notation,
            typed=choice.action if typed else None,
            expected_version=version,
        )
        assert reply.version == version + 1 and not reply.duplicate
        replies.append(reply)
        version = reply.version
        deciding = list((await spectator.get(match_id)).match.deciding_seats)
    return replies


def neutrals_of(view: mn.MareNostrumView) -> list[mn.MareNostrumCivilizationState]:
    return [c for c in view.civilizations if not c.HasField("seat") and not c.absent]


def forces_of(view: mn.MareNostrumView, civ: int) -> tuple[int, int, int]:
    """(provinces under ``civ``'s influence, its legions, its creatures) on the board."""
    influence = sum(1 for p in view.provinces if p.influence == civ)
    legions = sum(f.legions for p in view.provinces for f in p.forces if f.civilization == civ)
    creatures = sum(f.creatures for p in view.provinces for f in p.forces if f.civilization == civ)
    return influence, legions, creatures


@pytest.mark.slow
async def test_three_seats_play_to_the_end_beside_two_neutral_empires(
    redis_deployment: Deployment,
) -> None:
    """Issue 18, second scenario: at three players the two undrawn civilizations are
    neutral empires and Atlantis is absent (ruling R1). Every viewer sees the
    neutrals as civilizations without a seat, holding their capital with influence,
    legions, a fortress and their creature, from the first view to the last."""
    server: RunningServer = await redis_deployment.start()
    client = redis_deployment.client(server)
    created = await client.create(3, seed=31, game_id=GAME, options=turn_limit(THREE_SEAT_TURNS))
    match_id = created.match_id
    tokens = [(await client.join(match_id, s, f"p{s}")).token for s in range(3)]
    seats = [client.as_seat(t) for t in tokens]
    spectator = client.as_seat(None)

    first = await spectator.get(match_id)
    start = first.view.marenostrum
    neutrals = neutrals_of(start)
    assert len(start.civilizations) == CIVILIZATIONS and len(neutrals) == 2
    absent = [c for c in start.civilizations if c.absent]
    assert len(absent) == 1 and forces_of(start, absent[0].civilization) == (0, 0, 0)
    played = {c.civilization for c in start.civilizations if c.HasField("seat")}
    assert played == {p.civilization for p in start.players} and len(played) == 3
    for civ in neutrals:
        assert civ.capital and civ.creature
        capital = next(p for p in start.provinces if p.id == civ.capital)
        assert capital.influence == civ.civilization and capital.fortresses >= 1
        ours = [f for f in capital.forces if f.civilization == civ.civilization]
        assert ours and ours[0].legions >= 1 and ours[0].creatures == 1
        influence, legions, _creatures = forces_of(start, civ.civilization)
        # Ruling R3: the capital and the provinces bordering it, a legion each.
        assert influence >= 3 and legions == influence
    # Every seat sees the same neutrals as the spectator.
    for seat_client in seats:
        mine = (await seat_client.get(match_id)).view.marenostrum
        assert list(mine.civilizations) == list(start.civilizations)

    replies = await play_three_seats(seats, spectator, match_id, random.Random(31))
    assert replies[-1].status == match_pb2.MATCH_STATUS_FINISHED

    final = await spectator.get(match_id)
    end = final.view.marenostrum
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    assert_places(list(final.match.places), list(final.match.scores))
    assert list(end.places) == list(final.match.places) and len(end.places) == 3
    # Still neutral at the end, and still on the board (neutrals never move; only
    # battles against them change what they hold).
    assert [c.civilization for c in neutrals_of(end)] == [c.civilization for c in neutrals]
    assert any(forces_of(end, c.civilization) != (0, 0, 0) for c in neutrals)
    assert all(p.seat < 3 for p in end.players) and len(end.players) == 3
    for reply in replies:
        for event in reply.events:
            if event.marenostrum.HasField("seat"):
                assert event.marenostrum.seat < 3  # no event names a seat for a neutral

    export = await spectator.export(match_id)
    check_export(export, final, created.match.seed_commitment)
