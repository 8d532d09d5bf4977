"""The JSON documents the service stores: match metas, seat claims, updates and heads.

The store treats documents as opaque strings; their shape lives here, in one place,
so that every replica (and a future migration) reads and writes them the same way.
A stored document that does not have that shape raises
:class:`~senet.games.errors.CorruptStateError` (INTERNAL, reason CORRUPT_STATE).
What the API layer is handed, built from these, is in :mod:`senet.service.views`.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import orjson

from senet.codec.fairness import effective_seed
from senet.games.errors import CorruptStateError
from senet.games.interface import Event, JsonDict
from senet.service.documents import known_fields

SeatKind = Literal["open", "bot"]
Status = Literal["active", "finished", "abandoned"]
LeavePolicy = Literal["resign", "bot"]
LeaveOutcome = Literal["reopened", "taken_over", "resigned"]
#: The takeover of a resigned seat: played out by the replicas' minimal policy.
ZOMBIE = "zombie"
#: Who chose a committed action (ActionOrigin in match.proto): the seat's holder,
#: the fallback of a timeout, the bot that took the seat over, or the minimal
#: policy of a resigned seat.
ActionOrigin = Literal["seat", "timeout", "takeover", "resigned"]
#: The strategy name of the server's own choice, a seeded random legal action:
#: the fallback of a timeout, and a resigned seat's minimal policy.
SERVER_POLICY = "random"
#: Metas, claims and updates kept parsed, by their stored text (a replica's
#: recent matches and versions).
_PARSED = 4096


def dumps(value: Any) -> str:
    """Compact JSON text of a stored document (orjson: several times faster than
    the standard library on the per-action hot path)."""
    return orjson.dumps(value).decode()


def loads(text: str | bytes) -> Any:
    """Parse a stored JSON document."""
    return orjson.loads(text)


def new_token() -> str:
    """A fresh seat token: 256 random bits, URL-safe.

    The ``st_`` prefix marks it as a Senet seat token (easy to spot in logs and
    secret scanners) and keeps it from starting with ``-``, which command-line
    parsers would take for an option.
    """
    return "st_" + secrets.token_urlsafe(32)


def seat_entropy(seat_count: int, seats: Mapping[int, str]) -> list[str]:
    """Each seat's entropy in seat order ("" for a seat without a claim or entropy)."""
    return [SeatClaim.from_json(seats[s]).entropy if s in seats else "" for s in range(seat_count)]


@functools.lru_cache(maxsize=8192)
def claim_fingerprint(claim_json: str) -> str:
    """A short digest of one stored seat claim: it changes whenever the claim is
    replaced (a new token, a takeover), and tells nothing of the token."""
    return hashlib.sha256(b"claim:" + claim_json.encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=4096)
def token_hash(token: str) -> str:
    """Seat tokens are stored only as their SHA-256.

    Every call of a seat hashes its token, so recent digests are kept: the
    process holds those tokens in its requests anyway, and nothing outside it
    sees this cache.
    """
    return hashlib.sha256(token.encode()).hexdigest()


def _without_unset(data: JsonDict, *names: str) -> JsonDict:
    """``data`` without the fields ``names`` that hold their (false) default: fields
    added by later releases are written only when set, so a record without them
    reads as it always did, to this release and to the older ones beside it."""
    for name in names:
        if not data[name]:
            del data[name]
    return data


@dataclass(frozen=True)
class SeatPlan:
    """What fills a seat, fixed at creation.

    ``name`` is the name a seat shows before it is claimed: a registered bot's
    (set at creation, shown before and after its workers claim it), or in a
    rematch or a queued match the name of the player the seat is kept for; empty
    for every other seat, whose name comes from its claim. ``kept``: an open seat
    only its player claims: in a rematch the player who held it in the match
    before, through RequestRematch (:mod:`senet.service.rematches`); in a match
    the queue made, the ticket's player, through FindMatch
    (:mod:`senet.service.matchmaking`).
    """

    kind: SeatKind = "open"
    bot_strategy: str = ""
    name: str = ""
    kept: bool = False


