"""Conversions between the rules cores and the ``senet.v1`` protobuf messages.

This package is the only code that imports both ``senet.games`` and generated
code: the cores stay pure (no protobuf), and the service stays game-agnostic (it
asks :func:`codec_for` for a game's codec and never reads a game's messages).

Typical use, as the service does it for a ``SubmitActionRequest`` (``request``) on a
match of ``game_id``, answering with a ``MatchUpdate`` (``update``)::

    codec = codec_for(game_id)  # UnknownGameError: no codec serves that game
    notation = codec.action_from_proto(request.typed)  # MalformedActionError on bad input
    events = state.apply(seat, notation)
    for event in events:
        if event.visible_to(viewer):
            codec.write_event(update.events.add(), event)
"""

from senet.codec.base import (
    GameCodec,
    action_game,
    all_codecs,
    codec_for,
    require_game_message,
)
from senet.codec.options import (
    game_info_to_proto,
    option_spec_to_proto,
    option_value_from_proto,
    option_value_to_proto,
    options_from_proto,
    options_to_proto,
)

__all__ = [
    "GameCodec",
    "action_game",
    "all_codecs",
    "codec_for",
    "game_info_to_proto",
    "option_spec_to_proto",
    "option_value_from_proto",
    "option_value_to_proto",
    "options_from_proto",
    "options_to_proto",
    "require_game_message",
]
