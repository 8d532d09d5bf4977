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
import re
import secrets
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from senet.games import Event, Game, GameState, get_game
from senet.games.errors import (
    GameError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
)
from senet.service import errors
from senet.service.cache import CachedMatch, StateCache
from senet.service.feeds import FeedHub
from senet.service.ratelimit import RateLimiter
from senet.service.records import (
    Heartbeat,
    LegalAction,
    LegalActions,
    LoggedAction,
    MatchExport,
    MatchMeta,
    MatchSnapshot,
    MatchSummary,
    MatchUpdate,
    SeatClaim,
    SeatPlan,
    SeatSummary,
    Snapshot,
    Status,
    SubmitOutcome,
    UpdateRecord,
    dumps,
    loads,
    new_token,
    seed_commitment,
    token_hash,
)
from senet.service.settings import Settings
from senet.store import BotDecisionRef, CommitRequest, MatchStore, NewMatch, StoredMatch
from senet.store import SeatClaim as StoreSeatClaim

_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_REQUEST_ID_RE = re.compile(r"^[\x21-\x7e]{1,64}$")
_MAX_NAME = 40
_MAX_NOTATION = 200
_COMMIT_RETRIES = 5
BOT_STRATEGIES = ("random", "greedy", "mcts")

WatchItem = MatchSnapshot | MatchUpdate | Heartbeat
R = TypeVar("R")


@dataclass(frozen=True)
class Caller:
    """Who is calling: the bearer token (if any) and whether the admin key matched."""

    token: str | None = None
    is_admin: bool = False


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


