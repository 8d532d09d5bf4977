"""The application layer: every match operation, independent of gRPC.

Each call loads what it needs from the store, authorizes the caller, lets the rules
core decide, and commits with compare-and-swap on the match version. The store is
the only source of truth, so any number of replicas can serve the same match.

A replica keeps one thing between calls: a cache of the latest state it saw of
each recent match (:mod:`senet.service.cache`), so that the next action of a match
it just served is applied without a load. Every commit still compares and swaps
the version in the store: a cache left behind by another replica's commit costs a
reload and a retry, never a wrong result.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, NamedTuple, TypeVar

from senet.codec.fairness import seed_commitment
from senet.games import Event, Game, GameState, get_game
from senet.games.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
)
from senet.games.interface import JsonDict
from senet.games.rng import Rng
from senet.service import errors
from senet.service.cache import CachedMatch, StateCache
from senet.service.clocks import Clock, ClockView, TimeControl, now_ms, started_ms
from senet.service.feeds import FeedHub
from senet.service.idempotency import (
    check_request_id,
    creation_fingerprint,
    match_id_for,
    new_join_secret,
    seat_token,
)
from senet.service.lobby import Lobby, LobbyFilter, MatchPage, lobby_entry
from senet.service.ratelimit import RateLimiter
from senet.service.records import (
    ZOMBIE,
    HeadDocument,
    Heartbeat,
    LeaveOutcome,
    LeavePolicy,
    LegalAction,
    LegalActions,
    MatchExport,
    MatchMeta,
    MatchSnapshot,
    MatchSummary,
    MatchUpdate,
    SeatClaim,
    SeatPlan,
    Status,
    SubmitOutcome,
    UpdateRecord,
    action_origin,
    claim_fingerprint,
    logged_action,
    new_token,
    seat_entropy,
    seat_summaries,
    token_hash,
)
from senet.service.settings import Settings
from senet.store import (
    BotDecisionRef,
    ClaimWrite,
    CommitRequest,
    EventBatch,
    MatchExists,
    MatchNotFound,
    MatchStore,
    NewMatch,
    ReopenOutcome,
    StoredMatch,
    StoreError,
)
from senet.store.base import BOTS, CLOCKS, ZOMBIES, BotQueue

_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_ENTROPY_RE = re.compile(r"^[A-Za-z0-9_-]{0,64}$")
_REQUEST_ID_RE = re.compile(r"^[\x21-\x7e]{1,64}$")
_MAX_NAME = 40
_MAX_NOTATION = 200
_COMMIT_RETRIES = 5
#: How long after its post a queued entry's write has surely landed or failed:
#: an older entry ahead of its match is posted again at the match's version.
LANDED_MS = 3000
#: How long a timeout whose commits kept failing waits before it is tried again.
_TIMEOUT_RETRY_MS = 200
#: Recent updates kept parsed, and as each audience receives them, for the streams
#: that read them (every stream of a match reads each of its updates once).
_SHARED_UPDATES = 1024
#: How far behind a simultaneous decision may be and still stand (versions).
_SIMULTANEOUS_REACH = 64
BOT_STRATEGIES = ("random", "greedy", "mcts")
log = logging.getLogger("senet.service")

WatchItem = MatchSnapshot | MatchUpdate | Heartbeat


class PlayItem(NamedTuple):
    """One step of a seat's PlayMatch stream: a watch item, the seat's prompt
    at that item's version, or both (a prompt alone only when resuming)."""

    item: WatchItem | None
    prompt: LegalActions | None


#: Where a stream's items go when they are made as a commit is published, not
#: yielded: an item, then None when it was the last (the match is over).
Sink = Callable[["PlayItem | None"], None]

#: What MatchService.time_out did: done, gone, or later (and when to look again).
TimeoutVerdict = tuple[Literal["done", "gone", "later"], int | None]
R = TypeVar("R")


@dataclass(frozen=True)
class Caller:
    """Who is calling: the bearer token (if any), whether the admin key matched
    (always true on a server without one), and whether the caller may act as a
    bot worker (the worker key or the admin key matched; never implied)."""

    token: str | None = None
    is_admin: bool = False
    is_worker: bool = False
    #: Who counts against the quotas (see senet.service.quotas); "" in-process.
    client: str = ""


def check_id(value: str, what: str = "match_id") -> str:
    """Match ids are short URL-safe strings; anything else is malformed."""
    if not isinstance(value, str) or not _ID_RE.match(value):
        raise errors.MalformedRequest(f"{what} must be 1-64 characters of [A-Za-z0-9_-]")
    return value


