"""The web client: a small ASGI app (Starlette) in front of a Senet match server.

It is one more client of the public gRPC API (:class:`senet.client.SenetClient`):
the lobby lists games and creates and joins matches, a seat's page plays over
``WatchMatch`` + ``SubmitAction`` with the seat's token, a spectator's page watches
without one, and a replay page rebuilds a finished match from ``ExportMatch``. Live
pages receive frames as server-sent events; see :mod:`senet.web.security` for what
protects tokens and actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from senet.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.codec.exports import export_record
from senet.text.leaving import left_words
from senet.text.seat_names import rematch_declined, rematch_players
from senet.v1 import games_pb2, match_pb2, match_service_pb2
from senet.web import live, pages, queue
from senet.web.callers import CallerAddress, forward_caller
from senet.web.errors import human
from senet.web.grpc_web import GrpcWebGateway
from senet.web.ladder_pages import LadderPages
from senet.web.replay import ReplayCache, UnreplayableMatch
from senet.web.security import (
    CSRF_FIELD,
    CSRF_HEADER,
    MATCH_ID,
    MAX_NAME,
    SeatCookie,
    SecurityHeaders,
    csrf_ok,
    csrf_token,
    forget_seat,
    held_seats,
    played_name,
    read_seat_cookie,
    remember_name,
    remember_seat,
    seat_cookie_name,
    seat_cookie_path,
    set_seat_cookie,
)
from senet.web.settings import WebSettings

MAX_FORM_BYTES = 64 * 1024
#: Matches the lobby lists (newest first).
LOBBY_MATCHES = 30


class WebClient:
    """What the routes share: the settings, the gRPC client and the replays."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.client: SenetClient | None = None
        self.replays = ReplayCache()
        self._games: list[games_pb2.GameInfo] | None = None

    @property
    def senet(self) -> SenetClient:
        if self.client is None:
            self.client = SenetClient(
                self.settings.server,
                admin_key=self.settings.admin_key,
                tls_ca=self.settings.tls_ca,
                interceptors=[forward_caller()],
            )
        return self.client

    async def games(self) -> list[games_pb2.GameInfo]:
        if self._games is None:
            self._games = await self.senet.list_games()
        return self._games

    async def held_matches(self, request: Request) -> list[pages.HeldSeat]:
        """The matches this browser holds a seat in that the server still knows."""
        held = held_seats(request)

        async def summary(match_id: str) -> match_pb2.MatchSummary | None:
            try:
                return (await self.senet.get(match_id)).match
            except SenetRpcError:
                return None

        summaries = await asyncio.gather(*(summary(match_id) for match_id in held))
        return [
            pages.HeldSeat(found, seat)
            for found, seat in zip(summaries, held.values(), strict=True)
            if found is not None
        ]

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()
            self.client = None


class Form:
    """An ``application/x-www-form-urlencoded`` body (the only kind the pages send).

    Parsed with the standard library, so the app needs no multipart parser.
    """

    def __init__(self, fields: dict[str, list[str]]) -> None:
        self.fields = fields

    @classmethod
    async def read(cls, request: Request) -> Form:
        body = await request.body()
        if len(body) > MAX_FORM_BYTES:
            return cls({})
        return cls(parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True))

    @classmethod
    async def checked(cls, request: Request) -> Form | None:
        """The form of a page's POST, or None when its CSRF token is missing or wrong
        (every form the pages send carries one)."""
        form = await cls.read(request)
        return form if csrf_ok(request, form.get(CSRF_FIELD, "")) else None

    def get(self, name: str, default: str = "") -> str:
        values = self.fields.get(name)
        return values[-1] if values else default

    def getlist(self, name: str) -> list[str]:
        return self.fields.get(name, [])


def _match_id(request: Request) -> str | None:
    value = str(request.path_params.get("match_id") or request.query_params.get("match", ""))
    return value if MATCH_ID.fullmatch(value) else None


def _forbidden() -> Response:
    return JSONResponse({"error": "missing or wrong CSRF token, or another site's request"}, 403)


def _posting_seat(request: Request) -> tuple[str, SeatCookie] | Response:
    """The match and the seat cookie of a seat's POST, or the refusal to answer
    with: no match id or no CSRF header (403), no seat in the match (403)."""
    match_id = _match_id(request)
    if match_id is None or not csrf_ok(request, request.headers.get(CSRF_HEADER)):
        return _forbidden()
    seat = read_seat_cookie(request, match_id)
    if seat is None:
        return JSONResponse({"error": "you hold no seat in this match"}, 403)
    return match_id, seat


