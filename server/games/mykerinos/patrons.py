"""The patrons: stable codes (used in notation and protocol) and display names."""

from __future__ import annotations

from enum import IntEnum


class Patron(IntEnum):
    """The five patrons of the base game; their values index per-patron arrays."""

    CURATOR = 0
    COLONEL = 1
    EXPLORER = 2
    HEIRESS = 3
    DIRECTOR = 4


PATRONS: tuple[Patron, ...] = tuple(Patron)

#: Three-letter codes used in action notation, room names and views. Stable.
PATRON_CODES: tuple[str, ...] = ("cur", "col", "exp", "hei", "dir")

#: Special Edition names.
PATRON_NAMES: tuple[str, ...] = ("Curator", "Colonel", "Explorer", "Heiress", "Director")

CODE_TO_PATRON: dict[str, Patron] = {code: Patron(i) for i, code in enumerate(PATRON_CODES)}
