"""Malformed requests never crash the service and never change a match.

Hypothesis fills every field of every request type with random values (strings,
integers at their limits, garbage enum numbers, huge repeated fields, other
games' messages), sends them with random metadata (forged, malformed or real
tokens, admin keys, unknown keys) and checks that:

* no call ends with INTERNAL or UNKNOWN, nor does any PlayError inside PlayMatch;
* the target match is unchanged (GetMatch for a spectator and a seat), unless a
  submission was accepted, which then moved it on by exactly one version each.

The same fuzzing of every method of PlayerService, LadderService and BotService,
with a guest's identity token and a registered bot's key as often as forged ones:
no call ends with INTERNAL or UNKNOWN.

Two more sweeps, for every game: every call on a match whose stored values are
garbage answers INTERNAL only with reason CORRUPT_STATE (never UNKNOWN, never the
generic INTERNAL) while the lobby keeps listing; and a message over the size
limit on every method is RESOURCE_EXHAUSTED, the one error without a reason.

The server runs on its own event loop in a thread, so the sync Hypothesis test
can drive it with the blocking gRPC client. Bounded: 50 examples per store, each
sending one fuzzed request of every type.

Beside it, every hosted game gets notations that were legal somewhere with a digit
swapped for another script's (``size ²``, ``a c٣``), through SubmitAction and
PlayMatch: INVALID_ARGUMENT with reason MALFORMED_ACTION each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.games import Rng, all_games, get_game
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store import MatchStore
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from senet.v1 import bot_service_pb2 as bpb
from senet.v1 import (
    bot_service_pb2_grpc,
    ladder_service_pb2_grpc,
    match_pb2,
    match_service_pb2_grpc,
    player_service_pb2_grpc,
)
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import match_service_pb2 as ms
from senet.v1 import player_service_pb2 as ppb
from tests.conftest import STORE_BUDGET_S
from tests.service.conftest import (
    Client,
    Deployment,
    current_seat,
    expect_error,
    failure_of,
    seated_match,
)
from tests.service.test_corrupt_matches import GARBAGE, write_garbage

T = TypeVar("T")
BAD_CODES = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
# Ends of a call the fuzzer itself causes (stream cut short, deadline).
OWN_ENDS = {grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED}
TIMEOUT_S = 5.0

# Well-formed notations (some legal now, most not) and near misses.
_NOTATIONS = ["pass", "a b1", "a c2", "a h6", "b c3 d3", "take l", "take r", "mus exp5",
              "dir exp5", "nskip", "discard r", "cur c2 c3", "col a1 a2 a3", "a", "a i9",
              "a c\u00b2", "a c\u0663", "a c\uff12", "dir exp\u2464", "take n\u00b9",
              ]  # fmt: skip
_INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
}


class ThreadServer:
    """A server on its own event loop in a daemon thread."""

    def __init__(self, settings: Settings, make_store: Callable[[], MatchStore]) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

        async def start() -> RunningServer:
            return await create_server(settings, make_store())

        self.running = self.call(start())

    def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def close(self) -> None:
        async def stop() -> None:
            await self.running.stop()
            leftovers = asyncio.all_tasks() - {asyncio.current_task()}
            for task in leftovers:
                task.cancel()
            if leftovers:
                await asyncio.wait(leftovers, timeout=5)

        try:
            self.call(stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()


@dataclass
class Target:
    """The fuzzed server and one match in progress, fully seated."""

    stub: match_service_pb2_grpc.MatchServiceStub
    match_id: str
    tokens: list[str]

    def seat_md(self, seat: int) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.tokens[seat]}"),)

    def observe(self) -> list[ms.GetMatchResponse]:
        request = ms.GetMatchRequest(match_id=self.match_id)
        return [
            self.stub.GetMatch(request, timeout=TIMEOUT_S),
            self.stub.GetMatch(request, metadata=self.seat_md(0), timeout=TIMEOUT_S),
        ]


@contextlib.contextmanager
def _fuzzed_server(store_kind: str, request: pytest.FixtureRequest) -> Iterator[grpc.Channel]:
    """A fuzzed server over the store ``store_kind`` names, for the block; yields a
    blocking channel to it."""
    if store_kind == "redis":
        url = request.getfixturevalue("redis_url")
        prefix = request.getfixturevalue("redis_key_prefix")

        def make_store() -> MatchStore:
            return RedisStore.from_url(url, key_prefix=prefix, socket_timeout_s=STORE_BUDGET_S)
    else:
        make_store = MemoryStore
    server = ThreadServer(Settings(port=0, log_json=False, heartbeat_s=0.05), make_store)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.running.port}")
    try:
        yield channel
    finally:
        channel.close()
        server.close()


@pytest.fixture
def target(store_kind: str, request: pytest.FixtureRequest) -> Iterator[Target]:
    with _fuzzed_server(store_kind, request) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        plans = [match_pb2.SeatPlan()] * 3
        created = stub.CreateMatch(ms.CreateMatchRequest(game_id="mykerinos", seats=plans, seed=3))
        mid = created.match_id
        tokens = [
            stub.JoinMatch(ms.JoinMatchRequest(match_id=mid, seat=s, display_name="p")).token
            for s in range(3)
        ]
        fuzzed = Target(stub, mid, tokens)
        for version in range(4):  # a few actions in, so that the match has a history
            seat = current_seat(fuzzed.observe()[0].match)
            assert seat is not None
            md = fuzzed.seat_md(seat)
            legal = stub.ListLegalActions(ms.ListLegalActionsRequest(match_id=mid), metadata=md)
            stub.SubmitAction(
                ms.SubmitActionRequest(
                    match_id=mid, notation=legal.actions[version].notation, request_id=f"v{version}"
                ),
                metadata=md,
            )
        yield fuzzed


# ------------------------------------------------------------- strategies
def _strings(target: Target) -> st.SearchStrategy[str]:
    known = [target.match_id, "mykerinos", "pass", "a c2", "b c3 d3", "take l", "dir exp5"]
    return st.one_of(
        st.text(max_size=30),
        st.sampled_from(known),
        st.integers(65, 70_000).map(lambda n: "x" * n),  # over every limit, or the message's
    )


def _mostly(value: str, target: Target) -> st.SearchStrategy[str]:
    """Usually ``value`` (so that the request gets past the first checks), else anything."""
    return st.sampled_from([True, True, True, False]).flatmap(
        lambda keep: st.just(value) if keep else _strings(target)
    )


def _scalar(field: Any, target: Target) -> st.SearchStrategy[Any]:
    if field.type == FieldDescriptor.TYPE_STRING:
        if field.name == "match_id":
            return _mostly(target.match_id, target)
        if field.name == "game_id":
            return _mostly("mykerinos", target)
        if field.name == "display_name":
            return _mostly("fuzzer", target)
        if field.name == "notation":
            return st.one_of(st.sampled_from(_NOTATIONS), _strings(target))
        if field.name == "request_id":
            return st.one_of(st.from_regex(r"[a-z0-9-]{1,20}", fullmatch=True), _strings(target))
        return _strings(target)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        floats = st.floats() if field.type == FieldDescriptor.TYPE_DOUBLE else st.floats(width=32)
        return st.one_of(st.sampled_from([0.0, -1.0, 0.5, 1e300]), floats)
    if field.type == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=40)
    if field.type == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        valid = [v.number for v in field.enum_type.values]
        return st.one_of(st.sampled_from(valid), st.integers(-(2**31), 2**31 - 1))
    low, high = _INT_RANGES[field.type]
    return st.one_of(st.sampled_from([low, high, 0, 1, 2, 3, 4, 5]), st.integers(low, high))


def _fill(data: st.DataObject, message: Message, target: Target, depth: int = 0) -> None:
    """Set a random subset of ``message``'s fields, recursively, in place."""
    descriptor = message.DESCRIPTOR
    chosen = set()  # one member of each real oneof, mostly (not proto3 "optional"s)
    for oneof in descriptor.oneofs:
        if not oneof.name.startswith("_") and data.draw(st.integers(0, 3)) < 3:
            chosen.add(data.draw(st.sampled_from([f.name for f in oneof.fields])))
    for field in descriptor.fields:
        real_oneof = (
            field.containing_oneof is not None and not field.containing_oneof.name.startswith("_")
        )
        if real_oneof:
            if field.name not in chosen:
                continue
        elif field.name not in _KEY_FIELDS and not data.draw(st.booleans()):
            continue
        value = getattr(message, field.name)
        sub = field.message_type
        if sub is not None and sub.GetOptions().map_entry:
            value_field = sub.fields_by_name["value"]
            for _ in range(data.draw(st.integers(0, 3))):
                key = data.draw(_strings(target).filter(lambda s: len(s) < 100))
                if value_field.message_type is not None:
                    if depth < 3:
                        _fill(data, value[key], target, depth + 1)
                else:
                    value[key] = data.draw(_scalar(value_field, target))
        elif field.is_repeated:
            count = data.draw(st.sampled_from([0, 1, 2, 3, 5000]))
            if sub is not None:
                if depth >= 3 or count == 0:
                    continue
                item = value.add()
                _fill(data, item, target, depth + 1)
                for _ in range(count - 1):
                    value.add().CopyFrom(item)  # huge fields repeat one random item
            else:
                value.extend([data.draw(_scalar(field, target))] * count)
        elif sub is not None:
            if depth < 3:
                value.SetInParent()
                _fill(data, value, target, depth + 1)
        else:
            setattr(message, field.name, data.draw(_scalar(field, target)))


