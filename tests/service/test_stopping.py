"""A replica stops its background loops even when a pass swallowed the cancellation.

redis-py (mid-connect, mid-read) can turn a ``CancelledError`` into a connection
error, which a loop logs and survives; the task's cancellation request still
counts, and every loop checks it at each turn (:mod:`senet.service.cancellation`).
Without that check the loop ran on after its server closed, and an event loop
closing for good waited on it forever (a test's teardown hung 300 s in CI).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from senet.service.server import RunningServer, create_server
from senet.service.settings import Settings
from senet.store import StoreError


def swallowing(entered: asyncio.Event) -> Callable[..., Awaitable[None]]:
    """A store call that waits, and answers a cancellation with a store error."""

    async def call(*_args: object, **_kwargs: object) -> None:
        entered.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            raise StoreError("connection closed by the cancellation") from None

    return call


def _patch(running: RunningServer, loop: str, call: Callable[..., Awaitable[None]]) -> None:
    service = running.servicer.service
    if loop == "ladder":
        assert running.ladder_servicer is not None
        running.ladder_servicer.ladders.passes = [call]
    elif loop == "matchmaking":
        assert running.player_servicer is not None
        running.player_servicer.matchmaker.match_once = call  # type: ignore[method-assign,assignment]
    else:
        service.lobby.sweep = call  # type: ignore[method-assign,assignment]


@pytest.mark.parametrize("loop", ["ladder", "matchmaking", "lobby"])
async def test_a_loop_whose_pass_swallowed_its_cancellation_still_stops(loop: str) -> None:
    settings = Settings(port=0, log_json=False, host="127.0.0.1", lobby_sweep_s=0.05)
    running = await create_server(settings)
    entered = asyncio.Event()
    _patch(running, loop, swallowing(entered))
    await asyncio.wait_for(entered.wait(), 30)
    tasks = list(running._tasks)
    await running.stop()
    assert all(task.done() for task in tasks), [t for t in tasks if not t.done()]
