"""The web client in a real headless Chromium: a person plays a whole Mykerinos match
against three bots by clicking, an Archeos match is watched live to its end, a Mare
Nostrum match is played on its map for a few turns while a phone watches, a
finished match is replayed with the seed commitment verified, and a finished match's
player plays the rematch another player asked for.

Each test saves screenshots of the board at a few moments (see conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from senet.client.client import SeatClient, SenetClient
from tests.web.conftest import MATCH_WAIT_MS, create_match, serve_web, wait_for_turn, wait_until

pytestmark = pytest.mark.slow

T = TypeVar("T")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _after_click(page: Any, version: str) -> str:
    """``moved`` once the action was played, ``narrowed`` when the board awaits more clicks."""
    outcome = wait_until(
        page,
        f"""() => document.body.dataset.version !== '{version}' ? 'moved'
            : (document.body.dataset.busy !== '1'
               && document.getElementById('picked').textContent ? 'narrowed' : false)""",
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
        wait_until(page, f"() => document.body.dataset.version !== '{version}'")
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
    assert not page.title().startswith("▶")  # nobody's turn any more
    assert page.errors == []


#: Loses every frame of the page's first event stream once the page has sent a move
#: (its frames until then pass), and has the page wait 2 s for a frame it is due.
LOSSY_STREAM = """(() => {
  let sent = false;
  const realFetch = window.fetch;
  window.fetch = (url, init) => {
    if (String(url).endsWith("/act")) sent = true;
    return realFetch(url, init);
  };
  const Real = window.EventSource;
  let first = true;
  window.EventSource = class extends Real {
    constructor(url) { super(url); this.lossy = first; first = false; }
    addEventListener(type, listener) {
      const lossy = this.lossy;
      super.addEventListener(type, type === "frame"
        ? (event) => { if (!(lossy && sent)) listener(event); } : listener);
    }
  };
  window.senetFrameDueMs = 2000;
})()"""


def test_a_frame_lost_on_the_way_is_fetched_again(
    web_url: str, new_page: Callable[[dict[str, int]], Any]
) -> None:
    """The frame of the player's move never reaches the page, and nobody moves after
    it (the other seat's player is away): the page opens its stream afresh and shows
    the move."""
    player = new_page(DESKTOP)
    player.add_init_script(LOSSY_STREAM)
    warnings: list[str] = []
    player.on("console", lambda msg: warnings.append(msg.text) if msg.type == "warning" else None)
    match_id = create_match(player, web_url, "mykerinos", ["you", "open"])
    other = new_page(DESKTOP)
    other.goto(web_url + "/")
    other.locator(f"#open-matches tr:has(code:text-is('{match_id}')) button").click()
    other.wait_for_url(f"**/matches/{match_id}/play")
    # The other seat plays its turns until the player's comes (its frames still pass).
    deadline = time.monotonic() + MATCH_WAIT_MS / 1000
    while not player.locator("#actions button.action:not([disabled])").count():
        assert time.monotonic() < deadline, "the player's turn never came"
        if other.locator("#actions button.action:not([disabled])").count():
            version = other.evaluate("document.body.dataset.version")
            other.locator("#actions button.action").first.click()
            wait_until(other, f"() => document.body.dataset.version !== '{version}'")
        player.wait_for_timeout(100)
    version = player.evaluate("document.body.dataset.version")
    player.locator("#actions button.action").first.click()
    wait_until(player, f"() => document.body.dataset.version === '{int(version) + 1}'")
    assert any("reconnecting" in text for text in warnings), warnings
    assert player.errors == []


def test_a_page_served_over_plain_http_on_a_lan_plays(
    web_url: str, new_page: Callable[[dict[str, int]], Any]
) -> None:
    """A page from another computer over plain HTTP is not a secure context, and
    Chromium gives it no ``crypto.randomUUID`` (the page at 127.0.0.1 is one, so
    the test takes the function away): its moves are still sent, each with its own
    request id."""
    player = new_page(DESKTOP)
    player.add_init_script("delete Crypto.prototype.randomUUID")
    create_match(player, web_url, "mykerinos", ["you", "bot:random"])
    assert player.evaluate("typeof crypto.randomUUID") == "undefined"
    sent: list[str] = []
    player.on(
        "request",
        lambda r: sent.append(r.post_data or "") if r.url.endswith("/act") else None,
    )
    for _turn in range(2):
        assert wait_for_turn(player)
        assert player.title().startswith("▶ Your turn · "), player.title()  # in any tab
        version = player.evaluate("document.body.dataset.version")
        player.locator("#actions button.action").first.click()
        wait_until(player, f"() => document.body.dataset.version !== '{version}'")
    ids = [json.loads(body)["request_id"] for body in sent]
    assert len(ids) == 2 and len(set(ids)) == 2 and all(len(i) == 32 for i in ids), ids
    assert player.locator("#problem").is_hidden()
    assert player.errors == []


#: Keeps the last frame the page's stream delivered; ``window.senetEcho()`` delivers
#: it once more (the same position drawn again) and says whether there was one.
ECHOED_FRAMES = """(() => {
  let last = null;
  const Real = window.EventSource;
  window.EventSource = class extends Real {
    addEventListener(type, listener) {
      super.addEventListener(type, type === "frame"
        ? (event) => { last = () => listener(event); listener(event); } : listener);
    }
  };
  window.senetEcho = () => { if (last) last(); return last !== null; };
})()"""


def test_a_position_drawn_again_keeps_what_the_person_picked(
    web_url: str, new_page: Callable[[dict[str, int]], Any]
) -> None:
    """A frame comes for every batch of updates, each drawn from the latest state, so
    a position may be drawn twice; a card clicked in between stays picked (the click
    that once did nothing in CI), and the board and the buttons drawn again unchanged
    are the same elements (one replaced under the pointer loses its click)."""
    player = new_page(DESKTOP)
    player.add_init_script(ECHOED_FRAMES)
    create_match(player, web_url, "archeos", ["you", "bot:random"])
    narrowed = False
    while not narrowed and wait_for_turn(player):
        version = player.evaluate("document.body.dataset.version")
        cards = player.locator("#board [data-target^='h:'].live")
        if cards.count():
            cards.first.click()
            narrowed = _after_click(player, version) == "narrowed"
        else:
            player.locator("#actions button.action").first.click()
        if not narrowed:
            wait_until(player, f"() => document.body.dataset.version !== '{version}'")
    assert narrowed, "no card of the player's narrowed the choice in a whole match"
    picked = player.locator("#picked").inner_text()
    actions = player.locator("#actions button.action").count()
    player.evaluate(
        "window.marked = ['#board [data-target].picked', '#actions button.action']"
        ".map((selector) => document.querySelector(selector))"
    )
    assert player.evaluate("window.senetEcho()")
    kept = "window.marked.map((element) => document.contains(element))"
    assert player.evaluate(kept) == [True, True]
    assert player.evaluate("document.body.dataset.version") == version
    assert player.locator("#picked").inner_text() == picked
    assert player.locator("#board [data-target].picked").count() == 1
    assert player.locator("#actions button.action").count() == actions
    player.locator("#actions button.action").first.click()
    wait_until(player, f"() => document.body.dataset.version !== '{version}'")
    assert player.errors == []


def test_an_archeos_match_is_watched_live_to_the_end(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """A spectator watches while a person plays one seat (by clicking) against two bots."""
    player = new_page(DESKTOP)
    match_id = create_match(player, web_url, "archeos", ["open", "bot:random", "bot:random"])
    watcher = new_page(DESKTOP)
    watcher.goto(f"{web_url}/matches/{match_id}/watch")
    # The first frame: the match waits for its open seat (bots may have moved before it).
    wait_until(watcher, "() => document.body.dataset.version")
    assert "Waiting for" in watcher.locator("#headline").inner_text()
    player.goto(web_url + "/")  # the lobby lists the match: join its open seat there
    player.locator(f"#open-matches tr:has(code:text-is('{match_id}')) button").click()
    player.wait_for_url(f"**/matches/{match_id}/play")
    by_board, _ = _play_by_clicking(
        player, screenshots, "archeos-play", {1: "start", 8: "early", 20: "middle"}, watcher
    )
    assert by_board > 0
    wait_until(watcher, "() => document.body.dataset.ended === 'true'")
    assert watcher.evaluate("document.body.dataset.status") == "finished"
    assert watcher.locator("#final").inner_text().strip()
    assert watcher.locator("#actions-panel").is_hidden()
    assert "Your hand" not in watcher.locator("#board").inner_text()
    assert watcher.locator("#log li").count() > 10
    watcher.screenshot(path=str(screenshots / "archeos-watch-final.png"), full_page=True)
    phone = new_page(PHONE)
    phone.goto(f"{web_url}/matches/{match_id}/watch")
    wait_until(phone, "() => document.body.dataset.ended === 'true'")
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
    wait_until(page, "() => document.body.dataset.version")
    assert page.locator("#board .mn-main [data-target^='s:']").count() == 43
    assert page.locator("#board .mn-west [data-target^='s:']").count() == 15
    assert page.locator("#board [data-hand='0']").count() == 1
    phone = new_page(PHONE)
    phone.goto(f"{web_url}/matches/{match_id}/watch")
    wait_until(phone, "() => document.body.dataset.version")
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
    wait_until(page, "() => document.body.dataset.ended === 'true'")
    page.goto(f"{web_url}/matches/{match_id}/replay")
    page.wait_for_selector("#verify.ok", timeout=MATCH_WAIT_MS)
    assert "verified" in page.locator("#verify").inner_text()
    wait_until(page, "() => document.body.dataset.step === '0'")
    page.screenshot(path=str(screenshots / "mykerinos-replay-start.png"), full_page=True)
    steps = int(page.locator("#step").get_attribute("max") or 0)
    assert steps > 10
    slider = page.locator("#step")
    slider.focus()
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    wait_until(page, "() => document.body.dataset.step === '10'")
    assert page.locator("#log li").count() == 10
    page.locator("#last").click()
    wait_until(page, f"() => document.body.dataset.step === '{steps}'")
    assert page.evaluate("document.body.dataset.status") == "finished"
    page.screenshot(path=str(screenshots / "mykerinos-replay-end.png"), full_page=True)
    page.locator("#prev").click()
    wait_until(page, f"() => document.body.dataset.step === '{steps - 1}'")
    assert page.errors == []


def test_a_finished_matchs_player_plays_the_rematch_another_asked_for(
    tmp_path: Path, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """Ann's page of a finished match offers the Rematch button; once Bob asks (from
    his own client), her page says so by itself, and one click opens the started
    rematch on her seat, moved on by one."""
    ports: list[int] = []
    servers = serve_web(tmp_path, [], before_web=ports.append)
    web_url = next(servers)
    try:
        ann, bob = _outside(_finished_match(f"127.0.0.1:{ports[0]}"))
        page = _seated_page(new_page(DESKTOP), web_url, ann)
        page.wait_for_selector("#rematch-panel:not([hidden])", timeout=MATCH_WAIT_MS)
        asked = _outside(_rematch(f"127.0.0.1:{ports[0]}", bob)).match_id
        page.wait_for_selector("#rematch:has-text('Play the rematch')", timeout=MATCH_WAIT_MS)
        assert page.locator("#rematch-note").inner_text() == "Bob asked for a rematch."
        page.locator("#rematch").click()
        page.wait_for_url(f"**/matches/{asked}/play", timeout=MATCH_WAIT_MS)
        wait_until(page, "() => document.body.dataset.status === 'active'")
        page.screenshot(path=str(screenshots / "mykerinos-rematch.png"), full_page=True)
        seats = page.locator("#seats").inner_text()
        assert "Red (Ann, you)" in seats and "Blue (Bob)" in seats, seats
        assert page.errors == []
    finally:
        servers.close()  # stops both servers


def test_players_decline_a_rematch_and_a_waiting_player_is_told(
    tmp_path: Path, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """Ann asks for the rematch and waits in it; Bob clicks No thanks on his page of
    the finished match: his page and Ann's waiting page both say that he declined."""
    ports: list[int] = []
    servers = serve_web(tmp_path, [], before_web=ports.append)
    web_url = next(servers)
    try:
        ann, bob = _outside(_finished_match(f"127.0.0.1:{ports[0]}"))
        asked = _outside(_rematch(f"127.0.0.1:{ports[0]}", ann))
        anns = _seated_page(new_page(DESKTOP), web_url, asked)
        wait_until(anns, "() => document.body.dataset.status === 'active'")
        # Back on the finished match, Ann is told she is in the rematch already.
        anns_finished = _seated_page(new_page(DESKTOP), web_url, ann)
        anns_finished.wait_for_selector(
            "#rematch-note:has-text('You are in the rematch')", timeout=MATCH_WAIT_MS
        )
        assert anns_finished.locator("#rematch").inner_text() == "Back to the rematch"
        bobs = _seated_page(new_page(DESKTOP), web_url, bob)
        bobs.wait_for_selector("#decline-rematch:visible", timeout=MATCH_WAIT_MS)
        bobs.locator("#decline-rematch").click()
        # The click's answer: the note says so (the buttons go), or the page shows why not.
        wait_until(
            bobs,
            "() => document.getElementById('rematch').hidden"
            " || !document.getElementById('problem').hidden",
        )
        problem = bobs.locator("#problem")
        assert not problem.is_visible(), problem.inner_text()
        assert bobs.locator("#rematch-note").inner_text() == (
            "You declined the rematch. It will not start."
        )
        assert not bobs.locator("#rematch").is_visible()
        anns.wait_for_selector("#headline:has-text('Bob declined')", timeout=MATCH_WAIT_MS)
        anns.screenshot(path=str(screenshots / "rematch-declined.png"), full_page=True)
        assert anns.locator("#headline").inner_text() == (
            "Bob declined the rematch. The rematch will not start."
        )
        # Said once (a trial read it twice), with the ways on instead: the result
        # of the match it followed, another match, the lobby.
        assert anns.locator("#rematch-note").inner_text().split() == [
            "Back", "to", "the", "result", "Play", "now", "Lobby",
        ]  # fmt: skip
        back = anns.locator("#rematch-note a").first.get_attribute("href")
        assert back == f"/matches/{ann.match_id}/play"
        assert anns.locator("#leave").inner_text() == "Leave"
        assert anns.locator("#leave-note").inner_text() == "The rematch will not start."
        assert anns.errors == [] and bobs.errors == [] and anns_finished.errors == []
    finally:
        servers.close()  # stops both servers


