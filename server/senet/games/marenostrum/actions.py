"""Mare Nostrum actions: one small immutable value per decision, with its notation.

Spaces read as their short ids (``lati``, ``tyr``: see :mod:`.board`), cards as
``tax`` or a commodity name, seats as numbers.

===========================  ====================================================
``size 3``                   Director: every trader offers three cards
``offer grain``              add a card of your hand to your hidden offer
``take 2 wine``              take seat 2's face-up ``wine`` (the take chain)
``give tax``                 Director: give the player one card short this card
``grant 3``                  role holder: hand the tied role to seat 3
``next 2``                   role holder: seat 2 plays next in this phase
``god mars`` / ``pass``      make an offering to a god, or none
``invoke vulcan etru``       use a held god's power (``invoke baal etru wine``,
                             ``invoke poseidon tyr rome``, ``invoke hermes``,
                             ``invoke isis``, ``invoke mars pelo`` once that
                             battle's dice are seen, ``invoke ishtar commerce`` at
                             the role step)
``build legion lati``        build an item in a province (``caravan`` names the icon:
                             ``build caravan lati wine``)
``buy hercules``             buy a hero or a wonder (``buy pyramids``)
``convert etru``             complete a conversion: your influence replaces theirs
``pay grain``                pay one card of the set being paid
``gift wine``                after the revenue: the commodity the Queen of Sheba
                             (any) or the Hanging Gardens (one your caravans
                             produce) brings you
``pay grain artemis``        begin a set of commodities with the Temple of Artemis
                             counting as one more card of it
``swap grain tax``           Cleopatra: swap a card with the bank (commodity for tax,
                             or tax for a commodity)
``gild grain``               Midas: a commodity becomes two tax cards
``barter tax wine``          Ulysses, after the trading: give a card to the bank for
                             a commodity not in your hand
``gaze etru carthage``       Medusa: turn a legion of that civilization there to
                             stone
``enchant etru``             Circe, before a ground battle she fights there: one
                             legion of the other side does not roll
``capital troa``             free set-up: found the capital there
``sail lati tyr``            move (or launch) one trireme
``fight tyr carthage``       naval battle against that civilization there
``blockade aeg``             Greece: attack the invader's carrying trireme there
``via lib``                  a crossing to a Greek province: its chain goes on by
                             that sea of the mover's triremes
``move l lati etru``         move a legion (``c``: a creature)
``lose legion``              a battle destroys one of your legions
``sack city``                after battle: destroy a building (``sack caravan wine``)
``occupy`` / ``convert``     after battle: occupy, or start converting
``hold city``                occupation: put a unit on a building (``hold caravan
                             wine``, ``hold temple``, ``hold market``)
``done``                     end this turn's builds, moves or naval part
===========================  ====================================================
"""

from __future__ import annotations

from typing import NamedTuple

from senet.games.errors import MalformedActionError, UnknownActionError
from senet.games.marenostrum.board import PROVINCES, SPACE_IDS, space_index
from senet.games.marenostrum.cards import GOD_IDS, OWNABLE_IDS, SET_HELPERS
from senet.games.marenostrum.civilizations import CIV_IDS
from senet.games.marenostrum.commodities import CARD_NAMES, card_type
from senet.games.marenostrum.constants import ROLE_IDS, UNIT_KINDS
from senet.games.marenostrum.tokens import BUILDING_NAMES, ITEMS
from senet.games.notation import parse_number

SIZE = "size"
OFFER = "offer"
TAKE = "take"
GIVE = "give"
GRANT = "grant"
NEXT = "next"
GOD = "god"
PASS = "pass"
BUILD = "build"
BUY = "buy"
CONVERT = "convert"
PAY = "pay"
CAPITAL = "capital"
SAIL = "sail"
FIGHT = "fight"
MOVE = "move"
LOSE = "lose"
SACK = "sack"
OCCUPY = "occupy"
DONE = "done"
INVOKE = "invoke"
SWAP = "swap"
GILD = "gild"
BLOCKADE = "blockade"
BARTER = "barter"
GAZE = "gaze"
ENCHANT = "enchant"
VIA = "via"
HOLD = "hold"
GIFT = "gift"

