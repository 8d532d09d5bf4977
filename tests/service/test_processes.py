"""`senet serve --processes N`: N server processes share one port over one Redis,
under a supervisor that restarts a dead one, serves their metrics as one, and
stops them all on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import grpc
import pytest

from senet.service import processes
from senet.v1 import match_service_pb2 as ms
from senet.v1 import match_service_pb2_grpc
from tests.service.conftest import REPO, free_port

pytestmark = pytest.mark.slow


def _children(pid: int) -> set[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return {int(line) for line in found.stdout.split()}


async def _list_games_on_fresh_channels(address: str, count: int) -> None:
    """One call per new connection: the kernel spreads connections over the processes."""
    for _ in range(count):
        async with grpc.aio.insecure_channel(address) as channel:
            stub = match_service_pb2_grpc.MatchServiceStub(channel)
            reply = await stub.ListGames(ms.ListGamesRequest(), timeout=10)
            assert reply.games


def _metric(port: int, name: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(name + "{") and 'method="ListGames"' in line
    )


async def test_processes_share_a_port_restart_and_stop(
    redis_url: str, redis_key_prefix: str, tmp_path: Path
) -> None:
    port, metrics_port = free_port(), free_port()
    log = (tmp_path / "serve.log").open("wb")
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--processes", "2",
         "--port", str(port), "--metrics-port", str(metrics_port),
         "--redis-url", redis_url, "--key-prefix", redis_key_prefix,
         "--no-log-json", "--drain-notice-s", "0", "--drain-grace-s", "0.5"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=log,
        env={**os.environ, "SENET_LOG_LEVEL": "INFO"},
    )  # fmt: skip
    try:
        assert supervisor.stdout is not None
        banner = supervisor.stdout.readline().decode()
        assert banner.startswith(f"Senet is serving on 127.0.0.1:{port} (2 processes"), banner
        # No worker or admin key: nothing from outside could play bot seats.
        workers = supervisor.stdout.readline().decode()
        assert workers.strip() == "1 bot worker(s) play bot seats in each process", workers
        first = _children(supervisor.pid)
        assert len(first) == 2
        address = f"127.0.0.1:{port}"
        await _list_games_on_fresh_channels(address, 20)
        assert _metric(metrics_port, "senet_rpcs_total") == 20  # both processes, summed

        os.kill(min(first), signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            now = _children(supervisor.pid)
            if len(now) == 2 and now != first:
                break
            await asyncio.sleep(0.2)
        assert len(now) == 2 and min(first) not in now  # replaced
        await _list_games_on_fresh_channels(address, 10)  # the port is served throughout

        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(30) == 0
        assert not _children(supervisor.pid)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait()
        log.close()
    logged = (tmp_path / "serve.log").read_text()
    assert "restarting" in logged
    # Each process's lines say which it is (an operator saw two identical
    # "senet listening" lines), and a process says when it has stopped (the
    # replacement may still be starting when the supervisor is told to stop).
    listening = [line for line in logged.splitlines() if "senet listening" in line]
    assert {"process_index=0", "process_index=1"} <= {
        word for line in listening for word in line.split() if word.startswith("process_index=")
    }
    assert "INFO senet.server stopped process_index=" in logged, logged[-3000:]


async def test_server_processes_stop_when_the_supervisor_is_killed(
    redis_url: str, redis_key_prefix: str
) -> None:
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--processes", "2", "--port", "0",
         "--redis-url", redis_url, "--key-prefix", redis_key_prefix, "--no-log-json",
         "--log-level", "ERROR", "--drain-notice-s", "0", "--drain-grace-s", "0.5"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert supervisor.stdout is not None
        assert supervisor.stdout.readline().startswith(b"Senet is serving")
        orphans = _children(supervisor.pid)
        assert len(orphans) == 2
    finally:
        supervisor.kill()
        supervisor.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(pid) for pid in orphans):
        await asyncio.sleep(0.2)
    assert not any(_alive(pid) for pid in orphans)


async def test_a_process_orphaned_before_it_first_looks_still_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The supervisor may be killed between a child's banner and the child's first
    look at its parent (the test above failed so under load): the adopting
    process is then the parent the child first sees, and only the pid the
    supervisor gave the child tells them apart."""
    monkeypatch.setenv(processes.SUPERVISOR_PID, str(os.getpid()))  # never our parent
    stop = asyncio.Event()
    async with asyncio.timeout(30):
        await processes.stop_when_orphaned(stop, interval_s=0.01)
    assert stop.is_set()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"  # a zombie has exited


def test_several_processes_need_redis() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "senet.cli", "serve", "--processes", "2", "--port", "0"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
        env={k: v for k, v in os.environ.items() if k != "SENET_REDIS_URL"},
    )  # fmt: skip
    assert done.returncode == 2
    assert "need a shared store: give --redis-url" in done.stderr
