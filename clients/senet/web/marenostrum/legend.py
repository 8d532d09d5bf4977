"""The key to the Mare Nostrum map: what its shapes, chips and outlines mean."""

from __future__ import annotations

from functools import cache
from html import escape

from senet.text.marenostrum.names import CIV_NAMES
from senet.web.boards import svg
from senet.web.marenostrum import glyphs
from senet.web.marenostrum.style import BATTLE, CHAIN, CIV_COLOURS, FOUGHT, civ_letter


def _item(drawing: list[str], words: str, width: float) -> str:
    return svg.svg(width, 18, drawing, words)


@cache
def legend_html() -> str:
    """Small keys that wrap on a phone (the same for every view, so drawn once)."""
    keys: list[str] = []
    for kind, words in (
        ("city", "cities built / city sites"),
        ("temple", "temples"),
        ("market", "markets"),
        ("fortress", "fortresses"),
    ):
        keys.append(
            f"<span>{_item([glyphs.BUILDINGS[kind](2, 15)], words, 14)} {escape(words)}</span>"
        )
    caravan, width = glyphs.chip(1, 14, "win", "#4e3b1f", "#ffffff")
    free, free_width = glyphs.chip(
        1, 14, "oil", "#ffffff", "#4a4a4a", stroke="#7a6a4a", stroke_dasharray="2 2"
    )
    keys.append(
        f"<span>{_item([caravan], 'caravan', width + 2)} caravan on a commodity icon</span>"
    )
    keys.append(f"<span>{_item([free], 'free icon', free_width + 2)} free icon</span>")
    units, units_width = glyphs.chip(1, 14, "R 2L 1C 1S", *CIV_COLOURS[0][:2])
    keys.append(
        f"<span>{_item([units], 'units', units_width + 2)} legions, creatures, triremes "
        "(in a province: not yet launched)</span>"
    )
    keys.append("<span>★ capital, + influence placed this phase</span>")
    for colour, words in (
        (BATTLE, "battle to resolve"),
        (FOUGHT, "fought this turn"),
        (CHAIN, "blockaded crossing"),
    ):
        ring = svg.rect(
            2, 3, 24, 12, rx=4, fill="none", stroke=colour, stroke_width=2.5, stroke_dasharray="5 3"
        )
        keys.append(f"<span>{_item([ring], words, 28)} {escape(words)}</span>")
    civs = []
    for index, (name, colours) in enumerate(zip(CIV_NAMES, CIV_COLOURS, strict=True)):
        chip, chip_width = glyphs.chip(1, 14, civ_letter(index + 1), colours.strong, colours.ink)
        civs.append(f"<span>{_item([chip], name, chip_width + 2)} {escape(name)}</span>")
    return (
        f"<div class='mn-legend' aria-label='Key to the map'>{''.join(keys)}</div>"
        f"<div class='mn-legend' aria-label='Civilizations'>{''.join(civs)}</div>"
    )
