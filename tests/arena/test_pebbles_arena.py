"""The arena on Pebbles, the test-suite game: ``senet arena --game pebbles`` runs a small
tournament of a searching bot against the simple ones, in threads and in decision
processes (which must find the test game through the inherited PYTHONPATH)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from senet.cli import main


@pytest.mark.slow
@pytest.mark.parametrize("processes", ["0", "1"])
def test_a_small_pebbles_tournament(tmp_path: Path, processes: str) -> None:
    out = tmp_path / "results.json"
    argv = ["arena", "--game", "pebbles", "--players", "mcts@20i,greedy,random"]
    argv += ["--matches", "3", "--parallel", "3", "--seed", "5", "--processes", processes]
    assert main([*argv, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert len(data["matches"]) == 3
    for match in data["matches"]:
        assert sorted(match["seats"].values()) == ["greedy", "mcts@20i", "random"]
        assert len(match["scores"]) == len(match["places"]) == 3
        assert min(match["places"]) == 1
    summary = {s["player"]: s for s in data["summary"]}
    assert sum(s["wins"] for s in summary.values()) == pytest.approx(3)
