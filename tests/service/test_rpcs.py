"""Every MatchService RPC end to end over a real socket, on the memory and Redis stores.

Each test starts a server with ``create_server`` on port 0 (see ``conftest.py``) and
talks to it through the generated async stub; failures are checked by status code
and by the ``google.rpc.ErrorInfo`` reason (domain ``senet.dev``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from senet.codec import codec_for, options_from_proto
from senet.games import get_game
from senet.service.server import SERVICE_NAME, RunningServer
from senet.v1 import games_pb2, match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    Code,
    Deployment,
    Stream,
    answer_at_random,
    check_export,
    current_seat,
    expect_error,
    health,
    mover_of,
    play_random,
    seated_match,
    wait_for_health,
)

OPEN = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN)
BOT = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="random")
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


# --------------------------------------------------------------- ListGames
async def test_list_games_describes_every_hosted_game(client: Client) -> None:
    games = {g.id: g for g in (await client.list_games()).games}
    info = get_game("mykerinos").info
    assert games["mykerinos"].name == info.name
    assert (games["mykerinos"].min_seats, games["mykerinos"].max_seats) == (2, 4)
    assert [o.name for o in games["mykerinos"].options] == [o.name for o in info.options]
    variants = [o.name for o in games["mykerinos"].options if o.variant]
    assert variants == ["nile", "team", "quick", "classic"]
    archeos = get_game("archeos").info
    assert (games["archeos"].min_seats, games["archeos"].max_seats) == (2, 6)
    assert [o.name for o in games["archeos"].options] == [o.name for o in archeos.options]


# ------------------------------------------------------------- CreateMatch
async def test_create_match_with_open_and_bot_seats(client: Client) -> None:
    unspecified = match_pb2.SeatPlan()
    created = await client.create([OPEN, BOT, unspecified], seed=7)
    summary = created.match
    assert created.match_id == summary.match_id
    assert [s.kind for s in summary.seats] == [
        match_pb2.SEAT_KIND_OPEN,
        match_pb2.SEAT_KIND_BOT,
        match_pb2.SEAT_KIND_OPEN,
    ]
    assert [s.bot_strategy for s in summary.seats] == ["", "random", ""]
    assert not any(s.claimed for s in summary.seats)
    assert (summary.version, summary.status) == (0, match_pb2.MATCH_STATUS_ACTIVE)
    assert summary.game_id == "mykerinos"
    # The summary lists the normalized options: every option, at its default here.
    defaults = {o.name: o.default for o in get_game("mykerinos").info.options}
    assert options_from_proto(summary.options) == defaults
    assert list(summary.scores) == [0, 0, 0] and list(summary.places) == []
    assert len(summary.seed_commitment) == 64
    mirror = get_game("mykerinos").new_match(3, seed=7)
    # Nobody decides before every open seat is claimed.
    assert not summary.started and current_seat(summary) is None
    assert list(summary.deciding_seats) == []
    got = await client.get(created.match_id)
    assert got.view == codec_for("mykerinos").view_to_proto(mirror.view(None))


async def test_create_match_seed_decides_the_deal_and_commitments_are_salted(
    client: Client,
) -> None:
    a, b, c = [await client.create(3, seed=s) for s in (11, 11, 12)]
    views = [(await client.get(m.match_id)).view for m in (a, b, c)]
    assert views[0] == views[1] and views[0] != views[2]
    assert len({m.match.seed_commitment for m in (a, b, c)}) == 3  # same seed, other salt
    unseeded = await client.create(2)
    assert unseeded.match.version == 0


async def test_create_match_rejects_bad_requests(client: Client) -> None:
    await expect_error(client.create(3, game_id="chess"), Code.INVALID_ARGUMENT, "UNKNOWN_GAME")
    await expect_error(client.create(3, game_id=""), Code.INVALID_ARGUMENT, "UNKNOWN_GAME")
    unknown = {"speed": games_pb2.OptionValue(bool_value=True)}
    await expect_error(client.create(3, options=unknown), Code.INVALID_ARGUMENT, "INVALID_OPTIONS")
    empty = {"speed": games_pb2.OptionValue()}
    await expect_error(client.create(3, options=empty), Code.INVALID_ARGUMENT, "INVALID_OPTIONS")
    for seats in (0, 1, 5):
        await expect_error(client.create(seats), Code.INVALID_ARGUMENT, "INVALID_OPTIONS")
    bad_bot = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy="oracle")
    await expect_error(client.create([OPEN, bad_bot]), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    open_bot = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN, bot_strategy="random")
    await expect_error(client.create([OPEN, open_bot]), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    weird = match_pb2.SeatPlan(kind=77)  # type: ignore[arg-type]
    await expect_error(client.create([OPEN, weird]), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")


async def test_admin_key_guards_create_and_bot_seats(deployment: Deployment) -> None:
    server = await deployment.start(admin_key="s3cret")
    anonymous = deployment.client(server)
    wrong = Client(anonymous.channel, admin_key="guess")
    admin = Client(anonymous.channel, admin_key="s3cret")
    for caller in (anonymous, wrong):
        await expect_error(caller.create(2), Code.PERMISSION_DENIED, "ADMIN_KEY_REQUIRED")
    created = await admin.create([OPEN, BOT])
    # Open seats need no key; the bot seat is played by bot workers only, and
    # JoinMatch never claims it, even with the admin key.
    assert (await anonymous.join(created.match_id)).seat == 0
    for caller in (anonymous, wrong, admin):
        await expect_error(caller.join(created.match_id, 1), Code.FAILED_PRECONDITION, "BOT_SEAT")


# --------------------------------------------------------------- JoinMatch
async def test_join_claims_first_open_seat_then_explicit_seats(client: Client) -> None:
    match_id = (await client.create(3)).match_id
    explicit = await client.join(match_id, 2, "  Carol  ")
    assert explicit.seat == 2 and len(explicit.token) >= 32
    assert explicit.match.seats[2].claimed and explicit.match.seats[2].display_name == "Carol"
    assert [(await client.join(match_id, name=n)).seat for n in ("Ann", "Bob")] == [0, 1]
    await expect_error(client.join(match_id), Code.FAILED_PRECONDITION, "NO_OPEN_SEAT")
    await expect_error(client.join(match_id, 1), Code.FAILED_PRECONDITION, "SEAT_TAKEN")
    summary = (await client.get(match_id)).match
    assert [s.display_name for s in summary.seats] == ["Ann", "Bob", "Carol"]
    assert summary.version == 0  # joining is not an action


async def test_join_skips_bot_seats_and_checks_its_arguments(client: Client) -> None:
    match_id = (await client.create([BOT, OPEN])).match_id
    assert (await client.join(match_id)).seat == 1  # the first *open* seat
    await expect_error(client.join(match_id), Code.FAILED_PRECONDITION, "NO_OPEN_SEAT")
    # Issue 14, repro 2: without an admin key a bot seat used to be claimable.
    await expect_error(client.join(match_id, 0, "bot"), Code.FAILED_PRECONDITION, "BOT_SEAT")
    assert not (await client.get(match_id)).match.seats[0].claimed
    fresh = (await client.create(2)).match_id
    await expect_error(client.join(fresh, 2), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    for name in ("", "   ", "x" * 41, "tab\there", "nul\x00"):
        await expect_error(
            client.join(fresh, name=name), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
        )
    await expect_error(client.join("0123456789abcdef"), Code.NOT_FOUND, "MATCH_NOT_FOUND")
    await expect_error(client.join("not/an id"), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")


# ---------------------------------------------------------------- GetMatch
async def test_get_match_seat_and_spectator_views(client: Client) -> None:
    match = await seated_match(client, 3, seed=5)
    spectator = await match.spectator.get(match.match_id)
    assert not spectator.HasField("viewer_seat")
    assert spectator.view.WhichOneof("game") == "mykerinos"
    for seat, seat_client in enumerate(match.seats):
        seen = await seat_client.get(match.match_id)
        assert seen.viewer_seat == seat
        assert seen.match == spectator.match
        assert seen.view == spectator.view  # Mykerinos hides nothing from one seat only
    assert all(s.claimed for s in spectator.match.seats)
    await expect_error(
        client.as_seat("forged").get(match.match_id), Code.UNAUTHENTICATED, "BAD_TOKEN"
    )
    other = await seated_match(client, 2)
    await expect_error(
        other.seats[0].get(match.match_id), Code.UNAUTHENTICATED, "BAD_TOKEN"
    )  # a token of another match
    basic = client.stub.GetMatch(
        ms.GetMatchRequest(match_id=match.match_id), metadata=(("authorization", "Basic x"),)
    )
    await expect_error(basic, Code.UNAUTHENTICATED, "BAD_TOKEN")
    await expect_error(client.get("missing"), Code.NOT_FOUND, "MATCH_NOT_FOUND")
    await expect_error(client.get(""), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")


# -------------------------------------------------------- ListLegalActions
async def test_list_legal_actions_for_the_seat_to_move_only(client: Client) -> None:
    match = await seated_match(client, 3, seed=9)
    mirror = get_game("mykerinos").new_match(3, seed=9)
    mover = mirror.current_seat()
    assert mover is not None
    legal = await match.seats[mover].legal(match.match_id)
    assert (legal.version, legal.seat) == (0, mover)
    assert [a.notation for a in legal.actions] == [a.notation() for a in mirror.legal_actions()]
    codec = codec_for("mykerinos")
    for listed, action in zip(legal.actions, mirror.legal_actions(), strict=True):
        assert listed.label == mirror.describe(action)
        assert codec.action_from_proto(listed.action) == listed.notation
    waiting = (mover + 1) % 3
    idle = await match.seats[waiting].legal(match.match_id)
    assert (idle.seat, list(idle.actions)) == (waiting, [])
    await expect_error(
        match.spectator.legal(match.match_id), Code.UNAUTHENTICATED, "TOKEN_REQUIRED"
    )
    await expect_error(
        client.as_seat("nope").legal(match.match_id), Code.UNAUTHENTICATED, "BAD_TOKEN"
    )


# ------------------------------------------------------------ SubmitAction
async def test_submit_typed_and_notation_actions(client: Client) -> None:
    match = await seated_match(client, 3, seed=21)
    mirror = get_game("mykerinos").new_match(3, seed=21)
    for version in (0, 1, 2, 3):
        seat = mirror.current_seat()
        assert seat is not None
        legal = await match.seats[seat].legal(match.match_id)
        choice = legal.actions[version * 7 % len(legal.actions)]
        if version % 2:
            response = await match.seats[seat].submit(match.match_id, typed=choice.action)
        else:
            response = await match.seats[seat].submit(
                match.match_id, choice.notation, expected_version=version, request_id=f"r{version}"
            )
        events = mirror.apply(seat, choice.notation)
        codec = codec_for("mykerinos")
        assert response.version == version + 1 and not response.duplicate
        assert list(response.events) == [codec.event_to_proto(e) for e in events]
        assert response.status == match_pb2.MATCH_STATUS_ACTIVE
        assert current_seat(response) == mirror.current_seat()
        # Echoed, or made up by the server when none was sent.
        assert response.request_id == f"r{version}" if version % 2 == 0 else response.request_id
    got = await match.spectator.get(match.match_id)
    assert got.match.version == 4
    assert got.view == codec_for("mykerinos").view_to_proto(mirror.view(None))


async def test_submit_rejections_change_nothing(client: Client) -> None:
    match = await seated_match(client, 3, seed=33)
    mirror = get_game("mykerinos").new_match(3, seed=33)
    played = await play_random([match], random.Random(1), count=2)
    for version in sorted(played.notations):  # keep the mirror in step with the server
        mirror.apply(*played.notations[version])
    before = await match.spectator.get(match.match_id)
    seat = current_seat(before.match)
    assert seat is not None
    mover, waiting = match.seats[seat], match.seats[(seat + 1) % 3]
    mid = match.match_id

    illegal = await expect_error(
        mover.submit(mid, "take l"), Code.FAILED_PRECONDITION, "ILLEGAL_ACTION"
    )
    reason = mirror.explain_illegal(get_game("mykerinos").parse_action("take l"))
    assert reason in illegal.message
    not_yours = await expect_error(
        waiting.submit(mid, "pass"), Code.FAILED_PRECONDITION, "NOT_YOUR_TURN"
    )
    assert not_yours.facts == {"seatToAct": str(seat)}
    for bad in ("zzz", "a z9", "", "a " * 120):
        code_reason = "MALFORMED_REQUEST" if len(bad) > 200 else "MALFORMED_ACTION"
        await expect_error(mover.submit(mid, bad), Code.INVALID_ARGUMENT, code_reason)
    too_long = await expect_error(
        mover.submit(mid, "a " * 120), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
    )
    assert too_long.facts == {"field": "notation", "limit": "200", "size": "240"}
    no_game = match_pb2.Action()
    await expect_error(mover.submit(mid, typed=no_game), Code.INVALID_ARGUMENT, "MALFORMED_ACTION")
    unspecified = match_pb2.Action()
    unspecified.mykerinos.SetInParent()
    await expect_error(
        mover.submit(mid, typed=unspecified), Code.INVALID_ARGUMENT, "MALFORMED_ACTION"
    )
    neither = mover.stub.SubmitAction(ms.SubmitActionRequest(match_id=mid), metadata=mover.metadata)
    await expect_error(neither, Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    for stale in (0, 1, 3, 99):
        failure = await expect_error(
            mover.submit(mid, "pass", expected_version=stale), Code.ABORTED, "STALE_VERSION"
        )
        assert failure.facts == {"currentVersion": "2"}
    for request_id in ("x" * 65, "has space", "\u00e9"):
        await expect_error(
            mover.submit(mid, "pass", request_id=request_id),
            Code.INVALID_ARGUMENT,
            "MALFORMED_REQUEST",
        )
    await expect_error(match.spectator.submit(mid, "pass"), Code.UNAUTHENTICATED, "TOKEN_REQUIRED")
    await expect_error(client.as_seat("x").submit(mid, "pass"), Code.UNAUTHENTICATED, "BAD_TOKEN")
    await expect_error(mover.submit("missing", "pass"), Code.NOT_FOUND, "MATCH_NOT_FOUND")
    assert await match.spectator.get(mid) == before


async def test_submit_retry_with_same_request_id_is_idempotent(client: Client) -> None:
    match = await seated_match(client, 3, seed=44)
    mid = match.match_id
    summary = (await match.spectator.get(mid)).match
    seat = current_seat(summary)
    assert seat is not None
    legal = await match.seats[seat].legal(mid)
    first = await match.seats[seat].submit(
        mid, legal.actions[0].notation, expected_version=0, request_id="retry-1"
    )
    after = await match.spectator.get(mid)
    # The same request again (now stale, and no longer this seat's turn), typed or not.
    again = await match.seats[seat].submit(
        mid, legal.actions[0].notation, expected_version=0, request_id="retry-1"
    )
    typed = await match.seats[seat].submit(mid, typed=legal.actions[0].action, request_id="retry-1")
    for retry in (again, typed):
        assert retry.duplicate and not first.duplicate
        assert (retry.version, list(retry.events)) == (first.version, list(first.events))
        assert (retry.status, retry.current_seat) == (first.status, first.current_seat)
        assert retry.request_id == "retry-1"
    assert await match.spectator.get(mid) == after
    # Request ids are per seat: another seat may use the same id for its own action.
    mover = current_seat(after.match)
    assert mover is not None and mover != seat
    other_legal = await match.seats[mover].legal(mid)
    other = await match.seats[mover].submit(
        mid, other_legal.actions[0].notation, request_id="retry-1"
    )
    assert (other.version, other.duplicate) == (2, False)


async def test_a_request_id_reused_for_another_action_is_refused(client: Client) -> None:
    """Answering "duplicate" would silently drop the new action."""
    match = await seated_match(client, 3, seed=44)
    mid = match.match_id
    seat = current_seat((await match.spectator.get(mid)).match)
    assert seat is not None
    legal = await match.seats[seat].legal(mid)
    assert len(legal.actions) > 1
    await match.seats[seat].submit(mid, legal.actions[0].notation, request_id="once")
    after = await match.spectator.get(mid)
    failure = await expect_error(
        match.seats[seat].submit(mid, legal.actions[1].notation, request_id="once"),
        Code.ALREADY_EXISTS,
        "REQUEST_ID_REUSED",
    )
    assert legal.actions[0].notation in failure.message
    assert await match.spectator.get(mid) == after


async def test_full_match_game_over_and_export(client: Client) -> None:
    match = await seated_match(client, 3)
    mid = match.match_id
    await expect_error(match.spectator.export(mid), Code.FAILED_PRECONDITION, "MATCH_NOT_FINISHED")
    played = await play_random([match], random.Random(3), typed_every=5)
    final = await match.spectator.get(mid)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    assert not final.match.HasField("current_seat")
    assert final.match.version == played.version
    assert sorted(final.match.places)[0] == 1
    last = played.responses[played.version]
    assert last.status == match_pb2.MATCH_STATUS_FINISHED and not last.HasField("current_seat")
    for seat_client in match.seats:
        await expect_error(seat_client.submit(mid, "pass"), Code.FAILED_PRECONDITION, "GAME_OVER")
        assert list((await seat_client.legal(mid)).actions) == []
    export = await match.seats[0].export(mid)
    assert export.seed == match.seed and export.seat_count == 3
    assert [(a.seat, a.notation) for a in export.actions] == [
        played.notations[v] for v in sorted(played.notations)
    ]
    check_export(export, final, match.commitment)
    await expect_error(match.spectator.export("missing"), Code.NOT_FOUND, "MATCH_NOT_FOUND")


# -------------------------------------------------------------- WatchMatch
async def test_watch_snapshot_then_updates_in_order(client: Client) -> None:
    match = await seated_match(client, 2, seed=8)
    mid = match.match_id
    await play_random([match], random.Random(8), count=3)
    call = match.spectator.watch(mid)
    first = await match.spectator.read(call)
    assert first is not None and first.WhichOneof("message") == "snapshot"
    assert first.snapshot.match.version == 3
    assert first.snapshot.match == (await match.spectator.get(mid)).match
    played = await play_random([match], random.Random(9))  # to the end
    versions = []
    while (message := await match.spectator.read(call)) is not None:
        if message.WhichOneof("message") == "update":
            update = message.update
            versions.append(update.version)
            seat, notation = played.notations[update.version]
            assert (update.seat, update.notation) == (seat, notation)
            response = played.responses[update.version]
            assert update.status == response.status
            assert list(update.events) == list(response.events)
    assert versions == list(range(4, played.version + 1))  # ends after the final update
    # Resuming from a version replays what came after it, without a snapshot.
    resumed = match.seats[0].watch(mid, from_version=played.version - 2)
    kinds = []
    while (message := await match.seats[0].read(resumed)) is not None:
        kinds.append((message.WhichOneof("message"), message.update.version))
    assert kinds == [("update", played.version - 1), ("update", played.version)]
    finished = match.spectator.watch(mid)
    snapshot = await match.spectator.read(finished)
    assert snapshot is not None and snapshot.snapshot.match.version == played.version
    assert await match.spectator.read(finished) is None


async def test_watch_rejects_bad_requests(client: Client) -> None:
    match = await seated_match(client, 2)
    ahead = match.spectator.watch(match.match_id, from_version=5)
    failure = await expect_error(ahead.read(), Code.OUT_OF_RANGE, "VERSION_AHEAD")
    assert failure.facts == {"currentVersion": "0"}
    await expect_error(match.spectator.watch("missing").read(), Code.NOT_FOUND, "MATCH_NOT_FOUND")
    forged = client.as_seat("forged").watch(match.match_id)
    await expect_error(forged.read(), Code.UNAUTHENTICATED, "BAD_TOKEN")


async def test_watch_resumes_after_disconnect_without_gap_or_duplicate(client: Client) -> None:
    match = await seated_match(client, 3)
    mid = match.match_id
    rng = random.Random(4)
    seen: list[int] = []
    call = match.seats[1].watch(mid)
    snapshot = await match.seats[1].read(call)
    assert snapshot is not None and snapshot.snapshot.match.version == 0
    await play_random([match], rng, count=5)
    while len(seen) < 3:  # read part of what is buffered, then drop the stream
        message = await match.seats[1].read(call)
        assert message is not None
        if message.WhichOneof("message") == "update":
            seen.append(message.update.version)
    call.cancel()
    await play_random([match], rng, count=7)  # the match moves on while disconnected
    resumed = match.seats[1].watch(mid, from_version=seen[-1])
    resume_task = asyncio.create_task(_updates(match.seats[1], resumed))
    await play_random([match], rng)  # and on to the end while connected again
    seen.extend(await resume_task)
    final = (await match.spectator.get(mid)).match.version
    assert seen == list(range(1, final + 1))


async def _updates(client: Client, call: Stream[ms.WatchMatchResponse]) -> list[int]:
    versions = []
    while (message := await client.read(call)) is not None:
        assert message.WhichOneof("message") != "snapshot"
        if message.WhichOneof("message") == "update":
            versions.append(message.update.version)
    return versions


# --------------------------------------------------------------- PlayMatch
async def test_play_match_prompts_accepts_submissions_and_reports_errors(client: Client) -> None:
    match = await seated_match(client, 2, seed=12)
    mid = match.match_id
    mover, player = await mover_of(match)
    call = player.play()
    await call.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=mid)))
    snapshot = await player.read(call)
    assert snapshot is not None and snapshot.snapshot.match.version == 0
    prompt = await player.read(call)
    assert prompt is not None and prompt.WhichOneof("message") == "your_turn"
    assert (prompt.your_turn.version, prompt.your_turn.seat) == (0, mover)
    legal = await player.legal(mid)
    assert list(prompt.your_turn.actions) == list(legal.actions)

    bad = [
        ("e1", ms.SubmitActionRequest(notation="zzz", request_id="e1"), "MALFORMED_ACTION", 3),
        ("e2", ms.SubmitActionRequest(notation="take l", request_id="e2"), "ILLEGAL_ACTION", 9),
        (
            "e3",
            ms.SubmitActionRequest(notation="pass", expected_version=7, request_id="e3"),
            "STALE_VERSION",
            10,
        ),
    ]
    for request_id, request, reason, code in bad:
        await call.write(ms.PlayMatchRequest(submit=request))
        error = await _next_besides_prompts(player, call, prompt.your_turn)
        assert error.WhichOneof("message") == "error", error
        assert (error.error.reason, error.error.code, error.error.request_id) == (
            reason,
            code,
            request_id,
        )
        if reason == "STALE_VERSION":
            assert dict(error.error.metadata) == {"currentVersion": "0"}
    await call.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=mid)))
    again = await _next_besides_prompts(player, call, prompt.your_turn)
    assert again.error.reason == "MALFORMED_REQUEST"

    choice = prompt.your_turn.actions[0]
    submit = ms.SubmitActionRequest(typed=choice.action, expected_version=0, request_id="ok")
    await call.write(ms.PlayMatchRequest(submit=submit))
    got: dict[str, ms.PlayMatchResponse] = {}
    while "submitted" not in got or "update" not in got:
        message = await player.read(call)
        assert message is not None
        got.setdefault(str(message.WhichOneof("message")), message)
    assert got["submitted"].submitted.version == 1 and got["submitted"].submitted.request_id == "ok"
    assert (got["update"].update.version, got["update"].update.notation) == (1, choice.notation)
    call.cancel()


async def _next_besides_prompts(
    player: Client,
    call: grpc.aio.StreamStreamCall[ms.PlayMatchRequest, ms.PlayMatchResponse],
    turn: ms.YourTurn,
) -> ms.PlayMatchResponse:
    """The next message that is not a repeat of ``turn`` (a refused move may re-prompt)."""
    while True:
        message = await player.read(call)
        assert message is not None
        if message.WhichOneof("message") != "your_turn":
            return message
        assert message.your_turn == turn


async def test_play_match_streams_play_a_whole_match(client: Client) -> None:
    match = await seated_match(client, 2)
    results = await asyncio.gather(
        *(_play_stream(c, match.match_id, random.Random(s)) for s, c in enumerate(match.seats))
    )
    final = await match.spectator.get(match.match_id)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    for versions in results:  # the snapshot's version, then every later one
        assert versions == list(range(versions[0], final.match.version + 1))
    check_export(await match.spectator.export(match.match_id), final, match.commitment)


async def _play_stream(player: Client, match_id: str, rng: random.Random) -> list[int]:
    """Play one seat through PlayMatch, answering every prompt.

    Returns the snapshot's version followed by the version of every update.
    """
    call = player.play()
    await call.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=match_id)))
    versions: list[int] = []
    while (message := await player.read(call)) is not None:
        which = message.WhichOneof("message")
        if which == "snapshot":
            assert not versions
            versions.append(message.snapshot.match.version)
        elif which == "your_turn":
            turn = message.your_turn
            await answer_at_random(call, turn, rng, f"v{turn.version}")
        elif which == "update":
            versions.append(message.update.version)
        elif which == "error":
            pytest.fail(f"submission failed: {message.error}")
    return versions


async def test_play_match_needs_a_token_and_a_hello(client: Client) -> None:
    match = await seated_match(client, 2)
    anonymous = match.spectator.play()
    await anonymous.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=match.match_id)))
    await expect_error(anonymous.read(), Code.UNAUTHENTICATED, "TOKEN_REQUIRED")
    no_hello = match.seats[0].play()
    await no_hello.write(ms.PlayMatchRequest(submit=ms.SubmitActionRequest(notation="pass")))
    await expect_error(no_hello.read(), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    missing = match.seats[0].play()
    await missing.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id="nope")))
    await expect_error(missing.read(), Code.NOT_FOUND, "MATCH_NOT_FOUND")


# --------------------------------------------------------- server features
async def test_health_and_reflection(client: Client, server: RunningServer) -> None:
    assert await health(client.channel) == health_pb2.HealthCheckResponse.SERVING
    assert await health(client.channel, SERVICE_NAME) == health_pb2.HealthCheckResponse.SERVING
    stub = reflection_pb2_grpc.ServerReflectionStub(client.channel)
    call = stub.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    )
    names = set()
    async for reply in call:
        names |= {s.name for s in reply.list_services_response.service}
    assert {"senet.v1.MatchService", "grpc.health.v1.Health"} <= names


async def test_oversized_request_is_resource_exhausted(deployment: Deployment) -> None:
    server = await deployment.start(max_message_bytes=2048)
    client = deployment.client(server)
    match_id = (await client.create(2)).match_id
    await expect_error(client.join(match_id, name="n" * 4096), Code.RESOURCE_EXHAUSTED, None)
    assert (await client.join(match_id, name="ok")).seat == 0  # the server is fine


@pytest.mark.slow
async def test_rate_limit_per_seat(deployment: Deployment) -> None:
    server = await deployment.start(seat_rate_per_s=1, seat_burst=2)
    client = deployment.client(server)
    match = await seated_match(client, 2)
    for _ in range(2):
        await match.seats[0].legal(match.match_id)
    limited = await expect_error(
        match.seats[0].legal(match.match_id), Code.RESOURCE_EXHAUSTED, "RATE_LIMITED"
    )
    assert limited.facts == {"ratePerSecond": "1", "burst": "2"}
    assert limited.retry_after_s is not None and 0 < limited.retry_after_s <= 1.0
    await expect_error(
        match.seats[0].submit(match.match_id, "pass"), Code.RESOURCE_EXHAUSTED, "RATE_LIMITED"
    )
    await match.seats[1].legal(match.match_id)  # buckets are per seat
    await match.spectator.get(match.match_id)  # reading is not limited
    await asyncio.sleep(1.1)
    await match.seats[0].legal(match.match_id)  # refilled


@pytest.mark.slow
async def test_drain_reports_not_serving_then_ends_streams_with_draining(
    deployment: Deployment,
) -> None:
    server = await deployment.start(drain_grace_s=0.5, drain_notice_s=0.5)
    client = deployment.client(server)
    await wait_for_health(client.channel, SERVING)
    stub = health_pb2_grpc.HealthStub(client.channel)
    watch = stub.Watch(health_pb2.HealthCheckRequest(service=SERVICE_NAME))
    assert (await watch.read()).status == SERVING
    match = await seated_match(client, 2)
    watcher = match.spectator.watch(match.match_id)
    assert await match.spectator.read(watcher) is not None
    player = match.seats[0].play()
    await player.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=match.match_id)))
    assert await match.seats[0].read(player) is not None
    draining = asyncio.create_task(server.drain())
    reply = await asyncio.wait_for(watch.read(), 5)
    assert reply.status == NOT_SERVING
    # The notice: health says NOT_SERVING while calls are still served.
    assert (await client.get(match.match_id)).match.match_id == match.match_id
    # Then every open stream ends with DRAINING, so its client resumes elsewhere.
    for seat_client, stream in ((match.spectator, watcher), (match.seats[0], player)):
        await expect_error(_until_end(seat_client, stream), Code.UNAVAILABLE, "DRAINING")
    # New calls are turned away (by the servicer, or by gRPC once it stopped listening).
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.get(match.match_id)
    assert refused.value.code() == Code.UNAVAILABLE
    await asyncio.wait_for(draining, 10)


async def _until_end(client: Client, stream: Stream[Any]) -> None:
    while await client.read(stream) is not None:
        pass
