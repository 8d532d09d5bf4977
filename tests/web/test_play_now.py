"""Play now, the leaderboards and the player pages of the web client, over a real
in-process match server (httpx, no browser).

Issue 36: 'the web client gets "Play now" (queue with a visible wait and a
cancel), a leaderboard page and a player page linking replays'.
"""

from __future__ import annotations

import json

import httpx
import pytest

from senet.web.queue import IDENTITY_COOKIE
from senet.web.security import CSRF_COOKIE

# Each test starts an in-process server (a second or more on a loaded machine).
pytestmark = pytest.mark.slow


async def _csrf(web: httpx.AsyncClient) -> dict[str, str]:
    page = await web.get("/play-now")
    assert page.status_code == 200
    return {"x-csrf-token": web.cookies[CSRF_COOKIE]}


def _events(text: str) -> list[tuple[str, dict[str, object]]]:
    found = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


async def test_the_play_now_page_offers_games_seats_and_the_bot_wait(
    web: httpx.AsyncClient,
) -> None:
    page = (await web.get("/play-now")).text
    assert "id='queue-form'" in page and "value='pebbles'" in page
    assert "id='queue-cancel'" in page and "aria-live='polite'" in page
    assert "/static/queue.js" in page and "never: people only" in page
    assert (await web.get("/static/queue.js")).status_code == 200


async def test_a_guest_plays_now_is_matched_with_bots_and_takes_the_seat(
    web: httpx.AsyncClient,
) -> None:
    headers = await _csrf(web)
    refused = await web.post("/play-now/identity", json={"name": "Ada"})
    assert refused.status_code == 403
    made = await web.post("/play-now/identity", json={"name": "Ada"}, headers=headers)
    assert made.status_code == 200
    cookie = made.headers["set-cookie"]
    assert cookie.startswith(f"{IDENTITY_COOKIE}=") and "HttpOnly" in cookie
    stream = await web.get(
        "/play-now/events", params={"game": "pebbles", "min": 2, "max": 2, "rated": 1, "bots": 0}
    )
    events = _events(stream.text)
    assert events[0][0] == "progress" and events[-1] == ("end", {})
    matched = events[-2][1]
    assert matched["stage"] == "matched" and matched["match"]
    assert "token" not in json.dumps(events)  # the seat token never reaches the page
    claimed = await web.post("/play-now/claim", json={"ticket": matched["ticket"]}, headers=headers)
    assert claimed.json() == {"play": f"/matches/{matched['match']}/play"}
    seat_cookie = claimed.headers["set-cookie"]
    assert seat_cookie.startswith(f"senet_seat_{matched['match']}=") and "HttpOnly" in seat_cookie
    assert (await web.get(f"/matches/{matched['match']}/play")).status_code == 200
    # Back on Play now, the match being played comes first (a trial could queue
    # a second match over it, with no word of the first).
    again = (await web.get("/play-now")).text
    assert again.index(str(matched["match"])) < again.index("id='queue-form'")
    assert f"href='/matches/{matched['match']}/play'>resume" in again
    assert "aria-current=page>Play now" in again


async def test_a_browser_keeps_its_guest_from_match_to_match(web: httpx.AsyncClient) -> None:
    """A trial's every Play now press made a new guest: its rating and results were
    gone at the next match, and the leaderboard grew a row of "Alice"s."""
    headers = await _csrf(web)
    first = (await web.post("/play-now/identity", json={"name": "Alice"}, headers=headers)).json()
    assert first["kept"] is False
    again = await web.post("/play-now/identity", json={"name": "Alice"}, headers=headers)
    assert again.json() == {"subject": first["subject"], "kept": True}
    assert "set-cookie" not in again.headers or IDENTITY_COOKIE not in again.headers["set-cookie"]
    # The form offers the name this browser plays as.
    assert (
        "id='queue-name' maxlength='32' required value='Alice'" in (await web.get("/play-now")).text
    )
    # Another name is another guest (a guest's name is its identity's).
    other = (await web.post("/play-now/identity", json={"name": "Bea"}, headers=headers)).json()
    assert other["kept"] is False and other["subject"] != first["subject"]


