"""Pebbles' pieces and action notation."""

from __future__ import annotations

import re
from typing import NamedTuple

from senet.games.errors import MalformedActionError

#: Values a pebble may carry.
VALUES = range(1, 9)
#: Copies of each value in the bag.
COPIES = 3
#: Every pebble of a match, sorted.
PEBBLES_IN_PLAY: tuple[int, ...] = tuple(v for v in VALUES for _ in range(COPIES))

_NOTATION = re.compile(r"play ([1-8])")


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
    found = _NOTATION.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        raise MalformedActionError(f"not a Pebbles action: {text!r} (expected 'play <1-8>')")
    return Play(int(found.group(1)))
