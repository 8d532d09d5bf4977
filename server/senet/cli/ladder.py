"""``senet ladder``: start a hosted bot ladder on a running server, watch it.

``senet ladder start --game mykerinos --bots random,greedy,mcts:50,mcts:400``
registers each built-in strategy at its budget as a bot of its own (under a
guest identity, or ``--identity``), starts the ladder and plays those bots'
decisions from this process until interrupted: one command on top of
``make run``. Bots written elsewhere register with ``RegisterBot`` and join the
same ladder with their own workers; ``join`` (:mod:`senet.cli.ladder_join`) does
both for a strategy, with no admin key. ``list`` prints every ladder of the
server, ``status`` and ``standings`` one ladder (``--json`` for scripts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap
import time
from collections.abc import Sequence

from google.protobuf import json_format

from senet.bots.hosted import BOT_KEY_HEADER, HostedBotWorker
from senet.bots.worker import run_until_signalled
from senet.cli.bot_calls import (
    LADDER_STATES,
    BuiltInBot,
    add_owner_arguments,
    channel_of,
    owner_metadata,
    parse_bots,
    register_bots,
    retire_keys,
    run_calls,
)
from senet.cli.ladder_join import add_join_arguments, run_join
from senet.text.bot_state import bench_words, match_bots, worker_words
from senet.text.cli import add_server_argument
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc

#: The width the notes on bots are wrapped to (a terminal's 80 columns).
WIDTH = 80
#: Leaders asked per ladder for ``list`` (the server's most, ListLaddersRequest.top).
LEADERS_ASKED = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet ladder`` subcommands to ``parser``."""
    add_server_argument(parser)
    parser.add_argument("--tls-ca", help="PEM file of the server's CA (enables TLS)")
    actions = parser.add_subparsers(dest="ladder_command", required=True)
    start = actions.add_parser("start", help="start a ladder and host built-in bots on it")
    start.add_argument("--game", required=True, help="the game")
    start.add_argument("--seats", type=int, default=0, help="seats per match (default: fewest)")
    start.add_argument(
        "--bots",
        default="random,greedy,mcts:50,mcts:400",
        help="built-in bots to host, strategy[:iterations] comma-separated ('' for none)",
    )
    start.add_argument("--max-in-flight", type=int, default=2, help="matches at once")
    start.add_argument("--decision-ms", type=int, default=2000, help="each decision's clock")
    start.add_argument("--inactive-after", type=int, default=3, help="timeouts in a row to bench")
    add_owner_arguments(
        start, "identity token owning the hosted bots (env SENET_IDENTITY; default: a new guest)"
    )
    test = actions.add_parser("test", help="test bot A against bot B until the result is clear")
    test.add_argument("--game", required=True, help="the game (played two-handed)")
    test.add_argument("--a", required=True, help="the candidate bot's id")
    test.add_argument("--b", required=True, help="the bot it is tested against")
    test.add_argument("--max-games", type=int, default=400, help="stop undecided after this many")
    test.add_argument("--p1", type=float, default=0.6, help="A's win share if it is stronger")
    test.add_argument("--decision-ms", type=int, default=2000, help="each decision's clock")
    add_owner_arguments(test, "identity token of bot A's owner (env SENET_IDENTITY)")
    join = actions.add_parser(
        "join", help="enter a strategy in its games' ladders as your bot, and play it"
    )
    add_join_arguments(join)
    retire = actions.add_parser(
        "retire", help="retire a bot of yours: its key stops working, its ratings stay"
    )
    which = retire.add_mutually_exclusive_group(required=True)
    which.add_argument("--bot", help="the bot's id (with its owner's --identity)")
    which.add_argument("--key-file", help="the file holding the bot's key (senet ladder join's)")
    add_owner_arguments(retire, "identity token of the bot's owner (env SENET_IDENTITY)")
    listed = actions.add_parser("list", help="print every ladder of the server")
    listed.add_argument("--game", default="", help="only the ladders of this game")
    listed.add_argument(
        "--top", type=int, default=1, help="leaders shown per ladder (1-10, default 1)"
    )
    listed.add_argument("--json", action="store_true", help="print JSON")
    bots = actions.add_parser("bots", help="print the registered bots: ids, games, state")
    bots.add_argument("--game", default="", help="only the bots of this game")
    bots.add_argument("--json", action="store_true", help="print JSON")
    for name in ("status", "standings"):
        shown = actions.add_parser(name, help=f"print a ladder's {name}")
        shown.add_argument("--ladder", required=True, help="ladder id (<game>-<seats>)")
        shown.add_argument("--json", action="store_true", help="print JSON")
    for sub in actions.choices.values():  # given after the subcommand too
        add_server_argument(sub, beside=True)
        sub.add_argument("--tls-ca", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


async def _start(args: argparse.Namespace, bots: Sequence[BuiltInBot]) -> int:
    async with channel_of(args.server, args.tls_ca) as channel:
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        admin = (("x-senet-admin-key", args.admin_key),) if args.admin_key else ()
        named = [(bot.name, [args.game]) for bot in bots]
        keys = []
        for registered in await register_bots(channel, args, named, "ladder"):
            keys.append(registered.bot_key)
            print(f"bot {registered.bot.name}: {registered.bot.bot_id}")
        spec = lpb.LadderSpec(
            game_id=args.game,
            seat_count=args.seats,
            decision_ms=args.decision_ms,
            max_in_flight=args.max_in_flight,
            inactive_after=args.inactive_after,
        )
        started = await ladder.StartLadder(lpb.StartLadderRequest(spec=spec), metadata=admin)
        print(f"ladder {started.ladder_id} started ({started.spec.max_in_flight} in flight)")
    if not bots:
        return 0
    throwaway = not args.identity
    then = "; they are retired then" if throwaway else ""
    workers = [
        HostedBotWorker(args.server, key, bot.strategy, iterations=bot.iterations, capacity=2)
        for bot, key in zip(bots, keys, strict=True)
    ]
    hosting = f"hosting the bots; Ctrl-C stops them (ladders seat them only while they run{then})"
    try:
        await run_until_signalled(workers, hosting)
    finally:
        if throwaway:
            # Their keys die with this command and a new guest owns them: nobody
            # could play them again, so they leave the listings and ladders.
            async with channel_of(args.server, args.tls_ca) as channel:
                retired = await retire_keys(channel, keys)
            print(f"retired {', '.join(retired)} (their ratings and matches stay)")
    return 0


async def _retire(args: argparse.Namespace) -> int:
    metadata = owner_metadata(args)
    if args.key_file:
        try:
            with open(args.key_file, encoding="utf-8") as kept:
                metadata += ((BOT_KEY_HEADER, kept.read().strip()),)
        except OSError as exc:
            print(f"senet ladder retire: cannot read the key: {exc}", file=sys.stderr)
            return 2
    async with channel_of(args.server, args.tls_ca) as channel:
        retired = await ladder_service_pb2_grpc.LadderServiceStub(channel).RetireBot(
            lpb.RetireBotRequest(bot_id=args.bot or ""), metadata=metadata
        )
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(retired.retired_ms / 1000))
    print(f"bot {retired.bot.name} ({retired.bot.bot_id}) retired at {when}")
    return 0


