"""Played matches as training data: every decision as the learning environments see it.

``senet export`` writes finished matches as JSON Lines, one ``{"match_id", "export"}``
object per line, the export being ``ExportMatchResponse`` in protobuf's JSON form.
:func:`decisions` replays one such match with the rules core, from the seed it was
dealt with, and gives each logged action as a :class:`Decision`: the deciding seat's
observation tensor and action mask (the same encoding, version and action space as
:class:`senet.rl.pettingzoo.SenetEnv` for that game, seat count and options), the
chosen action's index, who chose it (the seat's player, or the server for a timeout,
a takeover or a resigned seat), the seat's final reward, and what the seat saw next
(its observation and mask at its next decision, or at the end after its last). That
is what behaviour cloning and offline reinforcement learning take, from people's
matches and the ladder's: a seat's transitions run from one of its decisions to
its next, and its reward comes with its last.

A match is replayed only under the rules it was played under: one whose export names
another version of the game's rules than this release's raises :class:`OtherRules`
(:func:`matches` skips them, and counts them).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from senet.codec import fairness, options_from_proto
from senet.codec.exports import record_export
from senet.games import GameState, get_game
from senet.rl.encoding import action_space, observation_encoder
from senet.rl.rewards import final_rewards
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms

#: Who chose an action, by the export's ``origin``: the seat's holder, or the
#: server on the seat's behalf.
ORIGINS = {
    match_pb2.ACTION_ORIGIN_UNSPECIFIED: "seat",
    match_pb2.ACTION_ORIGIN_SEAT: "seat",
    match_pb2.ACTION_ORIGIN_TIMEOUT: "timeout",
    match_pb2.ACTION_ORIGIN_TAKEOVER: "takeover",
    match_pb2.ACTION_ORIGIN_RESIGNED: "resigned",
}


class OtherRules(ValueError):
    """The match was played under another version of its game's rules than this
    release plays: replayed here it could deal another hand or refuse an action."""


@dataclass(frozen=True)
class Decision:
    """One logged action, as the deciding seat saw the match before it.

    Attributes:
        match_id: The match.
        step: Its place in the match's log (0 first).
        seat: The seat that acted.
        observation: The seat's observation tensor (float32), from its view only.
        action_mask: The seat's legal actions over the action space (int8).
        action: The index of the action played.
        notation: Its notation.
        origin: Who chose it: ``seat`` (its player or bot), ``timeout``,
            ``takeover`` or ``resigned`` (the server, for the seat).
        strategy: The bot strategy that chose it, where one did: a bot seat's own
            (``greedy``, ``remote:<bot id>`` for a registered bot), a takeover
            bot's, or the server's fallback (``random``); ``""`` for a person's
            choice, and for a bot seat of an export from a server older than
            ``ExportMatchResponse.seats``.
        reward: The seat's reward for the whole match (as the environments give it
            at the end: the share of seats it finished ahead of minus those behind).
        next_observation: The seat's observation at its next decision; after its
            last, at the end of the match.
        next_action_mask: The seat's legal actions at its next decision; after
            its last, none (all zeros).
        last: Whether this is the seat's last decision of the match (the
            transition that ends its episode, where the environments hand out
            ``reward``).
    """

    match_id: str
    step: int
    seat: int
    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    action: int
    notation: str
    origin: str
    strategy: str
    reward: float
    next_observation: npt.NDArray[np.float32]
    next_action_mask: npt.NDArray[np.int8]
    last: bool


@dataclass
class Skipped:
    """The matches :func:`matches` left out, by match id, with the reason."""

    reasons: dict[str, str] = field(default_factory=dict)


def decisions(match_id: str, export: ms.ExportMatchResponse) -> list[Decision]:
    """Every logged action of a finished match's export, in order (see the module).

    Raises:
        OtherRules: the match was played under another version of the rules.
        senet.games.errors.GameError: the rules refuse a logged action.
    """
    mismatch = fairness.rules_mismatch(export)
    if mismatch is not None:
        raise OtherRules(f"match {match_id}: {mismatch}")
    game_id, seats = export.game_id, export.seat_count
    options = options_from_proto(export.options)
    state: GameState = get_game(game_id).new_match(seats, options, export.dealt_seed)
    space = action_space(game_id, seats, options)
    encoder = observation_encoder(game_id, seats, options)
    writers = [encoder.writer() for _ in range(seats)]
    bots = {info.seat: info.bot_strategy for info in export.seats if info.bot_strategy}
    played = []
    for step, logged in enumerate(export.actions):
        seat, notation = logged.seat, logged.notation
        legal = state.legal_actions_for(seat)
        action = state.coerce_action(notation)
        tensor = np.array(writers[seat].encode(state, seat), dtype=np.float32)
        mask = np.frombuffer(space.mask(legal), np.int8)
        origin = ORIGINS.get(logged.origin, "seat")
        strategy = logged.origin_strategy or (bots.get(seat, "") if origin == "seat" else "")
        played.append(
            (step, seat, tensor, mask, space.index_of(action), notation, origin, strategy)
        )
        state.apply(seat, notation)
    rewards = final_rewards(state) if state.is_over() else [0.0] * seats
    after: dict[int, tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], bool]] = {
        seat: (
            np.array(writers[seat].encode(state, seat), np.float32),
            np.zeros(len(space), np.int8),
            True,
        )
        for seat in range(seats)
    }
    found = []
    for step, seat, tensor, mask, index, notation, origin, strategy in reversed(played):
        next_tensor, next_mask, last = after[seat]
        found.append(
            Decision(
                match_id,
                step,
                seat,
                tensor,
                mask,
                index,
                notation,
                origin,
                strategy,
                rewards[seat],
                next_tensor,
                next_mask,
                last,
            )
        )
        after[seat] = (tensor, mask, False)
    return found[::-1]


def read(path: str | Path) -> Iterator[tuple[str, ms.ExportMatchResponse]]:
    """The matches of a ``senet export`` file: (match id, export) per line (fields a
    newer server added are ignored)."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield record_export(json.loads(line))


def matches(
    records: Iterable[tuple[str, ms.ExportMatchResponse]],
    *,
    game_id: str | None = None,
    seats: int | None = None,
    skipped: Skipped | None = None,
) -> Iterator[list[Decision]]:
    """Each match's decisions (:func:`decisions`), of one game and seat count when
    asked; matches played under other rules go to ``skipped`` instead."""
    for match_id, export in records:
        if game_id is not None and export.game_id != game_id:
            continue
        if seats is not None and export.seat_count != seats:
            continue
        try:
            yield decisions(match_id, export)
        except OtherRules as exc:
            if skipped is not None:
                skipped.reasons[match_id] = str(exc)
