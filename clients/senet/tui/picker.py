"""Which legal actions fit what the player has typed so far (the filter of the action list).

Kept apart from the widgets so it can be tested alone. Typed words narrow the list:
an action stays when every word is found in its notation or its label (``c3``,
``expand``, ``take left`` with the game's aliases). A number does not filter: it
names an action by its place in the full list, as in the line mode.
"""

from __future__ import annotations

from collections.abc import Sequence

from senet.text.choose import PLAIN_INPUT, InputHints
from senet.v1 import match_pb2


def is_number(text: str) -> bool:
    """Whether ``text`` is an action number (filtering leaves the list whole)."""
    return text.strip().isdigit()


def matching(
    text: str, actions: Sequence[match_pb2.LegalAction], hints: InputHints = PLAIN_INPUT
) -> list[int]:
    """Indexes (0-based, in list order) of the actions that fit ``text``."""
    words = text.replace(",", " ").lower().split()
    if not words or is_number(text) or text.strip().startswith("?"):
        return list(range(len(actions)))
    wanted = [(word, hints.aliases.get(word, word)) for word in words]
    fits = []
    for index, action in enumerate(actions):
        notation = action.notation.lower()
        haystack = f"{notation} {action.label.lower()}"
        tokens = {*notation.split(), *notation.replace("/", " ").split()}
        if all(word in haystack or alias in tokens for word, alias in wanted):
            fits.append(index)
    return fits


def by_whole_words(
    text: str, actions: Sequence[match_pb2.LegalAction], among: Sequence[int]
) -> list[int]:
    """Of the actions at ``among``, those whose notation holds the typed words as
    whole words, in the order typed and side by side: ``r`` is the ``r`` of
    ``take r``, not the one in a label's "Curator" that the filter also lists, and
    ``move l etru`` is ``move l etru gcis``, not ``move l lati etru``."""
    typed = " ".join(text.replace(",", " ").lower().split())
    if not typed:
        return []
    return [
        i for i in among if f" {typed} " in f" {' '.join(actions[i].notation.lower().split())} "
    ]


__all__ = ["by_whole_words", "is_number", "matching"]
