"""The lobby screen: the matches ``ListMatches`` returns; Enter joins, w watches, n starts.

The first tests feed the screen fixed listings; the others run the whole lobby of
``senet play`` (:func:`senet.tui.run.lobby_session`) against a real server, driven
by the pilot, and open the play screen for what was picked.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Awaitable, Callable, Sequence

import pytest
from textual.app import App
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from senet.client.client import SenetClient
from senet.codec.options import game_info_to_proto
from senet.games.registry import get_game
from senet.text import cli as play_cli
from senet.text import drawing
from senet.tui.app import PlayApp
from senet.tui.lobby import LobbyApp, LobbyChoice, LobbyScreen
from senet.tui.newmatch import NewMatchChoices, NewMatchForm, short_label
from senet.tui.run import lobby_session
from senet.v1 import games_pb2, match_pb2, match_service_pb2
from tests.tui.conftest import screen_text, wait_for


def _listing(match_id: str, claimed: Sequence[bool]) -> match_service_pb2.MatchListing:
    return match_service_pb2.MatchListing(
        match_id=match_id,
        game_id="mykerinos",
        status=match_pb2.MATCH_STATUS_ACTIVE,
        seats=[
            match_pb2.SeatInfo(
                seat=i, kind=match_pb2.SEAT_KIND_OPEN, claimed=c, display_name="Ada" if c else ""
            )
            for i, c in enumerate(claimed)
        ],
    )


MATCHES = [_listing("full", [True, True]), _listing("open", [True, False])]


class Host(App[LobbyChoice | None]):
    def __init__(self, games: Sequence[games_pb2.GameInfo] | None = None) -> None:
        super().__init__()
        self.games = games

    async def load(self) -> list[match_service_pb2.MatchListing]:
        return MATCHES

    async def load_games(self) -> Sequence[games_pb2.GameInfo]:
        return self.games or ()

    def on_mount(self) -> None:
        games = self.load_games if self.games is not None else None
        self.push_screen(LobbyScreen(self.load, games=games), callback=self.exit)


async def test_enter_joins_the_highlighted_match_with_an_open_seat() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = "\n".join(s.text for s in app.screen._compositor.render_strips())
        assert "full" in text and "Ada, open" in text and "waiting" in text, text
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


#: What a server hosting two games lists.
TWO_GAMES = [
    games_pb2.GameInfo(id="mykerinos", name="Mykerinos", min_seats=2, max_seats=4),
    games_pb2.GameInfo(id="archeos", name="Archeos", min_seats=2, max_seats=4),
]


async def test_n_asks_the_game_when_the_server_lists_them() -> None:
    app = Host(TWO_GAMES)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchForm)
        await pilot.press("ctrl+s")  # the form's defaults: you and one random bot
    assert app.return_value == LobbyChoice(
        "new", game_id="archeos", new=NewMatchChoices("archeos", people=1, bots=("random",))
    )


class FormHost(App[NewMatchChoices | None]):
    def __init__(self, game: games_pb2.GameInfo) -> None:
        super().__init__()
        self.game = game

    def on_mount(self) -> None:
        self.push_screen(NewMatchForm(self.game), callback=self.exit)


@pytest.mark.parametrize("game_id", ["mykerinos", "archeos", "marenostrum"])
async def test_every_games_new_match_form_fits_80x24_without_scrolling(game_id: str) -> None:
    """Issue 34 (terminal 8, and the review after it): the form asks for bots per seat,
    clocks and every option; at 80x24 all of it is on one screen, nothing to scroll,
    and the line at the bottom says what the focused field is for."""
    game = game_info_to_proto(get_game(game_id))
    app = FormHost(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewMatchForm)
        scroll = form.query_one(VerticalScroll)
        text = screen_text(app)  # type: ignore[arg-type]
        print(text)  # the form as a person sees it, in the test's log
        assert scroll.max_scroll_y == 0 and scroll.region.bottom <= 24, text
        for widget in form.query("Input, Select, Checkbox, Button"):
            assert widget.region.bottom <= scroll.region.bottom - 1, (widget, text)
        for index in range(game.max_seats - 1):
            assert form.query_one(f"#bot-{index}", Select).region.width >= 12, text
        for spec in game.options:
            assert short_label(spec) in text, (spec.name, text)
        # Every field is on screen, so the focus walks them without scrolling.
        form.query_one(f"#option-{game.options[-1].name}").focus()
        await pilot.pause()
        assert game.options[-1].description[:40] in " ".join(screen_text(app).split())  # type: ignore[arg-type]
        assert scroll.scroll_y == 0


async def test_a_bot_seat_alone_on_its_row_is_named_by_its_number() -> None:
    game = games_pb2.GameInfo(id="five", name="Five", min_seats=2, max_seats=5)
    app = FormHost(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)  # type: ignore[arg-type]
        assert "Bot seats 1-3" in text and "Bot seat 4" in text, text


def _args(address: str, *more: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play_cli.add_arguments(parser)
    return parser.parse_args(["--server", address, "--name", "Eve", *more])


def _pilot_lobby(
    keys: Callable[[Pilot[LobbyChoice | None], LobbyApp], Awaitable[None]],
) -> Callable[[LobbyApp], Awaitable[LobbyChoice | None]]:
    """Run the lobby app under the pilot, pressing ``keys`` once the list is in."""

    async def run(app: LobbyApp) -> LobbyChoice | None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, app, lambda: app.lobby.table.row_count > 0)  # type: ignore[arg-type]
            await keys(pilot, app)
        return app.return_value

    return run


async def test_the_lobby_lists_the_servers_matches_and_joining_opens_the_play_screen(
    bot_server: str,
) -> None:
    client = SenetClient(bot_server)
    try:
        waiting = await client.create_match("mykerinos", 1, bots=["random"], seed=3)
        full = await client.create_match("mykerinos", 1, bots=["random"], seed=4)
        await client.join(full, "Bob")
        seen: list[str] = []

        async def join_the_waiting_one(pilot: Pilot[LobbyChoice | None], app: LobbyApp) -> None:
            seen.append(screen_text(app))  # type: ignore[arg-type]
            rows = [listing.match_id for listing in app.lobby.matches]
            assert rows == [full, waiting]  # newest first
            await pilot.press("down", "enter")

        console = drawing.make_console(no_color=True, file=io.StringIO())
        session = await lobby_session(
            _args(bot_server), client, console, run=_pilot_lobby(join_the_waiting_one)
        )
        assert full in seen[0] and waiting in seen[0] and "Bob, bot random" in seen[0]
        assert session is not None and session.seat is not None
        assert session.match_id == waiting
        summary = (await client.get(waiting)).match
        assert [s.display_name for s in summary.seats if s.claimed] == ["Eve"]

        play = PlayApp(session)
        async with play.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, play, lambda: play.view is not None)
            text = screen_text(play)
            assert f"mykerinos {waiting}" in text and "you:" in text, text
            await pilot.press("ctrl+q", "p")
    finally:
        await client.close()


async def test_watching_from_the_lobby_opens_the_play_screen_as_a_spectator(
    bot_server: str,
) -> None:
    client = SenetClient(bot_server)
    try:
        match_id = await client.create_match("mykerinos", 1, bots=["random"], seed=5)

        async def watch(pilot: Pilot[LobbyChoice | None], _app: LobbyApp) -> None:
            await pilot.press("w")

        console = drawing.make_console(no_color=True, file=io.StringIO())
        session = await lobby_session(_args(bot_server), client, console, run=_pilot_lobby(watch))
        assert session is not None and session.seat is None and session.match_id == match_id
        play = PlayApp(session)
        async with play.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, play, lambda: play.view is not None)
            assert "watching" in screen_text(play)
            await pilot.press("ctrl+q")  # a watcher just closes
        assert play.left is None
    finally:
        await client.close()


async def test_a_new_match_from_the_lobby_is_created_with_a_bot_and_joined(
    bot_server: str,
) -> None:
    client = SenetClient(bot_server)
    try:
        await client.create_match("mykerinos", 1, bots=["random"], seed=6)

        async def new_mykerinos(pilot: Pilot[LobbyChoice | None], app: LobbyApp) -> None:
            await pilot.press("n")
            await wait_for(pilot, app, lambda: app.screen.__class__.__name__ == "GamePicker")  # type: ignore[arg-type]
            picker = app.screen.query_one("#games")
            ids = [picker.get_option_at_index(i).id for i in range(picker.option_count)]  # type: ignore[attr-defined]
            for _ in range(ids.index("mykerinos")):
                await pilot.press("down")
            await pilot.press("enter")
            # The new-match form: a strategy per bot seat, clocks, an option, a seed.
            await wait_for(pilot, app, lambda: isinstance(app.screen, NewMatchForm))  # type: ignore[arg-type]
            form = app.screen
            forms.append(screen_text(app))  # type: ignore[arg-type]
            form.query_one("#bot-0", Select).value = "greedy"
            form.query_one("#bot-1", Select).value = "mcts"
            form.query_one("#decision_s", Input).value = "30"
            form.query_one("#option-quick", Checkbox).value = True
            form.query_one("#seed", Input).value = "12"
            form.query_one("#unlisted", Checkbox).value = True
            await pilot.pause()
            await pilot.press("ctrl+s")

        forms: list[str] = []
        out = io.StringIO()
        console = drawing.make_console(no_color=True, file=out)
        session = await lobby_session(
            _args(bot_server), client, console, run=_pilot_lobby(new_mykerinos)
        )
        assert session is not None and session.seat is not None
        summary = (await client.get(session.match_id)).match
        assert summary.game_id == "mykerinos"
        bots = [s.bot_strategy for s in summary.seats if s.kind == match_pb2.SEAT_KIND_BOT]
        assert bots == ["greedy", "mcts"] and summary.seats[0].claimed
        assert summary.time_control.decision_ms == 30_000
        assert summary.options["quick"].bool_value is True
        assert summary.unlisted  # out of the lobby: only its id finds it
        assert f"Created mykerinos match {session.match_id}" in out.getvalue()
        assert "unlisted: only those you give its id find it" in out.getvalue()
        # The form at 80x24 shows what it asks, starting with the seats.
        assert "NEW Mykerinos MATCH" in forms[0] and "Bot seats 1-3" in forms[0], forms[0]
    finally:
        await client.close()


async def test_a_seat_taken_meanwhile_brings_the_lobby_back_with_the_reason(
    bot_server: str,
) -> None:
    client = SenetClient(bot_server)
    try:
        match_id = await client.create_match("mykerinos", 1, bots=["random"], seed=7)
        notes: list[str] = []

        async def join_too_late(pilot: Pilot[LobbyChoice | None], app: LobbyApp) -> None:
            notes.append(screen_text(app))  # type: ignore[arg-type]
            if len(notes) == 1:
                await client.join(match_id, "Bob")  # someone else is quicker
                await pilot.press("enter")
            else:
                await pilot.press("escape")

        console = drawing.make_console(no_color=True, file=io.StringIO())
        session = await lobby_session(
            _args(bot_server), client, console, run=_pilot_lobby(join_too_late)
        )
        assert session is None
        assert f"Could not join {match_id}:" not in notes[0]
        assert f"Could not join {match_id}:" in notes[1], notes[1]
    finally:
        await client.close()


async def test_a_new_match_the_server_refuses_brings_the_lobby_back_with_the_reason(
    bot_server: str,
) -> None:
    """A usability trial ticked the team game with two seats in the form: the
    program quit with the server's refusal. The lobby now comes back and says why."""
    client = SenetClient(bot_server)
    try:
        notes: list[str] = []

        async def run(app: LobbyApp) -> LobbyChoice | None:
            notes.append(app.lobby.first_note)
            if len(notes) > 1:
                return None
            team = NewMatchChoices("mykerinos", people=1, bots=("random",), options=("team=true",))
            return LobbyChoice("new", game_id="mykerinos", new=team)

        console = drawing.make_console(no_color=True, file=io.StringIO())
        assert await lobby_session(_args(bot_server), client, console, run=run) is None
        assert notes[0] == ""
        assert notes[1].startswith("Could not start the match: "), notes
        assert "team game" in notes[1], notes
    finally:
        await client.close()


async def test_moves_and_age_stay_in_view_at_80_columns_with_many_seats() -> None:
    """Six seats of bots with their strategies do not push the moves and the age off
    an 80-column screen: the seats column takes what is left, cut with an ellipsis."""
    many = _listing("many", [True] * 6)
    many.version = 1234
    for info in many.seats:
        info.display_name = "Somebody with a long name"

    class Many(Host):
        async def load(self) -> list[match_service_pb2.MatchListing]:
            return [many]

    app = Many()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = [s.text.rstrip() for s in app.screen._compositor.render_strips()]
        head = next(row for row in rows if "match" in row and "seats" in row)
        assert head.split() == ["match", "game", "status", "seats", "moves", "age"], rows
        line = next(row for row in rows if row.lstrip().startswith("many"))
        assert len(line) <= 80 and "\u2026" in line and " 1234 " in line, rows
