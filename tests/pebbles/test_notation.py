"""Pebbles notation: ``play <1-8>`` in an ASCII digit, the one spelling of each play."""

from __future__ import annotations

import pytest

from senet.games import get_game
from senet.games.errors import MalformedActionError


@pytest.mark.parametrize(
    "text",
    ["play ²", "play ٣", "play \uff11", "play ⑤", "play \U0001d7d9", "play 03", "play 9",
     "play 0", "play  3", "play 3 ", "play", "zz"],
)  # fmt: skip
def test_plays_are_written_in_one_ascii_digit(text: str) -> None:
    game = get_game("pebbles")
    with pytest.raises(MalformedActionError, match="not a Pebbles action"):
        game.parse_action(text)
    state = game.new_match(2, seed=5)
    seat = state.current_seat()
    assert seat is not None
    before = state.to_data()
    with pytest.raises(MalformedActionError):
        state.apply(seat, text)
    assert state.to_data() == before


@pytest.mark.parametrize("text", ["play 1", "play 8"])
def test_ascii_plays_still_read(text: str) -> None:
    assert get_game("pebbles").parse_action(text).notation() == text
