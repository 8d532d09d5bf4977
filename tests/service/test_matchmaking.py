"""The matchmaking queue end to end: FindMatch on several replicas, one store.

Issue 36: "one ticket is never placed in two matches, and two replicas matching at
once never do it either. A player already in an active queued match cannot queue
twice for the same game." "No-shows: a matched seat whose client does not open its
stream in time is handled by the match's leave policy, and the other players are
not made to wait."
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, cast

import grpc
import pytest

from senet.codec.fairness import effective_seed
from senet.service import errors
from senet.service.identity import Identity
from senet.service.matches import Caller
from senet.service.matchmaking import Matchmaker, QueuedMatch, TicketRequest
from senet.service.records import SeatClaim
from senet.service.server import RunningServer
from senet.service.tickets import Ticket
from senet.store import StoreError
from senet.store.players import Claim, PlayerStore
from senet.v1 import player_service_pb2 as pb
from senet.v1 import player_service_pb2_grpc
from tests.service.conftest import Deployment, expect_error
from tests.service.test_ratings import _play_out

GAME = "pebbles"
Code = grpc.StatusCode
Metadata = tuple[tuple[str, str], ...]
WAIT_S = 20.0


async def _guest(stub: Any, name: str) -> tuple[Metadata, str]:
    guest = await stub.RegisterGuest(pb.RegisterGuestRequest(display_name=name))
    return (("x-senet-identity", guest.identity_token),), guest.subject


def _spec(
    rated: bool = True, fill_after_s: int | None = None, seats: int = 2, add_entropy: bool = False
) -> pb.TicketSpec:
    return pb.TicketSpec(
        game_id=GAME,
        min_seats=seats,
        max_seats=seats,
        mode=pb.MATCH_MODE_RATED if rated else pb.MATCH_MODE_CASUAL,
        bot_fill_after_s=fill_after_s or 0,
        bot_fill_never=fill_after_s is None,
        add_entropy=add_entropy,
    )


async def _until_matched(
    call: object, stage: pb.TicketStage.ValueType = pb.TICKET_STAGE_MATCHED
) -> pb.FindMatchResponse:
    """The stream's first report at ``stage`` (MATCHED by default)."""
    async with asyncio.timeout(WAIT_S):
        async for progress in call:  # type: ignore[attr-defined]
            if progress.stage == stage:
                return progress  # type: ignore[no-any-return]
    raise AssertionError(f"the stream ended before {pb.TicketStage.Name(stage)}")


async def _next(call: Any) -> pb.FindMatchResponse:
    """The stream's next report."""
    message = await call.read()
    assert isinstance(message, pb.FindMatchResponse), message
    return message


def _matchmaker(server: RunningServer) -> Matchmaker:
    assert server.player_servicer is not None
    return server.player_servicer.matchmaker


async def _passes_by_hand(server: RunningServer) -> Matchmaker:
    """The replica's matchmaker, with its background passes stopped: the test
    runs every pass itself, in the order it needs."""
    for task in server._tasks:
        if task.get_coro().__qualname__ == "Matchmaker.run":  # type: ignore[union-attr]
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    return _matchmaker(server)


