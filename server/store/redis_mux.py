"""One Redis connection carrying many concurrent commands: the store's hot path.

redis-py's asyncio client takes a pooled connection per command, packs it in
Python and waits for the reply before the connection serves anyone else. On a
busy replica that costs more CPU than the command itself: about 115 us per
commit script call, against about 20 us when the same calls share one
connection (measured with 32 calls in flight; see ``make bench service``).

A :class:`MuxConnection` multiplexes instead. Commands are packed by hiredis
(C), appended to an output buffer that is flushed once per event-loop turn, so
commands issued together leave in one write (automatic pipelining); replies are
parsed by a hiredis reader and handed out in order, because Redis answers the
commands of one connection in the order it received them. Redis runs one
command at a time anyway, so one connection per node loses no parallelism.

The connection is opened by redis-py itself (``Connection.connect``), so TLS,
AUTH, SELECT and Unix sockets follow the same URL options as the rest of the
store; afterwards only its socket streams are used. Blocking commands
(``XREAD BLOCK``) must never go through a multiplexed connection: they would
hold up every reply behind them. The store keeps those on redis-py's pool.

Failures: a lost connection or a reply overdue by ``timeout_s`` fails every
command in flight with redis-py's ``ConnectionError`` / ``TimeoutError`` and
closes the connection; the next command reconnects. Error replies become
redis-py's own exception classes (``NoScriptError``, ``BusyLoadingError``,
``MovedError``, ...), parsed by redis-py's table, so callers handle both paths
alike. Whether a command in flight on a lost connection ran is unknown, exactly
as with redis-py.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any, cast

import hiredis
import redis.exceptions as rex
from redis._parsers.base import BaseParser
from redis.asyncio.connection import AbstractConnection

__all__ = ["MuxConnection", "MuxUnsupported"]

#: Builds an unconnected redis-py connection to the node this mux serves.
ConnectionFactory = Callable[[], AbstractConnection]

#: What a command's arguments may be: hiredis encodes str as UTF-8, numbers as text.
Arg = str | int | float | bytes | memoryview

_READ_SIZE = 1 << 16
# Untyped in redis-py: the table that turns an error reply into its exception.
_parse_error = cast(Callable[[str], rex.ResponseError], cast(Any, BaseParser).parse_error)


class MuxUnsupported(RuntimeError):
    """This redis-py version does not expose the connection's socket streams."""