def is_bot_turn(
    meta: MatchMeta, seats: Mapping[int, str], state: GameState, seat: int
) -> bool | None:
    """Whether bot seat ``seat`` must act now: None while the match waits for
    players (an open seat unclaimed), else whether it is that bot seat's turn."""
    if any(plan.kind == "open" and s not in seats for s, plan in enumerate(meta.seats)):
        return None
    return (
        0 <= seat < meta.seat_count
        and meta.seats[seat].kind == "bot"
        and not state.is_over()
        and state.current_seat() == seat
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
        self._bot_bell = asyncio.Event()

    # ------------------------------------------------------- bot decisions
    def bot_bell(self) -> asyncio.Event:
        """Set (then replaced) when this replica posts a bot decision: wakes the
        workers' waiting acquires at once (other replicas' posts are polled)."""
        return self._bot_bell

    def state_of(self, meta: MatchMeta, stored: StoredMatch) -> GameState:
        """The game state of a loaded match."""
        return self._state(get_game(meta.game_id), stored)

    async def _post_bot_turn(
        self, match_id: str, meta: MatchMeta, version: int, seat: int | None
    ) -> None:
        """Post a bot decision for ``seat`` at ``version`` if it is a bot seat.

        Called *before* the write that makes the decision due (a commit, the join
        that starts the match, a creation): if this replica dies between the two,
        the decision is already queued; if the write never lands, the queue
        drops the entry when a worker acquires it (see senet.service.bots_api).
        """
        if seat is None or not 0 <= seat < meta.seat_count:
            return
        plan = meta.seats[seat]
        if plan.kind != "bot":
            return
        now_ms = int(time.time() * 1000)
        await self.store.post_bot_decision(
            BotDecisionRef(match_id, seat, version), plan.bot_strategy, now_ms
        )
        self._bot_bell.set()
        self._bot_bell = asyncio.Event()

    # ------------------------------------------------------------- loading
    async def _load(self, match_id: str) -> StoredMatch:
        return await self.store.load(check_id(match_id))

    @staticmethod
    def _meta(stored: StoredMatch) -> MatchMeta:
        return MatchMeta.from_json(stored.meta_json)

    @staticmethod
    def _state(game: Game, stored: StoredMatch) -> GameState:
        return game.state_from_data(Snapshot.from_json(stored.snapshot_json).state)

    def _status(self, stored: StoredMatch) -> Status:
        if stored.status == "active":
            updated = Snapshot.from_json(stored.snapshot_json).updated_at
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
        if not self.limiter.allow(f"{stored.match_id}:{token_hash(caller.token)}"):
            raise errors.RateLimited("too many requests for this seat; slow down")
        return seat

    def _summary(
        self, stored: StoredMatch, meta: MatchMeta, state: GameState, version: int | None = None
    ) -> MatchSummary:
        seats = []
        for seat, plan in enumerate(meta.seats):
            claim_json = stored.seats.get(seat)
            claim = SeatClaim.from_json(claim_json) if claim_json else None
            seats.append(
                SeatSummary(
                    seat=seat,
                    kind=plan.kind,
                    display_name=claim.name if claim else "",
                    claimed=claim is not None,
                    bot_strategy=plan.bot_strategy,
                )
            )
        over = state.is_over()
        return MatchSummary(
            match_id=stored.match_id,
            game_id=meta.game_id,
            options=dict(meta.options),
            seats=seats,
            status=self._status(stored),
            version=stored.version if version is None else version,
            current_seat=state.current_seat(),
            commitment=meta.commitment,
            scores=state.scores(),
            places=state.ranking() if over else [],
        )

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
    ) -> MatchSnapshot:
        """Create a match at version 0 and return its public snapshot."""
        if self.settings.admin_key and not caller.is_admin:
            raise errors.AdminKeyRequired("this server requires the admin key to create matches")
        game = get_game(game_id)
        for plan in seats:
            if plan.kind == "bot" and plan.bot_strategy not in BOT_STRATEGIES:
                raise errors.MalformedRequest(
                    f"bot_strategy must be one of {', '.join(BOT_STRATEGIES)}"
                )
        real_seed = secrets.randbits(64) if seed is None else seed
        state = game.new_match(len(seats), options, real_seed)
        salt = secrets.token_hex(16)
        meta = MatchMeta(
            game_id=game.info.id,
            options=dict(state.options),
            seat_count=len(seats),
            seats=list(seats),
            seed=real_seed,
            salt=salt,
            commitment=seed_commitment(salt, real_seed),
            created_at=time.time(),
        )
        match_id = secrets.token_hex(8)
        snapshot = Snapshot(state.to_data(), time.time())
        if all(plan.kind == "bot" for plan in seats) and not state.is_over():
            # Started at creation: its first decision is due with it.
            await self._post_bot_turn(match_id, meta, 0, state.current_seat())
        await self.store.create(NewMatch(match_id, meta.to_json(), snapshot.to_json()))
        stored = StoredMatch(match_id, meta.to_json(), {}, 0, snapshot.to_json(), "active")
        return MatchSnapshot(self._summary(stored, meta, state), state.view(None), None)

    async def join(
        self, caller: Caller, match_id: str, seat: int | None, display_name: str
    ) -> tuple[int, str, MatchSummary]:
        """Claim a seat; returns (seat, token, summary). The token is shown only here."""
        name = check_display_name(display_name)
        stored = await self._load(match_id)
        meta = self._meta(stored)
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
        token = new_token()
        claim = SeatClaim(name, token_hash(token), time.time())
        if stored.status == "active":
            # This claim may be the one that starts the match: a bot to act then
            # has its decision queued first (an early entry waits for the claim).
            state = self._state(get_game(meta.game_id), stored)
            if not state.is_over():
                await self._post_bot_turn(
                    stored.match_id, meta, stored.version, state.current_seat()
                )
        for candidate in candidates:
            if await self.store.claim_seat(
                stored.match_id, StoreSeatClaim(candidate, claim.to_json())
            ):
                fresh = await self._load(match_id)
                entry = self._parsed(fresh)
                summary = self._summary(fresh, meta, entry.state)
                # The seat's first action here then needs no load of its own.
                self.cache.put(fresh.match_id, entry)
                return candidate, token, summary
        if seat is not None:
            raise errors.SeatTaken(f"seat {seat} is already taken")
        raise errors.NoOpenSeat("every open seat of this match is taken")

    async def get(self, caller: Caller, match_id: str) -> MatchSnapshot:
        stored = await self._load(match_id)
        meta = self._meta(stored)
        seat = self._seat_of(stored, caller)
        state = self._state(get_game(meta.game_id), stored)
        return MatchSnapshot(self._summary(stored, meta, state), state.view(seat), seat)

    async def legal_actions(self, caller: Caller, match_id: str) -> LegalActions:
        stored = await self._load(match_id)
        seat = self._acting_seat(stored, caller)
        game_id = self._meta(stored).game_id
        state = self._state(get_game(game_id), stored)
        return LegalActions(game_id, stored.version, seat, _legal(state, seat))

    async def version_of(self, match_id: str) -> int:
        """The current version of a match."""
        return (await self._load(match_id)).version

    async def game_of(self, match_id: str) -> str:
        """The game id of a match."""
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
        if request_id and not _REQUEST_ID_RE.match(request_id):
            raise errors.MalformedRequest("request_id must be 1-64 printable ASCII characters")
        if not isinstance(notation, str) or len(notation) > _MAX_NOTATION:
            raise errors.MalformedRequest(f"action notation is limited to {_MAX_NOTATION} chars")
        if caller.token is None:
            raise errors.TokenRequired("send the seat token as 'authorization: Bearer <token>'")
        digest = token_hash(caller.token)
        request = _Submission(digest, notation, request_id or "srv-" + secrets.token_hex(12))
        if not self.limiter.allow(f"{match_id}:{digest}"):
            raise errors.RateLimited("too many requests for this seat; slow down")
        cached = self.cache.get(match_id)
        if cached is not None and expected_version in (None, cached.version):
            self.cache.forget(match_id)  # this submission owns the cached state now
            try:
                done = await self._submit_on(match_id, cached, request, action_game, render)
            except (GameError, errors.ServiceError):
                done = None  # decide again on fresh data
            if done is not None:
                return done
        for _attempt in range(_COMMIT_RETRIES):
            stored = await self._load(match_id)
            entry = self._parsed(stored)
            if expected_version is not None and expected_version != stored.version:
                self.cache.put(match_id, entry)
                seat = self._seat_of(stored, caller)
                assert seat is not None
                replayed = await self._replayed(stored, seat, request.request_id)
                if replayed is not None:
                    return replayed, render(replayed)
                raise errors.StaleVersion(
                    f"the match is at version {stored.version}, not {expected_version}"
                )
            done = await self._submit_on(match_id, entry, request, action_game, render, fresh=True)
            if done is not None:
                return done
            if expected_version is not None:
                raise errors.StaleVersion("the match moved on meanwhile; reload and retry")
            # Somebody else committed between our load and commit: redo on the new head.
        raise errors.StaleVersion("the match is changing too fast; retry")

    def _parsed(self, stored: StoredMatch) -> CachedMatch:
        """A loaded match, parsed into what the cache keeps."""
        meta = self._meta(stored)
        return CachedMatch(
            stored.version, meta, dict(stored.seats), self._state(get_game(meta.game_id), stored)
        )

    async def _submit_on(
        self,
        match_id: str,
        entry: CachedMatch,
        request: _Submission,
        action_game: str | None,
        render: Callable[[SubmitOutcome], R],
        fresh: bool = False,
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
        try:
            record, events = self._apply(entry, seat, request.notation, action_game)
        except (NotYourTurnError, GameOverError, IllegalActionError):
            self.cache.put(match_id, entry)
            if fresh:
                # A retry of a request that went through meanwhile: its outcome.
                stored = await self._load(match_id)
                replayed = await self._replayed(stored, seat, request.request_id)
                if replayed is not None:
                    return replayed, render(replayed)
            raise
        except MalformedActionError:
            self.cache.put(match_id, entry)
            raise
        return await self._commit(match_id, entry, request.request_id, record, events, render)

    @staticmethod
    def _apply(
        entry: CachedMatch, seat: int, notation: str, action_game: str | None
    ) -> tuple[UpdateRecord, list[Event]]:
        """Apply ``seat``'s action to ``entry.state`` in place; the update it makes
        (at the next version) and the core's events.

        Checked against ``entry.legal`` when the legal actions are already known.

        Raises:
            MalformedActionError: the action is for another game or unreadable.
            NotYourTurnError, GameOverError, IllegalActionError: the rules core
                refused it. Nothing is changed when any of these is raised.
        """
        if action_game is not None and action_game != entry.meta.game_id:
            raise MalformedActionError(
                f"a {action_game} action was sent to a {entry.meta.game_id} match"
            )
        state = entry.state
        action = state.coerce_action(notation)
        events = state.apply(seat, action, legal=entry.legal)
        record = UpdateRecord(
            entry.version + 1,
            seat,
            action.notation(),
            [e.to_data() for e in events],
            "finished" if state.is_over() else "active",
            state.current_seat(),
        )
        return record, events

    async def _commit(
        self,
        match_id: str,
        entry: CachedMatch,
        request_id: str,
        record: UpdateRecord,
        events: list[Event],
        render: Callable[[SubmitOutcome], R],
    ) -> tuple[SubmitOutcome, R] | None:
        """Commit ``entry``'s applied state as ``record`` at ``entry.version``; the
        outcome and its rendered reply, or None when the head moved on.

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
        log_entry = dumps(
            {"seat": seat, "notation": record.notation, "request_id": request_id, "at": now}
        )
        if status == "active":
            await self._post_bot_turn(match_id, entry.meta, record.version, record.current_seat)
        pending = self.store.start_commit(
            match_id,
            CommitRequest(
                expected_version=entry.version,
                request_key=key,
                log_entry_json=log_entry,
                events_json=record.to_json(),
                snapshot_json=Snapshot(state.snapshot_data(), now).to_json(),
                status=status,
                seat=seat,
                seat_claim_json=entry.seats[seat],
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
            head = CachedMatch(outcome.version, entry.meta, entry.seats, state)
            self.cache.put(match_id, head)
            if status == "active":
                asyncio.get_running_loop().call_soon(self._legal_ahead, match_id, head)
            return committed, rendered
        if outcome.result == "duplicate":
            stored = await self._load(match_id)
            replayed = await self._replayed(stored, seat, request_id)
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
                match_id, CachedMatch(head.version, head.meta, head.seats, head.state, legal)
            )

    async def _replayed(
        self, stored: StoredMatch, seat: int, request_id: str
    ) -> SubmitOutcome | None:
        """The original outcome of ``seat``'s already committed request, or None."""
        version = await self.store.request_version(stored.match_id, request_key(seat, request_id))
        if version is None:
            return None
        batches = await self.store.events_after(stored.match_id, version - 1, limit=1)
        record = UpdateRecord.from_json(batches[0].events_json)
        return SubmitOutcome(
            self._meta(stored).game_id,
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

        Ends after the update that finishes the match.
        """
        stored = await self._load(match_id)
        meta = self._meta(stored)
        seat = self._seat_of(stored, caller)
        game = get_game(meta.game_id)
        if from_version is None:
            state = self._state(game, stored)
            yield MatchSnapshot(self._summary(stored, meta, state), state.view(seat), seat)
            cursor = stored.version
            if state.is_over():
                return
        else:
            if from_version > stored.version:
                raise errors.MalformedRequest(
                    f"from_version {from_version} is ahead of the match (version {stored.version})"
                )
            cursor = from_version
            if from_version == stored.version and stored.status == "finished":
                return
        async for batch in self.feeds.updates(stored.match_id, cursor, self.settings.heartbeat_s):
            if batch is None:
                yield Heartbeat(cursor)
                continue
            record = UpdateRecord.from_json(batch.events_json)
            cursor = batch.version
            notation = record.notation
            if seat != record.seat:
                notation = game.public_notation(notation)
            yield MatchUpdate(
                batch.version,
                record.seat,
                notation,
                record.events_for(seat),
                record.status,
                record.current_seat,
            )
            if record.status == "finished":
                return

    async def prompt(self, caller: Caller, match_id: str, version: int) -> LegalActions | None:
        """The caller's legal actions if it must decide at exactly ``version``."""
        stored = await self._load(match_id)
        if stored.version != version:
            return None
        seat = self._seat_of(stored, caller)
        state = self._state(get_game(self._meta(stored).game_id), stored)
        if seat is None or state.current_seat() != seat:
            return None
        return LegalActions(self._meta(stored).game_id, stored.version, seat, _legal(state, seat))

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
        actions = []
        for entry in log:
            raw = loads(entry.entry_json)
            actions.append(LoggedAction(entry.version, raw["seat"], raw["notation"]))
        return MatchExport(
            game_id=meta.game_id,
            options=dict(meta.options),
            seat_count=meta.seat_count,
            seed=meta.seed,
            salt=meta.salt,
            commitment=meta.commitment,
            actions=actions,
            scores=state.scores(),
            places=state.ranking(),
        )


@dataclass(frozen=True)
class _Submission:
    token_hash: str
    notation: str
    request_id: str


def _seat_in(seats: Mapping[int, str], digest: str) -> int | None:
    """The seat whose claim holds the token of hash ``digest`` (compared in constant time)."""
    for seat, claim_json in seats.items():
        if secrets.compare_digest(_claim_token_hash(claim_json), digest):
            return seat
    return None


@functools.lru_cache(maxsize=8192)
def _claim_token_hash(claim_json: str) -> str:
    """A stored claim's token hash, parsed once: claims are immutable strings."""
    return SeatClaim.from_json(claim_json).token_hash


def _legal(state: GameState, seat: int) -> list[LegalAction]:
    if state.current_seat() != seat:
        return []
    return [LegalAction(a, a.notation(), state.describe(a)) for a in state.legal_actions()]
