"""The legal actions as a numbered list, for any game.

A game's renderer passes the titles of its action kinds (the first word of the
notation), under which a long list is grouped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.text import Text

from senet.text.drawing import WIDTH, hanging, pad
from senet.v1 import match_pb2

#: Show every action with its label when there are at most this many.
FULL_LIST_MAX = 16


def _shared_label(labels: Iterable[str]) -> str:
    """The start that several labels share, up to a ``, `` or ``: `` (else empty)."""
    texts = list(labels)
    if len(texts) < 3:
        return ""
    prefix = min(texts)
    last = max(texts)
    size = next((i for i, (a, b) in enumerate(zip(prefix, last, strict=False)) if a != b), None)
    prefix = prefix[:size]
    cut = max(prefix.rfind(", "), prefix.rfind(": "))
    return prefix[: cut + 2] if cut >= 12 else ""


def _kind(action: match_pb2.LegalAction) -> str:
    return action.notation.split(" ", 1)[0] if action.notation else "?"


def action_lines(
    actions: Sequence[match_pb2.LegalAction],
    width: int = WIDTH,
    titles: Mapping[str, str] | None = None,
) -> list[Text]:
    """The legal actions, numbered from 1.

    A short list shows every action's notation and label. A long one (early in a
    Mykerinos campaign there are dozens of placements) is grouped by kind under its
    title from ``titles``, the notations in columns; ``? N`` shows the label of one.
    Kinds without a title keep one line per action, with its label.
    """
    titles = titles or {}
    groups: dict[str, list[tuple[int, match_pb2.LegalAction]]] = {}
    for number, action in enumerate(actions, 1):
        groups.setdefault(_kind(action), []).append((number, action))
    if len(actions) <= FULL_LIST_MAX:
        notation_width = max(len(action.notation) for action in actions) if actions else 0
        lines = []
        for members in groups.values():
            shared = _shared_label(action.label for _, action in members)
            if shared:
                lines.append(Text(shared.rstrip(":, ") + ":", style="underline"))
            for number, action in members:
                line = Text(f"{number:>3}  ", style="bold")
                line.append(f"{action.notation:<{notation_width}}  ", style="cyan")
                lines += hanging(line, action.label[len(shared) :], width)
        return lines
    number_width = len(str(len(actions)))
    lines = []
    for kind, members in groups.items():
        title = titles.get(kind) if len(members) > 1 else None
        if title is None:
            for number, action in members:
                line = Text(f"{number:>{number_width}} ", style="bold")
                line.append(f"{action.notation:<14} ", style="cyan")
                lines += hanging(line, action.label, width)
            continue
        lines.append(Text(title + ":", style="underline"))
        cell = number_width + 3 + max(len(action.notation) for _, action in members)
        per_line = max(1, (width - 2) // cell)
        for start in range(0, len(members), per_line):
            line = Text("  ")
            for number, action in members[start : start + per_line]:
                entry = Text(f"{number:>{number_width}} ", style="bold")
                entry.append(action.notation, style="cyan")
                line.append_text(pad(entry, cell))
            line.rstrip()
            lines.append(line)
    return lines