class MuxConnection:
    """Pipelines concurrent commands over one connection; replies come back in order.

    Args:
        factory: Makes the redis-py connection to open (it is connected with RESP2).
        timeout_s: How long the oldest command in flight may wait for its reply
            before the connection is declared dead.
    """

    def __init__(self, factory: ConnectionFactory, timeout_s: float) -> None:
        self._factory = factory
        self._timeout_s = timeout_s
        self._connection: AbstractConnection | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._opening: asyncio.Task[None] | None = None
        # Futures of the commands sent and not yet answered, oldest first, with
        # the loop time each was sent at.
        self._waiting: deque[tuple[asyncio.Future[Any], float]] = deque()
        self._out: list[bytes] = []
        self._flush_pending = False
        self._watchdog: asyncio.TimerHandle | None = None
        self._closed = False

    @property
    def in_flight(self) -> int:
        """Commands sent (or buffered) and not yet answered."""
        return len(self._waiting)

    async def execute(self, *args: Arg) -> Any:
        """Send one command and return its reply (``decode_responses`` style: str).

        Raises:
            redis.exceptions.ResponseError: (or a subclass) Redis answered an error.
            redis.exceptions.ConnectionError: the connection failed or closed.
            redis.exceptions.TimeoutError: the reply was overdue.
        """
        if self._writer is None:
            await self._open()
        return await self.send(*args)

    @property
    def connected(self) -> bool:
        """Whether :meth:`send` can put a command on the wire right now."""
        return self._writer is not None

    def send(self, *args: Arg) -> asyncio.Future[Any]:
        """Send one command now (or with this loop turn's batch); its reply's future.

        Needs a :attr:`connected` mux; the future fails as :meth:`execute` would.
        """
        if self._writer is None:
            raise rex.ConnectionError("not connected to redis")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        try:
            packed = hiredis.pack_command(cast(Any, args))
        except TypeError as e:
            raise rex.DataError(str(e)) from e
        if self._waiting or self._out:
            # Others are in flight: batch with whatever else comes this loop turn.
            self._out.append(packed)
            if not self._flush_pending:
                self._flush_pending = True
                loop.call_soon(self._flush)
        else:  # an idle connection: no reason to wait for a batch
            self._write(packed)
        self._waiting.append((future, loop.time()))
        if self._watchdog is None:
            self._watchdog = loop.call_later(self._timeout_s, self._check_overdue)
        return future

    async def close(self) -> None:
        """Fail what is in flight and close the connection for good."""
        self._closed = True
        await self._drop(rex.ConnectionError("connection closed by the store"))

    # -- connection -------------------------------------------------------------

    async def _open(self) -> None:
        """Connect once, however many callers are waiting for the connection.

        The connection is opened by a task of its own, so a caller cancelled
        meanwhile gives up its own wait only, not the connection others wait for.
        """
        if self._closed:
            raise rex.ConnectionError("connection closed by the store")
        opening = self._opening
        if opening is None:
            opening = asyncio.get_running_loop().create_task(self._connect())
            opening.add_done_callback(self._opened)
            self._opening = opening
        await asyncio.shield(opening)
        if self._writer is None:  # lost again before this caller resumed
            raise rex.ConnectionError("connection to redis lost")

    def _opened(self, task: asyncio.Task[None]) -> None:
        self._opening = None
        if not task.cancelled():
            task.exception()  # retrieved here too, in case no caller is left waiting

    async def _connect(self) -> None:
        """Open the connection and start reading its replies (the task behind _open)."""
        connection = self._factory()
        try:
            await cast(Any, connection).connect()
            reader = getattr(connection, "_reader", None)
            writer = getattr(connection, "_writer", None)
            if not isinstance(reader, asyncio.StreamReader) or writer is None:
                raise MuxUnsupported("redis-py connection has no socket streams")
            if self._closed:  # close() ran while this connection was being opened
                raise rex.ConnectionError("connection closed by the store")
        except BaseException:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)
            raise
        self._connection = connection
        self._writer = writer
        self._reader_task = asyncio.create_task(self._read_replies(reader))

    def _flush(self) -> None:
        """Write everything buffered this loop turn in one call."""
        self._flush_pending = False
        if not self._out:
            return
        data = b"".join(self._out)
        self._out.clear()
        self._write(data)

    def _write(self, data: bytes) -> None:
        if self._writer is None:  # dropped meanwhile: its futures already failed
            return
        try:
            self._writer.write(data)
        except (OSError, RuntimeError) as e:
            self._schedule_drop(rex.ConnectionError(f"redis write failed: {e}"))

    async def _read_replies(self, reader: asyncio.StreamReader) -> None:
        parser = hiredis.Reader(encoding="utf-8", errors="replace")
        waiting = self._waiting
        error: rex.RedisError
        try:
            while True:
                data = await reader.read(_READ_SIZE)
                if not data:
                    error = rex.ConnectionError("redis closed the connection")
                    break
                parser.feed(data)
                while (reply := parser.gets()) is not False:
                    if not waiting:
                        error = rex.ConnectionError("redis sent a reply nobody asked for")
                        break
                    future, _sent = waiting.popleft()
                    if future.done():  # its caller was cancelled; the reply is dropped
                        continue
                    if isinstance(reply, hiredis.ReplyError):
                        future.set_exception(_parse_error(str(reply)))
                    else:
                        future.set_result(reply)
                else:
                    continue
                break
        except asyncio.CancelledError:
            raise
        except (OSError, hiredis.ProtocolError) as e:
            error = rex.ConnectionError(f"redis connection failed: {e}")
        self._reader_task = None
        await self._drop(error)

    def _check_overdue(self) -> None:
        """Drop the connection when its oldest command has waited too long."""
        self._watchdog = None
        if not self._waiting:
            return
        loop = asyncio.get_running_loop()
        _future, sent = self._waiting[0]
        due = sent + self._timeout_s
        if loop.time() >= due:
            self._schedule_drop(rex.TimeoutError(f"no reply from redis in {self._timeout_s:g} s"))
        else:
            self._watchdog = loop.call_at(due, self._check_overdue)

    def _schedule_drop(self, error: rex.RedisError) -> None:
        task = asyncio.get_running_loop().create_task(self._drop(error))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _drop(self, error: rex.RedisError) -> None:
        """Fail every command in flight with ``error`` and close the connection."""
        connection, self._connection, self._writer = self._connection, None, None
        reader_task, self._reader_task = self._reader_task, None
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        self._out.clear()
        while self._waiting:
            future, _sent = self._waiting.popleft()
            if not future.done():
                future.set_exception(error)
        if reader_task is not None and reader_task is not asyncio.current_task():
            reader_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader_task
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)
