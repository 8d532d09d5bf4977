"""``--limit N`` or ``--all``: how many of a listing a command prints, the same way
in every command that pages through one."""

from __future__ import annotations

import argparse


def at_least_one(text: str) -> int:
    """A ``--limit``: a whole number of at least 1 (argparse says so otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def add_count_arguments(
    parser: argparse.ArgumentParser, default: int, limit_help: str, all_help: str
) -> None:
    """``--limit N`` (``default`` when neither is given) or ``--all``; read them with
    :func:`count_of`."""
    count = parser.add_mutually_exclusive_group()
    count.add_argument(
        "--limit", type=at_least_one, default=default, help=f"{limit_help} (default {default})"
    )
    count.add_argument("--all", action="store_true", help=all_help)


def count_of(args: argparse.Namespace) -> int | None:
    """How many the command line asks for (None: all)."""
    return None if args.all else int(args.limit)
