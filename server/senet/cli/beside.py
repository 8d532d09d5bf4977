"""What runs beside what in one process: bot workers beside a server, a server beside an arena.

Each is an ordinary gRPC client or server, exactly as in separate processes; only
the process is shared. The server module is imported inside the functions, so the
commands that start no server (``senet play``, ``senet bots``) do not load it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from senet.bots.worker import BotWorker

if TYPE_CHECKING:
    from senet.service.server import Companion, RunningServer

#: Hosts a server binds to that no client can dial: its workers dial loopback instead.
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


def embedded_bot_workers(count: int) -> Companion:
    """A companion for :func:`senet.service.server.serve`: ``count`` bot workers of that server.

    ``senet serve --embedded-bot-workers N`` (``make run``) uses it so that bot seats
    are played with no other process.
    """

    async def run(server: RunningServer, stop: asyncio.Event) -> None:
        host = "127.0.0.1" if server.settings.host in WILDCARD_HOSTS else server.settings.host
        workers = [
            BotWorker(
                f"{host}:{server.port}",
                admin_key=server.settings.admin_key,
                worker_key=server.settings.worker_key,
                check_rules=False,  # the server's own process: the same rules core
            )
            for _ in range(count)
        ]
        print(f"  {len(workers)} bot worker(s) play bot seats in this process", flush=True)
        await asyncio.gather(*(bot_worker.run(stop) for bot_worker in workers))

    return run


@contextlib.asynccontextmanager
async def embedded_server(worker_key: str = "") -> AsyncIterator[str]:
    """An in-process server on a free loopback port and the memory store; yields its address.

    The server of ``senet arena --server embedded``, stopped when the tournament ends.
    Its BotService lets in only callers with ``worker_key`` (the arena's own workers).
    """
    from senet.service.server import create_server
    from senet.service.settings import Settings

    settings = Settings(port=0, log_json=False, host="127.0.0.1", worker_key=worker_key)
    server = await create_server(settings)
    try:
        yield f"127.0.0.1:{server.port}"
    finally:
        await server.stop()
