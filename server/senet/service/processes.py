"""Several server processes behind one port, to use every core of a machine.

One Python process runs one event loop on one core. ``senet serve --processes N``
starts N server processes that bind the same port with ``SO_REUSEPORT``, so the
kernel spreads incoming connections over them; they share the match store
(Redis), as replicas on separate machines do, so any process serves any match.
This process supervises them: it forwards SIGTERM/SIGINT (each child drains as a
lone server would), restarts a child that dies, and serves their Prometheus
metrics as one (``prometheus_client``'s multiprocess mode).

The embedded in-memory store lives inside one process, so several processes
need Redis.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
import tempfile
from dataclasses import fields, replace

from senet.service.logs import PROCESS_INDEX
from senet.service.settings import Settings

log = logging.getLogger("senet.server")

#: Set in a child's environment: the supervisor's process id (a child serves,
#: and never supervises).
SUPERVISOR_PID = "SENET_SUPERVISOR_PID"
_RESTART_DELAY_S = 1.0


def is_child() -> bool:
    """Whether this process is one of a supervisor's server processes."""
    return bool(os.environ.get(SUPERVISOR_PID))


async def stop_when_orphaned(stop: asyncio.Event, interval_s: float = 1.0) -> None:
    """Set ``stop`` once the supervisor is gone (killed without forwarding a
    signal): a server process must not outlive it, unsupervised and unseen.

    The supervisor is known by the pid it gave the child, not by the child's
    parent when this starts: the supervisor may die between the child's banner
    and this task's first step, and the parent read then would be the process
    that adopted the orphan.
    """
    supervisor = int(os.environ[SUPERVISOR_PID])
    while os.getppid() == supervisor:
        await asyncio.sleep(interval_s)
    log.warning("the supervisor is gone; draining")
    stop.set()


def check(settings: Settings) -> None:
    """Refuse what several processes cannot do (raises ValueError with the fix)."""
    if settings.processes > 1 and not settings.redis_url:
        raise ValueError(
            "several server processes need a shared store: give --redis-url "
            "(the embedded store lives inside one process)"
        )


def _child_environment(settings: Settings, metrics_dir: str | None, index: int) -> dict[str, str]:
    env = dict(os.environ)
    env[PROCESS_INDEX] = str(index)
    for f in fields(Settings):
        value = getattr(settings, f.name)
        env[f"SENET_{f.name.upper()}"] = (
            str(value).lower() if isinstance(value, bool) else str(value)
        )
    env[SUPERVISOR_PID] = str(os.getpid())
    if metrics_dir is not None:
        env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    return env


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class Supervisor:
    """Starts the server processes, keeps them running, and stops them."""

    def __init__(self, settings: Settings) -> None:
        check(settings)
        port = settings.port or _free_port(settings.host)
        self.settings = replace(settings, port=port)
        self._metrics_dir = (
            tempfile.mkdtemp(prefix="senet-metrics-") if settings.metrics_port else None
        )
        self._children: list[asyncio.subprocess.Process | None] = [None] * settings.processes
        self._stopping = asyncio.Event()
        self._drains: list[asyncio.Task[bytes]] = []

    async def _start(self, index: int) -> str:
        """Start child ``index``; its banner line once it serves."""
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "senet.cli", "serve",
            env=_child_environment(self.settings, self._metrics_dir, index),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self._children[index] = child
        assert child.stdout is not None
        banner = (await child.stdout.readline()).decode().strip()
        if not banner.startswith("Senet is serving"):
            await child.wait()
            raise RuntimeError(f"server process {index} did not start (exit {child.returncode})")
        self._drains.append(asyncio.create_task(child.stdout.read()))  # the rest: unread
        return banner

    async def _keep(self, index: int) -> None:
        """Restart child ``index`` whenever it dies, until stopping."""
        while not self._stopping.is_set():
            child = self._children[index]
            assert child is not None
            code = await child.wait()
            if self._stopping.is_set():
                return
            log.error("server process died; restarting it", extra={"index": index, "exit": code})
            if self._metrics_dir is not None:
                from prometheus_client import multiprocess

                multiprocess.mark_process_dead(child.pid, self._metrics_dir)  # type: ignore[no-untyped-call]
            await asyncio.sleep(_RESTART_DELAY_S)
            try:
                await self._start(index)
            except (RuntimeError, OSError) as exc:
                log.error(
                    "server process did not restart", extra={"index": index, "error": str(exc)}
                )

    def _serve_metrics(self) -> None:
        if self._metrics_dir is None:
            return
        from prometheus_client import CollectorRegistry, multiprocess, start_http_server

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=self._metrics_dir)  # type: ignore[no-untyped-call]
        start_http_server(self.settings.metrics_port, addr=self.settings.host, registry=registry)

    async def run(self) -> None:
        """Serve until SIGTERM or SIGINT, then drain every process."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._stopping.set)
        await asyncio.gather(*(self._start(i) for i in range(len(self._children))))
        self._serve_metrics()
        address = f"{self.settings.host}:{self.settings.port}"
        workers = self.settings.embedded_bot_workers
        print(
            f"Senet is serving on {address} ({len(self._children)} processes, redis store)."
            + (
                f"\n  {workers} bot worker(s) play bot seats in each process" if workers > 0 else ""
            ),
            flush=True,
        )
        keepers = [asyncio.create_task(self._keep(i)) for i in range(len(self._children))]
        await self._stopping.wait()
        await self.stop()
        for keeper in keepers:
            keeper.cancel()

    async def stop(self) -> None:
        """SIGTERM every child (each drains), then wait for all of them."""
        self._stopping.set()
        children = [c for c in self._children if c is not None and c.returncode is None]
        for child in children:
            child.send_signal(signal.SIGTERM)
        patience = self.settings.drain_notice_s + self.settings.drain_grace_s + 10
        for child in children:
            try:
                await asyncio.wait_for(child.wait(), patience)
            except TimeoutError:
                child.kill()
                await child.wait()


def supervise(settings: Settings) -> int:
    """``senet serve --processes N`` (N > 1): run the supervisor until stopped."""
    try:
        supervisor = Supervisor(settings)
    except ValueError as exc:
        print(f"senet serve: {exc}", file=sys.stderr)
        return 2
    asyncio.run(supervisor.run())
    return 0
