"""The map: a compact overview of every province by region and every sea, then the
details of the provinces where something is going on.

The regions are a reading aid of this client (the board groups nothing): provinces
are listed in the view's map order within each. A province reads
``lati=R* c1v1f1 R2l`` : id, ``=`` and the letter of the civilization whose influence
it is under (``*`` its capital, ``+`` placed this phase), then its buildings (``c``
cities, ``v`` caravans, ``t`` temples, ``m`` markets, ``f`` fortresses), then the units
of each civilization present (``l`` legions, ``c`` creatures, ``s`` ships: triremes
built and not yet launched), ``@G`` occupied by Greece, ``%G`` being converted by it.
A province without influence, buildings or units is its bare id. A sea reads
``tyr R1 C2``: triremes by civilization.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from senet.games.marenostrum.board import (
    LAND_NEIGHBOURS,
    PROVINCE_DATA,
    SEA_DATA,
    SHORES,
    SPACE_IDS,
    space_index,
)
from senet.text.drawing import WIDTH, fit, hanging
from senet.text.marenostrum.names import (
    Seats,
    card_name,
    civ_letter,
    civ_name,
    civ_style,
    holding,
)
from senet.v1 import mare_nostrum_pb2 as pb

#: The regions of the overview, each a run of province ids (a reading aid only).
REGIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Italia", ("gcis", "etru", "lati", "camp", "magn", "sici", "sard")),
    ("Graecia", ("illy", "daci", "thra", "mace", "epir", "atti", "pelo", "cret")),
    ("Asia", ("rhod", "cypr", "troa", "bith", "asia", "capp", "cili", "arme")),
    ("Oriens", ("syri", "juda", "assy", "baby")),
    ("Africa", ("aegy", "theb", "cyre", "trip", "afri", "numi")),
    ("Hesperia", ("posi", "abor", "aaus", "lusi", "baet", "tarr", "bale", "aqui", "narb")),
    ("Mauretania", ("mtin", "mcae")),
)
PROVINCE_INFO = {p.id: p for p in PROVINCE_DATA}
SEA_NAMES = dict(SEA_DATA)
#: Width of the region column of the overview.
HEAD = 11


def _forces_text(forces: Iterable[pb.MareNostrumForce], sea: bool) -> str:
    parts = []
    for force in forces:
        letter = civ_letter(force.civilization)
        if sea:
            parts.append(f"{letter}{force.triremes}")
            continue
        units = ""
        if force.legions:
            units += f"{force.legions}l"
        if force.creatures:
            units += f"{force.creatures}c"
        if force.triremes:
            units += f"{force.triremes}s"
        if units:
            parts.append(letter + units)
    return " ".join(parts)


def buildings_text(province: pb.MareNostrumProvince) -> str:
    """``c1v2t1m1f1``: only the kinds present."""
    parts = []
    for letter, count in (
        ("c", province.cities),
        ("v", len(province.caravans)),
        ("t", province.temples),
        ("m", province.markets),
        ("f", province.fortresses),
    ):
        if count:
            parts.append(f"{letter}{count}")
    return "".join(parts)


def province_cell(province: pb.MareNostrumProvince, capitals: set[str]) -> Text:
    """One province of the overview (see the module's notation)."""
    out = Text(province.id)
    if province.influence:
        out.append("=")
        out.append(civ_letter(province.influence), style=civ_style(province.influence))
        if province.id in capitals:
            out.append("*")
        if province.influence_new:
            out.append("+")
    rest = [buildings_text(province), _forces_text(province.forces, False)]
    if province.occupier:
        rest.append("@" + civ_letter(province.occupier))
    if province.converter:
        rest.append("%" + civ_letter(province.converter))
    words = " ".join(r for r in rest if r)
    if words:
        out.append(" " + words)
    return out


def sea_cell(sea: pb.MareNostrumSea) -> Text:
    out = Text(sea.id)
    forces = _forces_text(sea.forces, True)
    if forces:
        out.append(" " + forces)
    return out


def flow(
    head: str, cells: Sequence[Text | str], head_width: int = HEAD, width: int = WIDTH
) -> list[Text]:
    """``head`` in its column, then the cells separated by two spaces, wrapped under
    each other (a cell is never split)."""
    lines: list[Text] = []
    line = Text(f"{head:<{head_width}}", style="bold")
    used = head_width
    for part in cells:
        cell = Text(part) if isinstance(part, str) else part
        gap = 0 if used == head_width else 2
        if used + gap + cell.cell_len > width and used > head_width:
            lines.append(line)
            line, used, gap = Text(" " * head_width), head_width, 0
        line.append(" " * gap)
        line.append_text(cell)
        used += gap + cell.cell_len
    lines.append(line)
    return [fit(x, width) for x in lines]


def capitals_of(view: pb.MareNostrumView) -> set[str]:
    return {c.capital for c in view.civilizations if c.capital and not c.absent}


def overview_lines(view: pb.MareNostrumView) -> list[Text]:
    """Every province by region, then the seas."""
    capitals = capitals_of(view)
    by_id = {p.id: p for p in view.provinces}
    lines = [
        Text(
            "PROVINCES  id=owner c city v caravan t temple m market f fort; units l c s",
            style="bold",
        )
    ]
    listed: set[str] = set()
    for region, ids in REGIONS:
        cells = [province_cell(by_id[i], capitals) for i in ids if i in by_id]
        listed.update(ids)
        if cells:
            lines += flow(region, cells)
    others = [province_cell(p, capitals) for p in view.provinces if p.id not in listed]
    if others:
        lines += flow("Other", others)
    lines += flow("Seas", [sea_cell(s) for s in view.seas])
    return lines


def neighbours_text(province_id: str, view: pb.MareNostrumView) -> str:
    """A province's neighbours, from the rules core's map: ``land etru=R camp | sea
    tyr``; a neighbour under influence shows its civilization's letter."""
    index = space_index(province_id)
    if index < 0 or index >= len(LAND_NEIGHBOURS):
        return ""
    owners = {p.id: p.influence for p in view.provinces}

    def named(space: str) -> str:
        owner = owners.get(space, 0)
        return f"{space}={civ_letter(owner)}" if owner else space

    land = " ".join(named(SPACE_IDS[i]) for i in LAND_NEIGHBOURS[index]) or "-"
    sea = " ".join(SPACE_IDS[i] for i in SHORES[index]) or "-"
    return f"land {land} | sea {sea}"


def province_view_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """The viewer's provinces (influence or occupation), each with its state and its
    neighbours by land and by sea: the part of the map a turn is played on."""
    mine = seats.civs.get(seats.viewer, 0) if seats.viewer is not None else 0
    if not mine:
        return []
    capitals = capitals_of(view)
    ids = [p for p in view.provinces if p.influence == mine or p.occupier == mine]
    lines = [Text("YOUR PROVINCES  state, then neighbours by land | by sea", style="bold")]
    for province in ids:
        cell = province_cell(province, capitals)
        cell.append(" " * max(1, 24 - cell.cell_len))
        lines += hanging(Text("  ").append_text(cell), neighbours_text(province.id, view), WIDTH)
    return lines if ids else []


def province_detail(province: pb.MareNostrumProvince, view: pb.MareNostrumView) -> Text:
    """One province in full: name, owner, city sites, caravans on the icons, units."""
    info = PROVINCE_INFO.get(province.id)
    name = info.name if info is not None else province.id
    out = Text(f"{name}: ")
    if province.influence:
        out.append(civ_name(province.influence), style=civ_style(province.influence))
        if province.id in capitals_of(view):
            out.append(" capital")
    else:
        out.append("no influence")
    if info is not None:
        out.append(f"; cities {province.cities}/{len(info.cities)}")
        free = list(info.icons)
        for caravan in province.caravans:
            if caravan - 1 in free:
                free.remove(caravan - 1)
        carried = ",".join(card_name(c) for c in province.caravans) or "-"
        icons = ",".join(card_name(c + 1) for c in free) or "-"
        out.append(f"; caravans {carried} (free {icons})")
    else:
        out.append(f"; cities {province.cities}")
    extras = []
    if province.temples:
        extras.append(f"temple {province.temples}")
    if province.markets:
        extras.append(f"market {province.markets}")
    if province.fortresses:
        extras.append(f"fortress {province.fortresses}")
    forces = _forces_text(province.forces, False)
    if forces:
        extras.append(f"units {forces}")
    moved = [
        f"{n}{k}"
        for n, k in (
            (province.legions_moved, "l"),
            (province.creatures_moved, "c"),
            (province.triremes_moved, "s"),
        )
        if n
    ]
    if moved:
        extras.append("moved here " + "".join(moved))
    if province.occupier:
        held = holding(province)
        extras.append(f"occupied by {civ_name(province.occupier)}" + (f" ({held})" if held else ""))
    if province.converter:
        extras.append(f"converting: {civ_name(province.converter)}")
    if extras:
        out.append("; " + ", ".join(extras))
    return out


def sea_detail(sea: pb.MareNostrumSea) -> Text:
    out = Text(f"{SEA_NAMES.get(sea.id, sea.id)}: ")
    fleets = ", ".join(f"{civ_name(f.civilization)} {f.triremes}" for f in sea.forces if f.triremes)
    out.append(f"triremes {fleets or 'none'}")
    if sea.triremes_moved:
        out.append(f"; {sea.triremes_moved} moved here")
    return out


def focus_ids(view: pb.MareNostrumView, seats: Seats) -> list[str]:
    """The spaces worth detailing now: where several civilizations' units stand (at
    war), where a battle is pending or being decided, the blockade's crossing, and
    the viewer's own provinces."""
    wanted: list[str] = []

    def add(space: str) -> None:
        if space and space not in wanted:
            wanted.append(space)

    add(view.after_battle)
    for loss in view.losses:
        add(loss.space)
    for space in view.pending:
        add(space)
    if view.HasField("blockade"):
        add(view.blockade.start)
        add(view.blockade.end)
    for province in view.provinces:
        if len([f for f in province.forces if f.legions or f.creatures]) > 1:
            add(province.id)
    for sea in view.seas:
        if len([f for f in sea.forces if f.triremes]) > 1:
            add(sea.id)
    mine = seats.civs.get(seats.viewer, 0) if seats.viewer is not None else 0
    if mine:
        for province in view.provinces:
            if province.influence == mine or province.occupier == mine:
                add(province.id)
    return wanted


def detail_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """The focus spaces in full (see :func:`focus_ids`)."""
    ids = focus_ids(view, seats)
    if not ids:
        return []
    provinces = {p.id: p for p in view.provinces}
    seas = {s.id: s for s in view.seas}
    lines = [Text("DETAILS  (yours, at war, and battles to resolve)", style="bold")]
    for space in ids:
        if space in provinces:
            line = province_detail(provinces[space], view)
        elif space in seas:
            line = sea_detail(seas[space])
        else:
            continue
        lines += hanging(Text(f"  {space:<5}"), line.plain, WIDTH)
    return lines


def zoom_lines(words: str, view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """``zoom <what>``: provinces and seas in full, named by id (``lati``, ``tyr``), by
    region (``italia``), by civilization (``rome``: its provinces), or ``seas``,
    ``all``; several words show each."""
    provinces = {p.id: p for p in view.provinces}
    seas = {s.id: s for s in view.seas}
    regions = {name.lower(): ids for name, ids in REGIONS}
    civs = {civ_name(c.civilization).lower(): c.civilization for c in view.civilizations}
    wanted: list[str] = []
    unknown: list[str] = []
    for word in words.lower().split():
        if word in provinces or word in seas:
            found = [word]
        elif word in regions:
            found = [i for i in regions[word] if i in provinces]
        elif word in civs:
            found = [p.id for p in view.provinces if p.influence == civs[word]]
        elif word == "seas":
            found = list(seas)
        elif word == "all":
            found = [*provinces, *seas]
        else:
            unknown.append(word)
            continue
        wanted += [space for space in found if space not in wanted]
    lines: list[Text] = []
    for space in wanted:
        if space in provinces:
            line = province_detail(provinces[space], view)
        else:
            line = sea_detail(seas[space])
        lines += hanging(Text(f"  {space:<5}"), line.plain, WIDTH)
        if space in provinces:
            lines += hanging(Text("        "), neighbours_text(space, view), WIDTH)
    if unknown:
        names = ", ".join(name for name, _ in REGIONS)
        lines += hanging(
            Text("zoom: "),
            f"nothing named {', '.join(unknown)}. Zoom on a province or sea id (lati, tyr), "
            f"a region ({names}), a civilization (rome), seas or all.",
            WIDTH,
        )
    return lines or [Text("zoom: nothing there.")]
