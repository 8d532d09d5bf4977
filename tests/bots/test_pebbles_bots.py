"""Bots on Pebbles, the test-suite game that brings no heuristics of its own.

Every strategy plays it with the generic fallbacks (score-based evaluation), locally
and as hosted bot seats of a server, driven by a bot worker that rebuilds its forward
model from the generic view the server sends.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from senet.bots import STRATEGY_NAMES, make_strategy, state_from_proto_view
from senet.bots.worker import BotWorker
from senet.client.client import SenetClient
from senet.codec import codec_for
from senet.games import Rng, get_game
from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store.memory import MemoryStore
from senet.v1 import match_pb2

GAME = get_game("pebbles")
ADMIN = "test-admin-key"


@pytest.mark.parametrize("name", STRATEGY_NAMES)
def test_every_strategy_plays_a_whole_match(name: str) -> None:
    state = GAME.new_match(3, options={"doubles": True}, seed=21)
    strategies = [make_strategy(name, seed=seat, iterations=40) for seat in range(3)]
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None
        before = state.to_data()
        action = strategies[seat].choose(state, seat)
        assert state.to_data() == before, "a strategy changed the state it was shown"
        state.apply(seat, action)
    assert len(state.view(None)["pile"]) == 24


def test_a_remote_bot_rebuilds_its_forward_model_from_the_generic_view() -> None:
    state = GAME.new_match(2, seed=8)
    rng = Rng(4)
    for _ in range(7):
        state.apply_unchecked(rng.choice(state.legal_actions()))
    seat = state.current_seat()
    assert seat is not None
    view = codec_for("pebbles").view_to_proto(state.view(seat))
    rebuilt = state_from_proto_view("pebbles", view, seat=seat, seed=99, options=state.options)
    assert rebuilt.view(seat) == state.view(seat)
    assert rebuilt.legal_actions() == state.legal_actions()
    choice = make_strategy("mcts", seed=1, iterations=40).choose(rebuilt, seat)
    assert choice in state.legal_actions()


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    settings = Settings(port=0, log_json=False, key_prefix=prefix, admin_key=ADMIN)
    running = await create_server(settings, MemoryStore(), health_interval_s=0.2)
    try:
        yield running
    finally:
        await asyncio.wait_for(running.stop(), 10)


async def test_hosted_random_and_mcts_seats_finish_a_match(server: RunningServer) -> None:
    target = f"127.0.0.1:{server.port}"
    worker = BotWorker(target, admin_key=ADMIN, capacity=4, lease_ms=2000, iterations=30)
    running = asyncio.create_task(worker.run())
    try:
        async with SenetClient(target, admin_key=ADMIN) as admin:
            match_id = await admin.create_match(
                "pebbles", 0, seed=3, bots=["random", "mcts", "greedy"]
            )
            for _ in range(500):
                final = await admin.get(match_id)
                if final.match.status == match_pb2.MATCH_STATUS_FINISHED:
                    break
                await asyncio.sleep(0.02)
            assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
            assert final.match.version == 24
            assert sorted(final.match.places)[0] == 1
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
