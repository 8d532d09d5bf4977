"""The small interface every game implements.

A *game* (:class:`Game`) is a stateless descriptor registered by id: its static facts
(name, seat counts, options), how to start a match, how to parse action notation and
how to rebuild a state from plain data. A *state* (:class:`GameState`) is one position
of one match: who decides now, what they may do, and how each action changes it.

Conventions shared by every game, relied upon by the server, the bots and the
conformance tests:

* ``legal_actions()`` is the single source of truth. Checked :meth:`GameState.apply`
  validates by membership in it; bots enumerate it; clients show its labels.
* Every action has a compact, stable text notation (``notation()``) that
  :meth:`Game.parse_action` turns back into an equal action.
* All randomness comes from the :class:`~senet.games.rng.Rng` held in the state,
  so a match replays exactly from its seed and its actions.
* :meth:`GameState.view` returns only what one seat (or a spectator) may see.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Self

from senet.games.errors import (
    CorruptStateError,
    GameOverError,
    IllegalActionError,
    InvalidOptionsError,
    MalformedActionError,
    NotYourTurnError,
    UnknownActionError,
)

if TYPE_CHECKING:
    from senet.games.fields import StateFields

JsonDict = dict[str, Any]
OptionValue = bool | int | str


class Action(Hashable, Protocol):
    """What every action value offers: a hashable value with a text notation.

    Games use small immutable values (named tuples) so that legal-action lists
    are cheap to build and membership checks are hash lookups.
    """

    def notation(self) -> str:
        """Return the compact, stable text form that :meth:`Game.parse_action` reads."""


@dataclass(frozen=True)
class Event:
    """Something that happened, for logs, streams and clients.

    Attributes:
        kind: Stable snake_case name, e.g. ``"placed"`` or ``"area_scored"``.
        data: Plain JSON-able details.
        audience: Seats allowed to see this event; ``None`` means everyone,
            spectators included. Games with hidden information emit a public
            event plus a private one for the seat that may know more.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may receive this event."""
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_data(self) -> JsonDict:
        """Return the event as plain data."""
        out: JsonDict = {"kind": self.kind, "data": dict(self.data)}
        if self.audience is not None:
            out["audience"] = sorted(self.audience)
        return out


@dataclass(frozen=True)
class OptionSpec:
    """One match option a game accepts, with its type, default and meaning.

    ``variant`` marks a boolean option that switches on a rules variant (an
    expansion or another way to play, as opposed to a set-up choice): clients list
    those as the game's variants, and the conformance suite plays each of them.
    """

    name: str
    kind: Literal["bool", "int", "choice"]
    default: OptionValue
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    variant: bool = False

    def coerce(self, value: object) -> OptionValue:
        """Check ``value`` against this spec and return it normalized.

        Raises:
            InvalidOptionsError: the value has the wrong type or is out of range.
        """
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                return value.lower() in ("true", "1", "yes")
            raise InvalidOptionsError(f"option {self.name!r} takes true or false, got {value!r}")
        if self.kind == "int":
            try:
                number = int(str(value)) if not isinstance(value, bool) else None
            except ValueError:
                number = None
            if number is None:
                raise InvalidOptionsError(f"option {self.name!r} takes an integer, got {value!r}")
            if self.minimum is not None and number < self.minimum:
                raise InvalidOptionsError(f"option {self.name!r} must be >= {self.minimum}")
            if self.maximum is not None and number > self.maximum:
                raise InvalidOptionsError(f"option {self.name!r} must be <= {self.maximum}")
            return number
        text = str(value).lower()
        if text not in self.choices:
            raise InvalidOptionsError(
                f"option {self.name!r} takes one of {', '.join(self.choices)}; got {value!r}"
            )
        return text


#: Match options as name and value pairs: a hashable, immutable declaration.
OptionPairs = tuple[tuple[str, OptionValue], ...]


@dataclass(frozen=True)
class SampleMatch:
    """One seeded match worth keeping as a readable record of play.

    The test suite plays it with actions drawn from ``Rng(seed)`` and pins the text
    (``tests/playthroughs/``), so a change of play shows up as a reviewed diff.
    """

    seats: int
    options: OptionPairs = ()
    seed: int = 1


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, declared once.

    Beside what players are shown (name, seats, options), a game declares the facts
    that shared test suites and tools read instead of keeping tables keyed by game
    id. Their defaults suit a new game: it declares none of them until it needs to.
    """

    id: str
    name: str
    min_seats: int
    max_seats: int
    description: str
    options: tuple[OptionSpec, ...] = ()
    #: Options that keep a random match short (a turn limit), for the conformance
    #: and end-to-end suites that play many whole matches; empty when a default
    #: match is short already.
    short_match_options: OptionPairs = ()
    #: Options under which every match ends in a bounded number of turns (a turn
    #: limit), for the callers that need whole matches to end however they are
    #: played: the arena, the benchmarks, the learning environments. Empty when every
    #: default match ends by itself. The caller's own options win over these.
    bounded_match_options: OptionPairs = ()
    #: Whether the seats deciding decide with public facts only (no hidden hand), so
    #: that any seat's or a spectator's view tells their legal actions. The safe
    #: default is ``False``: checks that rely on it are skipped.
    public_choices: bool = False
    #: Seeded matches recorded as playthroughs; when empty, the test suite records
    #: one per variant, at the least seat count, with :attr:`short_match_options`.
    sample_matches: tuple[SampleMatch, ...] = ()
    #: The version of the game's rules as this core plays them. It goes up whenever
    #: the same seed and actions would play differently: another deal, another set
    #: of legal actions, another effect. Each match records the version it was
    #: dealt under and each action the version that applied it, so that a checker
    #: replays a finished match only with the rules it was played under, and a
    #: replica never serves a match its older rules would misplay. The
    #: playthroughs (``tests/playthroughs``) are recorded under it: regenerating
    #: one whose actions or legal counts changed asks for a new version.
    rules_version: int = 1

    def option(self, name: str) -> OptionSpec:
        """Return the spec of option ``name``.

        Raises:
            InvalidOptionsError: no option of that name exists.
        """
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(s.name for s in self.options) or "none"
        raise InvalidOptionsError(f"unknown option {name!r} for {self.id} (known: {known})")


