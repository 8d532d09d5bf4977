"""A few helpers that write SVG markup as text: every board draws with them.

Every value that reaches the markup goes through :func:`attrs` or :func:`text`,
which escape it, so a display name can never inject markup. Colours are
presentation attributes (``fill=``), not ``style=``: the page's Content Security
Policy forbids inline styles.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape


def attrs(**values: object) -> str:
    """`` name="value"`` pairs, escaped; ``class_`` writes ``class``, ``_`` becomes ``-``."""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        key = name.rstrip("_").replace("_", "-")
        parts.append(f' {key}="{escape(str(value), quote=True)}"')
    return "".join(parts)


def text(x: float, y: float, content: str, **values: object) -> str:
    """A ``<text>`` element at (x, y)."""
    return f"<text{attrs(x=x, y=y, **values)}>{escape(content)}</text>"


def rect(x: float, y: float, width: float, height: float, **values: object) -> str:
    return f"<rect{attrs(x=x, y=y, width=width, height=height, **values)}/>"


def circle(cx: float, cy: float, r: float, **values: object) -> str:
    return f"<circle{attrs(cx=cx, cy=cy, r=r, **values)}/>"


def line(x1: float, y1: float, x2: float, y2: float, **values: object) -> str:
    return f"<line{attrs(x1=x1, y1=y1, x2=x2, y2=y2, **values)}/>"


def polygon(points: Iterable[tuple[float, float]], **values: object) -> str:
    joined = " ".join(f"{x:g},{y:g}" for x, y in points)
    return f"<polygon{attrs(points=joined, **values)}/>"


def group(children: Iterable[str], **values: object) -> str:
    return f"<g{attrs(**values)}>{''.join(children)}</g>"


def titled(title: str, children: Iterable[str], **values: object) -> str:
    """A group with a ``<title>`` (a tooltip, and the name a screen reader says)."""
    return group([f"<title>{escape(title)}</title>", *children], **values)


def target(key: str, title: str, children: Iterable[str]) -> str:
    """A clickable, focusable board element that chooses the actions of ``key``.

    The page marks it live (``data-live``) when some legal action names it; until
    then it is inert, so a spectator's board and a waiting seat's board click nothing.
    """
    return titled(title, children, class_="target", data_target=key)


def svg(
    width: float, height: float, children: Iterable[str], label: str, *, wide: bool = False
) -> str:
    """The outer ``<svg>``: its natural size, scaled down to fit its container (CSS),
    with an accessible name."""
    box = f"0 0 {width:g} {height:g}"
    size = attrs(viewBox=box, width=f"{width:g}", height=f"{height:g}")
    return (
        f"<svg{size}{attrs(role='group', aria_label=label)}"
        f' xmlns="http://www.w3.org/2000/svg" class="board-svg{" wide" if wide else ""}">'
        f"{''.join(children)}</svg>"
    )
