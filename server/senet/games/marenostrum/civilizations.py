"""The six civilizations: capital, hero, creature and predetermined starting position.

Each player draws one civilization at random among those in the match (Atlantis only
with six players); undrawn ones are neutral (ruling R1).
The printed "Basic Setup" of each player aid is not public (notes 3.4), so the
positions below are designed (notes 5.2): three provinces each, about four or five
cards of income in the first turn, and role criteria that hand out the roles without
ties except the High Priest's, which the set-up tie rule settles.
"""

from __future__ import annotations

from typing import NamedTuple

from senet.games.marenostrum.board import PROVINCE_DATA, SEA_DATA, space_index
from senet.games.marenostrum.commodities import card_type

ROME, GREECE, EGYPT, CARTHAGE, BABYLON, ATLANTIS = range(6)
CIVS = 6
CIV_IDS = ("rome", "greece", "egypt", "carthage", "babylon", "atlantis")
CIV_NAMES = ("Rome", "Greece", "Egypt", "Carthage", "Babylon", "Atlantis")


class StartPosition(NamedTuple):
    """A civilization's predetermined set-up (all spaces as indexes).

    Attributes:
        provinces: Provinces with its influence marker, capital first.
        cities: Provinces holding one of its cities (a province twice: two cities).
        caravans: (province, commodity card type) pairs.
        temples: Provinces with its temple.
        markets: Provinces with its market.
        fortresses: Provinces with its fortress.
        legions: Provinces holding one legion each (repeat a province for more).
        triremes: Seas holding one trireme each.
    """

    provinces: tuple[int, ...]
    cities: tuple[int, ...]
    caravans: tuple[tuple[int, int], ...]
    temples: tuple[int, ...]
    markets: tuple[int, ...]
    fortresses: tuple[int, ...]
    legions: tuple[int, ...]
    triremes: tuple[int, ...]


def _ids(text: str) -> tuple[int, ...]:
    return tuple(space_index(s) for s in text.split())


def _caravans(text: str) -> tuple[tuple[int, int], ...]:
    out = []
    for item in text.split():
        province, commodity = item.split(":")
        out.append((space_index(province), card_type(commodity)))
    return tuple(out)


# Designed (notes 5.2). Rome: Military Leader by five units. Egypt: Political Leader by
# three cities. Carthage: Director of Commerce by three caravans and a market. Babylon:
# High Priest (its temple ties Carthage's market; Carthage already holds a role).
START: tuple[StartPosition, ...] = (
    StartPosition(
        _ids("lati etru camp"),
        _ids("lati"),
        _caravans("lati:wine etru:metal camp:grain"),
        (),
        (),
        _ids("lati"),
        _ids("lati lati etru"),
        _ids("tyr"),
    ),
    StartPosition(
        _ids("atti pelo cret"),
        _ids("atti pelo"),
        _caravans("atti:oil cret:wine"),
        (),
        (),
        _ids("atti"),
        _ids("atti"),
        _ids("aeg aeg"),
    ),
    StartPosition(
        _ids("aegy theb cyre"),
        _ids("aegy aegy theb"),
        _caravans("aegy:papyrus aegy:grain"),
        (),
        (),
        _ids("aegy"),
        _ids("aegy"),
        _ids("egy"),
    ),
    StartPosition(
        _ids("afri numi trip"),
        _ids("afri"),
        _caravans("afri:fish numi:livestock trip:oil"),
        (),
        _ids("afri"),
        _ids("afri"),
        _ids("afri"),
        _ids("sic sic"),
    ),
    StartPosition(
        _ids("baby assy syri"),
        _ids("baby"),
        _caravans("assy:grain syri:perfume"),
        _ids("baby"),
        (),
        _ids("baby"),
        _ids("baby baby"),
        (),
    ),
    StartPosition(
        _ids("posi abor aaus"),
        _ids("posi"),
        _caravans("posi:fish abor:pottery aaus:gold"),
        (),
        (),
        _ids("posi"),
        _ids("posi"),
        _ids("atl atl"),
    ),
)

CAPITALS: tuple[int, ...] = tuple(s.provinces[0] for s in START)

# Free set-up (text): Greece may found its capital in any province on the Aegean;
# Atlantis also on the westernmost provinces of Europe and Africa (ruling: Lusitania
# and Mauretania Tingitana, the provinces on the Ocean outside Atlantis itself).
_AEGEAN_SHORE = tuple(i for i, p in enumerate(PROVINCE_DATA) if "aeg" in p.seas)
FREE_CAPITALS: tuple[tuple[int, ...], ...] = (
    (CAPITALS[ROME],),
    _AEGEAN_SHORE,
    (CAPITALS[EGYPT],),
    (CAPITALS[CARTHAGE],),
    (CAPITALS[BABYLON],),
    (CAPITALS[ATLANTIS], space_index("lusi"), space_index("mtin")),
)


def in_match(civ: int, seats: int) -> bool:
    """Whether ``civ`` takes part in a match of ``seats`` players, played or neutral.

    Text: "If playing with 6 players, the civilization of Atlantis is introduced"
    (ruling R1): with fewer, nobody draws Atlantis and its provinces stay empty.
    """
    return civ != ATLANTIS or seats == CIVS


#: Starting hand of every player (designed, notes 5.2: "three more cards" than 2003).
START_TAX_CARDS = 3

assert len(SEA_DATA) == 14  # the designed map has 10 + 4 seas
