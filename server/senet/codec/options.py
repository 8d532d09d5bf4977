"""Game-independent conversions: game facts and match options.

Options are plain ``name -> bool | int | str`` values in the core and
``map<string, OptionValue>`` on the wire. Decoding does not validate names, types or
ranges: ``Game.normalize_options`` already does that (and coerces), so the only
thing checked here is what the core cannot see, an ``OptionValue`` with no value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from senet.games.errors import InvalidOptionsError
from senet.games.interface import Game, GameInfo, OptionSpec, OptionValue
from senet.v1 import games_pb2

if TYPE_CHECKING:
    from google.protobuf.internal.containers import MessageMap

_OPTION_KINDS: dict[str, games_pb2.OptionKind.ValueType] = {
    "bool": games_pb2.OPTION_KIND_BOOL,
    "int": games_pb2.OPTION_KIND_INT,
    "choice": games_pb2.OPTION_KIND_CHOICE,
}


def option_value_to_proto(value: OptionValue, kind: str | None = None) -> games_pb2.OptionValue:
    """Wrap one option value.

    ``kind`` (an ``OptionSpec.kind``) picks the oneof field when known; without it
    the Python type decides. ``bool`` is tested before ``int`` because it is one.

    Raises:
        ValueError: the value does not fit its kind (a server bug: values come from
            specs and normalized options).
    """
    if kind == "bool" or (kind is None and isinstance(value, bool)):
        if not isinstance(value, bool):
            raise ValueError(f"bool option value expected, got {value!r}")
        return games_pb2.OptionValue(bool_value=value)
    if kind == "int" or (kind is None and isinstance(value, int)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"int option value expected, got {value!r}")
        return games_pb2.OptionValue(int_value=value)
    if kind in ("choice", None) and isinstance(value, str):
        return games_pb2.OptionValue(choice_value=value)
    raise ValueError(f"cannot encode option value {value!r} of kind {kind!r}")


def option_value_from_proto(name: str, value: games_pb2.OptionValue) -> OptionValue:
    """Unwrap one option value sent by a client.

    Raises:
        InvalidOptionsError: the ``OptionValue`` has no value set.
    """
    which = value.WhichOneof("value")
    if which == "bool_value":
        return value.bool_value
    if which == "int_value":
        return value.int_value
    if which == "choice_value":
        return value.choice_value
    raise InvalidOptionsError(
        f"option {name!r} has no value: set bool_value, int_value or choice_value"
    )


def options_from_proto(options: Mapping[str, games_pb2.OptionValue]) -> dict[str, OptionValue]:
    """Unwrap a client's options map (names sorted, so errors are deterministic).

    Raises:
        InvalidOptionsError: some ``OptionValue`` has no value set.
    """
    return {name: option_value_from_proto(name, options[name]) for name in sorted(options)}


def options_to_proto(
    options: Mapping[str, OptionValue], target: MessageMap[str, games_pb2.OptionValue]
) -> None:
    """Write ``options`` into a message's ``map<string, OptionValue>`` field.

    Protobuf message maps cannot be assigned, only filled in place, hence ``target``
    (e.g. ``summary.options``) rather than a return value.
    """
    for name, value in options.items():
        target[name].CopyFrom(option_value_to_proto(value))


def option_spec_to_proto(spec: OptionSpec) -> games_pb2.OptionSpec:
    """Describe one option for ``ListGames``."""
    out = games_pb2.OptionSpec(
        name=spec.name,
        kind=_OPTION_KINDS[spec.kind],
        default_value=option_value_to_proto(spec.default, spec.kind),
        description=spec.description,
        choices=spec.choices,
        variant=spec.variant,
    )
    if spec.minimum is not None:
        out.minimum = spec.minimum
    if spec.maximum is not None:
        out.maximum = spec.maximum
    return out


def game_info_to_proto(game: Game | GameInfo) -> games_pb2.GameInfo:
    """Describe a game (or its static :class:`GameInfo`) for ``ListGames``."""
    info = game if isinstance(game, GameInfo) else game.info
    return games_pb2.GameInfo(
        id=info.id,
        name=info.name,
        min_seats=info.min_seats,
        max_seats=info.max_seats,
        description=info.description,
        options=[option_spec_to_proto(spec) for spec in info.options],
        rules_version=info.rules_version,
    )
