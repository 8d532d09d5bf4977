"""Shared fixtures: a private, throw-away Redis server for the whole test session.

Tests never touch a Redis already running on the machine: ``redis_server``
starts its own ``redis-server`` on a free loopback port, without persistence, in
a temporary directory, and kills it when the session ends. Tests that need Redis
are skipped (with the reason) when ``redis-server`` is not installed; set
``SENET_REDIS_SERVER`` to use a binary outside ``PATH``.

The test-only games of ``tests/plugins`` (Pebbles) are enabled here, at import time,
for the tests and every process they start.
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import redis

from senet.games import get_game
from senet.games.interface import GameInfo
from tests import plugins
from tests.cluster import LocalCluster, local_cluster

# The test-only games (tests/plugins) are registered before any test asks a registry.
plugins.enable()

_START_TIMEOUT_S = 10.0

#: Time budget of one store operation for tests that are not about the budget (the
#: server's default is 2 s). On a loaded machine a Redis Cluster call can take longer
#: than that, and the test would fail with StoreUnavailable for a reason it does not
#: test; the budget tests (tests/store/test_store_budget.py) set their own.
STORE_BUDGET_S = 20.0


#: Fixtures and parameters that put a test on the Redis Cluster.
_CLUSTER_FIXTURES = frozenset({"redis_cluster", "redis_cluster_url"})
_CLUSTER_PARAM = "redis-cluster"


def _on_the_cluster(item: pytest.Item) -> bool:
    if _CLUSTER_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and _CLUSTER_PARAM in callspec.params.values()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test on the Redis Cluster is slow: the cluster (three servers per worker)
    belongs to ``make test``, not to ``make quick``. Runs before ``-m`` deselects.

    Then slow tests first (in their own order), so that spread over workers the long
    ones start early and the quick ones fill in at the end, instead of a few long
    ones running alone after everything else."""
    for item in items:
        if _on_the_cluster(item):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


class RedisServer:
    """A ``redis-server`` child process that tests may stop and restart.

    The port stays the same across restarts so clients configured with
    :attr:`url` reconnect to the new process, as they would after a real outage.
    """

    def __init__(self, executable: str, workdir: Path) -> None:
        self.executable = executable
        self.workdir = workdir
        self.port = _free_port()
        self._proc: subprocess.Popen[bytes] | None = None
        self._log = workdir / "redis.log"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    #: Persistence flags; subclasses that must survive a restart override them.
    persistence: tuple[str, ...] = ("--appendonly", "no")

    def start(self) -> None:
        """Start the server (no-op if running) and wait until it answers PING."""
        if self.running:
            return
        self._proc = subprocess.Popen(
            [
                self.executable,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                *self.persistence,
                "--dir", str(self.workdir),
                "--logfile", str(self._log),
                "--daemonize", "no",
                # DEBUG SLEEP stalls this Redis in the outage tests and the soak.
                "--enable-debug-command", "local",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + _START_TIMEOUT_S
        while True:
            if self._proc.poll() is not None:
                raise RuntimeError(f"redis-server exited at start-up:\n{self._log_tail()}")
            try:
                with redis.Redis(port=self.port, socket_timeout=0.5) as client:
                    if client.ping():
                        return
            except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not answer:\n{self._log_tail()}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Kill the server (its data is lost: it runs without persistence)."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.kill()
        proc.wait(timeout=_START_TIMEOUT_S)

    def flushall(self) -> None:
        with redis.Redis(port=self.port, socket_timeout=2) as client:
            client.flushall()

    def _log_tail(self) -> str:
        try:
            return "\n".join(self._log.read_text(errors="replace").splitlines()[-20:])
        except OSError:
            return "(no log)"


def _free_port() -> int:
    """A loopback port that was free a moment ago (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def http_serving(handler: Callable[..., BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on a free loopback port in a thread, for the block: yields
    ``http://127.0.0.1:<port>`` (a provider's keys, an example's files)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """``folder`` held by this process alone: pytest-xdist workers share the checkout,
    and two ``npm ci`` (or builds) at once delete each other's files."""
    with (folder / ".senet-test.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def npm_installed(folder: Path, installed_marker: str, build_script: str | None = None) -> Path:
    """``folder``'s locked npm dependencies, installed (``npm ci``) unless
    ``node_modules/<installed_marker>`` is there already, then ``npm run
    <build_script>`` once per test session; skips without Node.js."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("Node.js and npm are not installed")
    with _folder_locked(folder):
        if not (folder / "node_modules" / installed_marker).is_dir():
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund"],
                cwd=folder, check=True, capture_output=True, timeout=600,
            )  # fmt: skip
        if build_script is not None:
            stamp = folder / "node_modules" / f".senet-built-{build_script}"
            session = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
            if not stamp.is_file() or stamp.read_text() != session:
                subprocess.run(
                    ["npm", "run", build_script],
                    cwd=folder, check=True, capture_output=True, timeout=300,
                )  # fmt: skip
                stamp.write_text(session)
    return folder


def play_rules_version(monkeypatch: pytest.MonkeyPatch, game_id: str, version: int) -> GameInfo:
    """This process plays ``game_id`` under rules ``version`` (servers, clients and
    checkers in it alike) for the test's duration: an upgrade, or an older release."""
    game_class = type(get_game(game_id))
    info = dataclasses.replace(game_class.info, rules_version=version)
    monkeypatch.setattr(game_class, "info", info)
    return info


def quiet_log(self: Any, format: str, *args: Any) -> None:
    """A request handler's ``log_message`` that logs nothing (tests stay quiet)."""


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """The session's private Redis server (object with ``.url``, ``.stop()``, ``.start()``)."""
    executable = os.environ.get("SENET_REDIS_SERVER") or shutil.which("redis-server")
    if executable is None:
        pytest.skip("redis-server is not installed (install it, or set SENET_REDIS_SERVER)")
    with tempfile.TemporaryDirectory(prefix="senet-redis-") as tmp:
        server: RedisServer | None = None
        error: RuntimeError | None = None
        for _attempt in range(3):  # the free port may be taken before redis binds it
            server = RedisServer(executable, Path(tmp))
            try:
                server.start()
                break
            except RuntimeError as e:
                server, error = None, e
        if server is None:
            pytest.fail(f"could not start a private redis-server: {error}")
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """URL of the private Redis, running and empty at the start of the test.

    Restarts the server if an earlier test stopped it and failed before
    restarting it, so one failure does not cascade.
    """
    redis_server.start()
    redis_server.flushall()
    return redis_server.url


@pytest.fixture
def redis_key_prefix() -> str:
    """A key prefix no other test uses (for tests that must not flush Redis)."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[LocalCluster]:
    """The session's private three-master Redis Cluster (see :mod:`tests.cluster`)."""
    executable = os.environ.get("SENET_REDIS_SERVER") or shutil.which("redis-server")
    if executable is None:
        pytest.skip("redis-server is not installed (install it, or set SENET_REDIS_SERVER)")
    with (
        tempfile.TemporaryDirectory(prefix="senet-cluster-") as tmp,
        local_cluster(executable, Path(tmp)) as cluster,
    ):
        yield cluster


@pytest.fixture
def redis_cluster_url(redis_cluster: LocalCluster) -> str:
    """URL of the private Redis Cluster, emptied at the start of the test."""
    redis_cluster.flushall()
    return redis_cluster.url