async def _eventually(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until ``check()`` holds (a condition, however slow the machine)."""
    async with asyncio.timeout(WAIT_S):
        while not await check():
            await asyncio.sleep(0.05)


# ---------------------------------------------------------------- the happy path
@pytest.mark.slow
async def test_two_players_on_two_replicas_are_matched_play_and_are_rated(
    deployment: Deployment,
) -> None:
    first, second = await deployment.start(), await deployment.start()
    ada_stub, bob_stub = (
        player_service_pb2_grpc.PlayerServiceStub(deployment.channel(first)),
        player_service_pb2_grpc.PlayerServiceStub(deployment.channel(second)),
    )
    ada, ada_subject = await _guest(ada_stub, "Ada")
    bob, bob_subject = await _guest(bob_stub, "Bob")
    ada_call = ada_stub.FindMatch(pb.FindMatchRequest(ticket=_spec()), metadata=ada)
    bob_call = bob_stub.FindMatch(pb.FindMatchRequest(ticket=_spec()), metadata=bob)
    ada_seat, bob_seat = await asyncio.gather(_until_matched(ada_call), _until_matched(bob_call))
    assert ada_seat.match_id == bob_seat.match_id
    assert {ada_seat.seat, bob_seat.seat} == {0, 1}
    assert ada_seat.mode == pb.MATCH_MODE_RATED
    service = first.servicer.service
    stored = await service.store.load(ada_seat.match_id)
    subjects = {s: SeatClaim.from_json(c).subject for s, c in stored.seats.items()}
    assert subjects == {ada_seat.seat: ada_subject, bob_seat.seat: bob_subject}
    callers = [Caller(), Caller()]
    callers[ada_seat.seat] = Caller(token=ada_seat.seat_token)
    callers[bob_seat.seat] = Caller(token=bob_seat.seat_token)
    await _play_out(service, ada_seat.match_id, callers)

    async def rated() -> bool:
        me = await bob_stub.GetPlayer(pb.GetPlayerRequest(), metadata=bob)
        return [r.matches for r in me.ratings] == [1]

    await _eventually(rated, "Bob's rating")  # any replica's sweep settles it
    (result,) = (await bob_stub.GetPlayer(pb.GetPlayerRequest(), metadata=bob)).recent
    named = {(s.subject, s.display_name) for s in result.seats}
    assert named == {(ada_subject, "Ada"), (bob_subject, "Bob")}  # whom Bob played
    # The match says it was rated; its rematch is casual (the queue settles its own).
    finished = (await service.get(Caller(), ada_seat.match_id)).summary
    assert finished.rated
    rematch = await service.request_rematch(Caller(token=ada_seat.seat_token), finished.match_id)
    assert not rematch[2].rated
    board = await ada_stub.ListLeaderboard(pb.ListLeaderboardRequest(game_id=GAME))
    assert {e.subject for e in board.entries} == {ada_subject, bob_subject}
    # The match ended: the lock is free, so both may queue again.
    again = ada_stub.FindMatch(pb.FindMatchRequest(ticket=_spec()), metadata=ada)
    assert (await _next(again)).stage == pb.TICKET_STAGE_QUEUED
    again.cancel()


async def test_a_ticket_is_filled_with_bots_after_its_wait(deployment: Deployment) -> None:
    server = await deployment.start()
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    spec = _spec(rated=False, fill_after_s=0, seats=3)
    matched = await _until_matched(stub.FindMatch(pb.FindMatchRequest(ticket=spec), metadata=ada))
    summary = (await server.servicer.service.get(Caller(), matched.match_id)).summary
    assert [s.kind for s in summary.seats].count("bot") == 2
    assert matched.mode == pb.MATCH_MODE_CASUAL and not summary.rated


async def test_a_queued_player_who_walks_away_does_not_stall_the_match(
    deployment: Deployment,
) -> None:
    """A trial's rated match stood still for good once one player closed the tab:
    queued matches had no clock. Now each decision has one, the server plays the
    absent seat's moves, and after a few in a row a bot takes the seat over."""
    server = await deployment.start(queue_decision_s=0.2, queue_handover_after=2)
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    spec = _spec(rated=True, fill_after_s=0, seats=2)
    matched = await _until_matched(stub.FindMatch(pb.FindMatchRequest(ticket=spec), metadata=ada))
    summary = (await server.servicer.service.get(Caller(), matched.match_id)).summary
    assert summary.time_control is not None
    assert summary.time_control["decision_ms"] == 200

    async def taken_over() -> bool:  # Ada never moves
        seats = (await server.servicer.service.get(Caller(), matched.match_id)).summary.seats
        return seats[matched.seat].takeover_strategy == "greedy"

    await _eventually(taken_over, "the absent player's seat handed to a bot")


# ---------------------------------------------------------------- one ticket per player
async def test_one_ticket_per_player_and_game_resumed_by_id_and_cancelled_by_closing(
    deployment: Deployment,
) -> None:
    server = await deployment.start()
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    bob, _ = await _guest(stub, "Bob")
    first = stub.FindMatch(pb.FindMatchRequest(ticket=_spec(seats=3)), metadata=ada)
    queued = await _next(first)
    assert queued.stage == pb.TICKET_STAGE_QUEUED and queued.ticket_id
    twice = stub.FindMatch(pb.FindMatchRequest(ticket=_spec(seats=3)), metadata=ada)
    failure = await expect_error(twice.read(), Code.FAILED_PRECONDITION, "ALREADY_QUEUED")
    assert failure.facts == {"ticketId": queued.ticket_id}
    resumed = stub.FindMatch(pb.FindMatchRequest(ticket_id=queued.ticket_id), metadata=ada)
    assert (await _next(resumed)).ticket_id == queued.ticket_id
    stolen = stub.FindMatch(pb.FindMatchRequest(ticket_id=queued.ticket_id), metadata=bob)
    await expect_error(stolen.read(), Code.PERMISSION_DENIED, "NOT_YOUR_TICKET")
    unknown = stub.FindMatch(pb.FindMatchRequest(ticket_id="tk_nothing"), metadata=ada)
    await expect_error(unknown.read(), Code.NOT_FOUND, "TICKET_NOT_FOUND")
    first.cancel()
    players = _matchmaker(server).players

    async def gone() -> bool:
        return await players.ticket(queued.ticket_id) is None

    await _eventually(gone, "the cancelled ticket")
    again = stub.FindMatch(pb.FindMatchRequest(ticket=_spec(seats=3)), metadata=ada)
    assert (await _next(again)).ticket_id != queued.ticket_id
    again.cancel()


async def test_bad_tickets_are_refused_and_change_nothing(deployment: Deployment) -> None:
    server = await deployment.start()
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    for spec, reason in (
        (pb.TicketSpec(), "MALFORMED_REQUEST"),
        (pb.TicketSpec(game_id="chess"), "UNKNOWN_GAME"),
        (pb.TicketSpec(game_id=GAME, min_seats=4, max_seats=2), "INVALID_OPTIONS"),
        (pb.TicketSpec(game_id=GAME, min_seats=9, max_seats=9), "INVALID_OPTIONS"),
    ):
        call = stub.FindMatch(pb.FindMatchRequest(ticket=spec), metadata=ada)
        await expect_error(call.read(), Code.INVALID_ARGUMENT, reason)
    assert await _matchmaker(server).players.queued(10) == []


# ---------------------------------------------------------------- no-shows
async def test_a_no_show_is_handled_by_the_leave_policy(deployment: Deployment) -> None:
    server = await deployment.start(match_interval_s=3600, no_show_s=0.2)
    matchmaker = _matchmaker(server)
    request = TicketRequest(GAME, 2, 2, rated=True)
    ada = await matchmaker.enqueue(Identity("ada", "Ada", False), request)
    await matchmaker.enqueue(Identity("bob", "Bob", False), request)
    assert await matchmaker.match_once() == 1
    async for progress in matchmaker.follow(ada):  # Ada comes; Bob never does
        assert progress.stage == "matched"
    doc = await matchmaker.players.ticket(ada.ticket_id)
    assert doc is not None
    match_id = Ticket.from_json(doc).match_id

    async def bob_left() -> bool:
        await matchmaker.sweep_once()
        summary = (await server.servicer.service.get(Caller(), match_id)).summary
        return [s.resigned for s in summary.seats].count(True) == 1

    await _eventually(bob_left, "the no-show's seat given up")
    summary = (await server.servicer.service.get(Caller(), match_id)).summary
    assert not summary.seats[Ticket.from_json(doc).seat].resigned


# ---------------------------------------------------------------- races
@pytest.mark.parametrize("store_kind", ["memory", "redis", "redis-cluster"])
async def test_two_replicas_matching_at_once_never_place_a_ticket_twice(
    deployment: Deployment,
) -> None:
    replicas = [await deployment.start(match_interval_s=3600) for _ in range(2)]
    makers = [_matchmaker(r) for r in replicas]
    request = TicketRequest(GAME, 2, 4, rated=False)
    tickets = []
    for i in range(24):
        who = Identity(f"p{i}", f"P{i}", False)
        tickets.append(await makers[i % 2].enqueue(who, request))
    for _ in range(3):
        await asyncio.gather(*(m.match_once() for m in makers))
    players = makers[0].players
    docs = [await players.ticket(t.ticket_id) for t in tickets]
    placed = [Ticket.from_json(d) for d in docs if d is not None]
    assert len(placed) == len(tickets) and all(t.state == "matched" for t in placed)
    records = {mid: QueuedMatch.from_json(doc) for mid, doc in await players.queued_matches(100)}
    in_records = [s.ticket_id for r in records.values() for s in r.seats]
    assert sorted(in_records) == sorted(t.ticket_id for t in tickets)  # each exactly once
    for ticket in placed:
        assert ticket.ticket_id in {s.ticket_id for s in records[ticket.match_id].seats}
        summary = (await replicas[0].servicer.service.get(Caller(), ticket.match_id)).summary
        assert summary.seats[ticket.seat].claimed and summary.started


class _DiesAtItsClaim:
    """A replica's player store that is gone when the replica claims a group: the
    replica was killed after making the group's match, before its claim landed."""

    def __init__(self, inner: PlayerStore) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def claim(self, claim: Claim) -> bool:
        raise StoreError("the replica was killed")


@pytest.mark.parametrize("store_kind", ["memory", "redis"])
async def test_a_replica_killed_before_its_claim_leaves_no_record_of_the_tickets(
    deployment: Deployment,
) -> None:
    """The matchmaking benchmark counted a ticket in two queued matches after a
    replica was SIGKILLed: the dead replica's record of a match it never claimed,
    and the match another replica placed the ticket in."""
    replicas = [await deployment.start(match_interval_s=3600) for _ in range(2)]
    dying, living = [await _passes_by_hand(r) for r in replicas]
    store = living.players
    dying.players = cast(PlayerStore, _DiesAtItsClaim(store))
    request = TicketRequest(GAME, 2, 2, rated=False)
    ada, bob = [await living.enqueue(Identity(s, s, False), request) for s in ("ada", "bob")]
    with pytest.raises(StoreError):
        await dying.match_once()  # makes the match of ada and bob, then dies
    await store.cancel(bob.ticket_id)
    cy = await living.enqueue(Identity("cy", "cy", False), request)
    assert await living.match_once() == 1  # ada and cy
    records = [QueuedMatch.from_json(doc) for _, doc in await store.queued_matches(100)]
    assert [sorted(s.ticket_id for s in r.seats) for r in records] == [
        sorted([ada.ticket_id, cy.ticket_id])
    ]


# ---------------------------------------------------------------- a drained replica
async def test_a_draining_replica_ends_streams_but_keeps_their_tickets(
    deployment: Deployment,
) -> None:
    """A rolling restart loses no ticket: the stream ends with DRAINING and the
    player resumes the ticket on another replica."""
    shared = "guests-of-both-replicas-" + "k" * 16  # replicas share the guest key
    going = await deployment.start(drain_notice_s=0.0, drain_grace_s=2.0, identity_secret=shared)
    staying = await deployment.start(identity_secret=shared)
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(going))
    ada, _ = await _guest(stub, "Ada")
    call = stub.FindMatch(pb.FindMatchRequest(ticket=_spec(seats=3)), metadata=ada)
    queued = await _next(call)
    draining = asyncio.create_task(going.drain())
    failure = await expect_error(_drain_stream(call), Code.UNAVAILABLE, "DRAINING")
    assert "resume" in failure.message
    await draining
    other = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(staying))
    resumed = other.FindMatch(pb.FindMatchRequest(ticket_id=queued.ticket_id), metadata=ada)
    assert (await _next(resumed)).ticket_id == queued.ticket_id
    resumed.cancel()


