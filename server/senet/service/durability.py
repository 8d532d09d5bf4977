"""Watching whether the match store keeps matches across its own restart.

A Redis without persistence loses every match when it restarts, after which the
server answers MATCH_NOT_FOUND while healthy. The server therefore checks the
store's persistence at start and every few seconds, and:

* logs a warning when the store keeps nothing on disk (or will not say), and an
  error when such a store restarted (its matches are gone);
* publishes the verdict as the health service ``senet.durability`` (SERVING when
  persistent, NOT_SERVING when not, UNKNOWN when the store will not say) and the
  gauge ``senet_store_persistent``, for operators and alerts.

The embedded in-memory store is non-persistent by design: reported, not warned about.
"""

from __future__ import annotations

import asyncio
import logging

from grpc_health.v1 import health_pb2
from grpc_health.v1._async import HealthServicer

from senet.service import metrics
from senet.service.cancellation import stop_if_cancelled
from senet.store import Durability, MatchStore, StoreError

log = logging.getLogger("senet.server")

DURABILITY_SERVICE = "senet.durability"
_STATUS = {
    True: health_pb2.HealthCheckResponse.SERVING,
    False: health_pb2.HealthCheckResponse.NOT_SERVING,
    None: health_pb2.HealthCheckResponse.UNKNOWN,
}


class DurabilityWatch:
    """Checks the store's persistence and reports what changed since the last check."""

    def __init__(self, store: MatchStore, health: HealthServicer, timeout_s: float = 2.0):
        self._store = store
        self._health = health
        self._timeout_s = timeout_s
        self.last: Durability | None = None

    async def check(self) -> Durability | None:
        """One check; None when the store did not answer (the health probe says so)."""
        try:
            found = await asyncio.wait_for(self._store.durability(), self._timeout_s)
        except (StoreError, TimeoutError, OSError):
            return None
        previous, self.last = self.last, found
        if previous is None or previous.persistent != found.persistent:
            await self._report(found)
        if previous is not None and previous.instance and previous.instance != found.instance:
            self._restarted(previous)
        return found

    async def _report(self, found: Durability) -> None:
        metrics.STORE_PERSISTENT.set({True: 1, False: 0, None: -1}[found.persistent])
        await self._health.set(DURABILITY_SERVICE, _STATUS[found.persistent])
        extra = {"persistence": found.detail}
        if found.persistent or found.by_design:
            log.info("match store persistence", extra=extra)
        elif found.persistent is None:
            log.warning(
                "cannot tell whether the match store keeps matches on disk; make sure it "
                "has an append-only file or snapshots, or a store restart loses every match",
                extra=extra,
            )
        else:
            log.warning(
                "the match store keeps nothing on disk: a store restart loses every match "
                "(turn on appendonly)",
                extra=extra,
            )

    def _restarted(self, previous: Durability) -> None:
        if previous.persistent:
            log.warning("the match store restarted", extra={"persistence": previous.detail})
        else:
            log.error(
                "the match store restarted without persistence: every match it held is lost",
                extra={"persistence": previous.detail},
            )


async def watch(watcher: DurabilityWatch, interval_s: float) -> None:
    """Check every ``interval_s`` until cancelled."""
    while True:
        await asyncio.sleep(interval_s)
        await watcher.check()
        stop_if_cancelled()
