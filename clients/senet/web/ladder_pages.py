"""The web client's ladder, bot and tournament pages.

Read-only pages over ``LadderService`` and ``PlayerService``: a ladder's
standings (rating, interval, matches) with its matches in flight (watch links)
and its recent matches (replay links); a bot's page with its rating over time
as an inline SVG plot (from its settled results) and its recent matches; a
tournament's standings with their tie-breaks, its games by round and the export
of every result. Each page is rendered on the server, as the lobby is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

import grpc
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc, player_service_pb2_grpc
from senet.v1 import player_service_pb2 as ppb
from senet.web import pages
from senet.web.security import csrf_token
from senet.web.settings import WebSettings

_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")
PLOT_W, PLOT_H, PAD = 480, 160, 24


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


def ladder_html(got: lpb.GetLadderResponse) -> str:
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
                "" if s.bot.active else f"inactive: {escape(s.bot.note)}",
            ]
            for s in got.standings
        ],
    )

    def rows(matches: Sequence[lpb.LadderMatch]) -> list[list[str]]:
        return [
            [
                _match_link(m.match_id, m.status),
                escape(" vs ".join(names.get(b, b) for b in m.bot_ids)),
                escape(",".join(str(p) for p in m.places) or m.status),
            ]
            for m in matches
        ]

    spec = got.spec
    return (
        f"<section><h1>Ladder {escape(got.ladder_id)}</h1>"
        f"<p>{escape(spec.game_id)}, {spec.seat_count} seats, {spec.decision_ms} ms a decision, "
        f"{len(got.in_flight)}/{spec.max_in_flight} in flight, {got.matches_played} played.</p>"
        f"{standings}<h2>In flight</h2>{_table(['match', 'bots', 'places'], rows(got.in_flight))}"
        f"<h2>Recent</h2>{_table(['match', 'bots', 'places'], rows(got.recent))}</section>"
    )


def _pool(game_id: str, ladder_id: str) -> str:
    """Where a rating or result was rated: a ladder (one seat count) or the game."""
    return ladder_id or f"{game_id} (matchmaking)"


def _ladder_link(ladder_id: str) -> str:
    safe = escape(ladder_id, quote=True)
    return f"<a href='/ladders/{safe}'>{escape(ladder_id)}</a>"


def bot_html(bot: lpb.Bot, player: ppb.GetPlayerResponse | None) -> str:
    """A bot's page: a rating per ladder (each game at each seat count is rated
    apart), a plot of each over its settled matches, and its recent matches."""
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
    state = "active" if bot.active else f"inactive ({escape(bot.note)})"
    return (
        f"<section><h1>Bot {escape(bot.name)}</h1>"
        f"<p>{escape(bot.subject)} &middot; plays {escape(', '.join(bot.game_ids))} &middot; "
        f"{state}</p>{ratings}<h2>Rating over time</h2>{plots or '<p>No rated match yet.</p>'}"
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

    def _stubs(
        self,
    ) -> tuple[
        ladder_service_pb2_grpc.LadderServiceAsyncStub,
        player_service_pb2_grpc.PlayerServiceAsyncStub,
    ]:
        if self._channel is None:
            if self.settings.tls_ca:
                with open(self.settings.tls_ca, "rb") as pem:
                    creds = grpc.ssl_channel_credentials(pem.read())
                self._channel = grpc.aio.secure_channel(self.settings.server, creds)
            else:
                self._channel = grpc.aio.insecure_channel(self.settings.server)
        return (
            ladder_service_pb2_grpc.LadderServiceStub(self._channel),
            player_service_pb2_grpc.PlayerServiceStub(self._channel),
        )

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close(None)

    def _page(self, request: Request, title: str, main: str, status: int = 200) -> Response:
        return HTMLResponse(pages.page(title, main, csrf_token(request), "ladder"), status)

    def _failed(self, request: Request, error: grpc.aio.AioRpcError) -> Response:
        missing = error.code() == grpc.StatusCode.NOT_FOUND
        main = f"<section><p>{escape(error.details() or 'the server refused')}</p></section>"
        return self._page(
            request, "Not found" if missing else "Error", main, 404 if missing else 502
        )

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
            bots = (await stub.ListBots(lpb.ListBotsRequest())).bots
        except grpc.aio.AioRpcError as error:
            return self._failed(request, error)
        found = next((b for b in bots if b.bot_id == bot_id), None)
        if found is None:
            return self._page(request, "Not found", "<p>No such bot.</p>", 404)
        try:
            player = await players.GetPlayer(ppb.GetPlayerRequest(subject=found.subject))
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.NOT_FOUND:
                return self._failed(request, error)
            player = None
        return self._page(request, f"Bot {found.name}", bot_html(found, player))

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
            Route("/ladders/{ladder_id}", self.ladder),
            Route("/bots/{bot_id}", self.bot),
            Route("/tournaments/{tournament_id}", self.tournament),
            Route("/tournaments/{tournament_id}/export.json", self.export),
        ]
