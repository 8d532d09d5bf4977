"""Draw any game from its messages alone: the renderer of games without their own.

A game needs no text code to be played in a terminal. This renderer reads the
match's ``MatchSummary`` (seats, whose turn, scores, places) and whatever arm of the
``View`` / ``GameEvent`` oneofs is set, field by field, through
:func:`google.protobuf.json_format.MessageToDict`: it knows no game and no message
type, so a new game's messages (or a ``Struct``) draw as they are. Field names are
the proto's; defaults are left out, as on the wire.

Layout, within :data:`~senet.text.drawing.WIDTH` columns: a title, whose turn, one
line per seat, then ``STATE`` with one line per field of the view. A nested message
or a list that fits stays on its field's line (``{a=1, b=2}``, ``[1, 2]``); one that
does not opens an indented block, list items marked ``-``. Long values wrap.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf.descriptor import Descriptor
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message
from rich.text import Text

from senet.codec.generic import read_object
from senet.text import actions as shared
from senet.text.choose import PLAIN_INPUT
from senet.text.drawing import STATUS_NAME, WIDTH, Charset, hanging, match_words, ordinal
from senet.text.seat_names import SeatNames
from senet.v1 import generic_pb2, match_pb2

#: Indentation of each level of nesting.
INDENT = "  "
#: What ends a line cut to the width (ASCII, so that ``--ascii`` screens stay ASCII).
CUT = "..."

#: Well-known types whose JSON form is free-form (maps of names chosen at run time).
_FREE_FORM = frozenset({"google.protobuf.Struct", "google.protobuf.Value"})

HELP = """\
Type the number of an action, or its notation, then Enter.
Commands: ? N (label of action N), list (all, with labels), board, quit."""


def arm_fields(message: Message, oneof: str = "game") -> tuple[str, dict[str, Any]]:
    """The name of the arm set in ``message``'s oneof, and that arm's fields.

    ``("", {})`` when no arm is set. A well-known type that is not an object (a
    ``Value`` holding a list, say) is returned as ``{"value": ...}``.
    """
    arm = message.WhichOneof(oneof)
    if arm is None:
        return "", {}
    value = getattr(message, arm)
    if isinstance(value, generic_pb2.GenericView | generic_pb2.GenericEvent):
        # The generic arm carries the core's own plain data: draw that, not its
        # encoding (GenericValue wrappers).
        data = read_object(value.data)
        if isinstance(value, generic_pb2.GenericEvent):
            data = {"kind": value.kind, **data}
        return arm, dict(sorted(data.items()))
    raw = MessageToDict(value, preserving_proto_field_name=True)
    fields = _short_enums(_sort_structs(raw, value.DESCRIPTOR), enum_names(value.DESCRIPTOR))
    return arm, fields if isinstance(fields, dict) else {"value": fields}


def _sort_structs(value: object, descriptor: Descriptor | None) -> object:
    """``value`` with the keys of every ``Struct`` in it sorted.

    A ``Struct`` is a map, whose order protobuf does not keep; sorted, a free-form
    view draws the same way on every update. Messages keep their fields' order.
    """
    if isinstance(value, list):
        return [_sort_structs(item, descriptor) for item in value]
    if not isinstance(value, dict):
        return value
    if descriptor is None or descriptor.full_name in _FREE_FORM:
        return {key: _sort_structs(value[key], None) for key in sorted(value)}
    if descriptor.GetOptions().map_entry:  # a map field: sorted keys, typed values
        values = descriptor.fields_by_name["value"].message_type
        return {key: _sort_structs(value[key], values) for key in sorted(value)}
    fields = descriptor.fields_by_name
    return {
        key: _sort_structs(item, fields[key].message_type if key in fields else None)
        for key, item in value.items()
    }


@functools.cache
def enum_names(descriptor: Descriptor) -> Mapping[str, str]:
    """Short names of the enum values a message can hold, by their proto names
    (worked out once per message type: every view and event of a match asks).

    Protocol style prefixes every value with its enum's name (``MYKERINOS_PATRON_``
    in ``MykerinosPatron``); the screen shows the rest, in lower case (``director``).
    """
    names: dict[str, str] = {}
    seen: set[str] = set()
    pending = [descriptor]
    while pending:
        message = pending.pop()
        if message.full_name in seen:
            continue
        seen.add(message.full_name)
        for field in message.fields:
            if field.enum_type is not None:
                prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", field.enum_type.name).upper() + "_"
                for value in field.enum_type.values:
                    short = value.name.removeprefix(prefix)
                    names[value.name] = short.lower() if short != value.name else value.name
            if field.message_type is not None:
                pending.append(field.message_type)
    return names


def _short_enums(value: object, names: Mapping[str, str]) -> object:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_short_enums(item, names) for item in value]
    if isinstance(value, dict):
        return {key: _short_enums(item, names) for key, item in value.items()}
    return value


# ------------------------------------------------------------------ values
def inline(value: object) -> str:
    """One value on one line: ``{a=1, b=[2, 3]}``, ``true``, a string as it is."""
    if isinstance(value, Mapping):
        return "{" + inline_fields(value) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(inline(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # a Struct holds every number as a double
    return str(value)


def inline_fields(fields: Mapping[str, object]) -> str:
    """A message's fields on one line, without braces: ``a=1, b=2`` (``{}`` when empty)."""
    return ", ".join(f"{key}={inline(value)}" for key, value in fields.items()) or "{}"


