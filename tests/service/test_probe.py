"""The health probe as containers run it: exit status 0 only when SERVING; and
what ``senet health`` says it found, told apart (an operator's trial got NOT
SERVING alike for a server not there and for a service name it mistyped).

``python -m senet.service.probe`` is the image's HEALTHCHECK (and the exec probe
of the Kubernetes TLS variant); ``senet health`` is the same check.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import subprocess
import sys

import pytest
from grpc_health.v1 import health_pb2
from grpc_health.v1._async import HealthServicer

from senet.service import metrics, probe
from senet.service.server import LIVENESS_SERVICE, RunningServer, _probe_store
from senet.store import StoreUnavailable
from senet.store.memory import MemoryStore
from tests.service.conftest import REPO, Deployment, free_port


async def exit_status(*argv: str) -> int:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return await proc.wait()


@pytest.mark.slow
async def test_probe_exit_status_follows_health(server: RunningServer) -> None:
    address = f"127.0.0.1:{server.port}"
    probe = ("-m", "senet.service.probe", "--address", address)
    assert await exit_status(*probe) == 0
    assert await exit_status(*probe, "--service", LIVENESS_SERVICE) == 0
    assert await exit_status(*probe, "--service", "no.such.Service") == 1
    assert await exit_status("-m", "senet.cli", "health", "--address", address) == 0
    closed = f"127.0.0.1:{free_port()}"
    assert await exit_status("-m", "senet.service.probe", "--address", closed) == 1
    await server.drain()  # SIGTERM's path: NOT_SERVING, then stopped
    assert await exit_status(*probe, "--timeout-s", "1") == 1


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("store_kind", ["memory"])
async def test_each_answer_reads_as_itself(deployment: Deployment) -> None:
    server = await deployment.start()
    address = f"127.0.0.1:{server.port}"

    async def ask(where: str, service: str = "") -> probe.Verdict:
        return await asyncio.to_thread(probe.probe, where, service, timeout_s=2.0)

    assert str(await ask(address)) == "SERVING"
    # The embedded store keeps nothing on disk.
    assert str(await ask(address, "senet.durability")) == "NOT SERVING"
    unknown = await ask(address, "senet.nothing")
    assert unknown.status == "NO_SUCH_SERVICE" and "'senet.nothing'" in str(unknown)
    away = await ask(f"127.0.0.1:{_closed_port()}")
    assert away.status == "NO_ANSWER" and str(away).startswith("NO ANSWER: UNAVAILABLE")
    assert not away.serving and not unknown.serving


class _Away(MemoryStore):
    async def ping(self) -> None:
        raise StoreUnavailable("redis unavailable: AUTH refused")


async def test_a_store_the_probe_cannot_reach_reads_not_serving_with_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    checker = HealthServicer()
    with caplog.at_level(logging.INFO, logger="senet.server"):
        assert await _probe_store(MemoryStore(), checker, 1.0, None)
        assert metrics.STORE_REACHABLE._value.get() == 1
        assert not await _probe_store(_Away(), checker, 1.0, True)
    assert metrics.STORE_REACHABLE._value.get() == 0
    reply = await checker.Check(health_pb2.HealthCheckRequest(service=""), None)
    assert reply.status == health_pb2.HealthCheckResponse.NOT_SERVING
    told = caplog.records[-1]
    assert told.levelno == logging.WARNING and "AUTH refused" in told.getMessage()