# Set in every request that has them, so that most requests reach the match.
_KEY_FIELDS = {"match_id", "game_id"}


def _metadata(target: Target) -> st.SearchStrategy[list[tuple[str, str]]]:
    ascii_text = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=40)
    entry = st.one_of(
        st.sampled_from(target.tokens).map(lambda t: ("authorization", f"Bearer {t}")),
        ascii_text.map(lambda v: ("authorization", v)),
        st.sampled_from(["Bearer", "bearer", "Basic abc", "Bearer a b"]).map(
            lambda v: ("authorization", v)
        ),
        ascii_text.map(lambda v: ("authorization", f"Bearer {v}")),
        ascii_text.map(lambda v: ("x-senet-admin-key", v)),
        st.tuples(st.from_regex(r"x-[a-z0-9]{1,10}", fullmatch=True), ascii_text),
    )
    seat = st.sampled_from(target.tokens).map(lambda t: [("authorization", f"Bearer {t}")])
    return st.one_of(st.just([]), seat, st.lists(entry, max_size=3))


_REQUESTS: dict[str, type[Message]] = {
    "ListGames": ms.ListGamesRequest,
    "CreateMatch": ms.CreateMatchRequest,
    "JoinMatch": ms.JoinMatchRequest,
    "GetMatch": ms.GetMatchRequest,
    "ListLegalActions": ms.ListLegalActionsRequest,
    "SubmitAction": ms.SubmitActionRequest,
    "ExportMatch": ms.ExportMatchRequest,
    "WatchMatch": ms.WatchMatchRequest,
    "PlayMatch": ms.PlayMatchRequest,
    "RequestRematch": ms.RequestRematchRequest,
    "DeclineRematch": ms.DeclineRematchRequest,
}


