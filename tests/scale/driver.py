"""Client host of the scale test: many matches played by bots through several replicas.

Run as ``python -m tests.scale.driver --targets A,B,C --matches 64 --out FILE``
(the scale test runs it inside the clients' host). It creates the matches, then
plays every seat of every match at once over PlayMatch with a seeded random bot.
Each seat has its own :class:`~senet.client.client.SenetClient` over all targets,
rotated so that the matches start spread evenly over the replicas; when a
replica dies, the client fails over to the next target and resumes its stream
from the last version it saw.

Every acknowledgement the bots receive (a ``submitted`` reply) is recorded with
the action it acknowledges. Once all matches are over, each is exported and the
export written out with the acknowledgements, so the test can check that no
acknowledged action was lost or applied twice. Progress goes to stdout as
``progress <fewest actions acknowledged in any match>`` lines; ``done`` at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path

from senet.client.client import SenetClient
from senet.v1 import match_service_pb2

ADMIN_KEY = "scale-admin"
SEATS = 2


@dataclass
class Ack:
    """One acknowledged submission: who, what, and the version it produced."""

    seat: int
    version: int
    notation: str
    duplicate: bool


@dataclass
class MatchRecord:
    """What the clients of one match saw."""

    match_id: str
    first_target: str
    acks: list[Ack] = field(default_factory=list)
    failovers: list[int] = field(default_factory=list)
    export_b64: str = ""


def rotated(targets: list[str], by: int) -> list[str]:
    by %= len(targets)
    return targets[by:] + targets[:by]


async def play_seat(
    record: MatchRecord, targets: list[str], seat: int, token: str, seed: int, keepalive_s: float
) -> None:
    """Play one seat to the end, recording every acknowledgement."""
    rng = random.Random(seed)
    pending: dict[int, str] = {}  # prompt version -> notation submitted for it

    async def decide(turn: match_service_pb2.YourTurn) -> str:
        notation = rng.choice(list(turn.actions)).notation
        pending[turn.version] = notation
        return notation

    async def on_message(message: match_service_pb2.PlayMatchResponse) -> None:
        # A compact stream acknowledges a commit with its update (request_id set),
        # and a retried request id with `submitted` (duplicate).
        if message.WhichOneof("message") == "submitted":
            done = message.submitted
            notation = pending[done.version - 1]
            record.acks.append(Ack(seat, done.version, notation, done.duplicate))
        elif message.request_id and message.update.version - 1 in pending:
            version = message.update.version
            record.acks.append(Ack(seat, version, pending[version - 1], False))

    async with SenetClient(targets, keepalive_s=keepalive_s, max_attempts=10) as client:
        await client.seat(record.match_id, seat, token).play(decide, on_message)
        record.failovers.append(client._index)


async def report_progress(records: list[MatchRecord], stop: asyncio.Event) -> None:
    shown = -1
    while not stop.is_set():
        fewest = min(len(r.acks) for r in records)
        if fewest != shown:
            print(f"progress {fewest}", flush=True)
            shown = fewest
        await asyncio.sleep(0.1)


async def run(targets: list[str], matches: int, keepalive_s: float, out: Path) -> None:
    records: list[MatchRecord] = []
    seats: list[tuple[MatchRecord, list[str], int, str]] = []
    for i in range(matches):
        mine = rotated(targets, i)
        async with SenetClient(mine, admin_key=ADMIN_KEY) as client:
            match_id = await client.create_match("mykerinos", SEATS, seed=i)
            record = MatchRecord(match_id, mine[0])
            for seat in range(SEATS):
                joined = await client.join(match_id, f"bot {seat}", seat)
                seats.append((record, mine, seat, joined.token))
        records.append(record)
    print(f"created {len(records)}", flush=True)
    stop = asyncio.Event()
    progress = asyncio.create_task(report_progress(records, stop))
    await asyncio.gather(
        *(
            play_seat(record, mine, seat, token, seed=n, keepalive_s=keepalive_s)
            for n, (record, mine, seat, token) in enumerate(seats)
        )
    )
    stop.set()
    await progress
    async with SenetClient(targets, max_attempts=10) as client:
        for record in records:
            export = await client.export(record.match_id)
            record.export_b64 = base64.b64encode(export.SerializeToString()).decode()
    out.write_text(json.dumps([asdict(r) for r in records]))
    print("done", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--targets", required=True, help="comma-separated host:port")
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--keepalive-s", type=float, default=1.0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    asyncio.run(run(args.targets.split(","), args.matches, args.keepalive_s, args.out))


if __name__ == "__main__":
    main()
