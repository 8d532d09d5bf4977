"""Handler benchmark: SubmitAction's own work, in process, beside the null server's.

The peer benchmark measures whole servers under load, where gRPC's share and the
machine's noise are large; issue 35's gap to the null server is the handler's own
work. Here the handlers are called in this process, with no sockets and no gRPC:
Senet's ``MatchServicer.SubmitAction`` over the embedded store, the null
MatchService's (:mod:`tests.bench.null_server`) and the lean one's
(:mod:`tests.bench.lean_server`: the contract's work alone), on the same planned
Pebbles moves (4 seats, matches played round robin so that each call meets its
match cold, as a server's does). Each round times one pass over fresh matches per
handler, in turn, the order reversed every other round; figures are medians over
rounds.
A cProfile of one more pass of Senet's names where its time goes.

PlayMatch likewise: every seat of the pass's matches plays through a compact stream
(the handler's own ``read``/``write`` given a context in process), answering each
prompt with its planned move; a move's cost is the thread CPU of the whole pass
(streams opened, prompts answered, updates written to every seat, and the fake
clients parsing what they are sent, the same for both) over its moves.

Machine-readable lines::

    handler.submit_us: <Senet's thread CPU per SubmitAction, microseconds>
    handler.null_submit_us: <the null server's, same requests>
    handler.submit_vs_null: <Senet's / the null server's, median per round>
    handler.lean_submit_us: <the lean MatchService's (tests.bench.lean_server)>
    handler.submit_vs_lean: <Senet's / the lean server's, median per round>
    handler.lean_play_move_us: <the lean server's thread CPU per PlayMatch move>
    handler.play_vs_lean: <Senet's / the lean server's, median per round>
    handler.play_move_us: <Senet's thread CPU per PlayMatch move, four streams a match>
    handler.null_play_move_us: <the null server's>
    handler.play_vs_null: <Senet's / the null server's, median per round>
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message

from senet.games import get_game
from senet.service.grpc_api import EOF, MatchServicer
from senet.service.matches import MatchService
from senet.service.settings import Settings
from senet.store.memory import MemoryStore
from senet.v1 import match_pb2, match_service_pb2
from tests import plugins
from tests.bench.lean_server import LeanService
from tests.bench.null_server import NullService
from tests.bench.service import BASE_SEED, Match, Metadata, create_match

#: Matches per pass: enough that a match's objects are cold when its turn comes.
MATCHES = 64
ROUNDS = 7
QUICK_ROUNDS = 1
QUICK_MATCHES = 4
#: Functions named in the profile's summary.
PROFILE_LINES = 12


class _Context:
    """The little of a gRPC servicer context the two handlers read."""

    def __init__(self, metadata: Metadata = ()) -> None:
        self._metadata = metadata

    def invocation_metadata(self) -> Metadata:
        return self._metadata

    def peer(self) -> str:
        return "ipv4:127.0.0.1:50000"

    async def abort(self, code: Any, details: str = "", *_: Any) -> None:
        raise RuntimeError(f"the handler refused: {code} {details}")


Handler = Callable[[Any, _Context], Awaitable[Any]]


@dataclass
class _InProcessStub:
    """CreateMatch, JoinMatch and SubmitAction of a servicer, called in process (what
    :func:`tests.bench.service.create_match` and :class:`Match` call on a stub)."""

    create: Handler
    join: Handler
    submit: Handler
    #: The servicer itself (its PlayMatch is driven apart).
    server: Any

    async def CreateMatch(self, request: Message) -> Any:
        return _parsed(
            await self.create(request, _Context()), match_service_pb2.CreateMatchResponse
        )

    async def JoinMatch(self, request: Message) -> Any:
        return _parsed(await self.join(request, _Context()), match_service_pb2.JoinMatchResponse)


def _parsed(reply: Any, kind: type[Message]) -> Any:
    """A reply as a message (the handlers may answer with its bytes)."""
    return kind.FromString(reply) if isinstance(reply, bytes) else reply


def senet_stub() -> _InProcessStub:
    """Senet's servicer over a fresh embedded store, with no quota in the way."""
    settings = Settings(
        client_calls_per_s=0, client_creates_per_min=0, seat_rate_per_s=1e12, seat_burst=1 << 40
    )
    servicer = MatchServicer(MatchService(MemoryStore(), settings), settings)
    return _InProcessStub(servicer.CreateMatch, servicer.JoinMatch, servicer.SubmitAction, servicer)


def service_stub(service: NullService | LeanService) -> _InProcessStub:
    """A benchmark MatchService (the null or the lean one) called in process."""
    return _InProcessStub(service.create, service.join, service.submit, service)


async def _matches(stub: _InProcessStub, count: int, first_seed: int) -> list[Match]:
    pebbles = get_game("pebbles")
    return [await create_match(stub, first_seed + i, pebbles) for i in range(count)]  # type: ignore[arg-type]