CARD_KINDS = (OFFER, GIVE, PAY, GILD, GIFT)
SEAT_KINDS = (GRANT, NEXT)
BARE_KINDS = (PASS, OCCUPY, DONE)
ALL_KINDS = (
    SIZE,
    *CARD_KINDS,
    TAKE,
    *SEAT_KINDS,
    GOD,
    INVOKE,
    SWAP,
    BARTER,
    BUILD,
    BUY,
    CONVERT,
    CAPITAL,
    SAIL,
    FIGHT,
    BLOCKADE,
    VIA,
    GAZE,
    ENCHANT,
    MOVE,
    LOSE,
    SACK,
    HOLD,
    *BARE_KINDS,
)
UNIT_LETTERS = ("l", "c")
#: ``sack`` targets: the building kinds (a caravan also names its commodity).
SACK_KINDS = BUILDING_NAMES
MAX_SEATS = 6
#: The largest number ``size`` can name (three digits); legality decides the rest.
MAX_CARDS_NAMED = 999


class MareAction(NamedTuple):
    """A Mare Nostrum decision.

    Attributes:
        kind: One of the kind constants of this module.
        a: First argument (card type, seat, space, item, god, unit kind); -1 if none.
        b: Second argument (space, card type, civilization, the hero or wonder that
            counts in the set being paid); -1 if none.
        c: Third argument (the caravan's commodity, the destination); -1 if none.
    """

    kind: str
    a: int = -1
    b: int = -1
    c: int = -1

    def notation(self) -> str:
        """Canonical text form, e.g. ``"build caravan lati wine"``."""
        kind, a, b, c = self
        if kind in CARD_KINDS:
            text = f"{kind} {CARD_NAMES[a]}"
            return f"{text} {OWNABLE_IDS[b]}" if b >= 0 else text
        if kind in SEAT_KINDS or kind == SIZE:
            return f"{kind} {a}"
        if kind == TAKE:
            return f"{TAKE} {a} {CARD_NAMES[b]}"
        if kind in (SWAP, BARTER):
            return f"{kind} {CARD_NAMES[a]} {CARD_NAMES[b]}"
        if kind == GOD:
            return f"{GOD} {GOD_IDS[a]}"
        if kind == INVOKE:
            if b < 0:
                return f"{INVOKE} {GOD_IDS[a]}"
            if GOD_IDS[a] == "ishtar":
                return f"{INVOKE} {GOD_IDS[a]} {ROLE_IDS[b]}"
            text = f"{INVOKE} {GOD_IDS[a]} {SPACE_IDS[b]}"
            if c < 0:
                return text
            return f"{text} {CIV_IDS[c] if GOD_IDS[a] == 'poseidon' else CARD_NAMES[c]}"
        if kind == BUILD:
            text = f"{BUILD} {ITEMS[a]} {SPACE_IDS[b]}"
            return f"{text} {CARD_NAMES[c]}" if c >= 0 else text
        if kind == BUY:
            return f"{BUY} {OWNABLE_IDS[a]}"
        if kind == CONVERT:
            return CONVERT if a < 0 else f"{CONVERT} {SPACE_IDS[a]}"
        if kind in (CAPITAL, BLOCKADE, VIA, ENCHANT):
            return f"{kind} {SPACE_IDS[a]}"
        if kind == SAIL:
            return f"{SAIL} {SPACE_IDS[a]} {SPACE_IDS[b]}"
        if kind in (FIGHT, GAZE):
            return f"{kind} {SPACE_IDS[a]} {CIV_IDS[b]}"
        if kind == MOVE:
            return f"{MOVE} {UNIT_LETTERS[a]} {SPACE_IDS[b]} {SPACE_IDS[c]}"
        if kind == LOSE:
            return f"{LOSE} {UNIT_KINDS[a]}"
        if kind in (SACK, HOLD):
            text = f"{kind} {SACK_KINDS[a]}"
            return f"{text} {CARD_NAMES[b]}" if b >= 0 else text
        return kind

    def __str__(self) -> str:
        return self.notation()


