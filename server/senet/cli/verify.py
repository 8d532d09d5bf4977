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
them with their own tools; ``--file`` checks the matches of such a file offline,
each against the commitment its own export names (which proves less than the one
a player saw: an auditor's check of a ladder's or a tournament's record).

Exit status: 0 every check held; 1 a check failed; 2 nothing was checked (a bad
command line, a match that is unknown or unfinished, a server out of reach, or a
match played under another version of the rules, or before versions were
recorded under rules this release no longer plays: only another release replays
those).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from google.protobuf import json_format

from senet.client.client import SenetClient, describe_error
from senet.client.errors import SenetRpcError
from senet.codec import fairness
from senet.codec.exports import record_export
from senet.games.errors import GameError
from senet.text.cli import add_server_argument
from senet.v1 import match_service_pb2

#: Exit statuses.
VERIFIED, CHECK_FAILED, NOT_CHECKED = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet verify`` options to ``parser``."""
    parser.add_argument(
        "match_id", nargs="?", default="", help="the finished match to check (with --file: only it)"
    )
    add_server_argument(parser)
    parser.add_argument(
        "--commitment",
        default="",
        help="the seed commitment you saw when the match began (default: the one the "
        "server shows now, which proves less)",
    )
    parser.add_argument("--entropy", default="", help="the entropy your seat sent when it joined")
    parser.add_argument(
        "--file",
        help="check the matches of a `senet export` file instead, offline, each against "
        "the commitment its own export names",
    )
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


def verdict(
    match_id: str, export: match_service_pb2.ExportMatchResponse, published: str, entropy: str
) -> tuple[int, list[str]]:
    """The exit status of checking one match's export, and the lines that say why
    (the last one the match's verdict)."""
    mismatch = fairness.rules_mismatch(export)
    if mismatch is not None:
        return NOT_CHECKED, [f"Not checked: {mismatch}.", f"Match {match_id}: not checked."]
    try:
        found = checks(export, published, entropy)
    except GameError as exc:
        sentence, proven = fairness.refused_log(export, exc)
        if proven:
            return CHECK_FAILED, [sentence, f"Match {match_id}: NOT VERIFIED."]
        return NOT_CHECKED, [sentence, f"Match {match_id}: not checked."]
    lines = [f"{'✔' if ok else '✘'} {what}" for what, ok in found]
    if all(ok for _, ok in found):
        return VERIFIED, [*lines, f"Match {match_id}: fair."]
    return CHECK_FAILED, [*lines, f"Match {match_id}: NOT VERIFIED."]


def run(args: argparse.Namespace) -> int:
    """Run ``senet verify``; returns the exit status."""
    if args.file:
        return _run_file(args)
    if not args.match_id:
        print("senet verify: name a match, or a file of them with --file", file=sys.stderr)
        return NOT_CHECKED
    try:
        export, published = asyncio.run(_fetch(args))
    except SenetRpcError as exc:
        print(f"senet verify: {describe_error(exc)}", file=sys.stderr)
        return NOT_CHECKED
    status, lines = verdict(args.match_id, export, published, args.entropy)
    if not args.commitment and status != NOT_CHECKED:
        lines[-1:-1] = [
            "(checked against the commitment the server shows now: pass --commitment with",
            " the one you saw when the match began to check that it never changed)",
        ]
    print("\n".join(lines))
    return status


def _run_file(args: argparse.Namespace) -> int:
    """Check every match of a ``senet export`` file (or only ``args.match_id``)."""
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"senet verify: {exc}", file=sys.stderr)
        return NOT_CHECKED
    counts = {VERIFIED: 0, CHECK_FAILED: 0, NOT_CHECKED: 0}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            match_id, export = record_export(json.loads(line))
        except (ValueError, KeyError, TypeError, json_format.ParseError):
            print(f"Line {number} is not a match of `senet export`: not checked.")
            counts[NOT_CHECKED] += 1
            continue
        if args.match_id and match_id != args.match_id:
            continue
        status, lines = verdict(match_id, export, export.seed_commitment, args.entropy)
        print("\n".join(lines if status != VERIFIED else lines[-1:]))
        counts[status] += 1
    print(
        f"{sum(counts.values())} match(es): {counts[VERIFIED]} fair, "
        f"{counts[CHECK_FAILED]} not verified, {counts[NOT_CHECKED]} not checked "
        "(each against the commitment its own export names)"
    )
    if counts[CHECK_FAILED]:
        return CHECK_FAILED
    return NOT_CHECKED if counts[NOT_CHECKED] or not counts[VERIFIED] else VERIFIED
