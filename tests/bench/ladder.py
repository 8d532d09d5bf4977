"""Ladder benchmark: 8 bots of built-in strategies on the Mykerinos ladder for a
fixed time, on one server.

Set-up: one in-process server (memory store) running the 4-seat Mykerinos ladder
(``mykerinos-4``) at 2 matches in flight (8 seats, one per bot) with a 10 s clock
per decision; eight bots registered through LadderService and played by
:class:`senet.bots.hosted.HostedBotWorker`, each in a child process of its own
(so that no search shares another's interpreter): ``random`` x2, ``greedy`` x2,
``mcts`` at :data:`SMALL` iterations x2 and at :data:`LARGE` x2. It runs for
600 s (``--quick``: 90 s, too short for the order to settle).

Why four seats and iteration budgets: a 4-seat match ranks four bots at once
(six comparisons for the ratings against one at two seats), so the ratings part
in the matches a loaded two-core machine plays in ten minutes; and MCTS beats
greedy at four seats (the ``bots`` benchmark, and the arena figures in
docs/ladder.md), where at two seats and 150 iterations it did not. An iteration
budget keeps a bot's strength the same however loaded the machine is (a time
budget searches less when other work takes the cores).

Figures (machine-readable lines):

``ladder.matches_per_minute``
    Ladder matches finished per minute.
``ladder.decisions_per_second``
    Bot decisions handed to workers per second.
``ladder.longest_stall_beyond_clock_s``
    The longest time any ladder match stood at one version, less its decision
    clock (0 when none overran it; target under 2 s), sampled every 50 ms.
``ladder.order_ok``
    1 when the final ratings (mean mu of each kind) put MCTS at :data:`LARGE`
    iterations above greedy above random, else 0; ``ladder.mu.<kind>`` gives
    each kind's mean mu.
``ladder.timeouts``
    Decisions the clock played because a bot was late (printed per kind).
``ladder.load_start``, ``ladder.load_end``
    The machine's 1-minute load average when the ladder started and stopped.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable
from statistics import mean

from senet.service.access import Caller
from senet.service.bots_api import BotDecisions
from senet.service.handover import TimeoutVerdict
from senet.service.identity import Identity
from senet.service.ladder import LadderSpec
from senet.service.ratings import RatingValue
from senet.service.server import create_server
from senet.service.settings import Settings

GAME = "mykerinos"
SEATS = 4
IN_FLIGHT = 2
#: Long enough that a searching bot on a loaded machine rarely misses it (each
#: miss is counted: ``ladder.timeouts``); the stall is measured past it.
DECISION_MS = 10_000
#: MCTS iterations per decision of the small and the large budget.
SMALL, LARGE = 10, 60
#: (name, strategy, iterations) of the eight bots.
BOTS = (
    ("random-a", "random", None),
    ("random-b", "random", None),
    ("greedy-a", "greedy", None),
    ("greedy-b", "greedy", None),
    (f"mcts{SMALL}-a", "mcts", SMALL),
    (f"mcts{SMALL}-b", "mcts", SMALL),
    (f"mcts{LARGE}-a", "mcts", LARGE),
    (f"mcts{LARGE}-b", "mcts", LARGE),
)
WORKERS = """
import asyncio, sys
from senet.bots.hosted import HostedBotWorker
target = sys.argv[1]
async def main():
    workers = []
    for spec in sys.argv[2:]:
        key, strategy, iterations = spec.split(",")
        workers.append(HostedBotWorker(target, key, strategy,
            iterations=int(iterations) if iterations else None, capacity=4, lease_ms=8000))
    await asyncio.gather(*(w.run() for w in workers))
