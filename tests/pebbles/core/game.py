"""The Pebbles descriptor: static facts, options and factories."""

from __future__ import annotations

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
    state_class = PebblesState

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> PebblesState:
        return PebblesState.deal(self, seats, options, seed)

    def parse_action(self, text: str) -> Play:
        return parse_action(text)


PEBBLES = Pebbles()