@dataclass(frozen=True)
class MatchMeta:
    """Immutable facts of a match (the seed and salt stay secret until export)."""

    game_id: str
    options: JsonDict
    seat_count: int
    seats: list[SeatPlan]
    seed: int
    salt: str
    commitment: str
    created_at: float
    #: What happens to a seat whose player leaves the started match.
    leave_policy: LeavePolicy = "resign"
    #: The strategy that takes a left seat over under the "bot" policy.
    leave_bot_strategy: str = ""
    #: Turn clocks (senet.service.clocks.TimeControl as data); None: no clocks.
    time_control: JsonDict | None = None
    #: Digest of the CreateMatch request, when it had a request_id: a retry must
    #: match it (see senet.service.idempotency).
    creation: str = ""
    #: Secret (hex) seat tokens of keyed joins are minted under; never exported.
    #: Empty on matches created before keyed joins: those draw random tokens.
    join_secret: str = ""
    #: The creator chose the seed (practice and tests): the deal is the seed's
    #: alone, and nothing protects the players from whoever chose it.
    seed_chosen: bool = False
    #: The deal of record is made when the match starts, from
    #: :func:`effective_seed` over the server's seed and the seats' entropy
    #: (False for chosen seeds, and for matches created before fair seeds).
    fair_deal: bool = False
    #: Left out of the lobby (ListMatches): only those given its id find it.
    unlisted: bool = False
    #: A rematch's finished match (senet.service.rematches); empty otherwise.
    rematch_of: str = ""
    #: The result settles into ratings (a rated queue match, a ladder's match).
    rated: bool = False

    def to_json(self) -> str:
        data = _without_unset(asdict(self), "unlisted", "rematch_of", "rated")
        data["seats"] = [_without_unset(plan, "name", "kept") for plan in data["seats"]]
        return dumps(data)

    def deal_seed(self, seats: Mapping[int, str]) -> int:
        """The seed the match is dealt with, given its seat claims at the start."""
        if not self.fair_deal:
            return self.seed
        return effective_seed(self.seed, seat_entropy(self.seat_count, seats))

    @classmethod
    def from_json(cls, text: str) -> MatchMeta:
        """The match's meta, parsed once per text for every reader of this
        process (a match's meta never changes; callers never change it)."""
        return _parsed_meta(text)


@dataclass(frozen=True)
class SeatClaim:
    """Who holds a seat: display name and the hash of the seat's token.

    ``takeover`` is set once the seat's player left a started match: the bot
    strategy now playing it, or :data:`ZOMBIE` when the player resigned.
    """

    name: str
    token_hash: str
    joined_at: float
    takeover: str = ""
    #: The entropy the seat's player added at JoinMatch (kept through takeovers:
    #: the export reveals it).
    entropy: str = ""
    #: The verified identity (see senet.service.identity) the seat was joined
    #: with; empty for a seat joined with a bare token (unrated play).
    subject: str = ""
    #: The seat's player declined the rematch of this finished match
    #: (DeclineRematch): nobody may ask for it any more.
    rematch_declined: bool = False
    #: When the seat's player left the started match (Unix seconds; 0 before, and
    #: in claims written before releases kept it). Of two resigned seats, the one
    #: whose player stayed longer ranks higher.
    left_at: float = 0.0

    def to_json(self) -> str:
        return dumps(_without_unset(asdict(self), "subject", "rematch_declined", "left_at"))

    @classmethod
    def from_json(cls, text: str) -> SeatClaim:
        """The claim, parsed once per text (claims are immutable values)."""
        return _parsed_claim(text)


#: The key under which :attr:`UpdateRecord._visible_to` keeps the indexes of
#: the public events, which every seat no event names receives (no seat is
#: numbered below 0).
_UNNAMED = -1

#: What parsing a document that is not what a replica wrote raises, besides
#: orjson's JSONDecodeError (a ValueError).
_UNREADABLE = (ValueError, TypeError, KeyError, AttributeError)


def _document(text: str | bytes, what: str) -> dict[str, Any]:
    """A stored document's JSON object, or CorruptStateError."""
    try:
        raw = loads(text)
    except _UNREADABLE as exc:
        raise CorruptStateError(f"the stored {what} does not parse: {exc}") from exc
    if not isinstance(raw, dict):
        raise CorruptStateError(f"the stored {what} is not a JSON object")
    return raw


def action_origin(claim_json: str, timed_out: bool) -> tuple[ActionOrigin, str]:
    """Who chose an action committed for the seat holding ``claim_json``, and
    with which strategy ("" for the seat's holder).

    ``timed_out``: the action is a timeout's fallback. Otherwise the claim says:
    a seat taken over is played by its takeover (a bot strategy, or the minimal
    policy of a resigned seat), any other by its holder.
    """
    if timed_out:
        return "timeout", SERVER_POLICY
    takeover = SeatClaim.from_json(claim_json).takeover
    if takeover == ZOMBIE:
        return "resigned", SERVER_POLICY
    if takeover:
        return "takeover", takeover
    return "seat", ""