_VERDICT_TEXT = {
    lpb.HEAD_TO_HEAD_VERDICT_A_STRONGER: "A is stronger",
    lpb.HEAD_TO_HEAD_VERDICT_NOT_STRONGER: "A is not stronger",
    lpb.HEAD_TO_HEAD_VERDICT_UNDECIDED: "undecided after max games",
}


async def _test(args: argparse.Namespace) -> int:
    """Start a head-to-head test and report it until it decides."""
    async with channel_of(args.server, args.tls_ca) as channel:
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        started = await ladder.StartHeadToHead(
            lpb.StartHeadToHeadRequest(
                game_id=args.game,
                bot_a=args.a,
                bot_b=args.b,
                max_games=args.max_games,
                p1=args.p1,
                decision_ms=args.decision_ms,
            ),
            metadata=owner_metadata(args),
        )
        print(f"test {started.test_id} started")
        ask = lpb.GetHeadToHeadRequest(test_id=started.test_id)
        while True:
            got = await ladder.GetHeadToHead(ask)
            games = got.wins + got.losses + got.draws
            void = f", {got.void_games} void" if got.void_games else ""
            waiting = "; waiting for a bot's worker" if got.waiting_for_workers else ""
            print(
                f"  {games} games{void}: +{got.wins} ={got.draws} -{got.losses}, "
                f"share {got.win_share:.3f} [{got.low:.3f}, {got.high:.3f}], "
                f"LLR {got.llr:.2f} in ({got.llr_lower:.2f}, {got.llr_upper:.2f}){waiting}"
            )
            if got.verdict in _VERDICT_TEXT:
                print(_VERDICT_TEXT[got.verdict])
                return 0
            await asyncio.sleep(2)


