"""Scaling shown across hosts: three replicas on three hosts, one lost mid-play.

Five hosts (network namespaces on one bridge, see :mod:`tests.hosts`): Redis on
one, a ``senet serve`` replica on each of three, and the clients on the fifth
(:mod:`tests.scale.driver`: 64 matches, every seat played by a bot, the matches
spread over the replicas). Once every match is under way, the second replica's
link is cut at the switch and its process killed: its clients see nothing at
all (no reset), notice through keepalive pings, fail over to another replica and
resume. Every match must finish, and every export must replay with the rules
core and contain each acknowledged action exactly once, at the version
acknowledged.

Where the machine refuses network namespaces, the hosts are loopback addresses
and the replica is only killed (its clients then get a reset); the test says so.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from senet.v1 import match_service_pb2 as ms
from tests.hosts import Hosts, make_hosts
from tests.scale.driver import ADMIN_KEY, SEATS
from tests.service.conftest import replay_export

pytestmark = pytest.mark.netns

MATCHES = 64
PORT = 50051
#: Fewest actions acknowledged in every match before the replica is lost.
CUT_AFTER = 12
#: Bounds on waiting, so that a broken run fails instead of hanging CI.
START_TIMEOUT_S = 60.0
RUN_TIMEOUT_S = 240.0
REPLICA_HOSTS = ["server0", "server1", "server2"]
HOSTS = ["redis", *REPLICA_HOSTS, "clients"]
LOST = "server1"


class Lines:
    """Reads a child's stdout lines with a deadline (the pipe is non-blocking)."""

    def __init__(self, stream: IO[bytes]) -> None:
        os.set_blocking(stream.fileno(), False)
        self._stream = stream
        self._buffer = b""

    def until(self, wanted: str, deadline: float, proc: subprocess.Popen[bytes]) -> str:
        """The first line starting with ``wanted``; fails at the deadline or on exit."""
        while True:
            chunk = self._stream.read() or b""
            self._buffer += chunk
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                text = line.decode()
                if text.startswith(wanted):
                    return text
            if proc.poll() is not None and not chunk:
                raise AssertionError(f"process exited ({proc.returncode}) before {wanted!r}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {wanted!r} line in time")
            time.sleep(0.05)


@pytest.fixture
def hosts() -> Iterator[Hosts]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    with make_hosts(HOSTS) as made:
        if not made.isolated:
            reason = f"scale test on loopback processes, not namespaces: {made.reason}"
            warnings.warn(reason, stacklevel=1)
        yield made


