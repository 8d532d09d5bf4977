"""The one error hierarchy of the rules cores.

Every error a client can provoke is a :class:`GameError`. The server maps these
classes to gRPC status codes in exactly one place; the core never knows about gRPC.
Each class carries a stable ``reason`` string (UPPER_SNAKE) that the server forwards
as ``google.rpc.ErrorInfo.reason`` so integrators can branch on it.
"""

from __future__ import annotations

from collections.abc import Mapping


class GameError(ValueError):
    """Base class: the request was understood but cannot be honoured.

    Attributes:
        facts: What a client can act on without parsing the message (e.g. the
            seat that must decide now), as text; the server forwards them as
            ``google.rpc.ErrorInfo`` metadata, so keys are lowerCamelCase.
    """

    reason = "GAME_ERROR"

    def __init__(self, message: str = "", facts: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.facts = {key: str(value) for key, value in (facts or {}).items()}


class UnknownGameError(GameError):
    """No game is registered under the requested id."""

    reason = "UNKNOWN_GAME"


class InvalidOptionsError(GameError):
    """Match options or seat count are unknown, mistyped or conflict with each other."""

    reason = "INVALID_OPTIONS"


class MalformedActionError(GameError):
    """The action text or structure cannot be parsed at all."""

    reason = "MALFORMED_ACTION"


class UnknownActionError(MalformedActionError):
    """The first word of the notation names no action of the game.

    A parser knows the game's words but not the position: it raises this with the
    word alone, and :func:`senet.games.interface.read_action`, which knows the
    position, lists the words of the actions legal now (listing every word of every
    rules variant would offer actions this match cannot use).

    Attributes:
        word: The unknown first word, as typed (lowercased).
    """

    def __init__(self, word: str, hint: str = "") -> None:
        message = f"unknown action {word!r}"
        super().__init__(f"{message}; {hint}" if hint else message)
        self.word = word


class IllegalActionError(GameError):
    """The action is well formed but not legal now; the message says why."""

    reason = "ILLEGAL_ACTION"


class NotYourTurnError(GameError):
    """The seat tried to act while another seat (or nobody) must decide."""

    reason = "NOT_YOUR_TURN"


class GameOverError(GameError):
    """The match has ended; no further actions are accepted."""

    reason = "GAME_OVER"


class CorruptStateError(GameError):
    """Serialized state data does not describe a valid state of this game."""

    reason = "CORRUPT_STATE"