def _index(table: tuple[str, ...], text: str, what: str) -> int:
    if text in table:
        return table.index(text)
    raise MalformedActionError(f"{text!r} is not {what}")


def _space(text: str) -> int:
    index = space_index(text)
    if index < 0:
        raise MalformedActionError(f"{text!r} is not a province or sea id")
    return index


def _province(text: str) -> int:
    index = _space(text)
    if index >= PROVINCES:
        raise MalformedActionError(f"{text!r} is a sea, not a province")
    return index


def _card(text: str) -> int:
    index = card_type(text)
    if index < 0:
        raise MalformedActionError(f"{text!r} is not a card (tax or a commodity)")
    return index


def _set_helper(text: str) -> int:
    index = _index(OWNABLE_IDS, text, "a hero or a wonder")
    if index not in SET_HELPERS:
        helpers = ", ".join(OWNABLE_IDS[i] for i in SET_HELPERS)
        raise MalformedActionError(f"{text!r} counts in no set of cards (only {helpers} does)")
    return index


def _seat(text: str) -> int:
    return parse_number(text, "a seat number", 0, MAX_SEATS - 1)


def _count(text: str) -> int:
    return parse_number(text, "a number of cards", 0, MAX_CARDS_NAMED)


_ARITY = {
    SIZE: (1,),
    OFFER: (1,),
    GIVE: (1,),
    PAY: (1, 2),
    GILD: (1,),
    GIFT: (1,),
    SWAP: (2,),
    BARTER: (2,),
    GAZE: (2,),
    ENCHANT: (1,),
    GRANT: (1,),
    NEXT: (1,),
    TAKE: (2,),
    GOD: (1,),
    INVOKE: (1, 2, 3),
    BUILD: (2, 3),
    BUY: (1,),
    CONVERT: (0, 1),
    CAPITAL: (1,),
    BLOCKADE: (1,),
    VIA: (1,),
    SAIL: (2,),
    FIGHT: (2,),
    MOVE: (3,),
    LOSE: (1,),
    SACK: (1, 2),
    HOLD: (1, 2),
}


#: Words of an ``invoke`` per god (the god's id included); Athena is never invoked
#: (she guards her holder always).
_INVOKE_WORDS = {
    "hermes": 1,
    "isis": 1,
    "mars": 2,
    "ishtar": 2,
    "vulcan": 2,
    "baal": 3,
    "poseidon": 3,
}


