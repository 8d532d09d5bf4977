"""``python -m tests.playthroughs --regenerate``: rewrite every playthrough file."""

from __future__ import annotations

import argparse

from tests import plugins
from tests.playthroughs.record import DIRECTORY, regenerate


def main() -> None:
    """Parse the command line and regenerate the files when asked."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.playthroughs",
        description="Seeded matches recorded as text; review the git diff after regenerating.",
    )
    parser.add_argument("--regenerate", action="store_true", help="rewrite every file")
    args = parser.parse_args()
    if not args.regenerate:
        parser.print_help()
        return
    plugins.enable()  # the test suite's own games are recorded too
    paths = regenerate()
    total = sum(p.stat().st_size for p in paths)
    print(f"wrote {len(paths)} playthroughs ({total // 1024} KB) in {DIRECTORY}")


if __name__ == "__main__":
    main()
