"""A seeded demo match played by random players, printed move by move.

``make run`` starts this until the gRPC match service lands; it shows the rules
core end to end: ``python -m server.demo --players 3 --seed 7``.
"""

from __future__ import annotations

import argparse

from server.games import get_game
from server.games.rng import Rng


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="mykerinos")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)

    state = get_game(args.game).new_match(args.players, seed=args.seed)
    chooser = Rng(args.seed ^ 0x5EED)
    while (seat := state.current_seat()) is not None:
        action = chooser.choice(state.legal_actions())
        label = state.describe(action)
        state.apply(seat, action)
        if not args.quiet:
            print(f"seat {seat}: {action.notation():<16} {label}")
    print("scores:", state.scores(), "places:", state.ranking())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