def parse_action(text: str) -> MareAction:
    """Parse Mare Nostrum notation (syntax only; legality is the state's concern).

    Raises:
        MalformedActionError: the text is not Mare Nostrum notation.
    """
    if not isinstance(text, str):
        raise MalformedActionError(f"action notation must be text, got {type(text).__name__}")
    tokens = text.lower().split()
    if not tokens:
        raise MalformedActionError("empty action")
    kind, args = tokens[0], tokens[1:]
    if kind in BARE_KINDS:
        if args:
            raise MalformedActionError(f"{kind!r} takes no arguments")
        return MareAction(kind)
    arity = _ARITY.get(kind)
    if arity is None:
        raise UnknownActionError(kind)
    if len(args) not in arity:
        raise MalformedActionError(f"{kind!r} takes {' or '.join(map(str, arity))} argument(s)")
    A = MareAction
    if kind == SIZE:
        return A(SIZE, _count(args[0]))
    if kind == PAY and len(args) == 2:
        card = _card(args[0])
        if card == 0:
            raise MalformedActionError("only a set of commodities counts a card more, not tax")
        return A(PAY, card, _set_helper(args[1]))
    if kind in CARD_KINDS:
        return A(kind, _card(args[0]))
    if kind in SEAT_KINDS:
        return A(kind, _seat(args[0]))
    if kind == TAKE:
        return A(TAKE, _seat(args[0]), _card(args[1]))
    if kind == SWAP:
        give, get = _card(args[0]), _card(args[1])
        if (give == 0) == (get == 0):
            raise MalformedActionError("swap trades a commodity for tax or tax for a commodity")
        return A(SWAP, give, get)
    if kind == BARTER:
        give, get = _card(args[0]), _card(args[1])
        if get == 0 or give == get:
            raise MalformedActionError("barter gives a card for a different commodity")
        return A(BARTER, give, get)
    if kind == GAZE:
        return A(GAZE, _province(args[0]), _index(CIV_IDS, args[1], "a civilization"))
    if kind == GOD:
        return A(GOD, _index(GOD_IDS, args[0], "a god"))
    if kind == INVOKE:
        god = _index(GOD_IDS, args[0], "a god")
        words = _INVOKE_WORDS.get(GOD_IDS[god])
        if words is None:
            raise MalformedActionError(f"{args[0]} is never invoked: her power acts by itself")
        if len(args) != words:
            raise MalformedActionError(
                "invoke names the god, then what it acts on: Hermes and Isis nothing, Mars "
                "the battle's province, Ishtar a role, Vulcan a province, Baal the "
                "commodity's province and the commodity, Poseidon the sea and the "
                "civilization: invoke hermes, invoke mars pelo, invoke ishtar commerce, "
                "invoke vulcan etru, invoke baal etru wine, invoke poseidon tyr rome"
            )
        if words == 1:
            return A(INVOKE, god)
        if GOD_IDS[god] == "ishtar":
            return A(INVOKE, god, _index(ROLE_IDS, args[1], "a role"))
        space = _space(args[1])
        if GOD_IDS[god] == "poseidon":
            return A(INVOKE, god, space, _index(CIV_IDS, args[2], "a civilization"))
        if GOD_IDS[god] == "baal":
            commodity = _card(args[2])
            if commodity == 0:
                raise MalformedActionError("Baal destroys a caravan of a commodity, not tax")
            return A(INVOKE, god, space, commodity)
        return A(INVOKE, god, space)
    if kind == BUILD:
        item = _index(ITEMS, args[0], "an item to build")
        caravan = item == ITEMS.index("caravan")
        if caravan != (len(args) == 3):
            raise MalformedActionError("a caravan names its commodity: build caravan lati wine")
        commodity = _card(args[2]) if caravan else -1
        if commodity == 0:
            raise MalformedActionError("a caravan carries a commodity, not tax")
        return A(BUILD, item, _province(args[1]), commodity)
    if kind == BUY:
        return A(BUY, _index(OWNABLE_IDS, args[0], "a hero or a wonder"))
    if kind == CONVERT:
        return A(CONVERT, _province(args[0]) if args else -1)
    if kind in (CAPITAL, ENCHANT):
        return A(kind, _province(args[0]))
    if kind == SAIL:
        return A(SAIL, _space(args[0]), _space(args[1]))
    if kind in (BLOCKADE, VIA):
        sea = _space(args[0])
        if sea < PROVINCES:
            raise MalformedActionError(f"{kind} names a sea, not a province")
        return A(kind, sea)
    if kind == FIGHT:
        sea = _space(args[0])
        if sea < PROVINCES:
            raise MalformedActionError("naval battles are fought at sea")
        return A(FIGHT, sea, _index(CIV_IDS, args[1], "a civilization"))
    if kind == MOVE:
        unit = _index(UNIT_LETTERS, args[0], "a unit letter (l or c)")
        return A(MOVE, unit, _province(args[1]), _province(args[2]))
    if kind == LOSE:
        return A(LOSE, _index(UNIT_KINDS, args[0], "a unit kind"))
    # SACK, HOLD
    building = _index(SACK_KINDS, args[0], "a building")
    caravan = building == 0
    if caravan != (len(args) == 2):
        raise MalformedActionError(f"a caravan names its commodity: {kind} caravan wine")
    commodity = _card(args[1]) if caravan else -1
    if commodity == 0:
        raise MalformedActionError("a caravan carries a commodity, not tax")
    return A(kind, building, commodity)


def is_well_formed(action: MareAction) -> bool:
    """Whether an action value is one :func:`parse_action` could return."""
    if not all(type(x) is int for x in action[1:]) or not isinstance(action.kind, str):
        return False
    try:
        return parse_action(action.notation()) == action
    except (MalformedActionError, IndexError, TypeError):
        return False
