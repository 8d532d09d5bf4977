"""The client library hands a failed call's ErrorInfo facts and RetryInfo delay to
its caller, so a client acts on them without parsing messages."""

from __future__ import annotations

import pytest

from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from tests.service.conftest import Deployment


async def test_the_facts_of_an_error_reach_the_caller() -> None:
    deployment = Deployment("memory")
    server = await deployment.start(seat_rate_per_s=0.5, seat_burst=3)
    try:
        async with SenetClient(f"127.0.0.1:{server.port}", max_attempts=1) as client:
            match_id = await client.create_match("mykerinos", 2, seed=7)
            seats = [await client.join(match_id, f"p{n}") for n in range(2)]
            mover = seats[0] if (await seats[0].legal_actions()).actions else seats[1]
            with pytest.raises(SenetRpcError) as stale:
                await mover.submit("pass", expected_version=5)
            assert (stale.value.reason, stale.value.facts) == (
                "STALE_VERSION",
                {"currentVersion": "0"},
            )
            assert stale.value.retry_after_s is None
            with pytest.raises(SenetRpcError) as limited:
                for _ in range(3):
                    await mover.legal_actions()
            assert limited.value.reason == "RATE_LIMITED"
            assert limited.value.retry_after_s is not None and limited.value.retry_after_s > 0
    finally:
        await deployment.close()
