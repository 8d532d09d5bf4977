"""No seat sees what it may not, in any game, by any RPC or stream, on either store.

The test is parametrized over every game the plug-in registry finds (``all_games()``:
a new game is checked with no edit here) and over both stores. One seeded match per
game, at three seats where the game allows, each seat claimed by a person with a
client of its own, plus a spectator. Before the first move every viewer opens
WatchMatch and every seat PlayMatch (classic and compact); then a seat drawn among the
deciding ones plays a random legal action (by notation, every third one typed), until
the match ends. Three checks:

1. **Twins.** At checkpoints (decisions 0, 1, 3, 9, 27, ... and the first positions
   where several seats choose at once, pending choices made) a *twin* of the match is
   written to the store for each viewer: the same meta, seats and tokens, with
   everything that viewer cannot see resampled by the rules core (``determinize``:
   the other hands, the pending choices of other seats, the deck order, the
   generator). The viewer must not tell the two apart: GetMatch (view and summary),
   ListLegalActions, the opening of WatchMatch and PlayMatch (snapshot and prompt),
   the refusals of the usual mistakes (by SubmitAction and inside PlayMatch: actions
   chosen to tempt a leak, such as another seat's legal action or one legal earlier,
   typed or as notation; garbage) and ExportMatch's refusal must be the same bytes,
   codes and messages, but for the match id and the version.
2. **Projection.** Everything a viewer received through the real match, from the
   first stream message to the last, and again from streams reopened at version 0
   after the end, is exactly what the rules core lets that viewer see at that
   version: every view is ``view(viewer)``, every update carries only the events
   whose audience holds the viewer and the action's public notation unless the viewer
   made it, every prompt and legal list the viewer's own legal actions. A spectator
   gets public facts only.
3. **Planted values.** No message and no error contains a seat's token, the seed,
   its salt or any state the match's generator went through. After the end the
   export reveals the seed and salt and replays to the final position.

Game-specific secrecy (which cards a notation names, which events are private) is
left to each game's own tests; this one only uses the game interface.
"""

from __future__ import annotations

import asyncio
import random
import time
import zlib
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from senet.codec import codec_for, option_value_to_proto
from senet.games import Event, Game, GameState, all_games
from senet.service.records import HeadDocument
from senet.service.server import RunningServer
from senet.store import ClaimWrite as StoredClaim
from senet.store import NewMatch
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    Code,
    Deployment,
    Failure,
    check_export,
    current_seat,
    failure_of,
    messages_in,
    submit_request,
)

GAMES = [pytest.param(game, id=game.info.id) for game in all_games()]
SEED = 8_411_296_337_620_514_709  # 19 digits: never in a message by chance
#: The decisions before which the twins are compared.
CHECKPOINTS = frozenset({0, 1, *(3**k for k in range(1, 9))})
#: Positions where several seats decide at once also get twins, this many of them.
SIMULTANEOUS_CHECKPOINTS = 3
#: The longest a stream may stay silent while the test waits on it.
STREAM_SILENCE_S = 60.0
#: Planted values shorter than this are not searched for (they could occur by chance).
SHORTEST_SECRET = 8
Viewer = int | None  # a seat, or None for the spectator


def seat_count(game: Game) -> int:
    """Three seats where the game allows (two others to hide things from), else the
    nearest count it does."""
    return min(max(game.info.min_seats, 3), game.info.max_seats)


@pytest.fixture
async def server(deployment: Deployment) -> RunningServer:
    """A server whose rate limits this test's many calls from one address never reach."""
    return await deployment.start(
        seat_rate_per_s=1e6,
        seat_burst=1_000_000,
        client_calls_per_s=1e6,
        client_calls_burst=1_000_000,
        seat_streams=64,
    )


# ------------------------------------------------------------------ the match
@dataclass
class Seen:
    """One viewer: the client whose every message is checked at the end, the one used
    on twins (not checked: a twin's hidden parts are made up), and the refusals."""

    viewer: Viewer
    real: Client
    twin: Client
    failures: list[Failure] = field(default_factory=list)


@dataclass
class Mirror:
    """The match replayed by the rules core beside the server, version by version."""

    game: Game
    states: list[GameState]
    events: list[list[Event]] = field(default_factory=lambda: [[]])
    actions: list[tuple[int, str]] = field(default_factory=lambda: [(-1, "")])
    #: Every notation that was legal for some seat at some version.
    pool: set[str] = field(default_factory=set)

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def apply(self, seat: int, notation: str) -> None:
        state = self.state.clone()
        self.events.append(state.apply(seat, notation))
        self.actions.append((seat, notation))
        self.states.append(state)
        for deciding in state.deciding_seats():
            self.pool.update(a.notation() for a in state.legal_actions_for(deciding))


def wire(message: Message) -> bytes:
    return message.SerializeToString(deterministic=True)


