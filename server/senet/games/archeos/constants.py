"""Archeos Society constants shared by the state, its labels and its snapshots."""

from __future__ import annotations

# Steps: what the seat to move is deciding.
TURN = "turn"
BUILD = "build"
CHOOSE_ADVANCE = "choose_advance"
ULURU = "uluru"
LINGUIST = "linguist"
PROFESSOR = "professor"
EXTRA = "extra"
KEEP = "keep"
UR = "ur"
PROFESSOR_MOVE = "professor_move"
OVER = "over"
PATRON = "patron"
CHICHEN = "chichen"
#: Wire and snapshot order: new steps go at the end.
STEPS = (
    TURN,
    BUILD,
    CHOOSE_ADVANCE,
    ULURU,
    LINGUIST,
    PROFESSOR,
    EXTRA,
    KEEP,
    UR,
    PROFESSOR_MOVE,
    OVER,
    PATRON,
    CHICHEN,
)
NO_SEAT = -1


def seasons_for(seats: int) -> int:
    """Seasons played: 2 with 2-3 players, 3 with 4-6."""
    return 2 if seats <= 3 else 3
