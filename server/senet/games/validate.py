"""Strict readers for snapshot data, shared by every game's ``from_data``.

Snapshots come back from a store that other processes (or people) can write to, so
a game rebuilds its state only from values of the right type and range; anything
else raises :class:`~senet.games.errors.CorruptStateError` at load time rather
than an ``IndexError`` (or a hang) later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from senet.games.errors import CorruptStateError


def field(data: Mapping[str, Any], name: str) -> Any:
    """``data[name]``, or CorruptStateError naming the missing field."""
    if not isinstance(data, Mapping):
        raise CorruptStateError("state data must be an object")
    try:
        return data[name]
    except KeyError:
        raise CorruptStateError(f"state data lacks {name!r}") from None


def integer(value: Any, name: str, low: int, high: int) -> int:
    """An int (not a bool) within ``[low, high]``."""
    if type(value) is not int or not low <= value <= high:
        raise CorruptStateError(f"{name} must be an integer in [{low}, {high}], got {value!r}")
    return value


def boolean(value: Any, name: str) -> bool:
    if type(value) is not bool:
        raise CorruptStateError(f"{name} must be true or false, got {value!r}")
    return value


def choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise CorruptStateError(f"{name} must be one of {allowed}, got {value!r}")
    return value


def int_list(
    value: Any, name: str, low: int, high: int, length: int | None = None, unique: bool = False
) -> list[int]:
    """A list of ints in range, of an exact length when given, optionally without repeats."""
    if not isinstance(value, list):
        raise CorruptStateError(f"{name} must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise CorruptStateError(f"{name} must have {length} entries, got {len(value)}")
    for v in value:
        if type(v) is not int or not low <= v <= high:
            # Only a bad entry pays for naming each one: integer() raises at the first.
            out = [integer(v, f"{name}[{i}]", low, high) for i, v in enumerate(value)]
            break
    else:
        out = list(value)
    if unique and len(set(out)) != len(out):
        raise CorruptStateError(f"{name} repeats an entry")
    return out


def bool_list(value: Any, name: str, length: int) -> list[bool]:
    if not isinstance(value, list) or len(value) != length:
        raise CorruptStateError(f"{name} must be a list of {length} booleans")
    if all(type(v) is bool for v in value):
        return list(value)
    return [boolean(v, f"{name}[{i}]") for i, v in enumerate(value)]


def int_table(
    value: Any, name: str, rows: int, columns: int, low: int, high: int
) -> list[list[int]]:
    """A ``rows`` x ``columns`` list of lists of ints in range."""
    if not isinstance(value, list) or len(value) != rows:
        raise CorruptStateError(f"{name} must be a list of {rows} rows")
    return [int_list(row, f"{name}[{i}]", low, high, columns) for i, row in enumerate(value)]
