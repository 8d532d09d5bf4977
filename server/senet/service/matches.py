"""The match service: every match operation, independent of gRPC.

Each call loads what it needs from the store, authorizes the caller, lets the rules
core decide, and commits with compare-and-swap on the match version. The store is
the only source of truth, so any number of replicas can serve the same match.

A replica keeps one thing between calls: a cache of the latest state it saw of
each recent match (:mod:`senet.service.cache`), so that the next action of a match
it just served is applied without a load. Every commit still compares and swaps
the version in the store: a cache left behind by another replica's commit costs a
reload and a retry, never a wrong result.

:class:`MatchService` is a façade: each use case lives in a module of its own,
as functions over one :class:`~senet.service.access.MatchAccess` (this
replica's store, settings, cache, feeds, lobby and rate limiter):

- :mod:`~senet.service.creation`: CreateMatch and JoinMatch;
- :mod:`~senet.service.rematches`: RequestRematch, DeclineRematch;
- :mod:`~senet.service.queries`: GetMatch, ListLegalActions, ExportMatch;
- :mod:`~senet.service.submissions`: SubmitAction (apply, commit, replay), with
  :mod:`~senet.service.commit_plan` (what a commit writes and posts, a pure
  function) and :mod:`~senet.service.dues` (what a new version makes due: bot
  decisions and deadlines);
- :mod:`~senet.service.streams`: WatchMatch and PlayMatch, with
  :mod:`~senet.service.stream_steps` (each batch of the feed, per stream) and
  :mod:`~senet.service.prompts` (a seat's legal actions at a version);
- :mod:`~senet.service.handover`: LeaveMatch, turn timeouts, takeovers.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import TypeVar

from senet.games import Game, GameState, get_game
from senet.service import (
    creation,
    dues,
    handover,
    prompts,
    queries,
    rematches,
    streams,
    submissions,
)
from senet.service.access import (
    Caller,
    MatchAccess,
    check_id,
    is_bot_turn,
    is_started,
    meta_of,
    places_with_resigned,
    state_of,
)
from senet.service.clocks import TimeControl
from senet.service.handover import LANDED_MS, TimeoutVerdict
from senet.service.lobby import LobbyFilter, MatchPage
from senet.service.records import LeaveOutcome, LeavePolicy, MatchMeta, SeatPlan
from senet.service.settings import Settings
from senet.service.stream_steps import PlayItem, Sink, WatchItem
from senet.service.submissions import another_game_message
from senet.service.views import (
    LegalActions,
    MatchExport,
    MatchSnapshot,
    MatchSummary,
    SubmitOutcome,
)
from senet.store import MatchStore, StoredMatch

R = TypeVar("R")

__all__ = [
    "LANDED_MS",
    "Caller",
    "MatchService",
    "PlayItem",
    "Sink",
    "TimeoutVerdict",
    "WatchItem",
    "another_game_message",
    "check_id",
    "is_bot_turn",
    "is_started",
    "places_with_resigned",
]


class MatchService:
    """Match operations over a :class:`MatchStore`."""

    def __init__(self, store: MatchStore, settings: Settings, cache_size: int = 4096) -> None:
        self.access = MatchAccess(store, settings, cache_size)
        self.store = store
        self.settings = settings
        self.limiter = self.access.limiter
        self.cache = self.access.cache
        self.feeds = self.access.feeds
        self.lobby = self.access.lobby

    # ------------------------------------------------------- bot decisions
    def bot_bell(self) -> asyncio.Event:
        """Set (then replaced) when this replica posts a bot decision: wakes the
        workers' waiting acquires at once (other replicas' posts are polled)."""
        return self.access.bot_bell

    def state_of(self, meta: MatchMeta, stored: StoredMatch) -> GameState:
        """The game state of a loaded match."""
        return state_of(get_game(meta.game_id), stored)

    async def post_bot_turn(self, stored: StoredMatch, seat: int) -> None:
        """Post ``seat``'s decision again at the stored version (see
        senet.service.bots_api: an entry whose write never landed)."""
        meta = meta_of(stored)
        due = dues.bot_post(stored.match_id, meta, stored.seats, stored.version, seat)
        await dues.post(self.access, [due] if due is not None else [])

    # ------------------------------------------------- creating and joining
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
        *,
        unlisted: bool = False,
        rated: bool = False,
    ) -> MatchSnapshot:
        """Create a match at version 0 and return its public snapshot.

        With a ``request_id``, a retry returns the match the first call created
        (its current public snapshot) and never creates a second one; see
        :mod:`senet.service.idempotency`. An ``unlisted`` match is left out of
        the lobby; a ``rated`` one says its result settles into ratings.
        """
        return await creation.create_match(
            self.access,
            caller,
            game_id,
            options,
            seats,
            seed,
            leave_policy,
            leave_bot_strategy,
            time_control,
            request_id,
            unlisted=unlisted,
            rated=rated,
        )

    async def join(
        self,
        caller: Caller,
        match_id: str,
        seat: int | None,
        display_name: str,
        *,
        request_id: str = "",
        entropy: str = "",
        subject: str = "",
        keeper: bool = False,
    ) -> tuple[int, str, MatchSummary]:
        """Claim a seat; returns (seat, token, summary), the token shown only here
        (see :func:`senet.service.creation.join`: retries with a ``request_id``,
        ``entropy``, ``subject``, ``keeper``)."""
        return await creation.join(
            self.access,
            caller,
            match_id,
            seat,
            display_name,
            request_id=request_id,
            entropy=entropy,
            subject=subject,
            keeper=keeper,
        )

    async def request_rematch(
        self, caller: Caller, match_id: str, entropy: str = ""
    ) -> tuple[int, str, MatchSummary]:
        """Ask for the rematch of a finished match: (seat, token, the rematch's
        summary); see :mod:`senet.service.rematches`."""
        return await rematches.request_rematch(self.access, caller, match_id, entropy)

    async def decline_rematch(self, caller: Caller, match_id: str) -> MatchSummary:
        """Decline the rematch of a finished match: the finished match's summary;
        see :mod:`senet.service.rematches`."""
        return await rematches.decline_rematch(self.access, caller, match_id)

    # ------------------------------------------------------------- reading
    async def get(self, caller: Caller, match_id: str) -> MatchSnapshot:
        return await queries.get(self.access, caller, match_id)

    async def legal_actions(self, caller: Caller, match_id: str) -> LegalActions:
        """The caller's legal actions now: none unless its seat must decide (and none
        before the match starts: nobody may move until every open seat is claimed)."""
        return await queries.legal_actions(self.access, caller, match_id)

    async def version_of(self, match_id: str) -> int:
        """The current version of a match."""
        return (await self.access.load(match_id)).version

    async def game_of(self, match_id: str) -> str:
        """The game id of a match (from the cached head when this replica holds one)."""
        return await queries.game_of(self.access, match_id)

    async def export(self, match_id: str) -> MatchExport:
        """Options, seed, salt and log of a finished match, for anyone to replay."""
        return await queries.export(self.access, match_id)

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
        path reloads from the store and decides on fresh data (see
        :mod:`senet.service.submissions`).
        """
        return await submissions.submit(
            self.access,
            caller,
            match_id,
            notation,
            expected_version,
            request_id,
            action_game,
            render,
        )

    async def decision_stands(self, stored: StoredMatch, seat: int, version: int) -> bool:
        """Whether ``seat``'s decision made at ``version`` still stands at the
        stored version (see :func:`senet.service.submissions.decision_stands`)."""
        return await submissions.decision_stands(self.access, stored, seat, version)

    # ----------------------------------------------------------- streaming
    def watch(
        self, caller: Caller, match_id: str, from_version: int | None
    ) -> AsyncIterator[WatchItem]:
        """A snapshot (unless resuming), then every update, redacted; heartbeats
        when idle (see :func:`senet.service.streams.watch`)."""
        return streams.watch(self.access, caller, match_id, from_version)

    def play(
        self, caller: Caller, match_id: str, from_version: int | None, sink: Sink | None = None
    ) -> AsyncIterator[PlayItem]:
        """:meth:`watch` for a seat, with its prompts (see
        :func:`senet.service.streams.play`)."""
        return streams.play(self.access, caller, match_id, from_version, sink)

    async def prompt(self, caller: Caller, match_id: str, version: int) -> LegalActions | None:
        """The caller's legal actions if it must decide at exactly ``version``."""
        return await prompts.prompt(self.access, caller, match_id, version)

    # ------------------------------------------------------------- leaving
    async def leave(self, caller: Caller, match_id: str) -> tuple[LeaveOutcome, MatchSummary]:
        """Give up the caller's seat for good (see LeaveMatch in the proto, and
        :func:`senet.service.handover.leave`)."""
        return await handover.leave(self.access, caller, match_id)

    async def time_out(
        self, match_id: str, seat: int, version: int, posted_ms: int = 0
    ) -> TimeoutVerdict:
        """Apply the timeout policy if ``seat``'s decision at ``version`` is past
        its deadline (see :func:`senet.service.handover.time_out`)."""
        return await handover.time_out(self.access, match_id, seat, version, posted_ms)

    def zombie_action(self, stored: StoredMatch, seat: int) -> str | None:
        """The minimal policy's action for a resigned ``seat`` (see
        :func:`senet.service.handover.zombie_pick`)."""
        meta = meta_of(stored)
        state = state_of(get_game(meta.game_id), stored)
        return handover.zombie_pick(meta, stored.version, state, seat)

    # --------------------------------------------------------------- lobby
    async def list_matches(
        self, lobby_filter: LobbyFilter, page_size: int, page_token: str
    ) -> MatchPage:
        """One page of public match listings, newest first (see senet.service.lobby)."""
        return await self.lobby.page(lobby_filter, page_size, page_token)

    async def refresh_lobby_entry(self, match_id: str) -> None:
        """Rewrite a match's lobby entry from its current facts (see
        :meth:`senet.service.access.MatchAccess.refresh_lobby_entry`)."""
        await self.access.refresh_lobby_entry(match_id)