def test_a_player_whose_every_opponent_resigned_is_told_where_they_look(
    tmp_path: Path, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """A trial's opponent resigned: the headline still read "Your turn." and the
    news sat in small print beside the Leave button. The notice says it now."""
    ports: list[int] = []
    servers = serve_web(tmp_path, [], before_web=ports.append)
    web_url = next(servers)
    try:
        address = f"127.0.0.1:{ports[0]}"
        ann, bob = _outside(_two_seated(address))
        anns = _seated_page(new_page(DESKTOP), web_url, ann)
        _outside(_leave(address, bob))
        # The news comes with the next move (a leave commits nothing).
        while wait_for_turn(anns) and anns.locator("#notice").is_hidden():
            anns.locator("#actions button.action:not([disabled])").first.click()
            anns.wait_for_timeout(300)
        notice = anns.locator("#notice")
        assert notice.is_visible() and "Every other player resigned" in notice.inner_text()
        anns.screenshot(path=str(screenshots / "alone-notice.png"), full_page=True)
        assert anns.errors == []
    finally:
        servers.close()


async def _two_seated(address: str) -> tuple[SeatClient, SeatClient]:
    """A started two-player Mykerinos match of Ann and Bob."""
    async with SenetClient(address) as client:
        match_id = await client.create_match("mykerinos", 2)
        return await client.join(match_id, "Ann"), await client.join(match_id, "Bob")


async def _leave(address: str, seat: SeatClient) -> None:
    async with SenetClient(address) as client:
        await client.seat(seat.match_id, seat.seat, seat.token).leave()


def _seated_page(page: Any, web_url: str, seat: SeatClient) -> Any:
    """``page`` opened on the play page of ``seat``'s match, holding its seat cookie
    (as the browser of the player who joined there would)."""
    play = f"{web_url}/matches/{seat.match_id}/play"
    cookie = {"name": f"senet_seat_{seat.match_id}", "value": f"{seat.seat}.{seat.token}"}
    page.context.add_cookies([{**cookie, "url": play}])
    page.goto(play)
    return page


def _outside(call: Coroutine[Any, Any, T]) -> T:
    """Run ``call`` in a thread of its own: Playwright's sync API holds this one's loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, call).result()


async def _finished_match(address: str) -> tuple[SeatClient, SeatClient]:
    """A two-player Mykerinos match between Ann and Bob, played to its end."""
    rng = random.Random(1)

    async def decide(turn: Any) -> str:
        return str(rng.choice(list(turn.actions)).notation)

    async with SenetClient(address) as client:
        match_id = await client.create_match("mykerinos", 2)
        ann, bob = await client.join(match_id, "Ann"), await client.join(match_id, "Bob")
        await asyncio.wait_for(asyncio.gather(ann.play(decide), bob.play(decide)), 120)
    return ann, bob


async def _rematch(address: str, seat: SeatClient) -> SeatClient:
    async with SenetClient(address) as client:
        return await client.request_rematch(seat.match_id, seat.token)
