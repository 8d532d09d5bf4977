"""Who chose each committed action: the seat's holder, a timeout's fallback, the
bot that took the seat over, or a resigned seat's minimal policy.

The mark is recorded with the commit (the update record and the log entry), so
every stream and the export carry it; records written before it read as the
seat's own.
"""

from __future__ import annotations

import asyncio

from senet.service.bots_api import BotDecisions
from senet.service.clocks import TimeControl
from senet.service.matches import Caller, MatchService
from senet.service.messages import write_update
from senet.service.records import SeatClaim, UpdateRecord, action_origin
from senet.service.settings import Settings
from senet.service.views import LoggedAction, MatchUpdate, logged_action
from senet.service.zombies import ZombiePlayer
from senet.store.base import now_ms
from senet.store.memory import MemoryStore
from senet.v1 import match_pb2
from tests.service.conftest import head_state, service_match

WORKER = Caller(is_admin=True, is_worker=True)


def _service() -> MatchService:
    return MatchService(MemoryStore(), Settings())


async def _record(service: MatchService, match_id: str, version: int) -> UpdateRecord:
    batches = await service.store.events_after(match_id, version - 1, limit=1)
    assert [b.version for b in batches] == [version]
    return UpdateRecord.from_json(batches[0].events_json)


async def _log(service: MatchService, match_id: str) -> list[LoggedAction]:
    entries = await service.store.action_log(match_id)
    return [logged_action(entry.version, entry.entry_json) for entry in entries]


async def _play_own(service: MatchService, caller: Caller, match_id: str, request_id: str) -> None:
    legal = await service.legal_actions(caller, match_id)
    notation = legal.actions[0].notation
    await service.submit(caller, match_id, notation, None, request_id, None, lambda _: None)


async def _time_out(service: MatchService, match_id: str, seat: int, version: int) -> None:
    """Time ``seat``'s decision at ``version`` out, once its deadline has passed."""
    while True:
        verdict, deadline = await service.time_out(match_id, seat, version)
        if verdict != "later":
            assert verdict == "done"
            return
        assert deadline is not None
        while now_ms() < deadline:
            await asyncio.sleep(0.001)


def _wire(update: MatchUpdate) -> match_pb2.MatchUpdate:
    out = match_pb2.MatchUpdate()
    write_update(out, "mykerinos", update)
    return out


def test_the_origin_follows_from_the_claim_and_the_timeout() -> None:
    person = SeatClaim("Ann", "h", 1.0).to_json()
    greedy = SeatClaim("Ann", "h", 1.0, takeover="greedy").to_json()
    resigned = SeatClaim("Ann", "h", 1.0, takeover="zombie").to_json()
    assert action_origin(person, False) == ("seat", "")
    assert action_origin(greedy, False) == ("takeover", "greedy")
    assert action_origin(resigned, False) == ("resigned", "random")
    for claim in (person, greedy, resigned):
        assert action_origin(claim, True) == ("timeout", "random")


def test_records_and_log_entries_without_an_origin_read_as_the_seats_own() -> None:
    old = '{"version":3,"seat":1,"notation":"pass","events":[],"status":"active","current_seat":0}'
    record = UpdateRecord.from_json(old)
    assert (record.origin, record.origin_strategy) == ("seat", "")
    assert "origin" not in record.to_json()  # the usual case stores nothing more
    entry = logged_action(3, '{"seat":1,"notation":"pass","request_id":"r","at":1.0}')
    assert entry == LoggedAction(3, 1, "pass", "seat", "")
    update = MatchUpdate(3, 1, "pass", [], "active", 0)
    assert _wire(update).origin == match_pb2.ACTION_ORIGIN_SEAT
    assert _wire(update).origin_strategy == ""


async def test_a_timeout_fallback_is_marked_and_the_seats_own_move_is_not() -> None:
    service = _service()
    control = TimeControl(decision_ms=1)
    match_id, callers = await service_match(service, 2, 6, time_control=control)
    _, state = await head_state(service, match_id)
    late = state.current_seat()
    assert late is not None
    await _time_out(service, match_id, late, 0)
    timed_out = await _record(service, match_id, 1)
    assert (timed_out.seat, timed_out.origin, timed_out.origin_strategy) == (
        late,
        "timeout",
        "random",
    )
    _, state = await head_state(service, match_id)
    mover = state.current_seat()
    assert mover is not None
    await _play_own(service, callers[mover], match_id, "own-move")
    own = await _record(service, match_id, 2)
    assert (own.origin, own.origin_strategy) == ("seat", "")

    log = await _log(service, match_id)
    assert [(a.origin, a.origin_strategy) for a in log] == [("timeout", "random"), ("seat", "")]
    updates = []
    async for item in service.watch(Caller(), match_id, 0):
        assert isinstance(item, MatchUpdate)
        updates.append(_wire(item))
        if len(updates) == 2:
            break
    assert [(u.origin, u.origin_strategy) for u in updates] == [
        (match_pb2.ACTION_ORIGIN_TIMEOUT, "random"),
        (match_pb2.ACTION_ORIGIN_SEAT, ""),
    ]


async def test_a_takeover_bots_moves_are_marked_with_its_strategy() -> None:
    service = _service()
    match_id, callers = await service_match(
        service, 2, 5, leave_policy="bot", leave_bot_strategy="greedy"
    )
    _, state = await head_state(service, match_id)
    seat = state.current_seat()
    assert seat is not None
    outcome, _ = await service.leave(callers[seat], match_id)
    assert outcome == "taken_over"
    bots = BotDecisions(service)
    leased = await bots.acquire(WORKER, "worker-1", 1, 5000, wait_ms=5000)
    assert [(d.seat, d.strategy) for d in leased] == [(seat, "greedy")]
    await _play_own(service, Caller(token=leased[0].token), match_id, "bot-move")
    record = await _record(service, match_id, 1)
    assert (record.seat, record.origin, record.origin_strategy) == (seat, "takeover", "greedy")
    assert [(a.origin, a.origin_strategy) for a in await _log(service, match_id)] == [
        ("takeover", "greedy")
    ]


async def test_a_resigned_seats_moves_are_marked_as_the_servers() -> None:
    service = _service()
    match_id, callers = await service_match(service, 2, 11)
    _, state = await head_state(service, match_id)
    seat = state.current_seat()
    assert seat is not None
    outcome, _ = await service.leave(callers[seat], match_id)
    assert outcome == "resigned"
    player = ZombiePlayer(service)
    leased = await player.decisions.acquire(WORKER, player.worker_id, 1, 5000, wait_ms=5000)
    assert [d.seat for d in leased] == [seat]
    await player.play(leased[0])
    record = await _record(service, match_id, 1)
    assert (record.seat, record.origin, record.origin_strategy) == (seat, "resigned", "random")