def blob(message: Message) -> bytes:
    """A message as the wire sees it, and as JSON (numbers and strings spelled out)."""
    as_json = json_format.MessageToJson(message, preserving_proto_field_name=True)
    return message.SerializeToString() + b"\n" + as_json.encode()


def anonymous(message: Message) -> bytes:
    """``message`` without what tells a match from its twin: its id and version."""
    copy = type(message)()
    copy.CopyFrom(message)
    for inner in messages_in(copy):
        for descriptor, _value in inner.ListFields():
            if descriptor.name in ("match_id", "version") and (
                descriptor.type != FieldDescriptor.TYPE_MESSAGE
            ):
                inner.ClearField(descriptor.name)
    return wire(copy)


def anonymous_failure(failure: Failure, *match_ids: str) -> tuple[Any, ...]:
    message = failure.message
    for match_id in match_ids:
        message = message.replace(match_id, "<match>")
    facts = {k: v for k, v in failure.facts.items() if "version" not in k.lower()}
    return failure.code, failure.reason, message, sorted(facts.items())


async def refusal(call: Awaitable[Any]) -> Failure:
    try:
        result = await call
    except grpc.aio.AioRpcError as error:
        return failure_of(error)
    pytest.fail(f"expected a refusal, got {type(result).__name__}: {result}")


async def drain(client: Client, call: Any) -> None:
    """Record every message of a stream until it ends."""
    while await client.read(call, timeout=STREAM_SILENCE_S) is not None:
        pass


# ------------------------------------------------------------------ twins
async def write_twin(
    server: RunningServer, match_id: str, viewer: Viewer, name: str
) -> tuple[str, bool]:
    """A copy of the match (same meta, seats and tokens) with everything ``viewer``
    cannot see resampled; its id, and whether anything hidden came out different."""
    stored = await server.store.load(match_id)
    snapshot = HeadDocument.from_json(stored.snapshot_json)
    game = next(g for g in all_games() if g.info.id == snapshot.state["game"])
    state = game.state_from_data(snapshot.state)
    twin = state.determinize(viewer, zlib.crc32(name.encode()))
    assert twin.view(viewer) == state.view(viewer), name
    twin_snapshot = HeadDocument(twin.to_data(), time.time(), snapshot.clock)
    await server.store.create(NewMatch(name, stored.meta_json, twin_snapshot.to_json()))
    for seat, claim in stored.seats.items():
        assert await server.store.claim_seat(name, StoredClaim(seat, claim))
    return name, twin.to_data() != snapshot.state


def mistakes(
    game: Game, mirror: Mirror, viewer: Viewer
) -> list[tuple[str | None, match_pb2.Action | None]]:
    """Submissions that must be refused, chosen to tempt a leak: another deciding
    seat's legal actions, actions legal earlier in the match (as notation and typed),
    and garbage."""
    state = mirror.state
    own = set() if viewer is None else {a.notation() for a in state.legal_actions_for(viewer)}
    others = [
        a.notation()
        for seat in state.deciding_seats()
        if seat != viewer
        for a in state.legal_actions_for(seat)
    ]
    tempting = [n for n in dict.fromkeys([*others, *sorted(mirror.pool)]) if n not in own]
    picked = list(dict.fromkeys(tempting[:2] + tempting[-1:]))
    out: list[tuple[str | None, match_pb2.Action | None]] = [(n, None) for n in picked]
    if picked:
        typed = codec_for(game.info.id).action_to_proto(game.parse_action(picked[-1]))
        out.append((None, typed))
    out.append(("\x00 ¿ 99", None))
    return out


async def opening(client: Client, call: Any, match_ids: tuple[str, str]) -> list[Any]:
    """The first message of a stream, or its refusal, comparable across twins."""
    try:
        first = await client.read(call, timeout=STREAM_SILENCE_S)
    except grpc.aio.AioRpcError as error:
        return [anonymous_failure(failure_of(error), *match_ids)]
    assert first is not None
    return [anonymous(first)]


async def play_opening(
    client: Client, match_id: str, notation: str, match_ids: tuple[str, str]
) -> list[Any]:
    """A compact PlayMatch stream's snapshot (with the seat's prompt), then its answer
    to a refused submission, comparable across twins."""
    call = client.play()
    try:
        await call.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=match_id, compact=True)))
        seen = await opening(client, call, match_ids)
        if isinstance(seen[0], tuple):
            return seen  # refused (a spectator has no seat to play)
        submit = submit_request(match_id, notation, request_id="refused-in-play")
        await call.write(ms.PlayMatchRequest(submit=submit))
        while True:
            message = await client.read(call, timeout=STREAM_SILENCE_S)
            assert message is not None, "PlayMatch ended before answering"
            if message.HasField("error"):
                error = message.error
                text = error.message
                for match_id_ in match_ids:
                    text = text.replace(match_id_, "<match>")
                return [*seen, (error.code, error.reason, text, error.request_id)]
            assert message.HasField("heartbeat"), message
    finally:
        call.cancel()


