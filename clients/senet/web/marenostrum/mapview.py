"""The Mare Nostrum map as SVG: both boards, every province and sea, and what is on them.

A province is a tile (see :mod:`.layout` for where): its header in the colour of the
civilization whose influence it is under, with its id, its name, ``★`` for a capital
and ``+`` for influence placed this phase; then its buildings (cities built of the
city sites, temples, markets, fortresses), its commodity icons (filled where a
caravan stands), and one chip per civilization with units there (``R 2L 1C 1S``:
Rome's legions, creatures and triremes not yet launched). A sea shows each
civilization's triremes. The tooltip of every space says it all in words (the text
client's details). Lines between spaces are the borders the rules core knows:
land bridges, coasts (dashed, to the sea's centre) and sea lanes.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from html import escape

from senet.games.marenostrum.board import (
    LAND_NEIGHBOURS,
    PROVINCE_DATA,
    PROVINCES,
    SEA_NEIGHBOURS,
    SHORES,
    SPACE_IDS,
)
from senet.text.marenostrum.board import province_detail, sea_detail
from senet.text.marenostrum.names import civ_name
from senet.v1 import mare_nostrum_pb2 as pb
from senet.web.boards import svg
from senet.web.marenostrum import glyphs, layout
from senet.web.marenostrum.style import (
    BATTLE,
    BRIDGE,
    CHAIN,
    FOUGHT,
    SEA_FILL,
    SEA_INK,
    SEA_LINE,
    WATER,
    card_short,
    civ_colours,
    civ_letter,
)
from senet.web.marenostrum.targets import space_key

INFO = {p.id: p for p in PROVINCE_DATA}
#: Advance of a character of a tile's id (12px bold) and of its name (9.5px).
ID_CHAR_WIDTH = 8.0
NAME_CHAR_WIDTH = 5.9


def _pairs(neighbours: tuple[tuple[int, ...], ...]) -> list[tuple[str, str]]:
    return [
        (SPACE_IDS[a], SPACE_IDS[b]) for a, others in enumerate(neighbours) for b in others if a < b
    ]


#: Every land border, coast and sea lane, each pair once, as space ids.
LAND_BORDERS = _pairs(LAND_NEIGHBOURS)
COASTS = [(SPACE_IDS[p], SPACE_IDS[s]) for p in range(PROVINCES) for s in SHORES[p]]
SEA_LANES = _pairs(SEA_NEIGHBOURS)


def cross_board_links() -> list[tuple[str, str]]:
    """Borders, coasts and lanes between a space of the main board and one of the
    western board (the main board's space first)."""
    out = []
    for a, b in (*LAND_BORDERS, *COASTS, *SEA_LANES):
        if layout.board_of(a) != layout.board_of(b):
            out.append((a, b) if layout.board_of(a) == "main" else (b, a))
    return sorted(out)


class Marks:
    """The spaces the military phase points at now, for outlines on the map."""

    def __init__(self, view: pb.MareNostrumView) -> None:
        self.battle = {*view.pending, *(loss.space for loss in view.losses)}
        if view.after_battle:
            self.battle.add(view.after_battle)
        self.fought = {site.space for site in view.fought}
        self.chain: set[str] = set()
        if view.HasField("blockade"):
            self.chain = {view.blockade.start, view.blockade.end, *view.blockade.chain}
        self.capitals = {c.capital for c in view.civilizations if c.capital and not c.absent}

    def outline(self, space: str) -> tuple[str, str] | None:
        """(colour, words) of the outline a space gets, or None."""
        if space in self.battle:
            return BATTLE, "battle to resolve here"
        if space in self.chain:
            return CHAIN, "on the crossing being blockaded"
        if space in self.fought:
            return FOUGHT, "fought over this turn"
        return None


def _outline(space: str, marks: Marks) -> tuple[list[str], str]:
    found = marks.outline(space)
    if found is None:
        return [], ""
    colour, words = found
    left, top, right, bottom = layout.bounds_of(space)
    ring = svg.rect(
        left - 5,
        top - 5,
        right - left + 10,
        bottom - top + 10,
        rx=10,
        fill="none",
        stroke=colour,
        stroke_width=3,
        stroke_dasharray="7 4",
    )
    return [ring], f" ({words})"


def _unit_words(force: pb.MareNostrumForce, compact: bool) -> str:
    """``R 2L 1C`` (``R2L1C`` when a tile is crowded); empty for no unit."""
    counts = [
        f"{n}{letter}"
        for n, letter in ((force.legions, "L"), (force.creatures, "C"), (force.triremes, "S"))
        if n
    ]
    if not counts:
        return ""
    gap = "" if compact else " "
    return civ_letter(force.civilization) + gap + gap.join(counts)


def _chip_width(words: str) -> float:
    return len(words) * glyphs.CHAR_WIDTH + 6


def _unit_chips(
    forces: Iterable[pb.MareNostrumForce],
    x: float,
    y: float,
    right: float | None = None,
    floor: float = 0,
) -> list[str]:
    """One chip per civilization with units, from x along the baseline y. Within
    ``right``: crowded chips lose their spaces; those that still do not fit go on the
    row above, leftwards from the right edge down to ``floor`` (where a tile's
    caravans end); any left over are counted in a last ``+n`` chip (the tooltip
    names them all)."""
    present = [f for f in forces if f.legions or f.creatures or f.triremes]
    compact = right is not None and (
        sum(_chip_width(_unit_words(f, False)) + 3 for f in present) > right - x
    )
    parts = []
    above = right
    for index, force in enumerate(present):
        words = _unit_words(force, compact)
        colours = civ_colours(force.civilization)
        width = _chip_width(words)
        if right is None or above is None or x + width <= right:
            drawn, _ = glyphs.chip(x, y, words, colours.strong, colours.ink)
            x += width + 3
        elif above - width >= floor:
            above -= width
            drawn, _ = glyphs.chip(above, y - 15, words, colours.strong, colours.ink)
            above -= 3
        else:
            more = f"+{len(present) - index}"
            drawn, _ = glyphs.chip(above - _chip_width(more), y - 15, more, "#333333", "#ffffff")
            parts.append(drawn)
            break
        parts.append(drawn)
    return parts


def _buildings(province: pb.MareNostrumProvince, x: float, y: float) -> list[str]:
    """Cities (built of the sites: a hollow house is a free site), temples, markets,
    fortresses: only the kinds there are."""
    sites = len(INFO[province.id].cities) if province.id in INFO else province.cities
    parts = []
    if sites and not province.cities:
        parts.append(glyphs.city(x, y, hollow=True))
        x += 14
    counts = (
        ("city", f"{province.cities}/{sites}" if province.cities else ""),
        ("temple", str(province.temples) if province.temples else ""),
        ("market", str(province.markets) if province.markets else ""),
        ("fortress", str(province.fortresses) if province.fortresses else ""),
    )
    for kind, words in counts:
        if not words:
            continue
        parts.append(glyphs.BUILDINGS[kind](x, y))
        parts.append(svg.text(x + 11, y, words, class_="mn-count"))
        x += 15 + 6 * len(words)
    return parts


def _caravans(province: pb.MareNostrumProvince, x: float, y: float) -> list[str]:
    carried = [int(card) for card in province.caravans]
    icons = INFO[province.id].icons if province.id in INFO else ()
    parts = []
    for icon in icons:
        card = icon + 1  # the core's card index; the wire's MareNostrumCard is one more
        if card in carried:
            carried.remove(card)
            drawn, width = glyphs.chip(x, y, card_short(card), "#4e3b1f", "#ffffff")
        else:
            drawn, width = glyphs.chip(
                x,
                y,
                card_short(card),
                "#ffffff",
                "#4a4a4a",
                stroke="#7a6a4a",
                stroke_dasharray="2 2",
            )
        parts.append(drawn)
        x += width + 3
    return parts


def _control(province: pb.MareNostrumProvince, right: float, y: float) -> list[str]:
    """``occ R`` or ``conv R`` at the tile's right edge: occupied, being converted."""
    for civ, word in ((province.occupier, "occ"), (province.converter, "conv")):
        if civ:
            colours = civ_colours(civ)
            words = f"{word} {civ_letter(civ)}"
            width = len(words) * glyphs.CHAR_WIDTH + 6
            drawn, _ = glyphs.chip(right - width, y, words, colours.strong, colours.ink)
            return [drawn]
    return []


#: Tiles already drawn, by what they show: between two frames of a match most
#: provinces are unchanged, and a frame is drawn for every page after every action.
_TILES: dict[tuple[bytes, bool, str], str] = {}
_TILES_KEPT = 4096


def province_tile(province: pb.MareNostrumProvince, view: pb.MareNostrumView, marks: Marks) -> str:
    """One province's tile, a board target (drawn once for what it shows)."""
    found = marks.outline(province.id)
    key = (
        province.SerializeToString(deterministic=True),
        province.id in marks.capitals,
        found[1] if found else "",
    )
    tile = _TILES.get(key)
    if tile is None:
        if len(_TILES) >= _TILES_KEPT:
            _TILES.clear()
        tile = _TILES[key] = _draw_tile(province, view, marks)
    return tile


def _draw_tile(province: pb.MareNostrumProvince, view: pb.MareNostrumView, marks: Marks) -> str:
    """:func:`province_tile`; ``view`` only says which provinces are capitals."""
    _, cx, cy = layout.PROVINCE_AT[province.id]
    left, top = cx - layout.TILE_WIDTH / 2, cy - layout.TILE_HEIGHT / 2
    colours = civ_colours(province.influence)
    ring, marked = _outline(province.id, marks)
    name = INFO[province.id].name if province.id in INFO else province.id
    flags = ("★" if province.id in marks.capitals else "") + ("+" if province.influence_new else "")
    name_x = left + 8 + len(province.id) * ID_CHAR_WIDTH
    room = left + layout.TILE_WIDTH - name_x - 4 - 9 * len(flags)
    # The whole name, squeezed into the room left when it is long ("Gallia Cisalpina"):
    # never cut; the tile's title says it in full on hover and focus.
    squeeze = room if len(name) * NAME_CHAR_WIDTH > room else None
    children = [
        svg.rect(
            left,
            top,
            layout.TILE_WIDTH,
            layout.TILE_HEIGHT,
            rx=6,
            fill=colours.tint,
            stroke=colours.strong,
            stroke_width=2,
            class_="mn-tile",
        ),
        svg.rect(left, top, layout.TILE_WIDTH, 17, rx=6, fill=colours.strong),
        svg.rect(left, top + 11, layout.TILE_WIDTH, 6, fill=colours.strong),
        svg.text(left + 5, top + 13, province.id, class_="mn-id", fill=colours.ink),
        svg.text(
            name_x,
            top + 13,
            name,
            class_="mn-name",
            fill=colours.ink,
            textLength=squeeze,
            lengthAdjust="spacingAndGlyphs" if squeeze else None,
        ),
        *ring,
    ]
    if flags:
        children.append(
            svg.text(
                left + layout.TILE_WIDTH - 4, top + 13, flags, class_="mn-flag", fill=colours.ink
            )
        )
    children += _buildings(province, left + 5, top + 31)
    children += _control(province, left + layout.TILE_WIDTH - 4, top + 31)
    children += _caravans(province, left + 5, top + 46)
    icons = len(INFO[province.id].icons) if province.id in INFO else 0
    caravans_end = left + 5 + icons * (_chip_width("oil") + 3)
    children += _unit_chips(
        province.forces, left + 5, top + 61, left + layout.TILE_WIDTH - 3, caravans_end
    )
    owner = civ_name(province.influence) if province.influence else "nobody"
    title = f"{province.id} ({name}): {province_detail(province, view).plain}{marked}"
    return svg.titled(
        title, children, class_="target", data_target=space_key(province.id), data_owner=owner
    )


def sea_shape(sea: pb.MareNostrumSea, marks: Marks) -> str:
    """One sea, a board target: its id and name, and each civilization's triremes."""
    shape = layout.SEA_AT[sea.id]
    left, top = shape.x - shape.half_width, shape.y - shape.half_height
    ring, marked = _outline(sea.id, marks)
    name = sea_detail(sea).plain.split(":", 1)[0]
    children = [
        svg.rect(
            left,
            top,
            2 * shape.half_width,
            2 * shape.half_height,
            rx=shape.half_height,
            fill=SEA_FILL,
            stroke=SEA_LINE,
            stroke_width=1.5,
            class_="mn-sea",
        ),
        *ring,
        svg.text(shape.x, shape.y - 4, sea.id, class_="mn-sea-id", fill=SEA_INK),
        svg.text(
            shape.x, shape.y + 8, name.removeprefix("Mare "), class_="mn-sea-name", fill=SEA_INK
        ),
    ]
    fleets = [f for f in sea.forces if f.triremes]
    if fleets:
        words = [f"{civ_letter(f.civilization)} {f.triremes}S" for f in fleets]
        width = sum(len(w) * glyphs.CHAR_WIDTH + 9 for w in words) - 3
        children += _unit_chips(fleets, shape.x - width / 2, shape.y + 22)
    title = f"{sea.id}: {sea_detail(sea).plain}{marked}"
    return svg.target(space_key(sea.id), title, children)


@cache
def _lines(board: str) -> tuple[str, str]:
    """Coasts and sea lanes (drawn under the land), and land bridges (over it): the
    same in every view, so drawn once."""
    water: list[str] = []
    bridges: list[str] = []
    for pairs, kind in ((COASTS, "coast"), (SEA_LANES, "lane"), (LAND_BORDERS, "land")):
        for a, b in pairs:
            if layout.board_of(a) != board or layout.board_of(b) != board:
                continue
            (x1, y1), (x2, y2) = layout.centre_of(a), layout.centre_of(b)
            if kind == "land":
                bridges.append(
                    svg.line(x1, y1, x2, y2, stroke=BRIDGE, stroke_width=7, stroke_linecap="round")
                )
            else:
                water.append(
                    svg.line(
                        x1,
                        y1,
                        x2,
                        y2,
                        stroke=SEA_LINE,
                        stroke_width=1.3 if kind == "coast" else 2.2,
                        stroke_dasharray="5 4" if kind == "coast" else "2 3",
                        opacity=0.7,
                    )
                )
    return "".join(water), "".join(bridges)


@cache
def _land(board: str) -> str:
    """Each region's land (its tiles, widened, so that neighbours merge) and its name:
    the same in every view, so drawn once."""
    parts = []
    labels = []
    for region in layout.REGIONS:
        if region.board != board:
            continue
        for pid in region.provinces:
            left, top, right, bottom = layout.bounds_of(pid)
            parts.append(
                svg.rect(
                    left - 9, top - 9, right - left + 18, bottom - top + 18, rx=16, fill=region.land
                )
            )
        labels.append(svg.text(region.x, region.y, region.name, class_="mn-region"))
    return "".join(parts + labels)


def board_svg(board: layout.Board, view: pb.MareNostrumView, marks: Marks) -> str:
    """One board of the map."""
    water, bridges = _lines(board.key)
    parts = [svg.rect(0, 0, board.width, board.height, fill=WATER, rx=8), water]
    parts += [sea_shape(s, marks) for s in view.seas if layout.board_of(s.id) == board.key]
    parts += [_land(board.key), bridges]
    parts += [
        province_tile(p, view, marks) for p in view.provinces if layout.board_of(p.id) == board.key
    ]
    return svg.svg(board.width, board.height, parts, board.label, wide=True)


def map_html(board: layout.Board, view: pb.MareNostrumView) -> str:
    """One board of the map in its own box (on a phone it scrolls sideways alone)."""
    zoom = (
        f"<div class='zoom-bar' role='group' aria-label='Zoom {board.key} board'>"
        "<button type='button' data-zoom='out' aria-label='Zoom out'>&#8722;</button>"
        "<button type='button' data-zoom='fit'>fit</button>"
        "<button type='button' data-zoom='in' aria-label='Zoom in'>+</button></div>"
    )
    return (
        f"{zoom}<div class='mn-map mn-{board.key}' data-zoom-key='{board.key}'"
        f" data-natural='{board.width:g}' tabindex='0'>{board_svg(board, view, Marks(view))}</div>"
    )


def joins_html() -> str:
    """Which spaces of the two boards touch: the stubs the two drawings cannot show."""
    joins = ", ".join(f"{a}-{b}" for a, b in cross_board_links())
    return f"<p class='mn-joins'>Between the two boards: {escape(joins)}.</p>"
