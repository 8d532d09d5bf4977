"""The web client in a real headless Chromium: a person plays a whole Mykerinos match
against three bots by clicking, an Archeos match is watched live to its end, a Mare
Nostrum match is played on its map for a few turns while a phone watches, and a
finished match is replayed with the seed commitment verified.

Each test saves screenshots of the board at a few moments (see conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import MATCH_WAIT_MS, create_match, wait_for_turn

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _after_click(page: Any, version: str) -> str:
    """``moved`` once the action was played, ``narrowed`` when the board awaits more clicks."""
    outcome = page.wait_for_function(
        f"""() => document.body.dataset.version !== '{version}' ? 'moved'
            : (document.body.dataset.busy !== '1'
               && document.getElementById('picked').textContent ? 'narrowed' : false)""",
        timeout=MATCH_WAIT_MS,
    )
    return str(outcome.json_value())


def _play_by_clicking(
    page: Any,
    screenshots: Path,
    prefix: str,
    shots: dict[int, str],
    watcher: Any = None,
    keyboard_turns: frozenset[int] = frozenset(),
    turns: int | None = None,
) -> tuple[int, int]:
    """Play the page's seat to the end (or for ``turns`` turns): click the board where
    it offers the action, else the list; returns how many turns went each way.
    ``watcher`` (another page) is photographed at the same moments. On
    ``keyboard_turns`` the action is typed: ``/`` focuses the notation box, then its
    notation and Enter."""
    by_board = by_list = 0
    turn = 0
    while (turns is None or turn < turns) and wait_for_turn(page):
        turn += 1
        if turn in shots:
            page.screenshot(path=str(screenshots / f"{prefix}-{shots[turn]}.png"), full_page=True)
            if watcher is not None:
                path = screenshots / f"{prefix}-watcher-{shots[turn]}.png"
                watcher.screenshot(path=str(path), full_page=True)
        version = page.evaluate("document.body.dataset.version")
        live = page.locator("#board [data-target].live")
        if turn in keyboard_turns:
            notation = page.locator("#actions button.action").first.get_attribute("data-notation")
            page.locator("body").press("/")
            page.keyboard.type(notation)
            page.keyboard.press("Enter")
        elif live.count():
            live.first.click()
            # An expansion names two spaces: click on while the board narrows the choice.
            outcome = _after_click(page, version)
            for _ in range(3):
                more = page.locator("#board [data-target].live:not(.picked)")
                if outcome == "moved" or not more.count():
                    break
                more.first.click()
                outcome = _after_click(page, version)
            if outcome != "moved":  # still more than one action: pick from the narrowed list
                page.locator("#actions button.action").first.click()
            by_board += 1
        else:
            page.locator("#actions button.action").first.click()
            by_list += 1
        page.wait_for_function(
            f"() => document.body.dataset.version !== '{version}'", timeout=MATCH_WAIT_MS
        )
    return by_board, by_list


def test_a_person_plays_a_whole_mykerinos_match_against_three_bots_by_clicking(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(DESKTOP)
    match_id = create_match(
        page, web_url, "mykerinos", ["you", "bot:random", "bot:random", "bot:random"]
    )
    assert page.url.endswith(f"/matches/{match_id}/play")
    cookies = {c["name"]: c for c in page.context.cookies()}
    seat_cookie = cookies[f"senet_seat_{match_id}"]
    assert seat_cookie["httpOnly"] and seat_cookie["sameSite"] == "Strict"
    assert seat_cookie["value"].split(".", 1)[1] not in page.url
    assert page.evaluate("document.cookie").find(seat_cookie["value"]) == -1

    by_board, _ = _play_by_clicking(
        page,
        screenshots,
        "mykerinos-play",
        {1: "start", 12: "early", 24: "middle"},
        keyboard_turns=frozenset({2, 3}),
    )
    page.wait_for_selector("#final:not([hidden])", timeout=MATCH_WAIT_MS)
    page.screenshot(path=str(screenshots / "mykerinos-play-final.png"), full_page=True)
    assert by_board > 0
    assert "finished" in page.locator("#headline").inner_text()
    assert page.locator("#final").inner_text().strip()
    assert page.errors == []


def test_an_archeos_match_is_watched_live_to_the_end(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """A spectator watches while a person plays one seat (by clicking) against two bots."""
    player = new_page(DESKTOP)
    match_id = create_match(player, web_url, "archeos", ["open", "bot:random", "bot:random"])
    watcher = new_page(DESKTOP)
    watcher.goto(f"{web_url}/matches/{match_id}/watch")
    # The first frame: the match waits for its open seat (bots may have moved before it).
    watcher.wait_for_function("() => document.body.dataset.version", timeout=MATCH_WAIT_MS)
    assert "Waiting for" in watcher.locator("#headline").inner_text()
    player.goto(web_url + "/")  # the lobby lists the match: join its open seat there
    player.locator(f"#open-matches tr:has(code:text-is('{match_id}')) button").click()
    player.wait_for_url(f"**/matches/{match_id}/play")
    by_board, _ = _play_by_clicking(
        player, screenshots, "archeos-play", {1: "start", 8: "early", 20: "middle"}, watcher
    )
    assert by_board > 0
    watcher.wait_for_function("() => document.body.dataset.ended === 'true'", timeout=MATCH_WAIT_MS)
    assert watcher.evaluate("document.body.dataset.status") == "finished"
    assert watcher.locator("#final").inner_text().strip()
    assert watcher.locator("#actions-panel").is_hidden()
    assert "Your hand" not in watcher.locator("#board").inner_text()
    assert watcher.locator("#log li").count() > 10
    watcher.screenshot(path=str(screenshots / "archeos-watch-final.png"), full_page=True)
    phone = new_page(PHONE)
    phone.goto(f"{web_url}/matches/{match_id}/watch")
    phone.wait_for_function("() => document.body.dataset.ended === 'true'", timeout=MATCH_WAIT_MS)
    assert phone.locator("#log li").count() == watcher.locator("#log li").count()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    phone.screenshot(path=str(screenshots / "archeos-watch-phone.png"), full_page=True)
    assert player.errors == [] and watcher.errors == [] and phone.errors == []


def test_mare_nostrum_is_played_on_its_map_and_watched_on_a_phone(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """A person plays the first turns of a Mare Nostrum match against two bots by
    clicking the map, the hand and the gods, while a spectator watches on a phone."""
    page = new_page(DESKTOP)
    match_id = create_match(page, web_url, "marenostrum", ["you", "bot:random", "bot:random"])
    page.wait_for_function("() => document.body.dataset.version", timeout=MATCH_WAIT_MS)
    assert page.locator("#board .mn-main [data-target^='s:']").count() == 43
    assert page.locator("#board .mn-west [data-target^='s:']").count() == 15
    assert page.locator("#board [data-hand='0']").count() == 1
    phone = new_page(PHONE)
    phone.goto(f"{web_url}/matches/{match_id}/watch")
    phone.wait_for_function("() => document.body.dataset.version", timeout=MATCH_WAIT_MS)
    by_board, _ = _play_by_clicking(
        page,
        screenshots,
        "marenostrum-play",
        {1: "start", 14: "early", 30: "later"},
        phone,
        turns=30,
    )
    assert by_board > 0
    page.screenshot(path=str(screenshots / "marenostrum-play-last-view.png"))
    assert phone.locator("#board [data-hand], #board [data-offer]").count() == 0
    assert phone.locator("#actions-panel").is_hidden()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    assert page.errors == [] and phone.errors == []


def test_a_finished_match_is_replayed_step_by_step(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(DESKTOP)
    match_id = create_match(page, web_url, "mykerinos", ["bot:random"] * 3)
    page.wait_for_function("() => document.body.dataset.ended === 'true'", timeout=MATCH_WAIT_MS)
    page.goto(f"{web_url}/matches/{match_id}/replay")
    page.wait_for_selector("#verify.ok", timeout=MATCH_WAIT_MS)
    assert "verified" in page.locator("#verify").inner_text()
    page.wait_for_function("() => document.body.dataset.step === '0'")
    page.screenshot(path=str(screenshots / "mykerinos-replay-start.png"), full_page=True)
    steps = int(page.locator("#step").get_attribute("max") or 0)
    assert steps > 10
    slider = page.locator("#step")
    slider.focus()
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.dataset.step === '10'")
    assert page.locator("#log li").count() == 10
    page.locator("#last").click()
    page.wait_for_function(f"() => document.body.dataset.step === '{steps}'")
    assert page.evaluate("document.body.dataset.status") == "finished"
    page.screenshot(path=str(screenshots / "mykerinos-replay-end.png"), full_page=True)
    page.locator("#prev").click()
    page.wait_for_function(f"() => document.body.dataset.step === '{steps - 1}'")
    assert page.errors == []
