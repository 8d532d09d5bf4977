"""The web client's ladder, bot and tournament pages over a real in-process server:
the index of ladders linked from the top bar, standings with intervals and match
counts, the rating over time as an inline SVG, recent matches with replay links, a
tournament's tie-breaks and export.

Issue 37: "ladder, tournament and bot pages in the web client (standings, rating
over time as a plot, recent matches with replays)".
"""

from __future__ import annotations

import asyncio
import json
import time

import grpc
import httpx
import pytest

from senet.text.bot_state import bench_words
from senet.v1 import games_pb2, ladder_service_pb2_grpc, player_service_pb2_grpc
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import player_service_pb2 as ppb
from senet.web.ladder_pages import (
    bot_html,
    ladder_html,
    ladders_html,
    rating_svg,
    tournament_html,
)
from tests.service.conftest import announce

GAME = "pebbles"


def test_the_rating_plot_is_an_inline_svg_of_mu_and_its_band() -> None:
    assert rating_svg([]) == ""
    svg = rating_svg([(25.0, 8.3), (27.0, 6.0), (29.5, 4.2)])
    assert svg.startswith("<svg") and "rating over 3 matches" in svg
    line = svg.split('<polyline points="')[1].split('"')[0]
    assert len(line.split()) == 3  # one point per settled match
    ys = [float(p.split(",")[1]) for p in line.split()]
    assert ys[0] > ys[1] > ys[2]  # a rising mu is drawn upwards


def test_a_bot_page_says_when_its_worker_last_called() -> None:
    now_ms = 1_800_000_000_000.0
    never = lpb.Bot(name="b", subject="bot:x/b")
    assert "no worker has called yet" in bot_html(never, None, now_ms)
    for ago_s, words in ((12, "12 s ago"), (600, "10 min ago"), (3 * 3600, "3 h ago")):
        seen = lpb.Bot(name="b", subject="bot:x/b", worker_seen_ms=int(now_ms - ago_s * 1000))
        assert f"its worker last called {words}" in bot_html(seen, None, now_ms)


def test_a_retired_bots_page_says_when_it_was_retired() -> None:
    bot = lpb.Bot(name="old", subject="bot:x/old", note="retired by its owner")
    page = bot_html(bot, None, 1_800_000_000_000.0, retired_ms=1_767_225_600_000)
    assert "retired by its owner on 2026-01-01 00:00 UTC &middot; no longer plays" in page
    assert "benched" not in page


def test_a_benched_bot_says_why_and_when_it_comes_back() -> None:
    now_ms = 1_800_000_000_000.0
    note = "3 decisions in a row timed out (match m1)"
    resting = lpb.Bot(
        name="b", subject="bot:x/b", note=note, benched_until_ms=int(now_ms + 300_000)
    )
    assert (
        bench_words(resting, now_ms)
        == f"benched ({note}); back once its worker calls after 5 min more"
    )
    assert "its rest is over: back once its worker calls" in bench_words(resting, now_ms + 400_000)
    assert bench_words(lpb.Bot(name="b", note=note), now_ms).endswith("until it registers again")
    assert bench_words(lpb.Bot(name="b", active=True), now_ms) == ""
    page = bot_html(resting, None, now_ms)
    assert "benched (3 decisions in a row timed out (match m1)); back once" in page
    standings = lpb.GetLadderResponse(
        ladder_id="pebbles-2",
        standings=[
            lpb.LadderStanding(rank=1, bot=lpb.Bot(name="a", active=True)),
            lpb.LadderStanding(rank=2, bot=resting),
        ],
    )
    assert page.count("benched") == 1 and ladder_html(standings, now_ms).count("benched (") == 1
    standings.recent.add(match_id="m1", bot_ids=["id-a", "id-gone"], bot_names=["a", "gone"])
    standings.recent.add(match_id="m2", bot_ids=["id-a"])  # a server that names none
    html = ladder_html(standings, now_ms)
    assert "<td>a vs gone</td>" in html and "<td>id-a</td>" in html


def test_names_on_a_tournament_page_are_escaped() -> None:
    got = lpb.GetTournamentResponse(
        tournament_id="t1",
        name="<b>cup</b>",
        standings=[lpb.TournamentStanding(rank=1, subject="p", display_name="<script>")],
    )
    page = tournament_html(got)
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;b&gt;cup" in page


def _summary(ladder_id: str, state: int, **fields: object) -> lpb.LadderSummary:
    game, seats = ladder_id.rsplit("-", 1)
    spec = lpb.LadderSpec(game_id=game, seat_count=int(seats), decision_ms=1500, max_in_flight=2)
    return lpb.LadderSummary(ladder_id=ladder_id, spec=spec, state=state, **fields)  # type: ignore[arg-type]


def test_the_index_links_each_ladder_its_leader_and_its_leaderboard() -> None:
    leader = lpb.LadderStanding(
        rank=1,
        bot=lpb.Bot(bot_id="b1", name="<img src=x>"),
        rating=ppb.Rating(conservative=12.5),
        matches=4,
    )
    unrated = lpb.LadderStanding(rank=1, bot=lpb.Bot(bot_id="b2", name="fresh"))
    games = [games_pb2.GameInfo(id=GAME, name="Pebbles")]
    page = ladders_html(
        [
            _summary(f"{GAME}-2", lpb.LADDER_STATE_RUNNING, in_flight=1, active_bots=3, bots=4,
                     matches_played=9, leaders=[leader]),
            _summary(f"{GAME}-3", lpb.LADDER_STATE_WAITING_FOR_BOTS, leaders=[unrated]),
        ],
        games,
        GAME,
    )  # fmt: skip
    assert f"<a href='/ladders/{GAME}-2'>{GAME}-2</a>" in page
    assert f"/leaderboard?game={GAME}&amp;seats=3'" in page
    assert "<a href='/bots/b1'>&lt;img src=x&gt;</a> 12.50" in page  # escaped
    assert "fresh" not in page and "nobody rated yet" in page  # unrated leads nothing
    assert "running" in page and "waiting for bots" in page and "1.5 s" in page
    assert "1 of 2" in page and "3 of 4" in page
    assert f"<a href='/ladders?game={GAME}' aria-current=page>Pebbles</a>" in page
    empty = ladders_html([], games)
    assert "No ladder runs here yet" in empty and "<table" not in empty


