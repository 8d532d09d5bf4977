"""Season-end and game-end arithmetic that does not depend on the board."""

from __future__ import annotations

from senet.games.archeos.cards import Role, role_of


def expedition_size_for_points(cards: list[int]) -> int:
    """Size an expedition scores with: its cards, +1 when a Photographer leads it.

    Called after Mercenaries have left the expeditions (season end step 4).
    """
    bonus = 1 if cards and role_of(cards[0]) == Role.PHOTOGRAPHER else 0
    return len(cards) + bonus


def tiebreak_sizes(expeditions: list[list[int]]) -> list[int]:
    """Expedition sizes for the tie-break, largest first (Mercenaries never count)."""
    sizes = [sum(1 for c in e if role_of(c) != Role.MERCENARY) for e in expeditions]
    return sorted(sizes, reverse=True)


def place_by_score_then_expeditions(scores: list[int], sizes: list[list[int]]) -> list[int]:
    """Places (1 = winner): most points, then the largest expedition, then the next.

    Sizes compare like words: the first larger size wins; a seat that runs out of
    expeditions first loses the comparison. Seats equal on both share a place.
    """
    keys = [(score, size) for score, size in zip(scores, sizes, strict=True)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]
