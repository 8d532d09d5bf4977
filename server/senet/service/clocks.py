"""Turn clocks: time controls fixed at creation, clocks kept in the match head.

A match's :class:`TimeControl` (in its meta) says how long each decision may
take; its :class:`Clock` (in the head snapshot, so every commit moves it
atomically) holds each seat's reserve left and timeouts in a row, and when the
current decision began. The deadline of the current decision follows from the
two, so any replica can work it out from a load.

Enforcement needs no replica to own a match: every commit that hands a clocked
decision to a seat posts a *timeout entry* to the store's CLOCKS queue (the
bot-decision queue machinery, with the deadline as the time the entry becomes
due), before the commit, as bot decisions are posted. Every replica runs a
:class:`ClockKeeper` that leases due entries (atomically, so one replica takes
each), checks them against the stored match, and applies the timeout policy.
A replica that dies holding a lease leaves it to expire; another replica
then takes the timeout over, so killing the replica that served the last
action loses no timeout.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from senet.service.documents import known_fields
from senet.service.records import MatchMeta, SeatClaim

TimeoutPolicy = Literal["bot_move", "resign"]


@dataclass(frozen=True)
class TimeControl:
    """How long decisions may take (see TimeControl in match.proto)."""

    decision_ms: int = 0
    reserve_ms: int = 0
    increment_ms: int = 0
    timeout_policy: TimeoutPolicy = "bot_move"
    handover_after: int = 0
    handover_strategy: str = "random"

    @classmethod
    def from_data(cls, raw: Mapping[str, Any] | None) -> TimeControl | None:
        return None if raw is None else cls(**known_fields(cls, raw))

    def to_data(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Clock:
    """The clocks as of one version: reserve left per seat (empty without a
    reserve), timeouts in a row per seat, and when the current decision began
    (0 at version 0: the decision began when the match started)."""

    remaining_ms: tuple[int, ...]
    timeouts: tuple[int, ...]
    turn_started_ms: int = 0

    @classmethod
    def initial(cls, control: TimeControl, seat_count: int) -> Clock:
        reserve = (control.reserve_ms,) * seat_count if control.reserve_ms else ()
        return cls(reserve, (0,) * seat_count)

    @classmethod
    def from_data(cls, raw: Mapping[str, Any] | None) -> Clock | None:
        if raw is None:
            return None
        return cls(tuple(raw["remaining_ms"]), tuple(raw["timeouts"]), raw["turn_started_ms"])

    def to_data(self) -> dict[str, Any]:
        return {
            "remaining_ms": list(self.remaining_ms),
            "timeouts": list(self.timeouts),
            "turn_started_ms": self.turn_started_ms,
        }

    def deadline_ms(self, control: TimeControl, seat: int, started_ms: int) -> int:
        """When ``seat``'s current decision times out: its start plus the smaller
        of ``decision_ms`` and the seat's reserve left. ``started_ms`` is when the
        match started (the start of the decision at version 0)."""
        start = self.turn_started_ms or started_ms
        limits = [control.decision_ms] if control.decision_ms else []
        if self.remaining_ms:
            limits.append(self.remaining_ms[seat])
        return start + min(limits)

    def held_ms(self, control: TimeControl, seat: int, now_ms: int, started_ms: int) -> int:
        """How long ``seat`` has held its current decision at ``now_ms``: from the
        decision's start to ``now_ms`` or its deadline, whichever comes first.
        Past the deadline the decision is the server's to play (the timeout
        policy), and the time that takes is nobody's: a replica that dies
        holding the timeout delays it, not the seat."""
        start = self.turn_started_ms or started_ms
        return max(0, min(now_ms, self.deadline_ms(control, seat, started_ms)) - start)

    def after(
        self,
        control: TimeControl,
        seat: int,
        now_ms: int,
        started_ms: int,
        timed_out: bool,
        before: Collection[int] = (),
        deciding: Collection[int] = (),
    ) -> Clock:
        """The clocks after ``seat``'s action committed at ``now_ms`` (``timed_out``:
        the action is the fallback of a timeout).

        Each action a seat must submit is a decision (docs/protocol.md, "Turn
        clocks"): the action ends the mover's decision, and the next one starts
        now, the mover's own included (a turn of several steps is several
        decisions, each charged). Every seat whose decision ends or starts
        again here is charged the time it held it (:meth:`held_ms`); the mover
        then gets the increment, unless it timed out, when its timeouts in a
        row count one more (an action of its own resets them).

        ``before``/``deciding``: the seats that had to decide before and after
        the action. Seats deciding at once (every seat deciding after was
        deciding before, with others) began their decisions together and keep
        that start: their clocks run on, and a seat's choice of several actions
        is one decision, charged when it is complete.
        """
        movers = {seat, *before}
        shared = len(movers) > 1 and bool(deciding) and movers.issuperset(deciding)
        remaining = list(self.remaining_ms)
        if remaining:
            for s in sorted(movers):
                if shared and s in deciding:
                    continue  # its decision runs on
                left = max(0, remaining[s] - self.held_ms(control, s, now_ms, started_ms))
                remaining[s] = left + control.increment_ms if s == seat and not timed_out else left
        timeouts = list(self.timeouts)
        if not timed_out:
            timeouts[seat] = 0
        elif not (shared and seat in deciding):
            timeouts[seat] += 1  # a timed-out choice of several actions is one timeout
        return replace(
            self,
            remaining_ms=tuple(remaining),
            timeouts=tuple(timeouts),
            turn_started_ms=(self.turn_started_ms or started_ms) if shared else now_ms,
        )


@dataclass(frozen=True)
class ClockView:
    """The clocks as clients see them (ClockState)."""

    remaining_ms: Sequence[int]
    deadline_ms: int | None
    timeouts: Sequence[int]
    #: Each deciding seat's deadline (several differ when seats decide at once).
    deadlines_ms: Mapping[int, int] = field(default_factory=dict)

    def to_data(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "remaining_ms": list(self.remaining_ms),
            "deadline_ms": self.deadline_ms,
            "timeouts": list(self.timeouts),
        }
        if len(self.deadlines_ms) > 1:
            doc["deadlines_ms"] = [[s, ms] for s, ms in self.deadlines_ms.items()]
        return doc

    @classmethod
    def from_data(cls, raw: Mapping[str, Any] | None) -> ClockView | None:
        if raw is None:
            return None
        deadlines = {int(s): int(ms) for s, ms in raw.get("deadlines_ms", ())}
        return cls(raw["remaining_ms"], raw["deadline_ms"], raw["timeouts"], deadlines)


def started_ms(meta: MatchMeta, seats: Mapping[int, str]) -> int:
    """When the match started: the last open seat's claim, or the creation."""
    joined = [
        SeatClaim.from_json(seats[s]).joined_at
        for s, plan in enumerate(meta.seats)
        if plan.kind == "open" and s in seats
    ]
    return int(max([meta.created_at, *joined]) * 1000)


__all__ = ["Clock", "ClockView", "TimeControl", "TimeoutPolicy", "started_ms"]
