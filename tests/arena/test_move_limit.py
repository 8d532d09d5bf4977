"""``senet arena --move-limit-ms``: the per-move limit is the server's turn clock.

A bot that thinks longer than the limit has its move played by the server
(the clock's fallback), so a tournament of slow bots still finishes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from senet.cli import main


@pytest.mark.slow
def test_slow_bots_under_a_move_limit_still_finish(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    argv = ["arena", "--game", "pebbles", "--players", "mcts@2s,random"]
    argv += ["--matches", "2", "--parallel", "2", "--seed", "3", "--processes", "0"]
    argv += ["--move-limit-ms", "100", "--out", str(out)]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    assert len(data["matches"]) == 2
    for match in data["matches"]:
        assert min(match["places"]) == 1


def test_the_move_limit_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--game", "pebbles", "--players", "random,random", "--matches", "1"]
    assert main([*argv, "--move-limit-ms", "0"]) == 2
    assert "move limit" in capsys.readouterr().out
