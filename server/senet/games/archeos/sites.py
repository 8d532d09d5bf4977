"""Site boards, the linguist track, professor tokens and the points tables, as data.

The rulebook shows every board only in pictures, so these numbers are designed
(``docs/rules/archeos.md`` A-2 to A-6). Everything the rules read about a board is a
:class:`Track`; swap the rows below for the printed values and nothing else changes.

A track has spaces ``0 .. len(points) - 1``; space 0 is the left-most (start) space.
``thresholds[i]`` is the expedition size needed to cross the line from space ``i`` to
space ``i + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from senet.games.archeos.cards import COLOURS, Colour


class Special(IntEnum):
    """The advanced side of each site board (one per colour)."""

    ULURU = Colour.RED
    UR = Colour.ORANGE
    TA_SEKHET_MAAT = Colour.YELLOW
    CHICHEN_ITZA = Colour.GREEN
    RAPA_NUI = Colour.BLUE
    TANTALLON_CASTLE = Colour.PURPLE


SITE_NAMES: tuple[str, ...] = (
    "Uluru",
    "Ur",
    "Ta-Sekhet-Ma'at",
    "Chichén Itzá",
    "Rapa Nui",
    "Tantallon Castle",
)
#: Stable ids for options and notation-free references (ASCII, lower case).
SITE_IDS: tuple[str, ...] = ("uluru", "ur", "tasekhet", "chichen", "rapanui", "tantallon")


@dataclass(frozen=True)
class Track:
    """One side of one site board.

    Attributes:
        thresholds: Expedition size needed to leave space ``i`` (one per line).
        points: Points scored at season end on each space (Tantallon: the large star).
        shared_points: Tantallon Castle: the small star, scored when sharing a space.
        draws: Chichén Itzá: cards drawn after crossing the line out of space ``i``.
        ur_limits: Ur: largest season-end expedition allowed from each space.
        advancing_can_hurt: Whether moving on can cost points (the bonus or the space
            depends on other vehicles), so declining an advance is offered (A-9).
    """

    thresholds: tuple[int, ...]
    points: tuple[int, ...]
    shared_points: tuple[int, ...] = ()
    draws: tuple[int, ...] = ()
    ur_limits: tuple[int, ...] = ()
    advancing_can_hurt: bool = False

    @property
    def last(self) -> int:
        """Index of the right-most space."""
        return len(self.points) - 1

    def can_leave(self, space: int, size: int) -> bool:
        """Whether an expedition of ``size`` may move a vehicle on from ``space``."""
        return space < self.last and size >= self.thresholds[space]


#: The compass side; every board has the same one (A-2).
COMPASS = Track(thresholds=(1, 2, 2, 3, 3, 4, 5), points=(0, 1, 2, 3, 5, 7, 9, 12))

#: The advanced sides, indexed by colour (A-3).
ADVANCED: tuple[Track, ...] = (
    # Uluru: points only when cashed in, so they are higher; no season-end scoring.
    Track(thresholds=(1, 2, 3, 3, 4, 5, 6), points=(0, 2, 3, 5, 8, 11, 14, 18)),
    # Ur: the compass numbers plus the season-end expedition limit per space.
    Track(
        thresholds=(1, 2, 2, 3, 3, 4, 5),
        points=(0, 1, 2, 3, 5, 7, 9, 12),
        ur_limits=(1, 2, 3, 4, 5, 6, 7, 8),
    ),
    # Ta-Sekhet-Ma'at: only the rear vehicle scores, so the spaces are worth more.
    Track(thresholds=(1, 2, 2, 3, 3, 4, 5), points=(0, 1, 3, 5, 7, 9, 12, 15)),
    # Chichén Itzá: a shorter, steeper track that pays in cards.
    Track(
        thresholds=(1, 2, 3, 3, 4, 5),
        points=(0, 1, 2, 3, 5, 7, 9),
        draws=(1, 1, 2, 2, 3, 3),
    ),
    # Rapa Nui: steeper, because the leader also takes the 3-point bonus.
    # Advancing may make a vehicle the farthest, which sends it back to the start.
    Track(
        thresholds=(1, 2, 2, 3, 4, 5, 6),
        points=(0, 1, 2, 4, 5, 7, 9, 12),
        advancing_can_hurt=True,
    ),
    # Tantallon Castle: large star when alone, small star when sharing; advancing
    # onto an occupied space can score less than staying alone.
    Track(
        thresholds=(1, 2, 3, 3, 4, 5, 5),
        points=(0, 2, 3, 5, 7, 9, 11, 14),
        shared_points=(0, 1, 1, 2, 3, 4, 5, 7),
        advancing_can_hurt=True,
    ),
)

RAPA_NUI_BONUS = 3

#: The linguist track: spaces 0..LINGUIST_END, artifacts on the listed spaces (A-5).
LINGUIST_END = 15
LINGUIST_ARTIFACTS: tuple[int, ...] = (2, 5, 8, 11, 15)
LINGUIST_BONUS = 2

#: Professor tokens 1..6, one of each (A-6).
PROFESSOR_TOKENS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

BOTANIST_POINTS = 2

#: Expedition size -> points at season end (6 or more: the last entry).
EXPEDITION_POINTS: tuple[int, ...] = (0, 0, 1, 3, 5, 8, 12)
#: Different relics on the museum board -> points at game end.
RELIC_POINTS: tuple[int, ...] = (0, 1, 3, 5, 10, 15, 20)


def track_of(colour: int, advanced_site: int) -> Track:
    """The side of the ``colour`` board in play when ``advanced_site`` is advanced."""
    return ADVANCED[colour] if colour == advanced_site else COMPASS


def expedition_points(size: int) -> int:
    """Season-end points of an expedition of ``size`` cards."""
    return EXPEDITION_POINTS[min(max(size, 0), len(EXPEDITION_POINTS) - 1)]


def relic_points(relics: int) -> int:
    """Game-end points of a museum board holding ``relics`` different relics."""
    return RELIC_POINTS[min(max(relics, 0), COLOURS)]


def linguist_artifacts_between(start: int, end: int) -> int:
    """Artifacts passed or stopped on when moving from ``start`` to ``end``."""
    return sum(1 for space in LINGUIST_ARTIFACTS if start < space <= end)
