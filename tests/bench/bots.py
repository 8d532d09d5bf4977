"""Bots benchmark: how often MCTS beats three greedy bots, played through the server.

Set-up: the arena runner (:mod:`senet.arena.runner`) with its embedded server
and in-process bot workers, decisions in a process pool. Four-player Mykerinos,
one ``mcts`` at 0.2 s per move against three ``greedy``, seats rotated match by
match so MCTS sits in every seat equally often; 40 matches (``--quick``: 8 at
0.05 s). Time budgets make the figure vary a little from run to run and with the
machine's load, which the confidence interval does not cover.

Figures (machine-readable lines):

``bots.mykerinos.mcts_vs_greedy_winrate``
    MCTS's share of the wins (ties for first shared).
``bots.mykerinos.equal_player_winrate``
    The baseline: what any of four equal players would win, 0.25.
``bots.mykerinos.greedy_winrate``
    One greedy seat's mean share of the wins, measured in the same run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from senet.arena.players import PlayerSpec
from senet.arena.runner import ArenaConfig, run_arena
from senet.arena.stats import summarize
from senet.cli.beside import embedded_server

SEATS = 4
SEED = 2024


def run(*, quick: bool = False, out: Callable[[str], None] = print) -> dict[str, float]:
    """Play the tournament, print human-readable lines then ``name: value`` lines."""
    matches, seconds = (8, 0.05) if quick else (40, 0.2)
    mcts = PlayerSpec.parse(f"mcts@{seconds}s")
    greedy = PlayerSpec.parse("greedy")
    config = ArenaConfig(
        game="mykerinos",
        players=[mcts, greedy, greedy, greedy],
        matches=matches,
        parallel=2,
        seed=SEED,
    )
    arena = asyncio.run(run_arena(config, start_server=embedded_server))
    summary = {s.player: s for s in summarize(arena.results, [mcts.label, greedy.label])}
    m, g = summary[mcts.label], summary[greedy.label]
    low, high = m.interval
    out(f"bots (mykerinos, {SEATS} players, {matches} matches, mcts {seconds} s/move vs greedy x3)")
    out(f"  mcts   wins {m.wins:g}/{m.games}  rate {m.win_rate:.3f}  95% CI {low:.3f}-{high:.3f}")
    glow, ghigh = g.interval
    out(f"  greedy wins {g.wins:g}/{g.games}  rate {g.win_rate:.3f}  95% CI {glow:.3f}-{ghigh:.3f}")
    figures = {
        "bots.mykerinos.mcts_vs_greedy_winrate": m.win_rate,
        "bots.mykerinos.mcts_vs_greedy_winrate_ci_low": low,
        "bots.mykerinos.mcts_vs_greedy_winrate_ci_high": high,
        "bots.mykerinos.equal_player_winrate": 1 / SEATS,
        "bots.mykerinos.greedy_winrate": g.win_rate,
    }
    for name, value in figures.items():
        out(f"{name}: {value:.4f}")
    return figures