async def _drain_stream(call: Any) -> None:
    """Read the stream to its end (it must end with an error)."""
    while isinstance(await call.read(), pb.FindMatchResponse):
        pass


async def test_findmatch_streams_count_against_the_clients_stream_quota(
    deployment: Deployment,
) -> None:
    server = await deployment.start(client_streams=1)
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    bob, _ = await _guest(stub, "Bob")
    first = stub.FindMatch(pb.FindMatchRequest(ticket=_spec(seats=3)), metadata=ada)
    await _next(first)
    second = stub.FindMatch(pb.FindMatchRequest(ticket=_spec(seats=3)), metadata=bob)
    failure = await expect_error(second.read(), Code.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED")
    assert failure.facts == {"quota": "client_streams", "limit": "1"}
    first.cancel()


# ---------------------------------------------------------------- seat entropy
async def test_a_ticket_that_adds_entropy_takes_its_seat_after_the_commitment(
    deployment: Deployment,
) -> None:
    """A queued player adds entropy of their own to the seed, as JoinMatch does: the
    stream shows the match's commitment first, then the seat is taken with the
    entropy the player sends, and the deal combines the server's seed with it."""
    server = await deployment.start()
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    bob, _ = await _guest(stub, "Bob")
    spec = _spec(add_entropy=True)
    ada_call = stub.FindMatch(pb.FindMatchRequest(ticket=spec), metadata=ada)
    bob_call = stub.FindMatch(pb.FindMatchRequest(ticket=_spec()), metadata=bob)
    awaiting, bob_seat = await asyncio.gather(
        _until_matched(ada_call, pb.TICKET_STAGE_AWAITING_ENTROPY), _until_matched(bob_call)
    )
    assert (awaiting.match_id, awaiting.seat_token) == (bob_seat.match_id, "")
    assert awaiting.seed_commitment == bob_seat.seed_commitment != ""
    service = server.servicer.service
    waiting = (await service.get(Caller(), awaiting.match_id)).summary
    assert not waiting.started  # nothing is dealt before Ada's entropy
    assert waiting.commitment == awaiting.seed_commitment
    assert [(s.claimed, s.kept) for s in waiting.seats][awaiting.seat] == (False, True)
    # Nobody else can take Ada's seat meanwhile.
    with pytest.raises(errors.SeatKept, match="kept for Ada, whom the queue placed there"):
        await service.join(Caller(), awaiting.match_id, awaiting.seat, "Eve")

    resume = pb.FindMatchRequest(ticket_id=awaiting.ticket_id, entropy="ada" + "0" * 29)
    matched = await _until_matched(stub.FindMatch(resume, metadata=ada))
    assert (matched.match_id, matched.seat) == (awaiting.match_id, awaiting.seat)
    assert matched.seat_token and matched.seed_commitment == awaiting.seed_commitment
    assert (await service.get(Caller(), matched.match_id)).summary.started
    # A retry, whatever entropy it carries, gets the same seat and token: the first stands.
    again = pb.FindMatchRequest(ticket_id=awaiting.ticket_id, entropy="other")
    assert (await _until_matched(stub.FindMatch(again, metadata=ada))).seat_token == (
        matched.seat_token
    )
    callers = [Caller(), Caller()]
    callers[matched.seat] = Caller(token=matched.seat_token)
    callers[bob_seat.seat] = Caller(token=bob_seat.seat_token)
    await _play_out(service, matched.match_id, callers)
    export = await service.export(matched.match_id)
    assert export.entropy[matched.seat] == "ada" + "0" * 29
    assert export.entropy[bob_seat.seat] == ""
    assert export.dealt_seed == effective_seed(export.seed, export.entropy)


async def test_entropy_a_ticket_cannot_use_is_refused_and_changes_nothing(
    deployment: Deployment,
) -> None:
    server = await deployment.start(match_interval_s=3600)
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    spec = _spec(add_entropy=True)
    call = stub.FindMatch(pb.FindMatchRequest(ticket=spec), metadata=ada)
    queued = await _next(call)
    assert queued.stage == pb.TICKET_STAGE_QUEUED
    for request, words in (
        (pb.FindMatchRequest(ticket=spec, entropy="abc"), "goes with ticket_id"),
        # Entropy known before the match's seed is committed could aim the deal.
        (pb.FindMatchRequest(ticket_id=queued.ticket_id, entropy="abc"), "still queued"),
    ):
        failure = await expect_error(
            stub.FindMatch(request, metadata=ada).read(), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
        )
        assert words in failure.message and failure.facts == {"field": "entropy"}
    # The ticket is still queued, and still its player's.
    assert [
        t.ticket_id for t in map(Ticket.from_json, await _matchmaker(server).players.queued(9))
    ] == [queued.ticket_id]
    call.cancel()

    # A ticket that did not ask to add entropy has its seat taken without it.
    server_two = await deployment.start(no_show_s=3600)
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server_two))
    bob, _ = await _guest(stub, "Bob")
    matched = await _until_matched(
        stub.FindMatch(pb.FindMatchRequest(ticket=_spec(fill_after_s=0)), metadata=bob)
    )
    late = pb.FindMatchRequest(ticket_id=matched.ticket_id, entropy="abc")
    failure = await expect_error(
        stub.FindMatch(late, metadata=bob).read(), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
    )
    assert "did not ask to add entropy" in failure.message


