"""What a person types at the prompt, turned into a choice among the legal actions.

Accepted input:

* a number, ``1`` to the number of legal actions;
* an action's notation, in any case and with its spaces in any order (``B d3 c3`` is
  ``b c3 d3``; ``take left`` is ``take l``; ``exp/col`` is ``col/exp``);
* only space names (``c2``), when exactly one legal action places on those spaces;
* commands: ``?`` / ``help``, ``? N`` (the label of action N), ``list`` (every action
  with its label), ``board`` (draw the table again), ``quit``.

Anything else that looks like notation is handed to the server, whose error (reason
and message) tells the player what is wrong with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from senet.v1 import match_pb2

_SPACE_RE = re.compile(r"^[a-h][1-9]$")
_PATRON_ORDER = ("cur", "col", "exp", "hei", "dir")
_SIDES = {"left": "l", "right": "r"}

COMMANDS = {
    "?": "help",
    "h": "help",
    "help": "help",
    "list": "list",
    "ls": "list",
    "board": "board",
    "redraw": "board",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}


@dataclass(frozen=True)
class Submit:
    """Send this notation. ``known`` is False when it matched no listed action (the
    server decides, and explains a refusal)."""

    notation: str
    known: bool = True


@dataclass(frozen=True)
class Command:
    """A client command (``help``, ``list``, ``board``, ``quit``, ``explain``)."""

    name: str
    message: str = ""


@dataclass(frozen=True)
class Problem:
    """Input that cannot be used, and why."""

    message: str


Choice = Submit | Command | Problem


def normalize(text: str) -> str:
    """A canonical form of notation for comparison (not validation)."""
    tokens = text.replace(",", " ").lower().split()
    if not tokens:
        return ""
    kind, args = tokens[0], tokens[1:]
    if args and all(_SPACE_RE.match(arg) for arg in args):
        args = sorted(args, key=lambda a: (int(a[1:]), a[0]))
    args = [_SIDES.get(arg, arg) for arg in args]
    rooms = []
    for arg in args:
        left, slash, right = arg.partition("/")
        if slash and left in _PATRON_ORDER and right in _PATRON_ORDER:
            first, second = sorted((left, right), key=_PATRON_ORDER.index)
            arg = f"{first}/{second}"
        rooms.append(arg)
    return " ".join([kind, *rooms])


def _spaces_of(notation: str) -> tuple[str, ...]:
    return tuple(sorted(t for t in notation.lower().split()[1:] if _SPACE_RE.match(t)))


def resolve(text: str, actions: Sequence[match_pb2.LegalAction]) -> Choice:
    """Read one line of input against the legal actions (numbered from 1)."""
    line = text.strip()
    count = len(actions)
    if not line:
        return Problem(
            f"Type a number from 1 to {count}, an action's notation (like "
            f"'{actions[0].notation if actions else 'pass'}'), or ? for help."
        )
    lowered = line.lower()
    if lowered in COMMANDS:
        return Command(COMMANDS[lowered])
    explain = re.fullmatch(r"\?\s*(\d+)", lowered)
    if explain is not None:
        number = int(explain.group(1))
        if 1 <= number <= count:
            action = actions[number - 1]
            return Command("explain", f"{number}: {action.notation} - {action.label}")
        return Problem(f"There is no action {number}: the actions are numbered 1 to {count}.")
    if lowered.isdigit():
        number = int(lowered)
        if 1 <= number <= count:
            return Submit(actions[number - 1].notation)
        return Problem(f"There is no action {number}: choose a number from 1 to {count}.")
    wanted = normalize(lowered)
    for action in actions:
        if normalize(action.notation) == wanted:
            return Submit(action.notation)
    tokens = lowered.replace(",", " ").split()
    if all(_SPACE_RE.match(token) for token in tokens):
        spaces = tuple(sorted(tokens))
        fits = [(n, a) for n, a in enumerate(actions, 1) if _spaces_of(a.notation) == spaces]
        if len(fits) == 1:
            return Submit(fits[0][1].notation)
        if fits:
            options = ", ".join(f"{n} ({a.notation})" for n, a in fits[:6])
            return Problem(f"{line!r} fits several actions: {options}. Type one of them.")
        return Problem(f"No legal action places on {', '.join(spaces)} now.")
    return Submit(line, known=False)
