"""Turn clocks in words, for both the line mode and the full screen.

A match with clocks carries a :class:`match_pb2.ClockState` in its summary and in
each update: every seat's reserve as of the start of the current decision, and the
current decision's deadline (server time). Both clients show the same figures, so
the figures are made here once: the reserves as they were given, and the time left
to decide counted down from the deadline against the local clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from senet.v1 import match_pb2


def clock_text(ms: int) -> str:
    """Milliseconds as m:ss (tenths under ten seconds)."""
    ms = max(0, ms)
    if ms < 10_000:
        return f"{ms / 1000:.1f}s"
    seconds = ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def now_ms() -> int:
    return int(time.time() * 1000)


def time_to_decide_ms(
    clock: match_pb2.ClockState, now: int | None = None, seat: int | None = None
) -> int | None:
    """Milliseconds left before the current decision times out (None: no deadline);
    ``seat``'s own decision's where several seats decide at once."""
    deadline = deadline_of(clock, seat)
    if deadline is None:
        return None
    return max(0, deadline - (now_ms() if now is None else now))


def deadline_of(clock: match_pb2.ClockState, seat: int | None = None) -> int | None:
    """When ``seat``'s decision times out (server Unix ms): its own deadline where
    several seats decide at once, else the current decision's (None: no deadline)."""
    for entry in clock.deciding_deadlines:
        if entry.seat == seat:
            return entry.deadline_ms
    return clock.deadline_ms if clock.HasField("deadline_ms") else None


def seat_clock(
    clock: match_pb2.ClockState, seat: int, deciding: bool, now: int | None = None
) -> str:
    """One seat's clock, short enough for a players pane.

    The seat deciding: the time left before its decision times out (``1:26 left``;
    its reserve is burning and the deadline already counts it). Any other seat: its
    reserve (``5:00``), or nothing for a match with a decision limit only.
    """
    left = time_to_decide_ms(clock, now, seat) if deciding else None
    if left is not None:
        return f"{clock_text(left)} left"
    if seat < len(clock.remaining_ms):
        return clock_text(clock.remaining_ms[seat])
    return ""


def clocks_line(
    clock: match_pb2.ClockState,
    label: Callable[[int], str],
    now: int | None = None,
    viewer: int | None = None,
) -> str:
    """Every seat's reserve and the time left to decide, on one line ('' if neither).

    ``label`` names a seat as the rest of the screen does; where several seats
    decide at once, the time left is ``viewer``'s own.
    """
    parts = [f"{label(seat)} {clock_text(left)}" for seat, left in enumerate(clock.remaining_ms)]
    left_ms = time_to_decide_ms(clock, now, viewer)
    if left_ms is not None:
        parts.append(f"to decide: {clock_text(left_ms)} left")
    return "CLOCKS  " + "  ".join(parts) if parts else ""


__all__ = ["clock_text", "clocks_line", "deadline_of", "now_ms", "seat_clock", "time_to_decide_ms"]
