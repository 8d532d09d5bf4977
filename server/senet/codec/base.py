"""The codec interface and the registry of codecs by game id.

A codec is the one place that knows both a rules core (plain dicts, named tuples,
:class:`~senet.games.interface.Event`) and that game's protobuf messages. The core
never imports generated code (``tests/test_import_boundary.py`` enforces it), and the
service never picks apart a game's messages: it asks :func:`codec_for` and hands the
codec whole values.

Direction matters for errors:

* **proto -> core** (:meth:`GameCodec.action_from_proto`) reads client input, so every
  problem is a :class:`~senet.games.errors.MalformedActionError` that the service
  forwards as ``INVALID_ARGUMENT``/``MALFORMED_ACTION``; nothing else may escape.
* **core -> proto** (actions, views, events) reads server data, so a value that does
  not fit is a server bug and raises :class:`ValueError`/:class:`TypeError`/``KeyError``
  loudly instead of sending something half-converted.
* **proto -> core for views** (:meth:`GameCodec.view_from_proto`) runs in clients and
  bots on what a server sent; a message that does not decode means client and server
  disagree about the protocol, so it raises :class:`ValueError` rather than guessing.

Actions cross the boundary as *notation*: the core already parses and validates
notation (``Game.parse_action``) and logs and exports store it, so decoding to text
keeps one parser and one canonical form.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from senet.games.errors import MalformedActionError
from senet.games.interface import Action, Event, GameState, JsonDict, OptionValue
from senet.games.plugins import PluginRegistry
from senet.games.wording import a_or_an
from senet.v1 import match_pb2


class GameCodec(ABC):
    """Converts one game's actions, views and events between the core and protobuf.

    Codecs are stateless and shared by every match of their game.
    """

    #: Id of the game this codec serves (``GameInfo.id``).
    game_id: ClassVar[str]

    @property
    def oneof_field(self) -> str:
        """The field of the ``game`` oneof of ``Action``, ``View`` and ``GameEvent`` this
        codec writes: the game id for a game with its own messages, ``generic`` for a
        game served by :class:`~senet.codec.generic.GenericCodec`."""
        return self.game_id

    @abstractmethod
    def action_from_proto(self, action: match_pb2.Action) -> str:
        """Return the canonical notation of a client's typed action.

        Only syntax is checked (like ``Game.parse_action``); legality is the state's
        business. The returned text always parses with ``Game.parse_action``.

        Raises:
            MalformedActionError: the oneof is unset or holds another game's
                message, or a field is unset, unknown or out of range. Never
                anything else, whatever the client sent.
        """

    @abstractmethod
    def action_to_proto(self, action: Action) -> match_pb2.Action:
        """Return the typed form of a core action value.

        ``action_from_proto(action_to_proto(a)) == a.notation()`` for every
        canonical action ``a`` (one that ``parse_action`` could return).

        Raises:
            TypeError: ``action`` is not an action of this game (a server bug).
        """

    @abstractmethod
    def view_to_proto(self, view: Mapping[str, Any]) -> match_pb2.View:
        """Convert ``state.view(seat)`` output (already redacted by the core)."""

    @abstractmethod
    def view_from_proto(
        self,
        view: match_pb2.View,
        *,
        viewer: int | None = None,
        options: Mapping[str, OptionValue] | None = None,
    ) -> JsonDict:
        """Rebuild the core's view dict from a ``View`` a server sent.

        Clients and bots get only protobuf views, but the rules core (their forward
        model, via ``Game.state_from_view``) reads view dicts; this is the inverse of
        :meth:`view_to_proto`, so that
        ``view_from_proto(view_to_proto(d), viewer=d["viewer"], options=d["options"]) == d``
        for every dict ``d`` the core produces.

        Args:
            view: The message, as received.
            viewer: Whose view it is (``None``: a spectator's). The message does not
                carry it because the receiver already knows which seat it asked for.
            options: The match's normalized options (``MatchSummary.options``, decoded).
                ``None`` means the game's defaults, which is exact for matches created
                without options.

        Raises:
            ValueError: the ``game`` oneof is not this game, or a field holds a value
                this codec cannot map back (client and server disagree on the protocol).
        """

    @abstractmethod
    def event_to_proto(self, event: Event) -> match_pb2.GameEvent:
        """Convert one core event; the caller has already checked its audience.

        Raises:
            ValueError: the event kind has no protobuf form (a server bug: a new
                event kind was added to the core without its message).
        """

    def legal_action_to_proto(self, state: GameState, action: Action) -> match_pb2.LegalAction:
        """A legal action as listed to the seat to move: typed, notation and label."""
        out = match_pb2.LegalAction()
        self.write_action(out.action, action)
        out.notation = action.notation()
        out.label = state.describe(action)
        return out

    def write_action(self, out: match_pb2.Action, action: Action) -> None:
        """:meth:`action_to_proto`, written into ``out``, an empty message.

        For callers that put the action inside a bigger message (a new repeated
        entry, ``LegalAction.action``): upb copies a message handed to a
        constructor or to ``extend``, and a codec can build it in place instead.
        This default copies; :class:`OneofCodec` overrides it.
        """
        out.CopyFrom(self.action_to_proto(action))

    def write_view(self, out: match_pb2.View, view: Mapping[str, Any]) -> None:
        """:meth:`view_to_proto`, written into ``out``, an empty message.

        For a stream's snapshot, built in place inside its response: upb copies
        a message handed to a constructor, and a view is the biggest part of
        one. This default copies; both codec classes override it.
        """
        out.CopyFrom(self.view_to_proto(view))

    def write_event(self, out: match_pb2.GameEvent, event: Event) -> None:
        """:meth:`event_to_proto`, written into ``out``, an empty message.

        For the repeated ``events`` of responses and updates, as in
        ``codec.write_event(response.events.add(), event)``: the copy that
        ``events=[...]`` makes of each message costs about as much as building it.
        This default copies; :class:`OneofCodec` overrides it.
        """
        out.CopyFrom(self.event_to_proto(event))


class OneofCodec(GameCodec):
    """A codec made of one game module's conversion functions.

    A game with messages of its own has them in the ``game`` oneof of ``Action``,
    ``View`` and ``GameEvent`` under a field named like the game, so the wrapping
    (and its checks) is the same for every such game; only the per-game functions
    differ. A game without messages uses :class:`~senet.codec.generic.GenericCodec`.
    """

    def __init__(
        self,
        game_id: str,
        name: str,
        action_type: type,
        action_from: Callable[[Any], str],
        action_to: Callable[[Any], Any],
        view_to: Callable[[Mapping[str, Any]], Any],
        view_from: Callable[..., JsonDict],
        event_to: Callable[[Event], Any],
        *,
        fill_action: Callable[[Any, Any], None] | None = None,
        fill_view: Callable[[Any, Mapping[str, Any]], None] | None = None,
        fill_event: Callable[[Any, Event], None] | None = None,
    ) -> None:
        """Wrap one game module's conversion functions.

        The ``fill_*`` hooks are optional in-place twins of ``action_to``,
        ``view_to`` and ``event_to``: each writes the same message into the
        wrapper's (empty) oneof field instead of returning it. They exist for
        speed: upb copies a whole sub-message when it is handed to a constructor
        (``GameEvent(mykerinos=...)``), which cost more than building it for
        small events. A codec that gives a hook must make it produce exactly what
        the returning function does; the returning functions stay the reference
        (and the public per-game API).
        """
        self.game_id = game_id  # type: ignore[misc]
        self._name = name
        self._action_type = action_type
        self._action_from = action_from
        self._action_to = action_to
        self._view_to = view_to
        self._view_from = view_from
        self._event_to = event_to
        self._fill_action = fill_action
        self._fill_view = fill_view
        self._fill_event = fill_event

    def action_from_proto(self, action: match_pb2.Action) -> str:
        require_game_message(action.WhichOneof("game"), self.game_id, "Action")
        return self._action_from(getattr(action, self.game_id))

    def action_to_proto(self, action: Action) -> match_pb2.Action:
        out = match_pb2.Action()
        self.write_action(out, action)
        return out

    def write_action(self, out: match_pb2.Action, action: Action) -> None:
        if not isinstance(action, self._action_type):
            raise TypeError(f"not {self._name} action value: {action!r}")
        if self._fill_action is None:
            getattr(out, self.game_id).CopyFrom(self._action_to(action))
        else:
            self._fill_into(out, self._fill_action, action)

    def view_to_proto(self, view: Mapping[str, Any]) -> match_pb2.View:
        out = match_pb2.View()
        self.write_view(out, view)
        return out

    def write_view(self, out: match_pb2.View, view: Mapping[str, Any]) -> None:
        if view.get("game") != self.game_id:
            raise ValueError(f"not {self._name} view: game {view.get('game')!r}")
        if self._fill_view is None:
            getattr(out, self.game_id).CopyFrom(self._view_to(view))
        else:
            self._fill_into(out, self._fill_view, view)

    def view_from_proto(
        self,
        view: match_pb2.View,
        *,
        viewer: int | None = None,
        options: Mapping[str, OptionValue] | None = None,
    ) -> JsonDict:
        which = view.WhichOneof("game")
        if which != self.game_id:
            raise ValueError(f"not {self._name} view: game {which!r}")
        return self._view_from(getattr(view, self.game_id), viewer=viewer, options=options)

    def event_to_proto(self, event: Event) -> match_pb2.GameEvent:
        out = match_pb2.GameEvent()
        self.write_event(out, event)
        return out

    def write_event(self, out: match_pb2.GameEvent, event: Event) -> None:
        if self._fill_event is None:
            getattr(out, self.game_id).CopyFrom(self._event_to(event))
        else:
            self._fill_into(out, self._fill_event, event)

    def _fill_into(self, wrapper: Any, fill: Callable[[Any, Any], None], value: Any) -> None:
        """Fill ``wrapper``'s oneof field of this game in place with ``fill(field, value)``.

        The field is marked present first, as the keyword form would, so the
        oneof names this game even if ``fill`` leaves every field at its default.
        """
        target = getattr(wrapper, self.game_id)
        target.SetInParent()
        fill(target, value)


def action_kind_of(kinds: Mapping[int, str], value: int, message: str) -> str:
    """The action kind a client's ``<message>.kind`` enum value names.

    Shared by the typed codecs so that a missing or unknown kind reads the same
    for every game (every enum's zero is its UNSPECIFIED value).

    Raises:
        MalformedActionError: ``value`` is zero or names no action kind.
    """
    kind = kinds.get(value)
    if kind is None:
        if value == 0:
            raise MalformedActionError(f"{message}.kind is unspecified: say what to do")
        raise MalformedActionError(f"{message}.kind {value} is not an action kind")
    return kind


def require_game_message(which: str | None, game_id: str, message: str) -> None:
    """Check the ``game`` oneof of a client message names ``game_id``.

    Shared by codecs so that the two client mistakes (nothing set, another game's
    message in this game's match) read the same for every game.

    Raises:
        MalformedActionError: ``which`` is not ``game_id``.
    """
    if which is None:
        raise MalformedActionError(
            f"{message}.game is empty: set the {game_id} field for {a_or_an(game_id)} match"
        )
    if which != game_id:
        raise MalformedActionError(
            f"{message}.game is set to {which} but this is {a_or_an(game_id)} match"
        )


#: The arm of the ``game`` oneofs that carries games without messages of their own.
GENERIC_FIELD = "generic"


def action_game(action: match_pb2.Action) -> str | None:
    """The id of the game a client's typed action was written for (``None``: nothing set).

    A game with its own messages is named by its oneof field; a generic action names
    its game in ``GenericAction.game_id``. The service uses it to pick the codec
    before it knows the match, and refuses an action of another game.

    Raises:
        MalformedActionError: a generic action without a game id.
    """
    which = action.WhichOneof("game")
    if which == GENERIC_FIELD:
        if not action.generic.game_id:
            raise MalformedActionError("Action.generic.game_id is empty: name the match's game")
        return action.generic.game_id
    return which


CODECS: PluginRegistry[GameCodec] = PluginRegistry(
    "senet.codecs", "codec", lambda codec: codec.game_id
)


def codec_for(game_id: str) -> GameCodec:
    """Return the codec of ``game_id``, found through the ``senet.codecs`` plug-in group.

    Raises:
        UnknownGameError: no codec serves that game (so the server cannot host it).
    """
    return CODECS.get(game_id)


def all_codecs() -> list[GameCodec]:
    """Every installed codec, sorted by game id."""
    return CODECS.all()