async def compare_with_twins(
    server: RunningServer, game: Game, mirror: Mirror, match_id: str, viewers: list[Seen], tag: str
) -> dict[Viewer, bool]:
    """Each viewer sees the match and its own twin the same way, refusals included;
    returns, per viewer, whether its twin hid anything different."""
    differed = {}
    for seen in viewers:
        twin, differed[seen.viewer] = await write_twin(
            server, match_id, seen.viewer, f"twin-{tag}-{seen.viewer}"
        )
        ids = (match_id, twin)
        real, other = await seen.real.get(match_id), await seen.twin.get(twin)
        assert anonymous(other) == anonymous(real), (tag, seen.viewer, "GetMatch")
        if seen.viewer is None:
            calls = [seen.real.legal(match_id), seen.twin.legal(twin)]
            refused = [anonymous_failure(await refusal(c), *ids) for c in calls]
            assert refused[1] == refused[0], (tag, "ListLegalActions")
        else:
            real_legal, twin_legal = await seen.real.legal(match_id), await seen.twin.legal(twin)
            assert anonymous(twin_legal) == anonymous(real_legal), (tag, seen.viewer)
        watched = []
        for client, mid in ((seen.real, match_id), (seen.twin, twin)):
            call = client.watch(mid)
            try:
                watched.append(await opening(client, call, ids))
            finally:
                call.cancel()
        assert watched[0] == watched[1], (tag, seen.viewer, "WatchMatch")
        for notation, typed in mistakes(game, mirror, seen.viewer):
            on_real = await refusal(seen.real.submit(match_id, notation, typed=typed))
            on_twin = await refusal(seen.twin.submit(twin, notation, typed=typed))
            seen.failures.append(on_real)
            assert anonymous_failure(on_twin, *ids) == anonymous_failure(on_real, *ids), (
                tag,
                seen.viewer,
                notation,
            )
        tempting = next((n for n, _ in mistakes(game, mirror, seen.viewer) if n), "")
        played = [
            await play_opening(seen.real, match_id, tempting, ids),
            await play_opening(seen.twin, twin, tempting, ids),
        ]
        assert played[0] == played[1], (tag, seen.viewer, "PlayMatch")
        on_real = await refusal(seen.real.export(match_id))
        on_twin = await refusal(seen.twin.export(twin))
        seen.failures.append(on_real)
        assert anonymous_failure(on_twin, *ids) == anonymous_failure(on_real, *ids)
        assert (on_real.code, on_real.reason) == (Code.FAILED_PRECONDITION, "MATCH_NOT_FINISHED")
    return differed


# ------------------------------------------------------------------ projection
def check_projection(game: Game, mirror: Mirror, seen: Seen) -> int:
    """Assert that everything ``seen`` received is the core's view for its viewer at
    that version; return how many messages carried a view, an update or a prompt."""
    codec = codec_for(game.info.id)
    viewer = seen.viewer
    checked = 0

    def view_at(version: int, view: match_pb2.View) -> None:
        expected = codec.view_to_proto(mirror.states[version].view(viewer))
        assert wire(view) == wire(expected), (viewer, version, "view")

    def legal_at(version: int, seat: int, actions: Any) -> None:
        assert seat == viewer, (viewer, seat, "another seat's prompt")
        state = mirror.states[version]
        expected = [codec.legal_action_to_proto(state, a) for a in state.legal_actions_for(seat)]
        assert [wire(a) for a in actions] == [wire(a) for a in expected], (viewer, version)

    def events_at(version: int, events: Any) -> None:
        expected = [codec.event_to_proto(e) for e in mirror.events[version] if e.visible_to(viewer)]
        assert [wire(e) for e in events] == [wire(e) for e in expected], (viewer, version)

    for message in seen.real.received:
        for inner in messages_in(message):
            if isinstance(inner, ms.GetMatchResponse | match_pb2.MatchSnapshot):
                view_at(inner.match.version, inner.view)
                checked += 1
                if isinstance(inner, ms.GetMatchResponse):
                    assert inner.HasField("viewer_seat") == (viewer is not None)
                    assert viewer is None or inner.viewer_seat == viewer
            elif isinstance(inner, ms.ListLegalActionsResponse | ms.YourTurn):
                legal_at(inner.version, inner.seat, inner.actions)
                checked += 1
            elif isinstance(inner, match_pb2.MatchUpdate):
                seat, notation = mirror.actions[inner.version]
                public = notation if seat == viewer else game.public_notation(notation)
                assert (inner.seat, inner.notation) == (seat, public), (viewer, inner.version)
                events_at(inner.version, inner.events)
                checked += 1
            elif isinstance(inner, ms.SubmitActionResponse):
                assert mirror.actions[inner.version][0] == viewer, (viewer, inner.version)
                events_at(inner.version, inner.events)
    return checked


