"""``senet matches``: the server's lobby, printed as a table or as JSON.

Lists the matches a server hosts, newest first, with the filters of
``ListMatches`` as flags. By default the first ``--limit`` matches are shown;
``--all`` pages through every one. ``--json`` prints one JSON array of the
``MatchListing`` messages (protobuf JSON names), for scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import get_args

from google.protobuf import json_format

from senet.cli.counts import add_count_arguments, count_of
from senet.client.client import MatchStatusName, SenetClient, describe_error
from senet.client.errors import SenetRpcError
from senet.text import drawing
from senet.text.cli import add_server_argument
from senet.text.lobby import listing_table, variant_names
from senet.v1 import match_service_pb2

DEFAULT_LIMIT = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet matches`` options to ``parser``."""
    add_server_argument(parser)
    parser.add_argument("--game", default="", help="only matches of this game")
    parser.add_argument(
        "--status", choices=get_args(MatchStatusName), help="only matches with this status"
    )
    seats = parser.add_mutually_exclusive_group()
    seats.add_argument(
        "--open",
        dest="has_open_seat",
        action="store_const",
        const=True,
        help="only matches with a seat to join",
    )
    seats.add_argument(
        "--full",
        dest="has_open_seat",
        action="store_const",
        const=False,
        help="only matches without an open seat",
    )
    stakes = parser.add_mutually_exclusive_group()
    stakes.add_argument(
        "--rated",
        action="store_const",
        const=True,
        help="only rated matches (their results settle into ratings)",
    )
    stakes.add_argument(
        "--casual", dest="rated", action="store_const", const=False, help="only casual matches"
    )
    add_count_arguments(parser, DEFAULT_LIMIT, "show at most this many", "page through every match")
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    parser.add_argument(
        "--no-color",
        action="store_true",
        default=bool(os.environ.get("NO_COLOR")),
        help="no colours (also when NO_COLOR is set)",
    )
    parser.add_argument("--ascii", action="store_true", help="ASCII borders only")
    parser.add_argument("--tls-ca", help="PEM file of the server's CA (enables TLS)")


async def _listings(
    args: argparse.Namespace,
) -> tuple[list[match_service_pb2.MatchListing], dict[str, list[str]]]:
    """The listings asked for, and each game's variants (to name them in the table)."""
    async with SenetClient(args.server, tls_ca=args.tls_ca) as client:
        listings = [
            listing
            async for listing in client.list_matches(
                game_id=args.game,
                status=args.status,
                has_open_seat=args.has_open_seat,
                limit=count_of(args),
                rated=args.rated,
            )
        ]
        variants = {} if args.json else variant_names(await client.list_games())
        return listings, variants


def run(args: argparse.Namespace) -> int:
    """Run ``senet matches``; returns the exit status."""
    try:
        listings, variants = asyncio.run(_listings(args))
    except SenetRpcError as exc:
        print(f"senet matches: {describe_error(exc)}", file=sys.stderr)
        return 1
    if args.json:
        rows = [
            json_format.MessageToDict(
                m, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
            )
            for m in listings
        ]
        print(json.dumps(rows, indent=2))
        return 0
    console = drawing.make_console(no_color=args.no_color)
    if not listings:
        console.print("No matches.", highlight=False, markup=False)
        return 0
    console.print(listing_table(listings, variants=variants, ascii_only=args.ascii))
    if not args.all and len(listings) == args.limit:
        console.print(
            f"The {args.limit} newest shown; --limit N or --all for more.",
            highlight=False,
            markup=False,
        )
    return 0
