"""Mare Nostrum notation: numbers (sizes, seats) are ASCII decimal, written one way."""

from __future__ import annotations

import pytest

from senet.games.errors import MalformedActionError
from senet.games.marenostrum import MARENOSTRUM, parse_action


@pytest.mark.parametrize(
    "text",
    [
        "size ²",  # superscript: isdigit, yet int() refuses it
        "grant ²",
        "next ⑤",  # circled digit: the same
        "take ² wine",
        "size ٣",  # Arabic-Indic three: int() reads it as 3
        "size \uff11",  # fullwidth one: int() reads it as 1
        "grant \U0001d7d9",  # mathematical double-struck one
        "take \uff12 wine",
        "size 03",  # a leading zero would be a second spelling of size 3
        "grant 00",
        "size 1000",
        "grant 6",
        "grant -1",
        "grant " + "9" * 5000,  # past int()'s limit of digits
    ],
)
def test_numbers_are_ascii_decimal_without_leading_zeros(text: str) -> None:
    with pytest.raises(MalformedActionError, match=r"is not a (seat number|number of cards)"):
        parse_action(text)


def test_a_foreign_digit_is_refused_where_its_ascii_twin_is_legal() -> None:
    state = MARENOSTRUM.new_match(3, seed=1)
    seat = state.current_seat()
    assert seat is not None and "size 1" in [a.notation() for a in state.legal_actions()]
    before = state.to_data()
    for text in ("size \uff11", "size \u0661", "size ¹"):
        with pytest.raises(MalformedActionError):
            state.apply(seat, text)
        assert state.to_data() == before
    state.apply(seat, "size 1")


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("size 0", "size 0"),
        ("SIZE 999", "size 999"),
        ("grant 5", "grant 5"),
        ("take 0 tax", "take 0 tax"),
    ],
)
def test_ascii_numbers_still_read(text: str, action: str) -> None:
    assert parse_action(text).notation() == action
