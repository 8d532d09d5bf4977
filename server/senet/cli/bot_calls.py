"""What the commands that register bots share: built-in bots at a budget, the
owner's flags, the channel, and the calls' errors as exit statuses."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from senet.bots.base import StrategySpec
from senet.bots.hosted import BOT_KEY_HEADER
from senet.client.client import grpc_target
from senet.client.players import IDENTITY_HEADER
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc, player_service_pb2_grpc
from senet.v1 import player_service_pb2 as ppb

T = TypeVar("T")
#: A ladder's state in words (``senet ladder list`` and ``join``).
LADDER_STATES = {
    lpb.LADDER_STATE_RUNNING: "running",
    lpb.LADDER_STATE_PAUSED: "paused",
    lpb.LADDER_STATE_WAITING_FOR_BOTS: "waiting for bots",
}


@dataclass(frozen=True)
class BuiltInBot:
    """A built-in strategy at a budget, entered as a bot (``mcts:400``: 400 iterations)."""

    strategy: str
    iterations: int | None = None

    @property
    def name(self) -> str:
        return self.strategy if self.iterations is None else f"{self.strategy}-{self.iterations}"

    @classmethod
    def parse(cls, text: str) -> BuiltInBot:
        """A strategy spec (:class:`~senet.bots.base.StrategySpec`) at an iteration
        budget or none: a bot's strength must not depend on the machine it runs on.

        Raises: ValueError for an unknown strategy, a bad budget or a time budget.
        """
        spec = StrategySpec.parse(text)
        if spec.seconds is not None:
            raise ValueError(
                f"{text.strip()!r}: a hosted bot's budget is iterations ({spec.strategy}:400 "
                f"or {spec.strategy}@400i), so that its strength does not depend on the machine"
            )
        return cls(spec.strategy, spec.iterations)


def parse_bots(text: str, command: str) -> list[BuiltInBot] | None:
    """The built-in bots of a ``strategy[:iterations],...`` list; None (after saying
    why on stderr) when one is unknown or badly budgeted."""
    try:
        return [BuiltInBot.parse(t) for t in text.split(",") if t.strip()]
    except ValueError as exc:
        print(f"senet {command}: {exc}", file=sys.stderr)
        return None


def add_owner_arguments(parser: argparse.ArgumentParser, identity_help: str) -> None:
    """``--identity`` and ``--admin-key``: who owns the bots a command registers."""
    parser.add_argument(
        "--identity", default=os.environ.get("SENET_IDENTITY", ""), help=identity_help
    )
    parser.add_argument(
        "--admin-key", default=os.environ.get("SENET_ADMIN_KEY", ""), help="the server's admin key"
    )


def owner_metadata(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """The ``--identity`` and ``--admin-key`` given, as call metadata."""
    headers = [(IDENTITY_HEADER, args.identity)] if args.identity else []
    headers += [("x-senet-admin-key", args.admin_key)] if args.admin_key else []
    return tuple(headers)


def run_calls(command: str, work: Callable[[], Coroutine[Any, Any, T]]) -> T | int:
    """Run a command's calls: what they return; a refused call is its message on
    stderr and status 1, an interrupt a clean exit (status 0)."""
    try:
        return asyncio.run(work())
    except grpc.aio.AioRpcError as exc:
        print(f"senet {command}: {exc.code().name}: {exc.details()}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0


def channel_of(server: str, tls_ca: str | None) -> grpc.aio.Channel:
    """A channel to ``server`` (a ``--server`` value: :func:`grpc_target`), with TLS
    when a CA file is given."""
    server = grpc_target(server)
    if tls_ca:
        with open(tls_ca, "rb") as pem:
            return grpc.aio.secure_channel(server, grpc.ssl_channel_credentials(pem.read()))
    return grpc.aio.insecure_channel(server)


async def retire_keys(channel: grpc.aio.Channel, keys: Sequence[str]) -> list[str]:
    """Retire the bots these keys play (each key retires its own bot, whoever owns
    it; a retry answers the same); their names."""
    stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
    names = []
    for key in keys:
        retired = await stub.RetireBot(lpb.RetireBotRequest(), metadata=((BOT_KEY_HEADER, key),))
        names.append(retired.bot.name)
    return names


async def register_bots(
    channel: grpc.aio.Channel,
    args: argparse.Namespace,
    bots: Sequence[tuple[str, Sequence[str]]],
    guest_name: str,
    *,
    off_ladders: bool = False,
) -> list[lpb.RegisterBotResponse]:
    """Register each ``(name, games)`` as a bot of ``--identity``'s, or of one new
    guest's (named ``guest_name``); the answers, with the keys. ``--admin-key`` is
    sent too: it lets the bots in where the server's registration policy refuses
    their owner (a guest, on a server with an admin key). ``off_ladders`` keeps
    them off every ladder (a tournament's own bots)."""
    if not bots:
        return []
    identity = args.identity
    if not identity:
        players = player_service_pb2_grpc.PlayerServiceStub(channel)
        guest = await players.RegisterGuest(ppb.RegisterGuestRequest(display_name=guest_name))
        identity = guest.identity_token
    admin = (("x-senet-admin-key", args.admin_key),) if args.admin_key else ()
    ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
    return [
        await ladder.RegisterBot(
            lpb.RegisterBotRequest(name=name, game_ids=list(games), off_ladders=off_ladders),
            metadata=((IDENTITY_HEADER, identity), *admin),
        )
        for name, games in bots
    ]
