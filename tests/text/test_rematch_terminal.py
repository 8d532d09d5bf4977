"""Declining a rematch in line mode: the end's question takes ``decline``, and a
player waiting in a rematch is told when another player declines it."""

from __future__ import annotations

import asyncio
import io

import pexpect
import pytest

from senet.client.client import SeatClient, SenetClient
from senet.client.errors import SenetRpcError
from tests.text.test_text_client import _spawn
from tests.tui.test_rematch_screen import _finished_pebbles as finished_pebbles


async def _finished_pebbles(address: str) -> tuple[SeatClient, SeatClient]:
    """Ann and Bob's Pebbles match, played to its end (the seats outlive the client's
    channel: each call opens it again)."""
    async with SenetClient(address) as client:
        return await finished_pebbles(client)


@pytest.mark.slow
def test_the_end_takes_decline_and_the_other_player_cannot_ask(server_address: str) -> None:
    ann, bob = asyncio.run(_finished_pebbles(server_address))
    log = io.StringIO()
    child = _spawn(
        "--server", server_address, "--resume", bob.match_id, "--seat", str(bob.seat),
        f"--token={bob.token}", log=log,
    )  # fmt: skip
    child.expect("or decline; Enter alone leaves", timeout=60)
    child.sendline("decline")
    child.expect("You declined the rematch.", timeout=30)
    child.expect(pexpect.EOF, timeout=30)

    async def ann_asks() -> str:
        async with SenetClient(server_address) as client:
            finished = (await client.get(ann.match_id)).match
            assert [s.rematch_declined for s in finished.seats] == [False, True]
            refused = await client.request_rematch(ann.match_id, ann.token)
            return refused.match_id

    with pytest.raises(SenetRpcError) as refusal:
        asyncio.run(ann_asks())
    assert refusal.value.reason == "REMATCH_DECLINED"
    assert "Bob (seat 1) declined the rematch" in refusal.value.message


@pytest.mark.slow
def test_a_player_waiting_in_the_rematch_is_told_the_other_declined(
    server_address: str,
) -> None:
    ann, bob = asyncio.run(_finished_pebbles(server_address))
    log = io.StringIO()
    child = _spawn(
        "--server", server_address, "--rematch", ann.match_id, f"--token={ann.token}", log=log
    )
    child.expect("Waiting for Bob to take the rematch", timeout=60)

    async def bob_declines() -> None:
        async with SenetClient(server_address) as client:
            await client.decline_rematch(bob.match_id, bob.token)

    asyncio.run(bob_declines())
    child.expect("Bob declined the rematch. It will not start.", timeout=30)
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    assert child.exitstatus == 0, log.getvalue()[-2000:]