asyncio.run(main())
"""


def run(*, quick: bool = False, out: Callable[[str], None] = print) -> dict[str, float]:
    """Run the ladder for the fixed time; print human-readable then ``name: value`` lines."""
    figures = asyncio.run(_run(90.0 if quick else 600.0, out))
    for name, value in figures.items():
        out(f"{name}: {value:.4f}")
    return figures


async def _run(seconds: float, out: Callable[[str], None]) -> dict[str, float]:
    settings = Settings(
        port=0, log_json=False, ladder_interval_s=0.1, ladder_max_in_flight=IN_FLIGHT
    )
    server = await create_server(settings)
    assert server.ladder_servicer is not None
    ladders = server.ladder_servicer.ladders
    leased = 0
    hand_out = BotDecisions._hand_out

    async def counting(self: BotDecisions, *args: object) -> object:
        nonlocal leased
        leased += 1
        return await hand_out(self, *args)  # type: ignore[arg-type]

    BotDecisions._hand_out = counting  # type: ignore[method-assign,assignment]
    # Decisions the clock played (the server's minimal policy for a late bot):
    # a searching bot that keeps missing its clock plays weaker than its budget.
    service = server.servicer.service
    time_out = service.time_out
    timed_out: list[tuple[str, int]] = []

    async def counting_timeouts(
        match_id: str, seat: int, version: int, posted_ms: int = 0
    ) -> TimeoutVerdict:
        verdict = await time_out(match_id, seat, version, posted_ms)
        if verdict[0] == "done":
            timed_out.append((match_id, seat))
        return verdict

    service.time_out = counting_timeouts  # type: ignore[method-assign]
    seated: dict[str, tuple[str, ...]] = {}
    owner = Identity("bench:ladder", "bench", guest=False)
    specs, kinds = [], {}
    for name, strategy, iterations in BOTS:
        bot, key = await ladders.remote.register(owner, name, [GAME])
        specs.append(f"{key},{strategy},{iterations or ''}")
        kinds[bot.bot_id] = name.rsplit("-", 1)[0]
    # One process per bot: searching bots do not queue for one interpreter's lock.
    children = [
        subprocess.Popen([sys.executable, "-c", WORKERS, f"127.0.0.1:{server.port}", one])
        for one in specs
    ]
    spec = LadderSpec(
        GAME, SEATS, decision_ms=DECISION_MS, max_in_flight=IN_FLIGHT, inactive_after=1000
    )
    stall = 0.0
    load_start = os.getloadavg()[0]
    try:
        await ladders.start(Caller(is_admin=True), spec)
        started = time.monotonic()
        seen: dict[str, tuple[int, float]] = {}
        while time.monotonic() - started < seconds:
            now = time.monotonic()
            for match in await ladders.in_flight(spec.ladder_id):
                seated[match.match_id] = match.bot_ids
                version = (await service.get(Caller(), match.match_id)).summary.version
                held = seen.get(match.match_id)
                if held is None or held[0] != version:
                    seen[match.match_id] = (version, now)
                else:
                    stall = max(stall, now - held[1] - DECISION_MS / 1000)
            await asyncio.sleep(0.05)
        elapsed = time.monotonic() - started
        load_end = os.getloadavg()[0]
        played = await ladders.played(spec.ladder_id)
        standings = await ladders.standings(spec)
        for match in await ladders.recent(spec.ladder_id, 200):
            seated[match.match_id] = match.bot_ids
    finally:
        for child in children:
            child.kill()
            child.wait(10)
        BotDecisions._hand_out = hand_out  # type: ignore[method-assign]
        await server.stop()
    by_kind: dict[str, list[RatingValue]] = {}
    for row in standings:
        by_kind.setdefault(kinds[row.bot.bot_id], []).append(row.rating)
    mu = {kind: mean(r.mu for r in ratings) for kind, ratings in by_kind.items()}
    late = dict.fromkeys(mu, 0)
    for match_id, seat in timed_out:
        bot_ids = seated.get(match_id, ())
        if seat < len(bot_ids):
            late[kinds[bot_ids[seat]]] += 1
    large = f"mcts{LARGE}"
    order_ok = mu[large] > mu["greedy"] > mu["random"]
    out(
        f"ladder ({spec.ladder_id}, 8 bots, {IN_FLIGHT} in flight, {DECISION_MS} ms clock, "
        f"{elapsed:.0f} s, load average {load_start:.1f} at the start, {load_end:.1f} at the end)"
    )
    out(
        f"  {played} matches, {leased} decisions leased, longest stall past its clock {stall:.2f} s"
    )
    out(
        f"  {len(timed_out)} decisions played by the clock: "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(late.items()))
    )
    ranked = sorted(mu, key=lambda kind: -mu[kind])
    out(
        "  order by mean mu: "
        + " > ".join(f"{kind} ({mu[kind]:.1f})" for kind in ranked)
        + f"; {large} > greedy > random: {'yes' if order_ok else 'NO'}"
    )
    for row in standings:
        out(
            f"  {row.rank}. {row.bot.name:10} mu {row.rating.mu:6.2f} sigma "
            f"{row.rating.sigma:5.2f} matches {row.rating.matches}"
        )
    figures = {
        "ladder.matches_per_minute": played / (elapsed / 60),
        "ladder.decisions_per_second": leased / elapsed,
        "ladder.longest_stall_beyond_clock_s": max(0.0, stall),
        "ladder.order_ok": 1.0 if order_ok else 0.0,
        "ladder.load_start": load_start,
        "ladder.load_end": load_end,
        "ladder.timeouts": float(len(timed_out)),
    }
    figures.update({f"ladder.mu.{kind}": value for kind, value in sorted(mu.items())})
    return figures
