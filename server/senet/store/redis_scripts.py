"""The Lua scripts of the Redis store, one file each under ``lua/``.

Each file starts with a block of ``--`` comment lines: the script's KEYS, ARGV
and reply, for whoever reads or calls it. That block is not sent to Redis: the
script text is the rest of the file, from the blank line after the block. Redis
caches a script under the SHA1 of its text, so rewording the documentation does
not change a script's SHA, and replicas built from different revisions of the
comments share one cached script.

The files ship inside the package (``[tool.setuptools.package-data]``) and are
read once per process, when the store first registers its scripts.
"""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["SCRIPT_NAMES", "script_text"]

#: Every script of the store, by file name without ``.lua``.
SCRIPT_NAMES: tuple[str, ...] = (
    "create",
    "load",
    "claim",
    "commit",
    "events",
    "log",
    "request",
    "replace_claim",
    "swap_claim",
    "bot_post",
    "bot_acquire",
    "bot_renew",
    "bot_release",
    "bot_defer",
    # -- lobby --
    "lobby_put",
    "lobby_scan",
    "lobby_drop",
    "lobby_peek",
    "lobby_due",
    "lobby_defer",
    # -- players, ratings and tickets --
    "players_settle",
    "players_release",
    "tickets_enqueue",
    "tickets_scan",
    "tickets_claim",
    "tickets_drop",
    "tickets_touch",
)


@functools.cache
def script_text(name: str) -> str:
    """The text of script ``name`` as sent to Redis: its file without the header.

    Raises:
        ValueError: ``name`` is not one of :data:`SCRIPT_NAMES`.
    """
    if name not in SCRIPT_NAMES:
        raise ValueError(f"no Redis script named {name!r}")
    text = resources.files(__package__).joinpath("lua", f"{name}.lua").read_text("utf-8")
    lines = text.splitlines(keepends=True)
    header = 0
    while header < len(lines) and lines[header].startswith("--"):
        header += 1
    return "".join(lines[header:])
