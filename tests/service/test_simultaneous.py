"""Several seats deciding at once (Mare Nostrum's hidden trade offers) in the service.

Every deciding seat is prompted at once and may list its actions; a deciding
seat's submission made at a version the others have moved past still stands
(their choices are hidden and commute), but not once the seat itself has moved
since; the summary and the updates name every deciding seat.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from senet.games import GameState, get_game
from senet.service import errors, submissions
from senet.service.matches import Caller, MatchService
from senet.service.records import HeadDocument, UpdateRecord
from senet.service.settings import Settings
from senet.service.views import MatchUpdate, SubmitOutcome
from senet.service.zombies import ZombiePlayer
from senet.store.memory import MemoryStore
from senet.store.redis_store import RedisStore
from tests.conftest import STORE_BUDGET_S
from tests.service.conftest import service_match

GAME = "marenostrum"
SEATS = 3
#: A seed whose first random action opens a trading draft with all three seats offering.
SEED = 1


def _same(outcome: SubmitOutcome) -> SubmitOutcome:
    return outcome


async def _state(service: MatchService, match_id: str) -> tuple[int, GameState]:
    stored = await service.store.load(match_id)
    state = get_game(GAME).state_from_data(HeadDocument.from_json(stored.snapshot_json).state)
    return stored.version, state


async def _to_simultaneous(service: MatchService) -> tuple[str, list[Caller], int]:
    """A match played (by seeded random choices) until several seats decide at once."""
    match_id, callers = await service_match(service, SEATS, SEED, GAME)
    chooser = random.Random(SEED)
    for request in range(200):
        version, state = await _state(service, match_id)
        if len(state.deciding_seats()) > 1:
            return match_id, callers, version
        seat = state.current_seat()
        assert seat is not None
        notation = chooser.choice(state.legal_actions()).notation()
        await service.submit(callers[seat], match_id, notation, version, f"r{request}", None, _same)
    pytest.fail("no simultaneous decision within 200 actions")


@pytest.fixture
def service() -> MatchService:
    return MatchService(MemoryStore(), Settings())


async def test_every_deciding_seat_lists_its_own_actions(service: MatchService) -> None:
    match_id, callers, version = await _to_simultaneous(service)
    _version, state = await _state(service, match_id)
    snapshot = await service.get(callers[0], match_id)
    assert snapshot.summary.deciding == state.deciding_seats() == (0, 1, 2)
    for seat in state.deciding_seats():
        legal = await service.legal_actions(callers[seat], match_id)
        assert legal.version == version and legal.seat == seat
        assert [a.notation for a in legal.actions] == [
            a.notation() for a in state.legal_actions_for(seat)
        ]


async def test_a_choice_made_before_another_seats_still_stands(service: MatchService) -> None:
    match_id, callers, version = await _to_simultaneous(service)
    _v, state = await _state(service, match_id)
    first, second = state.deciding_seats()[:2]
    mine = state.legal_actions_for(second)[0].notation()
    theirs = state.legal_actions_for(first)[0].notation()
    done, _ = await service.submit(callers[first], match_id, theirs, version, "a", None, _same)
    assert done.version == version + 1
    # Chosen at `version`, sent after the first seat moved: it stands.
    later, _ = await service.submit(callers[second], match_id, mine, version, "b", None, _same)
    assert later.version == version + 2
    # The same result as the other order (hidden choices commute).
    _v, after = await _state(service, match_id)
    other = state.clone()
    other.apply(second, mine)
    other.apply(first, theirs)
    assert after.to_data() == other.to_data()


async def test_a_standing_choice_never_shares_its_state_with_another_submission(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a standing choice's reads are awaited, the parsed head sits in the
    cache, where another seat's submission takes it and changes it in place: the
    standing choice must then decide on a state of its own, or the stored match
    would hold an action its log does not."""
    match_id, callers, version = await _to_simultaneous(service)
    _v, state = await _state(service, match_id)
    first, second, third = state.deciding_seats()[:3]
    theirs = state.legal_actions_for(first)[0].notation()
    mine = state.legal_actions_for(second)[0].notation()
    meanwhile = state.legal_actions_for(third)[0].notation()
    await service.submit(callers[first], match_id, theirs, version, "a", None, _same)
    service.cache.forget(match_id)  # the standing choice will parse the head itself
    stands = submissions.decision_stands

    async def while_judging(*args: object) -> bool:
        # The third seat submits at the head the standing choice has just parsed.
        await service.submit(callers[third], match_id, meanwhile, None, "c", None, _same)
        return await stands(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(submissions, "decision_stands", while_judging)
    later, _ = await service.submit(callers[second], match_id, mine, version, "b", None, _same)
    assert later.version == version + 3
    # The stored match is the three choices, each applied once.
    _v, after = await _state(service, match_id)
    replayed = state.clone()
    for seat, notation in ((first, theirs), (third, meanwhile), (second, mine)):
        replayed.apply(seat, notation)
    assert after.to_data() == replayed.to_data()
    assert service.cache.peek(match_id) is None or (
        service.cache.peek(match_id).state.to_data() == replayed.to_data()  # type: ignore[union-attr]
    )


async def test_a_choice_made_before_the_seats_own_move_is_stale(service: MatchService) -> None:
    match_id, callers, version = await _to_simultaneous(service)
    _v, state = await _state(service, match_id)
    seat = next(s for s in state.deciding_seats() if len(state.legal_actions_for(s)) > 1)
    first_pick, *_ = state.legal_actions_for(seat)
    await service.submit(callers[seat], match_id, first_pick.notation(), version, "1", None, _same)
    _v, now = await _state(service, match_id)
    if seat not in now.deciding_seats():
        pytest.skip("that pick ended the seat's choice")
    again = now.legal_actions_for(seat)[0].notation()
    with pytest.raises(errors.StaleVersion):
        await service.submit(callers[seat], match_id, again, version, "2", None, _same)


async def test_every_deciding_seat_is_prompted_once_per_position(service: MatchService) -> None:
    match_id, callers, version = await _to_simultaneous(service)
    _v, state = await _state(service, match_id)
    deciding = state.deciding_seats()
    prompts: dict[int, list[int]] = {seat: [] for seat in deciding}
    updates: dict[int, list[MatchUpdate]] = {seat: [] for seat in deciding}

    async def stream(seat: int) -> None:
        async for item, prompt in service.play(callers[seat], match_id, None):
            if isinstance(item, MatchUpdate):
                updates[seat].append(item)
                if item.version >= version + 1:
                    return
            if prompt is not None:
                prompts[seat].append(prompt.version)

    tasks = [asyncio.create_task(stream(seat)) for seat in deciding]
    while any(not p for p in prompts.values()):
        await asyncio.sleep(0.01)
    assert all(p == [version] for p in prompts.values())  # all at once, at the same version
    mover = deciding[0]
    pick = state.legal_actions_for(mover)[0].notation()
    await service.submit(callers[mover], match_id, pick, version, "m", None, _same)
    await asyncio.wait_for(asyncio.gather(*tasks), 5)
    for seat in deciding:
        update = updates[seat][-1]
        assert update.version == version + 1 and update.deciding
        if seat != mover:  # its open prompt still stands: not asked again
            assert prompts[seat] == [version]


@pytest.mark.parametrize("replicas", [1, 3])
async def test_choices_sent_at_the_same_moment_are_all_applied(
    redis_url: str, redis_key_prefix: str, replicas: int
) -> None:
    """Every deciding seat submits at once at the same version, through one replica
    or each through its own: each commit that loses the race to another is judged
    again on the new head, where it stands."""
    store = RedisStore.from_url(
        redis_url, key_prefix=redis_key_prefix, socket_timeout_s=STORE_BUDGET_S
    )
    services = [MatchService(store, Settings()) for _ in range(replicas)]
    service = services[0]
    match_id, callers, version = await _to_simultaneous(service)
    _v, state = await _state(service, match_id)
    deciding = state.deciding_seats()
    picks = {seat: state.legal_actions_for(seat)[0].notation() for seat in deciding}
    done = await asyncio.gather(
        *(
            services[seat % replicas].submit(
                callers[seat], match_id, pick, version, f"at-once-{seat}", None, _same
            )
            for seat, pick in picks.items()
        )
    )
    assert sorted(outcome.version for outcome, _ in done) == [
        version + 1 + i for i in range(len(deciding))
    ]


async def test_a_resigned_seats_choice_that_still_stands_is_played_by_the_replica(
    service: MatchService,
) -> None:
    """A seat resigns while deciding at once with others, and another deciding
    seat moves before the replica plays the resigned seat: its decision still
    stands, so the replica's minimal policy makes it then."""
    match_id, callers, version = await _to_simultaneous(service)
    _v, state = await _state(service, match_id)
    quitter, other = state.deciding_seats()[:2]
    outcome, _summary = await service.leave(callers[quitter], match_id)
    assert outcome == "resigned"
    theirs = state.legal_actions_for(other)[0].notation()
    await service.submit(callers[other], match_id, theirs, version, "theirs", None, _same)
    player = ZombiePlayer(service)
    worker = Caller(is_admin=True, is_worker=True)
    leased = await player.decisions.acquire(worker, player.worker_id, 10, 5000)
    assert [(d.seat, d.version) for d in leased] == [(quitter, version)]

    await player.play(leased[0])

    batches = await service.store.events_after(match_id, version + 1, limit=2)
    assert [b.version for b in batches] == [version + 2]
    assert UpdateRecord.from_json(batches[0].events_json).seat == quitter