def _is_scalar_list(value: object) -> bool:
    return isinstance(value, list) and not any(isinstance(i, Mapping | list) for i in value)


def field_lines(key: str, value: object, indent: str = "", width: int = WIDTH) -> list[Text]:
    """The lines of one field, nested blocks indented under it."""
    head = Text(f"{indent}{key}: ", style="bold")
    if _is_scalar_list(value) and isinstance(value, list):
        words = ", ".join(inline(item) for item in value) if value else "[]"
        return hanging(head, words, width)
    if not isinstance(value, Mapping | list):
        return hanging(head, inline(value), width)
    one_line = inline(value) if isinstance(value, list) else inline_fields(value)
    if head.cell_len + len(one_line) <= width:
        return [head + Text(one_line)]
    lines = [Text(f"{indent}{key}:", style="bold")]
    inner = indent + INDENT
    if isinstance(value, Mapping):
        for child_key, child in value.items():
            lines += field_lines(child_key, child, inner, width)
        return lines
    for item in value:
        lines += _item_lines(item, inner, width)
    return lines


def _item_lines(item: object, indent: str, width: int) -> list[Text]:
    """One list item: ``- value`` on one line when it fits, else a ``-`` block."""
    one_line = inline_fields(item) if isinstance(item, Mapping) else inline(item)
    if len(indent) + 2 + len(one_line) <= width or not isinstance(item, Mapping | list):
        return hanging(Text(f"{indent}- "), one_line, width)
    inner = indent + INDENT
    lines: list[Text] = []
    if isinstance(item, Mapping):
        for key, value in item.items():
            lines += field_lines(key, value, inner, width)
    else:
        for value in item:
            lines += _item_lines(value, inner, width)
    # The item's first line carries the dash: ``- key: value``, the rest under it.
    lines[0] = Text(f"{indent}- ") + lines[0][len(inner) :]
    return lines


def state_lines(fields: Mapping[str, object], width: int = WIDTH) -> list[Text]:
    """Every field of a view, one block per field."""
    lines: list[Text] = []
    for key, value in fields.items():
        lines += field_lines(key, value, "", width)
    return lines


# ------------------------------------------------------------------ seats
def seat_label(seat: int, names: SeatNames) -> str:
    """``seat 1 (Ada)``, or ``seat 1 (Ada, you)`` for the viewer."""
    name = names.name(seat)
    you = ", you" if seat == names.viewer else ""
    if name == f"seat {seat}":  # nobody is named there
        return f"seat {seat} (you)" if you else name
    return f"seat {seat} ({name}{you})"


def _seat_count(summary: match_pb2.MatchSummary) -> int:
    return max(len(summary.seats), len(summary.scores), len(summary.places))


