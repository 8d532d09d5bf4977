"""The Redis match store: shared state for any number of stateless server replicas.

Layout, for match ``m`` under prefix ``p`` (``{m}`` is a Redis Cluster hash tag,
so all keys of one match live in one slot and a Lua script may touch them all):

* ``p:{m}:meta``   string, the meta JSON;
* ``p:{m}:seats``  hash, seat number -> claim JSON (written with HSETNX);
* ``p:{m}:head``   hash, ``version``, ``snapshot``, ``status``;
* ``p:{m}:log``    list, log entry JSON of version ``i`` at index ``i - 1``;
* ``p:{m}:req``    hash, request key -> version it produced;
* ``p:{m}:events`` stream, one entry per version with id ``<version>-0`` and
  field ``e`` = the events JSON, so XRANGE/XREAD address versions directly and a
  watcher blocked on any replica wakes on a commit made through any other.

Every write and every multi-key read is one Lua script (one EVALSHA round trip,
atomic on the server); the scripts are files under ``lua/``, each headed by its
KEYS, ARGV and reply (:mod:`senet.store.redis_scripts` reads them). Each write
also sets the TTL of all the match's keys to the same deadline: ``idle_ttl``
while the match is active, ``finished_ttl`` once it is not, so a match expires
as a whole and never half-way.

Scripts go through :class:`~senet.store.redis_mux.MuxConnection`, one
pipelined connection per Redis node, which costs a fraction of redis-py's
per-command CPU (see that module). redis-py's client remains for everything
else: blocking reads, pings, and any script call the multiplexed connection
cannot place (a cluster redirect while the slot map is stale, a cluster node
lost or failing over, or a redis-py without socket streams), so both paths give
the same results and errors, and redis-py's cluster client learns every change
of topology from the calls it takes over.

Blocking reads (XREAD BLOCK) run on their own client and connection pool: they
hold a connection for up to ``block_ms`` and must not starve commits and loads.

Redis Cluster: a ``redis+cluster://`` (or ``rediss+cluster://``) URL selects
redis-py's ``RedisCluster`` client, which sends every script and stream read to
the master owning the match's slot. Every script touches the keys of one match
only (one hash tag, so one slot) or the bot-decision queue only (tag ``{bots}``,
one slot too); Redis would refuse anything else with CROSSSLOT. Matches spread over all
masters by their ids; the bot queue lives on one master, a small and cheap set.

Error mapping: unreachable / loading / read-only / timed-out Redis ->
:class:`StoreUnavailable`; any other Redis error -> :class:`StoreError`. The
clients retry a failed command a couple of times on a fresh connection, so after
Redis restarts the dead pooled connections are replaced instead of failing.

Time budget: every operation, its retries and reconnections included, finishes
within ``op_timeout_s`` (the ``store_timeout_s`` setting) or fails with
:class:`StoreUnavailable`. A Redis that hangs (a long ``DEBUG SLEEP``, a stuck
fork, a paused VM) keeps TCP connections open and never answers, so socket
timeouts alone would let each retry wait again; one deadline around the whole
operation is what turns a hang into a prompt UNAVAILABLE that clients can retry
elsewhere or later. An operation abandoned at its deadline may still run once
Redis wakes: its reply is then dropped in its own place (see
:mod:`senet.store.redis_mux`), and every write is idempotent, so the retry the
client makes finds it done.
A commit retried that way may answer ``"duplicate"`` for a request that the lost
first attempt did apply; that is the same outcome a client retry gets, and the
application must treat it the same way.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any, NamedTuple, cast, get_args

import redis.exceptions as rex
from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.commands.core import AsyncScript

from senet.store.base import (
    BOTS,
    LOBBY_CREATE_GRACE_S,
    BotDecisionLease,
    BotDecisionRef,
    BotQueue,
    ClaimWrite,
    CommitOutcome,
    CommitRequest,
    CorruptMatch,
    Durability,
    EventBatch,
    LobbyCursor,
    LobbyEntry,
    LobbyHint,
    LobbyQuery,
    LobbyScan,
    LogEntry,
    MatchExists,
    MatchFacts,
    MatchNotFound,
    MatchStatus,
    MatchStore,
    NewMatch,
    ReopenOutcome,
    StoredMatch,
    StoreError,
    StoreUnavailable,
    now_ms,
)
from senet.store.redis_durability import read_durability
from senet.store.redis_mux import MuxConnection, MuxUnsupported
from senet.store.redis_scripts import script_text

__all__ = ["MatchKeys", "RedisStore", "is_cluster_url", "redacted_url"]

#: Streams one watchers' XREAD covers (a few dozen KB of command per wait).
_MULTI_READ_LIMIT = 1000

#: Either client: the store only uses commands both route correctly.
AnyRedis = Redis | RedisCluster

_STATUSES: frozenset[str] = frozenset(get_args(MatchStatus))

# Errors meaning "Redis cannot serve us right now", as opposed to a bad request.
# BusyLoadingError is a ConnectionError; OSError includes the builtin TimeoutError.
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    rex.ConnectionError,
    rex.TimeoutError,
    rex.ReadOnlyError,  # failover in progress: we still talk to a demoted primary
    rex.ClusterDownError,  # includes MasterDownError
    rex.TryAgainError,
    rex.SlotNotCoveredError,  # a cluster master failed and no replica took over yet
    OSError,
)
# Everything _store_error translates.
_TRANSLATED: tuple[type[BaseException], ...] = (
    *_UNAVAILABLE,
    rex.RedisClusterException,
    rex.RedisError,
)


class MatchKeys(NamedTuple):
    """The Redis keys of one match, in the order the Lua scripts expect them."""

    meta: str
    seats: str
    head: str
    log: str
    req: str
    events: str


@functools.lru_cache(maxsize=8192)
def _match_keys(prefix: str, match_id: str) -> MatchKeys:
    """Built once per active match: every store call of a match names its keys."""
    base = f"{prefix}:{{{match_id}}}:"
    return MatchKeys(*(base + part for part in MatchKeys._fields))


class RedisStore(MatchStore):
    """A :class:`MatchStore` in Redis.

    Use :meth:`from_url`; the constructor takes ready-made clients for tests and
    custom setups. Standalone (``Redis``) and cluster (``RedisCluster``) clients
    both work: keys and scripts keep each call within one hash slot.

    Args:
        client: Client for ordinary commands; must use ``decode_responses=True``.
        blocking_client: Client for XREAD BLOCK, with its own connection pool and
            ``decode_responses=True``; its socket timeout should be ``None``
            (this store bounds blocking reads itself).
        key_prefix: First component of every key; must not contain braces, or
            it would take over the per-match hash tag.
        finished_ttl_s: Lifetime of a match once its status is not ``"active"``
            (finished or abandoned), counted from its last commit. ``None`` or 0:
            no expiry.
        idle_ttl_s: Lifetime of an active match without commits. ``None`` or 0:
            no expiry.
        waiting_ttl_s: Lifetime of a match created waiting for players until
            it starts (or sees its first commit). ``None`` or 0: no expiry.
        op_timeout_s: Time budget of one operation, retries included: past it
            the operation fails with :class:`StoreUnavailable`. Blocking reads
            get it on top of their ``block_ms``.
        retries: Retries of a script call that failed with a connection error
            or timeout, after a short jittered backoff, as long as the budget
            lasts.
        multiplex: Send script calls over one pipelined connection per node
            (:mod:`senet.store.redis_mux`); False sends each through
            redis-py's pool.
    """

    def __init__(
        self,
        client: AnyRedis,
        blocking_client: AnyRedis,
        *,
        key_prefix: str = "senet",
        finished_ttl_s: float | None = 86400,
        idle_ttl_s: float | None = 7 * 86400,
        waiting_ttl_s: float | None = 3600,
        op_timeout_s: float = 2.0,
        retries: int = 2,
        multiplex: bool = True,
    ) -> None:
        if "{" in key_prefix or "}" in key_prefix:
            raise ValueError(f"key prefix must not contain braces: {key_prefix!r}")
        self._client = client
        self._blocking = blocking_client
        self._prefix = key_prefix
        self._finished_ttl_ms = _to_ms(finished_ttl_s)
        self._idle_ttl_ms = _to_ms(idle_ttl_s)
        self._waiting_ttl_ms = _to_ms(waiting_ttl_s)
        self._op_timeout_s = op_timeout_s
        self._retries = retries
        self._backoff = ExponentialWithJitterBackoff(base=0.02, cap=0.25)
        self._multiplex = multiplex
        self._muxes: dict[str, MuxConnection] = {}
        self._standalone_mux: MuxConnection | None = None
        # isinstance on redis-py's client classes is slow (a Protocol in their
        # bases), so the kind of client is decided once.
        self._cluster = client if isinstance(client, RedisCluster) else None
        self._create = client.register_script(script_text("create"))
        self._load = client.register_script(script_text("load"))
        self._claim = client.register_script(script_text("claim"))
        self._commit = client.register_script(script_text("commit"))
        self._events = client.register_script(script_text("events"))
        self._log = client.register_script(script_text("log"))
        self._request = client.register_script(script_text("request"))
        self._bot_post = client.register_script(script_text("bot_post"))
        self._bot_acquire = client.register_script(script_text("bot_acquire"))
        self._bot_renew = client.register_script(script_text("bot_renew"))
        self._bot_defer = client.register_script(script_text("bot_defer"))
        self._bot_release = client.register_script(script_text("bot_release"))
        self._replace_claim = client.register_script(script_text("replace_claim"))
        self._swap_claim = client.register_script(script_text("swap_claim"))
        self._more_scripts: dict[str, AsyncScript] = {}

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        key_prefix: str = "senet",
        finished_ttl_s: float | None = 86400,
        idle_ttl_s: float | None = 7 * 86400,
        waiting_ttl_s: float | None = 3600,
        socket_timeout_s: float = 2.0,
        connect_timeout_s: float = 2.0,
        retries: int = 2,
        max_connections: int = 10_000,
    ) -> RedisStore:
        """Build a store with two clients (ordinary and blocking) for ``url``.

        Args:
            url: ``redis://``, ``rediss://`` or ``unix://`` URL of one Redis; or
                ``redis+cluster://`` / ``rediss+cluster://`` URL of a Redis Cluster,
                whose host part may list several startup nodes separated by
                commas (``redis+cluster://:pw@node-a:6379,node-b:6379``): the
                client asks the first that answers for the slot map.
            key_prefix: See the class docstring.
            finished_ttl_s: See the class docstring.
            idle_ttl_s: See the class docstring.
            waiting_ttl_s: See the class docstring.
            socket_timeout_s: Time budget of one operation, retries included
                (see the class's ``op_timeout_s``), also the per-command socket
                timeout, and the slack allowed to blocking reads beyond their
                ``block_ms``.
            connect_timeout_s: TCP connect timeout (at most the budget).
            retries: Retries of a command failing with a connection error or
                timeout, each on a fresh connection after a short jittered
                backoff; small, so that a Redis outage surfaces quickly as
                UNAVAILABLE instead of stalling requests.
            max_connections: Pool limit of each client. Every match with live
                watchers on this replica holds one blocking connection while it
                waits, so the blocking pool needs room for all of them.
        """

        cluster = _cluster_nodes(url)

        def make(socket_timeout: float | None) -> AnyRedis:
            options: dict[str, Any] = {
                "decode_responses": True,
                "socket_timeout": socket_timeout,
                "socket_connect_timeout": min(connect_timeout_s, socket_timeout_s),
                "retry": Retry(ExponentialWithJitterBackoff(base=0.02, cap=0.25), retries),
                "max_connections": max_connections,
            }
            if cluster is None:
                return Redis.from_url(url, **options)
            first_url, more_nodes = cluster
            return RedisCluster.from_url(first_url, startup_nodes=more_nodes, **options)

        return cls(
            make(socket_timeout_s),
            make(None),
            key_prefix=key_prefix,
            finished_ttl_s=finished_ttl_s,
            idle_ttl_s=idle_ttl_s,
            waiting_ttl_s=waiting_ttl_s,
            op_timeout_s=socket_timeout_s,
            retries=retries,
        )

    @asynccontextmanager
    async def _calling(self, *, blocking: bool = False) -> AsyncIterator[None]:
        """Wrap one store call: connect a cluster client first, translate errors.

        A ``RedisCluster`` client learns the slot map lazily on its first command;
        redis-py 8 drops connections when dozens of first commands race to do it
        (as the watchers of a freshly started replica do), so the map is fetched
        here, once, under the client's own lock, before any command is sent.
        """
        client = self._blocking if blocking else self._client
        with _translate_errors():
            if isinstance(client, RedisCluster):
                async with self._budget():
                    await client.initialize()
            yield

    def _budget(self) -> asyncio.Timeout:
        """The deadline of one operation: past it, TimeoutError (-> StoreUnavailable)."""
        return asyncio.timeout(self._op_timeout_s)

    def _call(self, script: AsyncScript, keys: list[str], args: list[Any]) -> Awaitable[Any]:
        """Start ``script`` on the node owning ``keys`` (all of one slot); its reply.

        On a standalone Redis whose multiplexed connection is up, the EVALSHA
        leaves at once (with this loop turn's batch), before the caller awaits:
        a commit is on the wire while the service renders its reply. Anything
        else, and every failure of that early send, goes through :meth:`_run`.
        """
        mux = self._standalone_mux
        if mux is None or not mux.connected or not self._multiplex:
            return self._run(script, keys, args)
        try:
            sent = mux.send(*_evalsha(script, keys, args))
        except rex.RedisError:
            return self._run(script, keys, args)
        return self._run(script, keys, args, mux, sent)

    async def _run(
        self,
        script: AsyncScript,
        keys: list[str],
        args: list[Any],
        mux: MuxConnection | None = None,
        sent: asyncio.Future[Any] | None = None,
    ) -> Any:
        """Run ``script`` on the node owning ``keys``, or finish the call ``sent``
        already made over ``mux``; the reply.

        Over the node's multiplexed connection when there is one: EVALSHA, and
        on NOSCRIPT (a restarted or flushed Redis) SCRIPT LOAD and again.
        Connection failures are retried like redis-py retries its own; a
        cluster redirect is handed to redis-py's client, which follows it and
        refreshes its slot map for the calls after this one.

        Errors are translated as :meth:`_calling` translates them (without its
        context-manager overhead: this is the per-action path).

        The whole call, retries included, ends by its deadline (``op_timeout_s``
        from now). The common case, one attempt over a connected multiplexed
        connection, needs no timer of its own: the connection's watchdog fails
        any command unanswered for ``op_timeout_s``. Everything else (connecting,
        retries, redis-py's path) runs under an explicit deadline.
        """
        deadline = asyncio.get_running_loop().time() + self._op_timeout_s
        try:
            if mux is None:
                cluster = self._cluster
                if cluster is not None and getattr(cluster, "_initialize", True):
                    async with asyncio.timeout_at(deadline):
                        await cluster.initialize()
                mux = self._mux_for(keys[0])
                if mux is None:
                    async with asyncio.timeout_at(deadline):
                        return await script(keys=keys, args=args)
            return await self._run_muxed(mux, script, keys, args, sent, deadline)
        except _TRANSLATED as e:
            raise _store_error(e) from e

    async def _run_muxed(
        self,
        mux: MuxConnection,
        script: AsyncScript,
        keys: list[str],
        args: list[Any],
        sent: asyncio.Future[Any] | None,
        deadline: float,
    ) -> Any:
        failures = 0
        while True:
            try:
                try:
                    if sent is not None:
                        reply, sent = sent, None
                        return await reply  # bounded by the connection's watchdog
                    # Built here only: a call already sent (the usual case)
                    # built its command when it was sent.
                    command = _evalsha(script, keys, args)
                    if failures == 0 and mux.connected:
                        return await mux.send(*command)  # bounded likewise
                    async with asyncio.timeout_at(deadline):
                        return await mux.execute(*command)
                except rex.NoScriptError:
                    async with asyncio.timeout_at(deadline):
                        await mux.execute("SCRIPT", "LOAD", script.script)
                        return await mux.execute(*_evalsha(script, keys, args))
            except (rex.MovedError, rex.AskError, MuxUnsupported) as e:
                if isinstance(e, MuxUnsupported):
                    self._multiplex = False  # no socket streams: redis-py from now on
                async with asyncio.timeout_at(deadline):
                    return await script(keys=keys, args=args)
            except (rex.ConnectionError, rex.TimeoutError, rex.ClusterDownError, rex.TryAgainError):
                if self._cluster is not None:
                    # A node lost or failing over: redis-py's cluster client retries,
                    # learns the new slot map from the failure, and the next calls'
                    # multiplexed connections follow it.
                    async with asyncio.timeout_at(deadline):
                        return await script(keys=keys, args=args)
                failures += 1
                pause = self._backoff.compute(failures)
                left = deadline - asyncio.get_running_loop().time()
                if failures > self._retries or pause >= left:
                    raise
                await asyncio.sleep(pause)

    def _mux_for(self, key: str) -> MuxConnection | None:
        """The multiplexed connection to the node owning ``key``; None: use redis-py."""
        if not self._multiplex:
            return None
        if self._standalone_mux is not None:
            return self._standalone_mux
        client = self._client
        connection_class: type[AbstractConnection]
        if isinstance(client, RedisCluster):
            node = client.get_node_from_key(key)
            if node is None:
                return None
            name, connection_class, kwargs = (
                node.name,
                node.connection_class,
                node.connection_kwargs,
            )
        else:
            pool = client.connection_pool
            name, connection_class, kwargs = "", pool.connection_class, pool.connection_kwargs
        mux = self._muxes.get(name)
        if mux is None:
            # RESP2 whatever the URL asks: the multiplexer parses RESP2 replies.
            options = {**kwargs, "protocol": 2}
            mux = MuxConnection(lambda: connection_class(**options), self._op_timeout_s)
            self._muxes[name] = mux
            if self._cluster is None:
                self._standalone_mux = mux
        return mux

    @property
    def key_prefix(self) -> str:
        """The first component of every key of this store."""
        return self._prefix

    def script(self, name: str) -> AsyncScript:
        """Script ``name`` of :data:`~senet.store.redis_scripts.SCRIPT_NAMES`, registered
        once, for a store beside this one sharing its clients (the player store)."""
        if name not in self._more_scripts:
            self._more_scripts[name] = self._client.register_script(script_text(name))
        return self._more_scripts[name]

    async def run_script(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Run script ``name`` (keys of one slot) with this store's budget, retries
        and error translation; its reply."""
        return await self._call(self.script(name), keys, args)

    async def read(self, command: str, *args: Any) -> Any:
        """One plain command (a read) with this store's budget and error translation."""
        async with self._calling(), self._budget():
            return await self._client.execute_command(command, *args)

    def keys(self, match_id: str) -> MatchKeys:
        """The keys of ``match_id``, all sharing the hash tag ``{match_id}``."""
        return _match_keys(self._prefix, match_id)

    # -- MatchStore -----------------------------------------------------------

    async def create(self, match: NewMatch) -> None:
        """Write a new match at version 0 in one script; an existing id raises MatchExists."""
        ttl = self._idle_ttl_ms if match.status == "active" else self._finished_ttl_ms
        if match.waiting and match.status == "active":
            ttl = self._waiting_ttl_ms
        created = await self._call(
            self._create,
            list(self.keys(match.match_id)),
            [match.meta_json, match.snapshot_json, match.status, ttl],
        )
        if not created:
            raise MatchExists(f"match {match.match_id!r} already exists")

    async def load(self, match_id: str) -> StoredMatch:
        """Meta, seats and head read by one script, hence at one version."""
        k = self.keys(match_id)
        reply = await self._call(self._load, [k.meta, k.seats, k.head], [])
        if reply is None:
            raise MatchNotFound(match_id)
        meta, seats_flat, version, snapshot, status = cast(list[Any], reply)
        return StoredMatch(
            match_id=match_id,
            meta_json=meta,
            seats=_seats(match_id, seats_flat),
            version=_version(match_id, version),
            snapshot_json=snapshot if isinstance(snapshot, str) else "",
            status=_match_status(match_id, status),
        )

    async def claim_seat(
        self, match_id: str, claim: ClaimWrite, starting: Sequence[int] = ()
    ) -> bool:
        """HSETNX the seat, and start the match when it completes ``starting``
        (one script, ``claim.lua``, that first checks the match exists)."""
        k = self.keys(match_id)
        won = await self._call(
            self._claim,
            [k.head, k.seats, k.meta, k.events],
            [claim.seat, claim.claim_json, self._idle_ttl_ms, *starting],
        )
        if won == -1:
            raise MatchNotFound(match_id)
        return bool(won in (1, 2))

    async def commit(self, match_id: str, request: CommitRequest) -> CommitOutcome:
        """One EVALSHA: duplicate check, version check, then every write and TTL."""
        return await self.start_commit(match_id, request)

    def start_commit(self, match_id: str, request: CommitRequest) -> Awaitable[CommitOutcome]:
        """Put the commit on the wire now when the connection allows (see
        :meth:`_call`); a commit retried after a lost connection may answer
        ``"duplicate"`` as documented above."""
        reply = self._call(self._commit, list(self.keys(match_id)), self._commit_args(request))
        return _committed(match_id, reply)

    def _commit_args(self, request: CommitRequest) -> list[Any]:
        return [
            request.expected_version,
            request.request_key,
            request.log_entry_json,
            request.events_json,
            request.snapshot_json,
            request.status,
            self._idle_ttl_ms,
            self._finished_ttl_ms,
            "" if request.seat is None else request.seat,
            request.seat_claim_json or "",
            "" if request.next_seat is None else request.next_seat,
            request.next_seat_claim_json or "",
        ]

    async def events_after(
        self, match_id: str, version: int, limit: int = 1000, block_ms: int = 0
    ) -> list[EventBatch]:
        """Entries after ``version``: XREAD BLOCK when asked to wait, else XRANGE.

        Waiting reads use the explicit id after ``version`` (never ``$``, see
        :func:`_after_id`), so a commit made just before the call is returned
        at once, never missed.
        """
        if version < -1:
            raise ValueError(f"version must be >= -1, got {version}")
        if limit < 1:
            raise ValueError(f"limit must be >= 1, got {limit}")
        k = self.keys(match_id)
        if block_ms > 0:
            # XREAD from the explicit id after ``version`` returns at once when newer
            # entries exist and blocks otherwise, so a live reader costs one call
            # per wake-up; the existence check runs only when the wait times out.
            async with (
                self._calling(blocking=True),
                asyncio.timeout(block_ms / 1000 + self._op_timeout_s),
            ):
                streams = await self._blocking.xread(
                    {k.events: _after_id(version)}, count=limit, block=block_ms
                )
            batches = [
                _parsed_batch(entry_id, fields) for entry_id, fields in _stream_entries(streams)
            ]
            if batches:
                return batches
        start = "(" + _after_id(version)
        reply = await self._call(self._events, [k.head, k.events], [start, limit])
        if reply is None:
            raise MatchNotFound(match_id)
        return [_raw_batch(entry) for entry in cast(list[Any], reply)]

    @property
    def multi_read_limit(self) -> int:  # type: ignore[override]
        """Standalone Redis: up to 1,000 streams per XREAD. A cluster cannot read
        streams of several slots (several matches) in one command."""
        return 0 if self._cluster is not None else _MULTI_READ_LIMIT

    async def events_after_many(
        self, cursors: Mapping[str, int], limit: int = 1000, block_ms: int = 0
    ) -> dict[str, list[EventBatch]]:
        """One XREAD (BLOCK when asked to wait) over the streams of every match
        in ``cursors``, each from its explicit id ``<version>-0``."""
        if self._cluster is not None:
            raise NotImplementedError("a cluster reads match by match")
        if not cursors:
            return {}
        by_key = {self.keys(match_id).events: match_id for match_id in cursors}
        streams: dict[Any, Any] = {key: _after_id(cursors[m]) for key, m in by_key.items()}
        async with (
            self._calling(blocking=True),
            asyncio.timeout(block_ms / 1000 + self._op_timeout_s),
        ):
            reply = await self._blocking.xread(streams, count=limit, block=block_ms or None)
        out: dict[str, list[EventBatch]] = {}
        for key, entries in _stream_groups(reply):
            match_id = by_key.get(key)
            if match_id is not None:
                out[match_id] = [_parsed_batch(entry_id, fields) for entry_id, fields in entries]
        return out

    async def request_version(self, match_id: str, request_key: str) -> int | None:
        """HGET on the request hash, with the existence check in one script."""
        k = self.keys(match_id)
        reply = await self._call(self._request, [k.head, k.req], [request_key])
        if reply is None:
            raise MatchNotFound(match_id)
        version = int(cast(int, reply))
        return version or None

    async def action_log(self, match_id: str) -> list[LogEntry]:
        """The whole log list, read with the existence check in one script."""
        k = self.keys(match_id)
        reply = await self._call(self._log, [k.head, k.log], [])
        if reply is None:
            raise MatchNotFound(match_id)
        return [LogEntry(v, entry) for v, entry in enumerate(cast(list[str], reply), start=1)]

    # -- bot-decision queue ---------------------------------------------------

    def bot_keys(self, queue: BotQueue = BOTS) -> list[str]:
        """A queue's global keys (due, owner, info), sharing the tag ``{<queue>}``."""
        return [f"{self._prefix}:{{{queue}}}:{part}" for part in ("due", "owner", "info")]

    async def post_bot_decision(
        self,
        ref: BotDecisionRef,
        strategy: str,
        now_ms: int,
        queue: BotQueue = BOTS,
        due_ms: int | None = None,
    ) -> None:
        """One script: queue the decision, free at ``due_ms``, replacing the seat's entry."""
        due = now_ms if due_ms is None else due_ms
        await self._call(
            self._bot_post,
            self.bot_keys(queue),
            [f"{ref.match_id}:{ref.seat}", ref.version, now_ms, strategy, due],
        )

    async def acquire_bot_decisions(
        self, worker_id: str, capacity: int, lease_ms: int, now_ms: int, queue: BotQueue = BOTS
    ) -> list[BotDecisionLease]:
        """One script: pick due entries, push their free-at past the lease, set owner."""
        reply = await self._call(
            self._bot_acquire, self.bot_keys(queue), [worker_id, capacity, lease_ms, now_ms]
        )
        flat = cast(list[str], reply)
        leases = []
        for i in range(0, len(flat), 3):
            match_id, seat = _bot_member(flat[i])
            version, posted, strategy = flat[i + 1].split(" ", 2)
            leases.append(
                BotDecisionLease(
                    match_id, seat, int(version), strategy, int(flat[i + 2]), int(posted)
                )
            )
        return leases

    async def renew_bot_decisions(
        self,
        worker_id: str,
        refs: list[BotDecisionRef],
        lease_ms: int,
        now_ms: int,
        queue: BotQueue = BOTS,
    ) -> list[BotDecisionRef]:
        """One script: extend the leases the worker still owns at those versions."""
        if not refs:
            return []
        reply = await self._call(
            self._bot_renew, self.bot_keys(queue), [worker_id, lease_ms, now_ms, *_bot_pairs(refs)]
        )
        held = set(cast(list[str], reply))
        return [r for r in refs if f"{r.match_id}:{r.seat}" in held]

    async def defer_bot_decisions(
        self, worker_id: str, refs: list[BotDecisionRef], until_ms: int, queue: BotQueue = BOTS
    ) -> None:
        """One script: free the worker's entries again at ``until_ms``."""
        if refs:
            await self._call(
                self._bot_defer, self.bot_keys(queue), [worker_id, until_ms, *_bot_pairs(refs)]
            )

    async def release_bot_decisions(
        self, worker_id: str, refs: list[BotDecisionRef], queue: BotQueue = BOTS
    ) -> None:
        """One script: drop the worker's entries at those versions."""
        if refs:
            await self._call(
                self._bot_release, self.bot_keys(queue), [worker_id, *_bot_pairs(refs)]
            )

    async def replace_seat_claim(self, match_id: str, seat: int, claim_json: str) -> None:
        """HSET the seat's claim (in a script that first checks the match exists)."""
        k = self.keys(match_id)
        done = await self._call(self._replace_claim, [k.head, k.seats], [seat, claim_json])
        if not done:
            raise MatchNotFound(match_id)

    # -- leaving --------------------------------------------------------------

    async def swap_seat_claim(
        self, match_id: str, seat: int, expected_json: str, new_json: str | None
    ) -> bool:
        """One script: compare the seat's claim, then replace or remove it."""
        return await self._swap(match_id, seat, expected_json, new_json) == 1

    async def reopen_seat(self, match_id: str, seat: int, expected_json: str) -> ReopenOutcome:
        """One script (``swap_claim.lua``): compare the claim, check the match
        has not started, remove the claim."""
        done = await self._swap(match_id, seat, expected_json, None)
        return "reopened" if done == 1 else "started" if done == 2 else "changed"

    async def _swap(
        self, match_id: str, seat: int, expected_json: str, new_json: str | None
    ) -> int:
        k = self.keys(match_id)
        done = await self._call(
            self._swap_claim, [k.head, k.seats, k.events], [seat, expected_json, new_json or ""]
        )
        if done == -1:
            raise MatchNotFound(match_id)
        return int(cast(int, done))

    # -- lobby ----------------------------------------------------------------
    # Three keys under the hash tag {lobby}: ``p:{lobby}:order``, a sorted set
    # whose members (all of score 0, so ordered as strings) are ``<inverted
    # creation time>:<match id>``, newest first; ``p:{lobby}:hints``, match id ->
    # hint JSON; and ``p:{lobby}:deadlines``, match id -> when to check that its
    # match still exists (Unix ms; see MatchStore.lobby_sweep). A match's own keys
    # live in another slot, so entries are written and checked by separate calls
    # (see MatchStore): the entries of expired matches are dropped by readers, by
    # the sweeps of entries past their deadline (a few on every write, more
    # from each replica's periodic sweep), and by a few random checks on every
    # write (which also find entries written without a deadline).

    #: Entries checked for a vanished match on every lobby write.
    LOBBY_SAMPLE = 2

    #: Entries past their deadline checked on every lobby write.
    LOBBY_DUE = 4

    @functools.cached_property
    def _lobby_scripts(self) -> dict[str, AsyncScript]:
        return {
            name: self._client.register_script(script_text(f"lobby_{name}"))
            for name in ("put", "scan", "drop", "peek", "due", "defer")
        }

    def lobby_keys(self) -> list[str]:
        """The lobby's keys (order, hints, deadlines), sharing the tag ``{lobby}``."""
        return [f"{self._prefix}:{{lobby}}:{part}" for part in ("order", "hints", "deadlines")]

    def _lobby_ttl_ms(self, hint: LobbyHint | None) -> int:
        """The TTL a match with this hint was given by its last write (0: none);
        with no hint, the longest a match can get."""
        if hint is None:
            return max(self._idle_ttl_ms, self._finished_ttl_ms, self._waiting_ttl_ms)
        if hint.status != "active":
            return self._finished_ttl_ms
        if hint.open_seats > 0 and self._waiting_ttl_ms:
            return min(self._waiting_ttl_ms, self._idle_ttl_ms or self._waiting_ttl_ms)
        return self._idle_ttl_ms

    async def lobby_put(self, entry: LobbyEntry) -> None:
        """One script on the lobby's slot, which also draws a few random entries to
        check (entries of matches gone are dropped)."""
        member = _lobby_member(entry.cursor)
        hint = entry.hint
        if hint is None:
            raise ValueError("a lobby entry is written with its hint")
        fields = {"k": member, "g": hint.game_id, "s": hint.status, "o": hint.open_seats}
        if hint.rated is not None:
            fields["r"] = int(hint.rated)
        text = json.dumps(fields, separators=(",", ":"))
        now = now_ms()
        ttl_ms = self._lobby_ttl_ms(hint)
        sample, due = await self._call(
            self._lobby_scripts["put"],
            self.lobby_keys(),
            [
                member,
                entry.match_id,
                text,
                self.LOBBY_SAMPLE,
                now + ttl_ms if ttl_ms else 0,
                self.LOBBY_DUE,
                now,
            ],
        )
        await asyncio.gather(
            self._lobby_check_sample(cast(list[str], sample)),
            self._lobby_check_due([_lobby_cursor(m) for m in cast(list[str], due)], now),
        )

    async def _lobby_check_sample(self, sample: list[str]) -> None:
        """Drop the sampled entries whose match is gone (past the creation grace):
        entries written without a deadline are found this way too."""
        cursors = [_lobby_cursor(m) for m in sample]
        young = (time.time() - LOBBY_CREATE_GRACE_S) * 1e6
        old = [c for c in cursors if c.created_us < young]
        if not old:
            return
        facts = await self.lobby_peek([c.match_id for c in old])
        await self.lobby_drop([c for c in old if facts[c.match_id] is None])

    async def lobby_sweep(self, limit: int) -> int:
        """Two scripts on the lobby's slot around one read of each match."""
        now = now_ms()
        due = await self._call(self._lobby_scripts["due"], self.lobby_keys()[1:], [now, limit])
        cursors = [_lobby_cursor(m) for m in cast(list[str], due)]
        await self._lobby_check_due(cursors, now)
        return len(cursors)

    async def _lobby_check_due(self, cursors: list[LobbyCursor], now_ms: int) -> None:
        """Drop the entries past their deadline whose match is gone; move the
        others' deadlines to their matches' expiry."""
        if not cursors:
            return
        facts = await self.lobby_peek([c.match_id for c in cursors])
        gone: list[LobbyCursor] = []
        later: list[str | int] = [now_ms]
        for cursor in cursors:
            fact = facts[cursor.match_id]
            if fact is None:
                gone.append(cursor)
                continue
            if isinstance(fact, CorruptMatch):
                ttl_ms = self._lobby_ttl_ms(None)  # its expiry is unknown: check again later
            elif fact.expires_in_s is None:
                ttl_ms = 0
            else:
                ttl_ms = max(1, round(fact.expires_in_s * 1000))
            later += [cursor.match_id, now_ms + ttl_ms if ttl_ms else 0]
        await self.lobby_drop(gone)
        if len(later) > 1:
            await self._call(self._lobby_scripts["defer"], self.lobby_keys()[2:], later)

    async def lobby_scan(
        self, query: LobbyQuery, after: LobbyCursor | None, limit: int, budget: int
    ) -> LobbyScan:
        """One script walks the order from ``after`` and filters on the hints."""
        opened = _flag(query.has_open_seat)
        reply = await self._call(
            self._lobby_scripts["scan"],
            self.lobby_keys(),
            [
                "" if after is None else _lobby_member(after),
                limit,
                budget,
                query.game_id,
                query.status or "",
                opened,
                _flag(query.rated),
            ],
        )
        flat, last, looked = cast(list[Any], reply)
        entries = []
        for i in range(0, len(flat), 2):
            cursor = _lobby_cursor(flat[i])
            entries.append(LobbyEntry(cursor, _lobby_hint(flat[i + 1])))
        return LobbyScan(entries, _lobby_cursor(last) if last else None, int(looked))

    async def lobby_peek(
        self, match_ids: Sequence[str]
    ) -> dict[str, MatchFacts | CorruptMatch | None]:
        """One script per match, on its own slot, all sent at once."""
        script = self._lobby_scripts["peek"]
        replies = await asyncio.gather(
            *(
                self._call(script, [k.meta, k.seats, k.head], [])
                for k in (self.keys(m) for m in match_ids)
            )
        )
        facts: dict[str, MatchFacts | CorruptMatch | None] = {}
        for match_id, reply in zip(match_ids, replies, strict=True):
            try:
                facts[match_id] = self._facts(match_id, reply)
            except CorruptMatch as exc:
                facts[match_id] = exc
        return facts

    def _facts(self, match_id: str, reply: Any) -> MatchFacts | None:
        if reply is None:
            return None
        meta, seats_flat, version, status, pttl = cast(list[Any], reply)
        idle_s = None
        if status == "active" and self._idle_ttl_ms and int(pttl) >= 0:
            idle_s = max(0, self._idle_ttl_ms - int(pttl)) / 1000
        return MatchFacts(
            meta_json=meta,
            seats=_seats(match_id, seats_flat),
            version=_version(match_id, version),
            status=_match_status(match_id, status),
            idle_s=idle_s,
            expires_in_s=int(pttl) / 1000 if int(pttl) >= 0 else None,
        )

    async def lobby_drop(self, entries: Sequence[LobbyCursor]) -> None:
        """One script on the lobby's slot."""
        if entries:
            members = [_lobby_member(c) for c in entries]
            await self._call(self._lobby_scripts["drop"], self.lobby_keys(), members)

    async def ping(self) -> None:
        """PING on the ordinary client, and over the multiplexed connection that
        a standalone Redis's calls take (the blocking client connects on demand).

        Both, because they connect apart: redis-py's own client gets by with a
        password a Redis without one refuses (``AUTH ... without any password
        configured``), where the multiplexed connection fails, and with it every
        match call; health must say so rather than SERVING."""
        async with self._calling(), self._budget():
            await self._client.ping()
            mux = self._mux_for("") if self._cluster is None else None
            if mux is not None:
                try:
                    await mux.execute("PING")
                except MuxUnsupported:
                    self._multiplex = False  # no socket streams: redis-py from now on

    async def durability(self) -> Durability:
        """Append-only file or snapshots on every node that holds matches."""
        async with self._calling(), self._budget():
            return await read_durability(self._client)

    async def close(self) -> None:
        """Close the multiplexed connections, both clients and their pools."""
        muxes, self._muxes = list(self._muxes.values()), {}
        self._multiplex = False
        self._standalone_mux = None
        try:
            for mux in muxes:
                await mux.close()
            await self._client.aclose()
        finally:
            await self._blocking.aclose()


def is_cluster_url(url: str) -> bool:
    """Whether ``url`` names a Redis Cluster (scheme ``redis+cluster`` or ``rediss+cluster``)."""
    return url.partition("://")[0].lower() in ("redis+cluster", "rediss+cluster")


def redacted_url(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``, for logs and banners."""
    scheme, sep, rest = url.partition("://")
    credentials, at, hosts = rest.rpartition("@")
    if not sep or not at:
        return url
    user, colon, _password = credentials.partition(":")
    return f"{scheme}://{user}{colon}{'***' if colon else ''}@{hosts}"


def _cluster_nodes(url: str) -> tuple[str, list[ClusterNode]] | None:
    """Split a cluster URL into a plain URL of its first node and the other nodes.

    None for a URL that is not a cluster URL. redis-py parses one host per URL,
    so the extra startup nodes are passed to ``RedisCluster`` separately; they
    only matter while the first node is unreachable at start-up.
    """
    if not is_cluster_url(url):
        return None
    scheme, _, rest = url.partition("://")
    plain_scheme = scheme.lower().removesuffix("+cluster")
    authority, slash, path = rest.partition("/")
    credentials, at, hosts = authority.rpartition("@")
    first, *others = hosts.split(",")
    nodes = []
    for other in others:
        host, _, port = other.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"cluster node must be host:port, got {other!r}")
        nodes.append(ClusterNode(host, int(port)))
    return f"{plain_scheme}://{credentials}{at}{first}{slash}{path}", nodes


@contextmanager
def _translate_errors() -> Iterator[None]:
    """Turn redis-py and socket failures into the store's exception types."""
    try:
        yield
    except _TRANSLATED as e:
        raise _store_error(e) from e


def _store_error(e: BaseException) -> StoreError:
    """The store's exception for a redis-py or socket failure."""
    if type(e) is TimeoutError:  # the operation's budget ran out (asyncio.timeout)
        return StoreUnavailable("redis did not answer within the store's time budget")
    if isinstance(e, _UNAVAILABLE):
        return StoreUnavailable(f"redis unavailable: {e}")
    if isinstance(e, rex.RedisClusterException):
        # Raised (not a RedisError) when no cluster node could be reached to learn
        # the slot map, chained to the connection error; else it is a client-side
        # misuse such as keys in different slots, which no retry would fix.
        if isinstance(e.__cause__, _UNAVAILABLE):
            return StoreUnavailable(f"redis cluster unavailable: {e}")
        return StoreError(f"redis cluster error: {e}")
    return StoreError(f"redis error: {e}")


def _evalsha(script: AsyncScript, keys: list[str], args: list[Any]) -> tuple[Any, ...]:
    """The EVALSHA command that runs ``script`` on ``keys`` with ``args``."""
    return ("EVALSHA", script.sha, len(keys), *keys, *args)


async def _committed(match_id: str, call: Awaitable[Any]) -> CommitOutcome:
    """The commit script's reply as an outcome (nil: the match does not exist)."""
    reply = await call
    if reply is None:
        raise MatchNotFound(match_id)
    result, version = cast(list[Any], reply)
    if result not in ("committed", "duplicate", "conflict"):
        raise StoreError(f"unexpected commit reply {reply!r}")
    return CommitOutcome(result, int(version))


def _bot_member(member: str) -> tuple[str, int]:
    """Parse a queue member ``"<match id>:<seat>"`` (match ids have no colon)."""
    match_id, _, seat = member.rpartition(":")
    return match_id, int(seat)


def _bot_pairs(refs: list[BotDecisionRef]) -> list[str | int]:
    """Script arguments naming decisions: member, version, member, version..."""
    out: list[str | int] = []
    for ref in refs:
        out += [f"{ref.match_id}:{ref.seat}", ref.version]
    return out


#: Creation times are inverted against this (Unix microseconds, until the year 2286)
#: so that members sort newest first as strings.
_LOBBY_EPOCH_END_US = 10**16


def _lobby_member(cursor: LobbyCursor) -> str:
    """The sorted-set member of a lobby position: ``<inverted time>:<match id>``."""
    return f"{_LOBBY_EPOCH_END_US - cursor.created_us:016d}:{cursor.match_id}"


def _lobby_cursor(member: str) -> LobbyCursor:
    inverted, _, match_id = member.partition(":")
    return LobbyCursor(_LOBBY_EPOCH_END_US - int(inverted), match_id)


def _lobby_hint(text: str) -> LobbyHint | None:
    if not text:
        return None
    raw = json.loads(text)
    rated = raw.get("r")
    return LobbyHint(
        raw["g"], _status(raw["s"]), int(raw["o"]), None if rated is None else bool(rated)
    )


def _flag(value: bool | None) -> str:
    """A filter's yes/no for the scripts: '1', '0', or '' for either."""
    return "" if value is None else "1" if value else "0"


def _to_ms(seconds: float | None) -> int:
    """TTL in ms for the scripts; 0 means no expiry."""
    if seconds is None or seconds <= 0:
        return 0
    return max(1, round(seconds * 1000))


def _status(value: object) -> MatchStatus:
    if value not in _STATUSES:
        raise StoreError(f"unexpected match status {value!r}")
    return cast(MatchStatus, value)


def _after_id(version: int) -> str:
    """The last stream id at or before ``version``: reads after it start with
    the next version. Commits are entries ``<version>-0`` and the start is
    ``0-1`` (see claim.lua), so after version 0 is after the start, and after
    version -1 (before the start) is ``0-0``."""
    return "0-0" if version < 0 else f"{version}-1"


def _match_status(match_id: str, value: object) -> MatchStatus:
    """A match's stored status, or CorruptMatch."""
    if value not in _STATUSES:
        raise CorruptMatch(match_id, f"head status {value!r}")
    return cast(MatchStatus, value)


def _version(match_id: str, value: object) -> int:
    """A match's stored head version, or CorruptMatch."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    if isinstance(value, int) and value >= 0:
        return value
    raise CorruptMatch(match_id, f"head version {value!r}")


def _seats(match_id: str, flat: object) -> dict[int, str]:
    """A match's seat claims from a flat HGETALL reply, or CorruptMatch."""
    items = cast(list[str], flat)
    seats = {}
    for i in range(0, len(items), 2):
        number = items[i]
        if not (number.isascii() and number.isdigit()):
            raise CorruptMatch(match_id, f"seat field {number!r}")
        seats[int(number)] = items[i + 1]
    return seats


def _version_of(entry_id: str) -> int:
    return int(entry_id.partition("-")[0])


def _raw_batch(entry: Any) -> EventBatch:
    """An XRANGE entry as returned through Lua: ``[id, [field, value, ...]]``."""
    entry_id, flat = entry
    fields = dict(zip(flat[::2], flat[1::2], strict=True))
    return _parsed_batch(entry_id, fields)


def _parsed_batch(entry_id: str, fields: dict[str, str]) -> EventBatch:
    # The start (entry 0-1) has no events.
    return EventBatch(_version_of(entry_id), fields.get("e", ""))


def _stream_groups(reply: Any) -> Iterator[tuple[str, list[tuple[str, dict[str, str]]]]]:
    """(stream key, entries) of each stream of an XREAD reply, RESP2 or RESP3
    (see :func:`_stream_entries`)."""
    if isinstance(reply, dict):
        for key, value in reply.items():
            yield key, list(_stream_entries(value))
    elif isinstance(reply, list | tuple):
        for item in reply:
            if isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[0], str):
                yield item[0], list(_stream_entries(item[1]))


def _stream_entries(reply: Any) -> Iterator[tuple[str, dict[str, str]]]:
    """The ``(id, fields)`` entries of an XREAD reply as parsed by redis-py.

    The shape depends on the protocol, which a ``?protocol=3`` URL may select:
    RESP2 gives ``[[stream, [entry, ...]]]``, RESP3 ``{stream: [[entry, ...]]}``.
    Entries are the only ``(str, dict)`` pairs in either, so walk down to them.
    """
    if isinstance(reply, dict):
        for value in reply.values():
            yield from _stream_entries(value)
    elif isinstance(reply, list | tuple):
        if len(reply) == 2 and isinstance(reply[0], str) and isinstance(reply[1], dict):
            yield reply[0], reply[1]
        else:
            for item in reply:
                yield from _stream_entries(item)
