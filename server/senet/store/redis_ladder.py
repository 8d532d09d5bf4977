"""The ladder store in Redis, beside a :class:`~senet.store.redis_store.RedisStore`.

Every key shares the hash tag ``{ladder}`` (one master on a Redis Cluster: the
ladder's documents are few and small). Layout under the store's prefix:

* ``<prefix>:{ladder}:c:<collection>`` hash, key -> document;
* ``<prefix>:{ladder}:k:<name>`` string, a single key (slot claims, counters);
* ``<prefix>:{ladder}:l:<name>`` list, documents newest first.

Each call is one plain command (``SET NX PX`` claims, ``SET``, ``LRANGE``) but
:meth:`RedisLadderStore.push_once`, one script (:data:`PUSH_ONCE`), so that the
marker, the list and the counter move together or not at all. Calls go through the
match store's clients, budget and error translation; a retried ``push_once`` finds
its marker set and changes nothing.
"""

from __future__ import annotations

from typing import Any

from senet.store.ladder import LadderStore
from senet.store.redis_store import RedisStore

__all__ = ["PUSH_ONCE", "RedisLadderStore"]

#: KEYS: the marker, the list, and the counter if any; ARGV: the document and how
#: many the list keeps.
PUSH_ONCE = """
if not redis.call('SET', KEYS[1], '1', 'NX') then
  return 0
end
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
if KEYS[3] then
  redis.call('INCR', KEYS[3])
end
return 1
"""


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

    async def newest(self, name: str, limit: int) -> list[str]:
        reply = await self._run("LRANGE", self._base + "l:" + name, 0, limit - 1)
        return [str(r) for r in reply]

    async def push_once(
        self, marker: str, name: str, doc: str, keep: int, counter: str | None = None
    ) -> bool:
        keys = [self._base + "k:" + marker, self._base + "l:" + name]
        if counter is not None:
            keys.append(self._base + "k:" + counter)
        return bool(await self._run("EVAL", PUSH_ONCE, len(keys), *keys, doc, keep))
