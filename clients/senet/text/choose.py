"""What a person types at the prompt, turned into a choice among the legal actions.

Accepted input:

* a number, ``1`` to the number of legal actions;
* an action's notation, in any case, with its arguments in any order and the parts
  of a ``a/b`` argument in any order (``B d3 c3`` is ``b c3 d3``, ``exp/col`` is
  ``col/exp``), and with the game's aliases (Mykerinos: ``take left`` is ``take l``);
* only the arguments (``c2``), for a game whose renderer names the tokens that may
  be typed alone (Mykerinos: board spaces), when exactly one legal action takes them;
* commands: ``?`` / ``help``, ``? N`` (the label of action N), ``list`` (every action
  with its label), ``board`` (draw the table again), ``zoom <what>`` (a closer look
  at part of the table, for a game whose renderer offers one), ``quit``.

Nothing here knows a game: what a game lets a person type loosely comes from its
text renderer as :class:`InputHints`. A first word that no legal action starts with
is answered here, with the words the legal actions start with (the server would
list every word of every variant). Anything else that looks like notation is
handed to the server, whose error (reason and message) tells the player what is
wrong with it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from senet.v1 import match_pb2


@dataclass(frozen=True)
class InputHints:
    """What a game lets a person type loosely; data from its text renderer."""

    #: Words a person may type for a notation token (``{"left": "l"}``).
    aliases: Mapping[str, str] = field(default_factory=dict)
    #: Tokens that may be typed alone, as the arguments of the one legal action that
    #: takes them (board spaces, say); ``None``: every action is typed whole.
    arguments: re.Pattern[str] | None = None


#: A game without hints: notation is compared token by token, nothing more.
PLAIN_INPUT = InputHints()

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
    "rematch": "rematch",
    "decline": "decline",
}


#: ``zoom <what>``: what the words name (a region, a space) is the game renderer's
#: business (:func:`senet.text.renderer.detail_lines`).
ZOOM = re.compile(r"zoom\s+(.+)")


def zoom_words(text: str) -> str | None:
    """The words of a ``zoom <what>`` command, lower case; None for other input."""
    match = ZOOM.fullmatch(" ".join(text.lower().split()))
    return match.group(1) if match is not None else None


@dataclass(frozen=True)
class Submit:
    """Send this notation. ``known`` is False when it matched no listed action (the
    server decides, and explains a refusal)."""

    notation: str
    known: bool = True


@dataclass(frozen=True)
class Command:
    """A client command (``help``, ``list``, ``board``, ``quit``, ``explain``, ``zoom``:
    ``message`` holds the explanation, or the words to zoom on)."""

    name: str
    message: str = ""


@dataclass(frozen=True)
class Problem:
    """Input that cannot be used, and why."""

    message: str


Choice = Submit | Command | Problem


def command_of(text: str) -> Command | None:
    """The client command ``text`` is (one of :data:`COMMANDS`, or ``zoom <what>``),
    whether or not the player has actions to choose from; None for anything else."""
    lowered = text.strip().lower()
    if lowered in COMMANDS:
        return Command(COMMANDS[lowered])
    zoom = zoom_words(lowered)
    return Command("zoom", zoom) if zoom is not None else None


def normalize(text: str, hints: InputHints = PLAIN_INPUT) -> str:
    """A canonical form of notation for comparison (not validation): lower case,
    aliases replaced, the arguments after the first word sorted, and the parts of
    each ``a/b`` argument sorted. Legal notation and typed input meet in this form."""
    tokens = [hints.aliases.get(t, t) for t in text.replace(",", " ").lower().split()]
    if not tokens:
        return ""
    args = sorted("/".join(sorted(arg.split("/"))) for arg in tokens[1:])
    return " ".join([tokens[0], *args])


def _arguments_of(notation: str) -> list[str]:
    return sorted(notation.lower().split()[1:])


def resolve(
    text: str, actions: Sequence[match_pb2.LegalAction], hints: InputHints = PLAIN_INPUT
) -> Choice:
    """Read one line of input against the legal actions (numbered from 1)."""
    line = text.strip()
    count = len(actions)
    if not line:
        return Problem(
            f"Type a number from 1 to {count}, an action's notation (like "
            f"'{actions[0].notation if actions else 'pass'}'), or ? for help."
        )
    command = command_of(line)
    if command is not None:
        return command
    lowered = line.lower()
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
    wanted = normalize(lowered, hints)
    matches = [(n, a) for n, a in enumerate(actions, 1) if normalize(a.notation, hints) == wanted]
    exact = [(n, a) for n, a in matches if a.notation.lower() == " ".join(lowered.split())]
    chosen = exact or matches
    if len(chosen) == 1:
        return Submit(chosen[0][1].notation)
    if chosen:
        return _several(line, chosen)
    tokens = sorted(lowered.replace(",", " ").split())
    if hints.arguments is not None and all(hints.arguments.match(t) for t in tokens):
        fits = [(n, a) for n, a in enumerate(actions, 1) if _arguments_of(a.notation) == tokens]
        if len(fits) == 1:
            return Submit(fits[0][1].notation)
        if fits:
            return _several(line, fits)
        return Problem(f"No legal action takes {', '.join(tokens)} now.")
    first = hints.aliases.get(tokens_in_order(lowered)[0], tokens_in_order(lowered)[0])
    words = action_words(actions)
    if first not in words:
        return Problem(
            f"No action starts with {first!r} now: you can play "
            f"{', '.join(words)} (or a number from 1 to {count}; ? for help)."
        )
    return Submit(line, known=False)


def tokens_in_order(text: str) -> list[str]:
    """The words of typed notation, lower case, in the order typed."""
    return text.replace(",", " ").lower().split()


def action_words(actions: Sequence[match_pb2.LegalAction]) -> list[str]:
    """The first words of ``actions``' notations, once each and sorted: what this
    match lets the seat play now (not every word of every variant of the game)."""
    return sorted({a.notation.split()[0].lower() for a in actions if a.notation.split()})


def _several(line: str, fits: Sequence[tuple[int, match_pb2.LegalAction]]) -> Problem:
    options = ", ".join(f"{n} ({a.notation})" for n, a in fits[:6])
    return Problem(f"{line!r} fits several actions: {options}. Type one of them.")
