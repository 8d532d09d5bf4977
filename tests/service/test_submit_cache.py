"""The replica's state cache on the submit path: owned, never half-changed, never stale.

A submission takes the cached state of its match and changes it in place (no
copy). These tests pin what that must never cost: a refused action leaves the
cached state exactly as it was, a replica that fell behind another one commits
on the real head, the legal actions worked out during a commit are the new
state's, the reply is rendered while the commit is in flight, and a reply that
fails to render never leaves a commit unobserved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from senet.games import GameState, get_game
from senet.games.errors import IllegalActionError, MalformedActionError, NotYourTurnError
from senet.service.matches import Caller, MatchService
from senet.service.records import HeadDocument
from senet.service.settings import Settings
from senet.service.views import SubmitOutcome
from senet.store import CommitOutcome, CommitRequest
from senet.store.memory import MemoryStore
from tests.service.conftest import service_match

SEED = 4242
SEATS = 4


def _same(outcome: SubmitOutcome) -> SubmitOutcome:
    return outcome


async def _stored_state(service: MatchService, match_id: str) -> GameState:
    stored = await service.store.load(match_id)
    return get_game("mykerinos").state_from_data(HeadDocument.from_json(stored.snapshot_json).state)


async def _play(service: MatchService, match_id: str, callers: list[Caller], request: str) -> int:
    """Submit the first legal action of whoever must move; the new version."""
    state = await _stored_state(service, match_id)
    seat = state.current_seat()
    assert seat is not None
    notation = state.legal_actions()[0].notation()
    outcome, _ = await service.submit(
        callers[seat], match_id, notation, None, request, None, render=_same
    )
    return outcome.version


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


async def test_refused_actions_leave_the_cached_state_as_it_was(store: MemoryStore) -> None:
    service = MatchService(store, Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    await _play(service, match_id, callers, "r1")
    cached = service.cache.get(match_id)
    assert cached is not None and cached.version == 1
    before = cached.state.to_data()
    mover = cached.state.current_seat()
    assert mover is not None
    waiting = (mover + 1) % SEATS

    refusals: list[tuple[Caller, str, type[Exception]]] = [
        (callers[mover], "x nonsense", MalformedActionError),
        (callers[mover], "dir exp5", IllegalActionError),
        (callers[waiting], "pass", NotYourTurnError),
    ]
    for caller, notation, error in refusals:
        with pytest.raises(error):
            await service.submit(caller, match_id, notation, 1, error.__name__, None, _same)
        again = service.cache.get(match_id)
        assert again is not None and again.version == 1
        assert again.state.to_data() == before

    assert await _play(service, match_id, callers, "r2") == 2
    head = service.cache.get(match_id)
    assert head is not None
    assert head.state.to_data() == (await _stored_state(service, match_id)).to_data()


async def test_a_replica_behind_the_head_commits_on_the_head(store: MemoryStore) -> None:
    replica_a = MatchService(store, Settings())
    replica_b = MatchService(store, Settings())
    match_id, callers = await service_match(replica_a, SEATS, SEED)
    assert await _play(replica_a, match_id, callers, "a1") == 1
    assert await _play(replica_b, match_id, callers, "b2") == 2
    stale = replica_a.cache.get(match_id)
    assert stale is not None and stale.version == 1  # A has not seen version 2

    assert await _play(replica_a, match_id, callers, "a3") == 3
    head = replica_a.cache.get(match_id)
    assert head is not None and head.version == 3
    assert head.state.to_data() == (await _stored_state(replica_a, match_id)).to_data()
    log = await store.action_log(match_id)
    assert [entry.version for entry in log] == [1, 2, 3]


async def test_known_legal_actions_are_the_new_states(store: MemoryStore) -> None:
    """They are worked out a loop turn after the commit, once the reply is on its way."""
    service = MatchService(store, Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    for number in range(1, 6):
        await _play(service, match_id, callers, f"r{number}")
        cached = service.cache.get(match_id)
        assert cached is not None and cached.legal is None  # nobody waits for them
        await asyncio.sleep(0)
        cached = service.cache.get(match_id)
        assert cached is not None and cached.legal is not None
        assert list(cached.legal) == cached.state.legal_actions()


async def test_a_submission_ahead_of_the_legal_actions_builds_them_itself(
    store: MemoryStore,
) -> None:
    """Two submissions with no loop turn between them: the second checks its action
    against a list it builds, and the first one's late work leaves the newer head
    alone."""
    service = MatchService(store, Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    await _play(service, match_id, callers, "r1")
    await _play(service, match_id, callers, "r2")
    await asyncio.sleep(0)
    head = service.cache.get(match_id)
    assert head is not None and head.version == 2 and head.legal is not None
    assert list(head.legal) == head.state.legal_actions()


async def test_a_reply_that_fails_to_render_leaves_the_commit_observed(store: MemoryStore) -> None:
    service = MatchService(store, Settings())
    match_id, callers = await service_match(service, SEATS, SEED)
    state = await _stored_state(service, match_id)
    seat = state.current_seat()
    assert seat is not None
    notation = state.legal_actions()[0].notation()

    def broken(outcome: SubmitOutcome) -> Any:
        raise RuntimeError("render failed")

    with pytest.raises(RuntimeError, match="render failed"):
        await service.submit(callers[seat], match_id, notation, 0, "once", None, broken)
    assert (await store.load(match_id)).version == 1  # the commit went through
    assert service.cache.get(match_id) is None  # but its state was not cached

    outcome, _ = await service.submit(callers[seat], match_id, notation, 0, "once", None, _same)
    assert outcome.duplicate and outcome.version == 1


class _OrderedStore(MemoryStore):
    """Records when a commit is handed over and when its outcome is awaited."""

    def __init__(self, steps: list[str]) -> None:
        super().__init__()
        self.steps = steps

    def start_commit(self, match_id: str, request: CommitRequest) -> Awaitable[CommitOutcome]:
        self.steps.append("commit sent")

        async def confirmed() -> CommitOutcome:
            self.steps.append("commit awaited")
            return await self.commit(match_id, request)

        return confirmed()


async def test_the_reply_is_rendered_between_sending_and_awaiting_the_commit() -> None:
    """The commit leaves first and the reply is built during its round trip, on
    the cached path and on the loading path alike."""
    steps: list[str] = []
    service = MatchService(_OrderedStore(steps), Settings())
    match_id, callers = await service_match(service, SEATS, SEED)

    def render(outcome: SubmitOutcome) -> SubmitOutcome:
        steps.append("reply rendered")
        return outcome

    for number, cached in enumerate((True, False), start=1):
        if not cached:
            service.cache.forget(match_id)
        state = await _stored_state(service, match_id)
        seat = state.current_seat()
        assert seat is not None
        steps.clear()
        outcome, _ = await service.submit(
            callers[seat],
            match_id,
            state.legal_actions()[0].notation(),
            None,
            f"o{number}",
            None,
            render,
        )
        assert outcome.version == number and not outcome.duplicate
        assert steps == ["commit sent", "reply rendered", "commit awaited"]


async def test_joining_caches_the_match_with_its_claims(store: MemoryStore) -> None:
    """The replica that seats a player caches the match, so that seat's first
    action is decided without loading it again."""
    service = MatchService(store, Settings())
    match_id, _callers = await service_match(service, SEATS, SEED)
    cached = service.cache.get(match_id)
    assert cached is not None and cached.version == 0
    assert sorted(cached.seats) == list(range(SEATS))
    assert cached.state.to_data() == (await _stored_state(service, match_id)).to_data()
