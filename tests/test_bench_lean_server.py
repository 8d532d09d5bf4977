"""The peer benchmark's lean MatchService (:mod:`tests.bench.lean_server`) plays
the benchmark's load (SubmitAction and PlayMatch) with the rules core, and keeps the contract's
work: each move's log entry, update and head written, a retry answered again.

It runs in CI (no Node needed), so the bound the peer benchmark prints keeps
measuring the same load Senet gets. Timings are never asserted.
"""

from __future__ import annotations

import grpc
import orjson
import pytest

from senet.v1 import match_service_pb2, match_service_pb2_grpc
from tests.bench import echo_server, lean_server
from tests.bench.service import create_match
from tests.pebbles.core import PEBBLES
from tests.sync import run_sync
from tests.test_bench_null_server import served_windows


async def _serve(service: lean_server.LeanService) -> tuple[grpc.aio.Server, int]:
    server = grpc.aio.server(options=echo_server.SERVER_OPTIONS)
    server.add_generic_rpc_handlers((lean_server.lean_handler(service),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


@pytest.mark.slow
def test_lean_server_plays_the_peer_load_writing_every_commit() -> None:
    service = lean_server.LeanService()
    unary, play = run_sync(served_windows(lean_server.lean_handler(service)))
    assert unary.moves > 0 and len(unary.latencies) == unary.moves
    # Every PlayMatch move was answered on its mover's stream by its own update.
    assert play.moves > 0 and len(play.latencies) == len(play.replies) == play.moves
    played = [m for m in service.matches.values() if m.version]
    assert sum(m.version for m in played) == unary.moves + play.moves
    for match in played:
        assert len(match.log) == len(match.updates) == len(match.requests) == match.version
        assert orjson.loads(match.updates[-1])["version"] == match.version
        assert orjson.loads(match.head)["state"] == match.state.to_data()


async def _retried() -> tuple[
    match_service_pb2.SubmitActionResponse, match_service_pb2.SubmitActionResponse
]:
    server, port = await _serve(lean_server.LeanService())
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = match_service_pb2_grpc.MatchServiceStub(channel)
            match = await create_match(stub, 7, PEBBLES)
            request, metadata = match.next_request()
            first = await stub.SubmitAction(request, metadata=metadata)
            again = await stub.SubmitAction(request, metadata=metadata)
    finally:
        await server.stop(None)
    return first, again


def test_a_retried_submission_is_answered_again_not_committed_twice() -> None:
    first, again = run_sync(_retried())
    assert (first.version, first.duplicate) == (1, False)
    assert (again.version, again.duplicate) == (1, True)


async def _played_on_redis(url: str) -> tuple[int, list[str]]:
    service = lean_server.LeanService()
    service.redis = await lean_server._connected(url)
    server, port = await _serve(service)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = match_service_pb2_grpc.MatchServiceStub(channel)
            match = await create_match(stub, 11, PEBBLES)
            for _ in range(3):
                request, metadata = match.next_request()
                match.committed(await stub.SubmitAction(request, metadata=metadata))
            await stub.SubmitAction(request, metadata=metadata)  # the last one, retried
        mux, _sha = service.redis
        prefix = f"lean:{match.match_id}"
        version = int(await mux.execute("HGET", f"{prefix}:head", "version"))
        log = list(await mux.execute("LRANGE", f"{prefix}:log", 0, -1))
        await mux.close()
    finally:
        await server.stop(None)
    return version, log


def test_on_redis_every_commit_is_written_there_once(redis_url: str) -> None:
    version, log = run_sync(_played_on_redis(redis_url))
    assert version == 3
    assert [orjson.loads(entry)["request_id"] for entry in log] == [
        "bench-1",
        "bench-2",
        "bench-3",
    ]