def check_display_name(name: str) -> str:
    cleaned = name.strip()
    if not 1 <= len(cleaned) <= _MAX_NAME:
        raise errors.MalformedRequest(f"display_name must be 1-{_MAX_NAME} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in cleaned):
        raise errors.MalformedRequest("display_name may not contain control characters")
    return cleaned


def is_started(meta: MatchMeta, seats: Mapping[int, str]) -> bool:
    """Whether every open seat is claimed (bots act only in started matches)."""
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
        return BOTS, plan.bot_strategy
    claim_json = seats.get(seat)
    takeover = _claim_takeover(claim_json) if claim_json else ""
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


def places_with_resigned(ranking: Sequence[int], resigned: set[int]) -> list[int]:
    """The core's places, with resigned seats moved after every other seat.

    Seats keep their order (and ties) within each group: a seat's place is one
    more than the seats of its group placed strictly better, plus, for a
    resigned seat, the number of seats that did not resign.
    """
    if not resigned:
        return list(ranking)
    stayed = [p for s, p in enumerate(ranking) if s not in resigned]
    left = [p for s, p in enumerate(ranking) if s in resigned]
    out = []
    for seat, place in enumerate(ranking):
        if seat in resigned:
            out.append(len(stayed) + 1 + sum(1 for p in left if p < place))
        else:
            out.append(1 + sum(1 for p in stayed if p < place))
    return out


def another_game_message(action_game: str, match_game: str) -> str:
    """Why a typed action of another game than the match's is refused."""
    return (
        f"this action belongs to another game: a {action_game} action was sent "
        f"to a {match_game} match"
    )


def request_key(seat: int, request_id: str) -> str:
    """How the store files a seat's request id: a retry finds its original version."""
    return f"{seat}:{request_id}"


class MatchService:
    """Match operations over a :class:`MatchStore`."""

    def __init__(self, store: MatchStore, settings: Settings, cache_size: int = 4096) -> None:
        self.store = store
        self.settings = settings
        self.limiter = RateLimiter(settings.seat_rate_per_s, settings.seat_burst)
        self.cache = StateCache(cache_size)
        self.feeds = FeedHub(store, block_ms=max(1, int(settings.heartbeat_s * 1000)))
        self.lobby = Lobby(store, settings.idle_ttl_s)
        self._bot_bell = asyncio.Event()
        #: Recent updates as each audience receives them (see _update_for).
        self._updates: OrderedDict[tuple[str, tuple[bool, tuple[int, ...]]], MatchUpdate] = (
            OrderedDict()
        )

    # ------------------------------------------------------- bot decisions
    def bot_bell(self) -> asyncio.Event:
        """Set (then replaced) when this replica posts a bot decision: wakes the
        workers' waiting acquires at once (other replicas' posts are polled)."""
        return self._bot_bell

    def state_of(self, meta: MatchMeta, stored: StoredMatch) -> GameState:
        """The game state of a loaded match."""
        return self._state(get_game(meta.game_id), stored)

    async def _post_bot_turn(
        self,
        match_id: str,
        meta: MatchMeta,
        seats: Mapping[int, str],
        version: int,
        seat: int | None,
    ) -> None:
        """Post a decision for ``seat`` at ``version`` if a bot (or the replicas'
        minimal policy) plays it.

        Called *before* the write that makes the decision due (a commit, the join
        that starts the match, a creation): if this replica dies between the two,
        the decision is already queued; if the write never lands, the queue
        drops the entry when a worker acquires it (see senet.service.bots_api).
        """
        player = None if seat is None else bot_of(meta, seats, seat)
        if seat is None or player is None:
            return
        queue, strategy = player
        now_ms = int(time.time() * 1000)
        await self.store.post_bot_decision(
            BotDecisionRef(match_id, seat, version), strategy, now_ms, queue
        )
        self._bot_bell.set()
        self._bot_bell = asyncio.Event()

    async def post_bot_turn(self, stored: StoredMatch, seat: int) -> None:
        """Post ``seat``'s decision again at the stored version (see
        senet.service.bots_api: an entry whose write never landed)."""
        meta = self._meta(stored)
        await self._post_bot_turn(stored.match_id, meta, stored.seats, stored.version, seat)

    # ------------------------------------------------------------- loading
    async def _load(self, match_id: str) -> StoredMatch:
        return await self.store.load(check_id(match_id))

    @staticmethod
    def _meta(stored: StoredMatch) -> MatchMeta:
        return MatchMeta.from_json(stored.meta_json)

    @staticmethod
    def _state(game: Game, stored: StoredMatch) -> GameState:
        """The rules state of a loaded match.

        A fair match is dealt when it starts (see MatchMeta.fair_deal): until
        its first commit stores the state of record, the stored version-0 state
        is only the provisional deal shown while seats were open, and a started
        match's state is dealt here from the seats' entropy.
        """
        if stored.version == 0:
            meta = MatchMeta.from_json(stored.meta_json)
            if (
                meta.fair_deal
                and any(plan.kind == "open" for plan in meta.seats)
                and is_started(meta, stored.seats)
            ):
                return game.new_match(meta.seat_count, meta.options, meta.deal_seed(stored.seats))
        return game.state_from_data(HeadDocument.from_json(stored.snapshot_json).state)

    def _read_state(self, game: Game, stored: StoredMatch) -> GameState:
        """:meth:`_state`, for reading only: the cached head's own state when it
        is that version with those claims (no rebuild from the snapshot), else
        one rebuilt. Submissions change the cached state in place only once they
        have taken it out of the cache, and a reader uses it before its next
        await, so what it reads is that version."""
        head = self.cache.peek(stored.match_id)
        if head is not None and head.version == stored.version and head.seats == stored.seats:
            return head.state
        return self._state(game, stored)

    def _status(self, stored: StoredMatch) -> Status:
        if stored.status == "active":
            updated = HeadDocument.from_json(stored.snapshot_json).updated_at
            if time.time() - updated > self.settings.idle_ttl_s / 2:
                return "abandoned"
        return stored.status

    def _seat_of(self, stored: StoredMatch, caller: Caller) -> int | None:
        """The caller's seat from its token; None without a token.

        Raises:
            BadToken: a token was sent but holds no seat of this match.
        """
        if caller.token is None:
            return None
        seat = _seat_in(stored.seats, token_hash(caller.token))
        if seat is None:
            raise errors.BadToken("this token holds no seat in this match")
        return seat

    def _acting_seat(self, stored: StoredMatch, caller: Caller) -> int:
        if caller.token is None:
            raise errors.TokenRequired("send the seat token as 'authorization: Bearer <token>'")
        seat = self._seat_of(stored, caller)
        assert seat is not None
        # Same bucket key as submit() (which limits before it loads): one token per seat.
        self._take_token(f"{stored.match_id}:{token_hash(caller.token)}")
        return seat

    def _take_token(self, key: str) -> None:
        """Count one request of a seat against its rate limit."""
        if not self.limiter.allow(key):
            raise errors.RateLimited(
                "too many requests for this seat; slow down",
                {"ratePerSecond": f"{self.limiter.rate:g}", "burst": self.limiter.burst},
                retry_after_s=self.limiter.retry_after_s(key),
            )

    def _summary(
        self, stored: StoredMatch, meta: MatchMeta, state: GameState, version: int | None = None
    ) -> MatchSummary:
        seats = seat_summaries(meta, stored.seats)
        over = state.is_over()
        started = is_started(meta, stored.seats)
        return MatchSummary(
            match_id=stored.match_id,
            game_id=meta.game_id,
            options=dict(meta.options),
            seats=seats,
            status=self._status(stored),
            version=stored.version if version is None else version,
            current_seat=state.current_seat() if started else None,
            commitment=meta.commitment,
            scores=state.scores(),
            places=self._places(stored.seats, state) if over else [],
            leave_policy=meta.leave_policy,
            leave_bot_strategy=meta.leave_bot_strategy,
            time_control=meta.time_control,
            clock=self._clock_data(stored, meta, state),
            seed_chosen=meta.seed_chosen,
            deciding=state.deciding_seats() if started else (),
            started=started,
        )

    def _clock_data(
        self, stored: StoredMatch, meta: MatchMeta, state: GameState
    ) -> JsonDict | None:
        clock = _clock_of(stored)
        if clock is None:
            return None
        view = self._clock_view(meta, stored.seats, clock, state.deciding_seats())
        return None if view is None else view.to_data()

    @staticmethod
    def _clock_view(
        meta: MatchMeta, seats: Mapping[int, str], clock: Clock, deciding: Sequence[int]
    ) -> ClockView | None:
        """What clients see of the clocks: the reserves, and once the match has
        started the deadline of each deciding seat's decision (the first deciding
        seat's is *the* deadline)."""
        control = _control_of(meta)
        if control is None:
            return None
        deadlines: dict[int, int] = {}
        if is_started(meta, seats):
            start = started_ms(meta, seats)
            deadlines = {s: clock.deadline_ms(control, s, start) for s in deciding}
        first = deadlines[deciding[0]] if deadlines else None
        return ClockView(clock.remaining_ms, first, clock.timeouts, deadlines)

    async def _post_deadline(
        self,
        match_id: str,
        meta: MatchMeta,
        seats: Mapping[int, str],
        version: int,
        seat: int | None,
        clock: Clock | None,
    ) -> None:
        """Post the timeout entry of ``seat``'s decision at ``version``, due at its
        deadline, before the write that starts that decision (as bot decisions
        are posted; see senet.service.clocks)."""
        control = _control_of(meta)
        if seat is None or clock is None or control is None or not is_started(meta, seats):
            return
        start = started_ms(meta, seats) if not clock.turn_started_ms else 0
        due = clock.deadline_ms(control, seat, start)
        await self.store.post_bot_decision(
            BotDecisionRef(match_id, seat, version), "timeout", now_ms(), CLOCKS, due
        )

    @staticmethod
    def _places(seats: Mapping[int, str], state: GameState) -> list[int]:
        """The final places, resigned seats last."""
        resigned = {s for s, claim in seats.items() if _claim_takeover(claim) == ZOMBIE}
        return places_with_resigned(state.ranking(), resigned)

    # ------------------------------------------------------------ queries
    def list_games(self) -> list[Game]:
        from senet.games import all_games

        return all_games()

    async def create_match(
        self,
        caller: Caller,
        game_id: str,
        options: Mapping[str, object],
        seats: Sequence[SeatPlan],
        seed: int | None,
        leave_policy: LeavePolicy = "resign",
        leave_bot_strategy: str = "",
        time_control: TimeControl | None = None,
        request_id: str = "",
    ) -> MatchSnapshot:
        """Create a match at version 0 and return its public snapshot.

        With a ``request_id``, a retry returns the match the first call created
        (its current public snapshot) and never creates a second one; see
        :mod:`senet.service.idempotency`.
        """
        if self.settings.admin_key and not caller.is_admin:
            raise errors.AdminKeyRequired("this server requires the admin key to create matches")
        request_id = check_request_id(request_id, required=False)
        game = get_game(game_id)
        for plan in seats:
            if plan.kind == "bot" and plan.bot_strategy not in BOT_STRATEGIES:
                raise errors.MalformedRequest(
                    f"bot_strategy must be one of {', '.join(BOT_STRATEGIES)}"
                )
        if leave_policy == "bot" and leave_bot_strategy not in BOT_STRATEGIES:
            raise errors.MalformedRequest(
                f"leave_bot_strategy must be one of {', '.join(BOT_STRATEGIES)}"
            )
        if leave_policy != "bot" and leave_bot_strategy:
            raise errors.MalformedRequest("leave_bot_strategy goes with LEAVE_POLICY_BOT only")
        if time_control is not None:
            _check_time_control(time_control)
        real_seed = secrets.randbits(64) if seed is None else seed
        salt = secrets.token_hex(16)
        meta = MatchMeta(
            game_id=game.info.id,
            options=dict(options),
            seat_count=len(seats),
            seats=list(seats),
            seed=real_seed,
            salt=salt,
            commitment=seed_commitment(salt, real_seed),
            created_at=time.time(),
            leave_policy=leave_policy,
            leave_bot_strategy=leave_bot_strategy,
            time_control=None if time_control is None else time_control.to_data(),
            join_secret=new_join_secret(),
            seed_chosen=seed is not None,
            fair_deal=seed is None,
        )
        # With open seats this deal is provisional (see _state): the deal of
        # record waits for every seat's entropy.
        state = game.new_match(len(seats), options, meta.deal_seed({}))
        meta = replace(meta, options=dict(state.options))
        match_id = secrets.token_hex(8)
        if request_id:
            match_id = match_id_for(request_id)
            fingerprint = creation_fingerprint(
                {
                    "game": game.info.id,
                    "options": dict(options),
                    "seats": [[p.kind, p.bot_strategy] for p in seats],
                    "seed": seed,
                    "leave": [leave_policy, leave_bot_strategy],
                    "clock": meta.time_control,
                }
            )
            meta = replace(meta, creation=fingerprint)
            existing = await self._created_before(match_id, fingerprint)
            if existing is not None:
                return existing
        clock = None if time_control is None else Clock.initial(time_control, len(seats))
        snapshot = HeadDocument(
            state.to_data(), time.time(), None if clock is None else clock.to_data()
        )
        # The lobby entry first: a match is never created unlisted (see senet.service.lobby).
        await self._publish_lobby_entry(match_id, meta, {}, "active", required=True)
        if all(plan.kind == "bot" for plan in seats) and not state.is_over():
            # Started at creation: its first decision (and its clock) is due with it.
            for seat in state.deciding_seats():
                await self._post_bot_turn(match_id, meta, {}, 0, seat)
                await self._post_deadline(match_id, meta, {}, 0, seat, clock)
        waiting = any(plan.kind == "open" for plan in seats)
        try:
            await self.store.create(
                NewMatch(match_id, meta.to_json(), snapshot.to_json(), waiting=waiting)
            )
        except MatchExists:
            # Only keyed ids repeat: an earlier attempt of this creation got there
            # first (its reply lost, or still on its way). Its match is the answer.
            existing = await self._created_before(match_id, meta.creation) if request_id else None
            if existing is None:
                raise
            await self.refresh_lobby_entry(match_id)  # this attempt rewrote the entry
            return existing
        stored = StoredMatch(match_id, meta.to_json(), {}, 0, snapshot.to_json(), "active")
        return MatchSnapshot(self._summary(stored, meta, state), state.view(None), None)

    async def _created_before(self, match_id: str, fingerprint: str) -> MatchSnapshot | None:
        """The public snapshot of the match an earlier attempt with the same key
        created; None when there is none.

        Raises:
            RequestIdReused: the key created a match from a different request.
        """
        try:
            stored = await self._load(match_id)
        except MatchNotFound:
            return None
        meta = self._meta(stored)
        if meta.creation != fingerprint:
            raise errors.RequestIdReused(
                "this request_id already created a different match",
                {"matchId": match_id},
            )
        state = self._state(get_game(meta.game_id), stored)
        return MatchSnapshot(self._summary(stored, meta, state), state.view(None), None)

    async def join(
        self,
        caller: Caller,
        match_id: str,
        seat: int | None,
        display_name: str,
        *,
        request_id: str = "",
        entropy: str = "",
    ) -> tuple[int, str, MatchSummary]:
        """Claim a seat; returns (seat, token, summary). The token is shown only here.

        With a ``request_id``, the token is minted from the key (see
        :mod:`senet.service.idempotency`): a retry returns the seat the first
        attempt claimed, with the same token, and never claims a second seat.
        ``entropy`` is the seat's own contribution to the seed of a fair match
        (see senet.service.records.effective_seed); ignored by chosen seeds.
        """
        name = check_display_name(display_name)
        request_id = check_request_id(request_id, required=False)
        if not _ENTROPY_RE.match(entropy):
            raise errors.MalformedRequest(
                "entropy must be 0-64 characters of [A-Za-z0-9_-]",
                {"field": "entropy", "limit": 64, "size": len(entropy)},
            )
        stored = await self._load(match_id)
        meta = self._meta(stored)
        keyed = bool(request_id and meta.join_secret)
        if keyed:
            earlier = self._joined_before(stored, meta, seat, request_id)
            if earlier is not None:
                return earlier
        if seat is not None:
            if not 0 <= seat < meta.seat_count:
                raise errors.MalformedRequest(f"seat must be 0-{meta.seat_count - 1}")
            candidates = [seat]
        else:
            candidates = [
                s
                for s, plan in enumerate(meta.seats)
                if plan.kind == "open" and s not in stored.seats
            ]
            if not candidates:
                raise errors.NoOpenSeat("every open seat of this match is taken")
        if any(meta.seats[c].kind == "bot" for c in candidates):
            raise errors.BotSeat(f"seat {seat} is a bot seat, played by bot workers only")
        random_token = new_token()
        tokens = {
            c: seat_token(meta.join_secret, stored.match_id, c, request_id)
            if keyed
            else random_token
            for c in candidates
        }
        joined_at = time.time()
        claims = {
            c: SeatClaim(name, token_hash(tokens[c]), joined_at, entropy=entropy)
            for c in candidates
        }
        if stored.status == "active" and len(candidates) == 1:
            # This claim may be the one that starts the match: a bot to act then
            # has its decision queued first (an early entry waits for the claim).
            # The state is the one this claim makes: a fair match is dealt with
            # every seat's entropy, this one's included, so who acts first may
            # depend on it. (A join that may take any of several open seats
            # leaves another seat open: it starts nothing.)
            after = {**stored.seats, **{c: claims[c].to_json() for c in candidates}}
            state = self._state(get_game(meta.game_id), replace(stored, seats=after))
            for seat in state.deciding_seats():
                await self._post_bot_turn(stored.match_id, meta, stored.seats, stored.version, seat)
                # The clock of the first decision starts with the match.
                await self._post_deadline(
                    stored.match_id, meta, after, stored.version, seat, _clock_of(stored)
                )
        opens = [s for s, plan in enumerate(meta.seats) if plan.kind == "open"]
        for candidate in candidates:
            if not await self.store.claim_seat(
                stored.match_id, ClaimWrite(candidate, claims[candidate].to_json()), opens
            ):
                if keyed:
                    # Taken: by another attempt of this join (a retry sent while
                    # the first was on its way)? Then that seat is the answer.
                    # Attempts walk the open seats in the same order, so they
                    # meet at the first seat either of them gets.
                    taken = await self._load(match_id)
                    if candidate in self._seats_of_key(taken, meta, request_id):
                        return self._joined(taken, meta, candidate, request_id)
                continue
            fresh = await self._load(match_id)
            if fresh.version == 0 and is_started(meta, fresh.seats):
                # The store wrote the start with the claim that completed the
                # seats (this one, or a racing one): this replica's streams of
                # the match learn it now, the others' from their store reads.
                self.feeds.committed_here(fresh.match_id, EventBatch(0, ""))
            await self._publish_lobby_entry(fresh.match_id, meta, fresh.seats, fresh.status)
            entry = self._parsed(fresh)
            summary = self._summary(fresh, meta, entry.state)
            # The seat's first action here then needs no load of its own.
            self.cache.put(fresh.match_id, entry)
            return candidate, tokens[candidate], summary
        if seat is not None:
            raise errors.SeatTaken(f"seat {seat} is already taken", {"seat": seat})
        raise errors.NoOpenSeat("every open seat of this match is taken")

    @staticmethod
    def _seats_of_key(stored: StoredMatch, meta: MatchMeta, request_id: str) -> list[int]:
        """The seats whose claims hold the token a join with this key gets (one,
        unless attempts asking for different explicit seats raced), lowest first."""
        held = []
        for seat in sorted(stored.seats):
            token = seat_token(meta.join_secret, stored.match_id, seat, request_id)
            digest = hashlib.sha256(token.encode()).hexdigest()
            if secrets.compare_digest(_claim_token_hash(stored.seats[seat]), digest):
                held.append(seat)
        return held

    def _joined_before(
        self, stored: StoredMatch, meta: MatchMeta, seat: int | None, request_id: str
    ) -> tuple[int, str, MatchSummary] | None:
        """The seat, token and summary of the join with this key, if it claimed a
        seat that it still holds; None otherwise.

        Raises:
            RequestIdReused: the key holds another seat than the one asked for.
        """
        mine = self._seats_of_key(stored, meta, request_id)
        if not mine:
            return None
        if seat is not None and seat not in mine:
            raise errors.RequestIdReused(
                f"this request_id already joined seat {mine[0]}", {"seat": mine[0]}
            )
        return self._joined(stored, meta, mine[0] if seat is None else seat, request_id)

    def _joined(
        self, stored: StoredMatch, meta: MatchMeta, seat: int, request_id: str
    ) -> tuple[int, str, MatchSummary]:
        """What a keyed join of ``seat`` answers: the seat, its token, the summary."""
        token = seat_token(meta.join_secret, stored.match_id, seat, request_id)
        state = self._state(get_game(meta.game_id), stored)
        return seat, token, self._summary(stored, meta, state)

    async def get(self, caller: Caller, match_id: str) -> MatchSnapshot:
        stored = await self._load(match_id)
        meta = self._meta(stored)
        seat = self._seat_of(stored, caller)
        state = self._read_state(get_game(meta.game_id), stored)
        return MatchSnapshot(self._summary(stored, meta, state), state.view(seat), seat)

    async def legal_actions(self, caller: Caller, match_id: str) -> LegalActions:
        """The caller's legal actions now: none unless its seat must decide (and none
        before the match starts: nobody may move until every open seat is claimed)."""
        stored = await self._load(match_id)
        seat = self._acting_seat(stored, caller)
        meta = self._meta(stored)
        if not is_started(meta, stored.seats):
            return LegalActions(meta.game_id, stored.version, seat, [])
        state = self._read_state(get_game(meta.game_id), stored)
        return LegalActions(meta.game_id, stored.version, seat, _legal(state, seat))

    async def version_of(self, match_id: str) -> int:
        """The current version of a match."""
        return (await self._load(match_id)).version

    async def game_of(self, match_id: str) -> str:
        """The game id of a match (from the cached head when this replica holds one)."""
        head = self.cache.peek(check_id(match_id))
        if head is not None:
            return head.meta.game_id
        return self._meta(await self._load(match_id)).game_id

    # ------------------------------------------------------------- acting
    async def submit(
        self,
        caller: Caller,
        match_id: str,
        notation: str,
        expected_version: int | None,
        request_id: str,
        action_game: str | None,
        render: Callable[[SubmitOutcome], R],
    ) -> tuple[SubmitOutcome, R]:
        """Check, apply and commit one action for the caller's seat.

        A request id already committed returns the original outcome; a stale
        ``expected_version`` raises StaleVersion; the rules core's errors pass
        through unchanged. Nothing is written unless the action is legal.
        ``action_game`` is the game a typed action was written for; it must be
        the match's game.

        Returns the outcome and ``render(outcome)`` (the caller's reply). On
        the fast path ``render`` runs while the store is still confirming the
        commit, so the reply costs no time after the store answers; a render
        for a commit that does not go through is thrown away.

        The fast path applies the action to this replica's cached state and
        commits on top of the cached version: one store round trip. Whenever the
        cache may be stale (a conflict, an unknown token, a rules error), the slow
        path reloads from the store and decides on fresh data.
        """
        check_id(match_id)
        if not _REQUEST_ID_RE.match(request_id):
            raise errors.MalformedRequest(
                "request_id must be 1-64 printable ASCII characters",
                {"field": "request_id", "limit": 64, "size": len(request_id)},
            )
        if not isinstance(notation, str) or len(notation) > _MAX_NOTATION:
            raise errors.MalformedRequest(
                f"action notation is limited to {_MAX_NOTATION} chars",
                {"field": "notation", "limit": _MAX_NOTATION, "size": len(str(notation))},
            )
        if caller.token is None:
            raise errors.TokenRequired("send the seat token as 'authorization: Bearer <token>'")
        digest = token_hash(caller.token)
        request = _Submission(digest, notation, request_id)
        self._take_token(f"{match_id}:{digest}")
        cached = self.cache.get(match_id)
        if cached is not None and expected_version in (None, cached.version):
            self.cache.forget(match_id)  # this submission owns the cached state now
            try:
                done = await self._submit_on(match_id, cached, request, action_game, render)
            except (GameError, errors.ServiceError):
                done = None  # decide again on fresh data
            if done is not None:
                return done
        attempt = 0
        while attempt < _COMMIT_RETRIES:
            attempt += 1
            stored = await self._load(match_id)
            entry = self._parsed(stored)
            stands = False
            if expected_version is not None and expected_version != stored.version:
                # The parsed head stays out of the cache during these reads: a choice
                # that still stands decides on it, and another submission taking it
                # meanwhile would change its state in place. Otherwise it is cached.
                seat = self._seat_of(stored, caller)
                assert seat is not None
                replayed = await self._replayed(stored, seat, request.request_id, request.notation)
                if replayed is not None:
                    self.cache.put(match_id, entry)
                    return replayed, render(replayed)
                stands = await self.decision_stands(stored, seat, expected_version)
                if not stands:
                    self.cache.put(match_id, entry)
                    raise errors.StaleVersion(
                        f"the match is at version {stored.version}, not {expected_version}",
                        {"currentVersion": stored.version},
                    )
            done = await self._submit_on(match_id, entry, request, action_game, render, fresh=True)
            if done is not None:
                return done
            # The head moved on between our load and commit: the next pass judges the
            # submission again on it (a replay, a choice that still stands, or stale).
            if stands:
                # Another seat deciding at once committed first: that happens only
                # while this choice still stands (a bounded number of times), and
                # giving up would drop a decision nobody else will make.
                attempt = min(attempt, _COMMIT_RETRIES - 1)
        raise errors.StaleVersion("the match is changing too fast; retry")

    async def decision_stands(self, stored: StoredMatch, seat: int, version: int) -> bool:
        """Whether ``seat``'s decision made at ``version`` still stands at the stored
        version, though the match moved on: the seat was one of several deciding at
        once then, and every version since was another deciding seat's choice,
        after which this seat still had to decide. Such choices are hidden from
        each other and commute (the conformance suite checks it), so the position
        the seat decided on is, for it, the current one.
        """
        behind = stored.version - version
        if version < 1 or behind < 1 or behind > _SIMULTANEOUS_REACH:
            return False
        batches = await self.store.events_after(stored.match_id, version - 1, limit=behind + 1)
        records = [UpdateRecord.from_json(batch.events_json) for batch in batches]
        if [r.version for r in records] != list(range(version, stored.version + 1)):
            return False
        first, later = records[0], records[1:]
        return (
            len(first.deciding_seats()) > 1
            and seat in first.deciding_seats()
            and all(r.seat != seat and seat in r.deciding_seats() for r in later)
        )

    def _parsed(self, stored: StoredMatch) -> CachedMatch:
        """A loaded match, parsed into what the cache keeps."""
        meta = self._meta(stored)
        return CachedMatch(
            stored.version,
            meta,
            dict(stored.seats),
            self._state(get_game(meta.game_id), stored),
            clock=_clock_of(stored),
        )

    async def _submit_on(
        self,
        match_id: str,
        entry: CachedMatch,
        request: _Submission,
        action_game: str | None,
        render: Callable[[SubmitOutcome], R],
        fresh: bool = False,
        timed_out: bool = False,
    ) -> tuple[SubmitOutcome, R] | None:
        """Apply on ``entry`` and commit at its version; None when the head moved on.

        Two steps: :meth:`_apply` lets the rules core change the state (nothing
        leaves the process), :meth:`_commit` writes it to the store and makes it
        this replica's cached head. This method finds the caller's seat and
        deals with refusals in between.

        The caller hands over ``entry`` (it is in no cache): its state is changed
        in place, without a copy. Refused before any change (no seat, a rules
        error), the entry goes back to the cache as it was; once changed, only
        a committed entry is cached, as the new head.
        """
        seat = _seat_in(entry.seats, request.token_hash)
        if seat is None:
            self.cache.put(match_id, entry)
            if fresh:
                raise errors.BadToken("this token holds no seat in this match")
            return None  # the cached claims may predate the caller's: decide on fresh data
        if not is_started(entry.meta, entry.seats):
            self.cache.put(match_id, entry)
            if fresh:
                open_seats = sum(
                    1
                    for s, plan in enumerate(entry.meta.seats)
                    if plan.kind == "open" and s not in entry.seats
                )
                raise errors.MatchNotStarted(
                    "the match has not started: it waits for every open seat to be claimed",
                    {"openSeats": open_seats},
                )
            return None  # the cached claims may predate the last join: decide on fresh data
        try:
            record, events, before = self._apply(entry, seat, request.notation, action_game)
        except (NotYourTurnError, GameOverError, IllegalActionError):
            self.cache.put(match_id, entry)
            if fresh:
                # A retry of a request that went through meanwhile: its outcome.
                stored = await self._load(match_id)
                replayed = await self._replayed(stored, seat, request.request_id, request.notation)
                if replayed is not None:
                    return replayed, render(replayed)
            raise
        except MalformedActionError:
            self.cache.put(match_id, entry)
            raise
        return await self._commit(
            match_id, entry, request.request_id, record, events, before, render, timed_out
        )

    @staticmethod
    def _apply(
        entry: CachedMatch, seat: int, notation: str, action_game: str | None
    ) -> tuple[UpdateRecord, list[Event], tuple[int, ...]]:
        """Apply ``seat``'s action to ``entry.state`` in place; the update it makes
        (at the next version), the core's events and the seats that had to decide
        before it.

        Checked against ``entry.legal`` when the legal actions are already known.

        Raises:
            MalformedActionError: the action is for another game or unreadable.
            NotYourTurnError, GameOverError, IllegalActionError: the rules core
                refused it. Nothing is changed when any of these is raised.
        """
        if action_game is not None and action_game != entry.meta.game_id:
            raise MalformedActionError(another_game_message(action_game, entry.meta.game_id))
        state = entry.state
        action = state.coerce_action(notation)
        before = state.deciding_seats()
        events = state.apply(seat, action, legal=entry.legal)
        deciding = state.deciding_seats()
        record = UpdateRecord(
            entry.version + 1,
            seat,
            action.notation(),
            [e.to_data() for e in events],
            "finished" if state.is_over() else "active",
            state.current_seat(),
            deciding=list(deciding) if len(deciding) > 1 else None,
        )
        return record, events, before

    async def _commit(
        self,
        match_id: str,
        entry: CachedMatch,
        request_id: str,
        record: UpdateRecord,
        events: list[Event],
        before: tuple[int, ...],
        render: Callable[[SubmitOutcome], R],
        timed_out: bool = False,
    ) -> tuple[SubmitOutcome, R] | None:
        """Commit ``entry``'s applied state as ``record`` at ``entry.version``; the
        outcome and its rendered reply, or None when the head moved on.

        ``before``: the seats that had to decide before this action. Of the seats
        deciding after it, those still deciding since then (other than the mover)
        keep their queued bot decision and their deadline; the others get new ones.

        ``timed_out``: the action is the fallback of a timeout (the clocks count
        it as one, and give no increment, and the update is marked as the
        timeout's). Otherwise the acting seat's claim says who chose the action
        (its holder, or a takeover: :func:`action_origin`).

        The commit is sent first; while the store confirms it, this replica
        renders the reply: work the round trip would otherwise sit idle for.
        Committed, the state becomes the cached head, and its legal actions,
        which the next submission checks against, are worked out a loop turn
        later, once the reply is on its way (see :meth:`_legal_ahead`).
        """
        seat = record.seat
        key = request_key(seat, request_id)
        state = entry.state
        status = record.status
        now = time.time()
        next_seat = record.current_seat if status == "active" else None
        deciding = record.deciding_seats() if status == "active" else ()
        waiting = {s for s in before if s != seat}
        clock = entry.clock
        control = _control_of(entry.meta)
        if clock is not None and control is not None:
            start = 0 if clock.turn_started_ms else started_ms(entry.meta, entry.seats)
            clock = clock.after(control, seat, int(now * 1000), start, timed_out, before, deciding)
            view = self._clock_view(entry.meta, entry.seats, clock, deciding)
            record = replace(record, clock=None if view is None else view.to_data())
        for due in deciding:
            if due not in waiting:
                await self._post_bot_turn(match_id, entry.meta, entry.seats, record.version, due)
                await self._post_deadline(
                    match_id, entry.meta, entry.seats, record.version, due, clock
                )
        # A person's seat may be taken over (its player left): the commit checks
        # that the claim it decided on is still there (bot seats stay bot seats).
        check_next = next_seat is not None and entry.meta.seats[next_seat].kind == "open"
        claims = {str(seat): claim_fingerprint(entry.seats[seat])}
        if check_next and next_seat is not None and next_seat in entry.seats:
            claims[str(next_seat)] = claim_fingerprint(entry.seats[next_seat])
        origin, strategy = action_origin(entry.seats[seat], timed_out)
        record = replace(
            record,
            claims=claims,
            request_id=request_id,
            origin=origin,
            origin_strategy=strategy,
        )
        update_json = record.to_json()
        log_entry = record.log_entry_json(request_id, now)
        pending = self.store.start_commit(
            match_id,
            CommitRequest(
                expected_version=entry.version,
                request_key=key,
                log_entry_json=log_entry,
                events_json=update_json,
                snapshot_json=HeadDocument(
                    state.snapshot_data(), now, None if clock is None else clock.to_data()
                ).to_json(),
                status=status,
                seat=seat,
                seat_claim_json=entry.seats[seat],
                next_seat=next_seat if check_next else None,
                next_seat_claim_json=(
                    entry.seats.get(next_seat) if next_seat is not None and check_next else None
                ),
            ),
        )
        committed = SubmitOutcome(
            entry.meta.game_id,
            record.version,
            [e for e in events if e.visible_to(seat)],
            status,
            False,
            request_id,
            record.current_seat,
        )
        try:  # while the store confirms the commit
            rendered = render(committed)
        except Exception:
            with contextlib.suppress(Exception):
                await pending  # never leave a commit unobserved
            raise
        outcome = await pending
        if outcome.result == "committed":
            if outcome.version != record.version:
                raise RuntimeError(  # the store broke its contract: INTERNAL
                    f"store committed version {outcome.version}, expected {record.version}"
                )
            head = CachedMatch(outcome.version, entry.meta, entry.seats, state, clock=clock)
            self.cache.put(match_id, head)
            # This replica's watchers (the mover's own stream among them) get the
            # update now, not after the reader's next store read.
            self.feeds.committed_here(match_id, EventBatch(outcome.version, update_json), seat)
            if status == "active":
                asyncio.get_running_loop().call_soon(self._legal_ahead, match_id, head)
            else:
                await self._publish_lobby_entry(match_id, entry.meta, entry.seats, status)
            return committed, rendered
        if outcome.result == "duplicate":
            stored = await self._load(match_id)
            replayed = await self._replayed(stored, seat, request_id, record.notation)
            return None if replayed is None else (replayed, render(replayed))
        self.cache.forget(match_id)
        return None

    def _legal_ahead(self, match_id: str, head: CachedMatch) -> None:
        """Work out a cached head's legal actions for the next submission's check.

        Scheduled once the reply is on its way, so no caller waits for it. Skipped
        when a submission took the head meanwhile (it builds the list itself).
        """
        if self.cache.peek(match_id) is head:
            legal = tuple(head.state.legal_actions())
            self.cache.put(
                match_id,
                CachedMatch(head.version, head.meta, head.seats, head.state, legal, head.clock),
            )

    async def _replayed(
        self, stored: StoredMatch, seat: int, request_id: str, notation: str
    ) -> SubmitOutcome | None:
        """The original outcome of ``seat``'s already committed request, or None.

        Raises:
            RequestIdReused: that request committed another action than
                ``notation``: a new action needs a new request id, and silently
                answering with the old outcome would drop it.
        """
        version = await self.store.request_version(stored.match_id, request_key(seat, request_id))
        if version is None:
            return None
        batches = await self.store.events_after(stored.match_id, version - 1, limit=1)
        record = UpdateRecord.from_json(batches[0].events_json)
        game_id = self._meta(stored).game_id
        if not _same_action(game_id, record.notation, notation):
            raise errors.RequestIdReused(
                f"request id {request_id!r} already committed {record.notation!r} at "
                f"version {version}; send a new action with a new request id",
                {"committedVersion": version},
            )
        return SubmitOutcome(
            game_id,
            version,
            record.events_for(seat),
            record.status,
            True,
            request_id,
            record.current_seat,
        )

    # ----------------------------------------------------------- streaming
    async def watch(
        self, caller: Caller, match_id: str, from_version: int | None
    ) -> AsyncIterator[WatchItem]:
        """A snapshot (unless resuming), then every update, redacted; heartbeats when idle.

        Ends after the update that finishes the match. A stream opened with a
        seat's token ends with BadToken as soon as that token is revoked (the
        seat was handed to another bot worker, left or taken over), before any
        later update private to the seat: see :meth:`_still_holds`.
        """
        stored = await self._load(match_id)
        seat = self._seat_of(stored, caller)
        async for item, _ in self._stream_from(stored, seat, from_version, None, None):
            assert item is not None
            yield item

    async def _stream_from(
        self,
        stored: StoredMatch,
        seat: int | None,
        from_version: int | None,
        prompted: Caller | None,
        sink: Sink | None,
    ) -> AsyncIterator[PlayItem]:
        """:meth:`watch` of a match loaded at the stream's start, for ``seat``;
        with ``prompted`` (the seat's caller), each item with the seat's prompt
        when it must decide (see :meth:`play`).

        ``sink``: where the stream's items go when a commit is pushed to it
        (see :class:`_StreamSteps`); those items are not yielded.
        """
        meta = self._meta(stored)
        claim_json = None if seat is None else stored.seats[seat]
        game = get_game(meta.game_id)
        steps = _StreamSteps(self, game, stored.match_id, seat, claim_json, prompted, sink)
        # A stream that saw the match before its start reads from before it:
        # the start comes first, as a snapshot of the real deal (and the prompt).
        before_start = not is_started(meta, stored.seats) and not from_version
        if from_version is None:
            state = self._read_state(game, stored)
            snapshot = MatchSnapshot(self._summary(stored, meta, state), state.view(seat), seat)
            deciding = snapshot.summary.deciding
            legal = None
            if prompted is not None and claim_json is not None and seat in deciding:
                # The snapshot read off the cached head (_read_state) is used
                # before any await: its prompt then comes from that same head, at once.
                legal = await self._seat_prompt(
                    prompted, meta.game_id, stored.match_id, stored.version, seat, claim_json
                )
            yield PlayItem(snapshot, legal)
            steps.was_deciding = seat in deciding
            steps.cursor = stored.version
            if state.is_over():
                return
            if before_start:
                steps.cursor = -1
        else:
            if from_version > stored.version:
                raise errors.VersionAhead(
                    f"from_version {from_version} is ahead of the match (version {stored.version})",
                    {"currentVersion": stored.version},
                )
            steps.cursor = -1 if before_start else from_version
            if from_version == stored.version and stored.status == "finished":
                return
        push = None if sink is None else steps.push
        feed = self.feeds.updates(
            stored.match_id, steps.cursor, self.settings.heartbeat_s, seat, push
        )
        async for batch in feed:
            if batch is None:
                yield PlayItem(Heartbeat(max(steps.cursor, 0)), None)
                continue
            item = await steps.later(batch)
            if item is not None:
                yield item
            if steps.done:
                return

    def _update_for(
        self, game: Game, batch: EventBatch, record: UpdateRecord, seat: int | None
    ) -> MatchUpdate:
        """``record`` as ``seat`` receives it: one object per audience of a batch,
        shared by every stream of that audience on this replica."""
        key = (batch.events_json, record.audience_of(seat))
        update = self._updates.get(key)
        if update is not None:
            self._updates.move_to_end(key)
            return update
        notation = record.notation
        if seat != record.seat:
            notation = game.public_notation(notation)
        update = MatchUpdate(
            batch.version,
            record.seat,
            notation,
            record.events_for(seat),
            record.status,
            record.current_seat,
            record.clock,
            record.deciding_seats(),
            record.request_id if seat == record.seat else "",
            record.origin,
            record.origin_strategy,
        )
        self._updates[key] = update
        while len(self._updates) > _SHARED_UPDATES:
            self._updates.popitem(last=False)
        return update

    async def _still_holds(
        self, match_id: str, seat: int, claim_json: str, record: UpdateRecord, events: list[Event]
    ) -> bool:
        """Whether the claim a stream was opened with still holds ``seat`` as of
        ``record``.

        Claims change only on claim writes, never in a commit, so most updates
        answer this for free (:meth:`_holds_now`); the others are checked
        against the store (one read, only for those updates).
        """
        holds = self._holds_now(seat, claim_json, record, events)
        if holds is not None:
            return holds
        stored = await self._load(match_id)
        return stored.seats.get(seat) == claim_json

    @staticmethod
    def _holds_now(
        seat: int, claim_json: str, record: UpdateRecord, events: list[Event]
    ) -> bool | None:
        """:meth:`_still_holds` where the update answers it: a commit names the
        fingerprints of the claims it checked (the acting seat's, the next
        person's), and a different one for this seat means the token was
        revoked; an update with nothing private to the seat lets a later one
        decide. None: only the store can tell."""
        named = record.claims.get(str(seat))
        if named is not None:
            return named == claim_fingerprint(claim_json)
        if all(event.audience is None for event in events):
            return True
        return None

    async def play(
        self, caller: Caller, match_id: str, from_version: int | None, sink: Sink | None = None
    ) -> AsyncIterator[PlayItem]:
        """:meth:`watch` for a seat, with its prompts: each item comes with the
        seat's legal actions when the seat must decide at its version (and, when
        resuming, a prompt at ``from_version`` itself comes first, alone).

        The turn is checked on what the item says (the seats to decide) before any
        work, so the other seats' streams cost nothing per update; the seat's own
        prompt comes from this replica's cached head when it holds that version (the
        usual case: it committed the action), else from the store.

        Where several seats decide at once, a seat is prompted when it starts to
        decide and after each of its own moves, not when another deciding seat
        moves: its open prompt still stands then (see :meth:`_decision_stands`).

        ``sink``: takes the items made as commits are published (see
        :class:`_StreamSteps`), instead of their being yielded.
        """
        stored = await self._load(match_id)
        seat = self._acting_seat(stored, caller)
        if from_version is not None:
            # Updates start after from_version: if the seat must decide at it, no
            # update would ever prompt it (the other seats wait on it).
            game_id = self._meta(stored).game_id
            claim = stored.seats[seat]
            legal = await self._seat_prompt(caller, game_id, match_id, from_version, seat, claim)
            if legal is not None:
                yield PlayItem(None, legal)
        async for item in self._stream_from(stored, seat, from_version, caller, sink):
            yield item

    def _prompt_cached(
        self, game_id: str, match_id: str, version: int, seat: int, claim: str
    ) -> LegalActions | None:
        """``seat``'s prompt from the cached head, if it is at ``version`` and
        still knows the seat's claim as the stream opened with it; else None."""
        head = self.cache.peek(match_id)
        if head is None or head.version != version or head.seats.get(seat) != claim:
            return None
        if not is_started(head.meta, head.seats):
            return None  # a provisional deal, or claims cached before the last join
        if seat not in head.state.deciding_seats():
            return LegalActions(game_id, version, seat, [])
        if head.state.current_seat() != seat:  # one of several deciding at once
            return LegalActions(game_id, version, seat, _legal(head.state, seat))
        legal = head.legal
        if legal is None:
            legal = tuple(head.state.legal_actions())
            # Kept for the submission that follows (it skips working them out again).
            self.cache.put(
                match_id,
                CachedMatch(head.version, head.meta, head.seats, head.state, legal, head.clock),
            )
        state = head.state
        return LegalActions(
            game_id, version, seat, [LegalAction(a, a.notation(), state.describe(a)) for a in legal]
        )

    async def _seat_prompt(
        self, caller: Caller, game_id: str, match_id: str, version: int, seat: int, claim: str
    ) -> LegalActions | None:
        """``seat``'s prompt if it must decide at exactly ``version``: from the
        cached head when it serves, else from the store."""
        cached = self._prompt_cached(game_id, match_id, version, seat, claim)
        if cached is None:
            return await self.prompt(caller, match_id, version)
        return cached if cached.actions else None

    async def prompt(self, caller: Caller, match_id: str, version: int) -> LegalActions | None:
        """The caller's legal actions if it must decide at exactly ``version``."""
        stored = await self._load(match_id)
        if stored.version != version or not is_started(self._meta(stored), stored.seats):
            return None
        seat = self._seat_of(stored, caller)
        state = self._read_state(get_game(self._meta(stored).game_id), stored)
        if seat is None or seat not in state.deciding_seats():
            return None
        return LegalActions(self._meta(stored).game_id, stored.version, seat, _legal(state, seat))

    # ------------------------------------------------------------- leaving
    async def leave(self, caller: Caller, match_id: str) -> tuple[LeaveOutcome, MatchSummary]:
        """Give up the caller's seat for good (see LeaveMatch in the proto).

        Before the match starts the claim is removed and the seat reopens. After,
        the claim is replaced by one nobody holds the token of, marked with the
        takeover (the leave policy's bot strategy, or ZOMBIE when the player
        resigns), so the old token stops working at once, on every replica: each
        commit re-checks the acting seat's claim, and the claim of the seat it
        hands the turn to. When it is the seat's turn, its decision is posted
        before the claim changes, and again if the match moved meanwhile.
        """
        stored = await self._load(match_id)
        seat = self._acting_seat(stored, caller)
        meta = self._meta(stored)
        claim_json = stored.seats[seat]
        claim = SeatClaim.from_json(claim_json)
        if meta.seats[seat].kind == "bot" or claim.takeover:
            raise errors.BotSeat("a seat played by a bot cannot leave")
        state = self._state(get_game(meta.game_id), stored)
        if stored.status != "active" or state.is_over():
            raise GameOverError("the match is over")
        outcome: LeaveOutcome
        reopen: ReopenOutcome | None = None
        if stored.version == 0 and not is_started(meta, stored.seats):
            # The store reopens the seat only if the match has not started
            # since this load (the last open seat's claim and this are exclusive).
            reopen = await self.store.reopen_seat(stored.match_id, seat, claim_json)
            if reopen == "changed":
                raise errors.BadToken("this token no longer holds the seat")
            if reopen == "started":
                stored = await self._load(match_id)
                if stored.seats.get(seat) != claim_json:
                    raise errors.BadToken("this token no longer holds the seat")
        if reopen == "reopened":
            outcome = "reopened"
            self.cache.forget(stored.match_id)
            await self.public_summary_changed(stored.match_id)
        else:
            resign = meta.leave_policy == "resign"
            outcome = "resigned" if resign else "taken_over"
            takeover = ZOMBIE if resign else meta.leave_bot_strategy
            if not await self._take_over(stored, meta, seat, takeover):
                raise errors.BadToken("this token no longer holds the seat")
        fresh = await self._load(match_id)
        return outcome, self._summary(fresh, meta, self._state(get_game(meta.game_id), fresh))

    async def time_out(
        self, match_id: str, seat: int, version: int, posted_ms: int = 0
    ) -> TimeoutVerdict:
        """Apply the timeout policy if ``seat``'s decision at ``version`` is past
        its deadline (a ClockKeeper calls this for due entries).

        "bot_move": the server plays the decision (the minimal policy's seeded
        legal action, committed as the seat's own with a request id fixed by the
        version, so two replicas timing one decision out commit it once), and
        after ``handover_after`` timeouts in a row a person's seat is taken over
        by a bot for good. "resign": the seat resigns, as LeaveMatch would.

        Returns ("done", None) once applied; ("gone", None) when the decision
        was made meanwhile (or the match ended); ("later", deadline or None)
        when it is not due yet: its deadline is ahead, or the write that starts
        it has not landed (None: no deadline known yet).

        A fallback whose commit does not go through is judged again on fresh
        data, as a submission is: the head may have moved on (the seat acted:
        "gone"), or only a claim the commit checked changed (the other seat was
        just handed to a bot, or a worker to this one), and the decision is
        still due. Should commits keep failing, it is deferred, never dropped:
        nobody else acts for an idle player.

        An entry at another version than the match's, for a seat that must
        decide now, is that seat's only one (a queue keeps one per seat): a
        commit that posted it ahead and failed, or a slow replica's post over a
        newer one. The seat's deadline is posted again at the match's version
        (for an entry ahead, once ``posted_ms`` is LANDED_MS old).
        """
        for _attempt in range(_COMMIT_RETRIES):
            verdict = await self._time_out_once(match_id, seat, version, posted_ms)
            if verdict is not None:
                return verdict
        return "later", now_ms() + _TIMEOUT_RETRY_MS

    async def _time_out_once(
        self, match_id: str, seat: int, version: int, posted_ms: int
    ) -> TimeoutVerdict | None:
        """:meth:`time_out` on one load of the match; None when the fallback's
        commit did not go through."""
        try:
            stored = await self._load(match_id)
        except MatchNotFound:
            return "later", None  # created right after its first timeout was posted
        meta = self._meta(stored)
        control = _control_of(meta)
        if control is None or stored.status != "active":
            return "gone", None
        behind = stored.version > version and not await self.decision_stands(stored, seat, version)
        ahead = stored.version < version
        if behind or ahead:
            lost = behind or now_ms() - posted_ms > LANDED_MS
            if lost and seat in self._parsed(stored).state.deciding_seats():
                await self._post_deadline(
                    match_id, meta, stored.seats, stored.version, seat, _clock_of(stored)
                )
                return "gone", None
            # Ahead: the commit that starts this decision is on its way.
            return ("gone", None) if behind else ("later", None)
        entry = self._parsed(stored)
        clock = entry.clock
        state = entry.state
        if clock is None or seat not in state.deciding_seats():
            return "gone", None
        if not is_started(meta, stored.seats):
            return "later", None  # the join that starts the match is on its way
        deadline = clock.deadline_ms(control, seat, started_ms(meta, stored.seats))
        if now_ms() < deadline:
            return "later", deadline
        person = meta.seats[seat].kind == "open" and not _claim_takeover(stored.seats[seat])
        if control.timeout_policy == "resign" and person:
            await self._take_over(stored, meta, seat, ZOMBIE)
            return "done", None
        notation = _zombie_pick(meta, stored.version, state, seat)
        claim_json = stored.seats.get(seat)
        if notation is None:
            return "gone", None
        if claim_json is None:  # a bot seat no worker was handed yet
            claim_json = SeatClaim("bot", token_hash(new_token()), time.time()).to_json()
            await self.store.replace_seat_claim(match_id, seat, claim_json)
            entry = replace(entry, seats={**entry.seats, seat: claim_json})
        request = _Submission(_claim_token_hash(claim_json), notation, f"timeout-{seat}-{version}")
        try:
            done = await self._submit_on(
                match_id, entry, request, None, lambda outcome: None, fresh=True, timed_out=True
            )
        except (GameError, errors.ServiceError):
            return None  # the match changed under the load: judge again
        if done is None:
            return None
        handover = control.handover_after
        if person and handover and clock.timeouts[seat] + 1 >= handover:
            fresh = await self._load(match_id)
            counted = _clock_of(fresh)  # a timed-out choice that goes on counts when it ends
            if (
                fresh.seats.get(seat) == claim_json
                and fresh.status == "active"
                and counted is not None
                and counted.timeouts[seat] >= handover
            ):
                await self._take_over(fresh, meta, seat, control.handover_strategy or "random")
        return "done", None

    async def _take_over(
        self, stored: StoredMatch, meta: MatchMeta, seat: int, takeover: str
    ) -> bool:
        """Hand a person's seat to a bot (or to the minimal policy: ZOMBIE) for
        good, as a leave after the start does; whether the claim was swapped."""
        claim_json = stored.seats[seat]
        claim = SeatClaim.from_json(claim_json)
        nobody = token_hash(new_token())  # a token nobody is given
        new_json = replace(claim, token_hash=nobody, takeover=takeover).to_json()
        after = {**stored.seats, seat: new_json}
        state = self._state(get_game(meta.game_id), stored)
        if seat in state.deciding_seats():
            await self._post_bot_turn(stored.match_id, meta, after, stored.version, seat)
        if not await self.store.swap_seat_claim(stored.match_id, seat, claim_json, new_json):
            return False
        self.cache.forget(stored.match_id)
        fresh = await self._load(stored.match_id)
        if fresh.version != stored.version and fresh.status == "active":
            # A commit landed between the load and the swap without knowing.
            fresh_state = self._state(get_game(meta.game_id), fresh)
            if seat in fresh_state.deciding_seats():
                await self._post_bot_turn(fresh.match_id, meta, fresh.seats, fresh.version, seat)
        await self.public_summary_changed(stored.match_id)
        return True

    async def public_summary_changed(self, match_id: str) -> None:
        """Called wherever a match's public summary changes outside a commit (a
        seat reopens, is taken over or resigns): the lobby's entry follows."""
        await self.refresh_lobby_entry(match_id)

    def zombie_action(self, stored: StoredMatch, seat: int) -> str | None:
        """The minimal policy of a resigned seat: a legal action drawn with a
        generator seeded by a hash of the secret seed and salt, the version and
        the seat (reproducible, and revealing nothing of the seed); None when
        it is not the seat's turn."""
        meta = self._meta(stored)
        return _zombie_pick(meta, stored.version, self._state(get_game(meta.game_id), stored), seat)

    # -------------------------------------------------------------- export
    async def export(self, match_id: str) -> MatchExport:
        """Options, seed, salt and log of a finished match, for anyone to replay."""
        stored = await self._load(match_id)
        if stored.status != "finished":
            raise errors.MatchNotFinished(
                "only finished matches can be exported (the seed is secret)"
            )
        meta = self._meta(stored)
        state = self._state(get_game(meta.game_id), stored)
        log = await self.store.action_log(stored.match_id)
        actions = [logged_action(entry.version, entry.entry_json) for entry in log]
        return MatchExport(
            game_id=meta.game_id,
            options=dict(meta.options),
            seat_count=meta.seat_count,
            seed=meta.seed,
            salt=meta.salt,
            commitment=meta.commitment,
            actions=actions,
            scores=state.scores(),
            places=self._places(stored.seats, state),
            seed_chosen=meta.seed_chosen,
            entropy=seat_entropy(meta.seat_count, stored.seats),
            dealt_seed=meta.deal_seed(stored.seats),
        )

    # --------------------------------------------------------------- lobby
    async def list_matches(
        self, lobby_filter: LobbyFilter, page_size: int, page_token: str
    ) -> MatchPage:
        """One page of public match listings, newest first (see senet.service.lobby)."""
        return await self.lobby.page(lobby_filter, page_size, page_token)

    async def refresh_lobby_entry(self, match_id: str) -> None:
        """Rewrite a match's lobby entry from its current facts.

        Call it after every write that changes what the lobby shows of a match:
        a seat claimed or reopened, the status changed. Join and the commit that
        ends a match call it (through :meth:`_publish_lobby_entry`, with the
        facts at hand). It never raises: the write it follows is done, and a
        stale entry is repaired by the next reader that meets it.
        """
        try:
            stored = await self._load(match_id)
            meta = self._meta(stored)
        except (StoreError, errors.ServiceError) as exc:
            log.warning("lobby entry not refreshed", extra={"match_id": match_id, "error": exc})
            return
        await self._publish_lobby_entry(stored.match_id, meta, stored.seats, stored.status)

    async def _publish_lobby_entry(
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


@dataclass(frozen=True)
class _Submission:
    token_hash: str
    notation: str
    request_id: str


def _same_action(game_id: str, committed: str, sent: str) -> bool:
    """Whether ``sent`` (as a client wrote it) is the action committed as ``committed``."""
    if sent == committed:
        return True
    try:
        return get_game(game_id).parse_action(sent).notation() == committed
    except GameError:
        return False


def _seat_in(seats: Mapping[int, str], digest: str) -> int | None:
    """The seat whose claim holds the token of hash ``digest`` (compared in constant time)."""
    for seat, claim_json in seats.items():
        if secrets.compare_digest(_claim_token_hash(claim_json), digest):
            return seat
    return None


@functools.lru_cache(maxsize=8192)
def _claim_takeover(claim_json: str) -> str:
    """A stored claim's takeover ("" while its player holds it), parsed once."""
    return SeatClaim.from_json(claim_json).takeover


@functools.lru_cache(maxsize=8192)
def _claim_token_hash(claim_json: str) -> str:
    """A stored claim's token hash, parsed once: claims are immutable strings."""
    return SeatClaim.from_json(claim_json).token_hash


def _zombie_pick(meta: MatchMeta, version: int, state: GameState, seat: int) -> str | None:
    """The minimal policy's action (see MatchService.zombie_action)."""
    legal = state.legal_actions_for(seat)
    if not legal:
        return None
    digest = hashlib.sha256(f"{meta.salt}:{meta.seed}:zombie:{version}:{seat}".encode()).digest()
    rng = Rng(int.from_bytes(digest[:8], "big"))
    return str(legal[rng.below(len(legal))].notation())


def _clock_of(stored: StoredMatch) -> Clock | None:
    """The clocks in a loaded match's head (None: no clocks)."""
    return Clock.from_data(HeadDocument.from_json(stored.snapshot_json).clock)


def _control_of(meta: MatchMeta) -> TimeControl | None:
    return TimeControl.from_data(meta.time_control)


_MAX_CLOCK_MS = 7 * 24 * 3600 * 1000


def _check_time_control(control: TimeControl) -> None:
    """A time control is usable: some limit, nothing absurd, a known bot."""
    if not (control.decision_ms or control.reserve_ms):
        raise errors.MalformedRequest("a time control needs decision_ms or reserve_ms")
    for name in ("decision_ms", "reserve_ms", "increment_ms"):
        if not 0 <= getattr(control, name) <= _MAX_CLOCK_MS:
            raise errors.MalformedRequest(f"{name} must be 0-{_MAX_CLOCK_MS}")
    if control.increment_ms and not control.reserve_ms:
        raise errors.MalformedRequest("increment_ms needs a reserve_ms")
    if control.handover_strategy not in ("", *BOT_STRATEGIES):
        raise errors.MalformedRequest(
            f"handover_strategy must be one of {', '.join(BOT_STRATEGIES)}"
        )
    if control.handover_after and control.timeout_policy != "bot_move":
        raise errors.MalformedRequest("handover_after goes with TIMEOUT_POLICY_BOT_MOVE only")


def _legal(state: GameState, seat: int) -> list[LegalAction]:
    """``seat``'s legal actions with their labels: empty unless it must decide now."""
    if state.current_seat() == seat:
        actions = state.legal_actions()
    elif seat in state.deciding_seats():
        actions = state.legal_actions_for(seat)
    else:
        return []
    return [LegalAction(a, a.notation(), state.describe(a)) for a in actions]


class _StreamSteps:
    """What one watch or play stream makes of each committed batch after its start.

    A batch reaches a stream in one of two ways, and both go through here. While
    the stream waits, its feed pushes the batch to :meth:`push` where it is
    published: when the update answers the token check and the prompt comes from
    the cached head (the usual case), the item is made then and there and goes to
    the stream's sink, with no task woken and no generator resumed. Otherwise the
    push declines, and the stream's generator pulls the batch through
    :meth:`later`, which reads the store where it must. Either way the stream's
    cursor and its seat's last turn live here, so the two ways interleave.
    """

    __slots__ = (
        "claim_json", "cursor", "done", "game", "game_id", "match_id", "prompted", "seat",
        "service", "sink", "was_deciding",
    )  # fmt: skip

    def __init__(
        self,
        service: MatchService,
        game: Game,
        match_id: str,
        seat: int | None,
        claim_json: str | None,
        prompted: Caller | None,
        sink: Sink | None,
    ) -> None:
        self.service = service
        self.game = game
        self.game_id = game.info.id
        self.match_id = match_id
        self.seat = seat
        self.claim_json = claim_json
        #: The seat's caller when the stream prompts it (PlayMatch), else None.
        self.prompted = prompted
        self.sink = sink
        #: The last version the stream had; -1 before the start of a match it
        #: saw waiting for players.
        self.cursor = 0
        #: Whether the seat was to decide at that version.
        self.was_deciding = False
        #: Whether that version finished the match.
        self.done = False

    def _prompt_due(self, update: MatchUpdate) -> bool:
        """Whether the seat is prompted with ``update``: it is to decide after it,
        and either it made the move or it was not deciding before."""
        return (
            self.prompted is not None
            and self.seat in update.deciding
            and (update.seat == self.seat or not self.was_deciding)
        )

    def push(self, batch: EventBatch) -> bool:
        """``batch``'s item to the sink if it can be made without the store (and
        then None to the sink if the match is over); whether it was."""
        assert self.sink is not None
        if batch.version <= self.cursor:
            return True  # the start's snapshot was at this version or later
        if batch.is_start:
            return False  # its snapshot is read from the store
        service, seat, claim_json = self.service, self.seat, self.claim_json
        record, update = self._read(batch)
        legal = None
        if seat is not None and claim_json is not None:
            if service._holds_now(seat, claim_json, record, update.events) is not True:
                return False
            if self._prompt_due(update):
                legal = service._prompt_cached(
                    self.game_id, self.match_id, update.version, seat, claim_json
                )
                if legal is None:
                    return False
                if not legal.actions:
                    legal = None
        self.sink(PlayItem(update, legal))
        self._advance(update, record)
        if self.done:
            self.sink(None)
        return True

    async def later(self, batch: EventBatch) -> PlayItem | None:
        """``batch``'s item, read from the store where it must be; None for a
        version the stream already has.

        Raises:
            BadToken: the stream's token was revoked before this update.
        """
        if batch.version <= self.cursor:
            return None
        if batch.is_start:
            return await self._start()
        service, seat, claim_json = self.service, self.seat, self.claim_json
        record, update = self._read(batch)
        legal = None
        if seat is not None and claim_json is not None:
            if not await service._still_holds(
                self.match_id, seat, claim_json, record, update.events
            ):
                raise _revoked()
            if self.prompted is not None and self._prompt_due(update):
                legal = await service._seat_prompt(
                    self.prompted, self.game_id, self.match_id, update.version, seat, claim_json
                )
        self._advance(update, record)
        return PlayItem(update, legal)

    async def _start(self) -> PlayItem:
        """The start of a match the stream saw waiting: a snapshot of the match
        as it is now (the real deal, the seats to decide), with the seat's prompt.

        Raises:
            BadToken: the stream's seat was reopened (its player left) before.
        """
        service, seat, claim_json = self.service, self.seat, self.claim_json
        stored = await service._load(self.match_id)
        if seat is not None and stored.seats.get(seat) != claim_json:
            raise _revoked()
        meta = service._meta(stored)
        state = service._read_state(self.game, stored)
        snapshot = MatchSnapshot(service._summary(stored, meta, state), state.view(seat), seat)
        deciding = snapshot.summary.deciding
        legal = None
        if self.prompted is not None and claim_json is not None and seat in deciding:
            # As at a stream's start: the state read above is used before this await.
            legal = await service._seat_prompt(
                self.prompted, self.game_id, self.match_id, stored.version, seat, claim_json
            )
        self.cursor = stored.version
        self.was_deciding = seat in deciding
        self.done = state.is_over()
        return PlayItem(snapshot, legal)

    def _read(self, batch: EventBatch) -> tuple[UpdateRecord, MatchUpdate]:
        """``batch``'s stored record, and its update as the stream's seat receives it."""
        record = UpdateRecord.from_json(batch.events_json)
        return record, self.service._update_for(self.game, batch, record, self.seat)

    def _advance(self, update: MatchUpdate, record: UpdateRecord) -> None:
        self.cursor = update.version
        self.was_deciding = self.seat in update.deciding
        self.done = record.status == "finished"


def _revoked() -> errors.BadToken:
    return errors.BadToken(
        "this token was revoked: its seat now has another holder "
        "(a bot worker took the decision over, or the player left)"
    )
