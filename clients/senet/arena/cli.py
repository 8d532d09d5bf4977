"""``senet arena``: flags, the progress bar, and the outputs."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from senet.arena.players import PlayerSpec
from senet.arena.report import PlotUnavailable, plot_title, print_table, write_json, write_plot
from senet.arena.runner import ArenaConfig, ServerFactory, run_arena
from senet.arena.stats import summarize
from senet.bots.worker import WorkerRefused
from senet.client.options import parse_options


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
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option of every match (repeatable), e.g. turn_limit=3",
    )
    parser.add_argument("--parallel", type=int, default=4, help="matches at once")
    parser.add_argument("--seed", type=int, default=None, help="derive all seeds from this")
    parser.add_argument(
        "--server", default="embedded", help="host:port, or 'embedded' (in-process, memory store)"
    )
    parser.add_argument(
        "--admin-key",
        default=os.environ.get("SENET_ADMIN_KEY", ""),
        help="the server's admin key (env SENET_ADMIN_KEY)",
    )
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
    parser.add_argument(
        "--results-dir",
        type=Path,
        default=Path("results"),
        help="folder for --out and --plot given as bare file names (default: results)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="results JSON (default: arena-GAME-SEED.json in --results-dir)",
    )
    parser.add_argument("--plot", type=Path, default=None, help="write a win-rate PNG here")


def placed(path: Path, folder: Path) -> Path:
    """``path`` as given when it names a folder, else inside ``folder`` (created)."""
    if path.parent != Path("."):
        path.parent.mkdir(parents=True, exist_ok=True)
        return path
    folder.mkdir(parents=True, exist_ok=True)
    return folder / path


def run(args: argparse.Namespace, embedded_server: ServerFactory | None = None) -> int:
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
            options=parse_options(args.option),
        )
    except ValueError as exc:
        console.print(f"senet arena: {exc}", style="red", markup=False)
        return 2
    start_server: ServerFactory | None = embedded_server if config.server is None else None
    if args.plot is not None:  # fail before the tournament, not after it
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            console.print(
                "senet arena: --plot needs matplotlib, which is not installed: "
                "pip install 'senet[plot]' (or pip install matplotlib)",
                style="red",
                markup=False,
            )
            return 2
    progress = Progress(
        TextColumn("{task.description:<8}"),
        BarColumn(),
        TextColumn("{task.fields[count]}"),
        TimeElapsedColumn(),
        console=console,
    )
    with progress:
        bar = progress.add_task("matches", total=config.matches, count=f"0/{config.matches}")
        moves = progress.add_task("actions", total=None, count="0")
        done = [0, 0]

        def finished(_: object) -> None:
            done[0] += 1
            progress.update(bar, advance=1, count=f"{done[0]}/{config.matches}")

        def acted(_: int) -> None:
            done[1] += 1
            progress.update(moves, advance=1, count=str(done[1]))

        try:
            arena = asyncio.run(
                run_arena(config, finished, start_server=start_server, on_action=acted)
            )
        except ValueError as exc:
            console.print(f"senet arena: {exc}", style="red", markup=False)
            return 2
        except WorkerRefused as exc:
            console.print(
                f"senet arena: the server refuses the arena's bot workers ({exc}). Give it "
                "the server's worker key (--worker-key or SENET_WORKER_KEY) or its admin key "
                "(--admin-key).",
                style="red",
                markup=False,
            )
            return 2
        progress.update(moves, total=done[1], completed=done[1])
    summaries = summarize(arena.results, [spec.label for spec in players])
    print_table(arena, summaries, console)
    console.print(f"seed {arena.seed}")
    out = placed(args.out or Path(f"arena-{config.game}-{arena.seed}.json"), args.results_dir)
    replaced = out.exists()
    write_json(out, arena, summaries)
    said = f"results written to {out}"
    if replaced:  # the same seed (or --out) as an earlier run: say its file is gone
        said += " (replacing an earlier run's: give --out or another --seed to keep both)"
    console.print(said, markup=False, highlight=False)
    if args.plot is not None:
        chart = placed(args.plot, args.results_dir)
        try:
            write_plot(chart, summaries, len(players), plot_title(arena))
        except PlotUnavailable as exc:
            console.print(str(exc), style="red", markup=False)
            return 2
        console.print(f"chart written to {chart}", markup=False, highlight=False)
    return 0
