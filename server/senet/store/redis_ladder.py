"""The ladder store in Redis, beside a :class:`~senet.store.redis_store.RedisStore`.

Every key shares the hash tag ``{ladder}`` (one master on a Redis Cluster: the
ladder's documents are few and small). Layout under the store's prefix:

* ``<prefix>:{ladder}:c:<collection>`` hash, key -> document;
* ``<prefix>:{ladder}:k:<name>`` string, a single key (slot claims, counters);
* ``<prefix>:{ladder}:l:<name>`` list, documents newest first.

Each call is one plain command (``SET NX PX`` claims, ``SET`` and ``INCR``), so no
script is needed; calls go through the match store's clients, budget and error
translation.
"""

from __future__ import annotations

from typing import Any

from senet.store.ladder import LadderStore
from senet.store.redis_store import RedisStore

__all__ = ["RedisLadderStore"]


class RedisLadderStore(LadderStore):
    """A :class:`LadderStore` over the clients of a :class:`RedisStore`."""

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._base = f"{store.key_prefix}:{{ladder}}:"

    async def _run(self, *args: Any) -> Any:
        return await self._store.read(*args)

    async def put(self, collection: str, key: str, doc: str) -> None:
        await self._run("HSET", self._base + "c:" + collection, key, doc)

    async def get(self, collection: str, key: str) -> str | None:
        reply = await self._run("HGET", self._base + "c:" + collection, key)
        return None if reply is None else str(reply)

    async def all(self, collection: str) -> dict[str, str]:
        flat = await self._run("HGETALL", self._base + "c:" + collection)
        if isinstance(flat, dict):
            return {str(k): str(v) for k, v in flat.items()}
        return {str(flat[i]): str(flat[i + 1]) for i in range(0, len(flat), 2)}

    async def delete(self, collection: str, key: str) -> None:
        await self._run("HDEL", self._base + "c:" + collection, key)

    async def put_new(self, name: str, value: str, ttl_ms: int | None = None) -> bool:
        extra: list[Any] = [] if ttl_ms is None else ["PX", ttl_ms]
        return bool(await self._run("SET", self._base + "k:" + name, value, "NX", *extra))

    async def read(self, name: str) -> str | None:
        reply = await self._run("GET", self._base + "k:" + name)
        return None if reply is None else str(reply)

    async def set(self, name: str, value: str) -> None:
        await self._run("SET", self._base + "k:" + name, value)

    async def incr(self, name: str) -> int:
        return int(await self._run("INCR", self._base + "k:" + name))

    async def push(self, name: str, doc: str, keep: int) -> None:
        key = self._base + "l:" + name
        await self._run("LPUSH", key, doc)
        await self._run("LTRIM", key, 0, keep - 1)

    async def newest(self, name: str, limit: int) -> list[str]:
        reply = await self._run("LRANGE", self._base + "l:" + name, 0, limit - 1)
        return [str(r) for r in reply]