async def _pass(
    stub: _InProcessStub, matches: list[Match], profile: cProfile.Profile | None
) -> tuple[float, int]:
    """Play ``matches`` to the end, one move of each in turn; the handler's thread CPU
    time and its calls."""
    cpu = 0.0
    calls = 0
    while any(not m.finished for m in matches):
        for match in matches:
            if match.finished:
                continue
            request, metadata = match.next_request()
            context = _Context(metadata)
            await asyncio.sleep(0)  # what the last call left for the loop runs untimed
            if profile is not None:
                profile.enable()
            start = time.thread_time()
            reply = await stub.submit(request, context)
            cpu += time.thread_time() - start
            if profile is not None:
                profile.disable()
            match.committed(_parsed(reply, match_service_pb2.SubmitActionResponse))
            calls += 1
    return cpu, calls


class _StreamContext(_Context):
    """A PlayMatch context: requests read from a queue, messages handed to a callback."""

    def __init__(self, metadata: Metadata, on_message: Callable[[Any], None]) -> None:
        super().__init__(metadata)
        self.requests: asyncio.Queue[Any] = asyncio.Queue()
        self._on_message = on_message

    async def read(self) -> Any:
        return await self.requests.get()

    async def write(self, message: Any) -> None:
        self._on_message(message)


class _Seat:
    """One seat's stream client: answers each prompt with the match's planned move."""

    def __init__(self, match: Match, seat: int) -> None:
        self.match = match
        self.context = _StreamContext(match.tokens[seat], self.received)
        self.done = asyncio.Event()
        self.moves = 0

    def received(self, message: Any) -> None:
        reply = _parsed(message, match_service_pb2.PlayMatchResponse)
        update = reply.update if reply.HasField("update") else None
        if update is not None and (
            update.status != match_pb2.MATCH_STATUS_ACTIVE or update.version >= len(self.match.plan)
        ):
            self.done.set()  # (the null server's matches never finish: they run out of plan)
        if not reply.HasField("turn"):
            return
        version = reply.turn.version
        if version >= len(self.match.plan):
            return
        _, notation = self.match.plan[version]
        submit = match_service_pb2.SubmitActionRequest(
            match_id=self.match.match_id,
            notation=notation,
            expected_version=version,
            request_id=f"play-{version + 1}",
        )
        self.context.requests.put_nowait(match_service_pb2.PlayMatchRequest(submit=submit))
        self.moves += 1
        if version + 1 == len(self.match.plan):
            self.done.set()


async def _play_pass(
    matches: list[Match], stream: Callable[[_Seat], Coroutine[Any, Any, None]]
) -> tuple[float, int]:
    """Play ``matches`` with every seat's compact stream run by ``stream`` (until its
    requests end); thread CPU and moves."""
    seats = [_Seat(match, seat) for match in matches for seat in range(len(match.tokens))]
    start = time.thread_time()
    for seat in seats:
        hello = match_service_pb2.PlayHello(match_id=seat.match.match_id, compact=True)
        seat.context.requests.put_nowait(match_service_pb2.PlayMatchRequest(hello=hello))
    tasks = [asyncio.create_task(stream(seat)) for seat in seats]
    # Every match over: its last mover's stream, and the others', have seen the end.
    await asyncio.gather(*(seat.done.wait() for seat in seats))
    for seat in seats:
        seat.context.requests.put_nowait(EOF)
    await asyncio.gather(*tasks)
    return time.thread_time() - start, sum(seat.moves for seat in seats)


async def _senet_play_pass(servicer: MatchServicer, matches: list[Match]) -> tuple[float, int]:
    """Play ``matches`` through Senet's PlayMatch (its context reads the requests)."""

    async def stream(seat: _Seat) -> None:
        await servicer.PlayMatch(None, seat.context)  # type: ignore[arg-type]

    return await _play_pass(matches, stream)


async def _null_play_pass(
    service: NullService | LeanService, matches: list[Match]
) -> tuple[float, int]:
    """The same through the null (or lean) server's PlayMatch (a generator of message
    bytes)."""

    async def requests(seat: _Seat) -> AsyncIterator[Any]:
        while (request := await seat.context.requests.get()) is not EOF:
            yield request

    async def stream(seat: _Seat) -> None:
        async for message in service.play(requests(seat), seat.context):
            seat.received(message)

    return await _play_pass(matches, stream)


