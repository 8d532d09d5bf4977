"""``senet verify``: check a finished match's fairness from its export, as a player.

The server commits to its seed when a match is created, each seat adds entropy
when it joins, and ``ExportMatch`` opens the commitment once the match is over
(docs/protocol.md, fairness). This command fetches the export and checks it the
way the protocol guide says a player should: the rules it was played under are
this release's, the seed opens the commitment the player saw (``--commitment``;
without it, the one the server shows now), the deal combines that seed with every
seat's entropy (``--entropy``: the player's own is among them), and the replay
from that deal reaches the server's final scores. ``senet play`` prints the
command, with the player's commitment and entropy, when a match ends.

``senet export`` prints the export itself, for those who keep matches or check
them with their own tools.

Exit status: 0 every check held; 1 a check failed; 2 nothing was checked (a bad
command line, a match that is unknown or unfinished, a server out of reach, or a
match played under another version of the rules, or before versions were
recorded under rules this release no longer plays: only another release replays
those).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from senet.client.client import SenetClient, describe_error
from senet.client.errors import SenetRpcError
from senet.codec import fairness
from senet.games.errors import GameError
from senet.text.cli import add_server_argument
from senet.v1 import match_service_pb2

#: Exit statuses.
VERIFIED, CHECK_FAILED, NOT_CHECKED = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet verify`` options to ``parser``."""
    parser.add_argument("match_id", help="the finished match to check")
    add_server_argument(parser)
    parser.add_argument(
        "--commitment",
        default="",
        help="the seed commitment you saw when the match began (default: the one the "
        "server shows now, which proves less)",
    )
    parser.add_argument("--entropy", default="", help="the entropy your seat sent when it joined")
    parser.add_argument("--tls-ca", help="PEM file of the server's CA (enables TLS)")


async def _fetch(args: argparse.Namespace) -> tuple[match_service_pb2.ExportMatchResponse, str]:
    """The match's export, and the commitment to check it against."""
    async with SenetClient(args.server, tls_ca=args.tls_ca) as client:
        export = await client.export(args.match_id)
        published = args.commitment or (await client.get(args.match_id)).match.seed_commitment
        return export, published


def checks(
    export: match_service_pb2.ExportMatchResponse, published: str, entropy: str
) -> list[tuple[str, bool]]:
    """Every check of ``export`` with its outcome, the replay's included.

    Raises:
        GameError: the rules refuse an action of the export's log.
    """
    final = fairness.replay(export)[-1]
    found = fairness.export_checks(export, published, final)
    if entropy:
        found.append(
            (
                f"your seat's entropy {entropy[:16]} is one the deal combines",
                not export.seed_chosen and entropy in export.seat_entropy,
            )
        )
    return found


def run(args: argparse.Namespace) -> int:
    """Run ``senet verify``; returns the exit status."""
    try:
        export, published = asyncio.run(_fetch(args))
    except SenetRpcError as exc:
        print(f"senet verify: {describe_error(exc)}", file=sys.stderr)
        return NOT_CHECKED
    mismatch = fairness.rules_mismatch(export)
    if mismatch is not None:
        print(f"Not checked: {mismatch}.")
        return NOT_CHECKED
    try:
        found = checks(export, published, args.entropy)
    except GameError as exc:
        sentence, proven = fairness.refused_log(export, exc)
        print(sentence)
        return CHECK_FAILED if proven else NOT_CHECKED
    for what, ok in found:
        print(f"{'✔' if ok else '✘'} {what}")
    if not args.commitment:
        print("(checked against the commitment the server shows now: pass --commitment with")
        print(" the one you saw when the match began to check that it never changed)")
    held = all(ok for _, ok in found)
    print(f"Match {args.match_id}: {'fair' if held else 'NOT VERIFIED'}.")
    return VERIFIED if held else CHECK_FAILED
