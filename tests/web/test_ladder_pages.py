"""The web client's ladder, bot and tournament pages over a real in-process server:
standings with intervals and match counts, the rating over time as an inline SVG,
recent matches with replay links, a tournament's tie-breaks and export.

Issue 37: "ladder, tournament and bot pages in the web client (standings, rating
over time as a plot, recent matches with replays)".
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import grpc
import httpx
import pytest

from senet.cli.beside import embedded_server
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc, player_service_pb2_grpc
from senet.v1 import player_service_pb2 as ppb
from senet.web.app import create_app
from senet.web.ladder_pages import rating_svg, tournament_html
from senet.web.settings import WebSettings

BASE = "http://127.0.0.1:8080"
GAME = "pebbles"


def test_the_rating_plot_is_an_inline_svg_of_mu_and_its_band() -> None:
    assert rating_svg([]) == ""
    svg = rating_svg([(25.0, 8.3), (27.0, 6.0), (29.5, 4.2)])
    assert svg.startswith("<svg") and "rating over 3 matches" in svg
    line = svg.split('<polyline points="')[1].split('"')[0]
    assert len(line.split()) == 3  # one point per settled match
    ys = [float(p.split(",")[1]) for p in line.split()]
    assert ys[0] > ys[1] > ys[2]  # a rising mu is drawn upwards


def test_names_on_a_tournament_page_are_escaped() -> None:
    got = lpb.GetTournamentResponse(
        tournament_id="t1",
        name="<b>cup</b>",
        standings=[lpb.TournamentStanding(rank=1, subject="p", display_name="<script>")],
    )
    page = tournament_html(got)
    assert "<script>" not in page and "&lt;script&gt;" in page and "&lt;b&gt;cup" in page


@pytest.fixture
async def server() -> AsyncIterator[str]:
    async with embedded_server() as address:
        yield address


@pytest.mark.slow
async def test_ladder_bot_and_tournament_pages(server: str) -> None:
    async with grpc.aio.insecure_channel(server) as channel:
        players = player_service_pb2_grpc.PlayerServiceStub(channel)
        ladder = ladder_service_pb2_grpc.LadderServiceStub(channel)
        guest = await players.RegisterGuest(ppb.RegisterGuestRequest(display_name="ada"))
        me = (("x-senet-identity", guest.identity_token),)
        bots = [
            (
                await ladder.RegisterBot(
                    lpb.RegisterBotRequest(name=n, game_ids=[GAME]), metadata=me
                )
            ).bot
            for n in ("alpha", "beta")
        ]
        # No workers: the clock plays every decision, so matches end at once.
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
    app = create_app(WebSettings(server=server))
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as web:
            page = (await web.get(f"/ladders/{GAME}-2")).text
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
            assert "Nobody is ranked on this ladder yet" in ladder_3
            profile = (await web.get("/player", params={"subject": bots[0].subject})).text
            assert f"{GAME}-2</a> (ladder)" in profile
            assert (await web.get("/ladders/nope-2")).status_code == 404
            assert (await web.get("/bots/" + "0" * 20)).status_code == 404
            tour_page = await web.get(f"/tournaments/{created.tournament_id}")
            assert tour_page.status_code == 200 and "Buchholz" in tour_page.text
            export = await web.get(f"/tournaments/{created.tournament_id}/export.json")
            assert len(json.loads(export.text)["games"]) == 1
    finally:
        await app.state.web.close()
