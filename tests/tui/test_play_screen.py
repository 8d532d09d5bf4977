"""The play screen's behaviour, one thing at a time, on an in-process server.

The action list filters as the player types and keeps the board in place, ``?``
explains, numbers pick; a stopped server is shown at once and the screen reconnects
by itself when it is back; a resumed seat sees its recent log.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest
from rich.text import Text

from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.service.server import create_server
from senet.service.settings import Settings
from senet.store.memory import MemoryStore
from senet.text.app import Session
from senet.tui import picker
from senet.tui.app import PlayApp
from senet.v1 import match_pb2, match_service_pb2
from tests.tui.conftest import check_screen, screen_text, wait_for


def _legal(*pairs: tuple[str, str]) -> list[match_pb2.LegalAction]:
    return [match_pb2.LegalAction(notation=n, label=label) for n, label in pairs]


ACTIONS = _legal(
    ("a c3", "Start an excavation at c3"),
    ("b c3 d3", "Expand an excavation onto c3, d3"),
    ("take l", "Take the left plot"),
    ("pass", "Pass"),
)


def test_typed_words_keep_the_actions_whose_notation_or_label_hold_them() -> None:
    assert picker.matching("", ACTIONS) == [0, 1, 2, 3]
    assert picker.matching("c3", ACTIONS) == [0, 1]
    assert picker.matching("expand d3", ACTIONS) == [1]
    assert picker.matching("LEFT", ACTIONS) == [2]
    assert picker.matching("nothing", ACTIONS) == []


def test_a_number_or_a_question_leaves_the_list_whole() -> None:
    assert picker.matching("3", ACTIONS) == [0, 1, 2, 3]
    assert picker.matching("? 2", ACTIONS) == [0, 1, 2, 3]


@pytest.fixture
async def two_seats() -> AsyncIterator[tuple[str, SenetClient, str, list[Session]]]:
    """A server and a two-seat Mykerinos match with both seats joined."""
    server = await create_server(Settings(port=0, log_json=False, host="127.0.0.1"))
    address = f"127.0.0.1:{server.port}"
    client = SenetClient(address)
    match_id = await client.create_match("mykerinos", 2, seed=4)
    seats = [await client.join(match_id, name) for name in ("Ada", "Bob")]
    try:
        yield address, client, match_id, [Session(client, address, match_id, s) for s in seats]
    finally:
        await client.close()
        await server.stop()


async def _first_mover(sessions: list[Session]) -> tuple[Session, Session]:
    assert sessions[0].seat is not None
    summary = (await sessions[0].seat.get()).match
    me = next(s for s in sessions if s.seat is not None and s.seat.seat == summary.current_seat)
    other = next(s for s in sessions if s is not me)
    return me, other


@pytest.mark.slow
async def test_filtering_narrows_the_list_and_the_board_stays(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    _, _, _, sessions = two_seats
    me, _ = await _first_mover(sessions)
    app = PlayApp(me)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        board_region = app.board.region
        total = len(app.legal_actions)
        assert total > 20  # more than the list's rows: it scrolls, the board stays
        await pilot.press("c", "3")
        assert 0 < len(app.shown) < total
        assert all("c3" in app.legal_actions[i].notation for i in app.shown)
        assert app.board.region == board_region
        check_screen(app, (80, 24))
        await pilot.press("question_mark")  # after a filter too, '?' explains
        assert app.entry.value == "c3"
        assert app.legal_actions[app.actions.chosen or 0].notation in app.hint_text
        await pilot.press("backspace", "backspace")
        await pilot.press("down", "down", "question_mark")
        explained = app.legal_actions[app.actions.chosen or 0]
        assert explained.label in screen_text(app) or explained.label[:40] in app.hint_text
        assert app.entry.value == "?"  # stays typed: '? N' asks for action N's label
        await pilot.press("backspace", "1", "2")
        assert app.actions.chosen == 11
        wanted = app.legal_actions[11].notation
        await pilot.press("enter")
        logged = app.log_pane.lines_written
        await wait_for(pilot, app, lambda: any(wanted in line for line in logged))
        assert app.board.region == board_region


async def test_enter_never_plays_an_action_the_player_did_not_name(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """A usability trial found Enter playing the highlighted first action for a
    number out of range (``99``), a word no notation holds (``b``), a filter that
    fits most labels (``ta c``) and ``? 5`` (the help's "label of action 5"): each
    is now refused or explained, and the match does not move. A whole word of one
    notation (``r`` of ``take r``) and a filter left with one action still play."""
    _, _, _, sessions = two_seats
    me, _ = await _first_mover(sessions)
    assert me.seat is not None
    app = PlayApp(me)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        version = app.legal.version if app.legal else -1
        said = {
            "99": "There is no action 99",
            "b": "No action starts with 'b'",
            "ta c": "No action starts with 'ta'",
            "? 5": f"5: {app.legal_actions[4].notation}",
            "a": "actions fit 'a': type more, or pick one with Up/Down",
        }
        for typed, hint in said.items():
            app.entry.value = ""
            await pilot.pause()
            await pilot.press(*typed)
            await pilot.press("enter")
            await pilot.pause()
            assert hint in app.hint_text, (typed, app.hint_text)
            assert (await me.seat.get()).match.version == version, typed
        app.entry.value = ""
        await pilot.pause()
        legal = app.legal_actions
        only = next(a.notation for a in legal if sum(a.notation in b.notation for b in legal) == 1)
        await pilot.press(*only)
        assert app.shown and legal[app.shown[0]].notation == only
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: any(only in line for line in app.log_pane.lines_written))


async def test_a_new_turn_brings_the_board_back_to_its_top(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """A usability trial scrolled the board (PgDn) and found it still scrolled at
    its next turns, with whose turn it is and what to do out of view."""
    _, _, _, sessions = two_seats
    me, other = await _first_mover(sessions)
    assert other.seat is not None
    app = PlayApp(me)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        await pilot.press("pagedown")
        await wait_for(pilot, app, lambda: app.board.scroll_y > 0)
        version = app.legal.version if app.legal else -1
        await pilot.press("enter")
        await wait_for(
            pilot, app, lambda: app.summary is not None and app.summary.version > version
        )
        # The other player moves until it is this screen's turn again.
        while (summary := (await other.seat.get()).match).current_seat == other.seat.seat:
            legal = await other.seat.legal_actions()
            await other.seat.submit(legal.actions[0].notation, expected_version=legal.version)
        await wait_for(pilot, app, lambda: app.legal is not None and app.legal.version > version)
        await wait_for(pilot, app, lambda: app.board.scroll_y == 0)
        assert "To move:" in screen_text(app)
        assert summary.current_seat == me.seat.seat if me.seat else False


async def test_a_position_drawn_again_keeps_the_highlighted_action(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """Each update fetches the table, so a position may be drawn twice; the action the
    player moved the highlight to stays highlighted, and Enter plays it."""
    _, _, _, sessions = two_seats
    me, _ = await _first_mover(sessions)
    app = PlayApp(me)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        await pilot.press("down", "down")
        assert app.actions.chosen == 2
        await app._fetch()  # the same position, fetched again
        await pilot.pause()
        assert app.actions.chosen == 2
        wanted = app.legal_actions[2].notation
        await pilot.press("enter")
        logged = app.log_pane.lines_written
        await wait_for(pilot, app, lambda: any(wanted in line for line in logged))


async def test_a_refused_action_is_explained_without_codes(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    _, _, _, sessions = two_seats
    me, _ = await _first_mover(sessions)
    app = PlayApp(me)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        # A listed first word with a bad argument: the server's reason, in words.
        word = app.legal_actions[0].notation.split()[0]
        app.entry.value = f"{word} q9"
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: app.hint_text.startswith("Not accepted"))
        text = screen_text(app)
        assert "Not accepted" in text
        assert "MALFORMED" not in text and "ILLEGAL" not in text and "INVALID_ARGUMENT" not in text


async def test_an_unknown_word_lists_only_the_words_of_the_legal_actions(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """``zz9`` names no action: the answer lists the first words of the actions this
    seat may play now, not the words of every variant of the game (draft, gov, tb)."""
    _, _, _, sessions = two_seats
    me, _ = await _first_mover(sessions)
    app = PlayApp(me)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        words = sorted({a.notation.split()[0] for a in app.legal_actions})
        await pilot.press(*"zz9", "enter")
        await wait_for(pilot, app, lambda: app.hint_text.startswith("No action starts"))
        said = " ".join(" ".join(app.log_pane.drawn()).split())
        assert f"No action starts with 'zz9' now: you can play {', '.join(words)} (" in said
        for other in ("draft", "gov", "tb", "usetie"):
            assert other not in words and f" {other}," not in said, said
        text = " ".join(screen_text(app).split())
        assert f"you can play {', '.join(words)} (" in text, text


async def test_a_resumed_seat_sees_its_recent_log(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    _, _, _, sessions = two_seats
    played = []
    for _ in range(3):
        session, _ = await _first_mover(sessions)
        assert session.seat is not None
        legal = await session.seat.legal_actions()
        await session.seat.submit(legal.actions[0].notation, expected_version=legal.version)
        played.append(legal.actions[0].notation)
    app = PlayApp(sessions[1])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: len(app.log_pane.lines_written) >= 3)
        logged = "\n".join(app.log_pane.lines_written)
        for notation in played:
            assert notation in logged
        check_screen(app, (80, 24))


async def test_a_table_whose_fetch_failed_is_fetched_again_without_another_move(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """After the other seat's move the fetch of the table fails once; the stream is up
    and nothing else moves, yet the screen shows the table after the move."""
    _, _, _, sessions = two_seats
    mover, watcher = await _first_mover(sessions)
    assert mover.seat is not None and watcher.seat is not None
    app = PlayApp(watcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.summary is not None and bool(app.connected))
        real_get, failures = watcher.seat.get, [1]

        async def get_failing_once() -> match_service_pb2.GetMatchResponse:
            if failures:
                failures.pop()
                raise SenetRpcError(grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE", "a blip")
            return await real_get()

        watcher.seat.get = get_failing_once  # type: ignore[method-assign]
        legal = await mover.seat.legal_actions()
        await mover.seat.submit(legal.actions[0].notation, expected_version=legal.version)
        await wait_for(pilot, app, lambda: app.summary is not None and app.summary.version == 1)
        assert not failures


@pytest.mark.slow
async def test_a_lost_server_shows_at_once_and_the_screen_reconnects() -> None:
    store = MemoryStore()
    server = await create_server(Settings(port=0, log_json=False, host="127.0.0.1"), store)
    port = server.port
    address = f"127.0.0.1:{port}"
    client = SenetClient(address)
    try:
        match_id = await client.create_match("mykerinos", 2, seed=4)
        seats = [await client.join(match_id, name) for name in ("Ada", "Bob")]
        summary = (await seats[0].get()).match
        mover = seats[summary.current_seat]
        waiter = seats[1 - summary.current_seat]
        app = PlayApp(Session(client, address, match_id, waiter))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, app, lambda: app.connected is True and app.view is not None)
            await server.stop()
            await wait_for(pilot, app, lambda: app.connected is False)
            assert "server lost" in screen_text(app)
            assert any("Lost the server" in line for line in app.log_pane.lines_written)
            server = await create_server(
                Settings(port=port, log_json=False, host="127.0.0.1"), store
            )
            await wait_for(pilot, app, lambda: app.connected is True)
            other = SenetClient(address)
            try:
                mover = other.seat(match_id, mover.seat, mover.token)
                legal = await mover.legal_actions()
                await mover.submit(legal.actions[0].notation, expected_version=legal.version)
            finally:
                await other.close()
            played = legal.actions[0].notation
            await wait_for(
                pilot,
                app,
                lambda: (
                    app.summary is not None
                    and app.summary.version == 1
                    and any(played in line for line in app.log_pane.lines_written)
                ),
            )
            assert "connected" in screen_text(app).splitlines()[0]
            check_screen(app, (80, 24))
    finally:
        await client.close()
        await server.stop()


@pytest.mark.slow
async def test_the_help_opens_and_closes(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    _, _, _, sessions = two_seats
    app = PlayApp(sessions[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        await pilot.press("f1")
        await pilot.pause()
        assert "Keys" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")  # the board alone, then back
        await pilot.pause()
        assert app.zoomed and app.players.region.area == 0
        await pilot.press("f2")
        await pilot.pause()
        assert not app.has_class("-zoomed") and app.players.region.area > 0


async def test_the_log_wraps_whole_words_and_keeps_the_newest_line_in_view(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """A message longer than the log pane wraps at word boundaries (no word is cut),
    at 80x24 and at 140x40, and after many lines the newest is still on screen."""
    _, _, _, sessions = two_seats
    app = PlayApp(sessions[0])
    words = [f"word{n:02d}" for n in range(40)]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        for size in ((80, 24), (140, 40)):
            await pilot.resize_terminal(*size)
            app.log_pane.add([f"{size}: " + " ".join(words)])
            for filler in range(30):
                app.log_pane.add([f"filler line {filler}"])
            app.log_pane.add(["Newest: " + " ".join(words[:20])])
            await wait_for(pilot, app, lambda: "Newest:" in screen_text(app))
            text = screen_text(app)
            area = app.log_pane.region
            rows = [row[area.x : area.right] for row in text.splitlines()[area.y : area.bottom]]
            shown = " ".join(" ".join(rows).split())
            # The newest message whole, word by word, in the pane: wrapped, not cut.
            assert "Newest: " + " ".join(words[:20]) in shown, text
            assert area.height >= 4, (area, text)


async def test_the_log_takes_the_rows_a_short_board_leaves(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    _, _, _, sessions = two_seats
    app = PlayApp(sessions[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        usual = app.log_pane.region.height
        app.board.show([Text("a short board")] * 4)
        app._fit_layout()
        await pilot.pause()
        assert app.log_pane.region.height > usual
        assert app.board.region.height >= 4


async def test_question_mark_explains_the_highlighted_action_even_after_a_filter(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """``?`` after a filter explains (it is not typed into the filter): the action's
    label, what playing it changes (the core as a forward model), what else may be
    played now, and the core's reason why a typed action that fits none may not."""
    _, _, _, sessions = two_seats
    me, _ = await _first_mover(sessions)
    app = PlayApp(me)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        first = app.legal_actions[0]
        await pilot.press(*first.notation.split()[-1], "question_mark")
        assert app.entry.value == first.notation.split()[-1]
        logged = " ".join(app.log_pane.lines_written)
        assert f"{first.notation} - {first.label}" in app.hint_text
        assert "If played: " in logged and "decide" in logged, logged
        words = sorted({a.notation.split()[0] for a in app.legal_actions})
        assert "You may play now: " in logged and all(w in logged for w in words), logged
        text = " ".join(screen_text(app).split())
        assert "If played: " in text, text
        # A typed action that fits none: the core says why not.
        app.entry.value = "take l"
        await pilot.pause()
        await pilot.press("question_mark")
        assert app.entry.value == "take l"
        logged = " ".join(app.log_pane.lines_written)
        assert "Not 'take l' now: rewards are chosen during delimitation" in logged, logged


async def test_waiting_for_players_shows_the_whole_join_command_and_the_open_seats(
    two_seats: tuple[str, SenetClient, str, list[Session]],
) -> None:
    """At 80x24, before the match starts, the prompt's header says how many seats are
    open and the join command is whole on a line of its own; zoomed (F2), the board
    fills the screen between the status line, still at the top, and the prompt."""
    address, client, _, _ = two_seats
    match_id = await client.create_match("mykerinos", 3, seed=8)
    session = Session(client, address, match_id, await client.join(match_id, "Ada"))
    app = PlayApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.view is not None)
        rows = screen_text(app).splitlines()
        command = session.join_command()
        assert len(command) <= 80
        assert "Waiting for players to join (2 open seats)" in "\n".join(rows), rows
        assert command in rows, rows
        assert rows[0].startswith(f"mykerinos {match_id}"), rows
        await pilot.press("f2")
        await pilot.pause()
        zoomed = screen_text(app).splitlines()
        print("\n".join(zoomed))  # the zoomed screen as a person sees it
        assert zoomed[0] == rows[0] and "connected" in zoomed[0], zoomed
        assert app.board.region.y == 1 and app.board.region.height >= 14, zoomed
        assert command in zoomed and len(zoomed) == 24, zoomed
        await pilot.press("escape")
        await pilot.pause()
        assert not app.zoomed and screen_text(app).splitlines()[0] == rows[0]
