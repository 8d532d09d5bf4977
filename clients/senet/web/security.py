"""What keeps a seat's token secret and its actions the person's own.

- The seat token lives in an httpOnly, SameSite=Strict cookie scoped to its match's
  pages (``/matches/<id>``): scripts cannot read it, and it never appears in a URL.
- Every state-changing request (create, join, act) must carry the double-submit
  CSRF token (a random cookie the page copies into a form field or the
  ``X-CSRF-Token`` header, which another site cannot read), and, when the browser
  says where it comes from, an ``Origin`` equal to this app's own.
- Every response forbids framing and inline scripts (Content Security Policy).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSRF_COOKIE = "senet_csrf"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf"
#: Match ids the app accepts in paths and cookie names (the server's are hex).
MATCH_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
#: What a page may load: only this app's own files, no inline script, no framing.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


@dataclass(frozen=True)
class SeatCookie:
    """A claimed seat, as kept in the browser."""

    seat: int
    token: str


def seat_cookie_name(match_id: str) -> str:
    return f"senet_seat_{match_id}"


def seat_cookie_path(match_id: str) -> str:
    return f"/matches/{match_id}"


def set_seat_cookie(
    response: Response, match_id: str, seat: int, token: str, *, secure: bool
) -> None:
    """Keep ``token`` for ``match_id``'s pages only, out of reach of scripts."""
    keep_cookie(
        response,
        seat_cookie_name(match_id),
        f"{seat}.{token}",
        days=7,
        path=seat_cookie_path(match_id),
        secure=secure,
    )


def keep_cookie(
    response: Response, name: str, value: str, *, days: int, secure: bool, path: str = "/"
) -> None:
    """A cookie the pages' scripts never read and other sites never send."""
    response.set_cookie(
        name,
        value,
        max_age=days * 24 * 3600,
        path=path,
        httponly=True,
        samesite="strict",
        secure=secure,
    )


#: The matches this browser holds a seat in, for the lobby (ids and seats, never tokens).
HELD_COOKIE = "senet_held"
#: Matches the held-seats cookie remembers (the newest).
HELD_KEPT = 20


def held_seats(request: Request) -> dict[str, int]:
    """The seats this browser holds, by match id, newest first, as the lobby knows them.

    The tokens stay in each match's own cookie (scoped to its pages, so the lobby
    never sees them); this list only says where to look.
    """
    held: dict[str, int] = {}
    for item in request.cookies.get(HELD_COOKIE, "").split("|"):
        match_id, _, seat = item.partition(".")
        if MATCH_ID.fullmatch(match_id) and seat.isdigit():
            held.setdefault(match_id, int(seat))
    return held


#: The name this browser last played under, to fill the lobby's name fields.
NAME_COOKIE = "senet_name"
#: The longest display name the pages send (the server takes up to 40 characters).
MAX_NAME = 40


def played_name(request: Request) -> str:
    """The name this browser last played under ("" when none, or not a name)."""
    name = request.cookies.get(NAME_COOKIE, "").strip()
    return name if 0 < len(name) <= MAX_NAME and name.isprintable() else ""


def remember_name(response: Response, name: str, *, secure: bool) -> None:
    """Keep the name a player just took a seat under, for the next lobby."""
    keep_cookie(response, NAME_COOKIE, name, days=365, secure=secure)


def remember_seat(
    response: Response, request: Request, match_id: str, seat: int, *, secure: bool
) -> None:
    """Add ``match_id``'s seat to the held-seats cookie, newest first."""
    held = {match_id: seat, **{m: s for m, s in held_seats(request).items() if m != match_id}}
    _write_held(response, held, secure=secure)


def forget_seat(response: Response, request: Request, match_id: str, *, secure: bool) -> None:
    """Take ``match_id`` out of the held-seats cookie (its player left the seat)."""
    held = {m: s for m, s in held_seats(request).items() if m != match_id}
    _write_held(response, held, secure=secure)


def _write_held(response: Response, held: dict[str, int], *, secure: bool) -> None:
    value = "|".join(f"{m}.{s}" for m, s in list(held.items())[:HELD_KEPT])
    keep_cookie(response, HELD_COOKIE, value, days=7, secure=secure)


def read_seat_cookie(request: Request, match_id: str) -> SeatCookie | None:
    raw = request.cookies.get(seat_cookie_name(match_id), "")
    seat, _, token = raw.partition(".")
    if not seat.isdigit() or not token:
        return None
    return SeatCookie(int(seat), token)


def csrf_token(request: Request) -> str:
    """This browser's CSRF token: the cookie's, or a new one (set by :class:`SecurityHeaders`)."""
    existing = request.cookies.get(CSRF_COOKIE, "")
    if len(existing) >= 32:
        return existing
    token: str = request.scope.setdefault("senet.new_csrf", secrets.token_urlsafe(32))
    return token


def same_origin(request: Request) -> bool:
    """False when the browser says the request comes from another site."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    own = f"{request.url.scheme}://{request.url.netloc}"
    return origin == own


def csrf_ok(request: Request, submitted: str | None) -> bool:
    """Whether a state-changing request carries this browser's token and comes from here."""
    cookie = request.cookies.get(CSRF_COOKIE, "")
    return (
        bool(cookie)
        and submitted is not None
        and secrets.compare_digest(cookie.encode(), submitted.encode())
        and same_origin(request)
    )


class SecurityHeaders:
    """ASGI middleware: security headers on every response, and the CSRF cookie when new."""

    def __init__(self, app: ASGIApp, *, secure_cookies: bool) -> None:
        self.app = app
        self.secure_cookies = secure_cookies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["content-security-policy"] = CSP
                headers["x-content-type-options"] = "nosniff"
                headers["referrer-policy"] = "same-origin"
                headers["x-frame-options"] = "DENY"
                new = scope.get("senet.new_csrf")
                if new:
                    secure = "; Secure" if self.secure_cookies else ""
                    headers.append(
                        "set-cookie", f"{CSRF_COOKIE}={new}; Path=/; SameSite=Strict{secure}"
                    )
            await send(message)

        await self.app(scope, receive, send_with_headers)
