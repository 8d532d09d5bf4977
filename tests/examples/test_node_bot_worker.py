"""The Node.js bot worker (clients/examples/node/bot_worker.mjs) registers a bot,
plays its ladder matches over BotService with the bot key, and appears on the
leaderboard: a remote bot written from proto/ alone. When its key is replaced it
stops and says so.

Issue 37: "a remote Node bot registers, plays, and appears on the leaderboard".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from senet.v1 import bot_service_pb2 as bpb
from senet.v1 import (
    bot_service_pb2_grpc,
    ladder_service_pb2_grpc,
    player_service_pb2_grpc,
)
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import player_service_pb2 as ppb
from tests.examples.test_node_client import installed, server

__all__ = ["installed", "server"]  # the fixtures, shared with the client's test
pytestmark = pytest.mark.slow
GAME = "mykerinos"


def test_two_node_bots_play_the_ladder_and_are_rated(installed: Path, server: str) -> None:
    workers = [
        subprocess.Popen(
            ["node", "bot_worker.mjs", server, "--game", GAME, "--name", name, "--seconds", "90"],
            cwd=installed,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("node-a", "node-b")
    ]
    try:
        started = subprocess.run(
            [sys.executable, "-m", "senet.cli", "ladder", "--server", server, "start",
             "--game", GAME, "--bots", "", "--decision-ms", "3000"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert started.returncode == 0, started.stdout + started.stderr
        with grpc.insecure_channel(server) as channel:
            stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
            deadline = time.monotonic() + 80
            while True:  # a condition, not a time: both node bots rated at least once
                got = stub.GetLadder(lpb.GetLadderRequest(ladder_id=f"{GAME}-2"))
                rated = {s.bot.name: s.matches for s in got.standings}
                if rated.get("node-a", 0) >= 1 and rated.get("node-b", 0) >= 1:
                    break
                assert time.monotonic() < deadline, rated
                time.sleep(0.5)
        assert all(s.bot.active for s in got.standings)
    finally:
        for worker in workers:
            worker.terminate()
    reports = [json.loads(w.communicate(timeout=30)[0].strip().splitlines()[-1]) for w in workers]
    assert all(r["moves"] > 0 and r["subject"].startswith("bot:guest:") for r in reports)
    # Each a new guest's: retired on stopping, out of the listings.
    assert all(r["retired"] for r in reports)
    assert all(int(r["retired_ms"]) > 0 for r in reports)  # GetBot from Node: still found
    with grpc.insecure_channel(server) as channel:
        listed = ladder_service_pb2_grpc.LadderServiceStub(channel).ListBots(lpb.ListBotsRequest())
    assert not {"node-a", "node-b"} & {b.name for b in listed.bots}


def test_a_node_bot_whose_key_is_replaced_stops_and_says_so(installed: Path, server: str) -> None:
    with grpc.insecure_channel(server) as channel:
        players = player_service_pb2_grpc.PlayerServiceStub(channel)
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        bots = bot_service_pb2_grpc.BotServiceStub(channel)
        identity = players.RegisterGuest(
            ppb.RegisterGuestRequest(display_name="ada")
        ).identity_token
        as_owner = (("x-senet-identity", identity),)

        def register() -> str:
            request = lpb.RegisterBotRequest(name="node-key", game_ids=[GAME])
            return str(ladder.RegisterBot(request, metadata=as_owner).bot_key)

        def refused(key: str) -> bool:
            request = bpb.AcquireBotDecisionsRequest(worker_id="probe", capacity=1, wait_ms=0)
            try:
                bots.AcquireBotDecisions(request, metadata=(("x-senet-bot-key", key),))
            except grpc.RpcError as error:
                return error.code() == grpc.StatusCode.UNAUTHENTICATED
            return False

        first = register()
        worker = subprocess.Popen(
            ["node", "bot_worker.mjs", server, "--game", GAME, "--name", "node-key"],
            cwd=installed, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "SENET_IDENTITY": identity},
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while not refused(first):  # the worker has registered the bot again
                assert worker.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
            register()  # and now its key is replaced in turn
            out, errors = worker.communicate(timeout=60)
        finally:
            worker.kill()
    assert worker.returncode == 2, errors
    assert "the server refuses this bot's key" in errors
    assert json.loads(out.strip().splitlines()[-1])["moves"] == 0
