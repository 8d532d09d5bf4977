"""``senet serve --embedded-bot-workers N``: the workers the command line runs beside a server."""

from __future__ import annotations

import asyncio

import pytest

from senet.cli.beside import embedded_bot_workers
from senet.client.client import SenetClient
from senet.service.server import create_server
from senet.service.settings import Settings

ADMIN = "test-admin-key"


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
