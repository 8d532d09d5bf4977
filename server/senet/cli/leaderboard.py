"""``senet leaderboard``: a game's leaderboard, best conservative rating first.

``--seats N`` shows the board of the game's bot ladder at N seats (a ladder rates
one seat count); without it, the game's matchmaking board over every seat count.

Prints rank, player, conservative rating (mu - 3 sigma, what the board ranks by),
mu and sigma, and rated matches; ``--json`` prints the ``LeaderboardEntry``
messages as one JSON array (protobuf JSON names), for scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from google.protobuf import json_format

from senet.cli.counts import add_count_arguments, count_of
from senet.client.client import SenetClient, describe_error
from senet.client.errors import SenetRpcError
from senet.client.players import PlayerClient
from senet.text.cli import add_server_argument
from senet.v1 import player_service_pb2 as pb

DEFAULT_LIMIT = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet leaderboard`` options to ``parser``."""
    parser.add_argument("game", help="the game (e.g. mykerinos)")
    add_server_argument(parser)
    add_count_arguments(parser, DEFAULT_LIMIT, "show the best N", "every ranked player")
    parser.add_argument(
        "--seats",
        type=int,
        default=0,
        help="the board of the game's ladder at this many seats (default: matchmaking's)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    parser.add_argument("--tls-ca", help="PEM file of the server's CA (enables TLS)")


async def _entries(args: argparse.Namespace) -> list[pb.LeaderboardEntry]:
    async with SenetClient(args.server, tls_ca=args.tls_ca) as client:
        players = PlayerClient(client)
        limit = count_of(args)
        return [entry async for entry in players.leaderboard(args.game, limit, args.seats)]


def table(entries: list[pb.LeaderboardEntry]) -> str:
    """The entries as aligned text lines, under a header."""
    lines = [f"{'#':>4}  {'player':<32} {'rating':>7} {'mu':>7} {'sigma':>6} {'matches':>7}"]
    for e in entries:
        r = e.rating
        lines.append(
            f"{e.rank:>4}  {e.display_name[:32]:<32} {r.conservative:>7.2f} {r.mu:>7.2f} "
            f"{r.sigma:>6.2f} {e.matches:>7}"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``senet leaderboard``; returns the exit status."""
    try:
        entries = asyncio.run(_entries(args))
    except SenetRpcError as exc:
        print(f"senet leaderboard: {describe_error(exc)}", file=sys.stderr)
        return 1
    if args.json:
        rows = [
            json_format.MessageToDict(e, always_print_fields_with_no_presence=True) for e in entries
        ]
        print(json.dumps(rows, indent=2))
    elif not entries and args.seats:
        print(f"Nobody is ranked on the {args.game}-{args.seats} ladder yet.")
    elif not entries:
        print(f"Nobody is ranked in {args.game} yet: rated matches come from the queue.")
    else:
        print(table(entries))
    return 0