async def test_entropy_of_the_wrong_shape_is_refused_and_the_seat_still_waits(
    deployment: Deployment,
) -> None:
    server = await deployment.start()
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    ada, _ = await _guest(stub, "Ada")
    spec = _spec(fill_after_s=0, add_entropy=True)
    awaiting = None
    async with asyncio.timeout(WAIT_S):
        async for progress in stub.FindMatch(pb.FindMatchRequest(ticket=spec), metadata=ada):
            awaiting = progress
    assert awaiting is not None and awaiting.stage == pb.TICKET_STAGE_AWAITING_ENTROPY
    bad = pb.FindMatchRequest(ticket_id=awaiting.ticket_id, entropy="not entropy!")
    failure = await expect_error(
        stub.FindMatch(bad, metadata=ada).read(), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
    )
    assert failure.facts == {"field": "entropy"}  # no length facts: its length is fine
    assert "only the characters" in failure.message
    summary = (await server.servicer.service.get(Caller(), awaiting.match_id)).summary
    assert not summary.seats[awaiting.seat].claimed and not summary.started
    # Resumed without entropy, the stream shows the commitment again.
    again = [
        p.stage
        async for p in stub.FindMatch(
            pb.FindMatchRequest(ticket_id=awaiting.ticket_id), metadata=ada
        )
    ]
    assert again == [pb.TICKET_STAGE_AWAITING_ENTROPY]


