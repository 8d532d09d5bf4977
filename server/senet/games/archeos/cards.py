"""Archeos Society cards: colours, roles, card types and the deck's composition.

A card is identified by its *type* only, an ``int``: ``role * COLOURS + colour``.
Two cards of the same role and colour are interchangeable in every rule, so hands,
the display and the deck are lists of types, and an action that names a card names
its type (``"take r-bot"``); two copies never make two different actions.

The three monkey cards have their own type, :data:`MONKEY`, after the 72 role cards.

Deck composition (designed; see ``docs/rules/archeos.md`` A-1): the box holds 159
cards = 11 roles x 12 cards + 24 Students + 3 monkeys, so every role has 2 cards of
each of the 6 colours and the Student 4 of each colour.
"""

from __future__ import annotations

from enum import IntEnum

from senet.games.errors import MalformedActionError


class Colour(IntEnum):
    """The six colours; each matches one site board."""

    RED = 0
    ORANGE = 1
    YELLOW = 2
    GREEN = 3
    BLUE = 4
    PURPLE = 5


COLOURS = len(Colour)
COLOUR_NAMES: tuple[str, ...] = tuple(c.name.lower() for c in Colour)
#: One letter per colour, used in card and site notation.
COLOUR_LETTERS: tuple[str, ...] = ("r", "o", "y", "g", "b", "p")


class Role(IntEnum):
    """The twelve roles (character art); six are used in a game."""

    BOTANIST = 0
    CARTOGRAPHER = 1
    CURATOR = 2
    GUIDE = 3
    LINGUIST = 4
    MERCENARY = 5
    PATRON = 6
    PHOTOGRAPHER = 7
    PHYSICIAN = 8
    PILOT = 9
    PROFESSOR = 10
    STUDENT = 11


ROLES = len(Role)
ROLE_NAMES: tuple[str, ...] = tuple(r.name.lower() for r in Role)
#: Three-letter codes used in notation; unique, so a card reads ``r-bot``.
ROLE_CODES: tuple[str, ...] = tuple(name[:3] for name in ROLE_NAMES)
ROLES_PER_GAME = 6

#: Copies of each (role, colour) card in the box.
COPIES: tuple[int, ...] = tuple(4 if r == Role.STUDENT else 2 for r in Role)

CARD_TYPES = ROLES * COLOURS
MONKEY = CARD_TYPES
MONKEYS = 3
HAND_LIMIT = 10
#: "Split the deck in half-ish" (line 28): the cut falls at most this share of the
#: cards (in percent) away from the middle, either way (A-7; designed, like the boards).
CUT_SPREAD_PERCENT = 10


def cut_bounds(cards: int) -> tuple[int, int]:
    """The fewest and the most cards the upper part of a half-ish cut of ``cards``
    holds; every point between is as likely (A-7)."""
    middle = cards // 2
    spread = cards * CUT_SPREAD_PERCENT // 100
    return middle - spread, middle + spread


def card(role: int, colour: int) -> int:
    """The type of the card of ``role`` and ``colour``."""
    return role * COLOURS + colour


def role_of(card_type: int) -> int:
    """Role of a (non-monkey) card type."""
    return card_type // COLOURS


def colour_of(card_type: int) -> int:
    """Colour of a (non-monkey) card type."""
    return card_type % COLOURS


#: Notation of every card type, indexed by type (the monkey last); a table because
#: events name cards on every move.
CARD_NAMES: tuple[str, ...] = (
    *(f"{COLOUR_LETTERS[t % COLOURS]}-{ROLE_CODES[t // COLOURS]}" for t in range(CARD_TYPES)),
    "monkey",
)


def card_name(card_type: int) -> str:
    """Notation of a card type, e.g. ``"r-bot"`` (``"monkey"`` for a monkey)."""
    return CARD_NAMES[card_type]


def card_label(card_type: int) -> str:
    """Human name of a card type, e.g. ``"red Botanist"``."""
    if card_type == MONKEY:
        return "monkey"
    return f"{COLOUR_NAMES[colour_of(card_type)]} {ROLE_NAMES[role_of(card_type)].capitalize()}"


_BY_NAME = {card_name(t): t for t in range(CARD_TYPES)}


def parse_card(text: str) -> int:
    """The card type named by ``text`` (``"r-bot"``; also ``"red-botanist"``).

    Raises:
        MalformedActionError: no card has that name.
    """
    token = text.strip().lower()
    if token in _BY_NAME:
        return _BY_NAME[token]
    colour_text, _, role_text = token.partition("-")
    colour = _index_of(colour_text, COLOUR_LETTERS, COLOUR_NAMES)
    role = _index_of(role_text, ROLE_CODES, ROLE_NAMES)
    if colour is None or role is None:
        raise MalformedActionError(
            f"{text!r} is not a card; cards read colour-role, like r-bot or b-stu "
            f"(colours {'/'.join(COLOUR_LETTERS)}, roles {'/'.join(ROLE_CODES)})"
        )
    return card(role, colour)


def _index_of(text: str, short: tuple[str, ...], long: tuple[str, ...]) -> int | None:
    if text in short:
        return short.index(text)
    if text in long:
        return long.index(text)
    return None


def deck_for(roles: list[int]) -> list[int]:
    """Every role card of the chosen roles (no monkeys), in type order."""
    out: list[int] = []
    for role in sorted(roles):
        for colour in range(COLOURS):
            out.extend([card(role, colour)] * COPIES[role])
    return out
