"""An afterstate policy: it scores each legal action by the seat's observation right
after it with a small network, and learns its weights in plain numpy.

For each legal action the policy applies it to a state rebuilt from the seat's view
(hidden parts sampled, as the bots' forward model does, so nothing hidden is read),
encodes the seat's view of the result with the game's observation encoder, and
scores the tensor (:class:`AfterstatePolicy`); a softmax over the legal actions gives
the probabilities. So it learns what the position after a move is worth: far fewer
numbers than a weight per action, and what it learns about one action carries over
to all that lead to alike positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from senet.bots.base import information_set_root
from senet.games import Action, GameState
from senet.rl.encoding import observation_encoder

Array = npt.NDArray[np.float64]


def afterstates(state: GameState, seat: int, legal: Sequence[Action], seed: int) -> Array:
    """One row per legal action: the seat's observation after it, from a sample of its
    information set (``seed``)."""
    root = information_set_root(state, seat, seed)
    writer = observation_encoder(state.game.info.id, state.seat_count, state.options).writer()
    rows = np.empty((len(legal), writer.encoder.size))
    for i, action in enumerate(legal):
        after = root.clone()
        after.apply_unchecked(action, seat)
        out = writer.encode(after, seat)
        if i == 0:
            rows[0] = out
            continue
        rows[i] = rows[i - 1]  # alike positions: only what changed since the last row
        for at, size in writer.changed:
            rows[i, at : at + size] = out[at : at + size]
    return rows


def softmax(logits: Array) -> Array:
    """Probabilities from logits (shifted so that the largest is 0)."""
    weights: Array = np.exp(logits - logits.max())
    weights /= weights.sum()
    return weights


#: Hidden units of the policy's network unless told: enough to combine features (a
#: majority needs the counts of several seats at once), small enough to train on a CPU.
HIDDEN = 32


@dataclass
class AfterstatePolicy:
    """A small network that scores afterstates, and the game and encoding version it
    was learnt on.

    ``score(x) = weights . x + out . tanh(hidden @ x + bias)``: a linear term (one
    weight per observation feature) plus one hidden layer of ``tanh`` units. The
    linear term alone cannot weigh a feature by another (whether a cube wins an area
    depends on the rivals' cubes there); the hidden units can, and the linear term
    keeps what a linear policy learns quickly.

    Attributes:
        weights: One per observation feature (the linear term).
        game_id: The game.
        version: The encoding's version (its observation layout).
        hidden: ``(units, features)``: the hidden layer's weights (no units: linear).
        bias: One per hidden unit.
        out: One per hidden unit: how each adds to the score.
    """

    weights: Array
    game_id: str
    version: int
    hidden: Array = field(default_factory=lambda: np.zeros((0, 0)))
    bias: Array = field(default_factory=lambda: np.zeros(0))
    out: Array = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def initial(
        cls, size: int, game_id: str, version: int, units: int = HIDDEN, seed: int = 0
    ) -> AfterstatePolicy:
        """A policy that scores every afterstate 0, its hidden weights small and random
        (``out`` starts at 0, so the units learn from the first update on)."""
        rng = np.random.default_rng(seed)
        return cls(
            weights=np.zeros(size),
            game_id=game_id,
            version=version,
            hidden=rng.normal(0.0, 1.0 / np.sqrt(size), (units, size)),
            bias=np.zeros(units),
            out=np.zeros(units),
        )

    def parameters(self) -> list[Array]:
        """The arrays an optimizer updates, in the order of :meth:`gradients`."""
        return [self.weights, self.hidden, self.bias, self.out]

    def _units(self, rows: Array) -> Array:
        units: Array = np.tanh(rows @ self.hidden.T + self.bias) if self.out.size else rows[:, :0]
        return units

    def scores(self, rows: Array) -> Array:
        """The score of each row of :func:`afterstates`."""
        scores: Array = rows @ self.weights
        if self.out.size:
            scores = scores + self._units(rows) @ self.out
        return scores

    def probabilities(self, rows: Array) -> Array:
        """The softmax over the scores of the rows of :func:`afterstates`."""
        return softmax(self.scores(rows))

    def gradients(self, rows: Array, p: Array, chosen: int) -> list[Array]:
        """The gradient of ``log p(chosen)`` for each array of :meth:`parameters`."""
        pull = -p
        pull[chosen] += 1.0  # d log p(chosen) / d score of each row
        linear: Array = pull @ rows
        if not self.out.size:
            return [linear, np.zeros_like(self.hidden), np.zeros_like(self.bias), self.out * 0]
        units = self._units(rows)
        inner = np.outer(pull, self.out) * (1.0 - units * units)
        return [linear, inner.T @ rows, inner.sum(axis=0), pull @ units]

    def save(self, path: Path) -> None:
        """Write the arrays as a numpy ``.npz`` file."""
        np.savez_compressed(
            path,
            weights=self.weights.astype(np.float32),
            hidden=self.hidden.astype(np.float32),
            bias=self.bias.astype(np.float32),
            out=self.out.astype(np.float32),
            game_id=np.array(self.game_id),
            version=np.array(self.version),
        )

    @classmethod
    def load(cls, path: Path) -> AfterstatePolicy:
        """Read a file written by :meth:`save` (one without hidden units is linear)."""
        with np.load(path) as data:
            size = data["weights"].shape[0]
            empty = {"hidden": np.zeros((0, size)), "bias": np.zeros(0), "out": np.zeros(0)}
            arrays = {
                name: data[name].astype(np.float64) if name in data else default
                for name, default in empty.items()
            }
            return cls(
                weights=data["weights"].astype(np.float64),
                game_id=str(data["game_id"]),
                version=int(data["version"]),
                **arrays,
            )


@dataclass
class Adam:
    """Adam's steps on one parameter array (gradient ascent)."""

    rate: float
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    first: Array | None = None
    second: Array | None = None

    def ascend(self, params: Array, gradient: Array) -> None:
        """Move ``params`` (in place) up along ``gradient``."""
        if self.first is None or self.second is None:
            self.first, self.second = np.zeros_like(params), np.zeros_like(params)
        self.steps += 1
        self.first = self.beta1 * self.first + (1 - self.beta1) * gradient
        self.second = self.beta2 * self.second + (1 - self.beta2) * gradient * gradient
        first = self.first / (1 - self.beta1**self.steps)
        second = self.second / (1 - self.beta2**self.steps)
        params += self.rate * first / (np.sqrt(second) + 1e-8)


class Optimizer:
    """One :class:`Adam` per array of a policy's :meth:`~AfterstatePolicy.parameters`.

    Args:
        policy: The policy whose arrays it moves (in place).
        rate: Adam's step size.
    """

    def __init__(self, policy: AfterstatePolicy, rate: float) -> None:
        self.arrays = policy.parameters()
        self.steps = [Adam(rate) for _ in self.arrays]

    def ascend(self, gradients: Sequence[Array]) -> None:
        """Move each array up along its gradient."""
        for adam, array, gradient in zip(self.steps, self.arrays, gradients, strict=True):
            adam.ascend(array, gradient)
