"""Per-seat token buckets, so one seat cannot flood a replica.

Buckets live in this process only: a limit per replica is enough to stop a runaway
client (each replica protects itself), and it costs no store round trip.
"""

from __future__ import annotations

import time
from collections import OrderedDict


class RateLimiter:
    """Token bucket per key: ``rate`` tokens per second, at most ``burst`` saved."""

    def __init__(self, rate: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        #: A full bucket's tokens, as a float once rather than on every call.
        self._full = float(burst)
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take one token for ``key``; False when its bucket is empty."""
        if self.rate <= 0:
            return True
        if now is None:
            now = time.monotonic()
        # Every submission passes here: comparisons rather than min() and float().
        full = self._full
        buckets = self._buckets
        bucket = buckets.pop(key, None)
        if bucket is None:
            tokens = full
        else:
            tokens = bucket[0] + (now - bucket[1]) * self.rate
            if tokens > full:
                tokens = full
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        buckets[key] = (tokens, now)
        if len(buckets) > self.max_keys:
            buckets.popitem(last=False)  # forget the least recently seen seat
        return allowed

    def retry_after_s(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key``'s bucket holds a whole token again (0 if it does)."""
        if self.rate <= 0 or key not in self._buckets:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets[key]
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        return max(0.0, (1.0 - tokens) / self.rate)
