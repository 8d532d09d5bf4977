"""Heroes, wonders, gods and creatures: data over a small set of effect kinds.

The printed card texts are not public (notes 3.5-3.8). Where a source gives an
effect it is used; the rest is designed in the spirit of the name (notes 5.7). Each
card is a name plus a tuple of :class:`Effect` values; the state reads effects only
through :func:`effects_of` and the kind constants below, so changing a card to its
printed text is an edit of this table.

Effect kinds (``arg`` and ``amount`` per kind):

=================  ==========================================  =====================
kind               arg                                         amount
=================  ==========================================  =====================
``cost``           item name (``legion``, ``hero``, ``god``..)  its cost in cards
``die_bonus``      ``legion``/``trireme`` [``:attack``/``:defend``]  added per die
``battle_bonus``   ``ground``                                  added to the total
``fortress_bonus`` ``""``                                      added per fortress
``auto_six``       ``legion``                                  legions that count 6
``income``         ``tax``/``produced``/``any``/``tax_per_temple``   cards per commerce
``keep_tax``       ``""``                                      tax cards kept
``role_bonus``     role name                                   added to its count
``fortress_limit`` ``""``                                      fortresses per province
``free_build``     item name                                   free items per phase
``move_range``     ``trireme``/``legion``                      spaces per move
``special``        what it does (not yet played by the state)  0
=================  ==========================================  =====================
"""

from __future__ import annotations

from typing import NamedTuple

COST = "cost"
DIE_BONUS = "die_bonus"
BATTLE_BONUS = "battle_bonus"
FORTRESS_BONUS = "fortress_bonus"
AUTO_SIX = "auto_six"
INCOME = "income"
KEEP_TAX_EFFECT = "keep_tax"
ROLE_BONUS = "role_bonus"
FORTRESS_LIMIT = "fortress_limit"
FREE_BUILD = "free_build"
MOVE_RANGE = "move_range"
SPECIAL = "special"


class Effect(NamedTuple):
    """One effect of one card."""

    kind: str
    arg: str = ""
    amount: int = 0


class Card(NamedTuple):
    """A hero, wonder, god or creature card.

    Attributes:
        id: Notation id (lowercase, no spaces).
        name: Printed name.
        group: ``civ_hero``, ``hero``, ``wonder``, ``pyramids``, ``god`` or ``creature``.
        effects: What owning (or, for gods, invoking) it does.
    """

    id: str
    name: str
    group: str
    effects: tuple[Effect, ...]


def _c(cid: str, name: str, group: str, *effects: Effect) -> Card:
    return Card(cid, name, group, effects)


E = Effect
CIV_HERO, HERO, WONDER, PYRAMIDS, GOD, CREATURE_CARD = (
    "civ_hero",
    "hero",
    "wonder",
    "pyramids",
    "god",
    "creature",
)

#: Civilization heroes, in civilization order (Rome .. Atlantis).
CIV_HEROES: tuple[Card, ...] = (
    # [C2] legions and fortresses cost 2.
    _c("caesar", "Caesar", CIV_HERO, E(COST, "legion", 2), E(COST, "fortress", 2)),
    # [C2] triremes cost 2; [C1] +1 per die of triremes.
    _c("pericles", "Pericles", CIV_HERO, E(COST, "trireme", 2), E(DIE_BONUS, "trireme", 1)),
    # [C2] swap one commodity for one tax card (or back) once per construction phase.
    _c("cleopatra", "Cleopatra", CIV_HERO, E(SPECIAL, "swap a card with the bank")),
    # [INF] legions +1 per die (2003 card).
    _c("hannibal", "Hannibal", CIV_HERO, E(DIE_BONUS, "legion", 1)),
    # [C2] one free influence marker per turn.
    _c("hammurabi", "Hammurabi", CIV_HERO, E(FREE_BUILD, "influence", 1)),
    # [C1] a bonus to trireme movement: designed as two seas per move.
    _c("atlas", "Atlas", CIV_HERO, E(MOVE_RANGE, "trireme", 2)),
)

