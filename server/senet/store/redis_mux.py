"""One Redis connection carrying many concurrent commands: the store's hot path.

redis-py's asyncio client takes a pooled connection per command, packs it in
Python and waits for the reply before the connection serves anyone else. On a
busy replica that costs more CPU than the command itself: about 115 us per
commit script call, against about 20 us when the same calls share one
connection (measured with 32 calls in flight; see ``python -m tests.bench service``).

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

A caller that stops waiting (cancelled, or past its store's time budget) leaves
its future in the queue of commands in flight, cancelled: the reply Redis sends
for it later takes that place and is dropped there, so replies are never
shifted onto the commands sent after it.
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
        self._transport: asyncio.Transport | None = None
        self._replies: _Replies | None = None
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
        if self._transport is None:
            await self._open()
        return await self.send(*args)

    @property
    def connected(self) -> bool:
        """Whether :meth:`send` can put a command on the wire right now."""
        return self._transport is not None

    def send(self, *args: Arg) -> asyncio.Future[Any]:
        """Send one command now (or with this loop turn's batch); its reply's future.

        Needs a :attr:`connected` mux; the future fails as :meth:`execute` would.
        """
        if self._transport is None:
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
        self._drop(rex.ConnectionError("connection closed by the store"))
        await asyncio.sleep(0)  # let the transport's close run

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
        if self._transport is None:  # lost again before this caller resumed
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
        # From now on the socket's bytes come to this mux, not to redis-py's reader.
        replies = _Replies(self)
        writer.transport.set_protocol(replies)
        self._connection = connection
        self._transport = cast(asyncio.Transport, writer.transport)
        self._replies = replies

    def _flush(self) -> None:
        """Write everything buffered this loop turn in one call."""
        self._flush_pending = False
        if not self._out:
            return
        data = b"".join(self._out)
        self._out.clear()
        self._write(data)

    def _write(self, data: bytes) -> None:
        if self._transport is None:  # dropped meanwhile: its futures already failed
            return
        try:
            self._transport.write(data)
        except (OSError, RuntimeError) as e:
            self._drop(rex.ConnectionError(f"redis write failed: {e}"))

    def _received(self, replies: _Replies, data: bytes) -> None:
        """Hand out the replies in ``data``, oldest command first."""
        if replies is not self._replies:
            return  # a connection already dropped
        parser = replies.parser
        waiting = self._waiting
        try:
            parser.feed(data)
            while (reply := parser.gets()) is not False:
                if not waiting:
                    self._drop(rex.ConnectionError("redis sent a reply nobody asked for"))
                    return
                future, _sent = waiting.popleft()
                if future.done():  # its caller was cancelled; the reply is dropped
                    continue
                if isinstance(reply, hiredis.ReplyError):
                    future.set_exception(_parse_error(str(reply)))
                else:
                    future.set_result(reply)
        except hiredis.ProtocolError as e:
            self._drop(rex.ConnectionError(f"redis protocol error: {e}"))

    def _lost(self, replies: _Replies, exc: Exception | None) -> None:
        if replies is self._replies:
            reason = f": {exc}" if exc else ""
            self._drop(rex.ConnectionError(f"redis connection lost{reason}"))

    def _check_overdue(self) -> None:
        """Drop the connection when its oldest command has waited too long."""
        self._watchdog = None
        if not self._waiting:
            return
        loop = asyncio.get_running_loop()
        _future, sent = self._waiting[0]
        due = sent + self._timeout_s
        if loop.time() >= due:
            self._drop(rex.TimeoutError(f"no reply from redis in {self._timeout_s:g} s"))
        else:
            self._watchdog = loop.call_at(due, self._check_overdue)

    def _drop(self, error: rex.RedisError) -> None:
        """Fail every command in flight with ``error`` and close the connection."""
        connection, self._connection = self._connection, None
        transport, self._transport = self._transport, None
        self._replies = None
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        self._out.clear()
        while self._waiting:
            future, _sent = self._waiting.popleft()
            if not future.done():
                future.set_exception(error)
        if transport is not None:
            transport.close()
        if connection is not None:  # lets redis-py forget its streams (closed above)
            task = asyncio.get_running_loop().create_task(
                cast(Any, connection).disconnect(nowait=True)
            )
            task.add_done_callback(lambda t: t.cancelled() or t.exception())


class _Replies(asyncio.Protocol):
    """The socket's receiving end once connected: bytes in, replies out (in order)."""

    def __init__(self, mux: MuxConnection) -> None:
        self.mux = mux
        self.parser = hiredis.Reader(encoding="utf-8", errors="replace")

    def data_received(self, data: bytes) -> None:
        self.mux._received(self, data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.mux._lost(self, exc)
