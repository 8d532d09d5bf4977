"""Replays: a finished match rebuilt from its export, step by step, in this process.

``ExportMatch`` reveals the seed and its salt. Anyone may then check the seed
commitment (SHA-256 of ``"<salt>:<seed>"``) against the one published when the
match was created, and replay every action with the game's rules core, as any
client may: the replayed final scores must equal the server's. Each step is drawn
from the spectator view, encoded by the game's codec as the server would.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from senet.client import SenetClient
from senet.codec import codec_for, options_from_proto
from senet.games import get_game
from senet.games.interface import GameState
from senet.v1 import match_pb2
from senet.web.frames import frame, seat_label

#: Replays kept in memory (each holds one state per step).
CACHED_REPLAYS = 8


def seed_commitment(salt: str, seed: int) -> str:
    """Hex SHA-256 of ``"<salt>:<seed>"``, as documented on ``MatchSummary.seed_commitment``."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


@dataclass
class Replay:
    """A finished match: its states after every step, and what was checked."""

    game_id: str
    summary: match_pb2.MatchSummary
    states: list[GameState]
    steps: list[tuple[int, str, str]]  # seat, notation, label
    checks: list[tuple[str, bool]] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return all(ok for _, ok in self.checks)

    def frame(self, step: int) -> dict[str, Any]:
        """The page's frame after ``step`` actions (0: the match as dealt)."""
        step = max(0, min(step, len(self.states) - 1))
        state = self.states[step]
        view = codec_for(self.game_id).view_to_proto(state.view(None))
        summary = match_pb2.MatchSummary()
        summary.CopyFrom(self.summary)
        summary.version = step
        summary.ClearField("current_seat")
        current = state.current_seat()
        if current is not None and not state.is_over():
            summary.current_seat = current
        del summary.scores[:]
        summary.scores.extend(state.scores())
        del summary.places[:]
        if state.is_over():
            summary.status = match_pb2.MATCH_STATUS_FINISHED
            summary.places.extend(state.ranking())
        else:
            summary.status = match_pb2.MATCH_STATUS_ACTIVE
        log = [
            f"{index + 1}. {seat_label(summary, view, seat, None)}: {notation} ({label})"
            for index, (seat, notation, label) in enumerate(self.steps[:step])
        ]
        result = frame(summary, view, None, log=log[-12:])
        result["step"] = step
        result["steps"] = len(self.steps)
        return result

    def summary_data(self) -> dict[str, Any]:
        return {
            "steps": len(self.steps),
            "verified": self.verified,
            "checks": [{"what": what, "ok": ok} for what, ok in self.checks],
        }


async def load(client: SenetClient, match_id: str) -> Replay:
    """Export ``match_id`` and replay it; raises SenetRpcError when it cannot be exported."""
    export = await client.export(match_id)
    summary = (await client.get(match_id)).match
    game = get_game(export.game_id)
    state = game.new_match(export.seat_count, options_from_proto(export.options), export.seed)
    states = [state.clone()]
    steps = []
    for logged in export.actions:
        action = state.coerce_action(logged.notation)
        label = state.describe(action)
        state.apply(logged.seat, action)
        states.append(state.clone())
        steps.append((logged.seat, logged.notation, label))
    opened = seed_commitment(export.seed_salt, export.seed)
    replayed = list(state.scores()) == list(export.scores)
    checks = [
        (f"SHA-256 of salt:seed is {opened[:16]}…", opened == export.seed_commitment),
        ("it equals the commitment published at creation", opened == summary.seed_commitment),
        ("the replay reaches the server's final scores", replayed),
    ]
    return Replay(export.game_id, summary, states, steps, checks)


class ReplayCache:
    """The last few replays loaded, by match id (a finished match never changes)."""

    def __init__(self, size: int = CACHED_REPLAYS) -> None:
        self.size = size
        self._replays: OrderedDict[str, Replay] = OrderedDict()

    async def get(self, client: SenetClient, match_id: str) -> Replay:
        replay = self._replays.get(match_id)
        if replay is None:
            replay = await load(client, match_id)
            self._replays[match_id] = replay
            while len(self._replays) > self.size:
                self._replays.popitem(last=False)
        self._replays.move_to_end(match_id)
        return replay
