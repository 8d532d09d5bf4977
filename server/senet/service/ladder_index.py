"""The index of ladders (ListLadders): every ladder's settings, state, counts and
leaders, by pages of ladder ids.

Ladders are few (a game at a seat count each), so a page is cut from the sorted
list of every ladder's settings; the page token is the last ladder id read (with
the game filter it was issued for), not an offset, so a ladder started while a
client pages neither shifts nor repeats the ladders after it. The decisions (the
state of a ladder, the cut of a page, the token) are pure functions; only
:func:`ladder_index` reads the store.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from senet.games import get_game
from senet.service import errors
from senet.service.ladder import Ladders, LadderSpec, Standing, can_seat
from senet.service.records import dumps, loads

DEFAULT_PAGE = 20
MAX_PAGE = 100
DEFAULT_TOP = 3
MAX_TOP = 10
_TOKEN_VERSION = "l1"
_LADDER_ID = re.compile(r"^[A-Za-z0-9_.-]{1,80}$")


class LadderState(Enum):
    """Whether a ladder schedules new matches (see LadderState in ladder_service.proto)."""

    RUNNING = "running"
    PAUSED = "paused"
    WAITING_FOR_BOTS = "waiting_for_bots"


@dataclass(frozen=True)
class LadderSummary:
    """One ladder as the index shows it."""

    spec: LadderSpec
    state: LadderState
    in_flight: int
    active_bots: int
    bots: int
    played: int
    leaders: list[Standing]


@dataclass(frozen=True)
class LadderIndexPage:
    """One page of the index, the token of the next ('' on the last) and the total."""

    ladders: list[LadderSummary]
    next_page_token: str
    total: int


def state_of(spec: LadderSpec, active_bots: int) -> LadderState:
    """Paused by its operator, short of bots to fill a match, or running."""
    if spec.max_in_flight == 0:
        return LadderState.PAUSED
    if active_bots < spec.seat_count:
        return LadderState.WAITING_FOR_BOTS
    return LadderState.RUNNING


def encode_token(game_id: str, after: str) -> str:
    """An opaque page token: the game filter it serves and the last ladder id read."""
    raw = dumps([_TOKEN_VERSION, game_id, after])
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_token(token: str, game_id: str) -> str:
    """The ladder id a page token goes on after ('' for the first page).

    Raises:
        InvalidPageToken: the token was not made by this server, or for another game.
    """
    if not token:
        return ""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        version, issued_for, after = loads(raw)
    except (binascii.Error, ValueError, TypeError):
        raise errors.InvalidPageToken("page_token is not a token this server issued") from None
    valid = (
        version == _TOKEN_VERSION
        and isinstance(issued_for, str)
        and isinstance(after, str)
        and _LADDER_ID.match(after) is not None
    )
    if not valid:
        raise errors.InvalidPageToken("page_token is not a token this server issued")
    if issued_for != game_id:
        raise errors.InvalidPageToken(
            "page_token was issued for another game_id; send the same game_id to page on"
        )
    return str(after)


def check_request(game_id: str, page_size: int, top: int) -> tuple[int, int]:
    """The page size and leaders per ladder served for a request.

    Raises:
        UnknownGameError: a game this server does not host.
        MalformedRequest: a page size or a top over its limit.
    """
    if game_id:
        get_game(game_id)
    if page_size > MAX_PAGE:
        raise errors.MalformedRequest(
            f"page_size must be at most {MAX_PAGE}", {"field": "page_size", "limit": str(MAX_PAGE)}
        )
    if top > MAX_TOP:
        raise errors.MalformedRequest(
            f"top must be at most {MAX_TOP}", {"field": "top", "limit": str(MAX_TOP)}
        )
    return page_size or DEFAULT_PAGE, top or DEFAULT_TOP


def cut_page(
    specs: Sequence[LadderSpec], game_id: str, after: str, size: int
) -> tuple[list[LadderSpec], str, int]:
    """The ladders of a page (by id, after ``after``), the next token and the total."""
    chosen = sorted(
        (s for s in specs if not game_id or s.game_id == game_id), key=lambda s: s.ladder_id
    )
    following = [s for s in chosen if s.ladder_id > after]
    page = following[:size]
    token = encode_token(game_id, page[-1].ladder_id) if len(following) > size else ""
    return page, token, len(chosen)


async def ladder_index(
    ladders: Ladders, game_id: str, page_size: int, page_token: str, top: int
) -> LadderIndexPage:
    """One page of the index of ladders (see ListLaddersRequest).

    Raises:
        UnknownGameError, MalformedRequest, InvalidPageToken: a request to refuse.
    """
    size, top = check_request(game_id, page_size, top)
    after = decode_token(page_token, game_id)
    page, token, total = cut_page(await ladders.specs(), game_id, after, size)
    every_bot = await ladders.remote.bots() if page else []
    served = await ladders.served() if page else None
    summaries = []
    for spec in page:
        bots = [b for b in every_bot if spec.game_id in b.games and not b.off_ladders]
        active = sum(1 for b in bots if can_seat(b, served))
        standings = await ladders.standings(spec, bots)
        summaries.append(
            LadderSummary(
                spec,
                state_of(spec, active),
                len(await ladders.in_flight(spec.ladder_id)),
                active,
                len(bots),
                await ladders.played(spec.ladder_id),
                standings[:top],
            )
        )
    return LadderIndexPage(summaries, token, total)