async def test_queue_problems_come_as_sentences(web: httpx.AsyncClient) -> None:
    stream = await web.get("/play-now/events", params={"game": "pebbles"})  # no identity
    (problem, end) = _events(stream.text)
    assert problem[0] == "problem" and "identity" in str(problem[1]["message"]).lower()
    assert end == ("end", {})
    headers = await _csrf(web)
    await web.post("/play-now/identity", json={"name": "Ada"}, headers=headers)
    stream = await web.get("/play-now/events", params={"game": "chess"})
    assert _events(stream.text)[0][0] == "problem"
    claimed = await web.post("/play-now/claim", json={"ticket": "tk_none"}, headers=headers)
    assert claimed.status_code == 409 and "error" in claimed.json()


async def test_the_leaderboard_and_player_pages(web: httpx.AsyncClient) -> None:
    page = (await web.get("/leaderboard?game=pebbles")).text
    assert "Nobody is ranked yet" in page and "/leaderboard?game=mykerinos" in page
    headers = await _csrf(web)
    made = (await web.post("/play-now/identity", json={"name": "Ada"}, headers=headers)).json()
    mine = await web.get("/player", params={"subject": made["subject"]})
    assert mine.status_code == 200 and "<h2>Ada</h2>" in mine.text
    assert (await web.get("/player", params={"subject": "nobody"})).status_code == 404


async def test_my_page_from_a_new_browser_says_how_it_starts(web: httpx.AsyncClient) -> None:
    """A trial opened /player without an identity: 'This call needs an identity
    token (x-senet-identity)'."""
    page = await web.get("/player")
    assert page.status_code == 404 and "first match from" in page.text
    assert "x-senet-identity" not in page.text


async def test_a_rated_result_is_told_once_settled_and_to_its_player_only(
    web: httpx.AsyncClient,
) -> None:
    """A trial's result page never showed the rating change. The page asks
    /matches/<id>/rating after the end; nobody else's browser learns it."""
    assert (await web.get("/matches/0123456789abcdef/rating")).json() == {"settled": False}
    headers = await _csrf(web)
    await web.post("/play-now/identity", json={"name": "Ada"}, headers=headers)
    assert (await web.get("/matches/0123456789abcdef/rating")).json() == {"settled": False}


async def test_play_now_queues_with_the_game_options_chosen(
    web: httpx.AsyncClient, server: str
) -> None:
    """A trial could not ask Play now for Mykerinos' quick game: the form offers
    each game's options, and the ticket carries them."""
    from senet.client import SenetClient

    page = (await web.get("/play-now")).text
    assert "class='queue-options' data-game='mykerinos'" in page and "opt:quick" in page
    headers = await _csrf(web)
    await web.post("/play-now/identity", json={"name": "Ada"}, headers=headers)
    query: dict[str, str | int] = {
        "game": "mykerinos", "min": 2, "max": 2, "rated": 0, "bots": 0, "opt:quick": "true",
    }  # fmt: skip
    events = _events((await web.get("/play-now/events", params=query)).text)
    matched = events[-2][1]
    assert matched["stage"] == "matched"
    async with SenetClient(server) as client:
        summary = (await client.get(str(matched["match"]))).match
    assert summary.options["quick"].bool_value is True


def test_a_player_page_names_the_opponents_of_each_result() -> None:
    """A trial's player page gave each result's place but not whom it was against."""
    from senet.v1 import player_service_pb2 as ppb
    from senet.web.queue import player_page

    seats = [
        ppb.ResultSeat(subject="guest:bob", display_name="Bob <b>", place=1),
        ppb.ResultSeat(subject="guest:ada", display_name="Ada", place=2),
        ppb.ResultSeat(subject="bot:greedy@1", display_name="greedy bot", place=3),
    ]
    player = ppb.GetPlayerResponse(
        subject="guest:ada",
        display_name="Ada",
        recent=[
            ppb.PlayerResult(match_id="m1", game_id="pebbles", place=2, seat_count=3, seats=seats),
            ppb.PlayerResult(match_id="m0", game_id="pebbles", place=1, seat_count=2),
        ],
    )
    page = player_page(player, "csrf", {"pebbles": "Pebbles"})
    assert "<th>against</th>" in page
    assert (
        "<a href='/player?subject=guest%3Abob'>Bob &lt;b&gt;</a> (1st), "
        "<a href='/player?subject=bot%3Agreedy%401'>greedy bot</a> (3rd)"
    ) in page
    assert "guest%3Aada" not in page  # the player is not their own opponent
