"""Arguments of ``senet play`` (kept free of heavy imports: ``senet serve`` loads this too).

One of six ways to start:

* ``--new GAME``: create a match and take its first seat. ``--bots K`` adds K bot seats
  (played by bot workers, with ``--bot-strategy``); ``--seats N`` sets the open seats
  (default 1 with bots, else 2); ``--players N`` sets the total instead (open seats =
  N - K). The match id and your token are printed so others can join and you can resume.
* ``--join MATCH [--seat S]``: claim an open seat (the first one by default).
* ``--resume MATCH --seat S --token T``: take your seat again after a restart.
* ``--rematch MATCH --token T``: ask for the rematch of a finished match you played
  (its seat's token) and play it.
* ``--watch MATCH``: spectate.
* ``--lobby``, or none of the above: pick a match to join or watch from the server's
  lobby (``--game`` shows only that game's matches).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NamedTuple

from senet.client.options import parse_options

DEFAULT_SERVER = "127.0.0.1:50051"


def add_server_argument(parser: argparse.ArgumentParser, *, beside: bool = False) -> None:
    """``--server``, as every command that calls a server takes it (env SENET_SERVER).

    ``beside``: the parser is a subcommand's, whose parent takes ``--server`` too:
    given after the subcommand (``senet ladder start --server ...``), it wins; not
    given, the parent's stands."""
    parser.add_argument(
        "--server",
        default=argparse.SUPPRESS if beside else os.environ.get("SENET_SERVER", DEFAULT_SERVER),
        help="the server: host:port, a comma-separated failover list, or a gRPC target "
        f"(env SENET_SERVER, default {DEFAULT_SERVER})",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet play`` options to ``parser``."""
    add_server_argument(parser)
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--new", metavar="GAME", type=str.lower, help="create a match of GAME (e.g. mykerinos)"
    )
    how.add_argument("--join", metavar="MATCH", help="join an existing match")
    how.add_argument("--resume", metavar="MATCH", help="take your seat again (--seat, --token)")
    how.add_argument(
        "--rematch", metavar="MATCH", help="play the rematch of a finished match (--token)"
    )
    how.add_argument("--watch", metavar="MATCH", help="spectate a match")
    how.add_argument(
        "--lobby",
        action="store_true",
        help="pick a match to join or watch from the server's list (the default)",
    )
    parser.add_argument("--game", default="", help="--lobby: only matches of this game")
    parser.add_argument("--players", type=int, help="--new: number of seats in all")
    parser.add_argument("--seats", type=int, help="--new: number of open seats (you take one)")
    parser.add_argument(
        "--bots", type=int, default=0, help="--new: number of bot seats (random bots by default)"
    )
    parser.add_argument(
        "--bot-strategy",
        default="random",
        help="--new: strategy of the bots: random (default), greedy or mcts",
    )
    parser.add_argument(
        "--decision-s",
        type=float,
        default=None,
        help="--new: turn clocks, seconds per decision (the server plays a late move)",
    )
    parser.add_argument(
        "--reserve-s",
        type=float,
        default=None,
        help="--new: turn clocks, each seat's reserve of seconds for the whole match: "
        "every decision uses it up, and once it is gone the server plays that seat's "
        "moves (a whole match of many decisions wants minutes, or an --increment-s)",
    )
    parser.add_argument(
        "--increment-s", type=float, default=None, help="--new: Fischer increment per move"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="--new: a game option (repeatable)",
    )
    parser.add_argument("--seed", type=int, help="--new: seed of the match (reproducible)")
    parser.add_argument(
        "--unlisted",
        action="store_true",
        help="--new: leave the match out of the lobby (only those you give its id join)",
    )
    parser.add_argument("--seat", type=int, help="--join/--resume: seat number")
    parser.add_argument(
        "--token", help="--resume/--rematch: the seat's token printed when you joined"
    )
    parser.add_argument(
        "--name",
        default=os.environ.get("USER") or "Player",
        help="your display name (default: $USER)",
    )
    parser.add_argument(
        "--no-color",
        action="store_true",
        default=bool(os.environ.get("NO_COLOR")),
        help="no colours (also when NO_COLOR is set)",
    )
    parser.add_argument("--ascii", action="store_true", help="ASCII borders only")
    parser.add_argument(
        "--line",
        action="store_true",
        help="line mode: print screens one after another (also when not in a terminal)",
    )
    parser.add_argument(
        "--no-clear", action="store_true", help="do not clear the screen between updates"
    )
    parser.add_argument("--admin-key", default=os.environ.get("SENET_ADMIN_KEY", ""))
    parser.add_argument("--tls-ca", help="PEM file of the server's CA (enables TLS)")


def program() -> str:
    """The ``senet`` command as it was typed (``.venv/bin/senet``), for commands to copy."""
    typed = sys.argv[0] if sys.argv else ""
    return typed if os.path.basename(typed) == "senet" else "senet"


class SeatPlan(NamedTuple):
    """Open and bot seats of a new match."""

    open_seats: int
    bots: int


def seat_plan(args: argparse.Namespace) -> SeatPlan:
    """Work out ``--seats``/``--players``/``--bots``.

    Raises:
        ValueError: the numbers contradict each other or leave no seat for you.
    """
    bots = args.bots or 0
    if bots < 0:
        raise ValueError("--bots cannot be negative")
    if args.seats is not None:
        open_seats = args.seats
        if args.players is not None and args.players != open_seats + bots:
            raise ValueError(
                f"--players {args.players} does not match --seats {open_seats} + --bots {bots}"
            )
    elif args.players is not None:
        open_seats = args.players - bots
    else:
        open_seats = 1 if bots else 2
    if open_seats < 1:
        raise ValueError("the match needs at least one open seat: yours")
    return SeatPlan(open_seats, bots)


def check(args: argparse.Namespace) -> str | None:
    """A message when the arguments cannot work together, else None."""
    if args.resume and (args.seat is None or not args.token):
        return "--resume needs --seat and --token (printed when you joined)"
    if args.rematch and not args.token:
        return "--rematch needs --token (your seat's token in that match)"
    if args.new:
        try:
            seat_plan(args)
            parse_options(args.option)
        except ValueError as exc:
            return str(exc)
    if not 1 <= len(args.name) <= 40:
        return "--name must be 1 to 40 characters"
    return None


def full_screen(args: argparse.Namespace) -> bool:
    """Whether to play full screen: ``--line`` not given, and input, output and
    standard error all a terminal (the full screen draws on standard error, so with
    it sent to a file the player would see nothing while their keys still play)."""
    return not args.line and sys.stdin.isatty() and sys.stdout.isatty() and sys.stderr.isatty()


def run(args: argparse.Namespace) -> int:
    """Run ``senet play`` in line mode with parsed arguments; returns the exit status."""
    problem = check(args)
    if problem is not None:
        print(f"senet play: {problem}")
        return 2
    from senet.text.app import main

    return main(args)
