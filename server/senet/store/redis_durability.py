"""Whether a Redis (standalone or every cluster primary) keeps data on disk.

A Redis without an append-only file or snapshots loses every match when it
restarts, and the server would go on answering MATCH_NOT_FOUND while healthy.
The server reads this at start and every few seconds, warns about it, and
publishes it as a health service of its own (``senet.durability``).
"""

from __future__ import annotations

from typing import Any

import redis.exceptions as rex
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from senet.store.base import Durability


async def _node(run: Any) -> tuple[bool | None, str, str]:
    """(persistent, detail, run id) of one node; ``run(*command)`` sends a command to it."""
    persistence = await run("INFO", "persistence")
    server = await run("INFO", "server")
    run_id = str(server.get("run_id", ""))
    if int(persistence.get("aof_enabled", 0)):
        return True, "appendonly", run_id
    try:
        save = await run("CONFIG", "GET", "save")
    except rex.ResponseError:  # CONFIG renamed or refused, as managed services do
        return None, "unknown (CONFIG GET save refused)", run_id
    schedule = str(save.get("save", "")).strip() if isinstance(save, dict) else ""
    if schedule:
        return True, f"RDB snapshots {schedule}", run_id
    return False, "none", run_id


async def read_durability(client: Redis | RedisCluster) -> Durability:
    """Ask every node that holds matches (one, or each cluster primary)."""
    if isinstance(client, RedisCluster):
        found = []
        for primary in client.get_primaries():

            async def run(*command: str, node: Any = primary) -> Any:
                return await client.execute_command(*command, target_nodes=node)

            persistent, detail, run_id = await _node(run)
            found.append((persistent, f"{primary.name} {detail}", run_id))
    else:
        found = [await _node(client.execute_command)]
    verdicts = [persistent for persistent, _, _ in found]
    overall = False if False in verdicts else None if None in verdicts else True
    return Durability(
        overall,
        "; ".join(detail for _, detail, _ in found),
        ",".join(sorted(run_id for _, _, run_id in found)),
    )
