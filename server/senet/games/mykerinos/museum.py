"""The museum: five wings in a random ring, their rooms, adjacency and values.

Room ids are independent of the ring order so that notation parses without a
state: the 3-room of patron ``p`` is ``p``, its 5-room ``5 + p``, and the 2-room
between patrons ``p < q`` is ``10 + pair_index(p, q)``. Only the five 2-rooms
between neighbouring wings exist in a given match; the other five ids name rooms
that this museum does not have.

Names: ``exp3``, ``exp5`` and ``col/exp`` (patron codes in canonical order;
parsing accepts either order).
"""

from __future__ import annotations

from itertools import combinations

from senet.games.errors import MalformedActionError
from senet.games.mykerinos.patrons import PATRON_CODES, PATRON_NAMES, PATRONS

WINGS = 5
ROOM_IDS = 20
_PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(WINGS), 2))
_PAIR_INDEX: dict[tuple[int, int], int] = {pair: i for i, pair in enumerate(_PAIRS)}
#: Only the five wing patrons name rooms (the Governor has no wing).
_WING_CODES: dict[str, int] = {PATRON_CODES[p]: int(p) for p in PATRONS}


def three_room(patron: int) -> int:
    return int(patron)


def five_room(patron: int) -> int:
    return WINGS + int(patron)


def two_room(p: int, q: int) -> int:
    return 2 * WINGS + _PAIR_INDEX[(min(p, q), max(p, q))]


def room_value(room: int) -> int:
    """Prestige per card of each of the room's patrons: 3, 5 or 2."""
    return 3 if room < WINGS else 5 if room < 2 * WINGS else 2


def room_patrons(room: int) -> tuple[int, ...]:
    """The patron(s) a room scores for (two for a 2-room)."""
    if room < 2 * WINGS:
        return (room % WINGS,)
    return _PAIRS[room - 2 * WINGS]


def room_name(room: int) -> str:
    """Stable notation of a room: ``exp3``, ``exp5`` or ``col/exp``."""
    if room < 2 * WINGS:
        return f"{PATRON_CODES[room % WINGS]}{room_value(room)}"
    p, q = room_patrons(room)
    return f"{PATRON_CODES[p]}/{PATRON_CODES[q]}"


def room_label(room: int, names: tuple[str, ...] = PATRON_NAMES) -> str:
    """Human name of a room, with the patron ``names`` of the edition played."""
    if room < 2 * WINGS:
        return f"{names[room % WINGS]} {room_value(room)}-room"
    p, q = room_patrons(room)
    return f"{names[p]}/{names[q]} 2-room"


def parse_room(text: str) -> int:
    """Parse a room name (``exp5``, ``exp3``, ``col/exp`` or ``exp/col``).

    Raises:
        MalformedActionError: not a room name.
    """
    t = text.lower()
    if "/" in t:
        left, _, right = t.partition("/")
        p, q = _WING_CODES.get(left), _WING_CODES.get(right)
        if p is not None and q is not None and p != q:
            return two_room(p, q)
    elif len(t) == 4 and t[3] in "35":
        p = _WING_CODES.get(t[:3])
        if p is not None:
            return three_room(p) if t[3] == "3" else five_room(p)
    raise MalformedActionError(
        f"{text!r} is not a museum room: use exp3, exp5 or a 2-room like col/exp "
        f"(patrons {', '.join(_WING_CODES)})"
    )


def ring_rooms(wing_order: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """The 15 rooms that exist in a museum whose wings stand in ``wing_order``."""
    rooms = [three_room(p) for p in wing_order] + [five_room(p) for p in wing_order]
    for i, p in enumerate(wing_order):
        rooms.append(two_room(p, wing_order[(i + 1) % WINGS]))
    return tuple(sorted(rooms))


def five_room_entries(wing_order: list[int] | tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """For each 5-room, the 2- and 3-rooms from which it may be entered."""
    entries: dict[int, tuple[int, ...]] = {}
    for i, p in enumerate(wing_order):
        before = wing_order[(i - 1) % WINGS]
        after = wing_order[(i + 1) % WINGS]
        entries[five_room(p)] = (three_room(p), two_room(before, p), two_room(p, after))
    return entries
