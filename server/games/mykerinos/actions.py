"""Mykerinos actions: one small immutable value per decision, with its notation.

Notation (case-insensitive; spaces like ``c2``, rooms like ``exp5`` or ``col/exp``):

=====================  ===============================================
``a c2``               A: start an excavation
``b c3 d3``            B: expand an excavation with two archaeologists
``cur c2 c3``          Curator: start with two adjacent archaeologists
``col c3 d3 e3``       Colonel: expand with three archaeologists
``exp c2``             Explorer: start on a pyramid
``exp c3 d3``          Explorer: expand, exactly one of the two on a pyramid
``hei c2``             Heiress: take one from the general reserve, then start
``hei c3 d3``          Heiress: take one from the general reserve, then expand
``dir exp5``           Director: one archaeologist into a museum room
``pass``               D: pass
``na c2``/``nb c3 d3`` two-player game: the neutral player starts / expands
``nskip``              two-player game: no neutral action this turn
``take l``/``take r``  delimitation: claim the left / right plot of the area
``mus exp5``           delimitation: one of your archaeologists of the area to the museum
``discard l``          two-player game: which plot the neutral player discards
``ta c2``/``tb c3 d3`` team game: start / expand with your teammate's archaeologists
``draft cur``          quick game: take a revealed plot of that patron
``gov c2``             The Nile, Governor: start (or ``gov c3 d3``: expand), then ...
``block f5``           ... put a blocking token on a space (or a room: ``block exp5``)
``take n1``            The Nile: claim the Nile card of area row 1 (2, 3)
``discard n1``         The Nile, two-player game: the neutral player discards it
``usetie``/``keeptie`` The Nile: discard the tie card to win this tie, or keep it
=====================  ===============================================

Placements are written (and compared) with their spaces sorted: two orders that
put archaeologists on the same spaces give the same result, so they are one action.
Whether *some* order satisfies the chain rules is the state's business.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from server.games.errors import MalformedActionError
from server.games.mykerinos.museum import parse_room, room_name
from server.games.mykerinos.patrons import CODE_TO_PATRON, PATRON_CODES, PATRONS
from server.games.mykerinos.region import parse_space, space_name

START = "a"
EXPAND = "b"
CURATOR = "cur"
COLONEL = "col"
EXPLORER = "exp"
HEIRESS = "hei"
DIRECTOR = "dir"
PASS = "pass"
NEUTRAL_START = "na"
NEUTRAL_EXPAND = "nb"
NEUTRAL_SKIP = "nskip"
TAKE = "take"
MUSEUM = "mus"
DISCARD = "discard"
TEAM_START = "ta"
TEAM_EXPAND = "tb"
DRAFT = "draft"
GOVERNOR = "gov"
BLOCK = "block"
USE_TIE = "usetie"
KEEP_TIE = "keeptie"

#: Kinds that place archaeologists on the region, and how many spaces each takes.
PLACEMENT_SIZES: dict[str, tuple[int, ...]] = {
    START: (1,),
    EXPAND: (2,),
    CURATOR: (2,),
    COLONEL: (3,),
    EXPLORER: (1, 2),
    HEIRESS: (1, 2),
    NEUTRAL_START: (1,),
    NEUTRAL_EXPAND: (2,),
    TEAM_START: (1,),
    TEAM_EXPAND: (2,),
    GOVERNOR: (1, 2),
}
ROOM_KINDS = (DIRECTOR, MUSEUM)
SIDE_KINDS = (TAKE, DISCARD)
BARE_KINDS = (PASS, NEUTRAL_SKIP, USE_TIE, KEEP_TIE)
PATRON_KINDS = (CURATOR, COLONEL, EXPLORER, HEIRESS, DIRECTOR, GOVERNOR)
#: ``take``/``discard`` arguments: the left and right plot, then the Nile cards of
#: area rows 1-3 (args 2-4).
SIDES = ("l", "r", "n1", "n2", "n3")
NILE_SIDE = 2
#: ``block`` arguments: region spaces, then museum rooms from ``ROOM_TARGET``.
ROOM_TARGET = 100


class MykerinosAction(NamedTuple):
    """A Mykerinos decision.

    Attributes:
        kind: One of the kind constants of this module.
        spaces: Region spaces, sorted, for placements.
        arg: Room id for ``dir``/``mus``; side for ``take``/``discard`` (0 left and
            1 right plot, 2-4 the Nile card of area row 1-3); patron for ``draft``;
            blocking-token target for ``block`` (a space, or ``ROOM_TARGET`` + room).
    """

    kind: str
    spaces: tuple[int, ...] = ()
    arg: int = -1

    def notation(self) -> str:
        """Canonical text form, e.g. ``"b c3 d3"``."""
        if self.spaces:
            return " ".join((self.kind, *map(space_name, self.spaces)))
        if self.kind in ROOM_KINDS:
            return f"{self.kind} {room_name(self.arg)}"
        if self.kind in SIDE_KINDS:
            return f"{self.kind} {SIDES[self.arg]}"
        if self.kind == DRAFT:
            return f"{self.kind} {PATRON_CODES[self.arg]}"
        if self.kind == BLOCK:
            return f"{self.kind} {block_target_name(self.arg)}"
        return self.kind

    def __str__(self) -> str:
        return self.notation()


_new_action = tuple.__new__  # the NamedTuple's own __new__ without its Python frame


def placements_of(kind: str, placements: Iterable[tuple[int, ...]]) -> list[MykerinosAction]:
    """One action of ``kind`` per placement (already sorted tuples of spaces).

    The move generator's inner loop: it builds dozens of actions per decision,
    so it skips the generated ``__new__`` and builds the tuples directly.
    """
    return [_new_action(MykerinosAction, (kind, spaces, -1)) for spaces in placements]


def placement(kind: str, *spaces: int) -> MykerinosAction:
    """A placement action with its spaces in canonical (sorted) order."""
    return MykerinosAction(kind, tuple(sorted(spaces)))


def block_target_name(target: int) -> str:
    """A blocking token's place: a space (``f5``) or a museum room (``exp5``)."""
    if target >= ROOM_TARGET:
        return room_name(target - ROOM_TARGET)
    return space_name(target)