def planted(mirror: Mirror, export: ms.ExportMatchResponse, tokens: list[str]) -> set[str]:
    """The values no message may contain before the end: every token, the seed and
    its salt, and every state of the match's generator."""
    values = {*tokens, str(export.seed), f"{export.seed:x}", export.seed_salt}
    values |= {str(export.dealt_seed), f"{export.dealt_seed:x}"}
    for state in mirror.states:
        rng = state.to_data().get("rng")
        if isinstance(rng, int) and not isinstance(rng, bool):
            values |= {str(rng), f"{rng:x}"}
    return {value for value in values if len(value) >= SHORTEST_SECRET}


# ------------------------------------------------------------------ the test
@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
async def test_no_viewer_sees_what_it_may_not(
    game: Game, deployment: Deployment, server: RunningServer
) -> None:
    seats = seat_count(game)
    options = dict(game.info.short_match_options)
    admin = deployment.client(server)
    wanted = {name: option_value_to_proto(value) for name, value in options.items()}
    created = await admin.create(seats, seed=SEED, game_id=game.info.id, options=wanted)
    match_id = created.match_id
    tokens = [(await admin.join(match_id, s, f"seat {s}")).token for s in range(seats)]
    channel = admin.channel
    viewers = [
        Seen(viewer, Client(channel, token, None, []), Client(channel, token, None, []))
        for viewer, token in [(None, None), *enumerate(tokens)]
    ]
    mirror_start = game.new_match(seats, options, SEED)
    mirror = Mirror(game, [mirror_start])
    for first in mirror_start.deciding_seats():
        mirror.pool.update(a.notation() for a in mirror_start.legal_actions_for(first))

    streams = []
    for seen in viewers:
        streams.append(asyncio.create_task(drain(seen.real, seen.real.watch(match_id))))
        if seen.viewer is None:
            continue
        for compact in (False, True):
            call = seen.real.play()
            hello = ms.PlayHello(match_id=match_id, compact=compact)
            await call.write(ms.PlayMatchRequest(hello=hello))
            streams.append(asyncio.create_task(drain(seen.real, call)))

    rng = random.Random(SEED)
    codec = codec_for(game.info.id)
    differed: dict[Viewer, bool] = {seen.viewer: False for seen in viewers}
    simultaneous = 0
    decision = 0
    try:
        while not mirror.state.is_over():
            deciding = mirror.state.deciding_seats()
            pending = len(deciding) > 1 and mirror.actions[-1][0] in deciding
            if decision in CHECKPOINTS or (pending and simultaneous < SIMULTANEOUS_CHECKPOINTS):
                simultaneous += pending
                found = await compare_with_twins(
                    server, game, mirror, match_id, viewers, str(decision)
                )
                differed = {v: differed[v] or found[v] for v in differed}
            seat = rng.choice(deciding)
            mover = viewers[seat + 1].real
            legal = await mover.legal(match_id)
            choice = rng.choice(legal.actions)
            typed = decision % 3 == 2
            reply = await mover.submit(
                match_id,
                None if typed else choice.notation,
                typed=codec.action_to_proto(game.parse_action(choice.notation)) if typed else None,
                expected_version=legal.version,
            )
            mirror.apply(seat, choice.notation)
            assert reply.version == len(mirror.states) - 1
            assert current_seat(reply) == mirror.state.current_seat()
            decision += 1
        await asyncio.wait_for(asyncio.gather(*streams), STREAM_SILENCE_S)
    finally:
        for task in streams:
            task.cancel()

    # Every viewer's twins hid something (else they tested nothing).
    assert all(differed.values()), differed
    # Streams reopened after the end replay every update from the stored records.
    for seen in viewers:
        await drain(seen.real, seen.real.watch(match_id, from_version=0))
        if seen.viewer is not None:
            call = seen.real.play()
            hello = ms.PlayHello(match_id=match_id, from_version=0)
            await call.write(ms.PlayMatchRequest(hello=hello))
            await drain(seen.real, call)
    final = await viewers[0].real.get(match_id)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED

    for seen in viewers:
        checked = check_projection(game, mirror, seen)
        assert checked > len(mirror.states), (seen.viewer, checked)
    export = await admin.export(match_id)
    check_export(export, final, created.match.seed_commitment)
    secrets = planted(mirror, export, tokens)
    assert str(SEED) in secrets
    for seen in viewers:
        for message in seen.real.received:
            data = blob(message)
            assert not [s for s in secrets if s.encode() in data], type(message).__name__
        for failure in seen.failures:
            assert not [s for s in secrets if s in failure.message], failure
