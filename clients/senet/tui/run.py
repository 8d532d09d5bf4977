"""Start the full-screen UI from the ``senet play`` arguments.

The match is created, joined or resumed first, in the terminal as it is (so the
match id, token and resume command stay printed above), then the play screen
takes the whole terminal; when it closes, the resume command is printed again
while the match goes on.
"""

from __future__ import annotations

import argparse
import asyncio

from rich.console import Console

from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.text import drawing
from senet.text.app import Session, open_session
from senet.text.errors import for_people, reach
from senet.tui.app import PlayApp
from senet.v1 import match_pb2


async def amain(args: argparse.Namespace) -> int:
    console = drawing.make_console(no_color=args.no_color)
    problem = await reach(args.server, args.tls_ca)
    if problem is not None:
        console.print(f"senet play: {problem}", highlight=False, markup=False, soft_wrap=True)
        return 1
    async with SenetClient(args.server, admin_key=args.admin_key, tls_ca=args.tls_ca) as client:
        try:
            session = await open_session(args, client, console)
        except SenetRpcError as exc:
            console.print(
                f"senet play: {for_people(exc, args.server)}", highlight=False, markup=False
            )
            return 1
        app = PlayApp(session, charset=drawing.charset_for(console, args.ascii))
        status = await app.run_async()
        _print_resume(console, session, app.summary)
        return status if status is not None else 0


def _print_resume(
    console: Console, session: Session, summary: match_pb2.MatchSummary | None
) -> None:
    command = session.resume_command()
    if command is None or (summary is not None and summary.status != match_pb2.MATCH_STATUS_ACTIVE):
        return
    console.print(
        f"Left the match. Resume later with:\n  {command}",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


def main(args: argparse.Namespace) -> int:
    """Run ``senet play`` full screen; returns the exit status."""
    try:
        return asyncio.run(amain(args))
    except KeyboardInterrupt:
        return 130


__all__ = ["main"]