def parse_block_target(text: str) -> int:
    """``"f5"`` -> the space; ``"exp5"`` -> ``ROOM_TARGET`` + the room.

    Raises:
        MalformedActionError: neither a space nor a room.
    """
    if len(text) == 2:
        return parse_space(text)
    return ROOM_TARGET + parse_room(text)


def parse_action(text: str) -> MykerinosAction:
    """Parse Mykerinos notation (syntax only; legality is the state's concern).

    Raises:
        MalformedActionError: the text is not Mykerinos notation.
    """
    if not isinstance(text, str):
        raise MalformedActionError(f"action notation must be text, got {type(text).__name__}")
    tokens = text.replace(",", " ").lower().split()
    if not tokens:
        raise MalformedActionError("empty action")
    kind, args = tokens[0], tokens[1:]
    if kind in PLACEMENT_SIZES:
        sizes = PLACEMENT_SIZES[kind]
        if len(args) not in sizes:
            want = " or ".join(str(n) for n in sizes)
            raise MalformedActionError(f"{kind!r} takes {want} space(s), got {len(args)}")
        spaces = [parse_space(a) for a in args]
        if len(set(spaces)) != len(spaces):
            raise MalformedActionError(f"{text!r} names the same space twice")
        return placement(kind, *spaces)
    if kind in ROOM_KINDS:
        if len(args) != 1:
            raise MalformedActionError(f"{kind!r} takes one museum room, like {kind} exp5")
        return MykerinosAction(kind, (), parse_room(args[0]))
    if kind in SIDE_KINDS:
        aliases = {"left": "l", "right": "r"}
        side = aliases.get(args[0], args[0]) if len(args) == 1 else ""
        if side not in SIDES:
            raise MalformedActionError(
                f"{kind!r} takes l or r (the left or right plot), or n1-n3 (a Nile card)"
            )
        return MykerinosAction(kind, (), SIDES.index(side))
    if kind == DRAFT:
        patron = CODE_TO_PATRON.get(args[0]) if len(args) == 1 else None
        if patron is None or patron not in PATRONS:
            codes = ", ".join(PATRON_CODES[p] for p in PATRONS)
            raise MalformedActionError(f"'draft' takes a patron code: {codes}")
        return MykerinosAction(kind, (), int(patron))
    if kind == BLOCK:
        if len(args) != 1:
            raise MalformedActionError("'block' takes a space (f5) or a museum room (exp5)")
        return MykerinosAction(kind, (), parse_block_target(args[0]))
    if kind in BARE_KINDS:
        if args:
            raise MalformedActionError(f"{kind!r} takes no arguments")
        return MykerinosAction(kind)
    known = sorted([*PLACEMENT_SIZES, *ROOM_KINDS, *SIDE_KINDS, *BARE_KINDS, DRAFT, BLOCK])
    raise MalformedActionError(f"unknown action {kind!r}; actions are: {', '.join(known)}")
