"""Turn-clock lateness: how late enforced timeouts commit, across two replicas.

Part of the service benchmark (same Redis, same two ``senet serve`` replicas).
``matches`` two-player Mykerinos matches get a time control of
``decision_ms`` per decision and ``handover_after=1`` (a seat that times out is
handed to a bot, and no bot worker runs, so each match times out exactly twice,
once per seat, and then rests: the load is bounded). They are created and both
seats joined through replicas A and B alternately; nobody ever acts, so every
decision ends by a timeout that one of the two replicas enforces.

Lateness of a timeout = the fallback action's commit time (its log entry's
``at``, stamped by the replica just before the commit) minus the decision's
deadline (its start + ``decision_ms``; the first decision starts when the last
seat is claimed, the second at the first fallback's commit). Read back from
Redis once every match has timed out twice.

Figure: ``service.clock_late_p99_ms`` (target <= 250 ms), printed beside a
baseline measured in the same run: the p99 of GetMatch round trips through the
same replicas (a load and a render, the least any enforced timeout costs).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence

import grpc
from redis.asyncio import Redis as AsyncRedis

from senet.v1 import match_pb2, match_service_pb2, match_service_pb2_grpc

KEY_PREFIX = "bench"
PARALLEL = 16


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]


async def measure(
    replicas: Sequence[str],
    redis_url: str,
    matches: int,
    decision_ms: int,
    out: Callable[[str], None],
) -> dict[str, float]:
    channels = [grpc.aio.insecure_channel(address) for address in replicas]
    stubs = [match_service_pb2_grpc.MatchServiceStub(c) for c in channels]
    store = AsyncRedis.from_url(redis_url, decode_responses=True)
    control = match_pb2.TimeControl(decision_ms=decision_ms, handover_after=1)
    open_seat = match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN)
    ids: list[str] = []
    slots = asyncio.Semaphore(PARALLEL)
    try:
        started = time.monotonic()

        async def one(index: int) -> None:
            stub = stubs[index % len(stubs)]
            async with slots:
                created = await stub.CreateMatch(
                    match_service_pb2.CreateMatchRequest(
                        game_id="mykerinos",
                        seats=[open_seat, open_seat],
                        seed=index,
                        time_control=control,
                    )
                )
                for name in ("Ann", "Bob"):
                    await stubs[(index + 1) % len(stubs)].JoinMatch(
                        match_service_pb2.JoinMatchRequest(
                            match_id=created.match_id, display_name=name
                        )
                    )
                ids.append(created.match_id)

        await asyncio.gather(*(one(i) for i in range(matches)))
        setup_s = time.monotonic() - started
        baseline = []
        for i in range(200):
            t0 = time.perf_counter()
            await stubs[i % len(stubs)].GetMatch(
                match_service_pb2.GetMatchRequest(match_id=ids[i % len(ids)])
            )
            baseline.append(time.perf_counter() - t0)
        deadline = time.monotonic() + setup_s + 4 * decision_ms / 1000 + 60
        pending = list(ids)
        while pending and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            pipe = store.pipeline(transaction=False)
            for m in pending:
                pipe.hget(f"{KEY_PREFIX}:{{{m}}}:head", "version")
            heads = await pipe.execute()
            pending = [m for m, v in zip(pending, heads, strict=True) if int(v or 0) < 2]
        late: list[float] = []
        pipe = store.pipeline(transaction=False)
        for match_id in ids:
            keys = f"{KEY_PREFIX}:{{{match_id}}}"
            pipe.get(f"{keys}:meta")
            pipe.hgetall(f"{keys}:seats")
            pipe.lrange(f"{keys}:log", 0, 1)
        replies = await pipe.execute()
        for i in range(len(ids)):
            meta_json, seats, entries = replies[3 * i : 3 * i + 3]
            meta = json.loads(meta_json or "{}")
            log = [json.loads(e) for e in entries]
            if len(log) < 2:
                continue
            joined = [json.loads(c)["joined_at"] for c in seats.values()]
            start = max([meta["created_at"], *joined])
            late.append(log[0]["at"] - (start + decision_ms / 1000))
            late.append(log[1]["at"] - (log[0]["at"] + decision_ms / 1000))
    finally:
        for channel in channels:
            await channel.close(None)
        await store.aclose()
    missing = 2 * matches - len(late)
    p99 = _percentile(late, 99) * 1000 if late else float("nan")
    out(
        f"  turn clocks: {matches} two-player matches, {decision_ms} ms per decision, nobody "
        f"acting, created and joined through A and B ({setup_s:.1f} s); {len(late)} "
        f"timeouts enforced across both replicas" + (f", {missing} MISSING" if missing else "")
    )
    if late:
        out(
            f"    deadline -> fallback commit: p50 {_percentile(late, 50) * 1000:.1f} ms, "
            f"p99 {p99:.1f} ms (target <= 250 ms), max {max(late) * 1000:.1f} ms; "
            f"baseline: GetMatch round trip p99 {_percentile(baseline, 99) * 1000:.1f} ms"
        )
    return {"service.clock_late_p99_ms": round(p99, 3)}
