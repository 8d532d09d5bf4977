"""Charging the turn clocks: pure arithmetic of :class:`Clock`, no store.

A decision is each action a seat must submit (docs/protocol.md, "Turn clocks"):
it starts at the commit of the action before (the seat's own in a turn of
several steps) and is charged the time the seat held it, up to its deadline.
Seats deciding at once share their start, and a seat's choice of several
actions there is one decision.
"""

from __future__ import annotations

from senet.service.clocks import Clock, TimeControl


def test_clock_arithmetic_fischer_and_limits() -> None:
    control = TimeControl(decision_ms=5000, reserve_ms=3000, increment_ms=1000)
    clock = Clock.initial(control, 2)
    assert clock.deadline_ms(control, 0, started_ms=10_000) == 13_000  # reserve < limit
    moved = clock.after(control, 0, now_ms=11_000, started_ms=10_000, timed_out=False)
    assert moved.remaining_ms == (3000, 3000) and moved.turn_started_ms == 11_000
    assert moved.deadline_ms(control, 1, started_ms=0) == 14_000
    late = moved.after(control, 1, now_ms=20_000, started_ms=0, timed_out=True)
    assert late.remaining_ms == (3000, 0) and late.timeouts == (0, 1)
    assert late.deadline_ms(control, 1, started_ms=0) == 20_000  # no reserve left
    limit_only = TimeControl(decision_ms=700)
    assert Clock.initial(limit_only, 3).deadline_ms(limit_only, 2, started_ms=100) == 800


def test_each_step_of_a_turn_is_a_decision_of_its_own_and_is_charged() -> None:
    """Seat 0 decides three times in a row (a god, then two taxes): each action is
    charged from the commit of the one before, and earns the increment."""
    control = TimeControl(decision_ms=2000, reserve_ms=5000, increment_ms=100)
    clock = Clock((5000, 5000), (0, 0), turn_started_ms=10_000)
    god = clock.after(control, 0, 10_800, 0, False, before=(0,), deciding=(0,))
    assert god.remaining_ms == (4300, 5000) and god.turn_started_ms == 10_800
    assert god.deadline_ms(control, 0, 0) == 12_800  # a new decision: decision_ms again
    tax = god.after(control, 0, 12_000, 0, False, before=(0,), deciding=(0,))
    assert tax.remaining_ms == (3200, 5000)
    last = tax.after(control, 0, 12_500, 0, False, before=(0,), deciding=(1,))
    assert last.remaining_ms == (2800, 5000) and last.turn_started_ms == 12_500


def test_a_chain_of_timeouts_charges_each_its_whole_allowance_to_zero() -> None:
    """One seat times out decision after decision of its own turn: each timeout
    costs decision_ms (the last one what is left), however late the fallback
    commits; at zero every further decision is due at its start."""
    control = TimeControl(decision_ms=700, reserve_ms=2000, increment_ms=500)
    clock = Clock((2000, 2000), (0, 0), turn_started_ms=1_000)
    now, lateness = 1_000, (12, 5_000, 40, 3)  # a replica died holding the second
    left, timeouts = [], []
    for late in lateness:
        now = clock.deadline_ms(control, 0, 0) + late
        clock = clock.after(control, 0, now, 0, True, before=(0,), deciding=(0,))
        left.append(clock.remaining_ms[0])
        timeouts.append(clock.timeouts[0])
    assert left == [1300, 600, 0, 0] and timeouts == [1, 2, 3, 4]
    assert clock.remaining_ms[1] == 2000
    assert clock.deadline_ms(control, 0, 0) == clock.turn_started_ms == now