def _refused(error: SenetRpcError) -> Response:
    """A seat's call the server refused: the reason, for the page to act on."""
    return JSONResponse({"error": human(error), "reason": error.reason}, 409)


def _seat_plans(form: Form, count: int) -> tuple[list[match_pb2.SeatPlan], int | None]:
    """The seat plans the create form asks for, and the seat the person takes (if any)."""
    plans: list[match_pb2.SeatPlan] = []
    mine = None
    for seat in range(count):
        choice = str(form.get(f"seat{seat}", ""))
        if not choice:
            continue
        if choice == "you" and mine is None:
            mine = len(plans)
        if choice.startswith("bot:"):
            plans.append(match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy=choice[4:]))
        else:
            plans.append(match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN))
    return plans, mine


def _time_control(form: Form) -> match_pb2.TimeControl | None:
    """The turn clocks the create form asks for; None without clocks.

    Raises:
        ValueError: a clock field is not a whole number of at least 0.
    """
    control = match_pb2.TimeControl()
    for name, _label, field, unit in pages.CLOCK_FIELDS:
        raw = str(form.get(name, "")).strip() or "0"
        value = int(raw)
        if not 0 <= value <= 100_000:
            raise ValueError(name)
        setattr(control, field, value * unit)
    if not control.decision_ms and not control.reserve_ms:
        return None
    if form.get("clock_timeout") == "resign":
        control.timeout_policy = match_pb2.TIMEOUT_POLICY_RESIGN
    return control


