"""``senet ladder join``: enter a strategy in the ladders as a registered bot, and play it.

``senet ladder join --games mykerinos --strategy my_agent --key-file my_agent.key``
registers the strategy (built in, or published in the ``senet.bot_strategies``
group) as a bot of the caller's own, keeps its key in the file, and plays the
bot's decisions from this process until interrupted: what a bot author does by
hand with ``RegisterBot`` and a worker, in one command, with no admin key. Run
again with the same key file, it plays the same bot with the same key, so a bot
the ladder benched while its worker was away comes back once rested
(``Bot.benched_until_ms``). ``--factory module:attribute`` plays a strategy
factory of the author's own folder instead of a published strategy.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys
from typing import cast

from senet.bots.base import StrategyFactory
from senet.bots.hosted import HostedBotWorker
from senet.bots.worker import WorkerRefused, run_until_signalled
from senet.cli.bot_calls import (
    LADDER_STATES,
    BuiltInBot,
    add_owner_arguments,
    channel_of,
    register_bots,
    retire_keys,
    run_calls,
)
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc

PLAYING = "playing its decisions; Ctrl-C stops (ladders seat the bot only while it runs)"


def add_join_arguments(join: argparse.ArgumentParser) -> None:
    """The flags of ``senet ladder join``."""
    plays = join.add_mutually_exclusive_group(required=True)
    plays.add_argument(
        "--strategy",
        help="the strategy that plays, strategy[:iterations] (built in or published in "
        "the senet.bot_strategies group)",
    )
    plays.add_argument(
        "--factory",
        help="or a strategy factory of your own, module:attribute (imported from the "
        "current folder or the path), as senet.rl.policy.strategy_factory makes one",
    )
    join.add_argument("--games", default="", help="the games it plays, comma-separated")
    join.add_argument("--name", default="", help="the bot's name (default: the strategy's)")
    join.add_argument(
        "--key-file",
        default="",
        help="keep the bot's key in this file: registered and written when missing, "
        "read when present (the same bot, with the same key, at every run)",
    )
    join.add_argument("--seconds", type=float, default=None, help="search time per move")
    join.add_argument("--capacity", type=int, default=2, help="most decisions at once")
    add_owner_arguments(
        join, "identity token owning the bot (env SENET_IDENTITY; default: a new guest)"
    )


def run_join(args: argparse.Namespace) -> int:
    """Run ``senet ladder join``; returns the exit status."""
    try:
        plays, name, iterations = _what_plays(args)
    except ValueError as exc:
        print(f"senet ladder join: {exc}", file=sys.stderr)
        return 2
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    obtained = _obtain_key(args, args.name or name, games)
    if isinstance(obtained, int):
        return obtained
    key, throwaway = obtained
    worker = HostedBotWorker(
        args.server,
        key,
        plays,
        iterations=iterations,
        seconds=args.seconds,
        capacity=args.capacity,
        tls_ca=args.tls_ca,
    )
    try:
        asyncio.run(run_until_signalled([worker], PLAYING))
    except KeyboardInterrupt:
        pass  # an interrupt before the worker started: a stop all the same
    except WorkerRefused as exc:
        again = f": delete {args.key_file} to register it again" if args.key_file else ""
        print(f"senet ladder join: the server refuses the bot key ({exc}){again}", file=sys.stderr)
        return 2
    if throwaway:
        # Its key is kept nowhere and its owner was a new guest: nobody could ever
        # play it again, so it leaves the listings and ladders with this command.
        return run_calls("ladder join", lambda: _retire(args, key))
    return 0


def _what_plays(args: argparse.Namespace) -> tuple[str | StrategyFactory, str, int | None]:
    """The strategy (a name, or a factory imported from ``--factory``), the bot's
    default name, and its iterations.

    Raises:
        ValueError: an unknown strategy, a bad budget, or a factory that does not
            import.
    """
    if args.strategy:
        bot = BuiltInBot.parse(args.strategy)
        return bot.strategy, bot.name, bot.iterations
    module, _, attribute = args.factory.partition(":")
    if not module or not attribute:
        raise ValueError(f"--factory is module:attribute, not {args.factory!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as ``python -m`` finds the current folder's
    try:
        loaded = importlib.import_module(module)
    except ImportError as exc:
        raise ValueError(f"cannot load {args.factory}: {exc}") from exc
    factory = getattr(loaded, attribute, None)
    if factory is None:
        # Say which module was found: a folder of the same name in the current
        # directory (a project's checkout) shadows the installed package.
        where = getattr(loaded, "__file__", None) or ", ".join(getattr(loaded, "__path__", []))
        raise ValueError(
            f"cannot load {args.factory}: the module {module!r} found at {where or '?'} "
            f"has no {attribute!r}"
        )
    if not callable(factory):
        raise ValueError(f"{args.factory} is not a strategy factory (it cannot be called)")
    return cast(StrategyFactory, factory), module.rpartition(".")[2][:32], None


def _obtain_key(args: argparse.Namespace, name: str, games: list[str]) -> tuple[str, bool] | int:
    """The bot's key, read from ``--key-file`` or from registering it (kept in that
    file when given), and whether the bot is a throwaway (its key kept nowhere, its
    owner a new guest); or the exit status of a failure."""
    key = _read_key(args.key_file)
    if key is not None:
        print(f"bot key from {args.key_file}")
        if games or args.name:
            print("(--games and --name are set when the bot registers: ignored with a kept key)")
        return key, False
    if not games:
        print("senet ladder join: --games names the games the bot plays", file=sys.stderr)
        return 2
    try:
        kept = _key_file(args.key_file)
    except OSError as exc:
        print(f"senet ladder join: cannot keep the key: {exc}", file=sys.stderr)
        return 2
    registered = run_calls("ladder join", lambda: _register(args, name, games))
    if isinstance(registered, int):
        if kept is not None:
            os.close(kept)
            os.unlink(args.key_file)
        return registered
    if kept is not None:
        with os.fdopen(kept, "w", encoding="utf-8") as out:
            out.write(registered + "\n")
        print(f"its key is in {args.key_file}: run again with it to play the same bot")
        return registered, False
    if args.identity:
        print("its key is kept nowhere: the next run registers it again (--key-file keeps it)")
        return registered, False
    print("its key is kept nowhere and its owner is a new guest: it is retired when this stops")
    return registered, True


async def _retire(args: argparse.Namespace, key: str) -> int:
    """Retire the bot ``key`` plays."""
    async with channel_of(args.server, args.tls_ca) as channel:
        (name,) = await retire_keys(channel, [key])
    print(f"bot {name} retired (its ratings and matches stay)")
    return 0


def _read_key(path: str) -> str | None:
    """The key kept in ``path``; None when there is no such file (or no path)."""
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as kept:
        return kept.read().strip()


def _key_file(path: str) -> int | None:
    """A new file at ``path`` only its owner may read, open for the key (None
    without a path): made before registering, so a path it cannot be made at
    registers nothing."""
    if not path:
        return None
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)


async def _register(args: argparse.Namespace, name: str, games: list[str]) -> str:
    """Register the bot and say which ladders it joins; its key."""
    async with channel_of(args.server, args.tls_ca) as channel:
        (registered,) = await register_bots(channel, args, [(name, games)], "bot author")
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        found = registered.bot
        print(f"bot {found.name} ({found.bot_id}), rated as {found.subject}")
        for game in games:
            index = await ladder.ListLadders(lpb.ListLaddersRequest(game_id=game, page_size=100))
            if not index.ladders:
                print(f"  {game}: no ladder yet (the operator starts one)")
            for summary in index.ladders:
                state = LADDER_STATES.get(summary.state, "?")
                ready = f"{summary.active_bots} of {summary.bots} bots ready"
                print(f"  ladder {summary.ladder_id}: {state} ({ready}; this one once it plays)")
        return registered.bot_key
