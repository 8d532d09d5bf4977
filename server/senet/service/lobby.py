"""The lobby: pages of public match listings, newest first, for ``ListMatches``.

The store keeps an index of lobby entries (:class:`~senet.store.base.LobbyEntry`),
each a position (creation time, match id) and a *hint* of the match's game,
status and open seats. On Redis Cluster the index lives in a hash slot of its
own, so no write can update it together with a match; hints are therefore only
used to skip entries cheaply, and every listing is built from the match's own
facts, read when the page is built (:meth:`MatchStore.lobby_peek`). What that
read finds wrong is repaired on the way:

* an entry whose match is gone (expired) is dropped. Readers are not needed for
  that: every entry carries a deadline, the earliest its match can have
  expired, and entries past it are checked (and dropped once their match is
  seen gone) on every lobby write and by each replica's periodic
  :meth:`Lobby.run_sweeps`, so the index stays bounded by the live matches;
* a match whose stored values cannot be read (corrupt) is left out of the page,
  logged and counted (``senet_lobby_unreadable_total``), never failing the page;
* a hint that no longer matches its match is rewritten. (A reader and a writer
  may race, leaving the older facts in the hint; the next reader to meet the
  entry with a filter its hint passes repairs it. Listings themselves are never
  stale: they come from the match.)

The service writes a match's entry before it creates the match (so a match is
never created unlisted; an entry whose match does not exist yet is skipped,
and dropped after :data:`~senet.store.base.LOBBY_CREATE_GRACE_S`), and rewrites
it after every change of the match's public summary
(:meth:`~senet.service.matches.MatchService.refresh_lobby_entry`).

Paging is by position: a page token names the last entry looked at, and the
next page starts strictly after it. Matches created while a client pages are
newer than that position, so they never shift, repeat or hide older entries.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass

from senet.games import get_game
from senet.games.errors import CorruptStateError
from senet.games.interface import JsonDict
from senet.service import errors, metrics
from senet.service.cancellation import stop_if_cancelled
from senet.service.logs import RateLimitedLog
from senet.service.records import MatchMeta, Status, dumps, loads
from senet.service.views import SeatSummary, seat_summaries
from senet.store.base import (
    LOBBY_CREATE_GRACE_S,
    CorruptMatch,
    LobbyCursor,
    LobbyEntry,
    LobbyHint,
    LobbyQuery,
    MatchFacts,
    MatchStatus,
    MatchStore,
    StoreError,
)

#: Matches per page when the request does not say.
DEFAULT_PAGE_SIZE = 50
#: Largest page; a bigger page_size is served as this.
MAX_PAGE_SIZE = 200
#: Lobby entries one call may look at; a call that runs out returns a short page
#: with a page token to continue from (filters that match few matches).
SCAN_BUDGET = 2000
#: Lobby entries one sweep checks per store call, and at most in one sweep.
SWEEP_BATCH = 200
SWEEP_LIMIT = 5000
_TOKEN_VERSION = 1
log = logging.getLogger("senet.lobby")
_MATCH_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what check_id accepts


@dataclass(frozen=True)
class LobbyFilter:
    """What ``ListMatches`` asks for; empty or None fields match anything."""

    game_id: str = ""
    status: Status | None = None
    has_open_seat: bool | None = None
    rated: bool | None = None

    def fingerprint(self) -> str:
        """The filter as written into page tokens (a token serves one filter). The
        rated filter is added only when set, so that tokens without it stay valid
        across replicas of releases before it."""
        opened = "" if self.has_open_seat is None else str(int(self.has_open_seat))
        rated = "" if self.rated is None else f"|rated={int(self.rated)}"
        return f"{self.game_id}|{self.status or ''}|{opened}{rated}"

    def query(self) -> LobbyQuery:
        """The filter on hints: an abandoned match is stored as active (abandoned
        is worked out from its idle time when read)."""
        stored: MatchStatus | None = self.status
        if stored == "abandoned":
            stored = "active"
        return LobbyQuery(self.game_id, stored, self.has_open_seat, self.rated)

    def admits(self, listing: MatchListing) -> bool:
        return (
            not listing.unlisted
            and (not self.game_id or listing.game_id == self.game_id)
            and (self.status is None or listing.status == self.status)
            and (self.has_open_seat is None or listing.has_open_seat == self.has_open_seat)
            and (self.rated is None or listing.rated == self.rated)
        )


@dataclass(frozen=True)
class MatchListing:
    """A match as the lobby shows it: public facts only (no view, no tokens)."""

    match_id: str
    game_id: str
    status: Status
    created_at: float
    seats: list[SeatSummary]
    version: int
    options: JsonDict
    #: Left out of every page (its creator asked: MatchMeta.unlisted).
    unlisted: bool = False
    #: The result settles into ratings (MatchMeta.rated).
    rated: bool = False

    @property
    def has_open_seat(self) -> bool:
        """Whether anyone may join: an open seat nobody claimed and kept for nobody."""
        return any(s.kind == "open" and not s.claimed and not s.kept for s in self.seats)

    @property
    def started(self) -> bool:
        """Every open seat is claimed (a started match's seats stay claimed: leaving
        then hands them over)."""
        return all(s.kind != "open" or s.claimed for s in self.seats)


@dataclass(frozen=True)
class MatchPage:
    """One page of listings and the token of the next ('' when there is none)."""

    matches: list[MatchListing]
    next_page_token: str


def lobby_entry(
    match_id: str, meta: MatchMeta, seats: Mapping[int, str], status: MatchStatus
) -> LobbyEntry:
    """The lobby entry of a match with these facts.

    Its hint counts a rematch's kept seats among the open ones: the store gives a
    match with open seats the waiting TTL, so a rematch nobody claims expires as a
    match nobody joins; the listing tells joinable seats from kept ones."""
    open_seats = sum(
        1 for s, plan in enumerate(meta.seats) if plan.kind == "open" and s not in seats
    )
    cursor = LobbyCursor(round(meta.created_at * 1_000_000), match_id)
    return LobbyEntry(cursor, LobbyHint(meta.game_id, status, open_seats, meta.rated))


def listing_of(
    match_id: str, meta: MatchMeta, facts: MatchFacts, idle_ttl_s: float
) -> MatchListing:
    """What the lobby shows of a match, from its stored facts (``meta`` parsed)."""
    seats = seat_summaries(meta, facts.seats)
    # Idle as MatchService counts it (since the last change): before the first
    # action that is the creation time, exact whatever TTL the store gave the match.
    idle_s = time.time() - meta.created_at if facts.version == 0 else facts.idle_s
    status: Status = facts.status
    if status == "active" and idle_s is not None and idle_s > idle_ttl_s / 2:
        status = "abandoned"
    return MatchListing(
        match_id=match_id,
        game_id=meta.game_id,
        status=status,
        created_at=meta.created_at,
        seats=seats,
        version=facts.version,
        options=dict(meta.options),
        unlisted=meta.unlisted,
        rated=meta.rated,
    )


def page_size_of(requested: int) -> int:
    """The page size served for a requested one (0: the default; capped)."""
    if requested < 0:
        raise errors.MalformedRequest("page_size cannot be negative")
    return min(requested or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def encode_token(lobby_filter: LobbyFilter, after: LobbyCursor) -> str:
    """An opaque page token: the filter it serves and the position to go on from."""
    raw = dumps([_TOKEN_VERSION, lobby_filter.fingerprint(), after.created_us, after.match_id])
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_token(token: str, lobby_filter: LobbyFilter) -> LobbyCursor | None:
    """The position a page token goes on from (None for '').

    Raises:
        InvalidPageToken: the token was not made by this server, or for
            other filters.
    """
    if not token:
        return None
    try:
        raw = loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        version, fingerprint, created_us, match_id = raw
    except (binascii.Error, ValueError, TypeError):
        raise errors.InvalidPageToken("page_token is not a token this server issued") from None
    valid = (
        version == _TOKEN_VERSION
        and isinstance(created_us, int)
        and created_us >= 0
        and isinstance(match_id, str)
        and _MATCH_ID_RE.match(match_id) is not None
        and isinstance(fingerprint, str)
    )
    if not valid:
        raise errors.InvalidPageToken("page_token is not a token this server issued")
    if fingerprint != lobby_filter.fingerprint():
        raise errors.InvalidPageToken(
            "page_token was issued for other filters; send the same filters to page on"
        )
    return LobbyCursor(created_us, match_id)


def check_filter(lobby_filter: LobbyFilter) -> None:
    """Refuse a filter on a game this server does not host (UNKNOWN_GAME)."""
    if lobby_filter.game_id:
        get_game(lobby_filter.game_id)


class Lobby:
    """Builds pages of listings over a store's lobby index (see the module docstring)."""

    def __init__(self, store: MatchStore, idle_ttl_s: float) -> None:
        self.store = store
        self.idle_ttl_s = idle_ttl_s

    async def page(self, lobby_filter: LobbyFilter, page_size: int, page_token: str) -> MatchPage:
        """One page of the matches passing ``lobby_filter``, newest first."""
        check_filter(lobby_filter)
        size = page_size_of(page_size)
        after = decode_token(page_token, lobby_filter)
        query = lobby_filter.query()
        found: list[MatchListing] = []
        looked = 0
        ended = False
        while len(found) < size and looked < SCAN_BUDGET:
            budget = SCAN_BUDGET - looked
            scan = await self.store.lobby_scan(query, after, size - len(found), budget)
            looked += max(scan.looked, 1)
            found += await self._checked(scan.entries, lobby_filter)
            after = scan.next_after
            if after is None:
                ended = True
                break
        token = "" if ended or after is None else encode_token(lobby_filter, after)
        return MatchPage(found, token)

    async def sweep(self) -> int:
        """Check the entries past their deadline (see MatchStore.lobby_sweep),
        batch after batch while batches come back full, at most
        :data:`SWEEP_LIMIT` in one call; returns how many were checked."""
        checked = 0
        while checked < SWEEP_LIMIT:
            batch = await self.store.lobby_sweep(SWEEP_BATCH)
            checked += batch
            if batch < SWEEP_BATCH:
                break
        return checked

    async def run_sweeps(self, interval_s: float) -> None:
        """Sweep every ``interval_s`` until cancelled (every replica runs this: the
        sweeps are idempotent, and cheap when nothing is due)."""
        while True:
            try:
                await self.sweep()
            except StoreError as exc:  # the store is down: the next sweep catches up
                _SWEEP_LOG.warn("lobby sweep failed", error=str(exc))
            stop_if_cancelled()
            await asyncio.sleep(interval_s)

    async def _checked(
        self, entries: list[LobbyEntry], lobby_filter: LobbyFilter
    ) -> list[MatchListing]:
        """The listings of ``entries`` that pass the filter on their matches' facts;
        entries of vanished matches are dropped and stale hints rewritten."""
        if not entries:
            return []
        facts = await self.store.lobby_peek([e.match_id for e in entries])
        young = (time.time() - LOBBY_CREATE_GRACE_S) * 1_000_000
        gone: list[LobbyCursor] = []
        repairs: list[LobbyEntry] = []
        listings = []
        for entry in entries:
            fact = facts.get(entry.match_id)
            if fact is None:
                if entry.cursor.created_us < young:
                    gone.append(entry.cursor)
                continue
            try:
                if isinstance(fact, CorruptMatch):
                    raise fact
                meta = MatchMeta.from_json(fact.meta_json)
                listing = listing_of(entry.match_id, meta, fact, self.idle_ttl_s)
            except (CorruptMatch, CorruptStateError) as exc:
                _skip_unreadable(entry.match_id, exc)
                continue
            true_entry = lobby_entry(entry.match_id, meta, fact.seats, fact.status)
            if true_entry.cursor == entry.cursor and true_entry.hint != entry.hint:
                repairs.append(true_entry)
            if lobby_filter.admits(listing):
                listings.append(listing)
        if gone or repairs:
            await asyncio.gather(
                self.store.lobby_drop(gone), *(self.store.lobby_put(e) for e in repairs)
            )
        return listings


#: Unreadable matches are met by every listing that reaches them: one log line per
#: burst, and a counter for the rest.
_UNREADABLE_LOG = RateLimitedLog(logger=log)
#: A store outage fails every sweep: said every few seconds, not each time.
_SWEEP_LOG = RateLimitedLog(logger=log)


def _skip_unreadable(match_id: str, exc: Exception) -> None:
    """Leave a match whose stored values cannot be read out of the page, counted and
    logged: one corrupt match must not fail the lobby for everyone (it answers
    CORRUPT_STATE when asked for by id)."""
    metrics.LOBBY_UNREADABLE.inc()
    _UNREADABLE_LOG.warn("lobby skipped an unreadable match", match_id=match_id, error=str(exc))


__all__ = [
    "DEFAULT_PAGE_SIZE",
    "MAX_PAGE_SIZE",
    "Lobby",
    "LobbyFilter",
    "MatchListing",
    "MatchPage",
    "listing_of",
    "lobby_entry",
]
