"""Where a lane of slots is (:meth:`senet.service.slots.Slots.position`): at its
first slot that has not ended, whatever the stored hint says, and the slots it
passes leave the collection of matches in flight."""

from __future__ import annotations

from typing import cast

from senet.service.matches import MatchService
from senet.service.slots import Slots
from senet.store.ladder import MemoryLadderStore


def _slot(seq: int) -> str:
    return f"lane:{seq}"


async def test_a_lane_is_at_its_first_slot_not_ended_and_drops_those_it_passes() -> None:
    store = MemoryLadderStore()
    slots = Slots(cast(MatchService, None), store)  # positions need no matches
    for seq in range(4):
        await store.put("flight", _slot(seq), "a match")
    assert await slots.position("hint", _slot, "flight") == 0
    # A closer claims slot 0's end and dies before moving the lane on.
    assert await slots.end(_slot(0))
    assert await slots.position("hint", _slot, "flight") == 1
    assert list(await store.all("flight")) == [_slot(1), _slot(2), _slot(3)]
    assert await store.read("hint") == "1"
    for seq in (1, 2):
        assert await slots.end(_slot(seq))
    await store.set("hint", "1")  # a slow closer's hint, behind the lane
    assert await slots.position("hint", _slot, "flight") == 3
    assert list(await store.all("flight")) == [_slot(3)] and await store.read("hint") == "3"
    assert await slots.position("hint", _slot) == 3  # nothing more to pass
