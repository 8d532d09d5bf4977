"""The map: provinces, seas, borders, city sites and commodity icons.

No public source lists the printed map (notes 3.3), so this one is designed from the
geography of the ancient Mediterranean with the counts reviews give: 33 provinces and
10 seas on the base board, and the expansion's western board (Atlantis, Hispania,
Gaul, north-west Africa) with 11 provinces and 4 seas (notes 5.1). Every space has a
short id used in action notation; provinces have four letters, seas three.

Spaces are numbered: provinces ``0 .. PROVINCES-1``, then seas. Everything derived
(neighbour lists, coasts) is computed once at import.
"""

from __future__ import annotations

from typing import NamedTuple

from senet.games.marenostrum.commodities import card_type


class Province(NamedTuple):
    """One land or island province as printed (designed) on the board.

    Attributes:
        id: Short notation id (four letters).
        name: The Latin name shown to people.
        seas: Ids of the seas it touches (empty: inland).
        cities: Names of its city sites (one city token each).
        icons: Commodity card types of its resource icons (one caravan each).
    """

    id: str
    name: str
    seas: tuple[str, ...]
    cities: tuple[str, ...]
    icons: tuple[int, ...]


def _p(pid: str, name: str, seas: str, cities: str, icons: str) -> Province:
    return Province(
        pid,
        name,
        tuple(seas.split()),
        tuple(c for c in cities.split(",") if c),
        tuple(card_type(i) for i in icons.split()),
    )


# Designed, after notes 5.1 (one row per province: id, name, seas, city sites, icons).
PROVINCE_DATA: tuple[Province, ...] = (
    _p("gcis", "Gallia Cisalpina", "adr", "Mediolanum", "livestock grain"),
    _p("etru", "Etruria", "tyr adr", "", "metal wine"),
    _p("lati", "Latium", "tyr", "Roma", "wine"),
    _p("camp", "Campania", "tyr", "Neapolis", "grain fruit"),
    _p("magn", "Magna Graecia", "tyr ion adr", "Tarentum", "oil livestock"),
    _p("sici", "Sicilia", "tyr sic ion", "Syracusae", "grain fish"),
    _p("sard", "Sardinia et Corsica", "tyr sic sar", "Caralis", "metal slaves"),
    _p("illy", "Illyria", "adr", "Salona", "livestock slaves"),
    _p("daci", "Dacia", "pon", "", "gold metal"),
    _p("thra", "Thracia", "aeg pon", "Byzantium", "slaves grain"),
    _p("mace", "Macedonia", "aeg", "Pella", "gold livestock"),
    _p("epir", "Epirus", "ion adr", "", "livestock fruit"),
    _p("atti", "Attica", "aeg", "Athenae", "oil"),
    _p("pelo", "Peloponnesus", "ion aeg crt", "Sparta", "wine oil"),
    _p("cret", "Creta", "crt aeg", "Cnossus", "wine fish"),
    _p("rhod", "Rhodos", "aeg crt", "Rhodos", "fish gems"),
    _p("cypr", "Cyprus", "syr crt", "Salamis", "metal"),
    _p("troa", "Troas", "aeg", "Troia", "oil fruit"),
    _p("bith", "Bithynia", "pon", "", "fish livestock"),
    _p("asia", "Asia", "aeg crt", "Ephesus", "perfume wine"),
    _p("capp", "Cappadocia", "pon", "", "livestock gems"),
    _p("cili", "Cilicia", "syr", "Tarsus", "slaves fruit"),
    _p("arme", "Armenia", "pon", "", "metal gems"),
    _p("syri", "Syria", "syr", "Antiochia", "perfume gems"),
    _p("juda", "Judaea", "syr egy", "Ierusalem", "fruit perfume"),
    _p("assy", "Assyria", "", "Ninive", "grain livestock"),
    _p("baby", "Babylonia", "", "Babylon", "grain perfume"),
    _p("aegy", "Aegyptus", "egy", "Alexandria,Memphis", "papyrus grain"),
    _p("theb", "Thebais", "", "Thebae", "gold papyrus"),
    _p("cyre", "Cyrenaica", "lib egy crt", "Cyrene", "perfume livestock"),
    _p("trip", "Tripolitania", "lib", "Leptis Magna", "oil slaves"),
    _p("afri", "Africa", "sic lib", "Carthago", "fish fruit"),
    _p("numi", "Numidia", "sic sar", "Cirta", "livestock gems"),
    # The expansion's western board.
    _p("posi", "Poseidonis", "atl", "Poseidonis", "fish pottery"),
    _p("abor", "Atlantis Borealis", "atl", "", "pottery gems"),
    _p("aaus", "Atlantis Australis", "atl", "", "gold fruit"),
    _p("lusi", "Lusitania", "atl", "", "livestock metal"),
    _p("baet", "Baetica", "atl her bal", "Gades", "oil metal"),
    _p("tarr", "Tarraconensis", "bal", "Carthago Nova", "pottery wine"),
    _p("bale", "Baleares", "bal sar", "", "fish"),
    _p("aqui", "Aquitania", "atl", "Burdigala", "wine livestock"),
    _p("narb", "Narbonensis", "bal sar", "Massalia", "wine grain"),
    _p("mtin", "Mauretania Tingitana", "atl her", "Tingis", "slaves livestock"),
    _p("mcae", "Mauretania Caesariensis", "her bal sar", "Iol Caesarea", "grain gems"),
)

