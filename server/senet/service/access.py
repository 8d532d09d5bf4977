"""What every use case of the match service shares: loading, parsing, seats.

:class:`MatchAccess` holds this replica's handles (the store, the settings, the
state cache, the feeds, the lobby, the rate limiter) and reads a match as the
use cases need it: loaded from the store, parsed into a rules state (or read off
the cached head), the caller's seat found from its token, summarized. The use
cases (:mod:`~senet.service.creation`, :mod:`~senet.service.submissions`,
:mod:`~senet.service.streams`, :mod:`~senet.service.handover`,
:mod:`~senet.service.queries`) are functions over one ``MatchAccess``.

The functions below it are pure facts of a match (whether it started, who plays a
seat, the final places, the clocks) that need no handle at all.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from senet.games import Game, GameState, get_game
from senet.games.interface import JsonDict
from senet.service import errors
from senet.service.bot_names import RemoteBotNames, is_remote_strategy
from senet.service.cache import CachedMatch, StateCache
from senet.service.clocks import Clock, ClockView, TimeControl, started_ms
from senet.service.feeds import FeedHub
from senet.service.lobby import Lobby, lobby_entry
from senet.service.ratelimit import RateLimiter
from senet.service.records import ZOMBIE, HeadDocument, MatchMeta, SeatClaim, Status, token_hash
from senet.service.settings import Settings
from senet.service.views import LegalAction, MatchSummary, MatchUpdate, seat_summaries
from senet.store import MatchStore, StoredMatch, StoreError
from senet.store.base import BOTS, ZOMBIES, BotQueue

_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_MAX_NAME = 40
log = logging.getLogger("senet.service")


@dataclass(slots=True)
class Caller:
    """Who is calling: the bearer token (if any), whether the admin key matched
    (always true on a server without one), and whether the caller may act as a
    bot worker (the worker key or the admin key matched; never implied).

    A per-call value: slotted, not frozen (see docs/performance.md, "Per-call
    values")."""

    token: str | None = None
    is_admin: bool = False
    is_worker: bool = False
    #: Who counts against the quotas (see senet.service.quotas); "" in-process.
    client: str = ""


class MatchAccess:
    """One replica's handles on the matches, and the reads every use case makes."""

    def __init__(self, store: MatchStore, settings: Settings, cache_size: int = 4096) -> None:
        self.store = store
        self.settings = settings
        self.limiter = RateLimiter(settings.seat_rate_per_s, settings.seat_burst)
        self.cache = StateCache(cache_size)
        self.feeds = FeedHub(store, block_ms=max(1, int(settings.heartbeat_s * 1000)))
        self.lobby = Lobby(store, settings.idle_ttl_s)
        #: Set (then replaced) when this replica posts a bot decision.
        self.bot_bell = asyncio.Event()
        #: Recent updates as each audience receives them (see streams.update_for).
        self.updates: OrderedDict[tuple[str, bool, tuple[int, ...]], MatchUpdate] = OrderedDict()
        #: The registry of remote bots, when this replica serves one: creation
        #: checks a registered bot's seat against it and names the seat after it.
        self.remote_bots: RemoteBotNames | None = None

    def ring_bot_bell(self) -> None:
        """Wake the bot workers' waiting acquires (a bot decision was posted)."""
        self.bot_bell.set()
        self.bot_bell = asyncio.Event()

    async def load(self, match_id: str) -> StoredMatch:
        return await self.store.load(check_id(match_id))

    def read_state(self, game: Game, stored: StoredMatch) -> GameState:
        """:func:`state_of`, for reading only: the cached head's own state when it
        is that version with those claims (no rebuild from the head document), else
        one rebuilt. Submissions change the cached state in place only once they
        have taken it out of the cache, and a reader uses it before its next
        await, so what it reads is that version."""
        head = self.cache.peek(stored.match_id)
        if head is not None and head.version == stored.version and head.seats == stored.seats:
            return head.state
        return state_of(game, stored)

    def status(self, stored: StoredMatch, head: HeadDocument) -> Status:
        """The match's status as clients see it: an active match idle for half
        its time to live reads as abandoned (``head``: its parsed head document)."""
        idle_s = time.time() - head.updated_at
        if stored.status == "active" and idle_s > self.settings.idle_ttl_s / 2:
            return "abandoned"
        return stored.status

    def acting_seat(self, stored: StoredMatch, caller: Caller) -> int:
        """The caller's seat, its token required and its rate limit charged."""
        if caller.token is None:
            raise errors.TokenRequired("send the seat token as 'authorization: Bearer <token>'")
        seat = seat_of(stored, caller)
        assert seat is not None
        # Same bucket key as submit() (which limits before it loads): one token per seat.
        self.take_token(f"{stored.match_id}:{token_hash(caller.token)}")
        return seat

    def take_token(self, key: str) -> None:
        """Count one request of a seat against its rate limit."""
        if not self.limiter.allow(key):
            raise errors.RateLimited(
                "too many requests for this seat; slow down",
                {"ratePerSecond": f"{self.limiter.rate:g}", "burst": self.limiter.burst},
                retry_after_s=self.limiter.retry_after_s(key),
            )

    def summary(
        self, stored: StoredMatch, meta: MatchMeta, state: GameState, version: int | None = None
    ) -> MatchSummary:
        seats = seat_summaries(meta, stored.seats)
        over = state.is_over()
        started = is_started(meta, stored.seats)
        # Parsed once for the status's idle time and the clocks.
        head = HeadDocument.from_json(stored.snapshot_json)
        return MatchSummary(
            match_id=stored.match_id,
            game_id=meta.game_id,
            options=dict(meta.options),
            seats=seats,
            status=self.status(stored, head),
            version=stored.version if version is None else version,
            current_seat=state.current_seat() if started else None,
            commitment=meta.commitment,
            scores=state.scores(),
            places=places(stored.seats, state) if over else [],
            leave_policy=meta.leave_policy,
            leave_bot_strategy=meta.leave_bot_strategy,
            time_control=meta.time_control,
            clock=_clock_data(stored, head, meta, state),
            seed_chosen=meta.seed_chosen,
            deciding=state.deciding_seats() if started else (),
            started=started,
            unlisted=meta.unlisted,
            rematch_of=meta.rematch_of,
            rated=meta.rated,
        )

    async def refresh_lobby_entry(self, match_id: str) -> None:
        """Rewrite a match's lobby entry from its current facts.

        Call it after every write that changes what the lobby shows of a match:
        a seat claimed or reopened, the status changed. Join and the commit that
        ends a match call it (through :meth:`publish_lobby_entry`, with the
        facts at hand). It never raises: the write it follows is done, and a
        stale entry is repaired by the next reader that meets it.
        """
        try:
            stored = await self.load(match_id)
            meta = meta_of(stored)
        except (StoreError, errors.ServiceError) as exc:
            log.warning("lobby entry not refreshed", extra={"match_id": match_id, "error": exc})
            return
        await self.publish_lobby_entry(stored.match_id, meta, stored.seats, stored.status)

    async def publish_lobby_entry(
        self,
        match_id: str,
        meta: MatchMeta,
        seats: Mapping[int, str],
        status: Status,
        *,
        required: bool = False,
    ) -> None:
        """Write the lobby entry of a match with these facts: at creation (before
        the match exists, ``required``: a failure fails the creation), after a
        join and after the commit that ends the match (a failure is logged; see
        :meth:`refresh_lobby_entry`)."""
        stored_status = "active" if status == "abandoned" else status
        try:
            await self.store.lobby_put(lobby_entry(match_id, meta, seats, stored_status))
        except StoreError as exc:
            if required:
                raise
            log.warning("lobby entry not refreshed", extra={"match_id": match_id, "error": exc})


# ------------------------------------------------------------------ reading
def check_id(value: str, what: str = "match_id") -> str:
    """Match ids are short URL-safe strings; anything else is malformed."""
    if not isinstance(value, str) or not _ID_RE.match(value):
        raise errors.MalformedRequest(f"{what} must be 1-64 characters of [A-Za-z0-9_-]")
    return value


def check_display_name(name: str) -> str:
    cleaned = name.strip()
    if not 1 <= len(cleaned) <= _MAX_NAME:
        raise errors.MalformedRequest(
            f"display_name must be 1-{_MAX_NAME} characters",
            {"field": "display_name", "limit": _MAX_NAME, "size": len(cleaned)},
        )
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise errors.MalformedRequest(
            "display_name may not contain control characters", {"field": "display_name"}
        )
    return cleaned


def meta_of(stored: StoredMatch) -> MatchMeta:
    return MatchMeta.from_json(stored.meta_json)


def state_of(game: Game, stored: StoredMatch) -> GameState:
    """The rules state of a loaded match.

    A fair match is dealt when it starts (see MatchMeta.fair_deal): until
    its first commit stores the state of record, the stored version-0 state
    is only the provisional deal shown while seats were open, and a started
    match's state is dealt here from the seats' entropy.
    """
    return dealt_state(game, stored)[0]


def dealt_state(game: Game, stored: StoredMatch) -> tuple[GameState, int]:
    """:func:`state_of`, and the version of the game's rules the match was dealt
    under (0: dealt before versions were recorded). A fair match dealt here, as it
    starts, is dealt under this replica's rules.

    Raises:
        RulesNewerThanReplica: the state was made under newer rules than this
            replica's (:func:`check_rules`).
    """
    head = HeadDocument.from_json(stored.snapshot_json)
    check_rules(game, head.rules)
    if stored.version == 0:
        meta = MatchMeta.from_json(stored.meta_json)
        if (
            meta.fair_deal
            and any(plan.kind == "open" for plan in meta.seats)
            and is_started(meta, stored.seats)
        ):
            state = game.new_match(meta.seat_count, meta.options, meta.deal_seed(stored.seats))
            return state, game.info.rules_version
    return game.state_from_data(head.state), head.dealt


def check_rules(game: Game, made_under: int) -> None:
    """Refuse a match whose state was made under newer rules than this replica's.

    Raises:
        RulesNewerThanReplica: ``made_under`` is above ``game``'s rules version.
    """
    version = game.info.rules_version
    if made_under > version:
        raise errors.RulesNewerThanReplica(
            f"this match is played under {game.info.name} rules version {made_under}, and "
            f"this server knows version {version}: retry, a newer server will serve it",
            {"rulesVersion": made_under, "serverRulesVersion": version},
            retry_after_s=1.0,
        )


def parsed(stored: StoredMatch) -> CachedMatch:
    """A loaded match, parsed into what the cache keeps."""
    meta = meta_of(stored)
    state, dealt = dealt_state(get_game(meta.game_id), stored)
    return CachedMatch(
        stored.version,
        meta,
        dict(stored.seats),
        state,
        clock=clock_of(stored),
        dealt=dealt,
    )


def seat_of(stored: StoredMatch, caller: Caller) -> int | None:
    """The caller's seat from its token; None without a token.

    Raises:
        BadToken: a token was sent but holds no seat of this match.
    """
    if caller.token is None:
        return None
    seat = seat_in(stored.seats, token_hash(caller.token))
    if seat is None:
        raise errors.BadToken("this token holds no seat in this match")
    return seat


def seat_in(seats: Mapping[int, str], digest: str) -> int | None:
    """The seat whose claim holds the token of hash ``digest`` (compared in constant time)."""
    for seat, claim_json in seats.items():
        if secrets.compare_digest(claim_token_hash(claim_json), digest):
            return seat
    return None


@functools.lru_cache(maxsize=8192)
def claim_takeover(claim_json: str) -> str:
    """A stored claim's takeover ("" while its player holds it), parsed once."""
    return SeatClaim.from_json(claim_json).takeover


@functools.lru_cache(maxsize=8192)
def claim_token_hash(claim_json: str) -> str:
    """A stored claim's token hash, parsed once: a claim's JSON never changes (a
    new holder is a new claim)."""
    return SeatClaim.from_json(claim_json).token_hash


# -------------------------------------------------------------------- seats
def is_started(meta: MatchMeta, seats: Mapping[int, str]) -> bool:
    """Whether every open seat is claimed (bots act only in started matches)."""
    if len(seats) == meta.seat_count:
        return True  # every seat is claimed (claims are only ever for seats of the match)
    return all(plan.kind != "open" or s in seats for s, plan in enumerate(meta.seats))


def bot_of(meta: MatchMeta, seats: Mapping[int, str], seat: int) -> tuple[BotQueue, str] | None:
    """Who plays ``seat`` if not a person: (queue, strategy), or None.

    A bot seat is played by bot workers; a seat whose player left a started
    match by the bot that took it over, or by the replicas' minimal policy once
    its player resigned (the ZOMBIES queue).
    """
    if not 0 <= seat < meta.seat_count:
        return None
    plan = meta.seats[seat]
    if plan.kind == "bot":
        if is_remote_strategy(plan.bot_strategy):
            # Only the registered bot's own workers lease from its queue.
            return cast(BotQueue, plan.bot_strategy), plan.bot_strategy
        return BOTS, plan.bot_strategy
    claim_json = seats.get(seat)
    takeover = claim_takeover(claim_json) if claim_json else ""
    if takeover == ZOMBIE:
        return ZOMBIES, ZOMBIE
    return (BOTS, takeover) if takeover else None


def is_bot_turn(
    meta: MatchMeta, seats: Mapping[int, str], state: GameState, seat: int
) -> bool | None:
    """Whether bot-played ``seat`` must act now: None while the match waits for
    players (an open seat unclaimed), else whether it is one of the seats to decide."""
    if not is_started(meta, seats):
        return None
    return bot_of(meta, seats, seat) is not None and seat in state.deciding_seats()


def places_with_resigned(ranking: Sequence[int], resigned: Mapping[int, float]) -> list[int]:
    """The core's places, with resigned seats moved after every other seat.

    ``resigned`` maps each resigned seat to when its player left. The seats that
    did not resign keep their order (and ties). Among the resigned, a seat whose
    player left later ranks above one who left earlier, as players are placed in
    the order they drop out; seats that left at the same moment (or whose times
    are not known) keep the core's order. A seat's place is one more than the
    seats of its group placed strictly better, plus, for a resigned seat, the
    number of seats that did not resign.
    """
    if not resigned:
        return list(ranking)
    stayed = [p for s, p in enumerate(ranking) if s not in resigned]
    left = {s: (-resigned[s], p) for s, p in enumerate(ranking) if s in resigned}
    out = []
    for seat, place in enumerate(ranking):
        if seat in resigned:
            out.append(len(stayed) + 1 + sum(1 for key in left.values() if key < left[seat]))
        else:
            out.append(1 + sum(1 for p in stayed if p < place))
    return out


def places(seats: Mapping[int, str], state: GameState) -> list[int]:
    """The final places, resigned seats last (the last to leave first among them)."""
    resigned = {
        s: SeatClaim.from_json(claim).left_at
        for s, claim in seats.items()
        if claim_takeover(claim) == ZOMBIE
    }
    return places_with_resigned(state.ranking(), resigned)


def legal_for(state: GameState, seat: int) -> list[LegalAction]:
    """``seat``'s legal actions with their labels: empty unless it must decide now."""
    if state.current_seat() == seat:
        actions = state.legal_actions()
    elif seat in state.deciding_seats():
        actions = state.legal_actions_for(seat)
    else:
        return []
    return [LegalAction(a, a.notation(), state.describe(a)) for a in actions]


# ------------------------------------------------------------------- clocks
def clock_of(stored: StoredMatch, head: HeadDocument | None = None) -> Clock | None:
    """The clocks in a loaded match's head (None: no clocks); ``head``: that
    head already parsed."""
    if head is None:
        head = HeadDocument.from_json(stored.snapshot_json)
    return Clock.from_data(head.clock)


def control_of(meta: MatchMeta) -> TimeControl | None:
    return TimeControl.from_data(meta.time_control)


def clock_view(
    meta: MatchMeta, seats: Mapping[int, str], clock: Clock, deciding: Sequence[int]
) -> ClockView | None:
    """What clients see of the clocks: the reserves, and once the match has
    started the deadline of each deciding seat's decision (the first deciding
    seat's is *the* deadline)."""
    control = control_of(meta)
    if control is None:
        return None
    deadlines: dict[int, int] = {}
    if is_started(meta, seats):
        start = started_ms(meta, seats)
        deadlines = {s: clock.deadline_ms(control, s, start) for s in deciding}
    first = deadlines[deciding[0]] if deadlines else None
    return ClockView(clock.remaining_ms, first, clock.timeouts, deadlines)


def _clock_data(
    stored: StoredMatch, head: HeadDocument, meta: MatchMeta, state: GameState
) -> JsonDict | None:
    clock = clock_of(stored, head)
    if clock is None:
        return None
    view = clock_view(meta, stored.seats, clock, state.deciding_seats())
    return None if view is None else view.to_data()
