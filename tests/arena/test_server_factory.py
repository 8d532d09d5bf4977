"""The arena plays on the server it is given: an address, or a factory that starts one."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest

from senet.arena.players import PlayerSpec
from senet.arena.runner import ArenaConfig, run_arena
from senet.cli.beside import embedded_server

RANDOM = PlayerSpec.parse("random")
WORKER_KEY = "arena-worker-key"


async def test_without_an_address_or_a_factory_the_arena_refuses_to_start() -> None:
    config = ArenaConfig(game="mykerinos", players=[RANDOM, RANDOM], matches=1, processes=0)
    with pytest.raises(ValueError, match="no server to play on"):
        await run_arena(config)


@pytest.mark.slow
async def test_the_arena_enters_the_factory_s_server_and_leaves_it_when_done() -> None:
    events: list[str] = []

    @contextlib.asynccontextmanager
    async def start_server(worker_key: str) -> AsyncIterator[str]:
        assert worker_key == WORKER_KEY  # the configured key, not one drawn anew
        async with embedded_server(worker_key) as address:
            events.append("started")
            yield address
            events.append("stopped")

    config = ArenaConfig(
        game="mykerinos",
        players=[RANDOM, RANDOM],
        matches=2,
        parallel=2,
        seed=3,
        processes=0,
        worker_key=WORKER_KEY,
    )
    arena = await run_arena(config, start_server=start_server)
    assert events == ["started", "stopped"]
    assert [result.index for result in arena.results] == [0, 1]
    assert all(len(result.scores) == 2 for result in arena.results)
