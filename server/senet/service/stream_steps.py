"""What a watch or play stream makes of each committed batch.

A stream starts with a snapshot of the match (see :mod:`senet.service.streams`);
after that, each batch of the match's feed (:mod:`senet.service.feeds`) becomes
one item for the stream's viewer through :class:`StreamSteps`: the update as the
viewer may see it (shared by every stream of the same audience on this replica,
:func:`update_for`), after a check that the stream's token still holds its seat
(:func:`still_holds`), with the seat's prompt when it must decide
(:mod:`senet.service.prompts`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from senet.games import Event, Game
from senet.service import errors
from senet.service.access import Caller, MatchAccess, meta_of
from senet.service.prompts import prompt_cached, seat_prompt
from senet.service.records import UpdateRecord, claim_fingerprint, parsed_update
from senet.service.views import Heartbeat, LegalActions, MatchSnapshot, MatchUpdate
from senet.store import EventBatch

#: Recent updates kept parsed, and as each audience receives them, for the streams
#: that read them (every stream of a match reads each of its updates once, soon
#: after it is made: the oldest made goes first).
_SHARED_UPDATES = 1024

WatchItem = MatchSnapshot | MatchUpdate | Heartbeat


class PlayItem(NamedTuple):
    """One step of a seat's PlayMatch stream: a watch item, the seat's prompt
    at that item's version, or both (a prompt alone only when resuming)."""

    item: WatchItem | None
    prompt: LegalActions | None


#: Where a stream's items go when they are made as a commit is published, not
#: yielded: each update with the seat's prompt (or None), then (None, None) when
#: it was the last (the match is over). Two arguments, not a :class:`PlayItem`:
#: every stream of a match takes one on every commit.
Sink = Callable[["WatchItem | None", "LegalActions | None"], None]


def update_for(
    access: MatchAccess, game: Game, batch: EventBatch, record: UpdateRecord, seat: int | None
) -> MatchUpdate:
    """``record`` as ``seat`` receives it: one object per audience of a batch,
    shared by every stream of that audience on this replica.

    An audience is whether the seat made the move (it sees the full notation
    and its request id) and which events it may see."""
    key = (batch.events_json, seat == record.seat, record.visible_indexes(seat))
    update = access.updates.get(key)
    if update is not None:
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
    access.updates[key] = update
    while len(access.updates) > _SHARED_UPDATES:
        access.updates.popitem(last=False)
    return update


async def still_holds(
    access: MatchAccess,
    match_id: str,
    seat: int,
    claim_json: str,
    record: UpdateRecord,
    events: list[Event],
) -> bool:
    """Whether the claim a stream was opened with still holds ``seat`` as of
    ``record``.

    Claims change only on claim writes, never in a commit, so most updates
    answer this for free (:func:`holds_now`); the others are checked
    against the store (one read, only for those updates).
    """
    holds = holds_now(str(seat), claim_json, record, events)
    if holds is not None:
        return holds
    stored = await access.load(match_id)
    return stored.seats.get(seat) == claim_json


def holds_now(
    seat_key: str, claim_json: str, record: UpdateRecord, events: list[Event]
) -> bool | None:
    """:func:`still_holds` where the update answers it: a commit names the
    fingerprints of the claims it checked (the acting seat's, the next
    person's), and a different one for this seat means the token was
    revoked; an update with nothing private to the seat lets a later one
    decide. None: only the store can tell.

    ``seat_key``: the seat as a key of the record's ``claims`` (``str(seat)``,
    which a stream keeps rather than making it on every commit)."""
    named = record.claims.get(seat_key)
    if named is not None:
        return named == claim_fingerprint(claim_json)
    for event in events:  # a loop, not all() over a generator: on every push
        if event.audience is not None:
            return None
    return True


class StreamSteps:
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
        "access", "claim_json", "cursor", "done", "game", "game_id", "match_id", "prompted",
        "seat", "seat_key", "sink", "was_deciding",
    )  # fmt: skip

    def __init__(
        self,
        access: MatchAccess,
        game: Game,
        match_id: str,
        seat: int | None,
        claim_json: str | None,
        prompted: Caller | None,
        sink: Sink | None,
    ) -> None:
        self.access = access
        self.game = game
        self.game_id = game.info.id
        self.match_id = match_id
        self.seat = seat
        #: ``seat`` as an update record's ``claims`` key (see :func:`holds_now`).
        self.seat_key = str(seat)
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
        then (None, None) to the sink if the match is over); whether it was."""
        sink = self.sink
        assert sink is not None
        if batch.version <= self.cursor:
            return True  # the start's snapshot was at this version or later
        if batch.is_start:
            return False  # its snapshot is read from the store
        seat, claim_json = self.seat, self.claim_json
        record, update = self._read(batch)
        legal = None
        if seat is not None and claim_json is not None:
            if holds_now(self.seat_key, claim_json, record, update.events) is not True:
                return False
            if self._prompt_due(update):
                legal = prompt_cached(
                    self.access, self.game_id, self.match_id, update.version, seat, claim_json
                )
                if legal is None:
                    return False
                if not legal.actions:
                    legal = None
        sink(update, legal)
        self._advance(update, record)
        if self.done:
            sink(None, None)
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
        access, seat, claim_json = self.access, self.seat, self.claim_json
        record, update = self._read(batch)
        legal = None
        if seat is not None and claim_json is not None:
            if not await still_holds(
                access, self.match_id, seat, claim_json, record, update.events
            ):
                raise revoked()
            if self.prompted is not None and self._prompt_due(update):
                legal = await seat_prompt(
                    access,
                    self.prompted,
                    self.game_id,
                    self.match_id,
                    update.version,
                    seat,
                    claim_json,
                )
        self._advance(update, record)
        return PlayItem(update, legal)

    async def _start(self) -> PlayItem:
        """The start of a match the stream saw waiting: a snapshot of the match
        as it is now (the real deal, the seats to decide), with the seat's prompt.

        Raises:
            BadToken: the stream's seat was reopened (its player left) before.
        """
        access, seat, claim_json = self.access, self.seat, self.claim_json
        stored = await access.load(self.match_id)
        if seat is not None and stored.seats.get(seat) != claim_json:
            raise revoked()
        meta = meta_of(stored)
        state = access.read_state(self.game, stored)
        snapshot = MatchSnapshot(access.summary(stored, meta, state), state.view(seat), seat)
        deciding = snapshot.summary.deciding
        legal = None
        if self.prompted is not None and claim_json is not None and seat in deciding:
            # As at a stream's start: the state read above is used before this await.
            legal = await seat_prompt(
                access, self.prompted, self.game_id, self.match_id, stored.version, seat, claim_json
            )
        self.cursor = stored.version
        self.was_deciding = seat in deciding
        self.done = state.is_over()
        return PlayItem(snapshot, legal)

    def _read(self, batch: EventBatch) -> tuple[UpdateRecord, MatchUpdate]:
        """``batch``'s stored record, and its update as the stream's seat receives it."""
        record = parsed_update(batch.events_json)
        return record, update_for(self.access, self.game, batch, record, self.seat)

    def _advance(self, update: MatchUpdate, record: UpdateRecord) -> None:
        self.cursor = update.version
        self.was_deciding = self.seat in update.deciding
        self.done = record.status == "finished"


def revoked() -> errors.BadToken:
    return errors.BadToken(
        "this token was revoked: its seat now has another holder "
        "(a bot worker took the decision over, or the player left)"
    )
