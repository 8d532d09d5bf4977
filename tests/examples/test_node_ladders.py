"""The Node.js example ladders.mjs reads the index of ladders (ListLadders) page by
page, written from proto/ alone, and links each listed id to GetLadder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.examples.test_node_client import installed, server

__all__ = ["installed", "server"]  # the fixtures, shared with the client's test
pytestmark = pytest.mark.slow


def _node(installed: Path, *args: str) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        ["node", "ladders.mjs", *args], cwd=installed, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip(), done.stderr
    return done.returncode, json.loads(done.stdout.strip().splitlines()[-1])


def test_the_node_example_pages_through_the_ladders(installed: Path, server: str) -> None:
    code, report = _node(installed, server)
    assert code == 0 and report["ladders"] == [] and report["pages"] == 1, report
    for game, flight in (("mykerinos", "0"), ("archeos", "1")):
        started = subprocess.run(
            [sys.executable, "-m", "senet.cli", "ladder", "--server", server, "start",
             "--game", game, "--bots", "", "--max-in-flight", flight],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert started.returncode == 0, started.stdout + started.stderr
    code, report = _node(installed, server, "--page-size", "1")
    assert code == 0 and report["ok"] and report["pages"] == 2, report
    assert [(s["ladder_id"], s["state"]) for s in report["ladders"]] == [
        ("archeos-2", "LADDER_STATE_WAITING_FOR_BOTS"),  # no bot registered
        ("mykerinos-2", "LADDER_STATE_PAUSED"),
    ]
    code, report = _node(installed, server, "--game", "mykerinos")
    assert code == 0 and [s["ladder_id"] for s in report["ladders"]] == ["mykerinos-2"]
    code, report = _node(installed, server, "--game", "chess")
    assert code == 1 and report["code"] == "INVALID_ARGUMENT", report
