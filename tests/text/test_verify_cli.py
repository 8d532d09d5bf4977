"""``senet verify``: a player checks a finished match's deal from the terminal.

A ``senet serve`` child process hosts the matches; the command runs as its user
runs it, in a child process, and is judged by its output and exit status.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

from senet.client import SeatClient, SenetClient
from senet.codec import fairness
from senet.games.errors import IllegalActionError
from senet.v1 import match_service_pb2 as ms
from tests.sync import run_sync
from tests.text.conftest import REPO


@dataclass
class Finished:
    """A finished Pebbles match and what its first seat's player kept."""

    match_id: str
    commitment: str
    entropy: str


async def _play(seats: list[SeatClient], senet: SenetClient, match_id: str) -> None:
    while True:
        summary = (await senet.get(match_id)).match
        if not summary.HasField("current_seat"):
            return
        seat = seats[summary.current_seat]
        legal = await seat.legal_actions()
        await seat.submit(legal.actions[0].notation, expected_version=legal.version)


async def _finished(address: str, seed: int | None = None) -> Finished:
    async with SenetClient(address) as senet:
        match_id = await senet.create_match("pebbles", 2, seed=seed)
        seats = [await senet.join(match_id, "Ada"), await senet.join(match_id, "Bob")]
        await _play(seats, senet, match_id)
    return Finished(match_id, seats[0].commitment, seats[0].entropy)


def verify(address: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", "verify", "--server", address, *args],
        cwd=REPO, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_a_player_verifies_the_deal_of_a_fair_match(server_address: str) -> None:
    match = run_sync(_finished(server_address))
    assert len(match.commitment) == 64 and len(match.entropy) == 32
    done = verify(
        server_address,
        match.match_id,
        "--commitment",
        match.commitment,
        "--entropy",
        match.entropy,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("✔ played under Pebbles rules version 1")
    assert "✔ it equals the commitment published at creation" in lines
    assert "✔ the deal combines that seed with every seat's entropy" in lines
    assert "✔ the replay reaches the server's final scores" in lines
    assert f"✔ your seat's entropy {match.entropy[:16]} is one the deal combines" in lines
    assert lines[-1] == f"Match {match.match_id}: fair."
    assert "server shows now" not in done.stdout

    another = "0" * 64
    tampered = verify(server_address, match.match_id, "--commitment", another)
    assert tampered.returncode == 1
    assert "✘ it equals the commitment published at creation" in tampered.stdout
    assert tampered.stdout.splitlines()[-1] == f"Match {match.match_id}: NOT VERIFIED."

    stranger = verify(server_address, match.match_id, "--entropy", "f" * 32)
    assert stranger.returncode == 1
    assert f"✘ your seat's entropy {'f' * 16} is one the deal combines" in stranger.stdout
    assert "the commitment the server shows now" in stranger.stdout


def test_a_chosen_seed_owes_nothing_to_the_seats(server_address: str) -> None:
    match = run_sync(_finished(server_address, seed=7))
    done = verify(server_address, match.match_id, "--commitment", match.commitment)
    assert done.returncode == 0, done.stdout
    assert "✔ the seed was chosen by the match's creator (a practice match)" in done.stdout
    mine = verify(server_address, match.match_id, "--entropy", match.entropy)
    assert mine.returncode == 1  # the deal did not combine it


def test_nothing_is_checked_before_the_end(server_address: str) -> None:
    async def waiting() -> str:
        async with SenetClient(server_address) as senet:
            return await senet.create_match("pebbles", 2)

    done = verify(server_address, run_sync(waiting()))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("senet verify: MATCH_NOT_FINISHED: ")
    unknown = verify(server_address, "0123456789abcdef")
    assert unknown.returncode == 2 and "MATCH_NOT_FOUND" in unknown.stderr


def test_a_log_the_rules_refuse_is_proven_wrong_only_when_its_rules_are_known() -> None:
    """An action the rules refuse proves the server's record wrong, unless the
    match was played before rules versions were recorded, under rules this
    release may no longer play."""
    export = ms.ExportMatchResponse(game_id="pebbles", rules_version=1)
    export.actions.add(version=1, seat=0, notation="take 9", rules_version=1)
    refusal = IllegalActionError("'take 9' is not legal")
    assert fairness.refused_log(export, refusal) == (
        "✘ the exported log breaks the rules: 'take 9' is not legal",
        True,
    )
    export.rules_version = export.actions[0].rules_version = 0
    sentence, proven = fairness.refused_log(export, refusal)
    assert not proven
    assert sentence.startswith("Not replayed: this match was played before rules versions")
