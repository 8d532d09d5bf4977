"""The indefinite article before names that come from tables (issue 34, item 9)."""

from __future__ import annotations

import pytest

from senet.games import get_game
from senet.games.wording import a_or_an
from senet.v1 import games_pb2
from senet.web.pages import lobby


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("Explorer", "an Explorer"),
        ("influence", "an influence"),
        ("oil card", "an oil card"),
        ("Archeos Society", "an Archeos Society"),
        ("tax card", "a tax card"),
        ("Curator", "a Curator"),
        ("legion", "a legion"),
        ("Heiress", "an Heiress"),
        ("hour", "an hour"),
        ("unit", "a unit"),
        ("Euro", "a Euro"),
        ("one-off", "a one-off"),
        ("umbrella", "an umbrella"),
        ("8-room", "an 8-room"),
        ("11-seat match", "an 11-seat match"),
        ("18", "an 18"),
        ("110", "a 110"),
        ("3-room", "a 3-room"),
        ("", "a "),
    ],
)
def test_the_article_follows_the_sound_of_the_first_word(phrase: str, expected: str) -> None:
    assert a_or_an(phrase) == expected


def test_a_mykerinos_label_drafts_an_explorer() -> None:
    state = get_game("mykerinos").new_match(seats=3, options={"quick": True}, seed=15)
    labels = {a.notation(): state.describe(a) for a in state.legal_actions()}
    assert labels["draft exp"] == "Draft an Explorer patron card"
    assert labels["draft cur"] == "Draft a Curator patron card"


def test_a_mare_nostrum_label_pays_an_oil_card_and_builds_an_influence() -> None:
    state = get_game("marenostrum").new_match(seats=3, seed=1)

    def label(notation: str) -> str:
        return state.describe(state.coerce_action(notation))

    assert label("pay oil") == "Pay an oil card"
    assert label("pay tax") == "Pay a tax card"
    assert label("build influence lati") == "Build an influence in Latium"


def test_the_web_lobby_creates_an_archeos_society_match() -> None:
    """Archeos Society's own labels name cards with "the"; its name takes "an"."""
    games = [
        games_pb2.GameInfo(id="archeos", name="Archeos Society", min_seats=2, max_seats=6),
        games_pb2.GameInfo(id="mykerinos", name="Mykerinos", min_seats=2, max_seats=4),
    ]
    page = lobby(games, csrf="token")
    assert "Create an Archeos Society match" in page
    assert "Create a Mykerinos match" in page
