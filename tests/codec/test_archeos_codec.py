"""The Archeos Society codec: every action, view and event of random matches converts,
views decode back to the core's dicts, and client input decodes or is malformed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.codec import codec_for
from senet.games import MalformedActionError, Rng, get_game
from senet.games.archeos import ArcheosState
from senet.v1 import archeos_pb2 as pb
from senet.v1 import match_pb2

GAME = get_game("archeos")
CODEC = codec_for("archeos")


@pytest.mark.parametrize("seats", range(2, 7))
@pytest.mark.slow
def test_random_matches_convert_both_ways(seats: int) -> None:
    for seed in range(3):
        state = GAME.new_match(seats, seed=seed)
        rng = Rng(seed)
        while True:
            for viewer in [None, *range(seats)]:
                view = state.view(viewer)
                message = CODEC.view_to_proto(view)
                assert message.WhichOneof("game") == "archeos"
                back = CODEC.view_from_proto(message, viewer=viewer, options=state.options)
                assert back == view
            if state.is_over():
                break
            for action in state.legal_actions():
                typed = CODEC.action_to_proto(action)
                assert CODEC.action_from_proto(typed) == action.notation()
                listed = CODEC.legal_action_to_proto(state, action)
                assert listed.notation == action.notation() and listed.label
            seat = state.current_seat()
            assert seat is not None
            for event in state.apply(seat, rng.choice(state.legal_actions())):
                converted = CODEC.event_to_proto(event)
                assert converted.archeos.kind != pb.ARCHEOS_EVENT_KIND_UNSPECIFIED


def test_typed_actions_decode_to_canonical_notation() -> None:
    card = pb.ArcheosCard(colour=pb.ARCHEOS_COLOUR_RED, role=pb.ARCHEOS_ROLE_BOTANIST)
    cases = {
        "lead r-bot col": pb.ArcheosAction(
            kind=pb.ARCHEOS_ACTION_KIND_LEAD, card=card, basis=pb.ARCHEOS_BASIS_COLOUR
        ),
        "adv y2": pb.ArcheosAction(
            kind=pb.ARCHEOS_ACTION_KIND_ADVANCE,
            site=pb.ARCHEOS_COLOUR_YELLOW,
            second_vehicle=True,
        ),
        "prof 4": pb.ArcheosAction(kind=pb.ARCHEOS_ACTION_KIND_PROFESSOR, token=4),
        "draw": pb.ArcheosAction(kind=pb.ARCHEOS_ACTION_KIND_DRAW),
        "skip": pb.ArcheosAction(kind=pb.ARCHEOS_ACTION_KIND_SKIP),
    }
    for notation, typed in cases.items():
        assert CODEC.action_from_proto(match_pb2.Action(archeos=typed)) == notation


def test_the_decline_and_its_steps_round_trip() -> None:
    """``skip`` and the Patron / Chichén Itzá steps (ruling A-9) have wire forms."""
    skip = GAME.parse_action("skip")
    assert CODEC.action_from_proto(CODEC.action_to_proto(skip)) == "skip"
    assert pb.ArcheosStep.Name(pb.ARCHEOS_STEP_PATRON) == "ARCHEOS_STEP_PATRON"
    state = GAME.new_match(2, {"advanced_site": "chichen"}, seed=4)
    assert isinstance(state, ArcheosState)
    state.step = "chichen"  # any running view decodes back with the new step
    view = state.view(0)
    assert CODEC.view_from_proto(CODEC.view_to_proto(view), viewer=0, options=state.options) == (
        view
    )


@pytest.mark.parametrize(
    "typed",
    [
        pb.ArcheosAction(),
        pb.ArcheosAction(kind=pb.ArcheosActionKind.ValueType(99)),
        pb.ArcheosAction(kind=pb.ARCHEOS_ACTION_KIND_TAKE),
        pb.ArcheosAction(kind=pb.ARCHEOS_ACTION_KIND_DRAW, token=3),
        pb.ArcheosAction(
            kind=pb.ARCHEOS_ACTION_KIND_ADVANCE, site=pb.ARCHEOS_COLOUR_RED, second_vehicle=True
        ),
        pb.ArcheosAction(kind=pb.ARCHEOS_ACTION_KIND_PROFESSOR, token=9),
        pb.ArcheosAction(
            kind=pb.ARCHEOS_ACTION_KIND_LEAD, card=pb.ArcheosCard(colour=pb.ARCHEOS_COLOUR_YELLOW)
        ),
    ],
)
def test_malformed_typed_actions_are_refused(typed: pb.ArcheosAction) -> None:
    with pytest.raises(MalformedActionError):
        CODEC.action_from_proto(match_pb2.Action(archeos=typed))


def test_another_games_message_is_malformed() -> None:
    with pytest.raises(MalformedActionError):
        CODEC.action_from_proto(match_pb2.Action())


_CARDS = st.builds(
    lambda colour, role: pb.ArcheosCard(
        colour=pb.ArcheosColour.ValueType(colour), role=pb.ArcheosRole.ValueType(role)
    ),
    st.integers(0, 8),
    st.integers(0, 14),
)


@settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    kind=st.integers(0, 15),
    card=st.none() | _CARDS,
    basis=st.integers(0, 4),
    site=st.integers(0, 8),
    second=st.booleans(),
    token=st.integers(0, 9),
)
def test_arbitrary_typed_actions_decode_or_are_malformed(
    kind: int, card: pb.ArcheosCard | None, basis: int, site: int, second: bool, token: int
) -> None:
    typed = pb.ArcheosAction(
        kind=pb.ArcheosActionKind.ValueType(kind),
        basis=pb.ArcheosBasis.ValueType(basis),
        site=pb.ArcheosColour.ValueType(site),
        second_vehicle=second,
        token=token,
    )
    if card is not None:
        typed.card.CopyFrom(card)
    try:
        notation = CODEC.action_from_proto(match_pb2.Action(archeos=typed))
    except MalformedActionError:
        return
    assert GAME.parse_action(notation).notation() == notation


def test_views_that_do_not_decode_are_value_errors() -> None:
    view = CODEC.view_to_proto(GAME.new_match(3, seed=1).view(0))
    view.archeos.step = pb.ArcheosStep.ValueType(42)
    with pytest.raises(ValueError):
        CODEC.view_from_proto(view, viewer=0)
    other = CODEC.view_to_proto(GAME.new_match(3, seed=1).view(None))
    other.archeos.players[1].hand.add(colour=pb.ARCHEOS_COLOUR_RED, role=pb.ARCHEOS_ROLE_BOTANIST)
    with pytest.raises(ValueError):
        CODEC.view_from_proto(other, viewer=None)
