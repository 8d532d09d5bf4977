"""Where each province and sea of Mare Nostrum sits on the web client's schematic map.

The rules core's map (:mod:`senet.games.marenostrum.board`) is a graph: provinces,
seas and which touch which, with no coordinates (the printed map's are not public).
This table places every space for drawing only, as the boards of the game do: the
Mythology expansion's western board (Atlantis, Hispania, Gaul, Mauretania) is a
board of its own beside the main one, so it is drawn as a second, smaller map; a
border between the two boards is drawn as a labelled stub at the facing edge.

Every place is the centre of the space's shape, in the SVG units of its board. The
geography is schematic: neighbours sit side by side and the seas between their
shores, so that every border and coast is a short line. Replacing the map (the
printed one, a variant's) means editing these tables; :mod:`tests.web` checks that
every space of the rules core has one place and that no two shapes overlap.
"""

from __future__ import annotations

from typing import NamedTuple


class Board(NamedTuple):
    """One board of the map: its SVG size and the name it is read out by."""

    key: str
    width: float
    height: float
    label: str


class Sea(NamedTuple):
    """A sea's place: centre and half-sizes of its rounded shape."""

    board: str
    x: float
    y: float
    half_width: float
    half_height: float


class Region(NamedTuple):
    """A region: a reading aid of the clients (the board groups nothing), drawn as the
    land under its provinces, with its name at (x, y)."""

    name: str
    board: str
    x: float
    y: float
    land: str
    provinces: tuple[str, ...]


#: The two boards, main first.
MAIN = Board("main", 1060, 740, "The map: the main board (Italy and the eastern Mediterranean)")
WEST = Board("west", 560, 470, "The map: the western board (Atlantis, Hispania, Gaul, Mauretania)")
BOARDS: tuple[Board, ...] = (MAIN, WEST)

#: Size of a province's tile.
TILE_WIDTH = 92
TILE_HEIGHT = 66

#: Every province's tile centre: (board, x, y).
PROVINCE_AT: dict[str, tuple[str, float, float]] = {
    # Italia
    "gcis": ("main", 150, 42),
    "etru": ("main", 150, 118),
    "lati": ("main", 150, 194),
    "camp": ("main", 150, 270),
    "magn": ("main", 250, 210),
    "sard": ("main", 50, 170),
    "sici": ("main", 180, 395),
    # Graecia
    "illy": ("main", 250, 42),
    "daci": ("main", 350, 42),
    "thra": ("main", 450, 42),
    "mace": ("main", 370, 118),
    "epir": ("main", 370, 205),
    "atti": ("main", 475, 160),
    "pelo": ("main", 430, 290),
    "cret": ("main", 470, 420),
    # Asia
    "troa": ("main", 660, 140),
    "bith": ("main", 760, 118),
    "arme": ("main", 945, 70),
    "asia": ("main", 720, 235),
    "capp": ("main", 855, 192),
    "cili": ("main", 815, 305),
    "rhod": ("main", 640, 340),
    "cypr": ("main", 690, 425),
    # Oriens
    "syri": ("main", 910, 290),
    "assy": ("main", 1005, 180),
    "baby": ("main", 1005, 400),
    "juda": ("main", 905, 480),
    # Africa
    "numi": ("main", 55, 560),
    "afri": ("main", 160, 560),
    "trip": ("main", 300, 640),
    "cyre": ("main", 470, 650),
    "aegy": ("main", 760, 650),
    "theb": ("main", 890, 700),
    # Hesperia (the western board)
    "abor": ("west", 60, 80),
    "posi": ("west", 110, 160),
    "aaus": ("west", 60, 240),
    "aqui": ("west", 320, 45),
    "narb": ("west", 432, 62),
    "lusi": ("west", 310, 140),
    "tarr": ("west", 410, 150),
    "baet": ("west", 320, 230),
    "bale": ("west", 510, 230),
    # Mauretania (the western board)
    "mtin": ("west", 305, 425),
    "mcae": ("west", 412, 420),
}

#: Every sea's shape.
SEA_AT: dict[str, Sea] = {
    "tyr": Sea("main", 55, 290, 48, 34),
    "adr": Sea("main", 250, 126, 44, 26),
    "ion": Sea("main", 300, 330, 52, 30),
    "sic": Sea("main", 75, 440, 52, 28),
    "lib": Sea("main", 330, 520, 56, 28),
    "aeg": Sea("main", 570, 215, 44, 80),
    "crt": Sea("main", 580, 510, 60, 28),
    "egy": Sea("main", 760, 545, 54, 26),
    "syr": Sea("main", 800, 430, 46, 26),
    "pon": Sea("main", 640, 42, 90, 28),
    "atl": Sea("west", 215, 250, 40, 150),
    "her": Sea("west", 310, 330, 50, 26),
    "bal": Sea("west", 420, 262, 44, 28),
    "sar": Sea("west", 500, 345, 52, 28),
}

#: The regions (as the text client groups them), with the land colour under each.
REGIONS: tuple[Region, ...] = (
    Region(
        "Italia",
        "main",
        60,
        80,
        "#e6d8b3",
        ("gcis", "etru", "lati", "camp", "magn", "sici", "sard"),
    ),
    Region(
        "Graecia",
        "main",
        330,
        400,
        "#dcd3ad",
        ("illy", "daci", "thra", "mace", "epir", "atti", "pelo", "cret"),
    ),
    Region(
        "Asia",
        "main",
        690,
        300,
        "#e4d4b8",
        ("rhod", "cypr", "troa", "bith", "asia", "capp", "cili", "arme"),
    ),
    Region("Oriens", "main", 975, 560, "#e9d2ae", ("syri", "juda", "assy", "baby")),
    Region("Africa", "main", 620, 720, "#ead9a6", ("aegy", "theb", "cyre", "trip", "afri", "numi")),
    Region(
        "Hesperia",
        "west",
        470,
        125,
        "#e3d9b6",
        ("posi", "abor", "aaus", "lusi", "baet", "tarr", "bale", "aqui", "narb"),
    ),
    Region("Mauretania", "west", 300, 465, "#eadaa9", ("mtin", "mcae")),
)


def board_of(space: str) -> str:
    """The key of the board a space is drawn on (``main`` or ``west``)."""
    if space in PROVINCE_AT:
        return PROVINCE_AT[space][0]
    return SEA_AT[space].board


def centre_of(space: str) -> tuple[float, float]:
    """The centre of a space's shape on its board."""
    if space in PROVINCE_AT:
        _, x, y = PROVINCE_AT[space]
        return x, y
    sea = SEA_AT[space]
    return sea.x, sea.y


def bounds_of(space: str) -> tuple[float, float, float, float]:
    """A space's shape as (left, top, right, bottom)."""
    if space in PROVINCE_AT:
        _, x, y = PROVINCE_AT[space]
        return x - TILE_WIDTH / 2, y - TILE_HEIGHT / 2, x + TILE_WIDTH / 2, y + TILE_HEIGHT / 2
    sea = SEA_AT[space]
    return (
        sea.x - sea.half_width,
        sea.y - sea.half_height,
        sea.x + sea.half_width,
        sea.y + sea.half_height,
    )
