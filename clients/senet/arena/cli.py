"""``senet arena``: flags, the progress bar, and the outputs."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import secrets
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from senet.arena.players import PlayerSpec
from senet.arena.report import PlotUnavailable, print_table, write_json, write_plot
from senet.arena.runner import ArenaConfig, ServerFactory, run_arena
from senet.arena.stats import summarize


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``senet arena``."""
    parser.add_argument("--game", default="mykerinos", help="game id")
    parser.add_argument(
        "--players",
        required=True,
        help="comma-separated strategies, one per seat, e.g. mcts@0.2s,greedy,random,random "
        "(suffix @<seconds>s or @<iterations>i sets a search budget)",
    )
    parser.add_argument("--matches", type=int, default=20, help="number of matches")
    parser.add_argument("--parallel", type=int, default=4, help="matches at once")
    parser.add_argument("--seed", type=int, default=None, help="derive all seeds from this")
    parser.add_argument(
        "--server", default="embedded", help="host:port, or 'embedded' (in-process, memory store)"
    )
    parser.add_argument("--admin-key", default="", help="the server's admin key")
    parser.add_argument(
        "--worker-key",
        default=os.environ.get("SENET_WORKER_KEY", ""),
        help="the server's bot-worker key (--server HOST:PORT without --admin-key)",
    )
    parser.add_argument(
        "--external-workers",
        action="store_true",
        help="do not run bot workers; leave seats to `senet bots` (budgets/seeds are theirs)",
    )
    parser.add_argument(
        "--processes", type=int, default=None, help="decision processes (0: threads)"
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=None, help="default search time/move")
    budget.add_argument("--iterations", type=int, default=None, help="default search iterations")
    parser.add_argument(
        "--move-limit-ms",
        type=int,
        default=None,
        help="per-move limit, enforced by the server's turn clocks (a late bot's move is "
        "played by the server)",
    )
    parser.add_argument("--out", type=Path, default=None, help="write results JSON here")
    parser.add_argument("--plot", type=Path, default=None, help="write a win-rate PNG here")


#: Starts the server of ``--server embedded`` with the given bot-worker key.
EmbeddedServer = Callable[[str], contextlib.AbstractAsyncContextManager[str]]


def run(args: argparse.Namespace, embedded_server: EmbeddedServer | None = None) -> int:
    """Run the tournament with a progress bar, then print and write the results.

    ``embedded_server`` starts the server of ``--server embedded``.
    """
    console = Console()
    if not console.is_terminal:  # piped: rich would assume 80 columns and cut the table
        console = Console(width=120)
    try:
        players = [
            PlayerSpec.parse(text, seconds=args.seconds, iterations=args.iterations)
            for text in args.players.split(",")
        ]
        config = ArenaConfig(
            game=args.game,
            players=players,
            matches=args.matches,
            parallel=args.parallel,
            seed=args.seed,
            server=None if args.server == "embedded" else args.server,
            admin_key=args.admin_key,
            worker_key=args.worker_key,
            external_workers=args.external_workers,
            processes=args.processes,
            move_limit_ms=args.move_limit_ms,
        )
    except ValueError as exc:
        console.print(f"[red]senet arena: {exc}[/red]")
        return 2
    start_server: ServerFactory | None = None
    if config.server is None and embedded_server is not None:
        # The embedded server lets in only this process's workers: a key drawn here.
        config = replace(config, worker_key=config.worker_key or secrets.token_urlsafe(32))
        start_server = functools.partial(embedded_server, config.worker_key)
    if args.plot is not None:  # fail before the tournament, not after it
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            console.print(
                "[red]senet arena: --plot needs matplotlib, which is not installed: "
                "pip install 'senet[plot]' (or pip install matplotlib)[/red]"
            )
            return 2
    progress = Progress(
        TextColumn("arena"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )
    with progress:
        bar = progress.add_task("matches", total=config.matches)
        try:
            arena = asyncio.run(
                run_arena(config, lambda _: progress.advance(bar), start_server=start_server)
            )
        except ValueError as exc:
            console.print(f"[red]senet arena: {exc}[/red]")
            return 2
    summaries = summarize(arena.results, [spec.label for spec in players])
    print_table(arena, summaries, console)
    console.print(f"seed {arena.seed}")
    if args.out is not None:
        write_json(args.out, arena, summaries)
        console.print(f"results written to {args.out}")
    if args.plot is not None:
        try:
            write_plot(args.plot, summaries, len(players))
        except PlotUnavailable as exc:
            console.print(f"[red]{exc}[/red]")
            return 2
        console.print(f"chart written to {args.plot}")
    return 0
