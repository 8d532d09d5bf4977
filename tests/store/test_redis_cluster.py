"""The Redis store on a real three-master Redis Cluster (see :mod:`tests.cluster`).

The store contract suite in ``test_stores.py`` already runs on the cluster; this
module checks what only a cluster shows: cluster URLs, matches spread over every
master, the bot-decision queue's global keys on one slot, and an unreachable cluster
reported as unavailable rather than as a bad request.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import pytest
import redis.exceptions as rex
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from senet.store import BotDecisionLease, BotDecisionRef, CommitOutcome, StoreUnavailable
from senet.store.redis_store import RedisStore, _cluster_nodes, is_cluster_url, redacted_url
from tests.cluster import LocalCluster
from tests.store.test_stores import new_match, req


@pytest.fixture
async def cluster_store(redis_cluster_url: str) -> AsyncIterator[RedisStore]:
    store = RedisStore.from_url(redis_cluster_url, key_prefix="senet")
    try:
        yield store
    finally:
        await store.close()


def test_cluster_urls_are_recognised_and_split_into_startup_nodes() -> None:
    assert is_cluster_url("redis+cluster://a:1") and is_cluster_url("REDISS+CLUSTER://a:1")
    assert not is_cluster_url("redis://a:1") and not is_cluster_url("unix:///tmp/r.sock")
    assert _cluster_nodes("redis://a:1") is None
    split = _cluster_nodes("rediss+cluster://u:p%40ss@a:7000,b:7001,c:7002/0?ssl_cert_reqs=none")
    assert split is not None
    first, others = split
    assert first == "rediss://u:p%40ss@a:7000/0?ssl_cert_reqs=none"
    assert [(n.host, n.port) for n in others] == [("b", 7001), ("c", 7002)]
    with pytest.raises(ValueError, match="host:port"):
        _cluster_nodes("redis+cluster://a:7000,b")


def test_passwords_are_redacted_from_urls() -> None:
    assert redacted_url("redis://:s3cret@redis:6379/0") == "redis://:***@redis:6379/0"
    assert redacted_url("rediss+cluster://app:pw@a:1,b:2") == "rediss+cluster://app:***@a:1,b:2"
    assert redacted_url("redis://user@redis:6379") == "redis://user@redis:6379"
    assert redacted_url("redis://redis:6379") == "redis://redis:6379"


async def test_a_cluster_url_builds_cluster_clients(cluster_store: RedisStore) -> None:
    assert isinstance(cluster_store._client, RedisCluster)
    assert isinstance(cluster_store._blocking, RedisCluster)
    await cluster_store.ping()


async def test_matches_spread_over_every_master(
    cluster_store: RedisStore, redis_cluster: LocalCluster
) -> None:
    ids = [f"m{i}" for i in range(60)]
    for match_id in ids:
        await cluster_store.create(new_match(match_id))
        assert await cluster_store.commit(match_id, req(0)) == CommitOutcome("committed", 1)
    owners = {
        match_id: redis_cluster.masters_holding(list(cluster_store.keys(match_id)))
        for match_id in ids
    }
    assert all(len(ports) == 1 for ports in owners.values())  # a match never straddles nodes
    assert set().union(*owners.values()) == set(redis_cluster.ports)
    # Every match wrote its five keys (no seat claimed: no seats hash) and nothing else.
    assert sum(redis_cluster.keys_per_master().values()) == 5 * len(ids)
    for match_id in ids:
        assert (await cluster_store.load(match_id)).version == 1
        assert [e.version for e in await cluster_store.action_log(match_id)] == [1]


async def test_bot_queue_lives_in_one_slot_and_works(cluster_store: RedisStore) -> None:
    assert len({key_slot(k.encode()) for k in cluster_store.bot_keys()}) == 1
    for match_id in ("a", "b", "c"):  # three matches, in slots all over the cluster
        await cluster_store.post_bot_decision(BotDecisionRef(match_id, 1, 2), "random", 500)
    leases = await cluster_store.acquire_bot_decisions("w1", 2, lease_ms=10_000, now_ms=1_000)
    assert leases == [
        BotDecisionLease("a", 1, 2, "random", 11_000, 500),
        BotDecisionLease("b", 1, 2, "random", 11_000, 500),
    ]
    assert await cluster_store.acquire_bot_decisions("w2", 5, 10_000, now_ms=1_000) == [
        BotDecisionLease("c", 1, 2, "random", 11_000, 500)
    ]
    refs = [lease.ref for lease in leases]
    assert await cluster_store.renew_bot_decisions("w1", refs, 10_000, 2_000) == refs
    assert await cluster_store.renew_bot_decisions("w2", refs, 10_000, 2_000) == []
    await cluster_store.release_bot_decisions("w1", refs)
    assert await cluster_store.renew_bot_decisions("w1", refs, 10_000, 3_000) == []


async def test_an_unreachable_cluster_is_unavailable() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    store = RedisStore.from_url(
        f"redis+cluster://127.0.0.1:{port}", connect_timeout_s=0.5, retries=1
    )
    try:
        with pytest.raises(StoreUnavailable):
            await store.ping()
        with pytest.raises(StoreUnavailable):
            await store.load("m1")
    finally:
        await store.close()


@pytest.mark.parametrize(
    "failure",
    [
        rex.ConnectionError("node gone"),
        rex.TimeoutError("no reply"),
        rex.ClusterDownError("CLUSTERDOWN The cluster is down"),
        rex.TryAgainError("TRYAGAIN"),
    ],
    ids=["connection", "timeout", "clusterdown", "tryagain"],
)
async def test_a_failing_node_connection_hands_the_call_to_redis_py(
    cluster_store: RedisStore, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    """On a cluster, a multiplexed connection that fails (a node lost or failing
    over) hands the call to redis-py's cluster client, which retries and learns the
    new slot map; the call still gives the right result."""
    await cluster_store.create(new_match("failover"))
    mux = cluster_store._mux_for(cluster_store.keys("failover").head)
    assert mux is not None

    async def failing(*args: object) -> object:
        raise failure

    monkeypatch.setattr(mux, "execute", failing)
    assert await cluster_store.commit("failover", req(0)) == CommitOutcome("committed", 1)
    assert (await cluster_store.load("failover")).version == 1
