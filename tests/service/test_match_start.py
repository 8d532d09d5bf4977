"""The start of a match is a signal of its own: streams opened while it waited
for players learn of it, on every replica, and are prompted.

A match with open seats starts with the claim of its last open seat. That is no
commit (the version stays 0), yet it changes what the seats may do: nobody
decides before it, and a fair match is dealt only then. So every WatchMatch and
PlayMatch stream that began before it gets a snapshot of the started match (the
real deal, the seats to decide, ``started``), and a PlayMatch stream of a
deciding seat its turn with it, whichever replica took the last join.
"""

from __future__ import annotations

import pytest

from senet.games import get_game
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, Deployment, Stream, current_seat

#: Every game with a seat count it plays at.
GAMES = [("mykerinos", 2), ("archeos", 2), ("marenostrum", 3)]


@pytest.fixture(params=["memory", "redis", "redis-cluster"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def open_play(
    client: Client, match_id: str, compact: bool, from_version: int | None = None
) -> Stream[ms.PlayMatchResponse]:
    call = client.play()
    hello = ms.PlayHello(match_id=match_id, compact=compact)
    if from_version is not None:
        hello.from_version = from_version
    await call.write(ms.PlayMatchRequest(hello=hello))
    return call


def assert_waiting(summary: match_pb2.MatchSummary) -> None:
    assert not summary.started
    assert summary.status == match_pb2.MATCH_STATUS_ACTIVE
    assert current_seat(summary) is None
    assert list(summary.deciding_seats) == []


async def read_start(
    client: Client, call: Stream[ms.PlayMatchResponse], seat: int, compact: bool
) -> tuple[match_pb2.MatchSummary, ms.YourTurn | None]:
    """The start as a stream of ``seat`` receives it: a snapshot, and the turn.

    Heartbeats may come first (a stream with a short heartbeat gets several while
    the start travels); each still says the match is at version 0."""
    message = await client.read(call)
    while message is not None and message.WhichOneof("message") == "heartbeat":
        assert message.heartbeat.version == 0, message
        message = await client.read(call)
    assert message is not None and message.WhichOneof("message") == "snapshot", message
    summary = message.snapshot.match
    assert summary.started and summary.version == 0
    if seat not in summary.deciding_seats:
        assert not message.HasField("turn")
        return summary, None
    if compact:
        assert message.HasField("turn")
        return summary, message.turn
    prompt = await client.read(call)
    assert prompt is not None and prompt.WhichOneof("message") == "your_turn", prompt
    return summary, prompt.your_turn


@pytest.mark.parametrize("compact", [False, True], ids=["classic", "compact"])
@pytest.mark.parametrize("fair", [True, False], ids=["fair", "chosen-seed"])
@pytest.mark.parametrize(("game_id", "seats"), GAMES)
async def test_streams_opened_before_the_start_get_it_and_are_prompted(
    deployment: Deployment, game_id: str, seats: int, fair: bool, compact: bool
) -> None:
    """Each seat but the last joins on one replica and opens its stream at once
    (the natural order); the last seat joins on the other replica. With a chosen
    seed the last joiner is one that does not decide first, so a waiting stream
    is always among those to prompt; with a fair deal, whoever it deals."""
    one, two = await deployment.start(), await deployment.start()
    near, far = deployment.client(one), deployment.client(two)
    seed = None if fair else 20261202
    created = await near.create(seats, game_id=game_id, seed=seed)
    match_id = created.match_id
    order = list(range(seats))
    if seed is not None:
        first = get_game(game_id).new_match(seats, seed=seed).deciding_seats()
        order.sort(key=lambda s: s not in first)  # a first decider joins early
    streams: dict[int, tuple[Client, Stream[ms.PlayMatchResponse]]] = {}
    for seat in order[:-1]:
        joined = await near.join(match_id, seat, f"p{seat}")
        player = near.as_seat(joined.token)
        call = await open_play(player, match_id, compact)
        opening = await player.read(call)
        assert opening is not None and opening.WhichOneof("message") == "snapshot"
        assert_waiting(opening.snapshot.match)
        assert not opening.HasField("turn")
        streams[seat] = (player, call)
    spectator = near.watch(match_id)
    opening_watch = await near.read(spectator)
    assert opening_watch is not None
    assert_waiting(opening_watch.snapshot.match)

    last = await far.join(match_id, order[-1], "last")
    assert last.match.started
    deciding = list(last.match.deciding_seats)
    assert deciding and current_seat(last.match) == deciding[0]

    prompted = []
    for seat, (player, call) in streams.items():
        summary, turn = await read_start(player, call, seat, compact)
        assert list(summary.deciding_seats) == deciding
        assert [s.claimed for s in summary.seats] == [True] * seats
        if turn is not None:
            assert (turn.seat, turn.version) == (seat, 0) and turn.actions
            prompted.append(seat)
        # The real deal: what the seat's legal actions say now.
        legal = await player.legal(match_id)
        assert [a.notation for a in legal.actions] == (
            [a.notation for a in turn.actions] if turn is not None else []
        )
    assert prompted == [s for s in streams if s in deciding]
    if not fair:
        assert prompted
    started = await near.read(spectator)
    assert started is not None and started.WhichOneof("message") == "snapshot"
    assert started.snapshot.match.started
    assert list(started.snapshot.match.deciding_seats) == deciding


async def test_a_stream_resumed_at_version_0_before_the_start_gets_it(
    deployment: Deployment,
) -> None:
    """A client that lost its stream while waiting resumes from version 0: the
    start still reaches it, as a snapshot with its turn."""
    server = await deployment.start(heartbeat_s=0.05)
    client = deployment.client(server)
    created = await client.create(2, seed=7)
    first = get_game("mykerinos").new_match(2, seed=7).current_seat()
    assert first is not None
    joined = await client.join(created.match_id, first, "early")
    player = client.as_seat(joined.token)
    call = await open_play(player, created.match_id, compact=False, from_version=0)
    # A resumed stream sends no snapshot: its first heartbeat says it is open.
    beat = await player.read(call)
    assert beat is not None and beat.WhichOneof("message") == "heartbeat"
    await client.join(created.match_id, 1 - first, "late")
    summary, turn = await read_start(player, call, first, compact=False)
    assert turn is not None and summary.started


async def test_a_stream_of_a_seat_reopened_before_the_start_ends_at_the_start(
    deployment: Deployment,
) -> None:
    """A player who left a waiting match (the seat reopened) and kept its stream
    must not see the seat's hand once another player takes the seat."""
    server = await deployment.start()
    client = deployment.client(server)
    created = await client.create(2)
    left = client.as_seat((await client.join(created.match_id, 0, "leaver")).token)
    call = await open_play(left, created.match_id, compact=True)
    assert (await left.read(call)) is not None
    reply = await left.stub.LeaveMatch(
        ms.LeaveMatchRequest(match_id=created.match_id), metadata=left.metadata
    )
    assert reply.outcome == ms.LEAVE_OUTCOME_REOPENED
    await client.join(created.match_id, 0, "newcomer")
    await client.join(created.match_id, 1, "other")
    with pytest.raises(Exception) as ended:
        while await left.read(call) is not None:
            pass
    assert "revoked" in str(ended.value)


async def test_heartbeats_before_the_start_say_version_0(deployment: Deployment) -> None:
    server = await deployment.start(heartbeat_s=0.05)
    client = deployment.client(server)
    created = await client.create(2)
    player = client.as_seat((await client.join(created.match_id, 0, "early")).token)
    call = await open_play(player, created.match_id, compact=True)
    assert (await player.read(call)) is not None
    beat = await player.read(call)
    assert beat is not None and beat.WhichOneof("message") == "heartbeat"
    assert beat.heartbeat.version == 0
