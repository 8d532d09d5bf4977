"""Pebbles for learning agents: one action per pebble value, and a small observation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from senet.games import Action, Game
from senet.rl.encoding import RlEncoding
from senet.rl.features import Feature, counts, number, seat, seat_numbers
from tests.pebbles.core.rules import COPIES, PEBBLES_IN_PLAY, VALUES, Play

MAX_SEATS = 4


class PebblesEncoding(RlEncoding):
    """Pebbles' action space and observation features."""

    game_id = "pebbles"
    version = 1

    def action_candidates(
        self, game: Game, seats: int, options: Mapping[str, Any]
    ) -> Iterator[Action]:
        return (Play(tile) for tile in VALUES)

    def features(self, seats: int, options: Mapping[str, Any]) -> Sequence[Feature]:
        return (
            number("doubles", "options", "doubles"),
            counts("hand", "hand", vocabulary=VALUES, scale=COPIES),
            seat_numbers("hand sizes", "hand_sizes", max_seats=MAX_SEATS, scale=4),
            number("bag size", "bag_size", scale=len(PEBBLES_IN_PLAY)),
            counts("pile", "pile", vocabulary=VALUES, scale=COPIES),
            number("top", "top", scale=VALUES[-1]),
            seat_numbers("scores", "scores", max_seats=MAX_SEATS, scale=20),
            seat("turn", "turn", max_seats=MAX_SEATS),
        )


PEBBLES_RL = PebblesEncoding()
