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
``leave``              team game: leave the last plot to your teammate placed behind
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
from functools import lru_cache
from itertools import compress
from typing import NamedTuple

from senet.games.errors import MalformedActionError, UnknownActionError
from senet.games.mykerinos.museum import ROOM_IDS, parse_room, room_name
from senet.games.mykerinos.patrons import CODE_TO_PATRON, PATRON_CODES, PATRONS
from senet.games.mykerinos.placements import PAIR_SHAPES, TRIPLE_SHAPES
from senet.games.mykerinos.region import MAX_SPACES, parse_space, space_name

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
LEAVE = "leave"

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
BARE_KINDS = (PASS, NEUTRAL_SKIP, USE_TIE, KEEP_TIE, LEAVE)
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
        """Canonical text form, e.g. ``"b c3 d3"`` (spelled once per action: a
        prompt spells every legal action, prompt after prompt)."""
        return _spelled(self)

    def _spell(self) -> str:
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

#: MykerinosAction.notation, kept for a few games' worth of distinct actions
#: (bounded: parsed client input cannot grow it without end).
_spelled = lru_cache(maxsize=50_000)(MykerinosAction._spell)


#: One-space placements of every kind that has them, by space: most legal actions
#: are these, so the move generator picks them from here instead of building them.
_SINGLES: dict[str, tuple[MykerinosAction, ...]] = {
    kind: tuple(_new_action(MykerinosAction, (kind, (i,), -1)) for i in range(MAX_SPACES))
    for kind, sizes in PLACEMENT_SIZES.items()
    if 1 in sizes
}


def _shape_table(kind: str, shapes: tuple[tuple[int, ...], ...]) -> tuple[MykerinosAction, ...]:
    """``kind`` on every shape at every space, laid out like
    ``placements.shape_selectors``. Entries that wrap around a row or fall off
    the largest region are never selected."""
    return tuple(
        _new_action(MykerinosAction, (kind, (i, *(i + d for d in offsets)), -1))
        for i in range(MAX_SPACES)
        for offsets in shapes
    )


#: Chained placements of two (three) spaces, by kind.
_PAIRS: dict[str, tuple[MykerinosAction, ...]] = {
    kind: _shape_table(kind, PAIR_SHAPES) for kind, sizes in PLACEMENT_SIZES.items() if 2 in sizes
}
_TRIPLES: dict[str, tuple[MykerinosAction, ...]] = {
    kind: _shape_table(kind, TRIPLE_SHAPES) for kind, sizes in PLACEMENT_SIZES.items() if 3 in sizes
}


def singles_of(kind: str, selectors: Iterable[int]) -> list[MykerinosAction]:
    """One-space placements of ``kind``: byte ``i`` of ``selectors`` picks space ``i``."""
    return list(compress(_SINGLES[kind], selectors))


def pairs_of(kind: str, selectors: Iterable[int]) -> list[MykerinosAction]:
    """Two-space placements of ``kind``, picked by ``placements.shape_selectors``."""
    return list(compress(_PAIRS[kind], selectors))


def triples_of(kind: str, selectors: Iterable[int]) -> list[MykerinosAction]:
    """Three-space placements of ``kind``, picked by ``placements.shape_selectors``."""
    return list(compress(_TRIPLES[kind], selectors))


def _table(kind: str, count: int) -> tuple[MykerinosAction, ...]:
    return tuple(MykerinosAction(kind, (), arg) for arg in range(count))


#: Actions with an argument, by argument: shared values, built once.
ROOM_ACTIONS: dict[str, tuple[MykerinosAction, ...]] = {k: _table(k, ROOM_IDS) for k in ROOM_KINDS}
SIDE_ACTIONS: dict[str, tuple[MykerinosAction, ...]] = {
    k: _table(k, len(SIDES)) for k in SIDE_KINDS
}
DRAFT_ACTIONS: tuple[MykerinosAction, ...] = _table(DRAFT, len(PATRON_CODES))
BLOCK_ACTIONS: dict[int, MykerinosAction] = {
    target: MykerinosAction(BLOCK, (), target)
    for target in (*range(MAX_SPACES), *range(ROOM_TARGET, ROOM_TARGET + ROOM_IDS))
}
PASS_ACTION = MykerinosAction(PASS)
NEUTRAL_SKIP_ACTION = MykerinosAction(NEUTRAL_SKIP)
USE_TIE_ACTION = MykerinosAction(USE_TIE)
KEEP_TIE_ACTION = MykerinosAction(KEEP_TIE)
LEAVE_ACTION = MykerinosAction(LEAVE)


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
    if type(text) is str:
        return _parse_cached(text)
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> MykerinosAction:
    """:func:`_parse` remembered: the same few hundred notations come in all the time.

    Only exact ``str`` comes here (a subclass could compare equal to a cached key
    and yet parse differently); errors are raised, so never cached.
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def canonical_action(kind: str, spaces: tuple[int, ...], arg: int) -> MykerinosAction | None:
    """The canonical action whose fields are these, or None if there is none.

    Normalizes through the notation, so a value with unsorted spaces, an unknown
    kind or out-of-range numbers is treated exactly like the text a client could
    have typed. Remembered: the service checks the same values again and again.
    Callers pass exact ``str``/``tuple``/``int`` values only (a bool or a float
    compares equal to an int, but must not hit that int's entry).

    Raises:
        MalformedActionError: the notation of these fields does not parse.
    """
    try:
        text = MykerinosAction(kind, spaces, arg).notation()
    except (IndexError, ValueError):
        text = ""
    if text:
        parsed = parse_action(text)
        if tuple(parsed) == (kind, tuple(sorted(spaces)), arg):
            return parsed
    return None


def _parse(text: str) -> MykerinosAction:
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
    raise UnknownActionError(kind)
