"""``senet health`` tells its answers apart: an operator's trial got NOT SERVING
for a server that was not there and for a service name it mistyped alike."""

from __future__ import annotations

import asyncio
import socket

import pytest

from senet.service import probe
from tests.service.conftest import Deployment


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
