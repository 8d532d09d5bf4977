"""The web client's ladder, bot and tournament pages.

Read-only pages over ``LadderService`` and ``PlayerService``: the index of the
server's ladders (each one's state, clock, bots, matches played and leader, with
links to its standings and its leaderboard); a ladder's
standings (rating, interval, matches) with its matches in flight (watch links)
and its recent matches (replay links); a bot's page with its rating over time
as an inline SVG plot (from its settled results) and its recent matches; a
tournament's standings with their tie-breaks, its games by round and the export
of every result. Each page is rendered on the server, as the lobby is.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from html import escape
from urllib.parse import quote

import grpc
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from senet.text.bot_state import bench_words, match_bots, worker_words
from senet.v1 import (
    games_pb2,
    ladder_service_pb2_grpc,
    match_service_pb2,
    match_service_pb2_grpc,
    player_service_pb2_grpc,
)
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import player_service_pb2 as ppb
from senet.web import pages
from senet.web.callers import open_channel
from senet.web.security import csrf_token
from senet.web.settings import WebSettings

_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")
PLOT_W, PLOT_H, PAD = 480, 160, 24
#: Most pages of ladders the index reads (a ladder is a game at a seat count: few).
INDEX_PAGES = 10
#: Leaders asked per ladder: an unrated bot ranks by its default rating, which may
#: be above a rated bot's, so the index shows the first rated one among these.
LEADERS_ASKED = 10
_STATES = {
    lpb.LADDER_STATE_RUNNING: ("running", "running"),
    lpb.LADDER_STATE_PAUSED: ("paused", "paused"),
    lpb.LADDER_STATE_WAITING_FOR_BOTS: ("waiting", "waiting for bots"),
}


def rating_svg(points: Sequence[tuple[float, float]]) -> str:
    """An inline SVG plot of (mu, sigma) over a bot's settled matches, oldest
    first: the line is mu, the band mu -/+ 2 sigma ("" without points)."""
    if not points:
        return ""
    lows = [mu - 2 * sigma for mu, sigma in points]
    highs = [mu + 2 * sigma for mu, sigma in points]
    bottom, top = min(lows), max(highs)
    span = (top - bottom) or 1.0
    step = (PLOT_W - 2 * PAD) / max(1, len(points) - 1)

    def xy(i: int, value: float) -> str:
        x = PAD + i * step
        y = PAD + (top - value) / span * (PLOT_H - 2 * PAD)
        return f"{x:.1f},{y:.1f}"

    line = " ".join(xy(i, mu) for i, (mu, _) in enumerate(points))
    band = " ".join(
        [xy(i, h) for i, h in enumerate(highs)]
        + [xy(i, lo) for i, lo in reversed(list(enumerate(lows)))]
    )
    return (
        f'<svg class="rating-plot" role="img" viewBox="0 0 {PLOT_W} {PLOT_H}" '
        f'width="{PLOT_W}" height="{PLOT_H}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>rating over {len(points)} matches</title>"
        f'<polygon points="{band}" fill="#c8d7ef" stroke="none"/>'
        f'<polyline points="{line}" fill="none" stroke="#1f4e99" stroke-width="2"/>'
        f'<text x="{PAD}" y="14" font-size="11">{top:.1f}</text>'
        f'<text x="{PAD}" y="{PLOT_H - 6}" font-size="11">{bottom:.1f}</text>'
        "</svg>"
    )


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table of already escaped cells."""
    top = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table class='standings'><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table>"


def _match_link(match_id: str, status: str) -> str:
    kind = "watch" if status == "active" else "replay"
    safe = escape(match_id, quote=True)
    return f"<a href='/matches/{safe}/{kind}'>{escape(match_id)}</a> ({kind})"