def header_lines(
    summary: match_pb2.MatchSummary | None, names: SeatNames, cs: Charset
) -> list[Text]:
    """The title, whose turn it is, and one line per seat with its score."""
    if summary is None:
        return []
    title = Text(summary.game_id.upper() or "MATCH", style="bold reverse")
    if summary.match_id:
        title.append(f"  {match_words(summary)}")
    title.append(f"  {STATUS_NAME.get(summary.status, '?')}")
    lines = [title]
    turn = Text()
    if summary.status != match_pb2.MATCH_STATUS_ACTIVE:
        turn.append(f"Match {STATUS_NAME.get(summary.status, '?')}.", style="bold")
    elif summary.HasField("current_seat"):
        turn.append(f"To move: {seat_label(summary.current_seat, names)}")
        if summary.current_seat == names.viewer:
            turn.append(" - your turn", style="bold reverse")
    lines.append(turn)
    lines.append(Text("SEATS", style="bold"))
    current = summary.current_seat if summary.HasField("current_seat") else None
    for seat in range(_seat_count(summary)):
        marker = f"{cs.turn} " if seat == current else "  "
        line = Text(f"{marker}{seat_label(seat, names):<30}")
        if seat < len(summary.scores):
            line.append(f" score {summary.scores[seat]:>4}", style="bold")
        if seat < len(summary.places) and summary.places[seat]:
            line.append(f"  {ordinal(summary.places[seat])}")
        lines.append(line)
    return lines


# ------------------------------------------------------------------ events
def describe_event(fields: Mapping[str, object], arm: str) -> str:
    """One log line from an event's fields: its kind, then the rest as ``key=value``.

    The kind is the ``kind`` field when there is one, else the name of the only
    field when that is a message (an event oneof), else the arm's name.
    """
    rest = dict(fields)
    kind: object = arm
    if "kind" in rest:
        kind = rest.pop("kind")
    elif len(rest) == 1:
        ((only, value),) = rest.items()
        if isinstance(value, Mapping):
            kind, rest = only, dict(value)
    return f"{inline(kind)}: {inline_fields(rest)}" if rest else inline(kind)


def _cut(line: str, width: int = WIDTH) -> str:
    return line if len(line) <= width else line[: width - len(CUT)] + CUT


def _fit(line: Text, width: int = WIDTH) -> Text:
    """``line`` cut to ``width`` cells, ending in :data:`CUT` (ASCII) when cut."""
    out = line.copy()
    if out.cell_len > width:
        out.truncate(width - len(CUT), overflow="crop")
        out.append(CUT)
    out.rstrip()
    return out


# ------------------------------------------------------------------ the renderer
class GenericRenderer:
    """Draws any game from its summary and view fields (see the module docstring)."""

    #: Serves every game without a renderer of its own, so it claims none.
    game_id = ""
    help_text = HELP
    input_hints = PLAIN_INPUT

    def match_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        names = SeatNames(summary, viewer)
        lines = header_lines(summary, names, cs)
        _, fields = arm_fields(view)
        lines.append(Text("STATE", style="bold"))
        lines += state_lines(fields) if fields else [Text("(nothing to show)", style="dim")]
        return [_fit(line) for line in lines]

    def final_score_lines(
        self,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
        cs: Charset,
    ) -> list[Text]:
        if summary is None or not summary.scores:
            return [Text("No final scores yet.")]
        names = SeatNames(summary, viewer)
        places = list(summary.places)
        seats = range(len(summary.scores))
        lines = [Text("FINAL SCORES", style="bold reverse")]
        for seat in sorted(seats, key=lambda s: places[s] if s < len(places) else len(places)):
            place = ordinal(places[seat]) if seat < len(places) and places[seat] else "?"
            label = seat_label(seat, names)
            lines.append(_fit(Text(f"{place:>4} {label:<30} {summary.scores[seat]:>5} pts")))
        winners = [s for s in seats if s < len(places) and places[s] == 1]
        if winners:
            verb = "share the victory" if len(winners) > 1 else "wins"
            who = " and ".join(seat_label(s, names) for s in winners)
            lines.append(_fit(Text(f"{who} {verb}!", style="bold")))
        return lines

    def update_lines(
        self,
        update: match_pb2.MatchUpdate,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> list[str]:
        names = SeatNames(summary, viewer)
        lines = [_cut(f"{seat_label(update.seat, names)}: {update.notation}")]
        for event in update.events:
            arm, fields = arm_fields(event)
            if arm:
                lines.append(_cut("  " + describe_event(fields, arm)))
        return lines

    def seat_label(
        self,
        seat: int,
        view: match_pb2.View,
        summary: match_pb2.MatchSummary | None,
        viewer: int | None,
    ) -> str:
        return seat_label(seat, SeatNames(summary, viewer))

    def action_lines(
        self, legal: Sequence[match_pb2.LegalAction], width: int = WIDTH
    ) -> list[Text]:
        return shared.action_lines(legal, width)


GENERIC_RENDERER = GenericRenderer()
