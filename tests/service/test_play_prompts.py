"""PlayMatch's prompts (MatchService.play): who is asked, and what it costs.

Every seat of a match streams; after each update only the seat that must decide
is prompted, and on the replica that committed the update its prompt comes from
the cached head, without a store read. These pin that behaviour, not timings.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from senet.service.matches import MatchService
from senet.service.settings import Settings
from senet.service.views import LegalActions, MatchSnapshot, MatchUpdate
from senet.store.memory import MemoryStore
from tests.service.conftest import service_match

SEATS = 4
SEED = 77


class CountingStore(MemoryStore):
    """A memory store that counts full match loads."""

    def __init__(self) -> None:
        super().__init__()
        self.loads = 0

    async def load(self, match_id: str) -> Any:
        self.loads += 1
        return await super().load(match_id)


async def test_only_the_deciding_seat_is_prompted_and_from_the_cached_head() -> None:
    store = CountingStore()
    service = MatchService(store, Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    prompts: list[list[tuple[int, int]]] = [[] for _ in range(SEATS)]
    last_seen = [0] * SEATS
    moves = 40

    async def stream(seat: int) -> None:
        async for item, prompt in service.play(callers[seat], match_id, None):
            if isinstance(item, MatchUpdate):
                assert item.version == last_seen[seat] + 1  # no gap, no repeat
                last_seen[seat] = item.version
                if item.version >= moves:
                    return
            else:
                assert isinstance(item, MatchSnapshot)
                last_seen[seat] = item.summary.version
            if prompt is not None:
                prompts[seat].append((prompt.version, prompt.seat))
                if prompt.version < moves:
                    notation = prompt.actions[0].notation
                    await service.submit(
                        callers[seat], match_id, notation, prompt.version, f"r{prompt.version}",
                        None, render=lambda outcome: outcome,
                    )  # fmt: skip

    tasks = [asyncio.create_task(stream(seat)) for seat in range(SEATS)]
    loads_at_start = store.loads
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    # One prompt per decision, to its seat only, at every version before the last.
    versions = sorted(v for seat_prompts in prompts for v, _ in seat_prompts)
    assert versions == list(range(moves))
    assert all(seat == asked for asked, got in enumerate(prompts) for _, seat in got)
    assert last_seen == [moves] * SEATS
    # Streams opened before counting; every prompt after came from the cache
    # (submissions on the cached head need no load either).
    assert store.loads - loads_at_start <= SEATS


async def test_a_resumed_stream_is_prompted_at_once_when_its_seat_must_decide() -> None:
    service = MatchService(MemoryStore(), Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    snapshot = await service.get(callers[0], match_id)
    mover = snapshot.summary.current_seat
    assert mover is not None
    stream = aiter(service.play(callers[mover], match_id, snapshot.summary.version))
    first, prompt = await asyncio.wait_for(anext(stream), 5)
    assert first is None  # the prompt at from_version comes alone, before any update
    assert isinstance(prompt, LegalActions) and prompt.seat == mover and prompt.actions
    waiting = (mover + 1) % SEATS
    other = aiter(service.play(callers[waiting], match_id, snapshot.summary.version))
    with_timeout = asyncio.wait_for(anext(other), 0.3)
    try:
        _item, prompt = await with_timeout
    except TimeoutError:
        prompt = None
    assert prompt is None


class DeafStore(MemoryStore):
    """A memory store whose blocking reads never return: watchers learn of a commit
    only from the replica that made it."""

    async def events_after(
        self, match_id: str, version: int, limit: int = 1000, block_ms: int = 0
    ) -> Any:
        if block_ms > 0:
            await asyncio.Event().wait()
        return await super().events_after(match_id, version, limit, 0)

    async def events_following(
        self, match_id: str, cursor: Callable[[], int], limit: int, block_ms: int
    ) -> Any:
        if block_ms > 0:
            await asyncio.Event().wait()
        return await super().events_after(match_id, cursor(), limit, 0)


async def test_the_committing_replica_hands_its_update_to_its_watchers_at_once() -> None:
    service = MatchService(DeafStore(), Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    snapshot = await service.get(callers[0], match_id)
    mover = snapshot.summary.current_seat
    assert mover is not None
    stream = aiter(service.watch(callers[0], match_id, None))
    assert isinstance(await anext(stream), MatchSnapshot)
    pending = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0.05)  # the watcher waits on its feed
    legal = await service.legal_actions(callers[mover], match_id)
    notation = legal.actions[0].notation
    await service.submit(callers[mover], match_id, notation, 0, "r1", None, lambda o: o)
    update = await asyncio.wait_for(pending, 2)
    assert isinstance(update, MatchUpdate) and update.version == 1


async def test_the_movers_stream_gets_its_update_before_the_other_seats() -> None:
    service = MatchService(MemoryStore(), Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    arrivals: list[tuple[int, int, int]] = []  # (version, mover, receiver), as received
    opened_at: list[int] = []  # each stream's snapshot version
    prompts: asyncio.Queue[LegalActions] = asyncio.Queue()
    moves = 12

    async def stream(seat: int) -> None:
        # As PlayMatch: the stream waits on its feed while another task submits.
        async for item, prompt in service.play(callers[seat], match_id, None):
            if isinstance(item, MatchUpdate):
                arrivals.append((item.version, item.seat, seat))
                if item.version >= moves:
                    return
            elif isinstance(item, MatchSnapshot):
                opened_at.append(item.summary.version)
            if prompt is not None:
                prompts.put_nowait(prompt)

    async def submitter() -> None:
        while (prompt := await prompts.get()).version < moves:
            # Every stream is waiting on its feed when the commit lands (one still
            # busy with the last update would find the new one first, by itself).
            await asyncio.sleep(0.02)
            await service.submit(
                callers[prompt.seat], match_id, prompt.actions[0].notation, prompt.version,
                f"r{prompt.version}", None, render=lambda outcome: outcome,
            )  # fmt: skip

    tasks = [asyncio.create_task(stream(seat)) for seat in range(SEATS)]
    submitting = asyncio.create_task(submitter())
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    submitting.cancel()
    assert max(opened_at) < moves - 4
    for version in range(max(opened_at) + 1, moves + 1):  # every stream open
        order = [(mover, seat) for v, mover, seat in arrivals if v == version]
        assert sorted(seat for _, seat in order) == list(range(SEATS))
        mover, first = order[0]
        assert first == mover  # its update is its reply: first
