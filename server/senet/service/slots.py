"""Scheduling slots: one hosted match per slot, however many replicas schedule it.

The ladder, the head-to-head tests and the tournaments all run the same way on
every replica: a pass looks at each *slot* (a lane of a ladder at a sequence
number, a game of a test, a game of a tournament round) and moves it on. What
makes that safe on several replicas at once:

* the slot's *plan* (who sits where) is claimed with a write that succeeds only
  if absent, so the one plan that stands is the first replica's; the others read
  it back and carry out the same plan;
* the match is created with a request id fixed by the slot, so replicas carrying
  out the same plan (or one retrying after a crash) get the one match, never two;
* the slot's end is claimed the same way, so its result is counted once;
* a lane (or a tournament's rounds) is at its first slot that has not ended.
  The stored position is only a hint, moved on once a slot has ended: a
  replica that dies after claiming a slot's end and before moving the lane on
  leaves the lane to the next pass, which finds the slot ended and passes it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from senet.service.access import Caller, clock_of
from senet.service.clocks import TimeControl
from senet.service.matches import MatchService
from senet.service.records import SeatPlan
from senet.store import MatchNotFound
from senet.store.ladder import LadderStore

#: Where the match of each slot is recorded.
SLOT_MATCHES = "slot_matches"


@dataclass(frozen=True)
class SlotResult:
    """Where a slot's match stands: "active", "finished" or "aborted" (abandoned,
    or gone from the store), and the places once finished."""

    status: str
    places: tuple[int, ...] = ()


def request_id_of(slot: str) -> str:
    """The creation request id of ``slot``'s match (64 characters at most)."""
    return "slot-" + hashlib.sha256(slot.encode()).hexdigest()[:40]


class Slots:
    """Claims, matches and ends of slots, over the match service and the ladder store."""

    def __init__(self, matches: MatchService, store: LadderStore) -> None:
        self.matches = matches
        self.store = store

    async def claim(self, slot: str, plan: str) -> str:
        """The plan that stands for ``slot``: ``plan`` if this call set it first,
        else the one another replica set."""
        if await self.store.put_new("plan:" + slot, plan):
            return plan
        held = await self.store.read("plan:" + slot)
        return plan if held is None else held

    async def planned(self, slot: str) -> str | None:
        """The plan claimed for ``slot``, if any."""
        return await self.store.read("plan:" + slot)

    async def start(
        self,
        slot: str,
        game_id: str,
        seats: Sequence[SeatPlan],
        decision_ms: int,
        options: dict[str, object] | None = None,
        *,
        rated: bool = False,
    ) -> str:
        """The match of ``slot``, created at most once (keyed by the slot).

        Each decision has a clock of ``decision_ms``; a decision past it is played
        by the server's minimal policy (a bot seat has no one else to wait for).
        ``rated``: its result settles into ratings (a ladder's match).
        """
        known = await self.store.get(SLOT_MATCHES, slot)
        if known is not None:
            return known
        control = TimeControl(decision_ms=decision_ms, timeout_policy="bot_move")
        snapshot = await self.matches.create_match(
            Caller(is_admin=True),
            game_id,
            options or {},
            list(seats),
            None,
            time_control=control,
            request_id=request_id_of(slot),
            rated=rated,
        )
        match_id = snapshot.summary.match_id
        await self.store.put(SLOT_MATCHES, slot, match_id)
        return match_id

    async def match_of(self, slot: str) -> str | None:
        return await self.store.get(SLOT_MATCHES, slot)

    async def result(self, match_id: str) -> SlotResult:
        """Where ``match_id`` stands."""
        try:
            summary = (await self.matches.get(Caller(), match_id)).summary
        except MatchNotFound:
            return SlotResult("aborted")
        if summary.status == "active":
            return SlotResult("active")
        if summary.status == "finished":
            return SlotResult("finished", tuple(summary.places))
        return SlotResult("aborted")

    async def timeouts_in_a_row(self, match_id: str) -> tuple[int, ...]:
        """Each seat's decisions timed out in a row as the match stands (empty for a
        match gone or without clocks): a bot's worker that stopped answering
        leaves a streak to the end."""
        try:
            stored = await self.matches.store.load(match_id)
        except MatchNotFound:
            return ()
        clock = clock_of(stored)
        return () if clock is None else clock.timeouts

    async def end(self, slot: str) -> bool:
        """Claim ``slot``'s end: True for exactly one caller. An ended slot is passed by
        :meth:`position`, so its result is recorded before the claim."""
        return await self.store.put_new("ended:" + slot, "1")

    async def ended(self, slot: str) -> bool:
        return await self.store.read("ended:" + slot) is not None

    async def position(
        self, hint: str, slot_of: Callable[[int], str], in_flight: str | None = None
    ) -> int:
        """Where a lane is: the first sequence number, from the stored ``hint`` on,
        whose slot (``slot_of``) has not ended. Each ended slot passed is dropped
        from the ``in_flight`` collection (its closer may have done it already, or
        died first), and the hint is moved on past them."""
        seq = first = int(await self.store.read(hint) or 0)
        while await self.ended(slot_of(seq)):
            if in_flight is not None:
                await self.store.delete(in_flight, slot_of(seq))
            seq += 1
        if seq != first:
            await self.store.set(hint, str(seq))
        return seq
