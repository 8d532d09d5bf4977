"""A null core for the learning environment: the floor of any step through its API.

:func:`null_environment` is a game's own :class:`~senet.rl.pettingzoo.SenetEnv` (its
action space, its encoder, its seat count) whose rules core is swapped for a
:class:`NullGame`: a trivial match with no rules. Its state is a move counter; the
seats decide in turn; the legal actions are always the same few actions of the
space, as many as a typical step of the game has; the observation is a view of the
game's first position, the same at every step, so the tensor writer finds nothing
changed and the environment copies the same tensor, as it copies the real one. A
match lasts as many steps as a typical episode of the game, so resets cost their
share as well.

Everything else is the environment's own code, unchanged (``agent_iter``, ``last``
with its mask and tensor, ``step``, PettingZoo's bookkeeping), so the null
environment's steps per second is the most that API, numpy and the adapter's fixed
costs allow at that game's sizes, whatever the game and however cheap its core. The
benchmark prints it beside the real figures (:mod:`tests.bench.rl`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from senet.games import Action, Game, GameState, Rng
from senet.games.errors import MalformedActionError
from senet.games.fields import SCALAR, SHARED, StateFields
from senet.games.interface import Event, GameInfo, JsonDict
from senet.rl.pettingzoo import SenetEnv, env
from tests.bench.rules import CHOOSER_SALT

#: Random matches of the real game that calibrate its null twin.
CALIBRATION_MATCHES = 4


@dataclass(frozen=True)
class Calibration:
    """What a null match copies of a real game's random matches.

    Attributes:
        legal: Legal actions per decision, rounded (the mask's ones in a typical step).
        length: Decisions per match, rounded (a typical episode's steps).
    """

    legal: int
    length: int


def random_decisions(
    game: Game, seats: int, options: Mapping[str, Any], matches: int
) -> Iterator[tuple[GameState, int, list[Action]]]:
    """Each decision of random matches of ``game`` (seeds 1, 2, ... with the
    benchmark's chooser, as its workloads play): the state, the deciding seat and its
    legal actions, before the chosen one is applied."""
    for seed in range(1, matches + 1):
        state = game.new_match(seats, options, seed=seed)
        chooser = Rng(seed ^ CHOOSER_SALT)
        while not state.is_over():
            seat = state.deciding_seats()[0]
            legal = state.legal_actions_for(seat)
            yield state, seat, legal
            state.apply_unchecked(legal[chooser.below(len(legal))], seat)


def spread(count: int, size: int) -> list[int]:
    """``count`` indexes spread evenly over ``range(size)``, as a real step's legal
    actions are over the action space."""
    return [i * size // count for i in range(count)]


def calibrate(game: Game, seats: int, options: Mapping[str, Any]) -> Calibration:
    """The mean legal actions per decision and decisions per match of random matches
    of ``game`` (:func:`random_decisions`)."""
    choices = decisions = 0
    for _, _, legal in random_decisions(game, seats, options, CALIBRATION_MATCHES):
        choices += len(legal)
        decisions += 1
    return Calibration(
        legal=max(1, round(choices / decisions)),
        length=max(1, round(decisions / CALIBRATION_MATCHES)),
    )


#: A null match's one field, and what it shares with its game (clone, snapshots and
#: change reports are built from the declaration).
FIELDS: StateFields[NullState] = StateFields(
    "null", saved=SCALAR("moves"), derived=SHARED("length", "legal", "views")
)


class NullState(GameState):
    """A match with no rules: ``moves`` counts the actions played.

    Seat ``moves % seats`` decides, among the game's constant legal actions, until
    ``length`` actions are played; every seat's view is the one the game gave it."""

    state_fields = FIELDS
    #: The counter feeds no part of the view, so no feature is ever written again.
    view_sources = {("moves",): ("moves",)}

    def __init__(self, game: NullGame, seats: int, options: JsonDict) -> None:
        self.game = game
        self.seat_count = seats
        self.options = options
        self.moves = 0
        self.length = game.length
        self.legal = game.legal
        self.views = game.views

    def current_seat(self) -> int | None:
        return None if self.moves >= self.length else self.moves % self.seat_count

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over() else self.legal

    def describe(self, action: Action) -> str:
        return action.notation()

    def explain_illegal(self, action: Action) -> str:
        return "a null match has no rules"

    def scores(self) -> list[int]:
        return [0] * self.seat_count

    def ranking(self) -> list[int]:
        return [1] * self.seat_count

    def view(self, seat: int | None) -> JsonDict:
        return self.views[seat]

    def determinize(self, seat: int | None, seed: int) -> NullState:
        return self.clone()

    def coerce_action(self, action: object) -> Action:
        raise MalformedActionError(f"a null match reads no action: {action!r}")

    def _apply(self, action: Action, events: list[Event] | None) -> None:
        self.moves += 1


class NullGame(Game):
    """The null twin of a game: its legal actions and views, fixed, and no rules.

    Args:
        legal: The actions every decision offers (actions of the game's space).
        views: Each seat's view (and the spectator's, at ``None``), shown at every step.
        length: Actions per match.
    """

    info = GameInfo(
        id="null",
        name="Null",
        min_seats=1,
        max_seats=6,
        description="No rules: the floor of a learning environment's step",
    )
    state_class = NullState

    def __init__(
        self, legal: list[Action], views: Mapping[int | None, JsonDict], length: int
    ) -> None:
        self.legal = legal
        self.views = views
        self.length = length

    def new_match(
        self, seats: int, options: Mapping[str, object] | None = None, seed: int = 0
    ) -> GameState:
        """A null match; the options are the real game's, normalized by the environment."""
        return self._new_state(seats, dict(options or {}), seed)

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> NullState:
        return NullState(self, seats, options)

    def parse_action(self, text: str) -> Action:
        raise MalformedActionError(f"a null match reads no action: {text!r}")


def null_environment(game_id: str, seats: int) -> tuple[SenetEnv, Calibration]:
    """The environment of ``game_id`` at ``seats`` over the game's null twin, and the
    calibration it copies."""
    environment = env(game_id, seats)
    real = environment.game
    calibration = calibrate(real, seats, environment.options)
    first = real.new_match(seats, environment.options, seed=1)
    views: dict[int | None, JsonDict] = {s: first.view(s) for s in range(seats)}
    views[None] = first.view(None)
    space = environment.space.actions
    legal = [space[i] for i in spread(calibration.legal, len(space))]
    environment.game = NullGame(legal, views, calibration.length)
    # On the view's path: a game's direct writer reads its own state's fields.
    environment.rebuild_writers(direct=False)
    return environment, calibration
