"""The client library's PlayerClient and ``senet leaderboard``, against a server."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

from senet.client.client import SenetClient
from senet.client.players import ENTROPY_KEPT, PlayerClient
from senet.service.server import RunningServer
from senet.v1 import player_service_pb2 as pb
from tests.service.conftest import REPO, Deployment
from tests.service.test_ratings import _rated_match

GAME = "pebbles"


async def test_a_guest_queues_is_matched_with_bots_and_reads_its_page(
    deployment: Deployment,
) -> None:
    server = await deployment.start()
    async with SenetClient(f"127.0.0.1:{server.port}") as senet:
        me = PlayerClient(senet)
        await me.register_guest("Ada")
        reports = [
            progress async for progress in me.find_match(GAME, seats=(2, 2), bot_fill_after_s=0)
        ]
        # The seat adds the player's entropy once the seed is committed (the default).
        assert [p.stage for p in reports[-2:]] == [
            pb.TICKET_STAGE_AWAITING_ENTROPY,
            pb.TICKET_STAGE_MATCHED,
        ]
        seat = me.seat(reports[-1])
        assert seat.commitment == reports[-2].seed_commitment != ""
        assert len(seat.entropy) == 32
        assert (await seat.get()).match.started
        page = await me.get_player()
        assert (page.subject, page.display_name) == (me.subject, "Ada")


async def _leaderboard_cli(server: RunningServer, *args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "senet.cli",
        "leaderboard",
        GAME,
        "--server",
        f"127.0.0.1:{server.port}",
        *args,
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await process.communicate()
    return process.returncode or 0, out.decode()


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_senet_leaderboard_prints_the_ranked_players(deployment: Deployment) -> None:
    server = await deployment.start()
    code, out = await _leaderboard_cli(server)
    assert code == 0 and "Nobody is ranked" in out
    await _rated_match(server, ["ada", "bob"], leaver=0)
    assert server.player_servicer is not None
    await server.player_servicer.matchmaker.sweep_once()
    async with SenetClient(f"127.0.0.1:{server.port}") as senet:
        best = [e.subject async for e in PlayerClient(senet).leaderboard(GAME)]
    assert best == ["bob", "ada"]
    code, out = await _leaderboard_cli(server)
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["#", "player", "rating", "mu", "sigma", "matches"]
    assert [line.split()[:2] for line in lines[1:]] == [["1", "Bob"], ["2", "Ada"]]
    code, out = await _leaderboard_cli(server, "--json", "--limit", "1")
    assert [row["subject"] for row in json.loads(out)] == ["bob"]
    # Matchmaking's board is not a ladder's: the 2-seat ladder has nobody yet.
    code, out = await _leaderboard_cli(server, "--seats", "2")
    assert code == 0 and f"Nobody is ranked on the {GAME}-2 ladder yet." in out
    async with SenetClient(f"127.0.0.1:{server.port}") as senet:
        assert not [e async for e in PlayerClient(senet).leaderboard(GAME, seat_count=2)]


def test_a_long_lived_client_keeps_the_latest_tickets_entropy_only() -> None:
    """A bot queuing match after match keeps the entropy of its latest tickets (each
    seat is made right after its MATCHED report), not of every ticket it ever sent;
    a retry of a kept ticket sends the same entropy."""
    me = PlayerClient(SenetClient("127.0.0.1:1"))
    first = me._entropy_for("t0")
    assert me._entropy_for("t0") == first and len(first) == 32
    for n in range(1, ENTROPY_KEPT + 10):
        me._entropy_for(f"t{n}")
    assert len(me.entropy_sent) == ENTROPY_KEPT
    assert "t0" not in me.entropy_sent and f"t{ENTROPY_KEPT + 9}" in me.entropy_sent
