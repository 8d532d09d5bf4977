"""``senet export``: finished matches as JSON Lines, read back as training data by
``senet.rl.dataset``. A ``senet serve`` child process hosts the matches; the
command runs as its user runs it, in a child process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from senet.cli import export as export_cli
from senet.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.rl import dataset
from senet.v1 import match_service_pb2 as ms
from tests.sync import run_sync
from tests.text.conftest import REPO
from tests.text.test_verify_cli import _play


async def _host(address: str) -> tuple[list[str], str, str]:
    """Two finished listed matches (oldest first), a finished unlisted one, and one
    still waiting for a player."""
    finished = []
    async with SenetClient(address) as senet:
        for unlisted in (False, False, True):
            match_id = await senet.create_match("pebbles", 2, unlisted=unlisted)
            seats = [await senet.join(match_id, "Ada"), await senet.join(match_id, "Bob")]
            await _play(seats, senet, match_id)
            finished.append(match_id)
        waiting = await senet.create_match("pebbles", 2)
    return finished[:2], finished[2], waiting


def export(address: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", "export", "--server", address, *args],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def verify_file(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", "verify", "--file", str(path), *args],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_finished_matches_are_exported_and_read_back_as_decisions(
    server_address: str, tmp_path: Path
) -> None:
    listed, unlisted, waiting = run_sync(_host(server_address))
    path = tmp_path / "matches.jsonl"
    done = export(server_address, "--game", "pebbles", "--out", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"senet export: 2 match(es) written to {path}\n"
    read = list(dataset.read(path))
    assert [match_id for match_id, _ in read] == listed[::-1]  # newest first, no unlisted
    for match_id, exported in read:
        decisions = dataset.decisions(match_id, exported)
        assert len(decisions) == len(exported.actions) > 0
        assert {d.origin for d in decisions} == {"seat"}
        assert all(d.action_mask[d.action] == 1 for d in decisions)
        assert sorted({d.reward for d in decisions}) in ([-1.0, 1.0], [0.0])

    # An auditor checks the file offline: every match, then one, then a tampered copy.
    checked = verify_file(path)
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.splitlines() == [
        f"Match {listed[1]}: fair.",
        f"Match {listed[0]}: fair.",
        "2 match(es): 2 fair, 0 not verified, 0 not checked (each against the commitment "
        "its own export names)",
    ]
    assert verify_file(path, listed[0]).stdout.startswith(f"Match {listed[0]}: fair.\n1 match")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    records[0]["export"]["scores"] = [99, 0]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(json.dumps(r) for r in records) + "\nnot json\n")
    refused = verify_file(tampered)
    assert refused.returncode == 1
    lines = refused.stdout.splitlines()
    assert "✘ the replay reaches the server's final scores" in lines
    assert f"Match {listed[1]}: NOT VERIFIED." in lines
    assert "Line 3 is not a match of `senet export`: not checked." in lines
    assert lines[-1].startswith("3 match(es): 1 fair, 1 not verified, 1 not checked")

    newest = export(server_address, "--limit", "1")
    lines = newest.stdout.splitlines()
    assert newest.returncode == 0 and len(lines) == 1
    assert json.loads(lines[0])["match_id"] == listed[-1]

    named = export(server_address, unlisted)
    record = json.loads(named.stdout)
    assert record["match_id"] == unlisted and record["export"]["game_id"] == "pebbles"
    assert record["export"]["rules_version"] == 1

    refused = export(server_address, waiting)
    assert refused.returncode == 1 and "MATCH_NOT_FINISHED" in refused.stderr


def test_a_quota_refusal_is_waited_out_as_the_server_asks() -> None:
    """A long export makes many calls: the server's per-client quota may refuse
    one, with the delay to wait (RetryInfo); the export waits and goes on."""
    answer = ms.ExportMatchResponse(game_id="pebbles")
    refusal = SenetRpcError(
        grpc.StatusCode.RESOURCE_EXHAUSTED, "QUOTA_EXCEEDED", "slow down", retry_after_s=0.01
    )

    class Quota:
        calls = 0

        async def export(self, match_id: str) -> ms.ExportMatchResponse:
            self.calls += 1
            if self.calls <= 2:
                raise refusal
            return answer

    client = Quota()
    assert run_sync(export_cli._export(client, "m1")) is answer  # type: ignore[arg-type]
    assert client.calls == 3
    unavailable = SenetRpcError(grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND", "no such match")

    class Gone:
        async def export(self, match_id: str) -> ms.ExportMatchResponse:
            raise unavailable

    with pytest.raises(SenetRpcError) as raised:
        run_sync(export_cli._export(Gone(), "m2"))  # type: ignore[arg-type]
    assert raised.value is unavailable