def ladder_html(got: lpb.GetLadderResponse, now_ms: float | None = None) -> str:
    now_ms = time.time() * 1000 if now_ms is None else now_ms
    names = {s.bot.bot_id: s.bot.name for s in got.standings}
    standings = _table(
        ["#", "bot", "rating", "interval (mu +/- 2 sigma)", "matches", ""],
        [
            [
                str(s.rank),
                f"<a href='/bots/{escape(s.bot.bot_id, quote=True)}'>{escape(s.bot.name)}</a>",
                f"{s.rating.conservative:.2f}",
                f"{s.low:.1f} - {s.high:.1f}",
                str(s.matches),
                escape(bench_words(s.bot, now_ms)),
            ]
            for s in got.standings
        ],
    )

    def rows(matches: Sequence[lpb.LadderMatch]) -> list[list[str]]:
        return [
            [
                _match_link(m.match_id, m.status),
                escape(match_bots(m, names)),
                escape(",".join(str(p) for p in m.places) or m.status),
            ]
            for m in matches
        ]

    spec = got.spec
    board = f"/leaderboard?game={quote(spec.game_id)}&amp;seats={spec.seat_count}"
    return (
        f"<section><h1>Ladder {escape(got.ladder_id)}</h1>"
        f"<p><a href='/ladders'>every ladder</a> · <a href='{board}'>its leaderboard</a></p>"
        f"<p>{escape(spec.game_id)}, {spec.seat_count} seats, {spec.decision_ms} ms a decision, "
        f"{len(got.in_flight)}/{spec.max_in_flight} in flight, {got.matches_played} played.</p>"
        f"{standings}<h2>In flight</h2>{_table(['match', 'bots', 'places'], rows(got.in_flight))}"
        f"<h2>Recent</h2>{_table(['match', 'bots', 'places'], rows(got.recent))}</section>"
    )


def ladders_html(
    ladders: Sequence[lpb.LadderSummary], games: Sequence[games_pb2.GameInfo], game_id: str = ""
) -> str:
    """The index of ladders: one row per ladder, linked to its standings and its
    leaderboard; tabs filter by game."""
    names = {g.id: g.name for g in games}
    tabs = " · ".join(
        [f"<a href='/ladders'{' aria-current=page' if not game_id else ''}>every game</a>"]
        + [
            f"<a href='/ladders?game={quote(g.id)}'"
            f"{' aria-current=page' if g.id == game_id else ''}>{escape(g.name)}</a>"
            for g in games
        ]
    )

    def leader(summary: lpb.LadderSummary) -> str:
        rated = [s for s in summary.leaders if s.matches]
        if not rated:
            return "nobody rated yet"
        top = rated[0]
        link = f"<a href='/bots/{escape(top.bot.bot_id, quote=True)}'>{escape(top.bot.name)}</a>"
        return f"{link} {top.rating.conservative:.2f}"

    def state(summary: lpb.LadderSummary) -> str:
        kind, words = _STATES.get(summary.state, ("unknown", "unknown"))
        return f"<span class='ladder-state {kind}'>{words}</span>"

    rows = [
        [
            _ladder_link(s.ladder_id),
            escape(names.get(s.spec.game_id, s.spec.game_id)),
            str(s.spec.seat_count),
            state(s),
            f"{s.spec.decision_ms / 1000:g} s",
            f"{s.in_flight} of {s.spec.max_in_flight}",
            f"{s.active_bots} of {s.bots}",
            str(s.matches_played),
            leader(s),
            f"<a href='/leaderboard?game={quote(s.spec.game_id)}&amp;seats={s.spec.seat_count}'>"
            "leaderboard</a>",
        ]
        for s in ladders
    ]
    head = [
        "ladder", "game", "seats", "state", "clock a decision", "in flight",
        "active bots", "played", "leader", "",
    ]  # fmt: skip
    table = (
        _table(head, rows)
        if ladders
        else "<p>No ladder runs here yet. An operator starts one with "
        "<code>senet ladder start --game GAME</code>.</p>"
    )
    return (
        "<section class='ladders' aria-label='Ladders'><h1>Ladders</h1>"
        "<p>Registered bots play rated matches on each ladder, a game at a seat count, "
        f"around the clock.</p><p>{tabs}</p>{table}</section>"
    )


def _pool(game_id: str, ladder_id: str) -> str:
    """Where a rating or result was rated: a ladder (one seat count) or the game."""
    return ladder_id or f"{game_id} (matchmaking)"


def _ladder_link(ladder_id: str) -> str:
    safe = escape(ladder_id, quote=True)
    return f"<a href='/ladders/{safe}'>{escape(ladder_id)}</a>"


