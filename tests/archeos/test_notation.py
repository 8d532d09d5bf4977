"""Archeos Society notation: Professor tokens and the second vehicle (``y2``) are
written in ASCII digits, one way each."""

from __future__ import annotations

import pytest

from senet.games.archeos import ARCHEOS, parse_action
from senet.games.errors import MalformedActionError


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("prof ²", "token value"),
        ("prof ٣", "token value"),
        ("prof \uff11", "token value"),
        ("prof ⑤", "token value"),
        ("prof \U0001d7d9", "token value"),
        ("prof 03", "token value"),
        ("prof 7", "token value"),
        ("prof", "token value"),
        ("prof " + "1" * 5000, "token value"),
        ("adv y²", "not a site"),
        ("adv y٢", "not a site"),
        ("back y\uff12", "not a site"),
    ],
)
def test_numbers_are_ascii_digits_written_one_way(text: str, fragment: str) -> None:
    with pytest.raises(MalformedActionError, match=fragment):
        parse_action(text)


@pytest.mark.parametrize("text", ["prof 1", "prof 6", "adv y2", "back y2"])
def test_ascii_numbers_still_read(text: str) -> None:
    assert parse_action(text).notation() == text


def test_a_foreign_digit_is_refused_by_the_checked_apply() -> None:
    state = ARCHEOS.new_match(2, seed=1)
    seat = state.current_seat()
    assert seat is not None
    before = state.to_data()
    for text in ("prof ²", "prof \uff13", "adv y٢"):
        with pytest.raises(MalformedActionError):
            state.apply(seat, text)
        assert state.to_data() == before
