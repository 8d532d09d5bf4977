"""Who is who in a Mare Nostrum match, and how cards, civilizations and steps read.

A civilization is one capital letter on the map (``R`` Rome, ``G`` Greece, ``E`` Egypt,
``C`` Carthage, ``B`` Babylon, ``A`` Atlantis), because influence, units and fortresses
belong to civilizations, neutrals included; a seat reads ``2 Rome (Ada)``, its number
first since the notation names seats by number (``take 2 wine``, ``next 2``).
"""

from __future__ import annotations

from collections.abc import Iterable

from senet.games.marenostrum import commodities, tokens
from senet.games.wording import a_or_an
from senet.text.seat_names import SeatNames
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2

CIV_NAMES = ("Rome", "Greece", "Egypt", "Carthage", "Babylon", "Atlantis")
CIV_LETTERS = "RGECBA"
CIV_STYLES = ("bold red", "bold blue", "bold yellow", "bold magenta", "bold green", "bold cyan")
#: Card and item notation by enum value - 1: the rules core's own words (the wire's
#: enums follow the core's tables, see mare_nostrum.proto).
CARD_NAMES = commodities.CARD_NAMES
ITEM_NAMES = tokens.ITEMS
UNIT_NAMES = ("legion", "creature", "fortress")
ROLE_NAMES = ("Director of Commerce", "High Priest", "Political Leader", "Military Leader")
ROLE_SHORT = ("Commerce", "Priest", "Political", "Military")
PHASE_NAMES = ("set-up", "commerce", "offerings", "construction", "military")
STEP_NAMES: dict[int, str] = {
    pb.MARE_NOSTRUM_STEP_SETUP_CAPITAL: "free set-up: founding the capital",
    pb.MARE_NOSTRUM_STEP_SETUP_BUILD: "free set-up: spending this round's points",
    pb.MARE_NOSTRUM_STEP_ROLE_TIE: "handing a tied role to one of the others",
    pb.MARE_NOSTRUM_STEP_ORDER: "naming who plays next in this phase",
    pb.MARE_NOSTRUM_STEP_TRADE_SIZE: "Director: setting the trade's size",
    pb.MARE_NOSTRUM_STEP_OFFER: "traders choosing their hidden offers",
    pb.MARE_NOSTRUM_STEP_TAKE: "taking a face-up card of another trader",
    pb.MARE_NOSTRUM_STEP_COMPENSATE: "Director: giving the player one card short",
    pb.MARE_NOSTRUM_STEP_OFFERING: "making an offering to a god, or passing",
    pb.MARE_NOSTRUM_STEP_BUILD: "building and buying",
    pb.MARE_NOSTRUM_STEP_PAY: "paying, card by card",
    pb.MARE_NOSTRUM_STEP_NAVAL: "naval moves and battles",
    pb.MARE_NOSTRUM_STEP_GROUND: "ground moves (and Medusa's gaze)",
    pb.MARE_NOSTRUM_STEP_LOSSES: "choosing a battle's losses",
    pb.MARE_NOSTRUM_STEP_AFTER_BATTLE: "after battle: sack, occupy or convert",
    pb.MARE_NOSTRUM_STEP_BLOCKADE: "Greece: blockading a crossing",
    pb.MARE_NOSTRUM_STEP_OVER: "game over",
    pb.MARE_NOSTRUM_STEP_DECLARE: "declaring the chain and the units crossing to a Greek province",
    pb.MARE_NOSTRUM_STEP_BARTER: "Ulysses: bartering a card with the bank, or passing",
    pb.MARE_NOSTRUM_STEP_WAR_GOD: "Mars's holder: invoking him for this battle, or keeping him",
    pb.MARE_NOSTRUM_STEP_ROLE_GOD: "Ishtar's holder: invoking her for a role, or not",
    pb.MARE_NOSTRUM_STEP_TRADE_GOD: "before the trade: invoking a held god, or not",
    pb.MARE_NOSTRUM_STEP_SPELL: "Circe's owner: casting her spell on this battle, or not",
    pb.MARE_NOSTRUM_STEP_GIFT: "choosing a commodity from the bank (a card's gift, Hermes)",
    pb.MARE_NOSTRUM_STEP_OCCUPATION: "occupier: putting the units on the buildings",
    pb.MARE_NOSTRUM_STEP_KEEP: "end of construction: giving tax cards back, or keeping them",
    pb.MARE_NOSTRUM_STEP_SEA_GOD: "Poseidon's holder: sinking a ship of this crossing, or not",
    pb.MARE_NOSTRUM_STEP_NAVAL_GOD: "Poseidon's holder: sinking a ship before this battle, or not",
}
#: Bits of ``MareNostrumPlayer.powers_used``, with the card whose power each marks.
POWER_BITS = ((1, "cleopatra"), (2, "midas"), (4, "artemis"), (8, "medusa"), (16, "circe"))


