"""Copying a state's fields for snapshots and clones, and reading a snapshot's header.

Game states keep their position in plain lists, lists of lists and scalars, named
in three tuples per class. Snapshots (``to_data``) and clones copy exactly those, so
both go through here: one loop, over the instance dict rather than getattr/setattr,
because clone runs once per served action and once per search node.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from operator import itemgetter
from typing import Any

from senet.games import validate as v
from senet.games.errors import CorruptStateError, GameError
from senet.games.interface import Game, JsonDict
from senet.games.rng import Rng


def copy_fields(
    fields: Mapping[str, Any],
    flat: tuple[str, ...],
    tables: tuple[str, ...],
    scalars: tuple[str, ...] = (),
) -> JsonDict:
    """Fresh copies of the named lists and tables, and the named scalars."""
    out: JsonDict = {name: fields[name][:] for name in flat}
    for name in tables:
        out[name] = list(map(_slice_copy, fields[name]))  # each row[:], in C
    for name in scalars:
        out[name] = fields[name]
    return out


#: ``value[:]`` as a function, for ``map``.
_slice_copy = itemgetter(slice(None))


def snapshot_header(game: Game, data: Mapping[str, Any]) -> tuple[int, JsonDict, Rng]:
    """The seat count, options and generator every snapshot starts with, checked.

    Raises:
        CorruptStateError: a bad seat count, options that are not the normalized
            options of that seat count, or a bad generator state.
    """
    f = partial(v.field, data)
    info = game.info
    seats = v.integer(f("seats"), "seats", info.min_seats, info.max_seats)
    options = f("options")
    try:
        if not isinstance(options, dict) or game.normalize_options(seats, options) != options:
            raise CorruptStateError(f"options {options!r} are not normalized options")
    except GameError as exc:
        raise CorruptStateError(f"bad options: {exc}") from exc
    return seats, options, Rng(v.integer(f("rng"), "rng", 0, (1 << 64) - 1))
