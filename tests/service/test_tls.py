"""TLS end to end: the server serves TLS given a certificate and key; clients take a CA.

A throw-away CA (``trustme``) signs a certificate for ``localhost`` and
``127.0.0.1``. Through TLS: the client library plays, the bot worker plays its
seats, and ``senet health`` answers. A client that does not trust the CA, or that
speaks plaintext, gets nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme

from senet.bots.worker import BotWorker
from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.service import probe
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store.memory import MemoryStore
from senet.v1 import match_pb2

ADMIN = "tls-admin"


@dataclass(frozen=True)
class Pki:
    """PEM files: the CA's certificate, the server's chain and key, a stranger CA."""

    ca: Path
    cert: Path
    key: Path
    other_ca: Path


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pki]:
    folder = tmp_path_factory.mktemp("pki")
    ca = trustme.CA()
    issued = ca.issue_cert("localhost", "127.0.0.1")
    files = Pki(folder / "ca.pem", folder / "tls.crt", folder / "tls.key", folder / "other.pem")
    ca.cert_pem.write_to_path(str(files.ca))
    issued.private_key_pem.write_to_path(str(files.key))
    files.cert.write_bytes(b"".join(blob.bytes() for blob in issued.cert_chain_pems))
    trustme.CA().cert_pem.write_to_path(str(files.other_ca))
    yield files


@pytest.fixture
async def tls_server(pki: Pki) -> AsyncIterator[RunningServer]:
    settings = Settings(
        port=0, log_json=False, admin_key=ADMIN, tls_cert=str(pki.cert), tls_key=str(pki.key)
    )
    server = await create_server(settings, MemoryStore(), health_interval_s=0.2)
    try:
        yield server
    finally:
        await server.stop()


@pytest.mark.slow
async def test_clients_and_bot_workers_play_over_tls(tls_server: RunningServer, pki: Pki) -> None:
    target = f"localhost:{tls_server.port}"
    async with SenetClient(target, admin_key=ADMIN, tls_ca=str(pki.ca)) as admin:
        match_id = await admin.create_match("mykerinos", 0, seed=3, bots=["random", "greedy"])
        worker = BotWorker(target, admin_key=ADMIN, lease_ms=3000, tls_ca=str(pki.ca))
        stop = asyncio.Event()
        bots = asyncio.create_task(worker.run(stop))
        async for message in admin.watch(match_id):
            del message  # ends after the finishing update
        stop.set()
        await bots
        final = await admin.get(match_id)
        assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
        assert {seat for _match, seat in worker.acquired} == {0, 1}


async def test_health_probe_speaks_tls(tls_server: RunningServer, pki: Pki) -> None:
    address = f"127.0.0.1:{tls_server.port}"
    assert await asyncio.to_thread(probe.check, address, tls_ca=str(pki.ca))
    # The certificate names localhost too; a probe may ask for that name explicitly.
    assert await asyncio.to_thread(
        probe.check, address, tls_ca=str(pki.ca), server_name="localhost"
    )
    assert not await asyncio.to_thread(probe.check, address, tls_ca=str(pki.other_ca))
    assert not await asyncio.to_thread(probe.check, address, timeout_s=1.0)  # plaintext


@pytest.mark.parametrize("trust", ["stranger CA", "plaintext"])
async def test_untrusting_clients_get_nothing(
    tls_server: RunningServer, pki: Pki, trust: str
) -> None:
    ca = str(pki.other_ca) if trust == "stranger CA" else None
    async with SenetClient(
        f"localhost:{tls_server.port}", tls_ca=ca, timeout_s=1.0, max_attempts=1
    ) as client:
        with pytest.raises(SenetRpcError) as failure:
            await client.list_games()
    assert failure.value.code.name == "UNAVAILABLE"