@pytest.mark.slow
async def test_the_index_of_a_server_without_ladders_says_how_to_start_one(
    web: httpx.AsyncClient,
) -> None:
    index = await web.get("/ladders")
    assert index.status_code == 200 and "No ladder runs here yet" in index.text
    assert "senet ladder start" in index.text
    # Every page's top bar leads to the index.
    assert "<a href='/ladders'>Ladders</a>" in (await web.get("/leaderboard")).text


@pytest.mark.slow
async def test_ladder_bot_and_tournament_pages(server: str, web: httpx.AsyncClient) -> None:
    async with grpc.aio.insecure_channel(server) as channel:
        players = player_service_pb2_grpc.PlayerServiceStub(channel)
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        guest = await players.RegisterGuest(ppb.RegisterGuestRequest(display_name="ada"))
        me = (("x-senet-identity", guest.identity_token),)
        registered = [
            await ladder.RegisterBot(lpb.RegisterBotRequest(name=n, game_ids=[GAME]), metadata=me)
            for n in ("alpha", "beta")
        ]
        bots = [r.bot for r in registered]
        # Each bot's worker calls once, then never answers: the ladder seats the bots
        # and the clock plays every decision, so matches end at once.
        for r in registered:
            await announce(channel, r.bot_key)
        spec = lpb.LadderSpec(game_id=GAME, decision_ms=10, max_in_flight=1, inactive_after=10_000)
        await ladder.StartLadder(lpb.StartLadderRequest(spec=spec))
        created = await ladder.CreateTournament(
            lpb.CreateTournamentRequest(
                game_id=GAME,
                entrants=[lpb.TournamentEntrant(bot_id=b.bot_id) for b in bots],
                decision_ms=10,
            )
        )
        deadline = time.monotonic() + 60
        while True:  # a condition: two ladder matches played and the tournament over
            got = await ladder.GetLadder(lpb.GetLadderRequest(ladder_id=f"{GAME}-2"))
            tour = await ladder.GetTournament(
                lpb.GetTournamentRequest(tournament_id=created.tournament_id)
            )
            if got.matches_played >= 2 and tour.status == "finished":
                break
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        await ladder.StartLadder(lpb.StartLadderRequest(spec=lpb.LadderSpec(game_id=GAME)))
    index = await web.get("/ladders")
    # The header marks the page it is on.
    assert index.status_code == 200 and "<a href='/ladders' aria-current=page>Ladders" in index.text
    assert f"<a href='/ladders/{GAME}-2'>{GAME}-2</a>" in index.text
    assert "paused" in index.text  # the ladder was paused above
    assert "alpha" in index.text or "beta" in index.text  # its leader
    only = (await web.get(f"/ladders?game={GAME}")).text
    assert f"/ladders/{GAME}-2'" in only
    other = (await web.get("/ladders?game=mykerinos")).text
    assert "No ladder runs here yet" in other and f"/ladders/{GAME}-2'" not in other
    assert (await web.get("/ladders?game=chess")).status_code == 400
    page = (await web.get(f"/ladders/{GAME}-2")).text
    assert "<a href='/ladders'>every ladder</a>" in page
    assert "alpha" in page and "beta" in page and "/replay'" in page
    assert "interval" in page and f"/bots/{bots[0].bot_id}" in page
    bot_page = await web.get(f"/bots/{bots[0].bot_id}")
    assert bot_page.status_code == 200 and "<svg" in bot_page.text
    assert "/replay'" in bot_page.text
    # Rated per ladder (game and seat count), not on the game's matchmaking board.
    assert f"<h3>{GAME}-2</h3>" in bot_page.text
    assert f"<a href='/ladders/{GAME}-2'>{GAME}-2</a>" in bot_page.text
    assert "(matchmaking)" not in bot_page.text
    board = (await web.get(f"/leaderboard?game={GAME}&seats=2")).text
    assert "alpha" in board and "beta" in board
    assert "aria-current=page>ladder at 2 seats" in board
    assert "Nobody is ranked yet" in (await web.get(f"/leaderboard?game={GAME}")).text
    ladder_3 = (await web.get(f"/leaderboard?game={GAME}&seats=3")).text
    # No ladder runs at 3 seats: the page points at the ladders, not at a 404.
    assert "No bot is ranked at 3 seats yet" in ladder_3 and "href='/ladders'" in ladder_3
    assert f"/ladders/{GAME}-3'" not in ladder_3
    profile = (await web.get("/player", params={"subject": bots[0].subject})).text
    assert f"<a href='/ladders/{GAME}-2'>Pebbles, bot ladder</a>" in profile
    assert (await web.get("/ladders/nope-2")).status_code == 404
    assert (await web.get("/bots/" + "0" * 20)).status_code == 404
    tour_page = await web.get(f"/tournaments/{created.tournament_id}")
    assert tour_page.status_code == 200 and "Buchholz" in tour_page.text
    export = await web.get(f"/tournaments/{created.tournament_id}/export.json")
    assert len(json.loads(export.text)["games"]) == 1
