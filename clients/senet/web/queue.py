"""Play now, the leaderboards and the player pages (senet.v1.PlayerService).

"Play now" queues a ticket for the person and shows the wait live: the page
(``static/queue.js``) registers a guest identity (kept in an httpOnly cookie, like
seat tokens), opens ``/play-now/events``, the server-sent events of a FindMatch
stream, and closing the page or pressing "cancel" closes the stream, which cancels
the ticket. The MATCHED event names the match but never the seat token: the page
then posts ``/play-now/claim``, which resumes the ticket once more and keeps the
token in the match's seat cookie before sending the person to the play page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from senet.client.errors import SenetRpcError
from senet.client.players import PlayerClient
from senet.text.drawing import ordinal
from senet.v1 import games_pb2, match_pb2
from senet.v1 import player_service_pb2 as pb
from senet.web import pages
from senet.web.errors import human
from senet.web.live import sse
from senet.web.security import (
    CSRF_HEADER,
    csrf_ok,
    csrf_token,
    keep_cookie,
    played_name,
    remember_seat,
    set_seat_cookie,
)

if TYPE_CHECKING:
    from senet.web.app import WebClient

IDENTITY_COOKIE = "senet_identity"
#: The waits before bots fill empty seats that the form offers (seconds; -1: never).
BOT_WAITS: tuple[tuple[int, str], ...] = (
    (10, "after 10 seconds"),
    (30, "after 30 seconds"),
    (120, "after 2 minutes"),
    (-1, "never: people only"),
)
_STAGES = {
    pb.TICKET_STAGE_QUEUED: "queued",
    pb.TICKET_STAGE_PLAYERS_FOUND: "players_found",
    pb.TICKET_STAGE_MATCHED: "matched",
}


def _json_error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status)


def play_now_page(
    games: list[games_pb2.GameInfo], csrf: str, name: str = "", before: str = ""
) -> str:
    """The Play now form and the live wait beside it (``name``: the guest this
    browser plays as, or the name it last played under; ``before``: what comes
    first, the matches this browser is still playing)."""
    game_options = "".join(
        f"<option value='{escape(g.id, quote=True)}' data-min='{g.min_seats}' "
        f"data-max='{g.max_seats}'>{escape(g.name)} ({g.min_seats}-{g.max_seats} players)</option>"
        for g in games
    )
    # Each game's options, the chosen game's shown (queue.js): tickets meet only
    # with the same options, so the defaults are the usual choice.
    options = "".join(
        f"<fieldset class='queue-options' data-game='{escape(g.id, quote=True)}' hidden>"
        f"<legend>{escape(g.name)} options (players queue with the same ones)</legend>"
        + "".join(pages.option_input(g.id, option) for option in g.options)
        + "</fieldset>"
        for g in games
        if g.options
    )
    waits = "".join(
        f"<option value='{value}'{' selected' if value == 30 else ''}>{escape(label)}</option>"
        for value, label in BOT_WAITS
    )
    main = (
        f"{before}<section class='play-now' aria-label='Play now'><h2>Play now</h2>"
        "<form id='queue-form'>"
        "<label><span>Your name</span> <input name='name' id='queue-name' maxlength='32' "
        f"required value='{escape(name or 'Guest', quote=True)}'></label>"
        "<label><span>Game</span> "
        f"<select name='game' id='queue-game'>{game_options}</select></label>"
        f"<details class='queue-more'><summary>Game options</summary>{options}</details>"
        "<label><span>Fewest players</span> <input type='number' id='queue-min' name='min' "
        "min='1' value='2'></label>"
        "<label><span>Most players</span> <input type='number' id='queue-max' name='max' "
        "min='1' value='2'></label>"
        "<label><span>Rated</span> <input type='checkbox' id='queue-rated' name='rated' "
        "checked></label>"
        "<label><span>Fill empty seats with bots</span> "
        f"<select id='queue-bots' name='bots'>{waits}</select></label>"
        "<button type='submit' id='queue-go'>Play now</button></form>"
        "<div id='queue-status' class='queue-status' role='status' aria-live='polite'></div>"
        "<button type='button' id='queue-cancel' hidden>Cancel</button>"
        "<p><a href='/leaderboard'>Leaderboards</a> · <a href='/'>Lobby</a></p></section>"
        "<script src='/static/queue.js' defer></script>"
    )
    return pages.page("Play now", main, csrf, "queue")


#: What the numbers mean, beside every table of ratings.
RATING_NOTE = (
    "<p class='muted'>A rating is a cautious estimate of strength: the skill estimate "
    "(mu) less three times its uncertainty (sigma). Everyone starts at 0 (mu 25, sigma "
    "8.33); results move mu and shrink sigma, so a newcomer's first loss can take the "
    "rating below 0, and steady results raise it.</p>"
)


def _rating_cells(rating: pb.Rating) -> str:
    return f"<td>{rating.conservative:.2f}</td><td>{rating.mu:.2f}</td><td>{rating.sigma:.2f}</td>"


def leaderboard_page(
    games: list[games_pb2.GameInfo],
    game_id: str,
    entries: list[pb.LeaderboardEntry],
    csrf: str,
    seats: int = 0,
) -> str:
    """A game's board: its matchmaking ratings, or (``seats``) its bot ladder's at
    that seat count, which is rated apart."""
    tabs = " · ".join(
        f"<a href='/leaderboard?game={quote(g.id)}'"
        f"{' aria-current=page' if g.id == game_id else ''}>{escape(g.name)}</a>"
        for g in games
    )
    shown = next((g for g in games if g.id == game_id), None)
    counts = range(shown.min_seats, shown.max_seats + 1) if shown is not None else range(0)
    pools = " · ".join(
        [
            f"<a href='/leaderboard?game={quote(game_id)}'"
            f"{' aria-current=page' if not seats else ''}>matchmaking</a>"
        ]
        + [
            f"<a href='/leaderboard?game={quote(game_id)}&amp;seats={n}'"
            f"{' aria-current=page' if n == seats else ''}>ladder at {n} seats</a>"
            for n in counts
        ]
    )
    rows = "".join(
        f"<tr><td>{e.rank}</td><td><a href='/player?subject={quote(e.subject)}'>"
        f"{escape(e.display_name)}</a></td>{_rating_cells(e.rating)}<td>{e.matches}</td></tr>"
        for e in entries
    )
    empty = (
        f"<p>No bot is ranked at {seats} seats yet: bots are rated by the bot ladders "
        "(<a href='/ladders'>the ladders</a>).</p>"
        if seats
        else "<p>Nobody is ranked yet: rated matches come from "
        "<a href='/play-now'>Play now</a>.</p>"
    )
    table = (
        "<table class='leaderboard'><thead><tr><th>#</th><th>player</th>"
        "<th>rating</th><th>mu</th><th>sigma</th><th>matches</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>{RATING_NOTE}"
        if entries
        else empty
    )
    main = (
        f"<section aria-label='Leaderboard'><h2>Leaderboard</h2><p>{tabs}</p><p>{pools}</p>"
        f"{table}</section>"
    )
    return pages.page("Leaderboard", main, csrf, "leaderboard")


def _rated_where(game_id: str, ladder_id: str, names: Mapping[str, str]) -> str:
    """A rating's pool as a link: the game's matchmaking board, or a ladder's
    (``names``: game names by id)."""
    name = names.get(game_id, game_id)
    if ladder_id:
        return f"<a href='/ladders/{quote(ladder_id)}'>{escape(name)}, bot ladder</a>"
    return f"<a href='/leaderboard?game={quote(game_id)}'>{escape(name)}</a>"


def _opponents(result: pb.PlayerResult, subject: str) -> str:
    """The other seats of a result, each with its place and a link to its page
    (results settled before seats were recorded name nobody: the replay does)."""
    others = [s for s in result.seats if s.subject != subject]
    return ", ".join(
        f"<a href='/player?subject={quote(s.subject)}'>{escape(s.display_name or s.subject)}</a>"
        f" ({ordinal(s.place)})"
        for s in others
    )


def player_page(
    player: pb.GetPlayerResponse, csrf: str, names: Mapping[str, str] | None = None
) -> str:
    """A player's ratings and recent rated results (``names``: game names by id)."""
    names = names or {}
    ratings = (
        "".join(
            f"<tr><td>{_rated_where(r.game_id, r.ladder_id, names)}</td>"
            f"{_rating_cells(r.rating)}<td>{r.matches}</td></tr>"
            for r in player.ratings
        )
        or "<tr><td colspan='5'>No rated match yet.</td></tr>"
    )
    recent = (
        "".join(
            f"<tr><td>{_rated_where(r.game_id, r.ladder_id, names)}</td>"
            f"<td>{r.place} of {r.seat_count}</td><td>{_opponents(r, player.subject)}</td>"
            f"<td>{r.delta:+.2f}</td><td><a href='/matches/{quote(r.match_id)}/replay'>replay</a>"
            "</td></tr>"
            for r in player.recent
        )
        or "<tr><td colspan='5'>None yet.</td></tr>"
    )
    main = (
        f"<section aria-label='Player'><h2>{escape(player.display_name)}</h2>"
        "<table class='ratings'><thead><tr><th>game</th><th>rating</th><th>mu</th>"
        f"<th>sigma</th><th>matches</th></tr></thead><tbody>{ratings}</tbody></table>"
        f"{RATING_NOTE}<h3>Recent rated matches</h3><table class='results'><thead><tr><th>game</th>"
        "<th>place</th><th>against</th><th>rating change</th><th></th></tr></thead>"
        f"<tbody>{recent}</tbody></table></section>"
    )
    return pages.page(player.display_name, main, csrf, "player")


