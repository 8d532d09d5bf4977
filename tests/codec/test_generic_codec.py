"""The generic codec: any core's actions, views and events over the ``generic`` arm.

Checked on Pebbles (the test-suite game that has no messages of its own) and on
arbitrary plain data: views decode to exactly what the core produced, integers
included; client input fails only with MalformedActionError; server bugs fail loudly.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.codec import action_game, codec_for
from senet.codec.generic import GenericCodec, read_object, read_value, write_object, write_value
from senet.games import Event, MalformedActionError, Rng, get_game
from senet.v1 import archeos_pb2, generic_pb2, match_pb2, mykerinos_pb2
from tests.pebbles.core import Play

CODEC = codec_for("pebbles")
GAME = get_game("pebbles")
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


def _typed(value: Any) -> Any:
    """``value`` with each scalar paired with its type, so 1 and 1.0 and True differ."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


def _wire(message: Any) -> Any:
    return type(message).FromString(message.SerializeToString())


# ------------------------------------------------------------ plain data
@FUZZ
@given(JSON)
def test_plain_data_round_trips_with_its_types(value: Any) -> None:
    out = generic_pb2.GenericValue()
    write_value(out, value)
    decoded = read_value(_wire(out))
    assert _typed(decoded) == _typed(value)


@pytest.mark.slow
@FUZZ
@given(st.dictionaries(st.text(max_size=6), JSON, max_size=5))
def test_objects_round_trip(value: dict[str, Any]) -> None:
    out = generic_pb2.GenericObject()
    write_object(out, value)
    assert _typed(read_object(_wire(out))) == _typed(value)


def test_empty_containers_and_tuples_are_kept_as_json_would() -> None:
    out = generic_pb2.GenericObject()
    write_object(out, {"list": [], "dict": {}, "pair": (1, "a"), "none": None})
    assert read_object(out) == {"list": [], "dict": {}, "pair": [1, "a"], "none": None}


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (2**63, ValueError),
        (-(2**63) - 1, ValueError),
        (math.nan, ValueError),
        (math.inf, ValueError),
        (b"bytes", TypeError),
        ({1: "non-string key"}, TypeError),
        ({"set": {1, 2}}, TypeError),
        (object(), TypeError),
    ],
)
def test_what_is_not_plain_data_fails_loudly(value: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        write_value(generic_pb2.GenericValue(), value)


def test_an_unset_value_does_not_decode() -> None:
    broken = generic_pb2.GenericObject()
    broken.fields["x"].CopyFrom(generic_pb2.GenericValue())
    with pytest.raises(ValueError, match="without a value"):
        read_object(broken)


# ------------------------------------------------------------ a whole match
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_match_converts_both_ways(seats: int) -> None:
    """Every view, legal action and event of random matches survives the wire."""
    for seed in range(3):
        state = GAME.new_match(seats, options={"doubles": seed == 1}, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            for viewer in [None, *range(seats)]:
                view = state.view(viewer)
                message = _wire(CODEC.view_to_proto(view))
                assert message.WhichOneof("game") == "generic"
                decoded = CODEC.view_from_proto(message, viewer=viewer, options=state.options)
                assert _typed(decoded) == _typed(view)
            for action in state.legal_actions():
                typed = _wire(CODEC.action_to_proto(action))
                assert CODEC.action_from_proto(typed) == action.notation()
                listed = CODEC.legal_action_to_proto(state, action)
                assert (listed.notation, listed.action) == (action.notation(), typed)
                assert listed.label == state.describe(action)
            seat = state.current_seat()
            assert seat is not None
            for event in state.apply(seat, rng.choice(state.legal_actions())):
                message = _wire(CODEC.event_to_proto(event))
                assert message.generic.kind == event.kind
                assert read_object(message.generic.data) == dict(event.data)


# ------------------------------------------------------------ client input
def _generic_action(game_id: str, notation: str) -> match_pb2.Action:
    return match_pb2.Action(generic=generic_pb2.GenericAction(game_id=game_id, notation=notation))


def test_notation_is_returned_in_canonical_form() -> None:
    assert CODEC.action_from_proto(_generic_action("pebbles", "play 5")) == "play 5"
    assert action_game(_generic_action("pebbles", "play 5")) == "pebbles"


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (match_pb2.Action(), "Action.game is empty"),
        (match_pb2.Action(mykerinos=mykerinos_pb2.MykerinosAction()), "set to mykerinos"),
        (_generic_action("", "play 1"), "for 'no game' was sent to a pebbles match"),
        (_generic_action("mykerinos", "play 1"), "for 'mykerinos' was sent to a pebbles match"),
        (_generic_action("pebbles", ""), "not a Pebbles action"),
        (_generic_action("pebbles", "play 9"), "not a Pebbles action"),
    ],
)
def test_bad_actions_are_malformed(action: match_pb2.Action, message: str) -> None:
    with pytest.raises(MalformedActionError, match=message):
        CODEC.action_from_proto(action)


@FUZZ
@given(st.text(max_size=20), st.sampled_from(["pebbles", "", "x", "mykerinos"]))
def test_any_generic_action_is_notation_or_malformed(notation: str, game_id: str) -> None:
    try:
        decoded = CODEC.action_from_proto(_wire(_generic_action(game_id, notation)))
    except MalformedActionError:
        return
    assert GAME.parse_action(decoded).notation() == decoded


def test_the_game_of_a_typed_action() -> None:
    assert action_game(match_pb2.Action()) is None
    assert action_game(match_pb2.Action(archeos=archeos_pb2.ArcheosAction())) == "archeos"
    with pytest.raises(MalformedActionError, match="game_id is empty"):
        action_game(_generic_action("", "play 1"))


# ------------------------------------------------------------ server bugs
def test_server_bugs_fail_loudly() -> None:
    with pytest.raises(TypeError):
        CODEC.action_to_proto("play 1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a pebbles view"):
        CODEC.view_to_proto({"game": "chess"})
    with pytest.raises(ValueError, match="without a kind"):
        CODEC.event_to_proto(Event("", {}))
    with pytest.raises(TypeError):
        CODEC.event_to_proto(Event("played", {"tile": {1}}))


def test_views_of_another_game_do_not_decode() -> None:
    other = GenericCodec("other", Play).view_to_proto({"game": "other"})
    with pytest.raises(ValueError, match="game 'other'"):
        CODEC.view_from_proto(other)
    with pytest.raises(ValueError, match="game 'mykerinos'"):
        CODEC.view_from_proto(match_pb2.View(mykerinos=mykerinos_pb2.MykerinosView()))
    with pytest.raises(ValueError, match="game None"):
        CODEC.view_from_proto(match_pb2.View())


def test_the_codec_writes_the_generic_arm() -> None:
    assert CODEC.oneof_field == "generic"
    assert codec_for("mykerinos").oneof_field == "mykerinos"
