"""The lobby in a terminal: ``senet matches`` and picking a match in ``senet play``.

A ``senet serve`` child process hosts a few matches made through the client
library; ``senet matches`` must print them (table within 80 columns, filters,
JSON), and ``senet play`` without a match named must list them in a 24-row
pseudo-terminal and join or watch the one picked by its number.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass

import pexpect
import pytest

from senet.client import SenetClient
from tests.sync import run_sync
from tests.text.conftest import REPO

ENV = {
    "PATH": "/usr/bin:/bin",
    "TERM": "xterm",
    "LANG": "C.UTF-8",
    "NO_COLOR": "1",
    "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
}


@dataclass
class Hosted:
    """Matches on the test server, oldest first."""

    address: str
    waiting: str  # mykerinos, Ada on seat 0, seat 1 open, a greedy bot on seat 2
    full: str  # pebbles, Bob and Cleo
    empty: str  # pebbles, both seats open


async def _host(address: str) -> Hosted:
    async with SenetClient(address) as senet:
        waiting = await senet.create_match("mykerinos", 2, bots=["greedy"], seed=3)
        await senet.join(waiting, "Ada")
        full = await senet.create_match("pebbles", 2, seed=4)
        await senet.join(full, "Bob")
        await senet.join(full, "Cleo")
        empty = await senet.create_match("pebbles", 2, seed=5)
    return Hosted(address, waiting, full, empty)


@pytest.fixture
def hosted(server_address: str) -> Hosted:
    return run_sync(_host(server_address))


def matches(hosted: Hosted, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", "matches", "--server", hosted.address, *flags],
        cwd=REPO,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_senet_matches_prints_the_lobby(hosted: Hosted) -> None:
    shown = matches(hosted)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), shown.stdout
    rows = [line for line in lines if line[:16] in (hosted.waiting, hosted.full, hosted.empty)]
    assert [row[:16] for row in rows] == [hosted.empty, hosted.full, hosted.waiting]
    assert "open, open" in rows[0] and "waiting" in rows[0]
    assert "Bob, Cleo" in rows[1] and "active" in rows[1]
    assert "Ada, open, bot greedy" in rows[2] and "mykerinos" in rows[2]

    assert [r[:16] for r in matches(hosted, "--open").stdout.splitlines()[2:]] == [
        hosted.empty,
        hosted.waiting,
    ]
    full = matches(hosted, "--full", "--game", "pebbles", "--json")
    (listing,) = json.loads(full.stdout)
    assert listing["match_id"] == hosted.full
    assert [s["display_name"] for s in listing["seats"]] == ["Bob", "Cleo"]
    assert listing["status"] == "MATCH_STATUS_ACTIVE"
    assert "token" not in full.stdout
    limited = matches(hosted, "--limit", "1", "--ascii")
    assert hosted.empty in limited.stdout and hosted.full not in limited.stdout
    assert "--limit N or --all" in limited.stdout
    assert matches(hosted, "--status", "finished").stdout.strip() == "No matches."
    # Every match here is CreateMatch's, so casual.
    assert matches(hosted, "--rated").stdout.strip() == "No matches."
    casual = matches(hosted, "--casual", "--json").stdout
    assert {m["match_id"] for m in json.loads(casual)} >= {hosted.waiting, hosted.full}
    unknown = matches(hosted, "--game", "chess")
    assert unknown.returncode == 1
    assert "UNKNOWN_GAME" in unknown.stderr


def _play(hosted: Hosted, *flags: str, log: io.StringIO) -> pexpect.spawn[str]:
    child = pexpect.spawn(
        sys.executable,
        # The line mode's picker (in a terminal, without --line, the full screen's lobby).
        ["-m", "senet.cli", "play", "--server", hosted.address, "--no-clear", "--line", *flags],
        cwd=str(REPO),
        env=ENV,
        encoding="utf-8",
        timeout=30,
        dimensions=(24, 80),
    )
    child.logfile_read = log
    return child


PICK = r"Number to join, w NUMBER to watch,.* r refresh, q quit > "


@pytest.mark.slow
def test_senet_play_picks_a_match_from_the_lobby_to_join_or_watch(hosted: Hosted) -> None:
    log = io.StringIO()
    child = _play(hosted, "--name", "Zed", log=log)
    child.expect(PICK)
    table = str(child.before)
    numbered = [line.split() for line in table.splitlines() if line.strip()[:1].isdigit()]
    by_id = {row[1]: int(row[0]) for row in numbered}
    assert list(by_id) == [hosted.empty, hosted.full, hosted.waiting]
    child.sendline("9")
    child.expect("Type one of the numbers shown")
    child.expect(PICK)
    child.sendline(str(by_id[hosted.waiting]))
    child.expect(f"Joined match {hosted.waiting}")
    child.expect("You are seat 1; your token: ")
    child.expect("MYKERINOS")
    child.sendline("quit")
    child.expect(r"or pause, keeping your seat \(p\)\? > ")
    child.sendline("p")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, log.getvalue()[-2000:]

    # The full match cannot be joined: picking it watches it; so does "w N".
    for match_id, prefix in ((hosted.full, ""), (hosted.empty, "w")):
        watcher = _play(hosted, "--lobby", "--game", "pebbles", log=io.StringIO())
        watcher.expect(PICK)
        numbers = {
            line.split()[1]: line.split()[0]
            for line in str(watcher.before).splitlines()
            if line.strip()[:1].isdigit()
        }
        assert set(numbers) == {hosted.full, hosted.empty}  # --game pebbles
        answer = prefix + numbers[match_id]
        watcher.sendline(answer)
        watcher.expect(f"Watching match {match_id}")
        watcher.expect("PEBBLES")
        watcher.sendline("quit")
        watcher.expect(pexpect.EOF)
        watcher.close()
        assert watcher.exitstatus == 0

    leaver = _play(hosted, log=io.StringIO())
    leaver.expect(PICK)
    leaver.sendline("q")
    leaver.expect(pexpect.EOF)
    leaver.close()
    assert leaver.exitstatus == 0


def test_play_starts_in_the_lobby_unless_a_match_is_named() -> None:
    import argparse

    from senet.text import lobby
    from senet.text.cli import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert lobby.wanted(parser.parse_args([]))
    assert lobby.wanted(parser.parse_args(["--lobby", "--game", "pebbles"]))
    for named in (["--watch", "m"], ["--join", "m"], ["--new", "pebbles"]):
        assert not lobby.wanted(parser.parse_args(named))
    with pytest.raises(SystemExit):
        parser.parse_args(["--lobby", "--watch", "m"])
