"""Per-client quotas, so one client cannot flood a replica or the store.

A *client* is the caller's network address without its port (``context.peer()``:
every connection from one host counts as one client), or, when the server runs
behind a proxy it trusts, the value of the header named by
``Settings.client_header`` (e.g. ``x-forwarded-for`` as Envoy sets it), since
behind a proxy every caller shares the proxy's address.

Quotas, like the seat rate limits, live in this process: each replica protects
itself and no store round trip is spent on them. Four of them:

* matches created per client per minute (a token bucket: the minute's budget may
  be spent at once, then refills evenly);
* unary calls per client per second (a token bucket with a burst);
* streams (WatchMatch + PlayMatch) open at once per client;
* streams open at once per seat token (a seat needs one or two: a PlayMatch,
  perhaps a WatchMatch, and one more while a stream reconnects).

Every refusal is RESOURCE_EXHAUSTED with reason QUOTA_EXCEEDED, the quota's name
and limit, and a google.rpc.RetryInfo delay.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator

from senet.service import errors
from senet.service.ratelimit import RateLimiter
from senet.service.settings import Settings

#: How long a client refused a stream is told to wait (streams free up when closed).
STREAM_RETRY_S = 1.0


class Quotas:
    """The quotas of one replica (see the module docstring)."""

    def __init__(self, settings: Settings) -> None:
        per_minute = settings.client_creates_per_min
        self.creates = RateLimiter(per_minute / 60, max(1, per_minute))
        self.calls = RateLimiter(settings.client_calls_per_s, settings.client_calls_burst)
        self.client_streams = settings.client_streams
        self.seat_streams = settings.seat_streams
        self._by_client: Counter[str] = Counter()
        self._by_seat: Counter[str] = Counter()

    def take_call(self, client: str) -> None:
        """Count one unary call of ``client``."""
        if not self.calls.allow(client):
            raise errors.QuotaExceeded(
                "too many calls from this client; slow down",
                {"quota": "client_calls_per_s", "limit": f"{self.calls.rate:g}"},
                retry_after_s=self.calls.retry_after_s(client),
            )

    def take_create(self, client: str) -> None:
        """Count one match created by ``client``."""
        if not self.creates.allow(client):
            raise errors.QuotaExceeded(
                "this client created too many matches this minute",
                {"quota": "client_creates_per_min", "limit": self.creates.burst},
                retry_after_s=self.creates.retry_after_s(client),
            )

    @contextlib.contextmanager
    def stream(self, client: str, seat_key: str | None) -> Iterator[None]:
        """Hold one stream slot of ``client`` (and of the seat, when it has a
        token) while the stream is open."""
        if self.client_streams > 0 and self._by_client[client] >= self.client_streams:
            raise errors.QuotaExceeded(
                "this client has too many streams open",
                {"quota": "client_streams", "limit": self.client_streams},
                retry_after_s=STREAM_RETRY_S,
            )
        if (
            seat_key is not None
            and self.seat_streams > 0
            and self._by_seat[seat_key] >= self.seat_streams
        ):
            raise errors.QuotaExceeded(
                "this seat has too many streams open",
                {"quota": "seat_streams", "limit": self.seat_streams},
                retry_after_s=STREAM_RETRY_S,
            )
        self._by_client[client] += 1
        if seat_key is not None:
            self._by_seat[seat_key] += 1
        try:
            yield
        finally:
            _release(self._by_client, client)
            if seat_key is not None:
                _release(self._by_seat, seat_key)


def _release(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
