"""The patrons: stable codes (used in notation and protocol) and display names."""

from __future__ import annotations

from enum import IntEnum


class Patron(IntEnum):
    """The patrons; their values index per-patron arrays.

    The first five have a wing in the museum. The Governor comes with The Nile: its
    cards have no wing, score nothing themselves and are wild in sets of five.
    """

    CURATOR = 0
    COLONEL = 1
    EXPLORER = 2
    HEIRESS = 3
    DIRECTOR = 4
    GOVERNOR = 5


#: The five patrons with a museum wing (the base game's patrons).
PATRONS: tuple[Patron, ...] = tuple(p for p in Patron if p != Patron.GOVERNOR)

#: Every patron, The Nile's Governor included: the width of per-patron arrays.
ALL_PATRONS: tuple[Patron, ...] = tuple(Patron)

#: Three-letter codes used in action notation, room names and views. Stable.
PATRON_CODES: tuple[str, ...] = ("cur", "col", "exp", "hei", "dir", "gov")

#: Special Edition names.
PATRON_NAMES: tuple[str, ...] = (
    "Curator",
    "Colonel",
    "Explorer",
    "Heiress",
    "Director",
    "Governor",
)

#: The 2006 edition's names (classic rules); the Governor exists only in the Special
#: Edition's Nile and keeps its name.
CLASSIC_PATRON_NAMES: tuple[str, ...] = (
    "Mrs Blackmore",
    "Colonel Tangerine",
    "Lord Lemon",
    "Lady Violet",
    "Sir Brown",
    "Governor",
)

CODE_TO_PATRON: dict[str, Patron] = {code: Patron(i) for i, code in enumerate(PATRON_CODES)}


def patron_names(classic: bool) -> tuple[str, ...]:
    """Display names by patron index for the edition being played."""
    return CLASSIC_PATRON_NAMES if classic else PATRON_NAMES
