"""A small softmax policy over the action space, trained by REINFORCE in plain numpy.

The observation goes through one narrow hidden layer (``h = tanh(U x)``); each action
has a bias and an embedding, and its logit is ``b[a] + E[a] . h``. Only the legal
actions take part in the softmax (the mask), so the policy never picks an illegal
one. Small on purpose: about 45,000 numbers for Mykerinos, a file of some 180 kB, and
fast enough on a CPU that a few minutes of episodes teach it something.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]


@dataclass
class LowRankPolicy:
    """The parameters, and what identifies the space they were trained for.

    Attributes:
        hidden: ``U``, hidden width x observation size.
        embedding: ``E``, actions x hidden width.
        bias: ``b``, one per action.
        fingerprint: The action space's fingerprint (``ActionSpace.fingerprint``).
    """

    hidden: Array
    embedding: Array
    bias: Array
    fingerprint: str

    @classmethod
    def fresh(
        cls, observations: int, actions: int, width: int, fingerprint: str, seed: int
    ) -> LowRankPolicy:
        """Small random weights (seeded), zero biases."""
        rng = np.random.default_rng(seed)
        return cls(
            hidden=rng.normal(0.0, 1.0 / np.sqrt(observations), (width, observations)),
            embedding=rng.normal(0.0, 0.1, (actions, width)),
            bias=np.zeros(actions),
            fingerprint=fingerprint,
        )

    def probabilities(
        self, observation: npt.NDArray[np.float32], legal: npt.NDArray[np.intp]
    ) -> tuple[Array, Array]:
        """The hidden layer and the softmax over the ``legal`` indexes."""
        h = np.tanh(self.hidden @ observation)
        logits = self.bias[legal] + self.embedding[legal] @ h
        logits -= logits.max()
        weights = np.exp(logits)
        return h, weights / weights.sum()

    def best(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        """The legal index of highest probability (the first of equals): what a bot plays."""
        legal = np.flatnonzero(mask)
        _, p = self.probabilities(observation, legal)
        return int(legal[int(np.argmax(p))])

    def save(self, path: Path) -> None:
        """Write the parameters as a numpy ``.npz`` file."""
        np.savez_compressed(
            path,
            hidden=self.hidden.astype(np.float32),
            embedding=self.embedding.astype(np.float32),
            bias=self.bias.astype(np.float32),
            fingerprint=np.array(self.fingerprint),
        )

    @classmethod
    def load(cls, path: Path) -> LowRankPolicy:
        """Read a file written by :meth:`save`."""
        with np.load(path) as data:
            return cls(
                hidden=data["hidden"].astype(np.float64),
                embedding=data["embedding"].astype(np.float64),
                bias=data["bias"].astype(np.float64),
                fingerprint=str(data["fingerprint"]),
            )


@dataclass
class Gradients:
    """The gradient of the log-probabilities of one episode's choices, summed."""

    hidden: Array
    embedding: Array
    bias: Array

    @classmethod
    def zeros_like(cls, policy: LowRankPolicy) -> Gradients:
        return cls(
            np.zeros_like(policy.hidden),
            np.zeros_like(policy.embedding),
            np.zeros_like(policy.bias),
        )

    def add_choice(
        self,
        policy: LowRankPolicy,
        observation: npt.NDArray[np.float32],
        legal: npt.NDArray[np.intp],
        h: Array,
        p: Array,
        chosen: int,
    ) -> None:
        """Add the gradient of ``log p(chosen)`` (``chosen`` is a position in ``legal``)."""
        delta = -p
        delta[chosen] += 1.0
        self.bias[legal] += delta
        self.embedding[legal] += np.outer(delta, h)
        dh = policy.embedding[legal].T @ delta
        self.hidden += np.outer(dh * (1.0 - h * h), observation)


@dataclass
class Adam:
    """Adam's step on the three parameter arrays (gradient ascent)."""

    rate: float
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    moments: list[tuple[Array, Array]] = field(default_factory=list)

    def ascend(self, policy: LowRankPolicy, gradients: Gradients, scale: float) -> None:
        """Move the parameters up ``scale`` times the gradients."""
        params = (policy.hidden, policy.embedding, policy.bias)
        grads = (gradients.hidden, gradients.embedding, gradients.bias)
        if not self.moments:
            self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
        self.steps += 1
        for param, grad, (m, v) in zip(params, grads, self.moments, strict=True):
            g = grad * scale
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1**self.steps)
            v_hat = v / (1 - self.beta2**self.steps)
            param += self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)
