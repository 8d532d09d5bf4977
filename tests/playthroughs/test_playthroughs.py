"""Every playthrough file still describes the match it records, exactly.

A change to move generation, labels, error messages, events, scoring or snapshots
shows here as a diff of the recorded text. When the change is intended, regenerate
the files (``python -m tests.playthroughs --regenerate``) and review their diff.
"""

from __future__ import annotations

import difflib

import pytest

from senet.games import get_game
from tests.playthroughs.record import (
    DIRECTORY,
    REGENERATE,
    Playthrough,
    playthroughs,
    record,
    unversioned_change,
)

PLAYTHROUGHS = playthroughs()

#: Diff lines shown on a mismatch; the rest is one regeneration and a git diff away.
SHOWN = 80


@pytest.mark.parametrize("playthrough", PLAYTHROUGHS, ids=lambda p: p.path.stem)
def test_the_match_replays_as_recorded(playthrough: Playthrough) -> None:
    assert playthrough.path.exists(), f"{playthrough.path.name} is missing: run {REGENERATE}"
    recorded = playthrough.path.read_text()
    played = record(playthrough)
    if played != recorded:
        diff = list(
            difflib.unified_diff(
                recorded.splitlines(),
                played.splitlines(),
                f"recorded {playthrough.path.name}",
                "played now",
                lineterm="",
            )
        )
        more = f"\n... {len(diff) - SHOWN} more diff lines" if len(diff) > SHOWN else ""
        change = unversioned_change(recorded, played)
        todo = (
            f"the same seed and actions now play differently ({change}): if intended, "
            "raise the game's GameInfo.rules_version, then "
            if change is not None
            else "if intended: "
        )
        pytest.fail(
            f"{playthrough.path.name} no longer matches the match it records "
            f"({todo}{REGENERATE}, then review the git diff):\n" + "\n".join(diff[:SHOWN]) + more,
            pytrace=False,
        )


def test_every_file_is_a_listed_playthrough() -> None:
    listed = {p.path.name for p in PLAYTHROUGHS}
    on_disk = {p.name for p in DIRECTORY.glob("*.txt")}
    assert on_disk == listed, f"run {REGENERATE} to add missing and drop stale files"


def test_every_variant_of_every_game_is_played() -> None:
    from senet.games import all_games

    for game in all_games():
        played = [p for p in PLAYTHROUGHS if p.game_id == game.info.id]
        assert played, f"no playthrough of {game.info.id}"
        for spec in game.info.options:
            if spec.variant:
                assert any(dict(p.options).get(spec.name) for p in played), spec.name


def test_a_match_played_differently_needs_a_new_rules_version() -> None:
    """Regenerating refuses, and the failure above says so, when the same seed
    and actions play differently while the rules version stays: a finished
    match's export names that version, and a checker replays it by it."""
    recorded = PLAYTHROUGHS[0].path.read_text()
    first = next(line for line in recorded.splitlines() if line.startswith("0: seat "))
    seat_line, label = first.split(" (", 1)
    relabelled = recorded.replace(first, f"{seat_line} (another label for it)", 1)
    assert unversioned_change(recorded, relabelled) is None
    other_move = recorded.replace(first, f"{seat_line}x ({label}", 1)
    change = unversioned_change(recorded, other_move)
    assert change is not None and repr(seat_line) in change
    version = f"# rules version {get_game(PLAYTHROUGHS[0].game_id).info.rules_version}"
    assert version in recorded
    bumped = other_move.replace(version, "# rules version 99", 1)
    assert unversioned_change(recorded, bumped) is None
