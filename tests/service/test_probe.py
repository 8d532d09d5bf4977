"""The health probe as containers run it: exit status 0 only when SERVING.

``python -m senet.service.probe`` is the image's HEALTHCHECK (and the exec probe
of the Kubernetes TLS variant); ``senet health`` is the same check.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from senet.service.server import LIVENESS_SERVICE, RunningServer
from tests.service.conftest import REPO, free_port


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
