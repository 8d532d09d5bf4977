"""A reserve runs out through a chain of timeouts, and then the timeout policy
takes the seat: every decision is charged, a turn of several steps included.

Mare Nostrum (two turns), three people who never act: each seat's turns are
runs of decisions of its own (a god, then each tax) and the offers are
decisions of several seats at once. Every decision times out; each timeout
costs its whole allowance, ``decision_ms`` or what is left of the reserve, so
each seat's reserve falls by DECISION_MS a timeout to zero. From there every
decision of the seat is due at once, and after HANDOVER_AFTER timeouts in a
row a bot holds the seat. The same holds with a replica killed mid-chain: on
the embedded store (two in-process replicas, one stopped dead) and on Redis
(two ``senet serve`` processes, one SIGKILLed); a timeout the dead replica
held is taken over once its lease expires, and costs no more for that.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from senet.client.client import SenetClient
from senet.v1 import match_pb2
from tests.service.conftest import Deployment, ServerProcess

SEATS = 3
#: Enough reserve for 14 timeouts: in 300 random playouts of two turns a seat
#: had a run of two decisions of its own by its 11th, and every seat had at
#: least 18 decisions; some seat had 28 or more.
DECISION_MS = 50
RESERVE_MS = 700
HANDOVER_AFTER = 16
CONTROL = match_pb2.TimeControl(
    decision_ms=DECISION_MS,
    reserve_ms=RESERVE_MS,
    handover_after=HANDOVER_AFTER,
    handover_strategy="greedy",
)


@dataclass
class Chain:
    """What the watcher saw: each update's mover, reserves and timeouts in a row,
    and which seats were mid-chain when a replica was killed."""

    movers: list[int]
    #: The seats deciding at the start, then after each update.
    deciding: list[list[int]]
    #: The reserves and timeouts in a row at the start, then after each update.
    reserves: list[list[int]]
    timeouts: list[list[int]]
    mid_chain_at_kill: list[int]
    final: match_pb2.MatchSummary


async def _idle_match(
    create_via: str, watch_via: str, kill: Callable[[], Awaitable[None]] | None = None
) -> Chain:
    """A match nobody acts in, watched to its end through ``watch_via``; ``kill``
    runs once, as soon as a seat's reserve is part spent."""
    async with SenetClient(create_via) as creator, SenetClient(watch_via) as watcher:
        match_id = await creator.create_match(
            "marenostrum", SEATS, options={"turn_limit": 2}, seed=11, time_control=CONTROL
        )
        for seat in range(SEATS):
            await creator.join(match_id, f"idle {seat}")
        chain = Chain([], [], [], [], [], match_pb2.MatchSummary())
        async with asyncio.timeout(120):
            async for message in watcher.watch(match_id):
                if message.WhichOneof("message") == "snapshot" and not chain.deciding:
                    # The watch may begin after the first timeouts (a decision
                    # lasts 50 ms): the chain starts where the snapshot shows it.
                    summary = message.snapshot.match
                    chain.deciding.append(list(summary.deciding_seats))
                    chain.reserves.append(list(summary.clock.remaining_ms))
                    chain.timeouts.append(list(summary.clock.timeouts_in_row))
                if message.WhichOneof("message") != "update":
                    continue
                update = message.update
                chain.movers.append(update.seat)
                deciding = list(update.deciding_seats) or [update.current_seat]
                chain.deciding.append(deciding if update.HasField("current_seat") else [])
                chain.reserves.append(list(update.clock.remaining_ms))
                chain.timeouts.append(list(update.clock.timeouts_in_row))
                part_spent = [s for s, r in enumerate(chain.reserves[-1]) if 0 < r < RESERVE_MS]
                if kill is not None and part_spent:
                    await kill()
                    kill = None
                    chain.mid_chain_at_kill = part_spent
        chain.final = (await watcher.get(match_id)).match
        return chain


def _check_the_chain(chain: Chain) -> None:
    """Each decision that timed out charged its allowance to the mover alone and
    counted one timeout (a choice of several actions among seats deciding at
    once: when it ends), a run of decisions of one seat was charged decision by
    decision, every reserve was spent to zero, and then, after HANDOVER_AFTER
    timeouts in a row, a bot took the seat."""
    assert chain.final.status == match_pb2.MATCH_STATUS_FINISHED
    assert chain.deciding[0] and len(chain.deciding) == len(chain.movers) + 1
    reserves, timeouts = chain.reserves[0], chain.timeouts[0]
    charged: list[bool] = []
    befores, afters = chain.deciding[:-1], chain.deciding[1:]
    updates = chain.reserves[1:], chain.timeouts[1:]
    steps = zip(chain.movers, befores, afters, *updates, strict=True)
    for index, (mover, before, deciding, after, in_row) in enumerate(steps):
        going_on = len(before) > 1 and mover in deciding and set(before) >= set(deciding)
        allowance = 0 if going_on else min(DECISION_MS, reserves[mover])
        # What the update showed, for a failure to be read (the order of the timeouts
        # of seats deciding at once depends on the machine's load).
        seen = (
            f"update {index + 1}: seat {mover} moved, deciding {before} -> {deciding}, "
            f"reserves {reserves} -> {after}, timeouts in a row {timeouts} -> {in_row}"
        )
        assert reserves[mover] - after[mover] == allowance, seen
        assert in_row[mover] == timeouts[mover] + (0 if going_on else 1), seen
        assert all(after[s] == reserves[s] for s in range(SEATS) if s != mover), seen
        charged.append(allowance > 0)
        reserves, timeouts = after, in_row
    in_a_row = [
        i
        for i in range(1, len(chain.movers))
        if chain.movers[i] == chain.movers[i - 1] and charged[i] and charged[i - 1]
    ]
    assert in_a_row, "no seat was charged for two of its decisions in a row"
    assert reserves == [0] * SEATS
    handed_over = [s.takeover_strategy == "greedy" for s in chain.final.seats]
    assert handed_over == [t >= HANDOVER_AFTER for t in timeouts] and any(handed_over)
    for seat in range(SEATS):
        # The reserve ran out on the seat's RESERVE_MS / DECISION_MS-th timeout,
        # before the policy took the seat.
        spent_at = next(
            t[seat] for r, t in zip(chain.reserves, chain.timeouts, strict=True) if r[seat] == 0
        )
        assert spent_at == RESERVE_MS // DECISION_MS < HANDOVER_AFTER


@pytest.mark.slow
async def test_a_reserve_runs_out_through_a_chain_of_timeouts(deployment: Deployment) -> None:
    server = await deployment.start()
    address = f"127.0.0.1:{server.port}"
    _check_the_chain(await _idle_match(address, address))


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_a_reserve_runs_out_across_a_replica_stopped_dead(deployment: Deployment) -> None:
    """Two in-process replicas over the embedded store; the one that created the
    match stops at once mid-chain (its tasks cancelled, its leases left to expire)."""
    doomed, survivor = await deployment.start(), await deployment.start()
    chain = await _idle_match(
        f"127.0.0.1:{doomed.port}", f"127.0.0.1:{survivor.port}", kill=doomed.stop
    )
    assert chain.mid_chain_at_kill
    _check_the_chain(chain)


@pytest.mark.slow
async def test_a_reserve_runs_out_across_a_replica_killed(
    server_processes: list[ServerProcess],
) -> None:
    """Two ``senet serve`` processes over Redis; the one that created the match
    is SIGKILLed mid-chain."""
    doomed, survivor = server_processes
    chain = await _idle_match(doomed.address, survivor.address, kill=doomed.kill)
    assert chain.mid_chain_at_kill
    _check_the_chain(chain)