def bot_html(
    bot: lpb.Bot,
    player: ppb.GetPlayerResponse | None,
    now_ms: float | None = None,
    *,
    retired_ms: int = 0,
) -> str:
    """A bot's page: whether its worker calls (or when its owner retired it), a
    rating per ladder (each game at each seat count is rated apart), a plot of each
    over its settled matches, and its recent matches."""
    standings = list(player.ratings) if player is not None else []
    ratings = _table(
        ["ladder", "rating", "mu", "sigma", "matches"],
        [
            [
                _ladder_link(g.ladder_id) if g.ladder_id else escape(_pool(g.game_id, "")),
                f"{g.rating.conservative:.2f}",
                f"{g.rating.mu:.2f}",
                f"{g.rating.sigma:.2f}",
                str(g.matches),
            ]
            for g in standings
        ],
    )
    by_pool: dict[str, list[tuple[float, float]]] = {}
    for r in reversed(player.recent if player is not None else []):
        by_pool.setdefault(_pool(r.game_id, r.ladder_id), []).append((r.rating.mu, r.rating.sigma))
    plots = "".join(
        f"<h3>{escape(pool)}</h3>{rating_svg(points)}" for pool, points in sorted(by_pool.items())
    )
    recent = _table(
        ["match", "ladder", "place", "change"],
        [
            [
                _match_link(r.match_id, "finished"),
                escape(_pool(r.game_id, r.ladder_id)),
                f"{r.place} of {r.seat_count}",
                f"{r.delta:+.2f}",
            ]
            for r in (player.recent if player is not None else [])
        ],
    )
    now_ms = time.time() * 1000 if now_ms is None else now_ms
    state = escape(bench_words(bot, now_ms) or "active")
    worker = escape(worker_words(bot, now_ms))
    if retired_ms:
        retired = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(retired_ms / 1000))
        state, worker = f"retired by its owner on {retired}", "no longer plays"
    return (
        f"<section><h1>Bot {escape(bot.name)}</h1>"
        f"<p>{escape(bot.subject)} &middot; plays {escape(', '.join(bot.game_ids))} &middot; "
        f"{state} &middot; {worker}</p>{ratings}"
        f"<h2>Rating over time</h2>{plots or '<p>No rated match yet.</p>'}"
        f"<h2>Recent matches</h2>{recent}</section>"
    )


def tournament_html(got: lpb.GetTournamentResponse) -> str:
    names = {s.subject: s.display_name for s in got.standings}
    standings = _table(
        ["#", "entrant", "points", "Buchholz", "first places", "played"],
        [
            [
                str(s.rank),
                escape(s.display_name),
                f"{s.points:g}",
                f"{s.buchholz:g}",
                str(s.wins),
                str(s.played),
            ]
            for s in got.standings
        ],
    )
    games = _table(
        ["round", "match", "seats", "places"],
        [
            [
                str(g.round),
                _match_link(g.match_id, g.status),
                escape(" vs ".join(names.get(s, s) for s in g.subjects)),
                escape(",".join(str(p) for p in g.places) or g.status),
            ]
            for g in got.games
        ],
    )
    safe = escape(got.tournament_id, quote=True)
    return (
        f"<section><h1>{escape(got.name)}</h1>"
        f"<p>{escape(got.game_id)}, round {got.round} of {got.rounds}, {escape(got.status)} "
        f"&middot; <a href='/tournaments/{safe}/export.json'>every result (JSON)</a></p>"
        f"{standings}<h2>Games</h2>{games}</section>"
    )


