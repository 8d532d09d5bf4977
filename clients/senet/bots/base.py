"""What every bot brain offers, and how a bot gets a forward model it may search.

A :class:`Strategy` picks one action for one seat in one position. Bots are honest
players: they may look at anything their seat's view shows and nothing else. The
position they are handed may be the server's real state (local arenas) or one rebuilt
from a view (remote bots, see :func:`state_from_proto_view`); either way a strategy
starts from :func:`information_set_root`, which rebuilds the position from the seat's
view alone, and only ever looks ahead on ``determinize(seat, ...)`` copies of it. So
the hidden part of the state it was given (the deck order, the generator) cannot
influence its choice, not even through the seed of a resampling: two states that
look the same to the seat get the same answer from a strategy with the same seed.

All randomness comes from a :class:`~senet.games.rng.Rng` seeded at construction,
so a strategy replays exactly: same seed, same positions, same choices (time
budgets excepted, since the clock decides how far a search gets).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import ClassVar, Protocol

from senet.codec import codec_for
from senet.games import Action, GameState, Rng, get_game
from senet.games.bots import BUILT_IN, STRATEGY_GROUP
from senet.games.interface import OptionValue
from senet.v1 import match_pb2


class Strategy(ABC):
    """A bot brain: chooses an action for the seat to move.

    Args:
        seed: Seeds the strategy's own generator; the only source of randomness.
    """

    #: Registry name (``make_strategy(name)``).
    name: ClassVar[str]

    def __init__(self, *, seed: int) -> None:
        self.seed = seed
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, state: GameState, seat: int) -> Action:
        """Return a legal action of ``seat``, which must be the seat to move.

        ``state`` is read only through what ``seat`` may see (its view, and the
        legal actions, which a seat always knows); it is never modified.

        Raises:
            ValueError: ``seat`` is not the seat that must decide now.
        """


def check_turn(state: GameState, seat: int) -> None:
    """Refuse to think for a seat that is not to move (a caller bug, not a game rule).

    A seat is to move when it is one of the seats deciding now: where several decide
    at once, each may be asked, whichever is ``current_seat()``.

    Raises:
        ValueError: ``seat`` is not among ``state.deciding_seats()``.
    """
    deciding = state.deciding_seats()
    if seat not in deciding:
        who = "nobody (the match is over)" if not deciding else f"seat {deciding[0]}"
        raise ValueError(f"asked to choose for seat {seat}, but {who} must decide now")


def information_set_root(state: GameState, seat: int, seed: int) -> GameState:
    """A state consistent with ``seat``'s view, its hidden parts sampled from ``seed``.

    Built from the view alone (``Game.state_from_view``), so it is a function of
    what the seat sees and of ``seed``, never of the hidden parts of ``state``.
    ``state.determinize(seat, seed)`` would not do: it shuffles the real hidden
    part, so for a fixed seed its output still depends on it.
    """
    return state.game.state_from_view(state.view(seat), seed)


def state_from_proto_view(
    game_id: str,
    view: match_pb2.View,
    *,
    seat: int,
    seed: int,
    options: Mapping[str, OptionValue] | None = None,
) -> GameState:
    """The forward model of a remote bot: a full state rebuilt from the server's view.

    Args:
        game_id: ``MatchSummary.game_id``.
        view: The ``View`` of ``seat`` (``GetMatch``, ``Play`` or ``Watch``).
        seat: The bot's seat.
        seed: Samples what the view hides.
        options: ``MatchSummary.options``, decoded (``options_from_proto``);
            ``None`` for a match created with the game's defaults.
    """
    decoded = codec_for(game_id).view_from_proto(view, viewer=seat, options=options)
    return get_game(game_id).state_from_view(decoded, seed)


# ------------------------------------------------------------------ registry
class StrategyFactory(Protocol):
    """What a published strategy is: called with the seed and budgets (names: a-z and _)."""

    def __call__(self, *, seed: int, iterations: int | None, seconds: float | None) -> Strategy: ...


#: Strategies other distributions publish (a trained policy, say), one entry point per
#: strategy name, each a :class:`StrategyFactory`. Read once, at import, so that the
#: names are known before any is loaded; a factory is imported when first used.
BUILT_IN_STRATEGIES: tuple[str, ...] = BUILT_IN
_PUBLISHED = {
    point.name: point
    for point in entry_points(group=STRATEGY_GROUP)
    if point.name not in BUILT_IN_STRATEGIES
}
STRATEGY_NAMES: tuple[str, ...] = (*BUILT_IN_STRATEGIES, *sorted(_PUBLISHED))


class UnknownStrategy(ValueError):
    """No strategy of that name is built in or published where this code runs."""


def make_strategy(
    name: str,
    *,
    seed: int,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Strategy:
    """Build the strategy registered as ``name`` (``random``, ``greedy``, ``mcts``, or one
    published in the ``senet.bot_strategies`` group).

    Budgets only mean something to searching strategies (``mcts``); the others
    accept and ignore them so that an arena can hand every seat the same settings.
    ``mcts`` without a budget searches a default number of iterations.

    Raises:
        UnknownStrategy: no strategy of that name (a ValueError).
        ValueError: a budget that is not positive.
    """
    # Imported here: the strategy modules import this one.
    from senet.bots.greedy import GreedyStrategy
    from senet.bots.mcts import MctsStrategy
    from senet.bots.random_bot import RandomStrategy

    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, got {iterations}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    if name == RandomStrategy.name:
        return RandomStrategy(seed=seed)
    if name == GreedyStrategy.name:
        return GreedyStrategy(seed=seed)
    if name == MctsStrategy.name:
        return MctsStrategy(seed=seed, iterations=iterations, seconds=seconds)
    if name in _PUBLISHED:
        factory: StrategyFactory = _PUBLISHED[name].load()
        return factory(seed=seed, iterations=iterations, seconds=seconds)
    raise UnknownStrategy(f"unknown strategy {name!r} (known: {', '.join(STRATEGY_NAMES)})")


#: ``name``, ``name@<seconds>s``, ``name@<iterations>i`` or ``name:<iterations>``.
_SPEC = re.compile(
    r"^(?P<name>[a-z_]+)(?:@(?P<amount>\d+(?:\.\d+)?)(?P<unit>[si])|:(?P<count>\d+))?$"
)
SPEC_FORMS = "NAME, NAME@0.2s (seconds a move), NAME@500i or NAME:500 (iterations)"


@dataclass(frozen=True)
class StrategySpec:
    """A strategy as people write it: a name with an optional search budget, the
    same in every command and environment (``mcts``, ``mcts@0.2s``, ``mcts@500i``,
    ``mcts:500``). A budget only changes searching strategies (:func:`make_strategy`).
    """

    strategy: str
    seconds: float | None = None
    iterations: int | None = None

    @classmethod
    def parse(
        cls, text: str, *, seconds: float | None = None, iterations: int | None = None
    ) -> StrategySpec:
        """Parse one spec; ``seconds`` and ``iterations`` apply when it names no budget.

        Raises:
            UnknownStrategy: no strategy of that name here.
            ValueError: a malformed spec or a budget that is not positive.
        """
        text = text.strip()
        found = _SPEC.match(text)
        if found is None:
            raise ValueError(f"bad strategy {text!r}: expected {SPEC_FORMS}")
        name = found["name"]
        if name not in STRATEGY_NAMES:
            raise UnknownStrategy(f"unknown strategy {name!r} (known: {', '.join(STRATEGY_NAMES)})")
        if found["count"] is not None:
            seconds, iterations = None, int(found["count"])
        elif found["unit"] == "s":
            seconds, iterations = float(found["amount"]), None
        elif found["unit"] == "i":
            if "." in found["amount"]:
                raise ValueError(f"bad strategy {text!r}: iterations must be a whole number")
            seconds, iterations = None, int(found["amount"])
        if seconds is not None and not seconds > 0:
            raise ValueError(f"bad strategy {text!r}: seconds must be positive")
        if iterations is not None and iterations < 1:
            raise ValueError(f"bad strategy {text!r}: iterations must be at least 1")
        return cls(name, seconds, iterations)

    def make(self, seed: int) -> Strategy:
        """The strategy, seeded, at this budget."""
        return make_strategy(
            self.strategy, seed=seed, seconds=self.seconds, iterations=self.iterations
        )
