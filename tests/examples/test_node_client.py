"""The Node.js examples (clients/examples/node) play whole matches against a real
server, one of them rated from the queue: clients written from proto/ alone, with
error details and the seed commitment checked on the JavaScript side."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from senet.games import get_game
from tests.conftest import npm_installed
from tests.service.conftest import free_port

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "clients" / "examples" / "node"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed() -> Path:
    """The example with its locked dependencies installed (``npm ci``)."""
    return npm_installed(EXAMPLE, "@grpc/grpc-js")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """``senet serve`` with one embedded bot worker, on a free port."""
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--port", str(port),
         "--embedded-bot-workers", "1", "--no-log-json", "--log-level", "WARNING"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=log,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        banner = process.stdout.readline().decode()
        assert banner.startswith("Senet is serving on"), (tmp_path / "server.log").read_text()
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(30)
        log.close()


def test_the_node_example_plays_a_match_to_the_end(installed: Path, server: str) -> None:
    done = subprocess.run(
        ["node", "play.mjs", server], cwd=installed, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["ok"] and report["status"] == "MATCH_STATUS_FINISHED"
    checks = report["checks"]
    assert checks["staleRefused"] and checks["commitmentVerified"] and checks["dealVerified"]
    assert checks["errorFacts"] == {"currentVersion": "0"}
    assert checks["everyUpdateWatched"] and report["moves"] > 0
    assert checks["everyMoveAnswered"]
    version = get_game("mykerinos").info.rules_version
    assert checks["rulesRecorded"]
    assert report["rulesVersion"] == {"server": version, "match": version, "actions": [version]}
    assert checks["rematch"]  # RequestRematch, its retry, and GetMatch naming it
    assert checks["startedRematchNotDeclined"]  # DeclineRematch: REMATCH_STARTED
    # Streams opened while each match waited for players got its start and turns.
    assert checks["promptedAfterWaiting"], checks["starts"]
    assert set(checks["starts"]) == {"mykerinos", "archeos", "marenostrum"}
    assert all(start["unlisted"] for start in checks["starts"].values())  # out of the lobby


def test_the_node_example_queues_and_plays_a_rated_match(installed: Path, server: str) -> None:
    done = subprocess.run(
        ["node", "queue.mjs", server], cwd=installed, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["ok"], report
    assert report["moves"] > 0 and report["place"] in (1, 2)
