"""Bots benchmark: how often MCTS beats three greedy bots, played through the server.

Set-up: the arena runner (:mod:`senet.arena.runner`) with its embedded server
and in-process bot workers, decisions in a process pool. For each game of
:data:`GAMES`, four players: one ``mcts`` at 0.2 s per move against three
``greedy``, seats rotated match by match so MCTS sits in every seat equally often;
40 matches per game (``--quick``: 8 at 0.05 s). Time budgets make the figure vary
a little from run to run and with the machine's load, which the confidence
interval does not cover.

Figures (machine-readable lines), for each ``<game>``:

``bots.<game>.mcts_vs_greedy_winrate``
    MCTS's share of the wins (ties for first shared), with its 95% interval
    (``_ci_low``, ``_ci_high``).
``bots.<game>.equal_player_winrate``
    The baseline: what any of four equal players would win, 0.25.
``bots.<game>.greedy_winrate``
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
#: The games played, each at four seats (Mare Nostrum: about 950 decisions a match, so
#: its 40 matches take the longest).
GAMES = ("mykerinos", "archeos", "marenostrum")


def run(*, quick: bool = False, out: Callable[[str], None] = print) -> dict[str, float]:
    """Play each game's tournament, print human-readable lines then ``name: value`` lines."""
    figures: dict[str, float] = {}
    for game in GAMES:
        figures.update(tournament(game, quick=quick, out=out))
    for name, value in figures.items():
        out(f"{name}: {value:.4f}")
    return figures


def tournament(game: str, *, quick: bool, out: Callable[[str], None]) -> dict[str, float]:
    """One game's matches of MCTS against three greedy bots; its figures."""
    matches, seconds = (8, 0.05) if quick else (40, 0.2)
    mcts = PlayerSpec.parse(f"mcts@{seconds}s")
    greedy = PlayerSpec.parse("greedy")
    config = ArenaConfig(
        game=game,
        players=[mcts, greedy, greedy, greedy],
        matches=matches,
        parallel=2,
        seed=SEED,
    )
    arena = asyncio.run(run_arena(config, start_server=embedded_server))
    summary = {s.player: s for s in summarize(arena.results, [mcts.label, greedy.label])}
    m, g = summary[mcts.label], summary[greedy.label]
    low, high = m.interval
    out(f"bots ({game}, {SEATS} players, {matches} matches, mcts {seconds} s/move vs greedy x3)")
    out(f"  mcts   wins {m.wins:g}/{m.games}  rate {m.win_rate:.3f}  95% CI {low:.3f}-{high:.3f}")
    glow, ghigh = g.interval
    out(f"  greedy wins {g.wins:g}/{g.games}  rate {g.win_rate:.3f}  95% CI {glow:.3f}-{ghigh:.3f}")
    return {
        f"bots.{game}.mcts_vs_greedy_winrate": m.win_rate,
        f"bots.{game}.mcts_vs_greedy_winrate_ci_low": low,
        f"bots.{game}.mcts_vs_greedy_winrate_ci_high": high,
        f"bots.{game}.equal_player_winrate": 1 / SEATS,
        f"bots.{game}.greedy_winrate": g.win_rate,
    }
