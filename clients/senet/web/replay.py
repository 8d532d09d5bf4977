"""Replays: a finished match rebuilt from its export, step by step, in this process.

``ExportMatch`` reveals the seed, its salt and every seat's entropy. Anyone may
then check the seed commitment against the one published when the match was
created, work out the seed the match was dealt with, and replay every action with
the game's rules core, as any client may (``senet.codec.fairness``): the replayed
final scores must equal the server's. Each step is drawn
from the spectator view, encoded by the game's codec as the server would.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from senet.client import SenetClient
from senet.codec import codec_for, fairness
from senet.games.errors import GameError
from senet.games.interface import GameState
from senet.text.renderer import origin_note
from senet.v1 import match_pb2
from senet.web.frames import frame, seat_label

#: Replays kept in memory (each holds one state per step).
CACHED_REPLAYS = 8


class UnreplayableMatch(Exception):
    """An export this rules core cannot replay: played under other rules, or
    its actions refused (then the server's record is wrong)."""


@dataclass
class Replay:
    """A finished match: its states after every step, and what was checked."""

    game_id: str
    summary: match_pb2.MatchSummary
    states: list[GameState]
    steps: list[tuple[int, str, str, str]]  # seat, notation, label, who chose it if not the seat
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
            # The server's places rank a resigned seat last; the rules core cannot know.
            summary.places.extend(self.summary.places or state.ranking())
        else:
            summary.status = match_pb2.MATCH_STATUS_ACTIVE
        log = [
            f"{index + 1}. {seat_label(summary, view, seat, None)}: {notation} ({label})"
            + (f" -- {note}" if note else "")
            for index, (seat, notation, label, note) in enumerate(self.steps[:step])
        ]
        result = frame(summary, view, None, log=log[-12:])
        result["headline"] = self.position(step)
        result["step"] = step
        result["steps"] = len(self.steps)
        return result

    def position(self, step: int) -> str:
        """Where the replay stands: ``Move 12 of 80: Red played ...`` (never whose turn)."""
        total = len(self.steps)
        if step == 0:
            return f"Move 0 of {total}: the match as dealt."
        seat, notation, label, _note = self.steps[step - 1]
        view = codec_for(self.game_id).view_to_proto(self.states[step].view(None))
        who = seat_label(self.summary, view, seat, None)
        end = " The match is over." if step == total and self.states[step].is_over() else ""
        return f"Move {step} of {total}: {who} played {notation} ({label}).{end}"

    def summary_data(self) -> dict[str, Any]:
        return {
            "steps": len(self.steps),
            "verified": self.verified,
            "checks": [{"what": what, "ok": ok} for what, ok in self.checks],
        }


async def load(client: SenetClient, match_id: str) -> Replay:
    """Export ``match_id`` and replay it.

    Raises:
        SenetRpcError: the match cannot be exported (unknown, or not over).
        UnreplayableMatch: it was played under other rules than this client's,
            or the rules refuse an action of its log.
    """
    export = await client.export(match_id)
    summary = (await client.get(match_id)).match
    mismatch = fairness.rules_mismatch(export)
    if mismatch is not None:
        raise UnreplayableMatch(f"Not replayed: {mismatch}.")
    try:
        states = fairness.replay(export)
    except GameError as exc:
        raise UnreplayableMatch(fairness.refused_log(export, exc)[0]) from exc
    steps = [
        (
            logged.seat,
            logged.notation,
            before.describe(before.coerce_action(logged.notation)),
            origin_note(logged),
        )
        for logged, before in zip(export.actions, states, strict=False)
    ]
    checks = fairness.export_checks(export, summary.seed_commitment, states[-1])
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
