"""``senet export``: finished matches as JSON Lines, for those who keep or study them.

Each line is one match's record (:mod:`senet.codec.exports`): ``{"match_id": ...,
"export": {...}}``, the export being ``ExportMatchResponse`` in protobuf's JSON
form: options, seeds, every seat's entropy, the rules version,
every action with who chose it, the final scores and places. Matches are named
on the command line, or read from the lobby: the newest finished ones first, of
one game with ``--game``. Unlisted matches are not in the lobby, so only those
who name them export them.

``senet.rl.dataset`` replays such a file into each decision's observation,
action mask and chosen action (docs/learning.md), and ``senet verify`` checks one
match's deal.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import AsyncIterator
from typing import IO

import grpc

from senet.cli.counts import add_count_arguments, count_of
from senet.client.client import SenetClient, describe_error
from senet.client.errors import SenetRpcError
from senet.codec.exports import export_record
from senet.text.cli import add_server_argument
from senet.v1 import match_service_pb2

DEFAULT_LIMIT = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet export`` options to ``parser``."""
    parser.add_argument(
        "match_ids", nargs="*", metavar="MATCH_ID", help="the matches (default: the lobby's)"
    )
    add_server_argument(parser)
    parser.add_argument("--game", default="", help="the lobby's matches of this game only")
    add_count_arguments(
        parser,
        DEFAULT_LIMIT,
        "the lobby's newest finished matches, at most this many",
        "every finished match of the lobby",
    )
    parser.add_argument("--out", help="write to this file (default: standard output)")
    parser.add_argument("--tls-ca", help="PEM file of the server's CA (enables TLS)")


async def _match_ids(client: SenetClient, args: argparse.Namespace) -> AsyncIterator[str]:
    if args.match_ids:
        for match_id in args.match_ids:
            yield match_id
        return
    async for listing in client.list_matches(
        game_id=args.game, status="finished", limit=count_of(args)
    ):
        yield listing.match_id


#: How many times one export waits out the server's quota before giving up.
QUOTA_WAITS = 5


async def _export(client: SenetClient, match_id: str) -> match_service_pb2.ExportMatchResponse:
    """``match_id``'s export; a quota refusal is waited out as the server asks
    (a long export makes many calls), a few times."""
    for _ in range(QUOTA_WAITS):
        try:
            return await client.export(match_id)
        except SenetRpcError as exc:
            if exc.code != grpc.StatusCode.RESOURCE_EXHAUSTED or exc.retry_after_s is None:
                raise
            await asyncio.sleep(exc.retry_after_s)
    return await client.export(match_id)


async def _write(args: argparse.Namespace, out: IO[str]) -> int:
    """Write each match's line; how many were written."""
    written = 0
    async with SenetClient(args.server, tls_ca=args.tls_ca) as client:
        async for match_id in _match_ids(client, args):
            export = await _export(client, match_id)
            line = export_record(match_id, export)
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
            written += 1
    return written


def run(args: argparse.Namespace) -> int:
    """Run ``senet export``; returns the exit status."""
    out = sys.stdout if args.out is None else open(args.out, "w", encoding="utf-8")  # noqa: SIM115
    try:
        written = asyncio.run(_write(args, out))
    except SenetRpcError as exc:
        print(f"senet export: {describe_error(exc)}", file=sys.stderr)
        return 1
    finally:
        if out is not sys.stdout:
            out.close()
    if args.out is not None:
        print(f"senet export: {written} match(es) written to {args.out}", file=sys.stderr)
    return 0