async def _measure(rounds: int, matches: int, out: Callable[[str], None]) -> dict[str, float]:
    senet = senet_stub()
    null, lean = service_stub(NullService()), service_stub(LeanService())
    seeds = iter(range(BASE_SEED, BASE_SEED + (1 << 30), matches))
    # Each server's figure per round, in round order (so aligned between servers).
    per_call: dict[str, list[float]] = {"senet": [], "null": [], "lean": []}
    play_per_move: dict[str, list[float]] = {"senet": [], "null": [], "lean": []}
    for round_index in range(rounds):
        order = [("senet", senet), ("null", null), ("lean", lean)]
        if round_index % 2:
            order.reverse()
        this_round: dict[str, float] = {}
        for name, stub in order:
            played = await _matches(stub, matches, next(seeds))
            cpu, calls = await _pass(stub, played, None)
            this_round[name] = cpu / calls * 1e6
            per_call[name].append(this_round[name])
        for name, stub in order:
            played = await _matches(stub, matches, next(seeds))
            play = _senet_play_pass if name == "senet" else _null_play_pass
            cpu, moves = await play(stub.server, played)
            this_round[name] = cpu / moves * 1e6
            play_per_move[name].append(this_round[name])
    profile = cProfile.Profile()
    played = await _matches(senet, matches, next(seeds))
    await _pass(senet, played, profile)
    out(
        f"  where Senet's SubmitAction goes (cProfile of one more pass, the {PROFILE_LINES} "
        "functions with the most time of their own):"
    )
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(PROFILE_LINES)
    for line in text.getvalue().splitlines():
        if line.strip() and ("/" in line or "{" in line or "ncalls" in line):
            out(f"    {line.strip().replace(f'{plugins.ROOT}/', '')}")
    submit_us, null_submit_us, submit_vs_null = _said(out, "SubmitAction", "a call", per_call)
    _, lean_submit_us, submit_vs_lean = _said(out, "SubmitAction", "a call", per_call, "lean")
    play_unit = "a move (four streams)"
    play_us, null_play_us, play_vs_null = _said(out, "PlayMatch", play_unit, play_per_move)
    _, lean_play_us, play_vs_lean = _said(out, "PlayMatch", play_unit, play_per_move, "lean")
    return {
        "handler.play_move_us": round(play_us, 1),
        "handler.null_play_move_us": round(null_play_us, 2),
        "handler.play_vs_null": round(play_vs_null, 2),
        "handler.submit_us": round(submit_us, 1),
        "handler.null_submit_us": round(null_submit_us, 2),
        "handler.submit_vs_null": round(submit_vs_null, 2),
        "handler.lean_submit_us": round(lean_submit_us, 2),
        "handler.submit_vs_lean": round(submit_vs_lean, 2),
        "handler.lean_play_move_us": round(lean_play_us, 1),
        "handler.play_vs_lean": round(play_vs_lean, 2),
    }


#: How each baseline is named beside Senet.
_BASELINES = {
    "null": "the null server's",
    "lean": "the lean MatchService's (the contract's work alone)",
}


def _said(
    out: Callable[[str], None],
    what: str,
    unit: str,
    per_round: dict[str, list[float]],
    baseline: str = "null",
) -> tuple[float, float, float]:
    """Print one workload's medians, Senet's and ``baseline``'s, with Senet's ratio to
    it in each round (the two ran in the same rounds); return the medians and the
    median ratio."""
    ratios = [a / b for a, b in zip(per_round["senet"], per_round[baseline], strict=True)]
    senet, other = statistics.median(per_round["senet"]), statistics.median(per_round[baseline])
    ratio = statistics.median(ratios)
    out(
        f"  Senet {what} {senet:.1f} us of thread CPU {unit}, {_BASELINES[baseline]} "
        f"{other:.1f} ({ratio:.2f} times; per round {', '.join(f'{r:.2f}' for r in ratios)})"
    )
    return senet, other, ratio


def run(*, quick: bool = False, out: Callable[[str], None] = print) -> dict[str, float]:
    """Measure in a child process (the test games are visible there, whatever this
    process's plug-in registries read before), relay its lines and return its
    ``name: value`` figures."""
    rounds, matches = (QUICK_ROUNDS, QUICK_MATCHES) if quick else (ROUNDS, MATCHES)
    with plugins.visible_to_children():
        child = subprocess.run(
            [sys.executable, "-m", "tests.bench.handler", str(rounds), str(matches)],
            cwd=plugins.ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
    if child.returncode:
        raise RuntimeError(f"the handler benchmark failed:\n{child.stdout}{child.stderr}")
    figures: dict[str, float] = {}
    for line in child.stdout.splitlines():
        out(line)
        name, _, value = line.partition(": ")
        if name.startswith("handler.") and " " not in name:
            figures[name] = float(value)
    return figures


def main(argv: list[str]) -> None:
    """The child: ``python -m tests.bench.handler ROUNDS MATCHES``."""
    plugins.enable()  # Pebbles, before any registry is read
    rounds, matches = int(argv[0]), int(argv[1])
    print(
        f"handler benchmark: SubmitAction in process, Pebbles 4p, {matches} matches round "
        f"robin, {rounds} alternating round(s); median over rounds",
        flush=True,
    )
    figures = asyncio.run(_measure(rounds, matches, print))
    for name, value in figures.items():
        print(f"{name}: {value:g}")


if __name__ == "__main__":
    main(sys.argv[1:])