def test_nineteen_timeouts_of_700_ms_are_charged_13_3_s() -> None:
    """The run of issue 30: 19 decisions in a row, each timed out."""
    control = TimeControl(decision_ms=700, reserve_ms=60_000)
    clock = Clock.initial(control, 3)
    now = 50_000
    for _ in range(19):
        now = clock.deadline_ms(control, 1, started_ms=50_000) + 16
        clock = clock.after(control, 1, now, 50_000, True, before=(1,), deciding=(1,))
    assert clock.remaining_ms == (60_000, 60_000 - 19 * 700, 60_000)
    assert clock.timeouts == (0, 19, 0)


def test_an_action_of_its_own_after_the_deadline_is_charged_up_to_the_deadline() -> None:
    """Acting before the timeout is applied beats it: an action of the seat's own
    (the increment, timeouts in a row reset), charged what a timeout would be."""
    control = TimeControl(decision_ms=1000, reserve_ms=4000, increment_ms=200)
    clock = Clock((4000, 4000), (0, 2), turn_started_ms=10_000)
    acted = clock.after(control, 1, 11_300, 0, False, before=(1,), deciding=(0,))
    assert acted.remaining_ms == (4000, 3200) and acted.timeouts == (0, 0)


def test_seats_deciding_at_once_share_the_start_of_their_decisions() -> None:
    """Seats 0 and 1 offer at once from 10 s: seat 1's two choices leave seat 0's
    clock running; seat 1's reserve is charged once, when its offer is complete."""
    control = TimeControl(decision_ms=9000, reserve_ms=5000, increment_ms=1000)
    clock = Clock((5000, 5000), (0, 0), turn_started_ms=10_000)
    assert clock.deadline_ms(control, 0, 0) == clock.deadline_ms(control, 1, 0) == 15_000
    going_on = clock.after(control, 1, 11_000, 0, False, before=(0, 1), deciding=(0, 1))
    assert going_on.remaining_ms == (5000, 5000) and going_on.turn_started_ms == 10_000
    offered = going_on.after(control, 1, 12_000, 0, False, before=(0, 1), deciding=(0,))
    assert offered.remaining_ms == (5000, 4000)  # 2 s used, 1 s back
    assert offered.deadline_ms(control, 0, 0) == 15_000  # seat 0's decision runs on
    # Alone now, seat 0's offer goes on action by action, from the common start.
    first = offered.after(control, 0, 13_000, 0, False, before=(0,), deciding=(0,))
    assert first.remaining_ms == (3000, 4000) and first.turn_started_ms == 13_000
    second = first.after(control, 0, 13_500, 0, False, before=(0,), deciding=(1,))
    assert second.remaining_ms == (3500, 4000)


def test_a_seat_whose_decision_another_ends_is_charged_the_time_it_held_it() -> None:
    """Seats 0 and 1 decide at once; seat 0's action makes seat 2 the one to
    decide: seat 1 held the turn too, and pays for it (no increment: it did not
    act, and no timeout)."""
    control = TimeControl(decision_ms=9000, reserve_ms=5000, increment_ms=1000)
    clock = Clock((5000, 5000, 5000), (0, 1, 0), turn_started_ms=10_000)
    ended = clock.after(control, 0, 12_000, 0, False, before=(0, 1), deciding=(2,))
    assert ended.remaining_ms == (4000, 3000, 5000)
    assert ended.timeouts == (0, 1, 0) and ended.turn_started_ms == 12_000


def test_a_timed_out_choice_of_several_actions_is_one_timeout() -> None:
    """Seats 0 and 1 offer at once and both time out: the server plays seat 0's
    two offers, one decision, charged once and counted once."""
    control = TimeControl(decision_ms=1000, reserve_ms=5000)
    clock = Clock((5000, 5000), (2, 0), turn_started_ms=10_000)
    going_on = clock.after(control, 0, 11_020, 0, True, before=(0, 1), deciding=(0, 1))
    assert going_on.remaining_ms == (5000, 5000) and going_on.timeouts == (2, 0)
    offered = going_on.after(control, 0, 11_040, 0, True, before=(0, 1), deciding=(1,))
    assert offered.remaining_ms == (4000, 5000) and offered.timeouts == (3, 0)
