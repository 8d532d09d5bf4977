"""Running a coroutine to its end from a synchronous test or fixture, and
waiting in an asynchronous one for what another task does.

``asyncio.run`` refuses to start when the calling thread already has a running
event loop, which a synchronous test may inherit from an earlier test of the same
worker; a thread of its own always starts clean.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

T = TypeVar("T")
P = ParamSpec("P")


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a new event loop in a thread of its own; its result."""
    return in_thread(asyncio.run, coroutine)


def in_thread(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call(*args, **kwargs)`` in a thread of its own (for a function that runs
    an event loop itself, such as a benchmark's ``run``); its result."""
    with ThreadPoolExecutor(1, thread_name_prefix="run-sync") as pool:
        return pool.submit(call, *args, **kwargs).result()


async def eventually(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Return once ``condition()`` holds, polling; after ``timeout_s``, return
    anyway (the test's own assertion then says what did not happen)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not condition() and loop.time() < deadline:
        await asyncio.sleep(0.005)
