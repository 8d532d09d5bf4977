"""Mare Nostrum's direct tensor writer (``senet.rl.marenostrum.tensor``).

``tests/rl/test_encodings.py`` holds it to the view's encoding after every move of
short matches of every seat count and variant, and to re-dealt twins. Here: values
pinned by feature name where the writer does its own arithmetic (owner channels and
the neutral channel's sum, seats counted from the viewer, bit counts), longer matches
(the military phase, occupations) seen in any order, the writer switching viewer or
doubles, and hidden cards that must not move it.
"""

from __future__ import annotations

from array import array
from typing import Any

import pytest

from senet.games import Rng, get_game
from senet.games.marenostrum.state import MareState
from senet.rl.encoding import ObservationEncoder, observation_encoder
from senet.rl.features import zeros
from senet.rl.marenostrum import tensor
from senet.rl.marenostrum.encoding import OWNERS
from senet.rl.native import preferred

GAME = get_game("marenostrum")
#: Long enough for battles, occupations and purchases (the suite's matches stop
#: after one turn).
LONG = dict(GAME.info.bounded_match_options)


def _match(seats: int, options: dict[str, Any], seed: int) -> MareState:
    state = GAME.new_match(seats, options, seed=seed)
    assert isinstance(state, MareState)
    return state


def _write(
    encoder: ObservationEncoder, state: MareState, viewer: int, typecode: str = "d"
) -> list[float]:
    """A fresh direct writer's tensor of ``viewer``'s observation, in an array of
    ``typecode`` (doubles, or float32s as the environments keep it)."""
    assert encoder.direct is not None
    out = zeros(encoder.size, typecode)
    encoder.direct()(state, viewer, out)
    return list(out)


def _slice(encoder: ObservationEncoder, tensor: list[float], name: str) -> list[float]:
    for feature, at, size in encoder.layout:
        if feature == name:
            return tensor[at : at + size]
    raise KeyError(name)


def _positions(seats: int, seed: int, limit: int) -> list[MareState]:
    """Clones of a random match's positions, one per decision, up to ``limit``."""
    state = _match(seats, LONG, seed)
    rng = Rng(seed)
    positions: list[MareState] = []
    while not state.is_over() and len(positions) < limit:
        positions.append(state.clone())
        seat = state.deciding_seats()[rng.below(len(state.deciding_seats()))]
        choices = state.legal_actions_for(seat)
        state.apply_unchecked(choices[rng.below(len(choices))], seat)
    return positions


def test_every_seat_count_and_option_has_the_direct_writer() -> None:
    for seats in range(GAME.info.min_seats, GAME.info.max_seats + 1):
        for options in ({}, {"free_setup": True}, {"long_game": True}):
            encoder = observation_encoder("marenostrum", seats, options)
            assert encoder.direct is not None
            # This module's class, or its compiled twin's (senet.rl.native).
            assert isinstance(encoder.direct(), preferred(tensor).MareTensor)


def test_values_by_feature_name_count_seats_and_owners_from_the_viewer() -> None:
    """Three seats, seen by seat 1: seats (and the civilizations the occupier table
    holds) counted from the viewer, the three unplayed civilizations summed into the
    neutral channel, a caravan row's icons counted."""
    state = _match(3, {}, seed=1)
    viewer = 1
    encoder = observation_encoder("marenostrum", 3, {})
    own, next_seat = state.civ_of[viewer], state.civ_of[2]
    neutral = [civ for civ, seat in enumerate(state.seat_of) if seat < 0]
    assert len(neutral) == 3
    state.hands = [[0] * 14 for _ in range(3)]
    state.hands[1][2], state.hands[1][13] = 3, 1
    state.hands[0][5] = 4
    state.legions = [[0] * 44 for _ in range(6)]
    state.legions[own][7] = 2
    state.legions[next_seat][7] = 1
    state.legions[neutral[0]][9] = 3
    state.legions[neutral[2]][9] = 5
    state.caravans[4] = 0b101
    state.occupier[3] = 0
    tensor = _write(encoder, state, viewer)
    assert tensor == encoder.encode(state.view(viewer))

    assert _slice(encoder, tensor, "hand")[2] == 3 / 5
    assert _slice(encoder, tensor, "hand")[13] == 1 / 5
    # viewer first: seat 1 (4 cards), seat 2 (none), seat 0 (4 cards)
    assert _slice(encoder, tensor, "hand sizes") == [4 / 10, 0.0, 4 / 10, 0.0, 0.0, 0.0]
    legions = _slice(encoder, tensor, "legions")
    assert legions[0 * 44 + 7] == 2 / 4  # the viewer's channel
    assert legions[1 * 44 + 7] == 1 / 4  # the next seat's
    assert legions[(OWNERS - 1) * 44 + 9] == 3 / 4 + 5 / 4  # neutral, summed
    assert sum(legions) == (2 + 1 + 3 + 5) / 4
    assert _slice(encoder, tensor, "caravans")[4] == 2.0
    occupier = _slice(encoder, tensor, "occupier")
    assert occupier[3 * 6 + (0 - viewer) % 3] == 1.0


