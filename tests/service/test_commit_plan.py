"""What a commit writes and posts (senet.service.commit_plan.plan_commit), without a
store: the request on top of the entry's version, the claims it checks, the clocks it
charges, and the bot decisions and deadlines the new version makes due."""

from __future__ import annotations

import dataclasses

from senet.games import get_game
from senet.service.cache import CachedMatch
from senet.service.clocks import Clock, TimeControl, started_ms
from senet.service.commit_plan import plan_commit
from senet.service.dues import DuePost
from senet.service.records import (
    HeadDocument,
    MatchMeta,
    SeatClaim,
    SeatPlan,
    Status,
    UpdateRecord,
    claim_fingerprint,
)
from senet.service.views import logged_action
from senet.store import BotDecisionRef
from senet.store.base import BOTS, CLOCKS, ZOMBIES

GAME = "mykerinos"
MATCH = "m1"
CREATED = 1_000.0
NOW = 2_000.5
ANN = SeatClaim("Ann", "hash-ann", CREATED + 1).to_json()
BOB = SeatClaim("Bob", "hash-bob", CREATED + 2).to_json()
CONTROL = TimeControl(decision_ms=60_000)


def _entry(
    plans: list[SeatPlan],
    seats: dict[int, str],
    control: TimeControl | None = None,
    version: int = 4,
    dealt: int | None = None,
) -> CachedMatch:
    meta = MatchMeta(
        game_id=GAME,
        options={},
        seat_count=len(plans),
        seats=plans,
        seed=7,
        salt="salt",
        commitment="c",
        created_at=CREATED,
        time_control=None if control is None else control.to_data(),
    )
    state = get_game(GAME).new_match(len(plans), {}, 7)
    clock = None if control is None else Clock.initial(control, len(plans))
    dealt = get_game(GAME).info.rules_version if dealt is None else dealt
    return CachedMatch(version, meta, seats, state, clock=clock, dealt=dealt)


def _record(
    entry: CachedMatch, seat: int, next_seat: int | None, deciding: list[int] | None = None
) -> UpdateRecord:
    status: Status = "active" if next_seat is not None else "finished"
    return UpdateRecord(entry.version + 1, seat, "a0", [], status, next_seat, deciding=deciding)


OPEN = SeatPlan("open")


def test_a_commit_writes_the_action_on_top_of_the_entry_s_version() -> None:
    entry = _entry([OPEN, OPEN], {0: ANN, 1: BOB})
    plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
    request = plan.request
    assert (request.expected_version, request.request_key, request.status) == (4, "0:r1", "active")
    assert (request.seat, request.seat_claim_json) == (0, ANN)
    assert request.events_json == plan.record.to_json()
    rules = get_game(GAME).info.rules_version
    assert request.log_entry_json == plan.record.log_entry_json("r1", NOW, rules)
    head = HeadDocument(entry.state.snapshot_data(), NOW, None, rules, rules)
    assert request.snapshot_json == head.to_json()
    assert (plan.record.version, plan.record.request_id, plan.record.origin) == (5, "r1", "seat")
    assert (plan.clock, plan.posts) == (None, ())


def test_the_log_and_the_head_name_the_rules_and_the_deal_s_are_carried() -> None:
    """A match dealt before rules versions (0), or under older rules, played on by
    this release: its log says which rules applied each action from then on, and
    each head keeps the version it was dealt under."""
    rules = get_game(GAME).info.rules_version
    for dealt in (0, rules - 1, rules):
        entry = _entry([OPEN, OPEN], {0: ANN, 1: BOB}, dealt=dealt)
        plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
        assert logged_action(5, plan.request.log_entry_json).rules_version == rules
        head = HeadDocument.from_json(plan.request.snapshot_json)
        assert (head.rules, head.dealt) == (rules, dealt)


def test_the_commit_checks_the_mover_s_claim_and_the_next_person_s() -> None:
    entry = _entry([OPEN, OPEN], {0: ANN, 1: BOB})
    plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
    assert (plan.request.next_seat, plan.request.next_seat_claim_json) == (1, BOB)
    assert plan.record.claims == {"0": claim_fingerprint(ANN), "1": claim_fingerprint(BOB)}


def test_a_bot_to_decide_next_is_posted_and_its_claim_not_checked() -> None:
    entry = _entry([OPEN, SeatPlan("bot", "greedy")], {0: ANN})
    plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
    assert plan.posts == (DuePost(BotDecisionRef(MATCH, 1, 5), "greedy", BOTS),)
    assert (plan.request.next_seat, plan.request.next_seat_claim_json) == (None, None)
    assert plan.record.claims == {"0": claim_fingerprint(ANN)}