def _name(names: tuple[str, ...], value: int) -> str:
    return names[value - 1] if 1 <= value <= len(names) else "?"


def civ_name(value: int) -> str:
    """``Rome`` for a ``MareNostrumCivilization`` value; ``nobody`` for unspecified."""
    return "nobody" if value == 0 else _name(CIV_NAMES, value)


def civ_letter(value: int) -> str:
    """The map letter of a civilization; ``-`` for nobody."""
    return CIV_LETTERS[value - 1] if 1 <= value <= len(CIV_LETTERS) else "-"


def civ_style(value: int) -> str:
    return CIV_STYLES[value - 1] if 1 <= value <= len(CIV_STYLES) else ""


def card_name(value: int) -> str:
    return _name(CARD_NAMES, value)


def holding(province: pb.MareNostrumProvince) -> str:
    """What the occupier's units stand on, e.g. "city, wine caravan, temple"."""
    held = ["city"] * province.held_cities
    held += [f"{card_name(card)} caravan" for card in province.held_caravans]
    held += ["temple"] * province.held_temple + ["market"] * province.held_market
    return ", ".join(held)


def item_name(value: int) -> str:
    return _name(ITEM_NAMES, value)


def unit_name(value: int) -> str:
    return _name(UNIT_NAMES, value)


def role_name(value: int) -> str:
    return _name(ROLE_NAMES, value)


def phase_name(value: int) -> str:
    return _name(PHASE_NAMES, value)


def units_text(legions: int, creatures: int) -> str:
    """``2 legions and a creature``: the units of a crossing or a strike."""
    parts = [
        f"{n} {unit}s" if n > 1 else a_or_an(unit)
        for n, unit in ((legions, "legion"), (creatures, "creature"))
        if n
    ]
    return " and ".join(parts) or "no unit"


def powers_text(used: int) -> str:
    """The once-a-phase powers a ``powers_used`` bit set names, ``""`` for none."""
    return ", ".join(title(card) for bit, card in POWER_BITS if used & bit)


def cards_text(cards: pb.MareNostrumCards) -> str:
    """``tax x3, grain, wine x2``; ``none`` when empty."""
    parts = [card_name(c.card) + (f" x{c.count}" if c.count > 1 else "") for c in cards.cards]
    return ", ".join(parts) or "none"


def card_list(values: Iterable[int]) -> str:
    return ", ".join(card_name(v) for v in values) or "none"


def title(card_id: str) -> str:
    """A hero's, wonder's, god's or creature's display name from its card id."""
    special = {
        "gardens": "Hanging Gardens",
        "artemis": "Temple of Artemis",
        "zeus": "Statue of Zeus",
        "helen": "Helen of Troy",
        "dioscuri": "Castor & Pollux",
        "sheba": "Queen of Sheba",
    }
    return special.get(card_id, card_id.capitalize())


class Seats(SeatNames):
    """Names for seats: number, civilization, display name, and ``you`` for the viewer."""

    def __init__(
        self,
        view: pb.MareNostrumView,
        summary: match_pb2.MatchSummary | None = None,
        viewer: int | None = None,
    ) -> None:
        super().__init__(summary, viewer)
        self.civs = {p.seat: p.civilization for p in view.players}

    def civ(self, seat: int) -> str:
        return civ_name(self.civs.get(seat, 0))

    def label(self, seat: int) -> str:
        """``2 Rome (Ada)``, or ``2 Rome (Ada, you)``."""
        you = ", you" if seat == self.viewer else ""
        return f"{seat} {self.civ(seat)} ({self.name(seat)}{you})"

    def short(self, seat: int) -> str:
        """``2 Rome``: where the full label would not fit."""
        return f"{seat} {self.civ(seat)}"

    def who(self, civilization: int) -> str:
        """A civilization by name, with its seat when a player plays it."""
        for seat, civ in self.civs.items():
            if civ == civilization:
                return self.short(seat)
        return f"{civ_name(civilization)} (neutral)" if civilization else "nobody"
