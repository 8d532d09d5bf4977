"""A finished match's export as JSON: the record ``senet export`` writes one per line,
the web client serves for download, and ``senet.rl.dataset`` reads back.

A record is ``{"match_id": ..., "export": {...}}``, the export being
``ExportMatchResponse`` in protobuf's JSON form: the proto's field names, every
field (defaults included), 64-bit numbers as strings. Readers ignore fields they do
not know, so a newer server's records still read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf import json_format

from senet.v1 import match_service_pb2 as ms


def export_record(match_id: str, export: ms.ExportMatchResponse) -> dict[str, Any]:
    """The JSON record of ``match_id``'s export."""
    data = json_format.MessageToDict(
        export, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    return {"match_id": match_id, "export": data}


def record_export(record: Mapping[str, Any]) -> tuple[str, ms.ExportMatchResponse]:
    """The match id and export of a JSON record (:func:`export_record`).

    Raises:
        KeyError: the record lacks its match id or export.
        google.protobuf.json_format.ParseError: the export is not one.
    """
    export = json_format.ParseDict(
        record["export"], ms.ExportMatchResponse(), ignore_unknown_fields=True
    )
    return str(record["match_id"]), export