def test_a_resigned_seat_to_decide_next_goes_to_the_replicas_queue() -> None:
    resigned = SeatClaim("Bob", "nobody", CREATED + 2, takeover="zombie").to_json()
    entry = _entry([OPEN, OPEN], {0: ANN, 1: resigned})
    plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
    assert plan.posts == (DuePost(BotDecisionRef(MATCH, 1, 5), "zombie", ZOMBIES),)
    assert (plan.request.next_seat, plan.request.next_seat_claim_json) == (1, resigned)


def test_the_clocks_start_the_next_decision_and_post_its_deadline() -> None:
    entry = _entry([OPEN, OPEN], {0: ANN, 1: BOB}, CONTROL)
    plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
    now_ms = int(NOW * 1000)
    assert plan.clock is not None and plan.clock.turn_started_ms == now_ms
    assert plan.posts == (DuePost(BotDecisionRef(MATCH, 1, 5), "timeout", CLOCKS, now_ms + 60_000),)
    assert HeadDocument.from_json(plan.request.snapshot_json).clock == plan.clock.to_data()
    assert plan.record.clock is not None and plan.record.clock["deadline_ms"] == now_ms + 60_000


def test_a_bot_s_decision_comes_before_its_deadline() -> None:
    entry = _entry([OPEN, SeatPlan("bot", "random")], {0: ANN}, CONTROL)
    plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
    assert [(p.ref.seat, p.queue) for p in plan.posts] == [(1, BOTS), (1, CLOCKS)]


def test_seats_still_deciding_keep_their_posts_and_only_new_ones_are_posted() -> None:
    plans = [OPEN, SeatPlan("bot", "random"), SeatPlan("bot", "greedy")]
    entry = _entry(plans, {0: ANN})
    # Seats 0 and 1 were deciding at once; 0 moved, and now 1 and 2 decide.
    record = _record(entry, 0, 1, deciding=[1, 2])
    plan = plan_commit(MATCH, entry, record, (0, 1), NOW, request_id="r1")
    assert plan.posts == (DuePost(BotDecisionRef(MATCH, 2, 5), "greedy", BOTS),)


def test_the_mover_deciding_again_gets_a_new_post() -> None:
    worker = SeatClaim("mcts bot", "hash-worker", CREATED + 3).to_json()
    entry = _entry([SeatPlan("bot", "mcts"), OPEN], {0: worker, 1: BOB})
    plan = plan_commit(MATCH, entry, _record(entry, 0, 0), (0,), NOW, request_id="r1")
    assert plan.posts == (DuePost(BotDecisionRef(MATCH, 0, 5), "mcts", BOTS),)


def test_the_last_action_posts_nothing_and_checks_no_next_seat() -> None:
    entry = _entry([OPEN, SeatPlan("bot", "random")], {0: ANN}, CONTROL)
    plan = plan_commit(MATCH, entry, _record(entry, 0, None), (0,), NOW, request_id="r1")
    assert (plan.request.status, plan.posts, plan.request.next_seat) == ("finished", (), None)


def test_a_timeout_s_fallback_is_marked_as_the_timeout_s() -> None:
    entry = _entry([OPEN, OPEN], {0: ANN, 1: BOB}, CONTROL)
    plan = plan_commit(
        MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="t", timed_out=True
    )
    assert plan.record.origin == "timeout"
    assert plan.clock is not None and plan.clock.timeouts == (1, 0)


def test_before_the_first_decision_the_clock_runs_from_the_start() -> None:
    entry = _entry([OPEN, OPEN], {0: ANN, 1: BOB}, TimeControl(reserve_ms=10_000), version=0)
    plan = plan_commit(MATCH, entry, _record(entry, 0, 1), (0,), NOW, request_id="r1")
    held = int(NOW * 1000) - started_ms(entry.meta, entry.seats)
    assert plan.clock is not None and plan.clock.remaining_ms == (max(0, 10_000 - held), 10_000)


def test_a_committed_record_keeps_every_field_it_does_not_stamp() -> None:
    """UpdateRecord.committed writes its fields out (the hot path skips
    dataclasses.replace): it must agree with replace on every field, so a field
    added to the record and forgotten there fails here."""
    record = UpdateRecord(
        version=7,
        seat=2,
        notation="PLAY 3",
        events=[{"kind": "drew", "data": {"n": 1}, "audience": [2]}],
        status="active",
        current_seat=3,
        clock={"remaining_ms": [1, 2]},
        deciding=[1, 3],
        request_id="old",
    )
    stamped = {
        "clock": {"remaining_ms": [3, 4]},
        "claims": {"2": "abc"},
        "request_id": "r-9",
        "origin": "takeover",
        "origin_strategy": "greedy",
    }
    committed = record.committed(**stamped)  # type: ignore[arg-type]
    assert committed == dataclasses.replace(record, **stamped)  # type: ignore[arg-type]
    assert committed.to_json() == dataclasses.replace(record, **stamped).to_json()  # type: ignore[arg-type]
