"""Archeos Society's direct tensor writer (:mod:`senet.rl.archeos.tensor`).

``tests/rl/test_encodings.py`` holds it to the view's encoding after every move of
random matches of every seat count, and to re-dealt twins. Here: what is specific to
this writer. Values pinned by feature name in a set-up position, seen from a seat
other than the first; the hidden cards it must not read; and the copies it keeps to
rewrite only what changed, fed states in an order no match follows.
"""

from __future__ import annotations

from array import array
from typing import Any

import pytest

from senet.games import Rng, get_game
from senet.games.archeos.cards import CARD_NAMES
from senet.games.archeos.state import ArcheosState
from senet.rl.archeos import tensor
from senet.rl.archeos.tensor import ArcheosTensor
from senet.rl.encoding import ObservationEncoder, observation_encoder
from senet.rl.native import preferred
from tests.rl.cases import case_id, cases

ARCHEOS_CASES = [case for case in cases() if case[0] == "archeos"]


def _match(seats: int, seed: int = 3) -> ArcheosState:
    state = get_game("archeos").new_match(seats, {}, seed=seed)
    assert isinstance(state, ArcheosState)
    return state


def _written(encoder: ObservationEncoder, state: ArcheosState, viewer: int) -> array[float]:
    """A fresh writer's tensor of ``state`` for ``viewer``."""
    writer = ArcheosTensor(encoder.features, state.seat_count)
    out = array("d", bytes(8 * encoder.size))
    writer(state, viewer, out)
    return out


def _bits(values: Any) -> bytes:
    """The doubles' bytes: equal only when every float is the same to the last bit
    (``==`` on floats takes -0.0 for 0.0)."""
    return array("d", values).tobytes()


class _Slots:
    """Where a feature's floats are, by name: top-level, or in a seat's entry of
    ``players`` (counted from the viewer)."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.at = {name: at for name, at, _ in encoder.layout}
        players = next(f for f in encoder.features if f.name == "players")
        self.width = players.entry_width
        self.inner: dict[str, int] = {}
        offset = 0
        for feature in players.inner or ():
            self.inner[feature.name] = offset
            offset += feature.size

    def player(self, relative: int, name: str) -> int:
        return self.at["players"] + relative * self.width + self.inner[name]


def test_the_encoding_hands_out_this_writer_for_each_seat_count() -> None:
    for seats in range(2, 7):
        encoder = observation_encoder("archeos", seats, {})
        assert encoder.direct is not None
        # This module's class, or its compiled twin's (senet.rl.native).
        assert isinstance(encoder.direct(), preferred(tensor).ArcheosTensor)


def test_a_set_up_position_reads_as_the_features_declare_from_the_second_seat() -> None:
    """Seat 1 of three sees itself first, then seat 2, then seat 0; its own hand and
    the cards it keeps on its turn, and of the others their sizes and known cards."""
    state = _match(3)
    state.score = [10, 20, 31]
    state.hands = [[4, 9, 9], [0, 0, 5], [7, 12]]
    state.known = [[9], [], [7]]
    state.expeditions = [[[1, 2]], [], [[3], [4, 5]]]
    state.positions[2] = [0, 3, 0, 0, 0, 1, 0]
    state.linguist = [0, 7, 0]
    state.relics[0] = [False, True, False, False, False, True]
    state.tokens[2] = [2, 5]
    state.turn, state.kept = 1, [5]
    encoder = observation_encoder("archeos", 3, {})
    out = _written(encoder, state, 1)
    slots = _Slots(encoder)

    assert _bits(out) == _bits(encoder.encode(state.view(1)))
    assert out[slots.player(0, "score")] == 20 / 50
    assert out[slots.player(1, "score")] == 31 / 50
    assert out[slots.player(2, "score")] == 10 / 50
    assert out[slots.at["scores"] + 1] == 31 / 50
    assert [out[slots.player(r, "hand size")] for r in range(3)] == [0.3, 0.2, 0.3]
    hand = slots.player(0, "hand")
    assert out[hand : hand + len(CARD_NAMES)].tolist().count(0.0) == len(CARD_NAMES) - 2
    assert (out[hand + 0], out[hand + 5]) == (2.0, 1.0)
    assert out[slots.player(0, "kept") + 5] == 1.0
    assert out[slots.player(1, "known hand") + 7] == 1.0
    assert out[slots.player(2, "known hand") + 9] == 1.0
    assert [out[slots.player(r, "expeditions count")] for r in range(3)] == [0.0, 2.0, 1.0]
    assert out[slots.player(1, "sites") + 1] == 3 / 10
    assert out[slots.player(0, "linguist")] == 7 / 15
    relics = slots.player(2, "relics")
    assert out[relics : relics + 6].tolist() == [0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    tokens = slots.player(1, "professor tokens")
    assert out[tokens : tokens + 6].tolist() == [0.0, 1.0, 0.0, 0.0, 1.0, 0.0]
    for relative in (1, 2):
        for name in ("hand", "kept"):
            at = slots.player(relative, name)
            assert not any(out[at : at + len(CARD_NAMES)]), (relative, name)


def test_the_writer_reads_no_hidden_card() -> None:
    """Other hands' unknown cards, the deck's order and a Physician's kept cards off
    its turn change nothing; the viewer's own hand does."""
    state = _match(4)
    viewer = (state.turn + 1) % 4
    encoder = observation_encoder("archeos", 4, {})
    seen = _bits(_written(encoder, state, viewer))
    twin = state.clone()
    for seat in range(4):
        if seat != viewer:
            twin.hands[seat] = [(card + 1) % (len(CARD_NAMES) - 1) for card in twin.hands[seat]]
    twin.deck.reverse()
    twin.kept = [3, 3]
    assert _bits(_written(encoder, twin, viewer)) == seen
    twin.hands[viewer] = [(card + 1) % (len(CARD_NAMES) - 1) for card in twin.hands[viewer]]
    assert _bits(_written(encoder, twin, viewer)) != seen


