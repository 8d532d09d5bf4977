"""A linear afterstate policy: it scores each legal action by the seat's observation
right after it, and learns the weights by REINFORCE in plain numpy.

For each legal action the policy applies it to a state rebuilt from the seat's view
(hidden parts sampled, as the bots' forward model does, so nothing hidden is read),
encodes the seat's view of the result with the game's observation encoder, and
takes ``logit = w . tensor``; a softmax over the legal actions gives the
probabilities. So it learns what the position after a move is worth, one weight per
observation feature (869 for Mykerinos): far fewer numbers than a weight per action,
and what it learns about one action carries over to all that lead to alike positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
    cache = observation_encoder(state.game.info.id, state.seat_count, state.options).cache()
    rows = np.empty((len(legal), cache.encoder.size))
    for i, action in enumerate(legal):
        after = root.clone()
        after.apply_unchecked(action, seat)
        out = cache.encode(after.view(seat))
        if i == 0:
            rows[0] = out
            continue
        rows[i] = rows[i - 1]  # alike positions: only what changed since the last row
        for at, size in cache.changed:
            rows[i, at : at + size] = out[at : at + size]
    return rows


def softmax(logits: Array) -> Array:
    """Probabilities from logits (shifted so that the largest is 0)."""
    weights: Array = np.exp(logits - logits.max())
    weights /= weights.sum()
    return weights


@dataclass
class AfterstatePolicy:
    """The weights, and the game and encoding version they were learnt on.

    Attributes:
        weights: One per observation feature.
        game_id: The game.
        version: The encoding's version (its observation layout).
    """

    weights: Array
    game_id: str
    version: int

    def probabilities(self, rows: Array) -> Array:
        """The softmax over the rows of :func:`afterstates`."""
        return softmax(rows @ self.weights)

    def gradient(self, rows: Array, p: Array, chosen: int) -> Array:
        """The gradient of ``log p(chosen)`` with respect to the weights."""
        gradient: Array = rows[chosen] - p @ rows
        return gradient

    def save(self, path: Path) -> None:
        """Write the weights as a numpy ``.npz`` file."""
        np.savez_compressed(
            path,
            weights=self.weights.astype(np.float32),
            game_id=np.array(self.game_id),
            version=np.array(self.version),
        )

    @classmethod
    def load(cls, path: Path) -> AfterstatePolicy:
        """Read a file written by :meth:`save`."""
        with np.load(path) as data:
            return cls(
                weights=data["weights"].astype(np.float64),
                game_id=str(data["game_id"]),
                version=int(data["version"]),
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