def create_app(settings: WebSettings | None = None) -> Starlette:
    """The web client's ASGI app, talking to the match server named in ``settings``."""
    web = WebClient(settings or WebSettings())
    ladder_pages = LadderPages(web.settings)
    secure = web.settings.secure_cookies

    async def lobby(request: Request, problem: str = "", status: int = 200) -> Response:
        listings: list[match_service_pb2.MatchListing] = []
        mine: list[pages.HeldSeat] = []
        try:
            games = await web.games()
            listings = [m async for m in web.senet.list_matches(limit=LOBBY_MATCHES)]
            mine = await web.held_matches(request)
        except SenetRpcError as error:
            games, problem = [], human(error, web.settings.server)
            status = 503 if status == 200 else status
        wanted = str(request.query_params.get("join", ""))
        join_id = wanted if MATCH_ID.fullmatch(wanted) else ""
        page = pages.lobby(
            games, csrf_token(request), problem, listings, mine, join_id, played_name(request)
        )
        return HTMLResponse(page, status)

    async def home(request: Request) -> Response:
        return await lobby(request)

    async def alive(request: Request) -> Response:
        """Liveness: this process answers (whatever the game servers do)."""
        return JSONResponse({"web": "ok"})

    async def ready(request: Request) -> Response:
        """Readiness: a game server answers this web client (503 and why if not),
        so a balancer sends players only where they can play."""
        try:
            await web.senet.list_games()
        except SenetRpcError as error:
            return JSONResponse({"web": "ok", "server": human(error, web.settings.server)}, 503)
        return JSONResponse({"web": "ok", "server": "ok"})

    async def create(request: Request) -> Response:
        form = await Form.checked(request)
        if form is None:
            return _forbidden()
        games = {game.id: game for game in await web.games()}
        game = games.get(str(form.get("game", "")))
        if game is None:
            return await lobby(request, "Unknown game.", 400)
        try:
            options = {
                spec.name: pages.option_value(spec, str(form.getlist(f"opt:{spec.name}")[-1]))
                for spec in game.options
                if form.getlist(f"opt:{spec.name}")
            }
            clocks = _time_control(form)
        except ValueError:
            return await lobby(request, "An option's or a clock's value is not a number.", 400)
        plans, mine = _seat_plans(form, game.max_seats)
        try:
            match_id = await web.senet.create_match(
                game.id,
                plans,
                options=options,
                time_control=clocks,
                unlisted=form.get("unlisted") == "true",
            )
        except SenetRpcError as error:
            return await lobby(request, human(error), 400)
        if mine is None:
            return RedirectResponse(f"/matches/{match_id}/watch", 303)
        return await _join(request, match_id, str(form.get("name", "")), mine)

    async def _join(request: Request, match_id: str, name: str, seat: int | None) -> Response:
        name = name.strip()[:MAX_NAME] or "Guest"
        held = held_seats(request).get(match_id)
        if held is not None and seat in (None, held):
            # This browser holds a seat there already: back to it, not a second seat.
            return RedirectResponse(f"/matches/{match_id}/play", 303)
        try:
            joined = await web.senet.join(match_id, name, seat)
        except SenetRpcError as error:
            return await lobby(request, human(error), 400)
        response = RedirectResponse(f"/matches/{match_id}/play", 303)
        set_seat_cookie(response, match_id, joined.seat, joined.token, secure=secure)
        remember_seat(response, request, match_id, joined.seat, secure=secure)
        remember_name(response, name, secure=secure)
        return response

    async def join(request: Request) -> Response:
        form = await Form.checked(request)
        if form is None:
            return _forbidden()
        match_id = str(form.get("match", "")).strip()
        if not MATCH_ID.fullmatch(match_id):
            return await lobby(request, "That is not a match id.", 400)
        seat = str(form.get("seat", "")).strip()
        return await _join(
            request, match_id, str(form.get("name", "")), int(seat) if seat.isdigit() else None
        )

    async def goto(request: Request) -> Response:
        match_id = _match_id(request)
        if match_id is None:
            return await lobby(request, "That is not a match id.", 400)
        kind = "replay" if request.url.path.startswith("/replay") else "watch"
        return RedirectResponse(f"/matches/{match_id}/{kind}", 303)

    async def match_page(request: Request) -> Response:
        match_id = _match_id(request)
        if match_id is None:
            return await lobby(request, "That is not a match id.", 404)
        kind = request.url.path.rsplit("/", 1)[-1]
        if kind == "play" and read_seat_cookie(request, match_id) is None:
            return RedirectResponse(f"/matches/{match_id}/watch", 303)
        titles = {"play": "Play", "watch": "Watch", "replay": "Replay"}
        title = f"{titles[kind]} match {match_id}"
        return HTMLResponse(pages.match_page(title, csrf_token(request), kind, match_id))

    async def events(request: Request) -> Response:
        match_id = _match_id(request)
        if match_id is None:
            return JSONResponse({"error": "not a match id"}, 404)
        # A spectator's stream never carries a token, whatever cookies came along.
        playing = request.url.path.endswith("/play/events")
        seat = read_seat_cookie(request, match_id) if playing else None
        stream = live.frames(web.senet, match_id, seat)
        return StreamingResponse(
            stream,
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    async def act(request: Request) -> Response:
        posting = _posting_seat(request)
        if isinstance(posting, Response):
            return posting
        match_id, seat = posting
        try:
            body: Any = await request.json()
            notation = str(body["notation"])[:200]
            version = int(body["version"])
            request_id = str(body.get("request_id") or uuid.uuid4().hex)[:64]
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "send JSON with notation and version"}, 400)
        handle = web.senet.seat(match_id, seat.seat, seat.token)
        try:
            done = await handle.submit(notation, expected_version=version, request_id=request_id)
        except SenetRpcError as error:
            return _refused(error)
        return JSONResponse({"version": done.version})

    async def leave(request: Request) -> Response:
        """The seat's player resigns (LeaveMatch); the page goes on as a spectator's."""
        posting = _posting_seat(request)
        if isinstance(posting, Response):
            return posting
        match_id, seat = posting
        try:
            left = await web.senet.seat(match_id, seat.seat, seat.token).leave()
        except SenetRpcError as error:
            return _refused(error)
        note = left_words(left, seat.seat)
        response = JSONResponse({"watch": f"/matches/{match_id}/watch", "note": note})
        response.delete_cookie(seat_cookie_name(match_id), path=seat_cookie_path(match_id))
        forget_seat(response, request, match_id, secure=secure)  # no "resume" in the lobby
        return response

    async def rematch(request: Request) -> Response:
        """POST: the seat's player asks for the rematch (RequestRematch) and holds the
        seat kept there; GET: the rematch another player asked for, who is in it so
        far, and who declined it (the finished match's play page polls it, and so
        does a rematch's while it waits for its players)."""
        match_id = _match_id(request)
        if match_id is None:
            return JSONResponse({"error": "not a match id"}, 404)
        if request.method == "GET":
            seat = read_seat_cookie(request, match_id)
            try:
                finished = await web.senet.get(match_id)
                found = finished.rematch_match_id
                rematch = (await web.senet.get(found)).match if found else None
            except SenetRpcError as error:
                return JSONResponse({"error": human(error)}, 409)
            declined = rematch_declined(finished.match, None if seat is None else seat.seat)
            players = [] if rematch is None else rematch_players(rematch)
            # This browser's player already holds their seat in it (seats move on by one).
            mine = (
                rematch is not None
                and seat is not None
                and rematch.seats[(seat.seat + 1) % len(rematch.seats)].claimed
            )
            return JSONResponse(
                {"match": found, "players": players, "declined": declined, "mine": mine}
            )
        posting = _posting_seat(request)
        if isinstance(posting, Response):
            return posting
        try:
            joined = await web.senet.request_rematch(match_id, posting[1].token)
        except SenetRpcError as error:
            return _refused(error)
        response = JSONResponse({"play": f"/matches/{joined.match_id}/play"})
        set_seat_cookie(response, joined.match_id, joined.seat, joined.token, secure=secure)
        remember_seat(response, request, joined.match_id, joined.seat, secure=secure)
        return response

    async def decline_rematch(request: Request) -> Response:
        """POST: the seat's player declines the rematch (DeclineRematch)."""
        posting = _posting_seat(request)
        if isinstance(posting, Response):
            return posting
        match_id, seat = posting
        try:
            finished = await web.senet.decline_rematch(match_id, seat.token)
        except SenetRpcError as error:
            return _refused(error)
        return JSONResponse({"declined": rematch_declined(finished, seat.seat)})

    async def replay(request: Request) -> Response:
        """A replay's summary (``/replay/info``) or one of its frames (``/frames/N``):
        one handler, since both load the same verified replay and fail alike."""
        match_id = _match_id(request)
        if match_id is None:
            return JSONResponse({"error": "not a match id"}, 404)
        try:
            loaded = await web.replays.get(web.senet, match_id)
        except SenetRpcError as error:
            return JSONResponse({"error": human(error)}, 409)
        except UnreplayableMatch as error:
            return JSONResponse({"error": str(error)}, 409)
        step = request.path_params.get("step")
        return JSONResponse(loaded.summary_data() if step is None else loaded.frame(int(step)))

    async def export(request: Request) -> Response:
        """A finished match's export as a JSON file (the record ``senet export`` writes)."""
        match_id = _match_id(request)
        if match_id is None:
            return JSONResponse({"error": "not a match id"}, 404)
        try:
            exported = await web.senet.export(match_id)
        except SenetRpcError as error:
            return JSONResponse({"error": human(error)}, 409)
        attachment = {"Content-Disposition": f'attachment; filename="senet-{match_id}.json"'}
        return JSONResponse(export_record(match_id, exported), headers=attachment)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await web.close()
            await ladder_pages.close()
            await gateway.close()

    gateway = GrpcWebGateway(
        web.settings.server, web.settings.tls_ca, web.settings.grpc_web_origins
    )
    static = StaticFiles(directory=Path(__file__).with_name("static"))
    routes = [
        Route("/", home),
        Route("/healthz", alive),
        Route("/readyz", ready),
        Route("/matches", create, methods=["POST"]),
        Route("/join", join, methods=["POST"]),
        Route("/watch", goto),
        Route("/replay", goto),
        Route("/matches/{match_id}/play", match_page),
        Route("/matches/{match_id}/watch", match_page),
        Route("/matches/{match_id}/replay", match_page),
        Route("/matches/{match_id}/play/events", events),
        Route("/matches/{match_id}/watch/events", events),
        Route("/matches/{match_id}/act", act, methods=["POST"]),
        Route("/matches/{match_id}/leave", leave, methods=["POST"]),
        Route("/matches/{match_id}/rematch", rematch, methods=["GET", "POST"]),
        Route("/matches/{match_id}/rematch/decline", decline_rematch, methods=["POST"]),
        Route("/matches/{match_id}/replay/info", replay),
        Route("/matches/{match_id}/replay/frames/{step:int}", replay),
        Route("/matches/{match_id}/export.json", export),
        *queue.routes(web),
        *ladder_pages.routes(),
        Mount("/static", static, name="static"),
        *gateway.routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders, secure_cookies=secure)
    app.add_middleware(CallerAddress)
    app.state.web = web
    return app
