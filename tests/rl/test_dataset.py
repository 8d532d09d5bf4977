"""Played matches as training data (senet.rl.dataset): each logged action becomes the
deciding seat's observation and mask as the PettingZoo environment gives them, the
index of the action played, who chose it and the seat's final reward."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from senet.codec import options_to_proto
from senet.codec.exports import export_record
from senet.games import get_game
from senet.rl import dataset
from senet.rl.pettingzoo import SenetEnv, env
from senet.rl.rewards import final_rewards
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.rl.cases import GAME_IDS, least

#: What an actor was shown and chose: seat, observation, mask, action index.
Seen = tuple[int, Any, Any, int]


@dataclass
class Played:
    """A match played in the environment: the export a server would give of it,
    what the environment showed each actor before it acted, and each seat's
    observation at the end."""

    export: ms.ExportMatchResponse
    environment: SenetEnv
    seen: list[Seen]
    finals: dict[int, Any]


def _played(game_id: str, seed: int) -> Played:
    """A match of ``game_id`` played at random in the environment (see :class:`Played`)."""
    seats, options = least(game_id)
    environment = env(game_id, seats, options)
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    export = ms.ExportMatchResponse(
        game_id=game_id,
        seat_count=seats,
        dealt_seed=seed,
        seed=seed,
        seed_chosen=True,
        rules_version=get_game(game_id).info.rules_version,
    )
    options_to_proto(environment.options, export.options)
    # Seat 0 a greedy bot, the others people: the export says so (its seats).
    for seat in range(seats):
        bot = seat == 0
        export.seats.add(
            seat=seat,
            kind=match_pb2.SEAT_KIND_BOT if bot else match_pb2.SEAT_KIND_OPEN,
            bot_strategy="greedy" if bot else "",
        )
    seen = []
    finals: dict[int, Any] = {}
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            finals[environment._seat_of[agent]] = observation["observation"]
            environment.step(None)
            continue
        index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        seat = environment._seat_of[agent]
        seen.append((seat, observation["observation"], observation["action_mask"], index))
        export.actions.add(
            version=len(export.actions) + 1,
            seat=seat,
            notation=environment.space.notations[index],
            origin=match_pb2.ACTION_ORIGIN_TIMEOUT
            if index % 7 == 0
            else match_pb2.ACTION_ORIGIN_SEAT,
            origin_strategy="random" if index % 7 == 0 else "",
            rules_version=export.rules_version,
        )
        environment.step(index)
    return Played(export, environment, seen, finals)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_played_match_replays_into_what_the_environment_showed(game_id: str) -> None:
    played = _played(game_id, seed=3)
    export, environment, seen = played.export, played.environment, played.seen
    assert environment.state.is_over()
    decisions = dataset.decisions("m1", export)
    assert len(decisions) == len(seen) == len(export.actions)
    rewards = final_rewards(environment.state)
    for decision, (seat, observation, mask, index), logged in zip(
        decisions, seen, export.actions, strict=True
    ):
        assert (decision.seat, decision.action, decision.notation) == (seat, index, logged.notation)
        assert decision.observation.dtype == np.float32 and decision.action_mask.dtype == np.int8
        assert np.array_equal(decision.observation, observation)
        assert np.array_equal(decision.action_mask, mask) and mask[index] == 1
        assert decision.origin == ("timeout" if index % 7 == 0 else "seat")
        # Who chose it: the server's fallback, the bot seat's strategy, or a person.
        chose = "random" if index % 7 == 0 else "greedy" if seat == 0 else ""
        assert decision.strategy == chose
        assert decision.reward == rewards[seat]
    assert [d.step for d in decisions] == list(range(len(decisions)))
    # Each seat's transitions run from one of its decisions to its next, then to the end.
    for seat in range(environment.seats):
        own = [d for d in decisions if d.seat == seat]
        for decision, following in itertools.pairwise(own):
            assert np.array_equal(decision.next_observation, following.observation)
            assert np.array_equal(decision.next_action_mask, following.action_mask)
            assert not decision.last
        if own:
            assert own[-1].last and not own[-1].next_action_mask.any()
            assert np.array_equal(own[-1].next_observation, played.finals[seat])


def test_a_file_of_matches_is_read_and_other_rules_are_skipped(tmp_path: Path) -> None:
    kept = _played("mykerinos", seed=4).export
    older = ms.ExportMatchResponse()
    older.CopyFrom(kept)
    older.rules_version += 1
    other_game = _played("archeos", seed=5).export
    path = tmp_path / "matches.jsonl"
    lines = [
        export_record(match_id, export)
        for match_id, export in (("kept", kept), ("older", older), ("other", other_game))
    ]
    lines[0]["export"]["a_field_of_a_newer_server"] = 1
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + "\n")

    read = list(dataset.read(path))
    assert [match_id for match_id, _ in read] == ["kept", "older", "other"]
    assert read[0][1] == kept
    skipped = dataset.Skipped()
    found = list(dataset.matches(read, game_id="mykerinos", skipped=skipped))
    assert [[d.match_id for d in match][:1] for match in found] == [["kept"]]
    assert len(found[0]) == len(kept.actions)
    assert list(skipped.reasons) == ["older"]
    assert "rules version" in skipped.reasons["older"]
    with pytest.raises(dataset.OtherRules):
        dataset.decisions("older", older)
