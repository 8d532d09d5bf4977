"""Stopping a replica's background loops even when a cancellation was swallowed.

On Python 3.11 a ``CancelledError`` can be lost on its way out: ``asyncio.wait_for``
returns a result that completed as the cancellation landed, and client libraries
(redis-py mid-connect or mid-read) turn it into a connection error that a loop
then logs and survives. The task's cancellation request still counts
(``Task.cancelling()``), so a loop that checks it at every turn stops anyway;
otherwise it runs on after its server closed and holds any shutdown that waits
for it (the server's bounded wait, and an event loop closing for good).
"""

from __future__ import annotations

import asyncio


def stop_if_cancelled() -> None:
    """Raise ``CancelledError`` when the running task was asked to stop.

    Raises:
        asyncio.CancelledError: a cancellation of the current task is pending.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
