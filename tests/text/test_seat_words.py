"""How the lobbies and the players' panes name a seat: a registered bot by its
name, never by its queue's id (``remote:<bot id>``)."""

from __future__ import annotations

from senet.text.lobby import game_words
from senet.text.seat_names import SeatNames, bot_words, seat_words
from senet.v1 import games_pb2, match_pb2
from senet.v1 import match_service_pb2 as ms
from senet.web.pages import listings_html

BOT = match_pb2.SEAT_KIND_BOT
REMOTE = "remote:0123456789abcdef0123"


def listing(*seats: match_pb2.SeatInfo) -> ms.MatchListing:
    return ms.MatchListing(seats=list(seats))


def test_each_kind_of_seat_in_a_few_words() -> None:
    seats = listing(
        match_pb2.SeatInfo(seat=0, display_name="Ada", claimed=True),
        match_pb2.SeatInfo(seat=1),
        match_pb2.SeatInfo(seat=2, kind=BOT, bot_strategy="greedy"),
        match_pb2.SeatInfo(seat=3, kind=BOT, bot_strategy=REMOTE, display_name="AlphaMyk"),
        match_pb2.SeatInfo(seat=4, display_name="Bob", kept=True),  # a rematch's
        match_pb2.SeatInfo(seat=5, display_name="Cy", kept=True, claimed=True),
        match_pb2.SeatInfo(seat=6, display_name="Di", claimed=True, resigned=True),
    )
    assert seat_words(seats) == (
        "Ada, open, bot greedy, bot AlphaMyk, Bob (reserved), Cy, Di (resigned)"
    )


def test_a_registered_bot_without_a_name_is_not_shown_by_its_id() -> None:
    """Matches created before seats carried their bot's name."""
    info = match_pb2.SeatInfo(kind=BOT, bot_strategy=REMOTE)
    assert bot_words(info) == "registered bot"
    named = match_pb2.SeatInfo(kind=BOT, bot_strategy=REMOTE, display_name="AlphaMyk")
    assert bot_words(named, named=False) == "registered bot"  # beside its name


def test_a_registered_bots_seat_is_called_by_its_name_before_it_is_claimed() -> None:
    summary = match_pb2.MatchSummary(
        seats=[
            match_pb2.SeatInfo(seat=0, kind=BOT, bot_strategy="mcts"),
            match_pb2.SeatInfo(seat=1, kind=BOT, bot_strategy=REMOTE, display_name="AlphaMyk"),
        ]
    )
    names = SeatNames(summary)
    assert [names.name(0), names.name(1)] == ["mcts bot", "AlphaMyk"]


def test_a_rated_match_says_so_beside_its_game_in_the_lobbies() -> None:
    nile = ms.MatchListing(game_id="mykerinos")
    nile.options["nile"].bool_value = True
    variants = {"mykerinos": ["nile", "quick"]}
    assert game_words(nile, variants) == "mykerinos+nile"
    nile.rated = True
    assert game_words(nile, variants) == "mykerinos+nile rated"
    games = [games_pb2.GameInfo(id="mykerinos", name="Mykerinos")]
    assert "<td class='game-name'>Mykerinos · rated</td>" in listings_html([nile], games, "csrf")
