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
=====================  ===============================================

Placements are written (and compared) with their spaces sorted: two orders that
put archaeologists on the same spaces give the same result, so they are one action.
Whether *some* order satisfies the chain rules is the state's business.
"""

from __future__ import annotations

from typing import NamedTuple

from server.games.errors import MalformedActionError
from server.games.mykerinos.museum import parse_room, room_name
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
}
ROOM_KINDS = (DIRECTOR, MUSEUM)
SIDE_KINDS = (TAKE, DISCARD)
BARE_KINDS = (PASS, NEUTRAL_SKIP)
PATRON_KINDS = (CURATOR, COLONEL, EXPLORER, HEIRESS, DIRECTOR)
SIDES = ("l", "r")


class MykerinosAction(NamedTuple):
    """A Mykerinos decision.

    Attributes:
        kind: One of the kind constants of this module.
        spaces: Region spaces, sorted, for placements.
        arg: Room id for ``dir``/``mus``; side (0 left, 1 right) for ``take``/``discard``.
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
        return self.kind

    def __str__(self) -> str:
        return self.notation()


def placement(kind: str, *spaces: int) -> MykerinosAction:
    """A placement action with its spaces in canonical (sorted) order."""
    return MykerinosAction(kind, tuple(sorted(spaces)))


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
        if len(args) != 1 or args[0] not in ("l", "r", "left", "right"):
            raise MalformedActionError(f"{kind!r} takes l or r (the left or right plot)")
        return MykerinosAction(kind, (), 0 if args[0].startswith("l") else 1)
    if kind in BARE_KINDS:
        if args:
            raise MalformedActionError(f"{kind!r} takes no arguments")
        return MykerinosAction(kind)
    known = sorted([*PLACEMENT_SIZES, *ROOM_KINDS, *SIDE_KINDS, *BARE_KINDS])
    raise MalformedActionError(f"unknown action {kind!r}; actions are: {', '.join(known)}")
