"""Plug-ins: the one way every layer finds the games it serves.

A game is a set of parts, one per layer, each published as an entry point (the
packaging ecosystem's plug-in mechanism) in that layer's group, named by the game id:

=========================  ===========================================  ===============
group                      object                                       layer
=========================  ===========================================  ===============
``senet.games``            :class:`~senet.games.interface.Game`         rules core
``senet.codecs``           :class:`~senet.codec.base.GameCodec`         protocol codec
``senet.text_renderers``   a text renderer (:mod:`senet.text`)          text client
``senet.bot_heuristics``   heuristics (:mod:`senet.bots.heuristics`)    bots
``senet.web_boards``       a web board (:mod:`senet.web.boards`)        web client
=========================  ===========================================  ===============

Senet's own games are declared in ``pyproject.toml``; a third-party game declares
the same groups in its own distribution, and a game that only lives in a test suite
puts a ``*.dist-info/entry_points.txt`` on ``sys.path``. Nothing else registers a
game: no import side effects, no lists of game ids in code.

Each layer keeps one :class:`PluginRegistry`. It reads its group once per process
and imports a game's part only when that game is first asked for, so serving one
game never imports another, and a layer never imports a part of another layer.
This module is standard library only: every layer may import it.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, TypeVar

from senet.games.errors import UnknownGameError

T = TypeVar("T")


class PluginError(RuntimeError):
    """An installed plug-in is broken: it does not load, or it names the wrong game.

    A packaging or deployment error, never a client's: the server logs it and the
    call fails as internal.
    """


class PluginRegistry(Generic[T]):
    """The parts of one layer, by game id, found through one entry-point group.

    Args:
        group: The entry-point group (``senet.games``, ``senet.codecs``, ...).
        kind: What a part is, for error messages (``"game"``, ``"codec"``, ...).
        game_id_of: Reads the game id a loaded part says it serves; it must equal
            the entry point's name. ``None`` when parts do not carry their id.
    """

    def __init__(self, group: str, kind: str, game_id_of: Callable[[T], str] | None = None) -> None:
        self.group = group
        self.kind = kind
        self._game_id_of = game_id_of
        self._entry_points: dict[str, list[EntryPoint]] | None = None
        self._loaded: dict[str, T] = {}

    def find(self, game_id: str) -> T | None:
        """The part of ``game_id``, or ``None`` when no plug-in provides one.

        Raises:
            PluginError: the plug-in is installed but broken.
        """
        part = self._loaded.get(game_id)
        if part is None:
            found = self._declared().get(game_id)
            if found is None:
                return None
            part = self._load(game_id, found)
        return part

    def get(self, game_id: str) -> T:
        """The part of ``game_id``.

        Raises:
            UnknownGameError: no plug-in provides one (the message lists the known ids).
            PluginError: the plug-in is installed but broken.
        """
        part = self._loaded.get(game_id)  # the usual case, asked on every message
        if part is None:
            part = self.find(game_id)
        if part is None:
            known = ", ".join(self.game_ids()) or "none"
            raise UnknownGameError(f"unknown game {game_id!r} (known: {known})")
        return part

    def game_ids(self) -> list[str]:
        """The ids of every game with a part in this group, sorted (nothing is imported)."""
        return sorted(self._declared())

    def all(self) -> list[T]:
        """Every part of this group, sorted by game id (imports them all)."""
        return [self.get(game_id) for game_id in self.game_ids()]

    def _declared(self) -> dict[str, list[EntryPoint]]:
        if self._entry_points is None:
            declared: dict[str, list[EntryPoint]] = {}
            for entry_point in entry_points(group=self.group):
                declared.setdefault(entry_point.name, []).append(entry_point)
            self._entry_points = declared
        return self._entry_points

    def _load(self, game_id: str, candidates: list[EntryPoint]) -> T:
        # The same distribution can be seen twice (an editable install beside a
        # build directory); that is one plug-in as long as every copy names the
        # same object.
        targets = {entry_point.value for entry_point in candidates}
        if len(targets) > 1:
            raise PluginError(
                f"{len(targets)} different {self.kind} plug-ins claim {game_id!r} in "
                f"{self.group}: {', '.join(sorted(targets))}"
            )
        try:
            part: T = candidates[0].load()
        except Exception as error:  # any import failure of third-party code
            raise PluginError(
                f"the {self.kind} plug-in {candidates[0].value!r} of {game_id!r} does not "
                f"load: {error!r}"
            ) from error
        if self._game_id_of is not None and self._game_id_of(part) != game_id:
            raise PluginError(
                f"the {self.kind} plug-in {candidates[0].value!r} is declared as {game_id!r} "
                f"but serves {self._game_id_of(part)!r}"
            )
        self._loaded[game_id] = part
        return part
