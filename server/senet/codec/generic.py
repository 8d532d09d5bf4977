"""The generic codec: any rules core on the wire without messages of its own.

A game that brings no ``.proto`` file is still served: its actions travel as
notation (``GenericAction``), its views as the core's own plain data
(``GenericView``) and its events as kind and data (``GenericEvent``), all in the
``generic`` arm of the ``game`` oneofs. Plain data is written as ``GenericValue``,
which keeps integers apart from doubles, so a view decodes to exactly the dict the
core produced and a bot can rebuild its forward model from it
(``Game.state_from_view``).

The notation is checked by the core's own parser (``Game.parse_action``), so there
is still one parser and one canonical form per game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from google.protobuf import struct_pb2

from senet.codec.base import GENERIC_FIELD, GameCodec
from senet.games.errors import MalformedActionError
from senet.games.interface import Action, Event, JsonDict, OptionValue
from senet.games.registry import get_game
from senet.games.wording import a_or_an
from senet.v1 import generic_pb2, match_pb2

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


class GenericCodec(GameCodec):
    """The codec of a game served through the ``generic`` oneof arm.

    Args:
        game_id: The game it serves.
        action_type: The core's action class (or classes): encoding anything else
            is a server bug and raises :class:`TypeError`.
    """

    def __init__(self, game_id: str, action_type: type | tuple[type, ...]) -> None:
        self.game_id = game_id  # type: ignore[misc]
        self._action_type = action_type

    @property
    def oneof_field(self) -> str:
        return GENERIC_FIELD

    def action_from_proto(self, action: match_pb2.Action) -> str:
        which = action.WhichOneof("game")
        if which != GENERIC_FIELD:
            raise MalformedActionError(
                f"Action.game is {'set to ' + which if which else 'empty'}: set the "
                f"{GENERIC_FIELD} field for {a_or_an(self.game_id)} match"
            )
        generic = action.generic
        if generic.game_id != self.game_id:
            raise MalformedActionError(
                f"a generic action for {generic.game_id or 'no game'!r} was sent to a "
                f"{self.game_id} match"
            )
        # The core's parser raises MalformedActionError for anything it cannot read.
        return get_game(self.game_id).parse_action(generic.notation).notation()

    def action_to_proto(self, action: Action) -> match_pb2.Action:
        out = match_pb2.Action()
        self.write_action(out, action)
        return out

    def write_action(self, out: match_pb2.Action, action: Action) -> None:
        if not isinstance(action, self._action_type):
            raise TypeError(f"not {a_or_an(self.game_id)} action value: {action!r}")
        out.generic.game_id = self.game_id
        out.generic.notation = action.notation()

    def view_to_proto(self, view: Mapping[str, Any]) -> match_pb2.View:
        out = match_pb2.View()
        self.write_view(out, view)
        return out

    def write_view(self, out: match_pb2.View, view: Mapping[str, Any]) -> None:
        if "game" in view and view["game"] != self.game_id:
            raise ValueError(f"not {a_or_an(self.game_id)} view: game {view['game']!r}")
        out.generic.game_id = self.game_id
        write_object(out.generic.data, view)

    def view_from_proto(
        self,
        view: match_pb2.View,
        *,
        viewer: int | None = None,
        options: Mapping[str, OptionValue] | None = None,
    ) -> JsonDict:
        # ``viewer`` and ``options`` are not needed: the message is the whole view.
        which = view.WhichOneof("game")
        if which != GENERIC_FIELD or view.generic.game_id != self.game_id:
            game = view.generic.game_id if which == GENERIC_FIELD else which
            raise ValueError(f"not {a_or_an(self.game_id)} view: game {game!r}")
        return read_object(view.generic.data)

    def event_to_proto(self, event: Event) -> match_pb2.GameEvent:
        out = match_pb2.GameEvent()
        self.write_event(out, event)
        return out

    def write_event(self, out: match_pb2.GameEvent, event: Event) -> None:
        if not event.kind:
            raise ValueError(f"{a_or_an(self.game_id)} event without a kind: {event!r}")
        out.generic.kind = event.kind
        write_object(out.generic.data, event.data)


# ----------------------------------------------------------------- plain data
def write_value(out: generic_pb2.GenericValue, value: object) -> None:
    """Write one plain-data value (JSON: null, bool, int, float, str, list, dict).

    Tuples are written as lists, as JSON would.

    Raises:
        TypeError: ``value`` (or something inside it) is not plain data.
        ValueError: an integer outside int64, or a float that is not finite.
    """
    # The exact types events are made of first: one identity test each, where
    # the isinstance chain below took up to five (it still serves subclasses).
    if type(value) is int:
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise ValueError(f"integer {value} does not fit in 64 bits")
        out.int_value = value
    elif type(value) is str:
        out.string_value = value
    elif type(value) is list:
        out.list_value.SetInParent()
        add = out.list_value.items.add
        for item in value:
            write_value(add(), item)
    elif type(value) is dict:
        out.object_value.SetInParent()
        write_object(out.object_value, value)
    elif value is None:
        out.null_value = struct_pb2.NULL_VALUE
    elif isinstance(value, bool):
        out.bool_value = value
    elif isinstance(value, int):
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise ValueError(f"integer {value} does not fit in 64 bits")
        out.int_value = value
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a JSON number")
        out.double_value = value
    elif isinstance(value, str):
        out.string_value = value
    elif isinstance(value, list | tuple):
        out.list_value.SetInParent()
        for item in value:
            write_value(out.list_value.items.add(), item)
    elif isinstance(value, Mapping):
        out.object_value.SetInParent()
        write_object(out.object_value, value)
    else:
        raise TypeError(f"not plain data: {value!r}")


def write_object(out: generic_pb2.GenericObject, value: Mapping[Any, Any]) -> None:
    """Write a mapping with string keys into ``out``, an empty ``GenericObject``.

    Raises:
        TypeError: a key is not a string, or a member is not plain data.
        ValueError: see :func:`write_value`.
    """
    fields = out.fields
    for key, item in value.items():
        if type(key) is not str and not isinstance(key, str):
            raise TypeError(f"object keys must be strings, got {key!r}")
        write_value(fields[key], item)


def read_value(value: generic_pb2.GenericValue) -> Any:
    """The plain-data value :func:`write_value` wrote.

    Raises:
        ValueError: the value (or something inside it) is unset.
    """
    which = value.WhichOneof("kind")
    if which == "null_value":
        return None
    if which == "bool_value":
        return value.bool_value
    if which == "int_value":
        return value.int_value
    if which == "double_value":
        return value.double_value
    if which == "string_value":
        return value.string_value
    if which == "list_value":
        return [read_value(item) for item in value.list_value.items]
    if which == "object_value":
        return read_object(value.object_value)
    raise ValueError("a GenericValue without a value")


def read_object(value: generic_pb2.GenericObject) -> JsonDict:
    """The mapping :func:`write_object` wrote, as a dict.

    Raises:
        ValueError: a member is unset.
    """
    return {key: read_value(item) for key, item in value.fields.items()}
