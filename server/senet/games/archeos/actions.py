"""Archeos Society actions: one small immutable value per decision, with its notation.

An expedition is played in steps so that every decision has few options (bots search
them, people pick from a short list): choose the leader and whether the expedition
goes by colour or by role, add cards one at a time, then ``go``. Cards are added in
card-type order (each added card is not before the previous one), so each set of
cards is reached in exactly one way (A-13).

Notation (case-insensitive). Cards read ``colour-role``: ``r-bot`` is a red Botanist.
Sites read as their colour letter; ``y2`` is the second vehicle on Ta-Sekhet-Ma'at.

=====================  =====================================================
``take r-bot``         take that card from the display
``draw``               draw from the deck (2 cards when the display is empty);
                       Patron: draw the expedition's size; Chichén Itzá: one card
``lead r-bot col``     start an expedition led by that card, all of its colour
``lead r-bot role``    start an expedition led by that card, all of its role
``add b-stu``          add a card to the expedition being built
``go``                 the expedition is complete: resolve it
``adv g`` / ``adv y2`` advance that vehicle (Pilot, Ta-Sekhet-Ma'at, Linguist,
                       Professor)
``back g``             move that vehicle back one space (Professor, lowest)
``cash`` / ``stay``    Uluru: take the points and restart, or stay
``prof 3``             take that Professor token
``keep r-bot``         Physician: keep that card in hand
``done``               no more cards to keep / no extra expedition (Cartographer)
``pass``               Ur: play no expedition at season end
``skip``               decline: no advance (expedition or linguist artifact), no
                       Patron draw, no more Chichén Itzá cards (A-9)
=====================  =====================================================
"""

from __future__ import annotations

from typing import NamedTuple

from senet.games.archeos.cards import CARD_TYPES, COLOUR_LETTERS, COLOURS, card_name, parse_card
from senet.games.archeos.sites import PROFESSOR_TOKENS, Special
from senet.games.errors import MalformedActionError, UnknownActionError
from senet.games.notation import read_number

TAKE = "take"
DRAW = "draw"
LEAD = "lead"
ADD = "add"
GO = "go"
ADVANCE = "adv"
BACK = "back"
CASH = "cash"
STAY = "stay"
PROFESSOR = "prof"
KEEP = "keep"
DONE = "done"
PASS = "pass"
SKIP = "skip"

CARD_KINDS = (TAKE, ADD, KEEP)
TARGET_KINDS = (ADVANCE, BACK)
BARE_KINDS = (DRAW, GO, CASH, STAY, DONE, PASS, SKIP)
ALL_KINDS = (*CARD_KINDS, LEAD, *TARGET_KINDS, PROFESSOR, *BARE_KINDS)

BY_COLOUR = 0
BY_ROLE = 1
BASIS_NAMES = ("col", "role")

#: Vehicle targets: sites 0..5 (first vehicle), and 6 for Ta-Sekhet-Ma'at's second.
SECOND_VEHICLE = COLOURS
TARGETS = COLOURS + 1


def target_name(target: int) -> str:
    """Notation of a vehicle target: ``"g"``, or ``"y2"`` for the second vehicle."""
    if target == SECOND_VEHICLE:
        return "y2"
    return COLOUR_LETTERS[target]


def site_of_target(target: int) -> int:
    """The site a vehicle target stands on: its own, or Ta-Sekhet-Ma'at for ``y2``."""
    return int(Special.TA_SEKHET_MAAT) if target == SECOND_VEHICLE else target


def parse_target(text: str) -> int:
    """A vehicle target from its notation.

    Raises:
        MalformedActionError: not a target.
    """
    if text == "y2":
        return SECOND_VEHICLE
    if text in COLOUR_LETTERS:
        return COLOUR_LETTERS.index(text)
    raise MalformedActionError(
        f"{text!r} is not a site; sites are {', '.join(COLOUR_LETTERS)} (and y2)"
    )


class ArcheosAction(NamedTuple):
    """An Archeos Society decision.

    Attributes:
        kind: One of the kind constants of this module.
        card: Card type for ``take``/``lead``/``add``/``keep``; -1 otherwise.
        arg: Basis for ``lead`` (0 colour, 1 role); target for ``adv``/``back``;
            token value for ``prof``; -1 otherwise.
    """

    kind: str
    card: int = -1
    arg: int = -1

    def notation(self) -> str:
        """Canonical text form, e.g. ``"lead r-bot col"``."""
        if self.kind in CARD_KINDS:
            return f"{self.kind} {card_name(self.card)}"
        if self.kind == LEAD:
            return f"{LEAD} {card_name(self.card)} {BASIS_NAMES[self.arg]}"
        if self.kind in TARGET_KINDS:
            return f"{self.kind} {target_name(self.arg)}"
        if self.kind == PROFESSOR:
            return f"{PROFESSOR} {self.arg}"
        return self.kind

    def __str__(self) -> str:
        return self.notation()


def parse_action(text: str) -> ArcheosAction:
    """Parse Archeos notation (syntax only; legality is the state's concern).

    Raises:
        MalformedActionError: the text is not Archeos notation.
    """
    if not isinstance(text, str):
        raise MalformedActionError(f"action notation must be text, got {type(text).__name__}")
    tokens = text.lower().split()
    if not tokens:
        raise MalformedActionError("empty action")
    kind, args = tokens[0], tokens[1:]
    if kind in CARD_KINDS:
        if len(args) != 1:
            raise MalformedActionError(f"{kind!r} takes one card, like {kind} r-bot")
        return ArcheosAction(kind, parse_card(args[0]))
    if kind == LEAD:
        if len(args) != 2 or args[1] not in BASIS_NAMES:
            raise MalformedActionError("'lead' takes a card and col or role, like lead r-bot col")
        return ArcheosAction(LEAD, parse_card(args[0]), BASIS_NAMES.index(args[1]))
    if kind in TARGET_KINDS:
        if len(args) != 1:
            raise MalformedActionError(f"{kind!r} takes one site, like {kind} g")
        return ArcheosAction(kind, -1, parse_target(args[0]))
    if kind == PROFESSOR:
        low, high = PROFESSOR_TOKENS[0], PROFESSOR_TOKENS[-1]
        value = read_number(args[0], low, high) if len(args) == 1 else None
        if value is None or value not in PROFESSOR_TOKENS:
            got = repr(" ".join(args)) if args else "nothing"
            raise MalformedActionError(f"'prof' takes a token value {low}-{high}, not {got}")
        return ArcheosAction(PROFESSOR, -1, value)
    if kind in BARE_KINDS:
        if args:
            raise MalformedActionError(f"{kind!r} takes no arguments")
        return ArcheosAction(kind)
    raise UnknownActionError(kind)


def is_well_formed(action: ArcheosAction) -> bool:
    """Whether an action value is one :func:`parse_action` could return."""
    kind, card, arg = action
    if kind in CARD_KINDS:
        return type(card) is int and 0 <= card < CARD_TYPES and type(arg) is int and arg == -1
    if kind == LEAD:
        return type(card) is int and 0 <= card < CARD_TYPES and type(arg) is int and arg in (0, 1)
    if kind in TARGET_KINDS:
        return type(card) is int and card == -1 and type(arg) is int and 0 <= arg < TARGETS
    if kind == PROFESSOR:
        return type(card) is int and card == -1 and type(arg) is int and arg in PROFESSOR_TOKENS
    return kind in BARE_KINDS and type(card) is int and type(arg) is int and card == arg == -1
