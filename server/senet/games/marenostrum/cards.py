"""Heroes, wonders, gods and creatures: data over a small set of effect kinds.

The printed card texts are not public (notes 3.5-3.8). Where a source gives an
effect it is used; the rest is designed in the spirit of the name (notes 5.7). Each
card is a name plus a tuple of :class:`Effect` values; the state reads effects only
through :func:`effects_of` and the kind constants below, so changing a card to its
printed text is an edit of this table.

Effect kinds (``arg`` and ``amount`` per kind). Heroes' and wonders' effects act
for their owner; a creature's effects act wherever one of its kind stands (every
civilization has its own kind, neutrals included):

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
``build_limit``    ``temple``/``market``/``fortress``          how many per province
``free_build``     item name                                   free items per phase
``move_range``     ``trireme``/``legion``                      spaces per move
``exchange``       ``swap`` (a commodity for a tax card or      cards given by the
                   back, in construction), ``gild`` (a          bank (once per phase)
                   commodity for tax cards, in construction),
                   ``after_trade`` (any card for a commodity
                   not in hand, after the trading)
``set_bonus``      ``commodity``                               cards a set of
                                                               different commodities
                                                               counts more (once per
                                                               construction phase)
``guard``          ``temple``: the owner's temples cannot be    0
                   sacked, nor a god strike a province of
                   the owner's with a temple
``silence``        ``legion``                                  enemy legions per
                                                               ground battle that
                                                               do not roll
``petrify``        ``legion``: in the owner's ground moves,     legions per military
                   destroy an enemy legion where the owner      phase
                   has a unit (never in its owner's capital)
``exempt``         ``at_war``: the owner builds in its own      0
                   provinces at war
``raid``           ``legion``: from a coast, attack a province  0
                   on the same sea without triremes
``flight``         ``""``: the creature flies over land and     spaces per move
                   sea, never carried by triremes
``first_strike``   ``legion``: before the dice, each creature   enemy legions each
                   destroys enemy legions                       creature destroys
``curse``          ``""``: a province where the creature        0
                   fought cannot be sacked or converted that
                   turn
``regrow``         ``""``: a creature chosen as a loss          the die roll it
                   survives on a roll, once per battle          needs (or more)
``break_six``      ``""``: enemy fortresses and creatures in    0
                   its battle roll instead of counting 6
``sea_support``    ``""``: adds to its owner's naval battles    points per creature
                   in seas its province touches (it is
                   never lost at sea)
``coastal``        ``""``: the creature stands only in          0
                   coastal provinces
``god_power``      what the god does: one function of           0
                   :mod:`.gods` per god
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
BUILD_LIMIT = "build_limit"
FREE_BUILD = "free_build"
MOVE_RANGE = "move_range"
EXCHANGE = "exchange"
SET_BONUS = "set_bonus"
GUARD = "guard"
SILENCE = "silence"
PETRIFY = "petrify"
EXEMPT = "exempt"
RAID = "raid"
FLIGHT = "flight"
FIRST_STRIKE = "first_strike"
CURSE = "curse"
REGROW = "regrow"
BREAK_SIX = "break_six"
SEA_SUPPORT = "sea_support"
COASTAL = "coastal"
GOD_POWER = "god_power"


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
    _c("cleopatra", "Cleopatra", CIV_HERO, E(EXCHANGE, "swap", 1)),
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
    # [C1] "acts like one extra item" in a set of different commodities: once per
    # construction phase the first such set its owner pays counts one card more.
    _c("artemis", "Temple of Artemis", WONDER, E(SET_BONUS, "commodity", 1)),
    # Text (L109): no "more than one temple, market, or fortress per province (except
    # with Statue of Zeus)": the exception lifts the three limits; two of each is
    # designed (ruling R53).
    _c(
        "zeus",
        "Statue of Zeus",
        WONDER,
        E(BUILD_LIMIT, "temple", 2),
        E(BUILD_LIMIT, "market", 2),
        E(BUILD_LIMIT, "fortress", 2),
    ),
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
    # [C1] extra resources "indirectly": the wanderer's bargain after the trading, one
    # card of the hand for any one commodity of the bank (notes 5.7, ruling R21).
    _c("ulysses", "Ulysses", HERO, E(EXCHANGE, "after_trade", 1)),
    # 2005 heroes.
    _c("adonis", "Adonis", HERO, E(COST, "god", 0)),  # [C1] gods cost nothing
    _c("aeneas", "Aeneas", HERO, E(COST, "influence", 2)),
    _c("achilles", "Achilles", HERO, E(AUTO_SIX, "legion", 1)),
    _c("ajax", "Ajax", HERO, E(DIE_BONUS, "legion:defend", 1)),
    # Designed: she who honoured the gods' law; no god strikes where she keeps a temple
    # (no god destroys temples themselves, so the guard covers their provinces).
    _c("antigone", "Antigone", HERO, E(GUARD, "temple")),
    # Designed: two provinces by land borders (a trireme chain still counts as one).
    _c("ariadne", "Ariadne", HERO, E(MOVE_RANGE, "legion", 2)),
    _c("gilgamesh", "Gilgamesh", HERO, E(COST, "creature", 4)),
    _c("hamilcar", "Hamilcar", HERO, E(COST, "legion", 2)),
    _c("hercules", "Hercules", HERO, E(BATTLE_BONUS, "ground", 3)),
    _c("imhotep", "Imhotep", HERO, E(COST, "pyramids", 10)),
    _c("jason", "Jason", HERO, E(MOVE_RANGE, "trireme", 2)),
    _c("dioscuri", "Castor & Pollux", HERO, E(DIE_BONUS, "trireme", 1)),
    # Designed: she turns a soldier into a swine; automatic, as it only helps her owner.
    _c("circe", "Circe", HERO, E(SILENCE, "legion", 1)),
    _c("sheba", "Queen of Sheba", HERO, E(INCOME, "any", 1)),
    _c("croesus", "Croesus", HERO, E(INCOME, "tax_per_temple", 1)),
    # Designed: her gaze turns one enemy legion to stone once per military phase, where
    # her owner's units see it; a capital's walls hide its own legions.
    _c("medusa", "Medusa", HERO, E(PETRIFY, "legion", 1)),
    # Designed: his touch turns one commodity into two tax cards, once per phase.
    _c("midas", "Midas", HERO, E(EXCHANGE, "gild", 2)),
    _c("minos", "Minos", HERO, E(ROLE_BONUS, "military", 2)),
    # Designed: his people build in the wilderness; leaving a province at war needs no
    # power (every unit that has not moved may leave: text), so the power is the build.
    _c("moses", "Moses", HERO, E(EXEMPT, "at_war")),
    # Designed: the Amazons' raids; a legion crosses one sea without a ship, to attack.
    _c("penthesilea", "Penthesilea", HERO, E(RAID, "legion")),
    _c("spartacus", "Spartacus", HERO, E(FREE_BUILD, "legion", 1)),
)

#: The Pyramids: never set aside (ruling R58), bought to win at once.
PYRAMIDS_CARD = _c("pyramids", "Pyramids", PYRAMIDS)

#: Heroes and wonders set aside unseen at the start (text).
SET_ASIDE = 8

#: The eight gods ([C1] effects, names matched by inference: notes 3.7).
GODS: tuple[Card, ...] = (
    _c("athena", "Athena", GOD, E(GOD_POWER, "immune to other gods")),
    _c("baal", "Baal", GOD, E(GOD_POWER, "destroy a caravan")),
    _c("hermes", "Hermes", GOD, E(GOD_POWER, "three extra cards of produced types")),
    _c("isis", "Isis", GOD, E(GOD_POWER, "everyone draws one secret card")),
    _c("ishtar", "Ishtar", GOD, E(GOD_POWER, "+2 to one role count")),
    _c("mars", "Mars", GOD, E(GOD_POWER, "+6 to a battle total")),
    _c("poseidon", "Poseidon", GOD, E(GOD_POWER, "destroy a trireme")),
    _c("vulcan", "Vulcan", GOD, E(GOD_POWER, "destroy a city")),
)
#: A god costs one set of three cards (text).
GOD_COST = 3

#: One creature kind per civilization, in civilization order. Every creature counts
#: as a rolled 6 (text), besides its own power.
CREATURES: tuple[Card, ...] = (
    # [C1] a flyer: two spaces over anything (sea and occupied provinces included),
    # never carried by triremes. Its name is NOT FOUND; Rome's winged horse is designed.
    _c("pegasus", "Pegasus", CREATURE_CARD, E(FLIGHT, "", 2)),
    # [C1] before a battle it joins, it destroys one enemy legion (not a fortress or a
    # creature): one legion per Centaur, attacking or defending.
    _c("centaur", "Centaur", CREATURE_CARD, E(FIRST_STRIKE, "legion", 1)),
    # Designed (notes 5.7): "its province cannot be sacked or converted while it stands
    # there" never applies (a sole survivor has no Sphinx beside it), so the riddle
    # outlives the battle: where a Sphinx fought, no sack or conversion that turn.
    _c("sphinx", "Sphinx", CREATURE_CARD, E(CURSE)),
    # Designed (notes 5.7): chosen as a loss, it regrows on a 4 or more, once a battle.
    _c("hydra", "Hydra", CREATURE_CARD, E(REGROW, "", 4)),
    # [C1] enemy fortresses and creatures in its battle lose their automatic 6 and roll.
    _c("behemoth", "Behemoth", CREATURE_CARD, E(BREAK_SIX)),
    # [C1] on land only in coastal provinces; [INF] it fights at sea, not as a bridge.
    # Designed: it reaches from its shore into the seas its province touches and adds
    # a 6 to its owner's naval battles there; it is never lost at sea (ruling R32).
    _c("kraken", "Kraken", CREATURE_CARD, E(SEA_SUPPORT, "", 6), E(COASTAL)),
)

#: Every ownable card (civ heroes, pool, Pyramids) by index: the ids used in state.
OWNABLE: tuple[Card, ...] = (*CIV_HEROES, *POOL, PYRAMIDS_CARD)
OWNABLE_IDS = tuple(c.id for c in OWNABLE)
POOL_INDEXES = tuple(range(len(CIV_HEROES), len(CIV_HEROES) + len(POOL)))
PYRAMIDS_INDEX = len(OWNABLE) - 1
#: The cards that count as one more card in a set of different commodities (the
#: Temple of Artemis, ruling R20): named when a set is paid with their help.
SET_HELPERS = tuple(
    i
    for i, card in enumerate(OWNABLE)
    if any(e.kind == SET_BONUS and e.arg == "commodity" for e in card.effects)
)
GOD_IDS = tuple(g.id for g in GODS)


def effects_of(cards: list[int], kind: str) -> list[Effect]:
    """Every effect of ``kind`` among the ownable cards ``cards``."""
    return [e for c in cards for e in OWNABLE[c].effects if e.kind == kind]


def creature_effect(civ: int, kind: str) -> Effect | None:
    """The effect of ``kind`` of ``civ``'s creature kind, if it has one."""
    return next((e for e in CREATURES[civ].effects if e.kind == kind), None)


#: The "Mythology Hannibal" option (notes 3.5: the revised card of the Mythology era
#: gives a free legion; how often is NOT FOUND, designed as once per construction
#: phase, in a province where Hannibal's owner may build).
MYTHOLOGY_HANNIBAL = Effect(FREE_BUILD, "legion", 1)
