"""Stream messages sent as bytes built once: prompts from cached entries, shared
updates serialized once per audience.

A PlayMatch prompt lists every legal action with its typed form, notation and
label. Built field by field it costs more than the move it prompts for, and the
same entries come back prompt after prompt (the same placements, the same pass).
Each entry's wire form is therefore kept by what makes it (game, notation,
label: the typed action is a function of the notation), and a prompt is the
concatenation of its entries behind the two scalar fields, in the exact bytes
protobuf itself would write.

A compact PlayMatch stream adds fields to such bytes: a message's bytes followed
by a field's are the message with that field set, so the prompt and the request id
ride on an update without it being built again.

An update shared by the streams of one audience is serialized once, not once per
stream. The servicer's response serializers pass ``bytes`` through as they are
(:func:`passing_bytes`), so a stream may yield either a message or its bytes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from senet.codec import codec_for
from senet.service.views import LegalActions
from senet.v1 import match_pb2

#: Entries kept (their bytes, about 60 each): a few games' worth of distinct actions.
ENTRY_CACHE_SIZE = 50_000

# Field keys (number << 3 | wire type) of the messages written here.
_VERSION = b"\x08"  # YourTurn / ListLegalActionsResponse.version = 1, varint
_SEAT = b"\x10"  # .seat = 2, varint
_ACTIONS = b"\x1a"  # .actions = 3, length-delimited
_YOUR_TURN = b"\x1a"  # PlayMatchResponse.your_turn = 3, length-delimited
_TURN = b"\x3a"  # PlayMatchResponse.turn = 7, length-delimited
_REQUEST_ID = b"\x42"  # PlayMatchResponse.request_id = 8, length-delimited


#: The one-byte varints (0-127): most lengths and versions of a stream's fields.
_SMALL_VARINTS = tuple(bytes((value,)) for value in range(0x80))


def varint(value: int) -> bytes:
    """``value`` (>= 0) as a protobuf base-128 varint."""
    if 0 <= value < 0x80:
        return _SMALL_VARINTS[value]
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _delimited(key: bytes, payload: bytes) -> bytes:
    return key + varint(len(payload)) + payload


class LegalEntries:
    """Wire form of ``LegalAction`` entries, each built once (least recently used
    dropped beyond ``size``)."""

    def __init__(self, size: int = ENTRY_CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()

    def repeated(self, legal: LegalActions) -> bytes:
        """``legal``'s actions as the field ``actions = 3`` of a YourTurn or a
        ListLegalActionsResponse (entries in order)."""
        entries = self._entries
        game_id = legal.game_id
        chunks = []
        for a in legal.actions:
            key = (game_id, a.notation, a.label)
            chunk = entries.get(key)
            if chunk is None:
                chunk = entries[key] = self._build(game_id, a.action, a.notation, a.label)
                if len(entries) > self.size:
                    entries.popitem(last=False)
            chunks.append(chunk)
        return b"".join(chunks)

    @staticmethod
    def _build(game_id: str, action: Any, notation: str, label: str) -> bytes:
        entry = match_pb2.LegalAction(notation=notation, label=label)
        codec_for(game_id).write_action(entry.action, action)
        return _delimited(_ACTIONS, entry.SerializeToString())

    def list_fields(self, legal: LegalActions) -> bytes:
        """A ListLegalActionsResponse or a YourTurn holding ``legal``."""
        head = b""
        if legal.version:
            head += _VERSION + varint(legal.version)
        if legal.seat:
            head += _SEAT + varint(legal.seat)
        return head + self.repeated(legal)

    def your_turn(self, legal: LegalActions) -> bytes:
        """The PlayMatchResponse prompting ``legal.seat`` with ``legal``."""
        return _delimited(_YOUR_TURN, self.list_fields(legal))

    def turn(self, legal: LegalActions) -> bytes:
        """The field ``turn`` of a compact PlayMatchResponse prompting with
        ``legal`` (appended to the bytes of the message it rides on)."""
        return _delimited(_TURN, self.list_fields(legal))


def request_id_field(request_id: str) -> bytes:
    """The field ``request_id`` of a compact PlayMatchResponse (appended)."""
    return _delimited(_REQUEST_ID, request_id.encode())


def passing_bytes(serialize: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    """``serialize``, except that bytes (a message serialized already) go out as
    they are."""

    def out(message: Any) -> bytes:
        if message.__class__ is bytes:
            return message
        return serialize(message)

    return out
