"""The match store interface.

A match is stored as:

* **meta**: immutable facts fixed at creation (game, options, seat plan, seed and
  its commitment), one JSON document;
* **seats**: one claim per seat (display name, token hash), written at most once
  per seat (claim-if-absent), so two players can never hold the same seat;
* **head**: the current ``version`` (number of committed actions), the state
  snapshot (JSON) and the match status;
* **log**: the append-only list of committed actions, one per version;
* **events**: one batch of game events per version, readable from any version on,
  with blocking reads for live watchers;
* **requests**: per (seat, client request id), the version that request produced,
  so a retried request returns the original result instead of applying twice.

Every commit is atomic and compare-and-swap on ``version``: it checks the request
id first (duplicate -> the original outcome), then the expected version (stale ->
conflict), then writes head, log entry, events and request id together.

Documents are opaque JSON strings to the store; the application layer owns their
shape. All methods are async and raise :class:`StoreUnavailable` when the backing
service cannot be reached, :class:`MatchNotFound` for unknown (or expired) matches.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

MatchStatus = Literal["active", "finished", "abandoned"]
#: The bot-decision queues: bot workers serve BOTS; replicas serve ZOMBIES and
#: CLOCKS (timeouts: entries become due at their deadline).
BotQueue = Literal["bots", "zombies", "clocks"]
BOTS: BotQueue = "bots"
ZOMBIES: BotQueue = "zombies"
CLOCKS: BotQueue = "clocks"


class StoreError(Exception):
    """Base class of storage failures."""


class StoreUnavailable(StoreError):
    """The backing store cannot be reached (the server answers UNAVAILABLE)."""


class MatchNotFound(StoreError):
    """No match with that id exists (or it expired)."""


class CorruptMatch(StoreError):
    """A match's stored values are not what a store writes (a head version that is
    not a number, an unknown status, a document that does not parse): the match
    exists but cannot be read. The server answers INTERNAL, reason CORRUPT_STATE."""

    def __init__(self, match_id: str, detail: str) -> None:
        super().__init__(f"match {match_id!r} is corrupt: {detail}")
        self.match_id = match_id


class MatchExists(StoreError):
    """A match with that id already exists: :meth:`MatchStore.create` refused to
    overwrite it. With ids derived from a creation key, that is the same creation
    done before (a retry), which the service answers with the existing match."""


@dataclass(frozen=True)
class NewMatch:
    """Everything written when a match is created (version 0)."""

    match_id: str
    meta_json: str
    snapshot_json: str
    status: MatchStatus = "active"
    #: Waiting for players: kept only the store's waiting TTL (not the idle TTL)
    #: until the claim that starts it (see :meth:`MatchStore.claim_seat`) or
    #: its first commit.
    waiting: bool = False


@dataclass(frozen=True)
class ClaimWrite:
    """A seat claim to write (:meth:`MatchStore.claim_seat`): the seat and its
    claim document (``senet.service.records.SeatClaim`` JSON), opaque here.

    A claim is written when a seat is claimed; it is replaced later only by a
    whole new claim (:meth:`MatchStore.replace_seat_claim`,
    :meth:`MatchStore.swap_seat_claim`: a bot worker's lease, a takeover), never
    edited, so equal claim JSON means the same holder.
    """

    seat: int
    claim_json: str


@dataclass(frozen=True)
class StoredMatch:
    """A consistent read of a match: meta, seat claims and head at one version."""

    match_id: str
    meta_json: str
    seats: dict[int, str]
    version: int
    snapshot_json: str
    status: MatchStatus


@dataclass(slots=True)
class CommitRequest:
    """One action to commit on top of ``expected_version`` (a per-call value:
    slotted, not frozen, see docs/performance.md).

    Attributes:
        request_key: Idempotency key, unique per match (the app uses
            ``"<seat>:<client request id>"``).
        log_entry_json: The action as logged (seat, notation, request id, time).
        events_json: The batch of events this version produced (all audiences;
            redaction happens when they are read).
        snapshot_json: The state after the action.
        status: Match status after the action.
    """

    expected_version: int
    request_key: str
    log_entry_json: str
    events_json: str
    snapshot_json: str
    status: MatchStatus
    #: The acting seat and its claim as the caller saw it; when set, the commit is
    #: a conflict unless the seat's claim is still exactly this one (a bot seat's
    #: claim is replaced on every hand-over, so a stale cached claim cannot act).
    seat: int | None = None
    seat_claim_json: str | None = None
    #: The seat to act next and its claim as the caller saw it (None: unclaimed);
    #: when set, the commit is a conflict unless that claim is unchanged. A seat
    #: taken over by a bot or resigned changes its claim, and the commit that
    #: hands it the turn must know, to queue its decision.
    next_seat: int | None = None
    next_seat_claim_json: str | None = None


@dataclass(slots=True)
class CommitOutcome:
    """What a commit did (a per-call value: slotted, not frozen).

    ``result`` is ``"committed"`` (``version`` is the new version),
    ``"duplicate"`` (the request key was already committed: ``version`` is the
    version that request produced, nothing was written) or ``"conflict"``
    (``version`` is the current version, which differs from the expected one;
    nothing was written).
    """

    result: Literal["committed", "duplicate", "conflict"]
    version: int


@dataclass(slots=True)
class EventBatch:
    """The events that version ``version`` produced (a JSON list); one per
    commit and per batch read (a per-call value: slotted, not frozen).

    Version 0 is the start of a match that waited for players: the claim of its
    last open seat (see :meth:`MatchStore.claim_seat`). It has no events, and
    only a read from before the start (version -1) returns it.
    """

    version: int
    events_json: str

    @property
    def is_start(self) -> bool:
        """Whether this is the start of the match, not a commit."""
        return self.version == 0


#: What reopening a seat did (see :meth:`MatchStore.reopen_seat`).
ReopenOutcome = Literal["reopened", "changed", "started"]


@dataclass(frozen=True)
class LogEntry:
    version: int
    entry_json: str


@dataclass(frozen=True)
class BotDecisionRef:
    """One bot decision: a bot seat of a match, to act at match version ``version``."""

    match_id: str
    seat: int
    version: int


@dataclass(frozen=True)
class BotDecisionLease:
    """A bot decision just leased to a worker, until ``expires_ms`` (Unix ms).

    ``posted_ms`` is when the decision was last posted: the write that makes it
    due follows the post, so a young entry whose match is not there yet is
    deferred, an old one dropped.
    """

    match_id: str
    seat: int
    version: int
    strategy: str
    expires_ms: int
    posted_ms: int

    @property
    def ref(self) -> BotDecisionRef:
        return BotDecisionRef(self.match_id, self.seat, self.version)


@dataclass(frozen=True)
class Durability:
    """Whether the backing store keeps matches across its own restart.

    Attributes:
        persistent: True when every node writes to disk (an append-only file or
            snapshots), False when one does not, None when the store will not
            say (a managed Redis may refuse CONFIG).
        detail: What was found, for logs and operators ("appendonly", "RDB
            snapshots 3600 1", "none", "in-memory").
        instance: Identity of the running store process(es); it changes when the
            store restarts, so a restart of a store without persistence (every
            match lost) can be told apart from an outage.
        by_design: The store cannot persist at all (the embedded in-memory one):
            nothing to warn an operator about.
    """

    persistent: bool | None
    detail: str
    instance: str
    by_design: bool = False


class MatchStore(ABC):
    """Where matches live. Implementations: in memory, and Redis."""

    @abstractmethod
    async def create(self, match: NewMatch) -> None:
        """Write a new match at version 0 (fails with MatchExists if the id exists)."""

    @abstractmethod
    async def load(self, match_id: str) -> StoredMatch:
        """Read meta, seat claims and head consistently."""

    @abstractmethod
    async def claim_seat(
        self, match_id: str, claim: ClaimWrite, starting: Sequence[int] = ()
    ) -> bool:
        """Claim a seat if nobody holds it; ``False`` if it is already taken.

        ``starting``: the seats whose claims start the match (its open seats).
        The claim that completes them starts it, in the same atomic step: the
        start (:attr:`EventBatch.is_start`) is written for the watchers, the
        match gets the idle TTL, and :meth:`reopen_seat` refuses from then on.
        """

    @abstractmethod
    async def commit(self, match_id: str, request: CommitRequest) -> CommitOutcome:
        """Atomically append one action (see the module docstring)."""

    def start_commit(self, match_id: str, request: CommitRequest) -> Awaitable[CommitOutcome]:
        """Begin :meth:`commit` and return its outcome to await.

        A store that can put the commit on its way before returning does so,
        so the caller can do useful work during the round trip; the awaitable
        must be awaited. The default starts the commit only when awaited.
        """
        return self.commit(match_id, request)

    @abstractmethod
    async def request_version(self, match_id: str, request_key: str) -> int | None:
        """The version a committed request key produced, or None if never committed."""

    @abstractmethod
    async def events_after(
        self, match_id: str, version: int, limit: int = 1000, block_ms: int = 0
    ) -> list[EventBatch]:
        """Event batches with version > ``version``, oldest first, at most ``limit``.

        ``version`` -1 reads from before the start: a match started by a claim
        (see :meth:`claim_seat`) then begins with its start, batch version 0.

        With ``block_ms > 0`` and nothing newer yet, wait up to that long for a
        commit (from any replica) before returning (possibly an empty list).
        """

    #: Most matches one :meth:`events_after_many` call may wait on; 0 when the
    #: store cannot wait on many at once (watchers then read match by match).
    multi_read_limit: int = 0

    async def events_after_many(
        self, cursors: Mapping[str, int], limit: int = 1000, block_ms: int = 0
    ) -> dict[str, list[EventBatch]]:
        """For each match of ``cursors`` (match id -> version), its event batches
        after that version, waiting up to ``block_ms`` for a commit to any of
        them: one wait (one connection) for many watched matches. Matches with
        nothing new may be left out; a match that does not exist is never an
        error here (its watchers learn it from :meth:`events_after`).
        Only for stores with ``multi_read_limit > 0``.
        """
        raise NotImplementedError(f"{type(self).__name__} reads match by match")

    async def events_following(
        self, match_id: str, cursor: Callable[[], int], limit: int, block_ms: int
    ) -> list[EventBatch]:
        """:meth:`events_after` ``cursor()`` with ``block_ms``, for a caller
        that may learn of commits another way while it waits (a replica's feeds
        publish their own commits at once). The batches returned follow
        ``cursor()`` as it stands when they are read.

        This default reads after ``cursor()`` as it stands at the call, and a
        commit ends the wait whether or not the caller has it by then. A store
        that learns of every commit as it is made (one in this process) can do
        better and should: ask ``cursor()`` again after each commit, a loop turn
        later, so that a commit the caller already covers does not end the wait.
        """
        return await self.events_after(match_id, cursor(), limit, block_ms=block_ms)

    @abstractmethod
    async def action_log(self, match_id: str) -> list[LogEntry]:
        """The whole action log, version 1 first."""

    @abstractmethod
    async def ping(self) -> None:
        """Raise StoreUnavailable unless the store answers."""

    @abstractmethod
    async def close(self) -> None:
        """Release connections."""

    async def durability(self) -> Durability:
        """Whether matches survive a restart of the store (see :class:`Durability`)."""
        return Durability(None, "unknown", "")

    # -- bot-decision queue ---------------------------------------------------
    # Bot decisions wait in one queue shared by all replicas, one entry per bot
    # seat (the newest post of a seat replaces its older entry, lease included).
    # A decision is leased to one worker at a time; a lease that is not renewed
    # expires, and the next acquire (by any worker) takes the decision over.
    # Each operation is atomic. The queue lives apart from the matches (on Redis
    # Cluster, in a slot of its own), so the application posts a decision
    # *before* the write that makes it due and checks it at acquisition.
    # ``queue`` names one of two queues: BOTS (served by bot workers) and
    # ZOMBIES (resigned seats, played by the server replicas themselves).

    @abstractmethod
    async def post_bot_decision(
        self,
        ref: BotDecisionRef,
        strategy: str,
        now_ms: int,
        queue: BotQueue = BOTS,
        due_ms: int | None = None,
    ) -> None:
        """Queue ``ref``, free to acquire at ``due_ms`` (None: now), replacing any
        entry of its seat; ``now_ms`` is recorded as its post time."""

    @abstractmethod
    async def acquire_bot_decisions(
        self, worker_id: str, capacity: int, lease_ms: int, now_ms: int, queue: BotQueue = BOTS
    ) -> list[BotDecisionLease]:
        """Lease up to ``capacity`` entries whose lease is free or expired at ``now_ms``."""

    @abstractmethod
    async def renew_bot_decisions(
        self,
        worker_id: str,
        refs: list[BotDecisionRef],
        lease_ms: int,
        now_ms: int,
        queue: BotQueue = BOTS,
    ) -> list[BotDecisionRef]:
        """Extend the leases ``worker_id`` still holds among ``refs``; return those."""

    @abstractmethod
    async def defer_bot_decisions(
        self, worker_id: str, refs: list[BotDecisionRef], until_ms: int, queue: BotQueue = BOTS
    ) -> None:
        """Hand back the worker's leases among ``refs``, free again at ``until_ms``."""

    @abstractmethod
    async def release_bot_decisions(
        self, worker_id: str, refs: list[BotDecisionRef], queue: BotQueue = BOTS
    ) -> None:
        """Drop the entries among ``refs`` leased to ``worker_id`` at exactly that version."""

    @abstractmethod
    async def replace_seat_claim(self, match_id: str, seat: int, claim_json: str) -> None:
        """Overwrite a seat's claim (bot seats only: revokes the previous token)."""

    # -- leaving --------------------------------------------------------------

    @abstractmethod
    async def swap_seat_claim(
        self, match_id: str, seat: int, expected_json: str, new_json: str | None
    ) -> bool:
        """Replace the seat's claim by ``new_json`` (None: remove it, the seat
        reopens, as :meth:`reopen_seat`) if it is still ``expected_json``;
        ``False`` if it is not (or a removal finds the match started)."""

    @abstractmethod
    async def reopen_seat(self, match_id: str, seat: int, expected_json: str) -> ReopenOutcome:
        """Remove the seat's claim if it is still ``expected_json`` and the match
        has not started: ``"reopened"``; ``"changed"`` if the claim is another;
        ``"started"`` if the match started (a claim or a commit), in one atomic
        step with the check, so a seat never reopens in a started match."""

    # -- lobby ----------------------------------------------------------------
    # The lobby is an index of matches, newest first, that a client pages through
    # to find one to join or watch. Its entries are hints written beside the
    # matches, not part of them: on Redis Cluster the index lives in its own hash
    # slot, so no script can update it together with a match. Readers therefore
    # check every entry they return against the match itself (``lobby_peek``) and
    # drop entries whose match is gone; see :mod:`senet.service.lobby`.

    @abstractmethod
    async def lobby_put(self, entry: LobbyEntry) -> None:
        """Add or overwrite the lobby entry of ``entry.match_id`` (its position is fixed
        by its cursor, so an overwrite never moves it)."""

    @abstractmethod
    async def lobby_scan(
        self, query: LobbyQuery, after: LobbyCursor | None, limit: int, budget: int
    ) -> LobbyScan:
        """Entries older than ``after`` (None: from the newest) whose hints pass
        ``query``, newest first: at most ``limit``, looking at no more than
        ``budget`` entries in all."""

    @abstractmethod
    async def lobby_peek(
        self, match_ids: Sequence[str]
    ) -> dict[str, MatchFacts | CorruptMatch | None]:
        """The public facts of each match (None: it does not exist, or expired; a
        :class:`CorruptMatch`: its stored values cannot be read, which must not
        keep the others from being listed)."""

    @abstractmethod
    async def lobby_drop(self, entries: Sequence[LobbyCursor]) -> None:
        """Remove these entries from the lobby (their matches are gone)."""

    @abstractmethod
    async def lobby_sweep(self, limit: int) -> int:
        """Check up to ``limit`` entries whose deadline has passed: drop those whose
        match is gone, and give the others their match's own expiry as their new
        deadline. Returns how many were checked (fewer than ``limit``: no entry is
        due any more).

        Every entry carries a deadline, when to check its match: :meth:`lobby_put`
        sets it from the hint (the write time plus the TTL a match in that state
        gets: waiting with open seats, active, or finished), and a check that
        finds the match alive moves it to the match's own expiry. Nothing is
        dropped on the deadline alone: only an entry whose match is seen gone
        (expired, or its creation failed). A match is created after its entry
        is written, so it outlives its first deadline. The lobby writes that
        follow every change of a match's TTL other than a commit's renewal (the
        start, the end, a seat reopening) keep deadlines close to the real
        expiry, so the index stays bounded by the live matches whether or not
        anyone lists it. A store without expiry keeps no deadlines.
        """


# ------------------------------------------------------------------ lobby values
#: An entry whose match does not exist (yet) is kept this long after its creation
#: time: the service writes the entry first and creates the match next, so a
#: match is never created without being listed; a failed creation leaves an
#: entry that readers skip and drop once this has passed.
LOBBY_CREATE_GRACE_S = 60.0


@dataclass(frozen=True, order=True)
class LobbyCursor:
    """A position in the lobby: an entry's creation time (Unix microseconds) and
    match id. Entries are ordered newest first, ties by match id."""

    created_us: int
    match_id: str


@dataclass(frozen=True)
class LobbyHint:
    """What an entry says of its match, to filter without loading it. It may be
    stale (a hint is rewritten after the match changes); readers check it.

    Attributes:
        game_id: The match's game (never changes).
        status: Stored status, ``"active"`` or ``"finished"``.
        open_seats: Open seats nobody has claimed.
        rated: Whether the match's result settles into ratings (never changes);
            None in an entry written before hints said so, which admits either.
    """

    game_id: str
    status: MatchStatus
    open_seats: int
    rated: bool | None = None


@dataclass(frozen=True)
class LobbyEntry:
    """One lobby entry: where it sits and its hint (None: lost; check the match)."""

    cursor: LobbyCursor
    hint: LobbyHint | None

    @property
    def match_id(self) -> str:
        return self.cursor.match_id


@dataclass(frozen=True)
class LobbyQuery:
    """Filters on hints; empty or None fields match anything."""

    game_id: str = ""
    status: MatchStatus | None = None
    has_open_seat: bool | None = None
    rated: bool | None = None

    def admits(self, hint: LobbyHint | None) -> bool:
        """Whether an entry with this hint may match (to be checked on the match)."""
        return hint is None or (
            (not self.game_id or hint.game_id == self.game_id)
            and (self.status is None or hint.status == self.status)
            and (self.has_open_seat is None or (hint.open_seats > 0) == self.has_open_seat)
            and (self.rated is None or hint.rated is None or hint.rated == self.rated)
        )


@dataclass(frozen=True)
class LobbyScan:
    """A run of lobby entries, where the next run starts (None: the end) and how
    many entries were looked at to find them."""

    entries: list[LobbyEntry]
    next_after: LobbyCursor | None
    looked: int


@dataclass(frozen=True)
class MatchFacts:
    """A match's facts as the lobby needs them: no snapshot, no log.

    Attributes:
        meta_json: The meta document (the service shows only its public part).
        seats: Seat number -> claim JSON.
        version: Committed actions.
        status: Stored status.
        idle_s: Seconds since the last commit (or the creation), as far as the
            store can tell (Redis works it out from the remaining TTL, so it may
            be short by up to 1/64 of the idle TTL); None when it cannot tell.
    """

    meta_json: str
    seats: dict[int, str]
    version: int
    status: MatchStatus
    idle_s: float | None
    #: Seconds until the match expires unless written again (None: never).
    expires_in_s: float | None = None


def now_ms() -> int:
    """Wall-clock Unix time in ms: the one clock of queue entries, deadlines and
    lobby checks, compared across replicas (the service's turn clocks use it too)."""
    return int(time.time() * 1000)
