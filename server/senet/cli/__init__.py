"""The ``senet`` command line: ``senet serve`` runs a server, ``senet play`` plays in a terminal.

This package is where the layers meet: the only place that imports both the service
and the clients, so that what runs together in one process (the embedded bot workers
of ``senet serve``, the in-process server of ``senet arena``) is wired here
(:mod:`senet.cli.beside`) and nowhere else.
"""

from __future__ import annotations

# Before any module that loads gRPC (see the module).
import senet.cli.grpc_logs  # noqa: F401

# isort: split
import argparse
import asyncio
import errno
import io
import os
import socket
import sys

from senet.arena import cli as arena_cli
from senet.bots import worker
from senet.cli import export as export_cli
from senet.cli import ladder as ladder_cli
from senet.cli import leaderboard as leaderboard_cli
from senet.cli import matches as matches_cli
from senet.cli import tournament as tournament_cli
from senet.cli import verify as verify_cli
from senet.cli.beside import embedded_bot_workers, embedded_server
from senet.service import logs
from senet.service import probe as health_probe
from senet.service.settings import Settings
from senet.text import cli as play_cli
from senet.web import cli as web_cli

#: What ``senet serve`` says when nothing can play a bot seat it creates.
NO_BOT_WORKERS = (
    "No bot worker runs here and none is let in (--embedded-bot-workers 0, no worker or "
    "admin key): bot seats wait for the workers of another replica."
)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if isinstance(sys.stdout, io.TextIOWrapper):
        # Progress lines of long-running commands reach a pipe (a log, a test) as
        # they are printed, not when a block fills.
        sys.stdout.reconfigure(line_buffering=True)
    try:
        return _run(args)
    except BrokenPipeError:
        # The reader of the output left (``senet ladder status | head``): stop
        # quietly, with nothing more written to the closed pipe at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def build_parser() -> argparse.ArgumentParser:
    """Every command's flags."""
    parser = argparse.ArgumentParser(prog="senet", description="Senet game server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve",
        help="run a match server (SENET_* env or flags)",
        description="Run a match server. Every flag has a SENET_* environment variable; "
        "a flag given wins over the variable, which wins over the default.",
    )
    Settings.add_arguments(serve)
    play = commands.add_parser("play", help="play or watch a match in the terminal")
    play_cli.add_arguments(play)
    bots = commands.add_parser("bots", help="run a bot worker that plays bot seats")
    worker.add_worker_arguments(bots)
    bot = commands.add_parser("bot", help="play one seat with a bot strategy")
    worker.add_seat_arguments(bot)
    arena = commands.add_parser("arena", help="run a bot tournament through a server")
    arena_cli.add_arguments(arena)
    matches = commands.add_parser("matches", help="list the matches a server hosts (the lobby)")
    matches_cli.add_arguments(matches)
    board = commands.add_parser("leaderboard", help="print a game's leaderboard of ratings")
    leaderboard_cli.add_arguments(board)
    probe = commands.add_parser("health", help="exit 0 when a server's health check says SERVING")
    health_probe.add_arguments(probe)
    web = commands.add_parser("web", help="serve the web client (play, watch, replay)")
    web_cli.add_arguments(web)
    ladder = commands.add_parser(
        "ladder", help="start a hosted bot ladder, list the ladders, show their standings"
    )
    ladder_cli.add_arguments(ladder)
    tournament = commands.add_parser("tournament", help="run a tournament of bots and players")
    tournament_cli.add_arguments(tournament)
    verify = commands.add_parser(
        "verify", help="check a finished match's fairness: seed commitment, deal, replay"
    )
    verify_cli.add_arguments(verify)
    export = commands.add_parser(
        "export", help="finished matches as JSON Lines (options, seeds, every action, results)"
    )
    export_cli.add_arguments(export)
    return parser


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` names; its exit status."""
    if args.command == "web":
        return web_cli.run(args)
    if args.command == "play":
        if not play_cli.full_screen(args):
            return play_cli.run(args)
        problem = play_cli.check(args)
        if problem is not None:
            print(f"senet play: {problem}")
            return 2
        from senet.tui.run import main as play_full_screen

        return play_full_screen(args)
    if args.command == "bots":
        logs.configure(args.log_level, args.log_json)
        return worker.run_worker(args)
    if args.command == "arena":
        return arena_cli.run(args, embedded_server=embedded_server)
    if args.command == "bot":
        return worker.run_seat(args)
    if args.command == "matches":
        return matches_cli.run(args)
    if args.command == "leaderboard":
        return leaderboard_cli.run(args)
    if args.command == "ladder":
        return ladder_cli.run(args)
    if args.command == "tournament":
        return tournament_cli.run(args)
    if args.command == "verify":
        return verify_cli.run(args)
    if args.command == "export":
        return export_cli.run(args)
    if args.command == "health":
        return health_probe.run(args)
    if args.command == "serve":
        # Drawn before any child process starts, so all of them share it.
        settings = Settings.from_env().with_args(args).with_embedded_worker_key().with_guest_key()
        logs.configure(settings.log_level, settings.log_json)
        from senet.service import processes

        # A supervisor checks the port once for all its processes: each of them
        # binds it with SO_REUSEPORT, so a sibling that bound first does not hold it.
        if not processes.is_child() and not port_free(settings.host, settings.port):
            print(port_taken(settings.host, settings.port), file=sys.stderr)
            return 1
        if not (processes.is_child() or settings.bot_workers_here() or settings.lets_workers_in):
            print(NO_BOT_WORKERS, file=sys.stderr)
        if settings.processes > 1 and not processes.is_child():
            return processes.supervise(settings)
        from senet.service.server import serve as run

        workers = settings.embedded_bot_workers
        try:
            asyncio.run(run(settings, [embedded_bot_workers(workers)] if workers > 0 else []))
        except RuntimeError as exc:
            if "Failed to bind" not in str(exc):
                raise
            print(port_taken(settings.host, settings.port), file=sys.stderr)
            return 1
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            print(
                f"senet serve: the metrics port {settings.metrics_port} is taken; "
                "choose another with --metrics-port N (or SENET_METRICS_PORT=N).",
                file=sys.stderr,
            )
            return 1
    return 0


def port_free(host: str, port: int) -> bool:
    """Whether ``host:port`` can be bound now; checked before gRPC tries, whose own
    failure is a traceback and a line of C-core logging."""
    if port == 0:
        return True
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host or "0.0.0.0", port))
        except OSError as exc:
            return exc.errno != errno.EADDRINUSE
    return True


def port_taken(host: str, port: int) -> str:
    """One line for a port another process holds (often a server started before)."""
    return (
        f"senet serve: {host}:{port} is taken (is a server already running?); "
        f"choose another port with --port N or SENET_PORT=N."
    )