def _fuzzing(examples: int) -> settings:
    """Hypothesis' settings of a fuzz test: ``examples`` examples, the same ones at
    every run (derandomized, no example database), no deadline (a call may wait on
    the store), and no health check (the strategies draw large messages on purpose)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


# -------------------------------------------------------------- the test
def _send(target: Target, method: str, requests: list[Message], md: list[tuple[str, str]]) -> int:
    """Send one fuzzed call; return how many submissions it got accepted."""
    stub: Any = target.stub
    call = getattr(stub, method)
    accepted = 0
    try:
        if method == "PlayMatch":
            stream = call(iter(requests), metadata=md, timeout=TIMEOUT_S)
            for _, message in zip(range(4), stream, strict=False):
                if message.HasField("error"):
                    assert grpc.StatusCode.INTERNAL.value[0] != message.error.code, message
                    assert grpc.StatusCode.UNKNOWN.value[0] != message.error.code, message
                accepted += message.HasField("submitted") and not message.submitted.duplicate
            stream.cancel()
        elif method == "WatchMatch":
            stream = call(requests[0], metadata=md, timeout=TIMEOUT_S)
            for _ in zip(range(2), stream, strict=False):
                pass
            stream.cancel()
        else:
            response = call(requests[0], metadata=md, timeout=TIMEOUT_S)
            accepted += method == "SubmitAction" and not response.duplicate
    except grpc.RpcError as error:
        code = cast(grpc.Call, error).code()
        assert code not in BAD_CODES, (method, requests, md, error)
        assert method in ("WatchMatch", "PlayMatch") or code not in OWN_ENDS, error
    return accepted


@_fuzzing(50)
@given(data=st.data())
@pytest.mark.slow
def test_malformed_requests_never_fail_internally_nor_change_a_match(
    target: Target, data: st.DataObject
) -> None:
    """Each example sends one fuzzed request of every type, in turn."""
    for method, request_type in _REQUESTS.items():
        before = target.observe()
        requests: list[Message] = []
        if method == "PlayMatch" and not data.draw(st.booleans()):  # a hello, then garbage
            requests.append(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=target.match_id)))
        for _ in range(data.draw(st.integers(1, 3)) if method == "PlayMatch" else 1):
            request = request_type()
            _fill(data, request, target)
            requests.append(request)
        md = data.draw(_metadata(target), label="metadata")
        accepted = _send(target, method, requests, md)
        after = target.observe()
        if accepted:
            assert after[0].match.version == before[0].match.version + accepted
        else:
            assert after == before, (method, requests, md)


# ------------------------------------- the players', ladders' and bots' services
@dataclass
class OtherServices:
    """The fuzzed server's PlayerService, LadderService and BotService, a guest's
    identity token and a registered bot's key (sent as often as garbage), and a
    :class:`Target` for the field strategies (its match id is the bot's id)."""

    calls: list[tuple[str, Any, type[Message]]]
    identity: str
    bot_key: str
    target: Target


@pytest.fixture
def other_services(store_kind: str, request: pytest.FixtureRequest) -> Iterator[OtherServices]:
    with _fuzzed_server(store_kind, request) as channel:
        players = player_service_pb2_grpc.PlayerServiceStub(channel)
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        bots = bot_service_pb2_grpc.BotServiceStub(channel)
        guest = players.RegisterGuest(ppb.RegisterGuestRequest(display_name="fuzzer"))
        registered = ladder.RegisterBot(
            lpb.RegisterBotRequest(name="fuzzbot", game_ids=["mykerinos"]),
            metadata=(("x-senet-identity", guest.identity_token),),
        )
        calls = [
            (name, getattr(stub, name), getattr(module, f"{name}Request"))
            for stub, module, service in (
                (players, ppb, ppb.DESCRIPTOR.services_by_name["PlayerService"]),
                (ladder, lpb, lpb.DESCRIPTOR.services_by_name["LadderService"]),
                (bots, bpb, bpb.DESCRIPTOR.services_by_name["BotService"]),
            )
            for name in service.methods_by_name
        ]
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        target = Target(stub, registered.bot.bot_id, [guest.identity_token])
        yield OtherServices(calls, guest.identity_token, registered.bot_key, target)


def _credentials(services: OtherServices) -> st.SearchStrategy[list[tuple[str, str]]]:
    ascii_text = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=40)
    keys = ["x-senet-identity", "x-senet-bot-key", "x-senet-worker-key", "x-senet-admin-key"]
    entry = st.one_of(
        st.just(("x-senet-identity", services.identity)),
        st.just(("x-senet-bot-key", services.bot_key)),
        st.tuples(st.sampled_from(keys), ascii_text),
    )
    return st.lists(entry, max_size=3)


