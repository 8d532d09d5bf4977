"""Prompts and lists built from cached entry bytes are the bytes protobuf writes."""

from __future__ import annotations

import random

import pytest

from senet.codec import codec_for
from senet.games import all_games
from senet.service.views import LegalAction, LegalActions
from senet.service.wire import LegalEntries, passing_bytes, request_id_field, varint
from senet.v1 import match_pb2, match_service_pb2


def _built(legal: LegalActions) -> match_service_pb2.PlayMatchResponse:
    """The prompt built field by field, as protobuf would have it."""
    prompt = match_service_pb2.PlayMatchResponse()
    prompt.your_turn.version = legal.version
    prompt.your_turn.seat = legal.seat
    codec = codec_for(legal.game_id)
    for a in legal.actions:
        entry = prompt.your_turn.actions.add()
        codec.write_action(entry.action, a.action)
        entry.notation = a.notation
        entry.label = a.label
    return prompt


def _prompts(game_id: str, seats: int) -> list[LegalActions]:
    """The prompts of a seeded random match, every seat deciding at every step."""
    game = next(g for g in all_games() if g.info.id == game_id)
    state = game.new_match(seats, seed=5)
    rng = random.Random(5)
    out: list[LegalActions] = []
    while not state.is_over() and len(out) < 400:
        for seat in state.deciding_seats():
            actions = [
                LegalAction(a, a.notation(), state.describe(a))
                for a in state.legal_actions_for(seat)
            ]
            out.append(LegalActions(game_id, len(out), seat, actions))
        seat = rng.choice(state.deciding_seats())
        state.apply_unchecked(rng.choice(state.legal_actions_for(seat)))
    return out


@pytest.mark.parametrize("game_id", sorted(g.info.id for g in all_games()))
def test_prompts_and_lists_are_the_bytes_protobuf_writes(game_id: str) -> None:
    game = next(g for g in all_games() if g.info.id == game_id)
    entries = LegalEntries(size=64)  # small: entries are dropped and built again
    for legal in _prompts(game_id, game.info.max_seats):
        built = _built(legal)
        assert entries.your_turn(legal) == built.SerializeToString()
        listed = match_service_pb2.ListLegalActionsResponse.FromString(entries.list_fields(legal))
        assert listed.version == legal.version and listed.seat == legal.seat
        assert list(listed.actions) == list(built.your_turn.actions)
    assert len(entries._entries) <= 64


def test_an_empty_list_at_version_0_for_seat_0_has_no_fields() -> None:
    legal = LegalActions("mykerinos", 0, 0, [])
    assert LegalEntries().list_fields(legal) == b""
    assert (
        LegalEntries().your_turn(legal)
        == match_service_pb2.PlayMatchResponse(
            your_turn=match_service_pb2.YourTurn()
        ).SerializeToString()
    )


def test_varints_and_serialized_messages_pass_through() -> None:
    for value in (0, 1, 127, 128, 300, 2**32, 2**63 + 5):
        message = match_service_pb2.YourTurn(version=value)
        assert message.SerializeToString() == (b"\x08" + varint(value) if value else b"")
    serialize = passing_bytes(match_pb2.Heartbeat.SerializeToString)
    assert serialize(b"\x08\x07") == b"\x08\x07"
    assert serialize(match_pb2.Heartbeat(version=7)) == b"\x08\x07"


def test_compact_fields_appended_to_a_message_are_that_message_with_them_set() -> None:
    legal = _prompts("mykerinos", 4)[3]
    update = match_service_pb2.PlayMatchResponse()
    update.update.version = legal.version
    update.update.seat = 2
    data = update.SerializeToString()
    data += LegalEntries().turn(legal) + request_id_field("r-42")
    message = match_service_pb2.PlayMatchResponse.FromString(data)
    assert message.WhichOneof("message") == "update" and message.update == update.update
    assert message.turn == _built(legal).your_turn
    assert message.request_id == "r-42"
