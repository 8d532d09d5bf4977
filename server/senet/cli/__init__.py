"""The ``senet`` command line: ``senet serve`` runs a server, ``senet play`` plays in a terminal.

This package is where the layers meet: the only place that imports both the service
and the clients, so that what runs together in one process (the embedded bot workers
of ``senet serve``, the in-process server of ``senet arena``) is wired here
(:mod:`senet.cli.beside`) and nowhere else.
"""

from __future__ import annotations

import argparse
import asyncio

from senet.arena import cli as arena_cli
from senet.bots import worker
from senet.cli.beside import embedded_bot_workers, embedded_server
from senet.service import logs
from senet.service import probe as health_probe
from senet.service.settings import Settings
from senet.text import cli as play_cli
from senet.web import cli as web_cli


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="senet", description="Senet game server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run a match server (SENET_* env or flags)")
    Settings.add_arguments(serve)
    play = commands.add_parser("play", help="play or watch a match in the terminal")
    play_cli.add_arguments(play)
    bots = commands.add_parser("bots", help="run a bot worker that plays bot seats")
    worker.add_worker_arguments(bots)
    bot = commands.add_parser("bot", help="play one seat with a bot strategy")
    worker.add_seat_arguments(bot)
    arena = commands.add_parser("arena", help="run a bot tournament through a server")
    arena_cli.add_arguments(arena)
    probe = commands.add_parser("health", help="exit 0 when a server's health check says SERVING")
    health_probe.add_arguments(probe)
    web = commands.add_parser("web", help="serve the web client (play, watch, replay)")
    web_cli.add_arguments(web)
    args = parser.parse_args(argv)
    if args.command == "web":
        return web_cli.run(args)
    if args.command == "play":
        return play_cli.run(args)
    if args.command == "bots":
        return worker.run_worker(args)
    if args.command == "arena":
        return arena_cli.run(args, embedded_server=embedded_server)
    if args.command == "bot":
        return worker.run_seat(args)
    if args.command == "health":
        return health_probe.run(args)
    if args.command == "serve":
        settings = Settings.from_env().with_args(args)
        logs.configure(settings.log_level, settings.log_json)
        from senet.service.server import serve as run

        workers = settings.embedded_bot_workers
        asyncio.run(run(settings, [embedded_bot_workers(workers)] if workers > 0 else []))
    return 0
