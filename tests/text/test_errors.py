"""Errors as people read them: one line, no gRPC text, no reason codes, and what to do."""

from __future__ import annotations

import socket
import subprocess
import sys

import grpc

from senet.client.client import SenetClient, grpc_target, split_targets
from senet.client.errors import SenetRpcError
from senet.text.errors import START_SERVER, for_people
from tests.conftest import _free_port
from tests.text.conftest import REPO


def test_a_refusal_reads_as_the_server_s_message_alone() -> None:
    error = SenetRpcError(
        grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_ACTION", "'z9' is not a space"
    )
    assert for_people(error) == "'z9' is not a space"
    error = SenetRpcError(grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND", "no such match")
    assert for_people(error) == "No such match"


def test_a_quota_says_when_to_try_again_and_a_missing_key_which_flag_gives_it() -> None:
    """An operator's trial read 'This client created too many matches this minute'
    and nothing of when; the server had said (RetryInfo, the quota's limit)."""
    quota = SenetRpcError(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "QUOTA_EXCEEDED",
        "this client created too many matches this minute",
        {"quota": "client_creates_per_min", "limit": "2"},
        26.28,
    )
    assert for_people(quota) == (
        "This client created too many matches this minute (at most 2). Try again in 26 s."
    )
    key = SenetRpcError(
        grpc.StatusCode.PERMISSION_DENIED,
        "ADMIN_KEY_REQUIRED",
        "this server requires the admin key to create matches.",
    )
    assert for_people(key) == (
        "This server requires the admin key to create matches "
        "(give the server's admin key: --admin-key, or SENET_ADMIN_KEY)."
    )


def test_an_unreachable_server_reads_with_the_command_that_starts_one() -> None:
    error = SenetRpcError(
        grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE", "failed to connect to all addresses; ..."
    )
    line = for_people(error, "127.0.0.1:1")
    assert "127.0.0.1:1" in line and START_SERVER in line
    assert "UNAVAILABLE" not in line and "failed to connect" not in line


def test_a_server_elsewhere_is_not_the_player_s_to_start() -> None:
    """A trial's player was told to run `make run` for replicas on other hosts."""
    error = SenetRpcError(grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE", "failed to connect")
    line = for_people(error, "senet.example.org:50051,10.0.0.2:50051")
    assert line == (
        "No Senet server answers at senet.example.org:50051 or 10.0.0.2:50051: "
        "is the address right, and is it up?"
    )
    assert START_SERVER in for_people(error, "localhost:50051,127.0.0.1:50052")


def test_a_server_list_is_the_failover_list_and_a_grpc_target_stays_whole() -> None:
    assert split_targets("127.0.0.1:50091, 127.0.0.1:50092") == [
        "127.0.0.1:50091",
        "127.0.0.1:50092",
    ]
    assert split_targets("ipv4:10.0.0.1:50051,10.0.0.2:50051") == [
        "ipv4:10.0.0.1:50051,10.0.0.2:50051"
    ]
    assert split_targets("dns:///senet:50051") == ["dns:///senet:50051"]
    assert SenetClient("a:1,b:2").targets == ["a:1", "b:2"]
    # One channel's target: gRPC's own list for IPv4 addresses, else the first.
    assert grpc_target("10.0.0.1:50051,10.0.0.2:50051") == "ipv4:10.0.0.1:50051,10.0.0.2:50051"
    assert grpc_target("a.example:1,b.example:1") == "a.example:1"
    assert grpc_target("dns:///senet:50051") == "dns:///senet:50051"
    assert grpc_target("localhost:50051") == "localhost:50051"


def _senet(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", *argv],
        cwd=REPO,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def test_play_without_a_server_says_so_in_one_line() -> None:
    port = _free_port()
    done = _senet("play", "--server", f"127.0.0.1:{port}", "--new", "mykerinos", "--line")
    assert done.returncode == 1
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert lines == [
        f"senet play: No Senet server answers at 127.0.0.1:{port}. Start one with: {START_SERVER}"
    ]


def test_serve_on_a_taken_port_says_so_in_one_line() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = _senet("serve", "--host", "127.0.0.1", "--port", str(port))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"127.0.0.1:{port} is taken" in lines[0]
    assert "--port" in lines[0] and "SENET_PORT" in lines[0]


async def test_a_failover_list_is_reached_through_its_live_server(server_address: str) -> None:
    """A trial's `senet play --server dead,live` said no server answers: the reach
    check tried the first server only."""
    from senet.text.errors import reach

    dead = f"127.0.0.1:{_free_port()}"
    assert await reach(f"{dead},{server_address}") is None
    assert "No Senet server answers at" in str(await reach(dead))
