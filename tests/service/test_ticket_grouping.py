"""The pure grouping of queued tickets (senet.service.tickets.group_tickets).

Issue 36: "compatible tickets (same game, options, overlapping counts) are grouped
by closeness of rating, the tolerance widening with wait time; one ticket is
never placed in two matches."
"""

from __future__ import annotations

from dataclasses import replace

from senet.service.tickets import BASE_TOLERANCE, TOLERANCE_PER_S, Group, Ticket, group_tickets

NOW = 1_000_000


def ticket(
    name: str,
    rating: float = 25.0,
    counts: tuple[int, ...] = (2,),
    waited_s: float = 0.0,
    game: str = "mykerinos",
    options: dict[str, object] | None = None,
    rated: bool = True,
    fill_after_s: float | None = None,
) -> Ticket:
    return Ticket(
        ticket_id=f"tk_{name}",
        subject=name,
        name=name,
        game_id=game,
        seat_counts=counts,
        options=options or {},
        rated=rated,
        bot_fill_after_ms=None if fill_after_s is None else int(fill_after_s * 1000),
        rating=rating,
        created_ms=NOW - int(waited_s * 1000),
        secret="s",
    )


def ids(groups: list[Group]) -> list[list[str]]:
    return [sorted(t.subject for t in g.tickets) for g in groups]


def test_two_compatible_tickets_make_a_match() -> None:
    groups = group_tickets([ticket("a"), ticket("b")], NOW)
    assert ids(groups) == [["a", "b"]] and groups[0].seats == 2 and groups[0].bots == 0


def test_other_games_options_or_modes_never_share_a_match() -> None:
    queue = [
        ticket("a"),
        ticket("b", game="marenostrum"),
        ticket("c", options={"nile": True}),
        ticket("d", rated=False),
    ]
    assert group_tickets(queue, NOW) == []


def test_closest_ratings_are_grouped_first() -> None:
    queue = [ticket("a", 25.0, waited_s=1), ticket("far", 25.0 + 1.5), ticket("near", 25.2)]
    assert ids(group_tickets(queue, NOW)) == [["a", "near"]]


def test_the_tolerance_widens_with_the_wait() -> None:
    gap = BASE_TOLERANCE + 5 * TOLERANCE_PER_S
    fresh = [ticket("a", 25.0), ticket("b", 25.0 + gap)]
    assert group_tickets(fresh, NOW) == []
    waited = [ticket("a", 25.0, waited_s=6), ticket("b", 25.0 + gap, waited_s=6)]
    assert ids(group_tickets(waited, NOW)) == [["a", "b"]]


def test_a_new_ticket_far_away_waits_even_beside_an_old_one() -> None:
    """Both tolerances must allow the distance: the newcomer's has not widened yet."""
    queue = [ticket("old", 25.0, waited_s=60), ticket("new", 40.0)]
    assert group_tickets(queue, NOW) == []


def test_seat_counts_must_overlap_and_the_group_takes_the_fewest_common() -> None:
    queue = [
        ticket("a", counts=(3, 4, 5, 6), game="marenostrum"),
        ticket("b", counts=(4, 5), game="marenostrum"),
        ticket("c", counts=(3,), game="marenostrum"),
        ticket("d", counts=(4,), game="marenostrum"),
        ticket("e", counts=(5, 6), game="marenostrum"),
    ]
    groups = group_tickets(queue, NOW)
    assert all(len(g.tickets) == g.seats for g in groups)
    placed = [t.subject for g in groups for t in g.tickets]
    assert len(placed) == len(set(placed))
    for group in groups:
        assert all(group.seats in t.seat_counts for t in group.tickets)


def test_bots_fill_once_every_member_has_waited_long_enough() -> None:
    alone = ticket("a", counts=(3, 4), game="marenostrum", fill_after_s=10, waited_s=5)
    assert group_tickets([alone], NOW) == []
    due = replace(alone, created_ms=NOW - 10_000)
    (group,) = group_tickets([due], NOW)
    assert (group.seats, group.bots) == (3, 2)
    never = ticket("n", counts=(3,), game="marenostrum", waited_s=999)
    assert group_tickets([never], NOW) == []


def test_no_ticket_is_placed_twice_in_a_crowded_queue() -> None:
    queue = [ticket(f"p{i}", 20 + (i % 7), counts=(2, 3, 4), waited_s=i) for i in range(50)]
    groups = group_tickets(queue, NOW)
    placed = [t.ticket_id for g in groups for t in g.tickets]
    assert len(placed) == len(set(placed)) > 40
    assert all(g.key == ",".join(sorted(t.ticket_id for t in g.tickets)) for g in groups)


def test_matched_tickets_are_not_grouped_again() -> None:
    queue = [ticket("a").matched("m", 0, NOW), ticket("b")]
    assert group_tickets(queue, NOW) == []


def test_a_ticket_round_trips_through_its_document() -> None:
    original = ticket("a", counts=(3, 4), options={"nile": True}, fill_after_s=5)
    assert Ticket.from_json(original.to_json()) == original