@_fuzzing(25)
@given(data=st.data())
@pytest.mark.slow
def test_malformed_requests_to_the_other_services_never_fail_internally(
    other_services: OtherServices, data: st.DataObject
) -> None:
    """Each example sends one fuzzed request to every method of PlayerService,
    LadderService and BotService, with real, forged or garbage credentials."""
    for method, call, request_type in other_services.calls:
        request = request_type()
        _fill(data, request, other_services.target)
        md = data.draw(_credentials(other_services), label="metadata")
        try:
            response = call(request, metadata=md, timeout=TIMEOUT_S)
            if method == "FindMatch":  # a stream: its first answers, then let it go
                for _ in zip(range(2), response, strict=False):
                    pass
                response.cancel()
        except grpc.RpcError as error:
            code = cast(grpc.Call, error).code()
            assert code not in BAD_CODES, (method, request, md, error)
            assert method == "FindMatch" or code not in OWN_ENDS, error


# ------------------------------------------------- foreign digits, every game
#: Digits no notation may use: a superscript and a circled digit (``str.isdigit`` takes
#: them, ``int`` does not), an Arabic-Indic and a fullwidth digit (``int`` reads both).
FOREIGN_DIGITS = ("\u00b2", "\u2464", "\u0663", "\uff11")
ASCII_DIGITS = frozenset("0123456789")
#: What PlayMatch sends besides the answer to a submission: the opening snapshot, prompts.
PROMPTS = ("snapshot", "your_turn")