class LadderPages:
    """The routes, over one channel to the server (opened on first use)."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self._channel: grpc.aio.Channel | None = None

    def _channel_now(self) -> grpc.aio.Channel:
        if self._channel is None:
            self._channel = open_channel(self.settings.server, self.settings.tls_ca)
        return self._channel

    def _stubs(
        self,
    ) -> tuple[
        ladder_service_pb2_grpc.LadderServiceAsyncStub,
        player_service_pb2_grpc.PlayerServiceAsyncStub,
    ]:
        channel = self._channel_now()
        return (
            ladder_service_pb2_grpc.LadderServiceStub(channel),
            player_service_pb2_grpc.PlayerServiceStub(channel),
        )

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close(None)

    def _page(self, request: Request, title: str, main: str, status: int = 200) -> Response:
        return HTMLResponse(pages.page(title, main, csrf_token(request), "ladder"), status)

    def _failed(self, request: Request, error: grpc.aio.AioRpcError) -> Response:
        """The page of a refused call: not found (404), a bad request (400, an
        unknown game in the address), or the server's fault (502)."""
        title, status = {
            grpc.StatusCode.NOT_FOUND: ("Not found", 404),
            grpc.StatusCode.INVALID_ARGUMENT: ("Bad request", 400),
        }.get(error.code(), ("Error", 502))
        main = f"<section><p>{escape(error.details() or 'the server refused')}</p></section>"
        return self._page(request, title, main, status)

    async def index(self, request: Request) -> Response:
        given = request.query_params.get("game", "")
        game_id = given if _ID.match(given) else ""
        stub, _ = self._stubs()
        games_stub = match_service_pb2_grpc.MatchServiceStub(self._channel_now())
        ladders: list[lpb.LadderSummary] = []
        try:
            games = (await games_stub.ListGames(match_service_pb2.ListGamesRequest())).games
            token = ""
            for _ in range(INDEX_PAGES):
                page = await stub.ListLadders(
                    lpb.ListLaddersRequest(
                        game_id=game_id, page_size=100, page_token=token, top=LEADERS_ASKED
                    )
                )
                ladders += page.ladders
                token = page.next_page_token
                if not token:
                    break
        except grpc.aio.AioRpcError as error:
            return self._failed(request, error)
        return self._page(request, "Ladders", ladders_html(ladders, games, game_id))

    async def ladder(self, request: Request) -> Response:
        ladder_id = str(request.path_params["ladder_id"])
        if not _ID.match(ladder_id):
            return self._page(request, "Not found", "<p>No such ladder.</p>", 404)
        stub, _ = self._stubs()
        try:
            got = await stub.GetLadder(lpb.GetLadderRequest(ladder_id=ladder_id, recent=30))
        except grpc.aio.AioRpcError as error:
            return self._failed(request, error)
        return self._page(request, f"Ladder {ladder_id}", ladder_html(got))

    async def bot(self, request: Request) -> Response:
        bot_id = str(request.path_params["bot_id"])
        stub, players = self._stubs()
        try:
            got = await stub.GetBot(lpb.GetBotRequest(bot_id=bot_id))
        except grpc.aio.AioRpcError as error:
            if error.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
                return self._page(request, "Not found", "<p>No bot has this id.</p>", 404)
            return self._failed(request, error)
        found = got.bot
        try:
            player = await players.GetPlayer(ppb.GetPlayerRequest(subject=found.subject))
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.NOT_FOUND:
                return self._failed(request, error)
            player = None
        return self._page(
            request, f"Bot {found.name}", bot_html(found, player, retired_ms=got.retired_ms)
        )

    async def tournament(self, request: Request) -> Response:
        tournament_id = str(request.path_params["tournament_id"])
        if not _ID.match(tournament_id):
            return self._page(request, "Not found", "<p>No such tournament.</p>", 404)
        stub, _ = self._stubs()
        try:
            got = await stub.GetTournament(lpb.GetTournamentRequest(tournament_id=tournament_id))
        except grpc.aio.AioRpcError as error:
            return self._failed(request, error)
        return self._page(request, got.name, tournament_html(got))

    async def export(self, request: Request) -> Response:
        tournament_id = str(request.path_params["tournament_id"])
        stub, _ = self._stubs()
        try:
            got = await stub.ExportTournament(
                lpb.ExportTournamentRequest(tournament_id=tournament_id)
            )
        except grpc.aio.AioRpcError as error:
            return self._failed(request, error)
        return Response(got.results_json, media_type="application/json")

    def routes(self) -> list[Route]:
        return [
            Route("/ladders", self.index),
            Route("/ladders/{ladder_id}", self.ladder),
            Route("/bots/{bot_id}", self.bot),
            Route("/tournaments/{tournament_id}", self.tournament),
            Route("/tournaments/{tournament_id}/export.json", self.export),
        ]