@functools.lru_cache(maxsize=_PARSED)
def _parsed_meta(text: str) -> MatchMeta:
    raw = _document(text, "meta")
    try:
        raw["seats"] = [SeatPlan(**known_fields(SeatPlan, s)) for s in raw["seats"]]
        meta = MatchMeta(**known_fields(MatchMeta, raw))
    except _UNREADABLE as exc:
        raise CorruptStateError(f"the stored meta is not a match's: {exc}") from exc
    fields_ok = (
        isinstance(meta.game_id, str)
        and isinstance(meta.options, dict)
        and type(meta.seat_count) is int
        and len(meta.seats) == meta.seat_count
        and all(plan.kind in ("open", "bot") and isinstance(plan.name, str) for plan in meta.seats)
        and isinstance(meta.created_at, int | float)
    )
    if not fields_ok:
        raise CorruptStateError("the stored meta has mistyped fields")
    return meta


@functools.lru_cache(maxsize=_PARSED)
def _parsed_claim(text: str) -> SeatClaim:
    try:
        claim = SeatClaim(**known_fields(SeatClaim, _document(text, "seat claim")))
    except TypeError as exc:
        raise CorruptStateError(f"the stored seat claim is not a claim: {exc}") from exc
    if not (
        isinstance(claim.name, str)
        and isinstance(claim.token_hash, str)
        and isinstance(claim.left_at, int | float)
    ):
        raise CorruptStateError("the stored seat claim has mistyped fields")
    return claim