@functools.cache
def _with_foreign_digits(game_id: str, seats: int, kinds: int = 6) -> tuple[str, ...]:
    """Notations with an ASCII digit, legal somewhere in seeded local matches of the game
    (one of each of up to ``kinds`` action kinds), each with its first digit swapped for
    every FOREIGN_DIGITS one."""
    game = get_game(game_id)
    found: dict[str, str] = {}  # the first word (the kind) -> a notation of that kind
    for seed in range(20):
        state = game.new_match(seats, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            legal = state.legal_actions()
            for text in (a.notation() for a in legal):
                if any(c in ASCII_DIGITS for c in text):
                    found.setdefault(text.split()[0], text)
            state.apply_unchecked(rng.choice(legal))
    assert found, f"no notation of {game_id} has a digit"
    out: list[str] = []
    for text in [found[kind] for kind in sorted(found)][:kinds]:
        i = next(i for i, c in enumerate(text) if c in ASCII_DIGITS)
        out.extend(f"{text[:i]}{digit}{text[i + 1 :]}" for digit in FOREIGN_DIGITS)
    return tuple(out)


@pytest.mark.parametrize("rpc", ["SubmitAction", "PlayMatch"])
@pytest.mark.parametrize("game_id", sorted(g.info.id for g in all_games()))
async def test_foreign_digits_in_notation_are_invalid_argument_for_every_game(
    client: Client, game_id: str, rpc: str
) -> None:
    seats = get_game(game_id).info.min_seats
    texts = _with_foreign_digits(game_id, seats)
    created = await client.create(seats, seed=7, game_id=game_id)
    mid = created.match_id
    players = [client.as_seat((await client.join(mid, s, f"p{s}")).token) for s in range(seats)]
    mover = current_seat((await client.get(mid)).match)
    assert mover is not None
    player = players[mover]
    if rpc == "SubmitAction":
        for text in texts:
            await expect_error(
                player.submit(mid, text), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_ACTION"
            )
    else:
        call = player.play()
        await call.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=mid)))
        for n, text in enumerate(texts):
            submit = ms.SubmitActionRequest(notation=text, request_id=f"digit-{n}")
            await call.write(ms.PlayMatchRequest(submit=submit))
            message = await player.read(call)
            while message is not None and message.WhichOneof("message") in PROMPTS:
                message = await player.read(call)
            assert message is not None and message.WhichOneof("message") == "error", (text, message)
            assert (message.error.code, message.error.reason, message.error.request_id) == (
                grpc.StatusCode.INVALID_ARGUMENT.value[0],
                "MALFORMED_ACTION",
                f"digit-{n}",
            ), text
        call.cancel()
    assert (await client.get(mid)).match.version == 0


# ------------------------------------------------- corrupt stored values
GAMES = [g.info.id for g in all_games()]


