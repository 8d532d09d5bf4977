"""One load-generator process of the scale benchmark (:mod:`tests.bench.scale`).

``python -m tests.bench.scale_load --targets A,B,C --concurrency 32 --seconds 4
--start-at T`` creates enough matches beforehand (untimed, through the
first target), waits until the wall-clock time ``T`` so that every generator of
a window starts together, then runs ``concurrency`` closed loops for ``seconds``:
loop ``i`` submits the planned actions of its current match through target
``i % len(targets)``. It prints ``actions <count> seconds <elapsed>``.
"""

from __future__ import annotations

import argparse
import asyncio
import time

import grpc

from senet.v1 import match_service_pb2_grpc
from tests.bench.service import MatchPool, Window, submit

#: Actions a match lasts, at least (4-seat random Mykerinos runs ~250).
MIN_ACTIONS_PER_MATCH = 150


async def generate(
    targets: list[str], concurrency: int, seconds: float, start_at: float, rate: float
) -> Window:
    channels = [grpc.aio.insecure_channel(t) for t in targets]
    try:
        stubs = [match_service_pb2_grpc.MatchServiceStub(c) for c in channels]
        pool = MatchPool(stubs[0])
        # Enough matches that no loop creates one inside the window.
        expected = rate * seconds
        await pool.fill(concurrency + int(1.5 * expected / MIN_ACTIONS_PER_MATCH) + 1)
        # Warm every channel (connection, first-call costs) before the window.
        for stub in stubs:
            warm = await pool.take()
            await submit(stub, warm)
            pool.give_back(warm)
        await asyncio.sleep(max(0.0, start_at - time.time()))

        clock = time.perf_counter
        begin = clock()
        deadline = begin + seconds

        async def loop(index: int) -> int:
            stub = stubs[index % len(stubs)]
            done = 0
            while clock() < deadline:
                match = await pool.take()
                while not match.finished and clock() < deadline:
                    await submit(stub, match)
                    done += 1
                pool.give_back(match)
            return done

        counts = await asyncio.gather(*(loop(i) for i in range(concurrency)))
        return Window(sum(counts), clock() - begin)
    finally:
        for channel in channels:
            await channel.close(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--targets", required=True)
    parser.add_argument("--concurrency", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--start-at", type=float, required=True, help="Unix time to start")
    parser.add_argument("--rate", type=float, default=3000.0, help="expected actions/s")
    args = parser.parse_args()
    window = asyncio.run(
        generate(
            args.targets.split(","),
            args.concurrency,
            args.seconds,
            args.start_at,
            args.rate,
        )
    )
    print(f"actions {window.calls} seconds {window.seconds:.6f}", flush=True)


if __name__ == "__main__":
    main()
