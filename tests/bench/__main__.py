"""Run every Senet benchmark in turn: ``python -m tests.bench [--quick] [NAME ...]``.

Later benchmarks (service, bots, scale) are added as sibling modules of
:mod:`tests.bench.rules` and listed in :data:`BENCHMARKS`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Protocol

from tests.bench import (
    bots,
    handler,
    ladder,
    matchmaking,
    peer,
    reliability,
    rl,
    rules,
    scale,
    service,
)


class Benchmark(Protocol):
    """What ``__main__`` calls on each benchmark module."""

    def __call__(self, *, quick: bool = ..., out: Callable[[str], None] = ...) -> object: ...


# Run in this order; each prints its human-readable lines and ``name: value`` lines.
BENCHMARKS: dict[str, Benchmark] = {
    "rules": rules.run,
    "rl": rl.run,
    "service": service.run,
    "handler": handler.run,
    "bots": bots.run,
    "scale": scale.run,
    "reliability": reliability.run,
    "matchmaking": matchmaking.run,
    "ladder": ladder.run,
    # Last: the test plug-ins it enables (Pebbles) stay on this process's sys.path.
    "peer": peer.run,
}


def _out(line: str) -> None:
    print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short budgets (a few seconds)")
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"benchmarks to run (default: all, in order: {', '.join(BENCHMARKS)})",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    for name in args.names or list(BENCHMARKS):
        BENCHMARKS[name](quick=args.quick, out=_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
