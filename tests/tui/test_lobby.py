"""The lobby screen: a table of the matches it is given; Enter joins, w watches, n starts."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App

from senet.tui.lobby import LobbyChoice, LobbyScreen
from senet.v1 import match_pb2


def _summary(match_id: str, claimed: Sequence[bool]) -> match_pb2.MatchSummary:
    return match_pb2.MatchSummary(
        match_id=match_id,
        game_id="mykerinos",
        status=match_pb2.MATCH_STATUS_ACTIVE,
        seats=[
            match_pb2.SeatInfo(seat=i, kind=match_pb2.SEAT_KIND_OPEN, claimed=c)
            for i, c in enumerate(claimed)
        ],
    )


MATCHES = [_summary("full", [True, True]), _summary("open", [True, False])]


class Host(App[LobbyChoice | None]):
    async def load(self) -> list[match_pb2.MatchSummary]:
        return MATCHES

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen(self.load), callback=self.exit)


async def test_enter_joins_the_highlighted_match_with_an_open_seat() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the first match has no open seat: refused
        await pilot.pause()
        assert app.is_running
        await pilot.press("down", "enter")
    assert app.return_value == LobbyChoice("join", "open")


async def test_w_watches_and_n_starts_a_new_match() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
    assert app.return_value == LobbyChoice("watch", "full")
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
    assert app.return_value == LobbyChoice("new")
