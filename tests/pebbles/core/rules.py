"""Pebbles' pieces and action notation."""

from __future__ import annotations

from typing import NamedTuple

from senet.games.errors import MalformedActionError
from senet.games.notation import read_number

#: Values a pebble may carry.
VALUES = range(1, 9)
#: Copies of each value in the bag.
COPIES = 3
#: Every pebble of a match, sorted.
PEBBLES_IN_PLAY: tuple[int, ...] = tuple(v for v in VALUES for _ in range(COPIES))


class Play(NamedTuple):
    """Play the pebble of value ``tile`` from the hand; notation ``play <tile>``."""

    tile: int

    def notation(self) -> str:
        return f"play {self.tile}"


def parse_action(text: str) -> Play:
    """Read ``play <1-8>``.

    Raises:
        MalformedActionError: anything else.
    """
    kind, _, value = text.partition(" ") if isinstance(text, str) else ("", "", "")
    tile = read_number(value, VALUES[0], VALUES[-1]) if kind == "play" else None
    if tile is None:
        raise MalformedActionError(f"not a Pebbles action: {text!r} (expected 'play <1-8>')")
    return Play(tile)
