"""``senet serve --embedded-bot-workers N``: the workers the command line runs beside a
server; and workers the server refuses, which stop and say why."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from senet.bots.hosted import HostedBotWorker
from senet.bots.worker import CREDENTIALS, BotWorker, WorkerRefused
from senet.cli import NO_BOT_WORKERS, main
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


def _serve(*flags: str) -> tuple[subprocess.Popen[str], str]:
    """``senet serve`` on a free port with ``flags`` and no key of any kind, and its
    address once its banner says it serves (the lines after it are left to read)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SENET_")}
    server = subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--port", "0", "--no-log-json",
         "--log-level", "WARNING", *flags],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    banner = server.stdout.readline()
    if not banner.startswith("Senet is serving on"):
        pytest.fail(f"senet serve did not start: {banner!r} {_stop(server)}")
    return server, banner.split()[4].rstrip(".(")


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
    server, address = _serve()
    try:
        assert server.stdout is not None
        # After the banner (its grpcurl hints are for a terminal only), the workers.
        workers = server.stdout.readline()
        assert workers.strip() == "1 bot worker(s) play bot seats in this process", workers
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
    server, _ = _serve("--embedded-bot-workers", "0")  # its banner checked there
    assert NO_BOT_WORKERS in _stop(server)


@pytest.mark.parametrize(
    ("worker_key", "admin_key"),
    [("", ""), ("not-the-key", ""), ("", "not-the-key")],
    ids=["none", "wrong-worker-key", "wrong-admin-key"],
)
async def test_a_worker_the_server_refuses_stops_and_says_why(
    worker_key: str, admin_key: str
) -> None:
    settings = Settings(port=0, log_json=False, worker_key="the-key", embedded_bot_workers=0)
    running = await create_server(settings)
    try:
        worker = BotWorker(
            f"127.0.0.1:{running.port}", worker_key=worker_key, admin_key=admin_key, lease_ms=600
        )
        with pytest.raises(WorkerRefused, match="WORKER_KEY_REQUIRED"):
            await asyncio.wait_for(worker.run(), 30)  # not retried for ever
    finally:
        await running.stop()


async def test_a_hosted_bot_with_a_dead_key_stops() -> None:
    running = await create_server(Settings(port=0, log_json=False))
    try:
        worker = HostedBotWorker(f"127.0.0.1:{running.port}", "sbk_guess", "random", lease_ms=600)
        with pytest.raises(WorkerRefused, match="BAD_BOT_KEY"):
            await asyncio.wait_for(worker.run(), 30)
    finally:
        await running.stop()


@pytest.mark.slow
def test_senet_bots_refused_exits_with_what_it_needs() -> None:
    server, address = _serve()  # no keys: no outside worker is let in
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SENET_")}
        done = subprocess.run(
            [sys.executable, "-m", "senet.cli", "bots", "--server", address],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    finally:
        _stop(server)
    assert done.returncode == 2
    assert "WORKER_KEY_REQUIRED" in done.stderr
    assert CREDENTIALS in done.stderr


@pytest.mark.slow
def test_an_arena_whose_workers_are_refused_stops_and_says_why(capsys) -> None:
    # Before, its workers retried for ever and the arena waited on matches nobody played.
    server, address = _serve("--worker-key", "the-key", "--embedded-bot-workers", "0")
    try:
        argv = ["arena", "--server", address, "--players", "greedy,random", "--matches", "2"]
        assert main([*argv, "--worker-key", "not-the-key", "--processes", "0"]) == 2
    finally:
        _stop(server)
    out = " ".join(capsys.readouterr().out.split())
    assert "refuses the arena's bot workers (WORKER_KEY_REQUIRED" in out


@pytest.mark.slow
def test_senet_bot_on_a_match_that_is_not_there_says_so(capsys) -> None:
    server, address = _serve("--embedded-bot-workers", "0")
    try:
        argv = ["bot", "--server", address, "--match", "0" * 16, "--seat", "0"]
        assert main([*argv, "--token", "st_nothing"]) == 2
    finally:
        _stop(server)
    assert "senet bot: MATCH_NOT_FOUND" in capsys.readouterr().err