#: Sea ids and names (base board, then the western board).
SEA_DATA: tuple[tuple[str, str], ...] = (
    ("tyr", "Mare Tyrrhenum"),
    ("adr", "Mare Adriaticum"),
    ("ion", "Mare Ionium"),
    ("sic", "Mare Siculum"),
    ("lib", "Mare Libycum"),
    ("aeg", "Mare Aegaeum"),
    ("crt", "Mare Creticum"),
    ("egy", "Mare Aegyptium"),
    ("syr", "Mare Syriacum"),
    ("pon", "Pontus Euxinus"),
    ("atl", "Oceanus Atlanticus"),
    ("her", "Fretum Herculeum"),
    ("bal", "Mare Balearicum"),
    ("sar", "Mare Sardoum"),
)

# Designed land borders (each pair once), after notes 5.1.
LAND_BORDERS = """
gcis-etru gcis-illy gcis-narb etru-lati etru-magn lati-camp camp-magn illy-daci illy-mace
illy-epir daci-thra daci-mace thra-mace mace-epir mace-atti atti-pelo troa-bith troa-asia
bith-asia bith-capp asia-capp asia-cili capp-cili capp-arme capp-syri cili-syri arme-syri
arme-assy syri-assy syri-baby syri-juda juda-baby juda-aegy assy-baby aegy-theb aegy-cyre
cyre-trip trip-afri afri-numi numi-mcae posi-abor posi-aaus abor-aaus lusi-baet lusi-tarr
baet-tarr tarr-aqui tarr-narb aqui-narb mtin-mcae
"""

# Designed sea-to-sea links (each pair once), after notes 5.1.
SEA_LINKS = """
tyr-ion tyr-sic adr-ion ion-sic ion-lib ion-crt sic-lib lib-egy aeg-crt aeg-pon crt-egy
crt-syr egy-syr atl-her her-bal bal-sar sar-tyr sar-sic
"""

PROVINCES = len(PROVINCE_DATA)
SEAS = len(SEA_DATA)
SPACES = PROVINCES + SEAS

#: Every space's notation id, provinces first.
SPACE_IDS: tuple[str, ...] = (*(p.id for p in PROVINCE_DATA), *(s for s, _ in SEA_DATA))
SPACE_NAMES: tuple[str, ...] = (*(p.name for p in PROVINCE_DATA), *(n for _, n in SEA_DATA))
_INDEX = {sid: i for i, sid in enumerate(SPACE_IDS)}


def space_index(space_id: str) -> int:
    """The space with notation id ``space_id``; ``-1`` when there is none."""
    return _INDEX.get(space_id, -1)


def _pairs(text: str) -> list[tuple[int, int]]:
    out = []
    for pair in text.split():
        a, b = pair.split("-")
        out.append((_INDEX[a], _INDEX[b]))
    return out


def _build() -> tuple[
    tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]
]:
    land: list[set[int]] = [set() for _ in range(PROVINCES)]
    for a, b in _pairs(LAND_BORDERS):
        land[a].add(b)
        land[b].add(a)
    coast: list[set[int]] = [set() for _ in range(SPACES)]
    for index, province in enumerate(PROVINCE_DATA):
        for sea in province.seas:
            coast[index].add(_INDEX[sea])
            coast[_INDEX[sea]].add(index)
    sea_links: list[set[int]] = [set() for _ in range(SPACES)]
    for a, b in _pairs(SEA_LINKS):
        sea_links[a].add(b)
        sea_links[b].add(a)
    return (
        tuple(tuple(sorted(n)) for n in land),
        tuple(tuple(sorted(n)) for n in coast),
        tuple(tuple(sorted(n)) for n in sea_links),
    )


#: Per province, the provinces sharing a land border.
LAND_NEIGHBOURS: tuple[tuple[int, ...], ...]
#: Per province, the seas it touches; per sea, the provinces on its shores.
SHORES: tuple[tuple[int, ...], ...]
#: Per sea, the seas next to it (empty tuples for provinces).
SEA_NEIGHBOURS: tuple[tuple[int, ...], ...]
LAND_NEIGHBOURS, SHORES, SEA_NEIGHBOURS = _build()

#: City sites per province and commodity icons per province (caravan slots).
CITY_SITES: tuple[int, ...] = tuple(len(p.cities) for p in PROVINCE_DATA)
ICONS: tuple[tuple[int, ...], ...] = tuple(p.icons for p in PROVINCE_DATA)
