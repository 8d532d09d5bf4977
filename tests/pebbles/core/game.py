"""The Pebbles descriptor: static facts, options and factories."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from senet.games.errors import CorruptStateError
from senet.games.interface import Game, GameInfo, JsonDict, OptionSpec
from tests.pebbles.core.rules import Play, parse_action
from tests.pebbles.core.state import PebblesState


class Pebbles(Game):
    """Pebbles, 2 to 4 players, about two dozen decisions a match."""

    info = GameInfo(
        id="pebbles",
        name="Pebbles",
        min_seats=2,
        max_seats=4,
        description=(
            "Play numbered pebbles from a hidden hand onto a shared pile: beat the top "
            "to score it, or knock the pile down."
        ),
        options=(
            OptionSpec(
                name="hand_size",
                kind="int",
                default=3,
                description="Pebbles each seat holds",
                minimum=2,
                maximum=4,
            ),
            OptionSpec(
                name="doubles",
                kind="bool",
                default=False,
                description="Matching the top scores twice its value instead of knocking",
                variant=True,
            ),
        ),
    )

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> PebblesState:
        return PebblesState.deal(self, seats, options, seed)

    def parse_action(self, text: str) -> Play:
        return parse_action(text)

    def state_from_view(self, view: Mapping[str, Any], seed: int) -> PebblesState:
        if not isinstance(view, Mapping) or view.get("game") != self.info.id:
            raise CorruptStateError("not a Pebbles view")
        return PebblesState.from_view(self, view, seed)

    def state_from_data(self, data: Mapping[str, Any]) -> PebblesState:
        if not isinstance(data, Mapping) or data.get("game") != self.info.id:
            raise CorruptStateError("not a Pebbles state")
        return PebblesState.from_data(self, data)


PEBBLES = Pebbles()
