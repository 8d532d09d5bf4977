"""``senet serve --embedded-bot-workers N``: the workers the command line runs beside a server."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from senet.cli import NO_BOT_WORKERS
from senet.cli.beside import embedded_bot_workers
from senet.client.client import SenetClient
from senet.service.server import create_server
from senet.service.settings import Settings

ADMIN = "test-admin-key"
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
async def test_embedded_workers_play_every_bot_seat_and_stop_when_asked(capsys) -> None:
    settings = Settings(host="0.0.0.0", port=0, log_json=False, admin_key=ADMIN)
    running = await create_server(settings)
    stop = asyncio.Event()
    workers = asyncio.create_task(embedded_bot_workers(2)(running, stop))
    try:
        # The server binds every interface; its workers dial it on loopback.
        async with SenetClient(f"127.0.0.1:{running.port}", admin_key=ADMIN) as client:
            match_id = await client.create_match("mykerinos", 0, seed=5, bots=["random"] * 3)
            async with asyncio.timeout(60):
                async for _ in client.watch(match_id):
                    pass  # the stream ends after the finishing update
            final = await client.export(match_id)
        assert len(final.scores) == 3
        stop.set()
        await asyncio.wait_for(workers, 10)
    finally:
        workers.cancel()
        await running.stop()
    assert "2 bot worker(s) play bot seats in this process" in capsys.readouterr().out


def _serve(*flags: str) -> subprocess.Popen[str]:
    """``senet serve`` on a free port with ``flags`` and no key of any kind."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SENET_")}
    return subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--port", "0", "--no-log-json",
         "--log-level", "WARNING", *flags],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _stop(server: subprocess.Popen[str]) -> str:
    """Stop ``server``; what it wrote on stderr."""
    server.terminate()
    try:
        _, errors = server.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        _, errors = server.communicate()
    return errors


@pytest.mark.slow
async def test_a_server_nothing_could_reach_plays_bot_seats_itself() -> None:
    # No worker key and no admin key: no worker from outside could ever lease a bot
    # seat, so `senet serve` runs one inside unless told otherwise.
    server = _serve()
    try:
        assert server.stdout is not None
        address = server.stdout.readline().split()[4].rstrip(".(")
        assert "1 bot worker(s) play bot seats in this process" in "".join(
            server.stdout.readline() for _ in range(3)
        )
        async with SenetClient(address) as client:
            match_id = await client.create_match("archeos", 0, seed=3, bots=["greedy"] * 2)
            async with asyncio.timeout(120):
                async for _ in client.watch(match_id):
                    pass  # the stream ends after the finishing update
            assert len((await client.export(match_id)).scores) == 2
    finally:
        errors = _stop(server)
    assert NO_BOT_WORKERS not in errors


@pytest.mark.slow
def test_a_server_told_to_run_no_worker_where_none_could_reach_says_so() -> None:
    server = _serve("--embedded-bot-workers", "0")
    assert server.stdout is not None
    assert server.stdout.readline().startswith("Senet is serving on")
    assert NO_BOT_WORKERS in _stop(server)
