"""Names, letters, styles and codes of Mykerinos' protocol enums, for drawing."""

from __future__ import annotations

from senet.v1 import mykerinos_pb2 as pb

#: Width of the board column: row label (3) + 4 plots of 6 + 5 borders.
BOARD_WIDTH = 32
COLOUR_LETTER: dict[int, str] = {
    pb.MYKERINOS_COLOUR_BLUE: "B",
    pb.MYKERINOS_COLOUR_RED: "R",
    pb.MYKERINOS_COLOUR_GREEN: "G",
    pb.MYKERINOS_COLOUR_WHITE: "W",
}
COLOUR_NAME: dict[int, str] = {
    pb.MYKERINOS_COLOUR_BLUE: "Blue",
    pb.MYKERINOS_COLOUR_RED: "Red",
    pb.MYKERINOS_COLOUR_GREEN: "Green",
    pb.MYKERINOS_COLOUR_WHITE: "White",
}
COLOUR_STYLE: dict[int, str] = {
    pb.MYKERINOS_COLOUR_BLUE: "bold blue",
    pb.MYKERINOS_COLOUR_RED: "bold red",
    pb.MYKERINOS_COLOUR_GREEN: "bold green",
    pb.MYKERINOS_COLOUR_WHITE: "bold black on white",
}
PATRON_CODE: dict[int, str] = {
    pb.MYKERINOS_PATRON_CURATOR: "cur",
    pb.MYKERINOS_PATRON_COLONEL: "col",
    pb.MYKERINOS_PATRON_EXPLORER: "exp",
    pb.MYKERINOS_PATRON_HEIRESS: "hei",
    pb.MYKERINOS_PATRON_DIRECTOR: "dir",
    pb.MYKERINOS_PATRON_GOVERNOR: "gov",
}
#: Special Edition names, for a view that does not name its patrons.
PATRON_NAME: dict[int, str] = {
    pb.MYKERINOS_PATRON_CURATOR: "Curator",
    pb.MYKERINOS_PATRON_COLONEL: "Colonel",
    pb.MYKERINOS_PATRON_EXPLORER: "Explorer",
    pb.MYKERINOS_PATRON_HEIRESS: "Heiress",
    pb.MYKERINOS_PATRON_DIRECTOR: "Director",
    pb.MYKERINOS_PATRON_GOVERNOR: "Governor",
}
GOVERNOR = pb.MYKERINOS_PATRON_GOVERNOR
#: The five patrons with a museum wing, in canonical order (the order of the enum).
PATRONS: tuple[int, ...] = tuple(p for p in PATRON_CODE if p != GOVERNOR)
PHASE_NAME: dict[int, str] = {
    pb.MYKERINOS_PHASE_DRAFT: "Patron draft",
    pb.MYKERINOS_PHASE_EXCAVATION: "Excavation",
    pb.MYKERINOS_PHASE_NEUTRAL: "Excavation (neutral action)",
    pb.MYKERINOS_PHASE_BLOCKING: "Excavation (blocking token)",
    pb.MYKERINOS_PHASE_DELIMITATION: "Delimitation",
    pb.MYKERINOS_PHASE_OVER: "Game over",
}
SIDE_NAME: dict[int, str] = {
    pb.MYKERINOS_SIDE_LEFT: "left",
    pb.MYKERINOS_SIDE_RIGHT: "right",
    pb.MYKERINOS_SIDE_NILE_ROW_1: "n1",
    pb.MYKERINOS_SIDE_NILE_ROW_2: "n2",
    pb.MYKERINOS_SIDE_NILE_ROW_3: "n3",
}
#: Nile sides, by the row of areas their card lies on.
NILE_ROW: dict[int, int] = {
    pb.MYKERINOS_SIDE_NILE_ROW_1: 0,
    pb.MYKERINOS_SIDE_NILE_ROW_2: 1,
    pb.MYKERINOS_SIDE_NILE_ROW_3: 2,
}
EFFECT_NAME: dict[int, str] = {
    pb.MYKERINOS_NILE_EFFECT_GOVERNOR: "Governor card",
    pb.MYKERINOS_NILE_EFFECT_POINT_AND_ARCHAEOLOGIST: "1 archaeologist",
    pb.MYKERINOS_NILE_EFFECT_TWO_ARCHAEOLOGISTS: "2 archaeologists",
    pb.MYKERINOS_NILE_EFFECT_TIE_WINNER: "tie card",
    pb.MYKERINOS_NILE_EFFECT_EIGHT_POINTS: "special card",
}
#: Nile card ids 0-4 carry the Governor (see the protocol); a kept card that is not
#: a Governor is the tie card, the only other Nile card anybody keeps.
GOVERNOR_CARD_IDS = range(5)
#: Widest wing-name column of the museum (the panel is 46 cells; rooms take 27).
MUSEUM_NAME_MAX = 18
