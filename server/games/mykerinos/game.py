"""The Mykerinos descriptor: static facts, options and factories."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.games.errors import CorruptStateError
from server.games.interface import Game, GameInfo, JsonDict
from server.games.mykerinos.actions import MykerinosAction, parse_action
from server.games.mykerinos.state import MykerinosState


class Mykerinos(Game):
    """Mykerinos: Special Edition, base game for 2 to 4 players."""

    info = GameInfo(
        id="mykerinos",
        name="Mykerinos",
        min_seats=2,
        max_seats=4,
        description=(
            "Archaeologists dig plots in four campaigns to win patrons and the best "
            "rooms of the museum (Special Edition rules; 2 players with a neutral player)."
        ),
        options=(),
    )

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> MykerinosState:
        state = MykerinosState(self, seats, options)
        state.setup(seed)
        return state

    def parse_action(self, text: str) -> MykerinosAction:
        return parse_action(text)

    def state_from_view(self, view: Mapping[str, Any], seed: int) -> MykerinosState:
        if not isinstance(view, Mapping) or view.get("game") != self.info.id:
            raise CorruptStateError("not a Mykerinos view")
        return MykerinosState.from_view(self, view, seed)

    def state_from_data(self, data: Mapping[str, Any]) -> MykerinosState:
        if not isinstance(data, Mapping) or data.get("game") != self.info.id:
            raise CorruptStateError("not a Mykerinos state")
        return MykerinosState.from_data(self, data)


MYKERINOS = Mykerinos()
