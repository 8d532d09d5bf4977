"""``senet tournament``: create a tournament on a running server, show it, export it.

``senet tournament create --game mykerinos --format swiss --bots random,greedy,mcts:50,...``
registers each built-in strategy at its budget as a bot, creates the tournament
with them (and any ``--bot ID`` registered elsewhere, and ``--player SUBJECT``
entrants), hosts the built-in bots until the tournament ends, then prints the
standings. ``show`` prints the standings and games, ``export`` the JSON of every
result.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from google.protobuf import json_format

from senet.bots.hosted import HostedBotWorker
from senet.cli.bot_calls import (
    BuiltInBot,
    add_owner_arguments,
    channel_of,
    parse_bots,
    register_bots,
    retire_keys,
    run_calls,
)
from senet.text.cli import add_server_argument
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc

_FORMATS = {"swiss": lpb.TOURNAMENT_FORMAT_SWISS, "round-robin": lpb.TOURNAMENT_FORMAT_ROUND_ROBIN}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet tournament`` subcommands to ``parser``."""
    add_server_argument(parser)
    parser.add_argument("--tls-ca", help="PEM file of the server's CA (enables TLS)")
    actions = parser.add_subparsers(dest="tournament_command", required=True)
    create = actions.add_parser("create", help="create a tournament, host its built-in bots")
    create.add_argument("--game", required=True, help="the game")
    create.add_argument("--name", default="", help="a name to show")
    create.add_argument("--seats", type=int, default=0, help="seats per game (default 2)")
    create.add_argument(
        "--format",
        choices=sorted(_FORMATS),
        default="swiss",
        help="how rounds are paired (default: swiss)",
    )
    create.add_argument("--rounds", type=int, default=0, help="Swiss rounds (default: log2)")
    create.add_argument(
        "--bots", default="", help="built-in bots to enter and host, strategy[:iterations],..."
    )
    create.add_argument("--bot", action="append", default=[], help="a registered bot's id")
    create.add_argument(
        "--player", action="append", default=[], help="a player entrant: SUBJECT[=NAME]"
    )
    create.add_argument("--decision-ms", type=int, default=5000, help="each decision's clock")
    add_owner_arguments(create, "identity token owning the entered bots (env SENET_IDENTITY)")
    for name in ("show", "export"):
        shown = actions.add_parser(name, help=f"{name} a tournament")
        shown.add_argument("--id", required=True, help="the tournament's id")
        if name == "show":
            shown.add_argument("--json", action="store_true", help="print JSON")
    for sub in actions.choices.values():  # given after the subcommand too
        add_server_argument(sub, beside=True)
        sub.add_argument("--tls-ca", default=argparse.SUPPRESS, help=argparse.SUPPRESS)


def print_standings(got: lpb.GetTournamentResponse) -> None:
    print(f"{got.name}: {got.game_id}, round {got.round} of {got.rounds}, {got.status}")
    print(f"{'#':>3}  {'entrant':28} {'points':>6} {'buchholz':>8} {'wins':>4} {'played':>6}")
    for s in got.standings:
        print(
            f"{s.rank:>3}  {s.display_name[:28]:28} {s.points:6.1f} {s.buchholz:8.1f} "
            f"{s.wins:>4} {s.played:>6}"
        )


async def _create(args: argparse.Namespace, bots: list[BuiltInBot]) -> int:
    async with channel_of(args.server, args.tls_ca) as channel:
        stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
        admin = (("x-senet-admin-key", args.admin_key),) if args.admin_key else ()
        named = [(f"{bot.name}.{i}", [args.game]) for i, bot in enumerate(bots)]
        entrants, keys = [], []
        hosted = await register_bots(channel, args, named, "host", off_ladders=True)
        for registered in hosted:
            entrants.append(lpb.TournamentEntrant(bot_id=registered.bot.bot_id))
            keys.append(registered.bot_key)
        entrants += [lpb.TournamentEntrant(bot_id=b) for b in args.bot]
        for player in args.player:
            subject, _, name = player.partition("=")
            entrants.append(lpb.TournamentEntrant(subject=subject, display_name=name))
        created = await stub.CreateTournament(
            lpb.CreateTournamentRequest(
                name=args.name,
                game_id=args.game,
                seat_count=args.seats,
                format=_FORMATS[args.format],
                rounds=args.rounds,
                entrants=entrants,
                decision_ms=args.decision_ms,
            ),
            metadata=admin,
        )
        print(f"tournament {created.tournament_id} created")
        if not bots:
            return 0
        workers = [
            HostedBotWorker(args.server, key, bot.strategy, iterations=bot.iterations, capacity=2)
            for bot, key in zip(bots, keys, strict=True)
        ]
        tasks = [asyncio.create_task(w.run()) for w in workers]
        ask = lpb.GetTournamentRequest(tournament_id=created.tournament_id)
        try:
            while (got := await stub.GetTournament(ask)).status != "finished":
                await asyncio.sleep(1)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            # Registered for this tournament only (kept off ladders all along):
            # off the server's listings with it (their ratings and matches stay).
            await retire_keys(channel, keys)
        print_standings(got)
    return 0


async def _show(args: argparse.Namespace) -> int:
    async with channel_of(args.server, args.tls_ca) as channel:
        stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
        if args.tournament_command == "export":
            got = await stub.ExportTournament(lpb.ExportTournamentRequest(tournament_id=args.id))
            print(json.dumps(json.loads(got.results_json), indent=2))
            return 0
        shown = await stub.GetTournament(lpb.GetTournamentRequest(tournament_id=args.id))
    if args.json:
        print(json.dumps(json_format.MessageToDict(shown, preserving_proto_field_name=True)))
        return 0
    print_standings(shown)
    for game in shown.games:
        places = ",".join(str(p) for p in game.places) or "-"
        print(f"  round {game.round}  {game.match_id}  {game.status:9} places {places}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``senet tournament``; returns the exit status."""
    if args.tournament_command == "create":
        bots = parse_bots(args.bots, "tournament")
        if bots is None:
            return 2
        return run_calls("tournament", lambda: _create(args, bots))
    return run_calls("tournament", lambda: _show(args))
