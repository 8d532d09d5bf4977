"""The shared reader of numbers in notation (senet.games.notation)."""

from __future__ import annotations

import pytest

from senet.games.errors import MalformedActionError
from senet.games.notation import parse_number, read_number


@pytest.mark.parametrize(("token", "value"), [("0", 0), ("7", 7), ("10", 10), ("999", 999)])
def test_ascii_decimal_numbers_in_range_are_read(token: str, value: int) -> None:
    assert read_number(token, 0, 999) == value
    assert parse_number(token, "a count", 0, 999) == value


@pytest.mark.parametrize(
    "token",
    ["", " 1", "1 ", "+1", "-1", "01", "00", "1_0", "1.0", "0x1", "1000", "9" * 5000, "²", "⑤",
     "\u0663", "\uff11", "\U0001d7d9", "1\uff11", "\u2167"],
)  # fmt: skip
def test_anything_else_is_refused_with_the_token_named(token: str) -> None:
    assert read_number(token, 0, 999) is None
    with pytest.raises(MalformedActionError) as refused:
        parse_number(token, "a count", 0, 999)
    assert str(refused.value) == f"{token!r} is not a count"


def test_the_low_bound_holds() -> None:
    assert read_number("0", 1, 9) is None
    assert read_number("1", 1, 9) == 1
