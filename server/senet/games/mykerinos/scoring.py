"""Final scoring: the exhibition in the museum and the sets of five patrons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from senet.games.mykerinos.museum import room_patrons, room_value
from senet.games.mykerinos.patrons import PATRON_CODES, PATRONS, Patron

SET_BONUS = 5
NO_ROOM_VALUE = 1


def best_room_values(museum: Sequence[int], colour: int) -> list[int]:
    """For each patron, the highest room value ``colour`` occupies for it (0 if none)."""
    best = [0] * len(PATRONS)
    for room, occupant in enumerate(museum):
        if occupant == colour:
            value = room_value(room)
            for patron in room_patrons(room):
                best[patron] = max(best[patron], value)
    return best


def exhibition(cards: Sequence[int], museum: Sequence[int], colour: int) -> dict[str, Any]:
    """Score one player's patron cards against the museum.

    Each card scores the best room its holder occupies for that patron (2, 3 or 5),
    or 1 point without such a room; each set of five different patrons adds 5.
    Governor cards (The Nile) score nothing but stand in for any missing patron of
    a set; ``cards`` may omit the Governor (base game arrays).

    Returns:
        ``{"patrons": {code: {"cards", "room_value", "points"}}, "governors", "sets",
        "set_points", "total"}``.
    """
    best = best_room_values(museum, colour)
    patrons: dict[str, dict[str, int]] = {}
    total = 0
    for patron in PATRONS:
        value = best[patron] or NO_ROOM_VALUE
        points = cards[patron] * value
        patrons[PATRON_CODES[patron]] = {
            "cards": cards[patron],
            "room_value": best[patron],
            "points": points,
        }
        total += points
    governors = cards[Patron.GOVERNOR] if len(cards) > Patron.GOVERNOR else 0
    sets = patron_sets([cards[p] for p in PATRONS], governors)
    total += sets * SET_BONUS
    return {
        "patrons": patrons,
        "governors": governors,
        "sets": sets,
        "set_points": sets * SET_BONUS,
        "total": total,
    }


def patron_sets(counts: Sequence[int], wild: int) -> int:
    """Most disjoint sets of the five patrons, ``wild`` cards filling any gap.

    ``k`` sets are possible when the wild cards cover every patron's shortfall
    below ``k``; that test is monotonic in ``k``, so count up until it fails.
    """
    sets = min(counts)  # always possible without a wild card (the base game's count)
    while wild and sum(max(0, sets + 1 - n) for n in counts) <= wild:
        sets += 1
    return sets