@dataclass(slots=True)
class UpdateRecord:
    """What one version did: stored once per commit, read by every watcher.

    Never changed once made (its parsed copies are shared): slotted, not frozen,
    as a commit makes two (see docs/performance.md, "Per-call values").
    """

    version: int
    seat: int
    notation: str
    events: list[JsonDict]
    status: Status
    current_seat: int | None
    #: The clocks after this version (ClockView data); None without clocks.
    clock: JsonDict | None = None
    #: Fingerprints (:func:`claim_fingerprint`) of the seat claims this commit
    #: checked in the store, by seat number as text: the acting seat's always,
    #: the next seat's when it is a person's. Streams compare them with the claim
    #: they were opened with, so a revoked token is noticed without a store read.
    claims: dict[str, str] = field(default_factory=dict)
    #: Every seat that must decide after this version, when more than one does
    #: (seats choosing at the same time); None when only ``current_seat`` does.
    deciding: list[int] | None = None
    #: The request id of the submission committed (the acting seat's own: only
    #: its streams are told it, as that submission's reply).
    request_id: str = ""
    #: Who chose the action (:func:`action_origin`); records written before
    #: origins were recorded read as the seat's own.
    origin: ActionOrigin = "seat"
    #: The strategy that chose it when not the seat's holder ("" otherwise).
    origin_strategy: str = ""
    #: :meth:`visible_indexes` by seat, worked out once: a record is parsed once per
    #: text and read by every stream of the match here, each asking twice.
    _visible_to: dict[int | None, tuple[int, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    #: The seats some event's audience names (filled with the public indexes,
    #: kept in ``_visible_to`` under ``_UNNAMED``).
    _named: set[int] = field(default_factory=set, init=False, repr=False, compare=False)

    def deciding_seats(self) -> tuple[int, ...]:
        """The seats that must decide after this version, in seat order."""
        if self.deciding is not None:
            return tuple(self.deciding)
        return () if self.current_seat is None else (self.current_seat,)

    def committed(
        self,
        clock: JsonDict | None,
        claims: dict[str, str],
        request_id: str,
        origin: ActionOrigin,
        origin_strategy: str,
    ) -> UpdateRecord:
        """This update as committed (see senet.service.commit_plan): with the
        clocks after it and what the commit stamps on it. One constructor call
        on every commit, not ``dataclasses.replace``'s walk over the fields."""
        return UpdateRecord(
            version=self.version,
            seat=self.seat,
            notation=self.notation,
            events=self.events,
            status=self.status,
            current_seat=self.current_seat,
            clock=clock,
            claims=claims,
            deciding=self.deciding,
            request_id=request_id,
            origin=origin,
            origin_strategy=origin_strategy,
        )

    def to_json(self) -> str:
        # A plain dict: dataclasses.asdict would deep-copy the events (hot path).
        doc = {
            "version": self.version,
            "seat": self.seat,
            "notation": self.notation,
            "events": self.events,
            "status": self.status,
            "current_seat": self.current_seat,
        }
        if self.clock is not None:
            doc["clock"] = self.clock
        if self.claims:
            doc["claims"] = self.claims
        if self.deciding is not None:
            doc["deciding"] = self.deciding
        if self.request_id:
            doc["request_id"] = self.request_id
        if self.origin != "seat":
            doc["origin"] = self.origin
            doc["origin_strategy"] = self.origin_strategy
        return dumps(doc)

    def log_entry_json(self, request_id: str, at: float, rules_version: int) -> str:
        """The action log's entry of this version (read back by :func:`logged_action`),
        with the version of the game's rules that applied it."""
        doc: JsonDict = {
            "seat": self.seat,
            "notation": self.notation,
            "request_id": request_id,
            "at": at,
        }
        if self.origin != "seat":
            doc["origin"] = self.origin
            doc["origin_strategy"] = self.origin_strategy
        doc["rules"] = rules_version
        return dumps(doc)

    @classmethod
    def from_json(cls, text: str) -> UpdateRecord:
        """The stored update, parsed once per text for every stream of this
        replica that reads it (callers never change it)."""
        return parsed_update(text)

    def events_for(self, seat: int | None) -> list[Event]:
        """The events ``seat`` (None: a spectator) may receive."""
        out = []
        for i in self.visible_indexes(seat):
            raw = self.events[i]
            audience = raw.get("audience")
            out.append(
                Event(raw["kind"], raw["data"], None if audience is None else frozenset(audience))
            )
        return out

    def visible_indexes(self, seat: int | None) -> tuple[int, ...]:
        """Indexes of the events ``seat`` may receive (Event.visible_to's rule, on
        the stored data)."""
        visible_to = self._visible_to
        visible = visible_to.get(seat)
        if visible is None:
            public = visible_to.get(_UNNAMED)
            if public is None:
                public = visible_to[_UNNAMED] = self._public()
            if seat is None or seat not in self._named:
                # A seat no event names sees the public events alone.
                visible = visible_to[seat] = public
            else:
                # A list, not a generator: read once per named seat and record.
                visible = visible_to[seat] = tuple(
                    [
                        i
                        for i, raw in enumerate(self.events)
                        if (audience := raw.get("audience")) is None or seat in audience
                    ]
                )
        return visible

    def _public(self) -> tuple[int, ...]:
        """Indexes of the events every seat may receive; notes in ``_named`` the
        seats that some other event names (once per record: the other seats,
        most of a match's, then share the public indexes)."""
        public = []
        named = self._named
        for i, raw in enumerate(self.events):
            audience = raw.get("audience")
            if audience is None:
                public.append(i)
            else:
                named.update(audience)
        return tuple(public)


@functools.lru_cache(maxsize=_PARSED)
def parsed_update(text: str) -> UpdateRecord:
    """:meth:`UpdateRecord.from_json` without the method's call: a stream's
    push reads every commit's record through it."""
    try:
        record = UpdateRecord(**known_fields(UpdateRecord, _document(text, "update")))
    except TypeError as exc:
        raise CorruptStateError(f"the stored update is not an update: {exc}") from exc
    if type(record.version) is not int or not isinstance(record.events, list):
        raise CorruptStateError("the stored update has mistyped fields")
    return record


@dataclass(frozen=True)
class HeadDocument:
    """The stored head document (the store's ``snapshot_json``): the full rules
    state (``GameState.snapshot_data()``), when it last changed, and the clocks.

    Not to be confused with :class:`MatchSnapshot`, the public view of a match a
    client is sent."""

    state: JsonDict
    updated_at: float
    #: The clocks (senet.service.clocks.Clock as data); None without clocks.
    clock: JsonDict | None = None
    #: The version of the game's rules that made ``state`` (``GameInfo.
    #: rules_version``); 0 for heads written before it was recorded.
    rules: int = 0
    #: The version of the game's rules the match was dealt under, carried from
    #: head to head; 0 for matches dealt before it was recorded.
    dealt: int = 0

    def to_json(self) -> str:
        doc: JsonDict = {"state": self.state, "updated_at": self.updated_at}
        if self.clock is not None:
            doc["clock"] = self.clock
        if self.rules:
            doc["rules"] = self.rules
        if self.dealt:
            doc["dealt"] = self.dealt
        return dumps(doc)

    @classmethod
    def from_json(cls, text: str) -> HeadDocument:
        """The stored head document (CorruptStateError when it is not one)."""
        raw = _document(text, "snapshot")
        state, updated_at = raw.get("state"), raw.get("updated_at")
        rules, dealt = raw.get("rules", 0), raw.get("dealt", 0)
        if not isinstance(state, dict) or not isinstance(updated_at, int | float):
            raise CorruptStateError("the stored snapshot lacks its state or time")
        if type(rules) is not int or type(dealt) is not int:
            raise CorruptStateError("the stored snapshot's rules version is not a number")
        return cls(state, updated_at, raw.get("clock"), rules, dealt)
