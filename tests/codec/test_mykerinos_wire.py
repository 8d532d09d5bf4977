"""The Mykerinos codec's fast paths send exactly the bytes the plain form sent.

The codec builds messages in place and merges cached wire bytes for spaces, rooms
and other repeated parts (see ``server/senet/codec/mykerinos.py``) because that is the
hot path of every SubmitAction. ``test_codecs.py`` checks every field against the
core; this file pins the bytes themselves:

* one hand-written event of every kind (and both shapes of the optional parts) and
  one action of every argument shape, against the serialization the keyword-built
  codec produced before the fast paths existed (the hex literals below);
* every entry point (``event_to_proto``, ``write_event``, ``action_to_proto``,
  ``write_action``, ``legal_action_to_proto``, ``view_to_proto``) against the
  module's own returning functions wrapped the keyword way, over seeded matches of
  every variant, so the in-place wrapping and the caches cannot drift;
* errors: a value the codec rejects fails as before and is never cached.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from senet.codec import codec_for
from senet.codec import mykerinos as myk
from senet.games import Event, MalformedActionError, get_game
from senet.games.mykerinos.actions import MykerinosAction
from senet.v1 import match_pb2, match_service_pb2

CODEC = codec_for("mykerinos")
GAME = get_game("mykerinos")

_REGION: dict[str, Any] = {
    "columns": 8,
    "rows": 6,
    "plots": [
        {
            "slot": 0,
            "area": 0,
            "side": "left",
            "card": 7,
            "patron": "col",
            "points": 0,
            "rotated": True,
        },
        {
            "slot": 1,
            "area": 0,
            "side": "right",
            "card": 35,
            "patron": None,
            "points": 5,
            "rotated": False,
        },
    ],
    "pyramids": ["h1", "f2"],
}
_NILE_REGION: dict[str, Any] = {
    **_REGION,
    "river": ["d1", "e1"],
    "nile": [
        {
            "row": 0,
            "card": 3,
            "effect": "tie_winner",
            "points": 1,
            "rotated": False,
            "cells": "~.P~..",
        }
    ],
}

#: (kind, data, serialized GameEvent as hex) from the keyword-built codec.
EVENT_BYTES: list[tuple[str, dict[str, Any], str]] = [
    (
        "campaign_started",
        {"campaign": 2, "start_seat": 1, "region": _NILE_REGION},
        "0a440a42080210011a3c080810061a0818012007280238011a080801180220233005220208072204"
        "080510012a180a0208030a020804120e1003180420012a06010203010202",
    ),
    (
        "campaign_started",
        {"campaign": 1, "start_seat": 0, "region": _REGION},
        "0a280a2608011a22080810061a0818012007280238011a08080118022023300522020807220408051001",
    ),
    (
        "placed",
        {"seat": 0, "colour": "blue", "action": "a", "spaces": ["c2"]},
        "0a0c120a10011801220408021001",
    ),
    (
        "placed",
        {"seat": 3, "colour": "white", "action": "nb", "spaces": ["h9", "a1", "C3"]},
        "0a16121408031004180a2204080710082200220408021002",
    ),
    ("passed", {"seat": 2, "tiebreak_space": 3, "automatic": True}, "0a081a06080210031801"),
    ("final_action", {"seat": 1}, "0a0422020801"),
    ("museum_placed", {"seat": 0, "room": "exp5", "via": "dir"}, "0a082a06120408031805"),
    (
        "museum_placed",
        {"seat": 1, "room": "hei/col", "via": "reward", "area": 2},
        "0a0e2a0c080112060802100418021801",
    ),
    (
        "area_ranked",
        {
            "area": 1,
            "order": [
                {"colour": "red", "seat": 1, "count": 3},
                {"colour": "white", "seat": None, "count": 1},
            ],
        },
        "0a0c320a0801120202041a020301",
    ),
    (
        "plot_taken",
        {
            "seat": 1,
            "area": 2,
            "side": "right",
            "card": 35,
            "patron": None,
            "points": 5,
            "automatic": False,
        },
        "0a0c3a0a08011002180220233005",
    ),
    (
        "plot_taken",
        {
            "seat": 0,
            "area": 0,
            "side": "left",
            "card": 7,
            "patron": "cur",
            "points": 0,
            "automatic": True,
        },
        "0a0a3a081801200728013801",
    ),
    (
        "plot_discarded",
        {"area": 3, "side": "left", "card": 9, "chosen_by": None},
        "0a084206080310011809",
    ),
    (
        "plot_discarded",
        {"area": 3, "side": "right", "card": 9, "chosen_by": 0},
        "0a0a42080803100218092000",
    ),
    ("area_done", {"area": 0}, "0a024a00"),
    ("campaign_ended", {"campaign": 3, "next_start_seat": 2}, "0a06520408031002"),
    ("game_over", {"scores": [40, 0, 33], "ranking": [0, 2, 1]}, "0a0c5a0a0a032800211203000201"),
    (
        "draft_started",
        {"plots": [4, 17], "patrons": ["hei", "dir"], "order": [1, 0, 0, 1]},
        "0a10620e0a020411120204051a0401000001",
    ),
    ("drafted", {"seat": 1, "card": 17, "patron": "dir"}, "0a086a06080110111805"),
    ("draft_discarded", {"card": 4, "patron": "hei"}, "0a06720408041004"),
    ("blocked", {"seat": 0, "target": "f5"}, "0a087a06120408051004"),
    ("blocked", {"seat": 1, "target": "cur/exp"}, "0a0c7a0a08011a06080110031802"),
    ("token_returned", {"seat": 2, "target": "exp3"}, "0a0b82010808021a0408031803"),
    ("nothing_to_block", {"seat": 0}, "0a038a0100"),
    ("tokens_retrieved", {}, "0a03920100"),
    (
        "river_ranked",
        {"area": -1, "order": [{"colour": "green", "seat": 2, "count": 2}]},
        "0a099a01060a0103120102",
    ),
    (
        "nile_card_taken",
        {
            "seat": 1,
            "row": 2,
            "card": 0,
            "effect": "governor",
            "points": 0,
            "archaeologists": 0,
            "automatic": False,
        },
        "0a09a20106080110022001",
    ),
    ("nile_card_discarded", {"row": 1, "card": 6, "chosen_by": None}, "0a07aa010408011006"),
    ("nile_card_discarded", {"row": 0, "card": 5, "chosen_by": 3}, "0a07aa010410051803"),
    ("river_done", {}, "0a03b20100"),
    ("tie_card_used", {"seat": 0, "order": ["blue", "red"]}, "0a07ba010412020102"),
    ("tie_card_kept", {"seat": 3}, "0a05c201020803"),
    ("plot_left", {"seat": 2, "area": 3}, "0a07ca010408021003"),
]

#: (kind, spaces, arg, serialized Action as hex) from the keyword-built codec.
ACTION_BYTES: list[tuple[str, tuple[int, ...], int, str]] = [
    ("a", (0,), -1, "0a0408011200"),
    ("b", (9, 10), -1, "0a0e0802120408011001120408021001"),
    ("ta", (70, 71), -1, "0a0e080f120408061008120408071008"),
    ("pass", (), -1, "0a020808"),
    ("dir", (), 7, "0a0808071a0408031805"),
    ("mus", (), 14, "0a0a080d1a06080210031802"),
    ("take", (), 0, "0a04080c2001"),
    ("discard", (), 4, "0a04080e2005"),
    ("draft", (), 3, "0a0408112804"),
    ("block", (), 37, "0a080813120408051004"),
    ("block", (), 112, "0a0a08131a06080110041802"),
    ("usetie", (), -1, "0a020814"),
    ("leave", (), -1, "0a020816"),
]


def _wire(message: Any) -> bytes:
    return bytes(message.SerializeToString(deterministic=True))


@pytest.mark.parametrize(("kind", "data", "expected"), EVENT_BYTES)
def test_events_keep_their_bytes(kind: str, data: dict[str, Any], expected: str) -> None:
    event = Event(kind, data)
    for _ in range(2):  # cold and warm caches
        assert _wire(CODEC.event_to_proto(event)).hex() == expected
        response = match_service_pb2.SubmitActionResponse()
        CODEC.write_event(response.events.add(), event)
        assert _wire(response.events[0]).hex() == expected


def test_every_event_kind_is_pinned() -> None:
    assert {kind for kind, _, _ in EVENT_BYTES} == set(myk.EVENT_CONVERTERS)


@pytest.mark.parametrize(("kind", "spaces", "arg", "expected"), ACTION_BYTES)
def test_actions_keep_their_bytes(
    kind: str, spaces: tuple[int, ...], arg: int, expected: str
) -> None:
    action = MykerinosAction(kind, spaces, arg)
    for _ in range(2):
        assert _wire(CODEC.action_to_proto(action)).hex() == expected
        listed = match_pb2.LegalAction()
        CODEC.write_action(listed.action, action)
        assert _wire(listed.action).hex() == expected


VARIANTS = [
    (2, {}),
    (3, {"classic": True}),
    (4, {"team": True, "quick": True}),
    (2, {"nile": True, "quick": True}),
    (3, {"nile": True, "classic": True}),
    (4, {"nile": True, "team": True}),
]


@pytest.mark.parametrize(("seats", "options"), VARIANTS)
def test_fast_paths_equal_the_keyword_form(seats: int, options: dict[str, bool]) -> None:
    """Whatever a seeded match produces goes out as the keyword-built wrapper would."""
    state = GAME.new_match(seats, options=options, seed=seats)
    rng = random.Random(seats)
    step = 0
    while True:
        for seat in (None, state.current_seat()) if step % 7 == 0 else ():
            view = state.view(seat)
            keyword_view = match_pb2.View(mykerinos=myk.view_to_proto(view))
            assert _wire(CODEC.view_to_proto(view)) == _wire(keyword_view)
        if state.is_over():
            break
        legal = state.legal_actions()
        for action in legal if step % 3 == 0 else legal[:3]:
            assert isinstance(action, MykerinosAction)
            keyword_action = match_pb2.Action(mykerinos=myk.action_to_proto(action))
            assert _wire(CODEC.action_to_proto(action)) == _wire(keyword_action)
            listed = match_pb2.LegalAction(
                action=keyword_action, notation=action.notation(), label=state.describe(action)
            )
            assert _wire(CODEC.legal_action_to_proto(state, action)) == _wire(listed)
        seat = state.current_seat()
        assert seat is not None
        for event in state.apply(seat, rng.choice(legal)):
            keyword_event = match_pb2.GameEvent(mykerinos=myk.event_to_proto(event))
            assert CODEC.event_to_proto(event) == keyword_event
            assert _wire(CODEC.event_to_proto(event)) == _wire(keyword_event)
        step += 1


def test_rejected_values_fail_as_before_and_are_not_cached() -> None:
    with pytest.raises(ValueError, match="no protobuf form for Mykerinos event kind 'nonsense'"):
        CODEC.event_to_proto(Event("nonsense", {}))
    with pytest.raises(ValueError, match="no protobuf form for Mykerinos colour 'pink'"):
        CODEC.event_to_proto(
            Event("placed", {"seat": 0, "colour": "pink", "action": "a", "spaces": ["a1"]})
        )
    for _ in range(2):
        with pytest.raises(MalformedActionError, match="'z1' is not a space"):
            CODEC.event_to_proto(
                Event("placed", {"seat": 0, "colour": "red", "action": "a", "spaces": ["z1"]})
            )
        with pytest.raises(ValueError, match="no protobuf form for Mykerinos room id 20"):
            CODEC.action_to_proto(MykerinosAction("dir", (), 20))
    assert "z1" not in myk._PLACED_SPACES
    assert 20 not in myk._ACTION_ROOMS
    with pytest.raises(ValueError, match="no protobuf form for Mykerinos side 5"):
        CODEC.action_to_proto(MykerinosAction("take", (), 5))
    with pytest.raises(ValueError, match="no protobuf form for Mykerinos action kind 'fly'"):
        CODEC.action_to_proto(MykerinosAction("fly"))
    with pytest.raises(TypeError, match="not a Mykerinos action value"):
        CODEC.write_action(match_pb2.Action(), "pass")  # type: ignore[arg-type]