def routes(web: WebClient) -> list[Route]:
    """The routes of Play now, the leaderboards and the player pages."""
    secure = web.settings.secure_cookies

    def identity(request: Request) -> str:
        return request.cookies.get(IDENTITY_COOKIE, "")

    async def current_player(request: Request) -> pb.GetPlayerResponse | None:
        """The player this browser's identity cookie stands for; None without a
        cookie, or with one the server no longer accepts (expired, another key)."""
        if not identity(request):
            return None
        try:
            return await PlayerClient(web.senet, identity(request)).get_player()
        except SenetRpcError:
            return None

    async def play_now(request: Request) -> Response:
        try:
            games = await web.games()
        except SenetRpcError as error:
            return HTMLResponse(pages.page("Play now", escape(human(error)), ""), 503)
        me = await current_player(request)
        name = me.display_name if me is not None else played_name(request)
        # A match this browser is still playing comes first: the way back to it.
        playing = [
            entry
            for entry in await web.held_matches(request)
            if entry.summary.status == match_pb2.MATCH_STATUS_ACTIVE
        ]
        before = pages.held_html(playing, games) if playing else ""
        return HTMLResponse(play_now_page(games, csrf_token(request), name[:32], before))

    async def register(request: Request) -> Response:
        """The guest identity to queue as, kept in an httpOnly cookie: the one this
        browser holds when its name is the one given (so ratings and results
        carry over from match to match), else a new guest of that name."""
        if not csrf_ok(request, request.headers.get(CSRF_HEADER)):
            return _json_error("missing or wrong CSRF token", 403)
        try:
            body: Any = await request.json()
            name = str(body["name"]).strip()[:32]
        except (ValueError, KeyError, TypeError):
            return _json_error("send JSON with a name", 400)
        name = name or "Guest"
        me = await current_player(request)
        if me is not None and me.display_name == name:
            return JSONResponse({"subject": me.subject, "kept": True})
        players = PlayerClient(web.senet)
        try:
            guest = await players.register_guest(name)
        except SenetRpcError as error:
            return _json_error(human(error), 400)
        response = JSONResponse({"subject": guest.subject, "kept": False})
        keep_cookie(response, IDENTITY_COOKIE, guest.identity_token, days=30, secure=secure)
        return response

    async def events(request: Request) -> Response:
        """The FindMatch stream as server-sent events; closing them cancels the ticket."""
        query = request.query_params
        players = PlayerClient(web.senet, identity(request))
        bots = int(query.get("bots", "-1")) if query.get("bots", "").lstrip("-").isdigit() else -1

        async def stream() -> AsyncIterator[str]:
            try:
                low = int(query.get("min", "0") or 0)
                high = int(query.get("max", "0") or 0)
                game_id = query.get("game", "")
                specs = {
                    spec.name: spec
                    for game in await web.games()
                    if game.id == game_id
                    for spec in game.options
                }
                options = {
                    name: pages.option_value(specs[name], query.get(f"opt:{name}", ""))
                    for name in specs
                    if f"opt:{name}" in query
                }
                async for progress in players.find_match(
                    game_id,
                    seats=(low, high),
                    options=options,
                    rated=query.get("rated") == "1",
                    bot_fill_after_s=None if bots < 0 else float(bots),
                ):
                    if progress.stage == pb.TICKET_STAGE_AWAITING_ENTROPY:
                        continue  # the client sends the seat's entropy and goes on
                    yield sse(
                        "progress",
                        {
                            "stage": _STAGES.get(progress.stage, "queued"),
                            "ticket": progress.ticket_id,
                            "waited": round(progress.waited_s, 1),
                            "found": progress.players_found,
                            "match": progress.match_id,
                        },
                    )
            except SenetRpcError as error:
                yield sse("problem", {"message": human(error)})
            except ValueError:
                yield sse(
                    "problem", {"message": "The seat counts and number options must be numbers."}
                )
            yield sse("end", {})

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    async def claim(request: Request) -> Response:
        """The matched seat's token into the match's seat cookie; where to play."""
        if not csrf_ok(request, request.headers.get(CSRF_HEADER)):
            return _json_error("missing or wrong CSRF token", 403)
        try:
            body: Any = await request.json()
            ticket_id = str(body["ticket"])[:64]
        except (ValueError, KeyError, TypeError):
            return _json_error("send JSON with the ticket", 400)
        players = PlayerClient(web.senet, identity(request))
        matched: pb.FindMatchResponse | None = None
        try:
            async for progress in players.find_match("", ticket_id=ticket_id):
                if progress.stage == pb.TICKET_STAGE_MATCHED:
                    matched = progress
        except SenetRpcError as error:
            return _json_error(human(error), 409)
        if matched is None:
            return _json_error("That ticket is not matched yet.", 409)
        response = JSONResponse({"play": f"/matches/{matched.match_id}/play"})
        set_seat_cookie(response, matched.match_id, matched.seat, matched.seat_token, secure=secure)
        remember_seat(response, request, matched.match_id, matched.seat, secure=secure)
        return response

    async def leaderboard(request: Request) -> Response:
        try:
            games = await web.games()
            game_id = request.query_params.get("game") or (games[0].id if games else "")
            given = request.query_params.get("seats", "")
            seats = int(given) if given.isdigit() and len(given) < 3 else 0
            players = PlayerClient(web.senet)
            entries = [e async for e in players.leaderboard(game_id, 100, seats)]
        except SenetRpcError as error:
            return HTMLResponse(pages.page("Leaderboard", escape(human(error)), ""), 400)
        page = leaderboard_page(games, game_id, entries, csrf_token(request), seats)
        return HTMLResponse(page)

    async def player(request: Request) -> Response:
        subject = request.query_params.get("subject", "")[:160]
        if not subject and not identity(request):  # "my page", from a new browser
            text = (
                "<p>This browser has not played as anyone yet: your page starts with "
                "your first match from <a href='/play-now'>Play now</a>.</p>"
            )
            return HTMLResponse(pages.page("Player", text, csrf_token(request)), 404)
        try:
            found = await PlayerClient(web.senet, identity(request)).get_player(subject)
            names = {game.id: game.name for game in await web.games()}
        except SenetRpcError as error:
            return HTMLResponse(pages.page("Player", escape(human(error)), ""), 404)
        return HTMLResponse(player_page(found, csrf_token(request), names))

    async def rating(request: Request) -> Response:
        """What a finished rated match did to this browser's player's rating, once
        settled (a second or so after the end): ``{"settled": false}`` until then,
        and for a browser whose player did not play it."""
        match_id = str(request.path_params["match_id"])[:64]
        me = await current_player(request)
        found = next((r for r in me.recent if r.match_id == match_id), None) if me else None
        if found is None:
            return JSONResponse({"settled": False})
        return JSONResponse(
            {
                "settled": True,
                "rating": round(found.rating.conservative, 2),
                "delta": round(found.delta, 2),
                "place": found.place,
                "seats": found.seat_count,
            }
        )

    return [
        Route("/matches/{match_id}/rating", rating),
        Route("/play-now", play_now),
        Route("/play-now/identity", register, methods=["POST"]),
        Route("/play-now/events", events),
        Route("/play-now/claim", claim, methods=["POST"]),
        Route("/leaderboard", leaderboard),
        Route("/player", player),
    ]


__all__ = ["IDENTITY_COOKIE", "routes"]