async def _calls_on(client: Client, seat: Client, match_id: str) -> dict[str, Any]:
    """Every MatchService call about ``match_id``, as (name, awaitable) pairs."""
    stub = client.stub

    async def watch() -> object:
        return await client.read(client.watch(match_id))

    async def play() -> object:
        call = seat.play()
        await call.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=match_id)))
        # Write the submission only once the stream is open: a stream that the
        # server ends while the client writes is the client library's affair.
        messages = [await seat.read(call)]
        if messages[0] is not None:
            submit = ms.SubmitActionRequest(notation="pass", request_id="p")
            await call.write(ms.PlayMatchRequest(submit=submit))
            messages.append(await seat.read(call))
        call.cancel()
        for message in messages:
            if message is not None and message.HasField("error"):
                error = message.error
                assert error.code != grpc.StatusCode.UNKNOWN.value[0], error
                if error.code == grpc.StatusCode.INTERNAL.value[0]:
                    assert error.reason == "CORRUPT_STATE", error
        return messages

    return {
        "GetMatch": seat.get(match_id),
        "ListLegalActions": seat.legal(match_id),
        "SubmitAction": seat.submit(match_id, "pass"),
        "ExportMatch": client.export(match_id),
        "JoinMatch": client.join(match_id),
        "LeaveMatch": seat._call(stub.LeaveMatch, ms.LeaveMatchRequest(match_id=match_id)),
        "RequestRematch": seat._call(
            stub.RequestRematch, ms.RequestRematchRequest(match_id=match_id)
        ),
        "DeclineRematch": seat._call(
            stub.DeclineRematch, ms.DeclineRematchRequest(match_id=match_id)
        ),
        "ListMatches": client._call(stub.ListMatches, ms.ListMatchesRequest(page_size=200)),
        "WatchMatch": watch(),
        "PlayMatch": play(),
    }


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("what", list(GARBAGE))
async def test_corrupt_stored_values_answer_corrupt_state_on_every_call(
    deployment: Deployment, game_id: str, what: str
) -> None:
    server = await deployment.start()
    client = deployment.client(server)
    seats = next(g.info.min_seats for g in all_games() if g.info.id == game_id)
    created = await client.create(seats, game_id=game_id)
    tokens = [(await client.join(created.match_id, s, f"p{s}")).token for s in range(seats)]
    healthy = await seated_match(client, seats=3)
    target, value, _ = GARBAGE[what]
    await write_garbage(deployment, created.match_id, target, value)
    # A replica that holds nothing of the match in its cache reads the garbage.
    reader = await deployment.start()
    fresh = deployment.client(reader)
    calls = await _calls_on(fresh, fresh.as_seat(tokens[0]), created.match_id)
    for method, call in calls.items():
        try:
            result = await call
        except grpc.aio.AioRpcError as error:
            failure = failure_of(error)
            assert failure.code != grpc.StatusCode.UNKNOWN, (method, failure)
            if failure.code == grpc.StatusCode.INTERNAL:
                assert failure.reason == "CORRUPT_STATE", (method, failure)
        else:
            if method == "ListMatches":
                assert healthy.match_id in [m.match_id for m in result.matches]


# ------------------------------------------------------ oversized messages
_SERVICE = ms.DESCRIPTOR.services_by_name["MatchService"]


def _oversized() -> bytes:
    """Field 1 (a string in every request that has one) just over the limit."""
    size = Settings().max_message_bytes + 1
    varint = bytearray()
    n = size
    while n > 0x7F:
        varint.append((n & 0x7F) | 0x80)
        n >>= 7
    varint.append(n)
    return b"\x0a" + bytes(varint) + b"x" * size


def _raw(data: bytes) -> bytes:
    return data


@pytest.mark.parametrize("method", [m.name for m in _SERVICE.methods])
async def test_oversized_messages_are_resource_exhausted_on_every_method(method: str) -> None:
    deployment = Deployment("memory")
    try:
        server = await deployment.start()
        channel = deployment.channel(server)
        path = f"/{_SERVICE.full_name}/{method}"
        descriptor = _SERVICE.methods_by_name[method]
        data = _oversized()
        try:
            if descriptor.client_streaming:
                stream = channel.stream_stream(
                    path, request_serializer=_raw, response_deserializer=_raw
                )(iter([data]))
                async for _ in stream:
                    pass
            elif descriptor.server_streaming:
                unary_stream = channel.unary_stream(
                    path, request_serializer=_raw, response_deserializer=_raw
                )
                async for _ in unary_stream(data):
                    pass
            else:
                await channel.unary_unary(
                    path, request_serializer=_raw, response_deserializer=_raw
                )(data)
        except grpc.aio.AioRpcError as error:
            failure = failure_of(error)
            assert (failure.code, failure.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, None)
        else:
            pytest.fail(f"{method} accepted a message over the limit")
    finally:
        await deployment.close()