class Game(ABC):
    """A registered game: static facts plus factories. Stateless and shareable."""

    info: ClassVar[GameInfo]
    #: The class of this game's positions: :meth:`state_from_view` and
    #: :meth:`state_from_data` rebuild one through its ``from_view`` / ``from_data``.
    state_class: ClassVar[type[GameState]]

    def normalize_options(self, seats: int, options: Mapping[str, object] | None) -> JsonDict:
        """Validate seat count and options; return every option with defaults filled in.

        Raises:
            InvalidOptionsError: unknown option, bad value, bad seat count or a
                combination the rules do not allow.
        """
        info = self.info
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise InvalidOptionsError(f"seat count must be an integer, got {seats!r}")
        if not info.min_seats <= seats <= info.max_seats:
            raise InvalidOptionsError(
                f"{info.name} is played by {info.min_seats} to {info.max_seats} players, "
                f"not {seats}"
            )
        given = dict(options or {})
        normalized: JsonDict = {}
        for name, value in given.items():
            normalized[name] = info.option(name).coerce(value)
        for spec in info.options:
            normalized.setdefault(spec.name, spec.default)
        self.check_option_combination(seats, normalized)
        return normalized

    def check_option_combination(self, seats: int, options: Mapping[str, OptionValue]) -> None:
        """Hook: raise :class:`InvalidOptionsError` for combinations the rules forbid."""
        return None

    def new_match(
        self, seats: int, options: Mapping[str, object] | None = None, seed: int = 0
    ) -> GameState:
        """Start a match: validate options, then build the initial state from ``seed``."""
        normalized = self.normalize_options(seats, options)
        return self._new_state(seats, normalized, seed)

    def public_notation(self, notation: str) -> str:
        """What every seat but the actor's (and spectators) may see of an action's notation.

        The server broadcasts each committed action's notation with its events. Most
        actions are public, so the default is the notation itself; a game whose
        notation can name something secret (a card kept in a hidden hand) returns a
        redacted form here, and its events carry the rest with an audience.
        """
        return notation

    @abstractmethod
    def _new_state(self, seats: int, options: JsonDict, seed: int) -> GameState:
        """Build the initial state; options are already validated."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse action notation into an action value (syntax only, not legality).

        Raises:
            MalformedActionError: the text is not valid notation for this game.
        """

    def state_from_view(self, view: Mapping[str, Any], seed: int) -> GameState:
        """A full state consistent with ``view`` (one seat's or a spectator's).

        What the view hides is sampled from ``seed``. Bots that only receive views
        from the server use this to get a forward model for search.

        Raises:
            CorruptStateError: the view does not describe a position of this game.
        """
        return self.state_class.from_view(self, self._own(view, "view"), seed)

    def state_from_data(self, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from :meth:`GameState.to_data` output.

        Raises:
            CorruptStateError: the data does not describe a state of this game.
        """
        return self.state_class.from_data(self, self._own(data, "state"))

    def _own(self, document: object, what: str) -> Mapping[str, Any]:
        """``document``, checked to be a mapping that names this game."""
        if not isinstance(document, Mapping) or document.get("game") != self.info.id:
            raise CorruptStateError(f"this is not a {what} of {self.info.name}")
        return document


class GameState(ABC):
    """One position of one match.

    Subclasses implement the ``_``-prefixed hooks and the abstract queries; the
    checked entry points (:meth:`apply`) live here so that every game validates the
    same way: game over, then turn, then action type, then membership.
    """

    game: Game
    seat_count: int
    options: JsonDict
    #: Every attribute of this class, declared once (:mod:`senet.games.fields`), when
    #: its clone and snapshots are built from a declaration; ``None`` for a state that
    #: keeps the deep-copying :meth:`clone` and writes :meth:`to_data` by hand.
    state_fields: ClassVar[StateFields[Any] | None] = None
    #: What each part of :meth:`view` is built from, when the game declares it: for
    #: each path of one or two keys into the view (``("players",)``, ``("state",
    #: "legions")``), the state fields it reads (the viewer and the seat count aside,
    #: which never change for a seat). A part whose fields did not change since a
    #: caller's mark is equal to the part it saw then (the conformance tests check
    #: it on random matches), so an observer rebuilds only the parts under
    #: :meth:`changed_view_parts` (:meth:`view_parts` builds just those). Every key
    #: of a view is covered by some path; a two-key path under a per-seat table (a
    #: list of dicts such as ``players``) names that key of every seat's entry.
    #: ``None``: the game declares nothing, and every part may change on any move.
    view_sources: ClassVar[Mapping[tuple[str, ...], tuple[str, ...]] | None] = None
    #: For each state field, the view paths built from it (the inverse of
    #: :attr:`view_sources`, made once per class).
    _view_parts_of: ClassVar[Mapping[str, tuple[tuple[str, ...], ...]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = cls.__dict__.get("state_fields")
        if fields is not None:
            # The functions built from the declaration become the methods themselves
            # (unless the class writes its own): no wrapper frame on the paths that run
            # per action (clone in search, snapshot_data in every commit).
            for name in ("clone", "to_data", "snapshot_data", "changed_fields"):
                if name not in cls.__dict__:
                    setattr(cls, name, getattr(fields, name))
        sources = cls.__dict__.get("view_sources")
        if sources is not None:
            reported = cls.state_fields.reported if cls.state_fields is not None else frozenset()
            unknown = sorted({n for names in sources.values() for n in names} - reported)
            if unknown:
                raise TypeError(
                    f"{cls.__name__}.view_sources names what changed_fields never reports "
                    f"(the generator, shared or undeclared fields): {', '.join(unknown)}"
                )
            parts_of: dict[str, list[tuple[str, ...]]] = {}
            for path, names in sources.items():
                for name in names:
                    parts_of.setdefault(name, []).append(path)
            cls._view_parts_of = {name: tuple(paths) for name, paths in parts_of.items()}

    # --- queries --------------------------------------------------------------
    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat that must decide now, or ``None`` when the game is over."""

    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self.current_seat() is None

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat that must decide now (empty when over)."""

    def deciding_seats(self) -> tuple[int, ...]:
        """The seats that decide now, in seat order (empty when the game is over).

        Most positions wait for one seat: the default is :meth:`current_seat` alone.
        A game whose seats choose at the same time (hidden offers, revealed
        together) names them all here and overrides :meth:`legal_actions_for` and
        :meth:`_apply_for`. :meth:`current_seat` is then the first of them (the
        lowest-numbered), so a caller that asks one seat at a time still makes
        progress, and the seats' submissions commute: any order of them ends in the
        same state.
        """
        seat = self.current_seat()
        return () if seat is None else (seat,)

    def legal_actions_for(self, seat: int) -> list[Action]:
        """Legal actions of ``seat``: empty unless that seat must decide now."""
        return self.legal_actions() if self.current_seat() == seat else []

    @abstractmethod
    def describe(self, action: Action) -> str:
        """A short human label for ``action`` in this position."""

    @abstractmethod
    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal for the seat to move (a sentence for people)."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (final scores once the game is over)."""

    @abstractmethod
    def ranking(self) -> list[int]:
        """Each seat's place (1 = winner; tied seats share a place), by the game's tie rules."""

    def sides(self) -> list[tuple[int, ...]]:
        """Per seat, the seats that win or lose with it: itself first, then its teammates.

        Every seat plays alone unless the game has teams (Mykerinos team game). Bots
        read it so that a teammate is never counted among the rivals to beat.
        """
        return [(seat,) for seat in range(self.seat_count)]

    @abstractmethod
    def view(self, seat: int | None) -> JsonDict:
        """Everything ``seat`` may see (``None``: a spectator), as plain data."""

    def view_parts(self, seat: int | None, parts: Iterable[tuple[str, ...]]) -> JsonDict:
        """The parts of ``seat``'s view named by ``parts`` (paths of :attr:`view_sources`),
        each equal to the same part of :meth:`view`; other parts may be left out.

        An observer that follows a seat's view move by move asks only for what changed
        (:meth:`changed_view_parts`), and a part costs as much to build as a move to
        play. A two-key path under a per-seat table gives every entry with only the
        keys asked. This default builds the whole view; a game that declares
        :attr:`view_sources` builds only the parts asked, from the same builders as
        its :meth:`view`.
        """
        return self.view(seat)

    def to_data(self) -> JsonDict:
        """The complete state, hidden parts included, as plain JSON-able data.

        Built from :attr:`state_fields` when the class declares them; a class without
        a declaration writes its own.
        """
        raise NotImplementedError(f"{type(self).__name__} declares no state_fields")

    @classmethod
    def from_data(cls, game: Game, data: Mapping[str, Any]) -> Self:
        """Rebuild a state from :meth:`to_data` output, checking every field.

        Raises:
            CorruptStateError: a field is missing, mistyped, out of range or
                inconsistent with the others.
        """
        raise NotImplementedError(f"{cls.__name__} cannot be rebuilt from data")

    @classmethod
    def from_view(cls, game: Game, view: Mapping[str, Any], seed: int) -> Self:
        """A state whose view equals ``view``; what it hides is sampled from ``seed``.

        Raises:
            CorruptStateError: the view is not one this game could have shown.
        """
        raise NotImplementedError(f"{cls.__name__} cannot be rebuilt from a view")

    def snapshot_data(self) -> JsonDict:
        """:meth:`to_data` for encoding at once: it may share lists and tables with
        this state instead of copying them, so encode it before the state changes.

        Its JSON equals :meth:`to_data`'s. The service encodes one per commit, on
        the path every action waits for, where the copies are the dearest part.
        """
        return self.to_data()

    @abstractmethod
    def determinize(self, seat: int | None, seed: int) -> GameState:
        """A copy whose hidden parts are resampled consistently with ``seat``'s view.

        Bots use it for information-set search: the copy's :meth:`view` for
        ``seat`` equals this state's, but nothing ``seat`` cannot see is preserved.
        """

    # --- transitions -----------------------------------------------------------
    @abstractmethod
    def coerce_action(self, action: object) -> Action:
        """Return ``action`` as this game's action type (parsing text if given).

        Raises:
            MalformedActionError: it is neither notation nor an action of this game.
        """

    def read_action(
        self, seat: int, action: object, legal: Sequence[Action] | None = None
    ) -> Action:
        """:meth:`coerce_action` for ``seat``, whose error for an unknown word lists
        the words of ``seat``'s actions legal now (``legal`` when the caller has
        them for the seat to move), not every word of every rules variant.

        Raises:
            MalformedActionError: as :meth:`coerce_action`.
        """
        try:
            return self.coerce_action(action)
        except UnknownActionError as exc:
            if legal is None or seat != self.current_seat():
                legal = self.legal_actions_for(seat)
            words = sorted({a.notation().split()[0] for a in legal})
            hint = f"actions now: {', '.join(words)}" if words else "you have no action to play now"
            raise UnknownActionError(exc.word, hint) from None

    @abstractmethod
    def _apply(self, action: Action, events: list[Event] | None) -> None:
        """Apply a legal action in place, appending events when ``events`` is a list."""

    def apply(
        self, seat: int, action: object, legal: Sequence[Action] | None = None
    ) -> list[Event]:
        """Check and apply ``action`` for ``seat``; return what happened.

        The state is unchanged when this raises. ``legal`` may pass this very
        state's :meth:`legal_actions` when the caller already has them (the
        service works them out while the previous action's commit is in
        flight); the check is then the same, without building the list again.

        Raises:
            GameOverError: the match has ended.
            NotYourTurnError: another seat must decide now.
            MalformedActionError: the action cannot be parsed.
            IllegalActionError: the action is not legal now (message says why).
        """
        current = self.current_seat()
        if current is None:
            raise GameOverError("the match is over")
        if seat != current:
            # Only states where several seats decide at once accept another seat.
            deciding = self.deciding_seats()
            if seat not in deciding:
                waiting = ", ".join(str(s) for s in deciding)
                raise NotYourTurnError(
                    f"seat {seat} cannot act: seat {waiting} must decide now",
                    {"seatToAct": current},
                )
            legal = self.legal_actions_for(seat)
        parsed = self.read_action(seat, action, legal)
        # A list scan: equal actions compare equal field by field, and building a
        # set would hash every legal action (several times slower on this hot path).
        if parsed not in (self.legal_actions() if legal is None else legal):
            raise IllegalActionError(
                f"{parsed.notation()!r} is not legal: {self.explain_illegal(parsed)}"
            )
        events: list[Event] = []
        if seat == current:
            self._apply(parsed, events)
        else:
            self._apply_for(seat, parsed, events)
        return events

    def _apply_for(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """Apply a legal action of ``seat``, one of several :meth:`deciding_seats`
        that is not :meth:`current_seat` (only such games override it)."""
        raise NotYourTurnError(f"seat {seat} cannot act: only one seat decides at a time")

    def apply_unchecked(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` without any check (search, replay), for the seat to move
        or for ``seat`` when several seats decide at once.

        The caller guarantees legality; an illegal action corrupts the state.
        """
        if seat is None or seat == self.current_seat():
            self._apply(action, None)
        else:
            self._apply_for(seat, action, None)

    def changed_fields(self, mark: dict[str, Any]) -> list[str]:
        """The state fields whose value differs from the copy in ``mark``, which is
        updated to hold the current values: what changed since the caller last asked.

        ``mark`` belongs to the caller (an empty dict the first time: every field is
        new); it may follow one state or several (a search's successive afterstates),
        as it compares values, not versions. Built from :attr:`state_fields` (the
        generator left out: no view shows it).

        Raises:
            NotImplementedError: the class declares no fields.
        """
        raise NotImplementedError(f"{type(self).__name__} declares no state_fields")

    def changed_view_parts(self, mark: dict[str, Any]) -> set[tuple[str, ...]] | None:
        """The paths of :attr:`view_sources` whose fields changed since ``mark`` (see
        :meth:`changed_fields`, which this updates): every other part of any seat's
        view is as it was then. ``None`` when the game declares no view sources."""
        if self.view_sources is None:
            return None
        parts_of = self._view_parts_of
        changed: set[tuple[str, ...]] = set()
        for name in self.changed_fields(mark):
            changed.update(parts_of.get(name, ()))
        return changed

    def clone(self) -> Self:
        """An independent copy, cheap enough for search (built from :attr:`state_fields`
        when the class declares them)."""
        return copy.deepcopy(self)

    def replay(self, actions: Sequence[object]) -> list[Event]:
        """Apply a sequence of actions (text or values), each checked, for whoever must move."""
        events: list[Event] = []
        for action in actions:
            seat = self.current_seat()
            if seat is None:
                raise GameOverError("the match ended before the log did")
            events.extend(self.apply(seat, action))
        return events


def coerce_text_or(
    game: Game, action: object, action_type: type[Action] | tuple[type, ...]
) -> Action:
    """Shared :meth:`GameState.coerce_action` body: accept notation or an action value."""
    if isinstance(action, str):
        return game.parse_action(action)
    if isinstance(action, action_type):
        return action  # type: ignore[return-value]
    raise MalformedActionError(f"not an action of {game.info.id}: {action!r}")