@pytest.mark.parametrize(("seats", "seed"), [(3, 15), (5, 5), (6, 1)])
def test_a_writer_follows_positions_in_any_order(seats: int, seed: int) -> None:
    """One writer per seat, given clones of a long match's positions in order and then
    shuffled (as a search jumps between afterstates): each tensor equals a fresh
    encoding of the view, whatever the writer wrote before. The seeds reach battles
    at sea and on land, conversions and (at 3 and 5 seats) an occupation."""
    encoder = observation_encoder("marenostrum", seats, LONG)
    positions = _positions(seats, seed, limit=700)
    if seats < 6:
        assert any(any(map(any, state.held)) for state in positions)
    rng = Rng(seed)
    writers = [encoder.writer() for _ in range(seats)]
    order = list(range(len(positions)))
    rng.shuffle(order)
    for step, index in enumerate([*range(len(positions)), *order]):
        state = positions[index]
        seat = step % seats
        written = writers[seat].encode(state, seat)
        fresh = array("f", encoder.encode(state.view(seat)))
        assert written == fresh, f"position {index}, seat {seat}"


def test_a_writer_starts_again_for_another_viewer_or_other_doubles() -> None:
    encoder = observation_encoder("marenostrum", 4, LONG)
    assert encoder.direct is not None
    write = encoder.direct()
    positions = _positions(4, seed=5, limit=200)
    out = array("d", bytes(8 * encoder.size))
    for index, state in enumerate(positions[::10]):
        viewer = index % 2
        if index % 3 == 0:
            out = array("d", bytes(8 * encoder.size))
        write(state, viewer, out)
        assert list(out) == encoder.encode(state.view(viewer)), f"position {index * 10}"


def test_another_seats_hidden_cards_do_not_move_the_tensor() -> None:
    """Cards moved between types in another seat's hand and pending offer (sizes kept)
    leave the viewer's tensor as it was, written afresh or after the first state."""
    encoder = observation_encoder("marenostrum", 3, {})
    state = _match(3, {}, seed=2)
    state.hands[2] = [2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    state.offers[2] = [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    writer = encoder.writer()
    before = list(writer.encode(state, 0))
    state.hands[2] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]
    state.offers[2] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]
    assert list(writer.encode(state, 0)) == before
    assert _write(encoder, state, 0, "f") == before


def test_a_writer_follows_one_state_changed_in_place_field_by_field() -> None:
    """One state changed in place, a field or a row at a time (the writer updates its
    copies in place and rewrites a table's changed rows only): seldom changed fields
    alone and back, one seat's row of a table, the viewer's hand or another seat's,
    civilizations changing hands, a table replaced by an equal copy."""
    encoder = observation_encoder("marenostrum", 4, LONG)
    state = _match(4, LONG, seed=3)
    writer = encoder.writer()
    viewer = 1

    def check(what: str) -> None:
        fresh = array("f", encoder.encode(state.view(viewer)))
        assert writer.encode(state, viewer) == fresh, what

    check("the first position")
    changes: list[tuple[str, Any]] = [
        ("held", lambda: state.held[5].__setitem__(0, 2)),
        ("temples", lambda: state.temples.__setitem__(7, 1)),
        ("creatures", lambda: state.creatures[0].__setitem__(3, 1)),
        ("seat_of", lambda: state.seat_of.reverse()),
        ("the viewer's hand", lambda: state.hands[viewer].__setitem__(4, 2)),
        ("another seat's hand", lambda: state.hands[3].__setitem__(0, 3)),
        ("legions", lambda: state.legions[2].__setitem__(1, 3)),
        ("face_up", lambda: state.face_up[0].__setitem__(2, 1)),
        ("held back", lambda: state.held[5].__setitem__(0, 0)),
        ("seat_of back", lambda: state.seat_of.reverse()),
        ("hands copied", lambda: setattr(state, "hands", [row[:] for row in state.hands])),
    ]
    for what, change in changes:
        change()
        check(what)
