"""Building a seat's view part by part (:meth:`GameState.view_parts`).

A game that declares :attr:`GameState.view_sources` writes its view as one builder
per top-level key (a per-seat table's builder, such as ``players``, takes the entry
keys asked); :meth:`GameState.view` calls them all and :meth:`GameState.view_parts`
only those asked, so both come from one source of truth.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

#: What a part builder returns to leave its key out of the view (a part shown only
#: in some phases, such as a finished match's ``final``).
ABSENT: Any = object()

#: Builds one top-level part of ``seat``'s view of a state: ``(state, seat)``, or
#: ``(state, seat, keys)`` for a part with two-key paths when only ``keys`` are asked.
PartBuilder = Callable[..., Any]


def requested(parts: Iterable[tuple[str, ...]]) -> Mapping[str, set[str] | None]:
    """``parts`` by top-level key: ``None`` where the whole part is asked, else the
    second keys asked under it (shared for equal frozensets: not to be changed)."""
    if type(parts) is frozenset:
        # An observer asks for the same few sets again and again.
        return _requested_once(parts)
    return _group(parts)


@lru_cache(maxsize=4096)
def _requested_once(parts: frozenset[tuple[str, ...]]) -> Mapping[str, set[str] | None]:
    return _group(parts)


def _group(parts: Iterable[tuple[str, ...]]) -> dict[str, set[str] | None]:
    asked: dict[str, set[str] | None] = {}
    for path in parts:
        key = path[0]
        if len(path) == 1:
            asked[key] = None
            continue
        subs = asked.get(key, set())
        if subs is not None:
            subs.add(path[1])
            asked[key] = subs
    return asked


def build_view(
    state: Any,
    seat: int | None,
    builders: Mapping[str, PartBuilder],
    asked: Mapping[str, set[str] | None] | None = None,
) -> dict[str, Any]:
    """The parts of ``seat``'s view: every one, in ``builders``' order, or those in
    ``asked`` (see :func:`requested`; in any order, as a part asked is one that
    changed, usually a few). Where only some keys under a part are asked (the game's
    ``view_sources`` has two-key paths there), its builder is called with them as a
    third argument."""
    view: dict[str, Any] = {}
    if asked is None:
        for key, build in builders.items():
            value = build(state, seat)
            if value is not ABSENT:
                view[key] = value
        return view
    for key, subs in asked.items():
        builder = builders.get(key)
        if builder is None:
            continue
        value = builder(state, seat) if subs is None else builder(state, seat, subs)
        if value is not ABSENT:
            view[key] = value
    return view