async def _show(args: argparse.Namespace) -> int:
    async with channel_of(args.server, args.tls_ca) as channel:
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        got = await ladder.GetLadder(lpb.GetLadderRequest(ladder_id=args.ladder))
    if args.json:
        print(
            json.dumps(json_format.MessageToDict(got, preserving_proto_field_name=True), indent=2)
        )
        return 0
    if args.ladder_command == "status":
        s = got.spec
        print(
            f"{got.ladder_id}: {s.game_id}, {s.seat_count} seats, {s.decision_ms} ms a decision, "
            f"{len(got.in_flight)}/{s.max_in_flight} in flight, {got.matches_played} played"
        )
        names = {row.bot.bot_id: row.bot.name for row in got.standings}
        for match in got.recent:
            seats = match_bots(match, names)
            places = ",".join(str(p) for p in match.places) or "-"
            print(f"  {match.match_id}  {match.status:9}  places {places:8} {seats}")
        return 0
    print(f"{'#':>3}  {'bot':24} {'rating':>7} {'interval':>16} {'matches':>7}")
    for row in got.standings:
        mark = "" if row.bot.active else "  (benched)"
        interval = f"{row.low:6.1f} - {row.high:5.1f}"
        print(
            f"{row.rank:>3}  {row.bot.name:24} {row.rating.conservative:7.2f} {interval:>16} "
            f"{row.matches:>7}{mark}"
        )
    now_ms = time.time() * 1000
    for row in got.standings:
        if not row.bot.active:
            said = f"{row.bot.name}: {bench_words(row.bot, now_ms)}"
            print(textwrap.fill(said, WIDTH, subsequent_indent="    "))
    return 0


async def _bots(args: argparse.Namespace) -> int:
    """Print the registered bots (a bot author's ids for ``retire`` and ``test``)."""
    async with channel_of(args.server, args.tls_ca) as channel:
        got = await ladder_service_pb2_grpc.LadderServiceStub(channel).ListBots(
            lpb.ListBotsRequest(game_id=args.game)
        )
    if args.json:
        print(json.dumps(json_format.MessageToDict(got, preserving_proto_field_name=True)))
        return 0
    if not got.bots:
        print("no bots registered" + (f" for {args.game}" if args.game else ""))
        return 0
    now_ms = time.time() * 1000
    print(f"{'bot':32} {'id':20}  games")
    for bot in got.bots:
        print(f"{bot.name:32} {bot.bot_id:20}  {', '.join(bot.game_ids)}")
        state = f"{bench_words(bot, now_ms) or 'active'}; {worker_words(bot, now_ms)}"
        print(textwrap.fill(state, WIDTH, initial_indent="    ", subsequent_indent="    "))
    return 0


async def _list(args: argparse.Namespace) -> int:
    """Print every ladder (all pages), or those of one game."""
    ladders: list[lpb.LadderSummary] = []
    # Unrated bots rank by their default rating, which may be above a rated bot's
    # conservative one: the table asks for the most rows and shows the rated ones.
    top = args.top if args.json else max(args.top, LEADERS_ASKED)
    async with channel_of(args.server, args.tls_ca) as channel:
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        token = ""
        while True:
            page = await ladder.ListLadders(
                lpb.ListLaddersRequest(game_id=args.game, page_size=100, page_token=token, top=top)
            )
            ladders += page.ladders
            token = page.next_page_token
            if not token:
                break
    if args.json:
        found = [json_format.MessageToDict(s, preserving_proto_field_name=True) for s in ladders]
        print(json.dumps({"ladders": found}, indent=2))
        return 0
    if not ladders:
        print("no ladders on this server yet (senet ladder start --game GAME starts one)")
        return 0
    print(
        f"{'ladder':16} {'state':16} {'clock':>8} {'in flight':>9} {'bots':>5} {'played':>7}  "
        + ("leader" if args.top == 1 else "leaders")
    )
    for summary in ladders:
        s = summary.spec
        rated = [row for row in summary.leaders if row.matches][: args.top]
        leaders = ", ".join(f"{row.bot.name} ({row.rating.conservative:.2f})" for row in rated)
        print(
            f"{summary.ladder_id:16} {LADDER_STATES.get(summary.state, '?'):16} "
            f"{s.decision_ms / 1000:7g}s {summary.in_flight:>4}/{s.max_in_flight:<4} "
            f"{summary.active_bots:>2}/{summary.bots:<2} {summary.matches_played:>7}  "
            f"{leaders or '-'}"
        )
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``senet ladder``; returns the exit status."""
    if args.ladder_command == "start":
        bots = parse_bots(args.bots, "ladder")
        if bots is None:
            return 2
        return run_calls("ladder", lambda: _start(args, bots))
    if args.ladder_command == "join":
        return run_join(args)
    if args.ladder_command == "retire":
        return run_calls("ladder", lambda: _retire(args))
    if args.ladder_command == "test":
        return run_calls("ladder", lambda: _test(args))
    if args.ladder_command == "bots":
        return run_calls("ladder", lambda: _bots(args))
    if args.ladder_command == "list":
        return run_calls("ladder", lambda: _list(args))
    return run_calls("ladder", lambda: _show(args))