async def test_a_player_who_never_sends_entropy_is_a_no_show(deployment: Deployment) -> None:
    server = await deployment.start(match_interval_s=3600, no_show_s=0.2)
    matchmaker = _matchmaker(server)
    ada = await matchmaker.enqueue(
        Identity("ada", "Ada", False), TicketRequest(GAME, 2, 2, rated=True, add_entropy=True)
    )
    bob = await matchmaker.enqueue(
        Identity("bob", "Bob", False), TicketRequest(GAME, 2, 2, rated=True)
    )
    assert await matchmaker.match_once() == 1
    stages = [p.stage async for p in matchmaker.follow(ada)]  # Ada never sends entropy
    assert stages == ["awaiting_entropy"]
    async for progress in matchmaker.follow(bob):
        assert progress.stage == "matched"
    doc = await matchmaker.players.ticket(ada.ticket_id)
    assert doc is not None
    placed = Ticket.from_json(doc)
    service = server.servicer.service
    assert not (await service.get(Caller(), placed.match_id)).summary.started

    async def ada_given_up() -> bool:
        await matchmaker.sweep_once()
        summary = (await service.get(Caller(), placed.match_id)).summary
        return summary.started and summary.seats[placed.seat].resigned

    await _eventually(ada_given_up, "the seat of the player who sent no entropy")
    # Ada comes back too late: she is told her seat was given up, and where.
    late = await matchmaker.resume(Identity("ada", "Ada", False), ada.ticket_id)
    with pytest.raises(errors.SeatGivenUp) as given_up:
        async for _ in matchmaker.follow(late, "a" * 32):
            pass
    assert given_up.value.facts == {"matchId": placed.match_id, "seat": str(placed.seat)}
