"""The full screen draws Mare Nostrum with its own renderer at 80x24: the table is on
screen, F3 jumps between its regions (players, provinces, details), ``zoom`` spells a
province out in the log, and a typed notation plays."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from senet.client.client import SenetClient
from senet.service.server import create_server
from senet.service.settings import Settings
from senet.text.app import Session
from senet.tui.app import KEYS_HELP, PlayApp
from tests.tui.conftest import check_screen, screen_text, wait_for


@pytest.fixture
async def director() -> AsyncIterator[Session]:
    """A three-seat match (seed 4: seat 0 is the Director of Commerce), all joined."""
    server = await create_server(Settings(port=0, log_json=False, host="127.0.0.1"))
    address = f"127.0.0.1:{server.port}"
    client = SenetClient(address)
    match_id = await client.create_match("marenostrum", 3, seed=4)
    seats = [await client.join(match_id, name) for name in ("Ada", "Bob", "Cy")]
    try:
        yield Session(client, address, match_id, seats[0])
    finally:
        await client.close()
        await server.stop()


@pytest.mark.slow
async def test_the_marenostrum_table_fits_and_its_regions_are_reachable(
    director: Session,
) -> None:
    app = PlayApp(director)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        check_screen(app, (80, 24))
        assert "MARE NOSTRUM: MYTHOLOGY" in screen_text(app)
        heads = [app.board.lines[i].plain.split()[0] for i in app.board.sections()]
        assert {"PLAYERS", "PROVINCES", "DETAILS"} <= set(heads), heads
        for _ in heads:
            await pilot.press("f3")
            if "PROVINCES  id=owner" in screen_text(app):
                break
        assert "PROVINCES  id=owner" in screen_text(app)
        await pilot.press(*"zoom lati", "enter")
        assert any("Latium: Rome capital" in line for line in app.log_pane.lines_written)
        assert app.entry.value == "" and app.legal is not None
        assert "size 1" in [a.notation for a in app.legal_actions]
        await pilot.press(*"size 1", "enter")
        logged = app.log_pane.lines_written
        await wait_for(pilot, app, lambda: any("every trader offers 1" in x for x in logged))


async def test_at_80_columns_no_board_line_is_cut_and_the_hand_is_in_view(
    director: Session,
) -> None:
    """Every board line on screen shows whole (no column is lost to a scrollbar), the
    line below the board says how much is left, and the seat's hand stays pinned
    at the top of the board wherever it is scrolled."""
    app = PlayApp(director)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        assert app.board.rows_below > 0  # the board is longer than its pane

        def below_line_drawn() -> bool:
            text = screen_text(app)
            if app.board.rows_below:
                return "more lines below - PgDn" in text
            return "more lines below" not in text

        while True:
            await wait_for(pilot, app, below_line_drawn)
            text = screen_text(app)
            rows = text.splitlines()
            area = app.board.region
            shown = [row[area.x : area.right].rstrip() for row in rows[area.y : area.bottom]]
            drawn = {line.plain.rstrip() for line in app.board.lines}
            hand = [line.plain.rstrip() for line in app.board.pinned_lines]
            assert hand and hand[0].strip().startswith("your hand:"), shown
            # The hand is in view: drawn in its place, or pinned at the top.
            at = shown.index(hand[0])
            assert shown[at : at + len(hand)] == hand, shown
            pinned = 0 if app.board.pinned.has_class("-empty") else len(hand)
            for row in shown[pinned:]:
                assert not row or row in drawn, (row, text)
            if not app.board.rows_below:
                assert "more lines below" not in text, text
                break
            assert "more lines below - PgDn" in text, text
            await pilot.press("pagedown")


async def test_f1_help_at_80_columns_keeps_its_lines_whole(director: Session) -> None:
    app = PlayApp(director)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        await pilot.press("f1")
        await pilot.pause()
        rows = screen_text(app).splitlines()
        help_lines = (KEYS_HELP + "\n" + app.renderer.help_text).splitlines()
        for line in help_lines[:15]:
            if len(line) <= 80:
                assert line.rstrip() in rows, (line, rows)


async def test_a_trade_turn_at_80x24_shows_hand_trade_and_provinces_on_one_zoomed_page(
    director: Session,
) -> None:
    """After the Director sets the trade's size, the zoomed board (F2) at 80x24 holds,
    without scrolling, the seat's hand, the trade panel and the seat's provinces
    with their neighbours by land and by sea; then an offer is played from there."""
    app = PlayApp(director)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: app.legal is not None)
        await pilot.press(*"size 1", "enter")
        await wait_for(
            pilot,
            app,
            lambda: app.legal is not None and app.legal_actions[0].notation.startswith("offer"),
        )
        await pilot.press("f2")
        await pilot.pause()
        text = screen_text(app)
        print(text)  # the pane as a person sees it, in the test's log
        assert len(text.splitlines()) == 24
        assert "your hand: " in text, text
        assert "TRADE  1 card(s) each" in text, text
        assert "YOUR PROVINCES" in text and "land " in text and "| sea " in text, text
        assert "YOUR TURN" in text, text
        offer = app.legal_actions[0].notation
        await pilot.press(*offer, "enter")
        await wait_for(pilot, app, lambda: "your offer: " in app.board.plain)