def start_redis(hosts: Hosts, tmp_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Redis on its host; returns the process and its URL."""
    address = hosts.address["redis"]
    port = hosts.port("redis", 6379)
    proc = hosts.spawn(
        "redis",
        [
            shutil.which("redis-server") or "redis-server",
            "--bind", address, "--port", str(port), "--protected-mode", "no",
            "--save", "", "--appendonly", "no", "--dir", str(tmp_path),
        ],
        tmp_path / "redis.log",
    )  # fmt: skip
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            probe = hosts.command("redis", ["redis-cli", "-h", address, "-p", str(port), "ping"])
            if b"PONG" in subprocess.run(probe, capture_output=True, timeout=5).stdout:
                return proc, f"redis://{address}:{port}/0"
        except subprocess.TimeoutExpired:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "redis did not start"
        time.sleep(0.05)


def start_server(
    hosts: Hosts, host: str, redis_url: str, tmp_path: Path
) -> tuple[subprocess.Popen[bytes], str]:
    """A replica on its host; returns the process and its address."""
    address = f"{hosts.address[host]}:{hosts.port(host, PORT)}"
    proc = hosts.spawn(
        host,
        [
            sys.executable, "-m", "senet.cli", "serve",
            "--host", hosts.address[host], "--port", address.rpartition(":")[2],
            "--redis-url", redis_url,
            "--admin-key", ADMIN_KEY, "--no-log-json", "--log-level", "WARNING",
            "--heartbeat-s", "0.5", "--drain-grace-s", "0.5",
        ],
        tmp_path / f"{host}.log",
        stdout=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    Lines(proc.stdout).until("Senet is serving", time.monotonic() + START_TIMEOUT_S, proc)
    return proc, address


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)


def check_match(record: dict[str, Any]) -> tuple[int, int]:
    """Replay one match's export; check every acknowledgement against it.

    Returns (actions in the match, acknowledgements that were duplicates).
    """
    export = ms.ExportMatchResponse.FromString(base64.b64decode(record["export_b64"]))
    # Only finished matches can be exported (the seed is secret until then).
    logged = [(a.version, a.seat, a.notation) for a in export.actions]
    assert [v for v, _seat, _notation in logged] == list(range(1, len(logged) + 1))
    state = replay_export(export)  # the rules core accepts every action, in order
    assert state.is_over()
    assert list(export.scores) == state.scores()
    acked: dict[int, tuple[int, int, str]] = {}
    for ack in record["acks"]:
        key = (ack["version"], ack["seat"], ack["notation"])
        # One version is acknowledged to one seat; a retry's duplicate agrees with it.
        assert acked.setdefault(ack["version"], key) == key
    assert set(acked.values()) <= set(logged)  # nothing acknowledged was lost
    # Both seats together acknowledged every action of the match but those whose
    # reply was lost with the replica (each then shows up in the log anyway).
    return len(logged), sum(a["duplicate"] for a in record["acks"])


@pytest.mark.slow
def test_64_matches_survive_losing_one_of_three_replica_hosts(hosts: Hosts, tmp_path: Path) -> None:
    procs: list[subprocess.Popen[bytes]] = []
    try:
        redis_proc, redis_url = start_redis(hosts, tmp_path)
        procs.append(redis_proc)
        servers = {h: start_server(hosts, h, redis_url, tmp_path) for h in REPLICA_HOSTS}
        procs += [proc for proc, _address in servers.values()]
        targets = [address for _proc, address in servers.values()]
        results = tmp_path / "results.json"
        driver = hosts.spawn(
            "clients",
            [
                sys.executable, "-m", "tests.scale.driver", "--targets", ",".join(targets),
                "--matches", str(MATCHES), "--keepalive-s", "1", "--out", str(results),
            ],
            tmp_path / "driver.log",
            stdout=subprocess.PIPE,
        )  # fmt: skip
        procs.append(driver)
        assert driver.stdout is not None
        lines = Lines(driver.stdout)
        deadline = time.monotonic() + RUN_TIMEOUT_S
        lines.until(f"created {MATCHES}", deadline, driver)
        while int(lines.until("progress", deadline, driver).split()[1]) < CUT_AFTER:
            pass

        if hosts.isolated:
            hosts.cut(LOST)  # first the network: the clients see silence, not a reset
        stop(servers[LOST][0])
        lines.until("done", deadline, driver)
        assert driver.wait(timeout=30) == 0
        records = json.loads(results.read_text())
    except BaseException:
        for log in sorted(tmp_path.glob("*.log")):
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}")
        raise
    finally:
        for proc in reversed(procs):
            stop(proc)

    assert len(records) == MATCHES
    lost_target = targets[list(servers).index(LOST)]
    started_there = [r for r in records if r["first_target"] == lost_target]
    assert len(started_there) in (MATCHES // 3, MATCHES // 3 + 1)  # spread evenly
    # Every seat client that was on the lost replica moved to another one.
    assert all(len(r["failovers"]) == SEATS for r in records)
    assert all(min(r["failovers"]) >= 1 for r in started_there)
    totals = [check_match(r) for r in records]
    actions = sum(n for n, _dups in totals)
    assert actions > MATCHES * CUT_AFTER
    assert len({r["match_id"] for r in records}) == MATCHES
    print(
        f"{MATCHES} matches, {actions} actions, {len(started_there)} matches failed over"
        f" ({'network namespaces' if hosts.isolated else 'loopback: ' + hosts.reason})"
    )
