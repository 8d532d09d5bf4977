"""Entrants (strategy specs: ``mcts@0.2s``, ``mcts@500i``) and how the arena plays one seat.

The server only knows strategy names (``random``, ``greedy``, ``mcts``), so a
budget suffix never reaches it: the arena's own workers remember which spec sits
in which seat and build the strategy with that budget. Decisions run in a process
pool when one is given, because searching strategies are CPU-bound and threads of
one process would share one core (and a time budget would then buy less search
the more matches run at once).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass

from senet.bots.base import StrategySpec, make_strategy, state_from_proto_view
from senet.client.client import SeatClient, SenetClient
from senet.client.turns import decides_at
from senet.codec import options_from_proto
from senet.games.interface import OptionValue
from senet.v1 import bot_service_pb2, match_pb2


@dataclass(frozen=True)
class PlayerSpec:
    """One entrant: a strategy name and an optional search budget.

    ``label`` is how the spec was written and names the entrant in reports.
    """

    label: str
    strategy: str
    seconds: float | None = None
    iterations: int | None = None

    @classmethod
    def parse(
        cls, text: str, *, seconds: float | None = None, iterations: int | None = None
    ) -> PlayerSpec:
        """Parse a strategy spec (:class:`~senet.bots.base.StrategySpec`: ``mcts``,
        ``mcts@0.2s``, ``mcts@500i``, ``mcts:500``); the defaults apply when it names
        no budget.

        Raises:
            ValueError: unknown strategy or malformed budget.
        """
        spec = StrategySpec.parse(text, seconds=seconds, iterations=iterations)
        return cls(text.strip(), spec.strategy, spec.seconds, spec.iterations)

    @property
    def deterministic(self) -> bool:
        """Whether play depends only on seeds (a time budget lets the clock decide)."""
        return self.strategy != "mcts" or self.seconds is None


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts: match and bot seeds all come from the arena seed."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def choose_notation(
    game_id: str,
    view: bytes,
    seat: int,
    seed: int,
    options: Mapping[str, OptionValue] | None,
    spec: PlayerSpec,
) -> str:
    """One decision from a serialized view; a top-level function so a process pool can run it.

    The strategy is built per decision, seeded from (seat seed, version) by the
    caller, so a decision does not depend on which process made the previous one.
    """
    parsed = match_pb2.View()
    parsed.ParseFromString(view)
    state = state_from_proto_view(game_id, parsed, seat=seat, seed=seed, options=options)
    if seat not in state.deciding_seats():
        return ""
    strategy = make_strategy(
        spec.strategy, seed=seed, seconds=spec.seconds, iterations=spec.iterations
    )
    return strategy.choose(state, seat).notation()


async def decide_arena(
    client: SenetClient,
    decision: bot_service_pb2.BotDecision,
    spec: PlayerSpec,
    seed: int,
    executor: Executor | None,
) -> str | None:
    """One leased decision with ``spec``; None when the match moved on (cf. ``BotWorker.decide``).

    Like the stock worker it rebuilds the forward model from the seat's own view,
    so an arena bot sees no more than a hosted one.
    """
    seat_client: SeatClient = client.seat(decision.match_id, decision.seat, decision.token)
    got = await seat_client.get()
    if not decides_at(got.match, decision.seat, decision.version):
        return None
    notation = await asyncio.get_running_loop().run_in_executor(
        executor,
        choose_notation,
        got.match.game_id,
        got.view.SerializeToString(),
        decision.seat,
        derive_seed(seed, decision.version),
        options_from_proto(got.match.options),
        spec,
    )
    return notation or None