def _positions(seats: int, seed: int, every: int) -> list[ArcheosState]:
    """Clones of every ``every``-th position of a random match, its end included."""
    state, rng = _match(seats, seed), Rng(seed)
    found = [state.clone()]
    step = 0
    while not state.is_over():
        actor = state.deciding_seats()[0]
        choices = state.legal_actions_for(actor)
        state.apply_unchecked(choices[rng.below(len(choices))], actor)
        step += 1
        if step % every == 0 or state.is_over():
            found.append(state.clone())
    return found


@pytest.mark.parametrize("case", ARCHEOS_CASES, ids=case_id)
def test_one_writer_follows_positions_of_two_matches_in_any_order(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """The writer compares values with its copies, whatever came before: fed the
    positions of two matches shuffled together (a new episode, a search jumping
    between afterstates), it gives each one's fresh encoding, bit for bit."""
    _, seats, _ = case
    encoder = observation_encoder("archeos", seats, {})
    positions = _positions(seats, 7, 5) + _positions(seats, 8, 5)
    Rng(seats).shuffle(positions)
    for viewer in (0, seats - 1):
        writer = ArcheosTensor(encoder.features, seats)
        out = array("d", bytes(8 * encoder.size))
        for index, state in enumerate(positions):
            writer(state, viewer, out)
            assert _bits(out) == _bits(encoder.encode(state.view(viewer))), (viewer, index)


def test_a_writer_starts_afresh_for_another_viewer_or_another_array() -> None:
    """Its copies describe one viewer's doubles: asked for another seat, or handed
    other doubles (holding anything), it writes the whole tensor again."""
    encoder = observation_encoder("archeos", 4, {})
    positions = _positions(4, 4, 40)
    writer = ArcheosTensor(encoder.features, 4)
    first = array("d", bytes(8 * encoder.size))
    writer(positions[1], 0, first)
    writer(positions[1], 2, first)
    assert _bits(first) == _bits(encoder.encode(positions[1].view(2)))
    other = array("d", [0.5] * encoder.size)
    writer(positions[2], 2, other)
    assert _bits(other) == _bits(encoder.encode(positions[2].view(2)))