#: General heroes (2003 and 2005) and wonders, the pool 8 cards are set aside from.
POOL: tuple[Card, ...] = (
    # 2003 wonders (designed effects, notes 5.7).
    _c("colossus", "Colossus", WONDER, E(INCOME, "tax", 2)),
    _c("gardens", "Hanging Gardens", WONDER, E(INCOME, "produced", 1)),
    _c("artemis", "Temple of Artemis", WONDER, E(SPECIAL, "a commodity set counts one more")),
    _c("zeus", "Statue of Zeus", WONDER, E(FORTRESS_LIMIT, "", 2)),
    _c("lighthouse", "Lighthouse", WONDER, E(COST, "trireme", 2)),
    _c("mausoleum", "Mausoleum", WONDER, E(COST, "hero", 8)),
    # 2003 heroes.
    _c("agamemnon", "Agamemnon", HERO, E(DIE_BONUS, "legion:attack", 1)),
    _c("archimedes", "Archimedes", HERO, E(FORTRESS_BONUS, "", 3)),
    _c("helen", "Helen of Troy", HERO, E(ROLE_BONUS, "political", 2)),
    _c(
        "nebuchadnezzar",
        "Nebuchadnezzar",
        HERO,
        E(COST, "temple", 4),
        E(COST, "market", 4),
    ),
    _c("solomon", "Solomon", HERO, E(KEEP_TAX_EFFECT, "", 5)),
    _c("ulysses", "Ulysses", HERO, E(SPECIAL, "swap a card for a commodity after trading")),
    # 2005 heroes.
    _c("adonis", "Adonis", HERO, E(COST, "god", 0)),  # [C1] gods cost nothing
    _c("aeneas", "Aeneas", HERO, E(COST, "influence", 2)),
    _c("achilles", "Achilles", HERO, E(AUTO_SIX, "legion", 1)),
    _c("ajax", "Ajax", HERO, E(DIE_BONUS, "legion:defend", 1)),
    _c("antigone", "Antigone", HERO, E(SPECIAL, "temples cannot be sacked")),
    # Designed: two provinces by land borders (a trireme chain still counts as one).
    _c("ariadne", "Ariadne", HERO, E(MOVE_RANGE, "legion", 2)),
    _c("gilgamesh", "Gilgamesh", HERO, E(COST, "creature", 4)),
    _c("hamilcar", "Hamilcar", HERO, E(COST, "legion", 2)),
    _c("hercules", "Hercules", HERO, E(BATTLE_BONUS, "ground", 3)),
    _c("imhotep", "Imhotep", HERO, E(COST, "pyramids", 10)),
    _c("jason", "Jason", HERO, E(MOVE_RANGE, "trireme", 2)),
    _c("dioscuri", "Castor & Pollux", HERO, E(DIE_BONUS, "trireme", 1)),
    _c("circe", "Circe", HERO, E(SPECIAL, "one enemy legion per battle does not roll")),
    _c("sheba", "Queen of Sheba", HERO, E(INCOME, "any", 1)),
    _c("croesus", "Croesus", HERO, E(INCOME, "tax_per_temple", 1)),
    _c("medusa", "Medusa", HERO, E(SPECIAL, "destroy an enemy legion once per turn")),
    _c("midas", "Midas", HERO, E(SPECIAL, "a commodity becomes two tax cards")),
    _c("minos", "Minos", HERO, E(ROLE_BONUS, "military", 2)),
    _c("moses", "Moses", HERO, E(SPECIAL, "ignore at-war restrictions")),
    _c("penthesilea", "Penthesilea", HERO, E(SPECIAL, "attack across a sea without triremes")),
    _c("spartacus", "Spartacus", HERO, E(FREE_BUILD, "legion", 1)),
)

#: The Pyramids: never set aside, bought to win at once.
PYRAMIDS_CARD = _c("pyramids", "Pyramids", PYRAMIDS)

#: Heroes and wonders set aside unseen at the start (text).
SET_ASIDE = 8

#: The eight gods ([C1] effects, names matched by inference: notes 3.7).
GODS: tuple[Card, ...] = (
    _c("athena", "Athena", GOD, E(SPECIAL, "immune to other gods")),
    _c("baal", "Baal", GOD, E(SPECIAL, "destroy a caravan")),
    _c("hermes", "Hermes", GOD, E(SPECIAL, "three extra cards of produced types")),
    _c("isis", "Isis", GOD, E(SPECIAL, "everyone draws one secret card")),
    _c("ishtar", "Ishtar", GOD, E(SPECIAL, "+2 to one role count")),
    _c("mars", "Mars", GOD, E(SPECIAL, "+6 to a battle total")),
    _c("poseidon", "Poseidon", GOD, E(SPECIAL, "destroy a trireme")),
    _c("vulcan", "Vulcan", GOD, E(SPECIAL, "destroy a city")),
)
#: A god costs one set of three cards (text).
GOD_COST = 3

#: One creature kind per civilization, in civilization order. Every creature counts
#: as a rolled 6 (text); its own power is data for later rules.
CREATURES: tuple[Card, ...] = (
    _c("pegasus", "Pegasus", CREATURE_CARD, E(SPECIAL, "flies two spaces")),
    _c("centaur", "Centaur", CREATURE_CARD, E(SPECIAL, "destroys an enemy legion first")),
    _c("sphinx", "Sphinx", CREATURE_CARD, E(SPECIAL, "its province cannot be sacked")),
    _c("hydra", "Hydra", CREATURE_CARD, E(SPECIAL, "may survive a loss on 4+")),
    _c("behemoth", "Behemoth", CREATURE_CARD, E(SPECIAL, "enemy sixes must roll")),
    _c("kraken", "Kraken", CREATURE_CARD, E(SPECIAL, "fights at sea")),
)

#: Every ownable card (civ heroes, pool, Pyramids) by index: the ids used in state.
OWNABLE: tuple[Card, ...] = (*CIV_HEROES, *POOL, PYRAMIDS_CARD)
OWNABLE_IDS = tuple(c.id for c in OWNABLE)
POOL_INDEXES = tuple(range(len(CIV_HEROES), len(CIV_HEROES) + len(POOL)))
PYRAMIDS_INDEX = len(OWNABLE) - 1
GOD_IDS = tuple(g.id for g in GODS)


def effects_of(cards: list[int], kind: str) -> list[Effect]:
    """Every effect of ``kind`` among the ownable cards ``cards``."""
    return [e for c in cards for e in OWNABLE[c].effects if e.kind == kind]
