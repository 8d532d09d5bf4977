"""The peer benchmark's null MatchService (:mod:`tests.bench.null_server`) plays
the benchmark's own load to the end, through SubmitAction and PlayMatch.

It runs in CI (no Node needed), so the ceiling the peer benchmark prints keeps
measuring the same load Senet gets. Timings are never asserted.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from senet.v1 import match_service_pb2_grpc
from tests.bench import echo_server, null_server, peer
from tests.bench.service import MatchPool
from tests.pebbles.core import PEBBLES
from tests.sync import run_sync


async def served_windows(handler: grpc.GenericRpcHandler[Any, Any]) -> tuple[peer.Sample, ...]:
    """A SubmitAction window and a PlayMatch window of the peer benchmark's load on
    a benchmark server serving ``handler`` in this process."""
    server = grpc.aio.server(options=echo_server.SERVER_OPTIONS)
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    samples = []
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            pool = MatchPool(match_service_pb2_grpc.MatchServiceStub(channel), PEBBLES)
            # A window on a loaded machine may end before its first move: the test
            # waits for moves (up to ten windows), never for a time.
            for window in (peer.unary_window, peer.play_window):
                for _ in range(10):
                    await pool.fill(4, 200)
                    sample = await window(pool, 4, 0.2)
                    if sample.moves:
                        break
                samples.append(sample)
    finally:
        await server.stop(None)
    return tuple(samples)


@pytest.mark.slow
def test_null_server_plays_the_peer_load() -> None:
    unary, play = run_sync(served_windows(null_server.null_handler(null_server.NullService())))
    assert unary.moves > 0 and len(unary.latencies) == unary.moves
    # Every PlayMatch move was answered on its mover's stream by its own update.
    assert play.moves > 0 and len(play.latencies) == len(play.replies) == play.moves


def test_a_retried_submission_is_answered_again_not_committed_twice() -> None:
    """A benchmark must not fail on a retried reply: the null server answers a
    request id it has just committed with the version it made, as Senet does."""
    match = null_server._Match(seats=2)
    assert match.commit("bench-1") == 1
    assert match.commit("bench-1") is None and match.version == 1
    assert match.commit("bench-2") == 2
