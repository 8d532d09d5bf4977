"""Every game's action space holds every legal action, and its observations show only views.

Random playouts of every registered game, seat count and variant: at each position the
legal actions of every deciding seat map into the space (and back), the mask marks
exactly them, and each seat's observation has the declared length and equals the
observation of a twin re-dealt by ``determinize`` for that seat (the conformance
suite's check on views, applied to the tensors).
"""

from __future__ import annotations

from array import array
from typing import Any, cast

import pytest

from senet.games import GameState, Rng, all_games, get_game
from senet.games.archeos.actions import ArcheosAction
from senet.rl.encoding import (
    ENCODINGS,
    ActionSpace,
    DirectTensor,
    ObservationEncoder,
    action_space,
    encoding_for,
    observation_encoder,
)
from tests.rl.cases import case_id, cases

CASES = cases()


def same_bits(written: array[float], encoded: list[float]) -> bool:
    """Whether a writer's floats are the encoding's stored into an array of their type,
    to the last bit (``==`` on floats would let ``-0.0`` pass for ``0.0``)."""
    return written.tobytes() == array(written.typecode, encoded).tobytes()


SEEDS = (1, 2, 3)
MAX_DECISIONS = 3000


def test_every_registered_game_has_an_encoding() -> None:
    assert {g.info.id for g in all_games()} <= set(ENCODINGS.game_ids())
    for game in all_games():
        assert encoding_for(game.info.id).version >= 1


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_space_is_indexed_once_and_reads_back(case: tuple[str, int, dict[str, Any]]) -> None:
    game_id, seats, options = case
    space = action_space(game_id, seats, options)
    game = get_game(game_id)
    assert len(set(space.notations)) == len(space) > 0
    for index, action in enumerate(space.actions):
        assert space.index_of(action) == index
        assert game.parse_action(space.notations[index]) == action
    assert action_space(game_id, seats, options) is space


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_playouts_stay_in_the_space_and_observations_hide_what_is_hidden(
    case: tuple[str, int, dict[str, Any]], seed: int
) -> None:
    game_id, seats, options = case
    space = action_space(game_id, seats, options)
    encoder = observation_encoder(game_id, seats, options)
    state = get_game(game_id).new_match(seats, options, seed=seed)
    rng = Rng(seed * 7919)
    for step in range(MAX_DECISIONS):
        if state.is_over():
            break
        for deciding in state.deciding_seats():
            legal = state.legal_actions_for(deciding)
            mask = space.mask(legal)
            assert sum(mask) == len(set(legal))
            assert [space.actions[i] for i in space.indexes(legal)] == legal
        if step % 5 == 0:
            for seat in range(seats):
                observation = encoder.encode(state.view(seat))
                assert len(observation) == encoder.size
                twin = state.determinize(seat, rng.next_u64())
                assert encoder.encode(twin.view(seat)) == observation, f"seat {seat}, step {step}"
                # The game's direct writer (when it has one) reads the state, not the
                # view: it too must not tell the state from its twin.
                for position in (state, twin):
                    written = encoder.writer().encode(position, seat)
                    assert same_bits(written, observation), f"seat {seat}, step {step}"
        actor = state.deciding_seats()[rng.below(len(state.deciding_seats()))]
        choices = state.legal_actions_for(actor)
        state.apply(actor, choices[rng.below(len(choices))])
    assert state.is_over(), "the playout did not end"
    for seat in range(seats):
        assert len(encoder.encode(state.view(seat))) == encoder.size


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_tensor_writer_equals_a_fresh_encoding_at_every_step(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """Each seat's writer, given the state after every action, gives the tensor a fresh
    encoding of the seat's view gives: no feature keeps a slice the core's reported
    changes should have rewritten (and no view shares a list with the state that a
    later action changes in place). Both writers: the game's direct one (where it has
    one) and the one from the view."""
    game_id, seats, options = case
    encoder = observation_encoder(game_id, seats, options)
    writers = [(encoder.writer(), encoder.writer(direct=False)) for _ in range(seats)]
    state = get_game(game_id).new_match(seats, options, seed=11)
    rng = Rng(11)
    for step in range(MAX_DECISIONS):
        for seat in range(seats):
            fresh = encoder.encode(state.view(seat))
            for writer in writers[seat]:
                assert same_bits(writer.encode(state, seat), fresh), f"seat {seat}, step {step}"
        if state.is_over():
            break
        actor = state.deciding_seats()[rng.below(len(state.deciding_seats()))]
        choices = state.legal_actions_for(actor)
        state.apply_unchecked(choices[rng.below(len(choices))], actor)
    assert state.is_over()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_tensor_writer_follows_afterstates_of_several_positions(
    case: tuple[str, int, dict[str, Any]],
) -> None:
    """A writer compares the state's values with its mark, not versions: fed the
    afterstates of every legal action (clones, in turn) at successive positions, it
    still gives each one's fresh encoding."""
    game_id, seats, options = case
    encoder = observation_encoder(game_id, seats, options)
    writers = [encoder.writer() for _ in range(seats)]
    state = get_game(game_id).new_match(seats, options, seed=5)
    rng = Rng(5)
    for _ in range(30):
        if state.is_over():
            break
        actor = state.deciding_seats()[0]
        choices = state.legal_actions_for(actor)
        for action in choices[:12]:
            after = state.clone()
            after.apply_unchecked(action, actor)
            fresh = encoder.encode(after.view(actor))
            assert same_bits(writers[actor].encode(after, actor), fresh), action.notation()
        state.apply_unchecked(choices[rng.below(len(choices))], actor)


def test_a_writer_takes_the_games_direct_writer_for_a_seat_and_the_view_otherwise() -> None:
    """Where an encoding has a direct writer, a seat's writer calls it (with its own
    doubles, again and again) and reports the whole tensor changed; a writer made with
    ``direct=False``, or asked for the spectator's view, encodes the view instead."""
    base = observation_encoder("mykerinos", 2, dict(get_game("mykerinos").info.short_match_options))
    calls: list[tuple[int, int]] = []

    def make() -> DirectTensor:
        def write(state: GameState, viewer: int, out: array[float]) -> None:
            calls.append((viewer, id(out)))
            out[:] = array(out.typecode, base.encode(state.view(viewer)))

        return write

    encoder = ObservationEncoder(base.features, make)
    state = get_game("mykerinos").new_match(2, {}, seed=3)
    direct = encoder.writer()
    for _ in range(2):
        assert direct.encode(state, 1) == array("f", base.encode(state.view(1)))
        assert direct.changed == [(0, encoder.size)]
    assert calls == [(1, id(direct.out))] * 2
    for writer, viewer in ((encoder.writer(direct=False), 1), (encoder.writer(), None)):
        assert writer.encode(state, viewer) == array("f", base.encode(state.view(viewer)))
    assert len(calls) == 2


def _fresh_space(game_id: str, seats: int) -> ActionSpace:
    """A space of its own (the cached one is shared with the other tests)."""
    cached = action_space(game_id, seats)
    return ActionSpace(cached.game, cached.actions, cached.version)


def test_a_core_that_hands_out_the_same_objects_has_them_found_by_identity() -> None:
    """Mykerinos' move tables hand out shared action objects: the space learns them,
    keeps them alive, and finds the same indexes as by equality."""
    space = _fresh_space("mykerinos", 4)
    state = get_game("mykerinos").new_match(4, {}, seed=5)
    rng = Rng(5)
    legal: list[Any] = []
    while not state.is_over():
        seat = state.deciding_seats()[0]
        legal = state.legal_actions_for(seat)
        assert space.indexes(legal) == [space.index[action] for action in legal]
        state.apply_unchecked(legal[rng.below(len(legal))], seat)
    assert space._ids is not None and space._hits > len(space._ids) > 0
    assert space._ids.find(legal) == [space.index[action] for action in legal]


def test_a_core_that_makes_new_objects_turns_the_identity_lookups_off() -> None:
    space = _fresh_space("archeos", 4)
    actions = space.actions
    for _ in range(300):
        copies = [
            ArcheosAction(*cast(ArcheosAction, a)) for a in actions[:3]
        ]  # equal, not the same
        assert space.indexes(copies) == [0, 1, 2]
    assert space._ids is None
    assert space.indexes(list(actions[:3])) == [0, 1, 2]


def test_an_action_outside_the_space_is_refused_by_either_path() -> None:
    space = _fresh_space("archeos", 4)
    outsider = ArcheosAction("not an action")
    with pytest.raises(KeyError, match="not in the archeos action space"):
        space.indexes([space.actions[0], outsider])
    space._ids = None
    with pytest.raises(KeyError, match="not in the archeos action space"):
        space.indexes([outsider])
