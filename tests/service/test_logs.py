"""Log lines keep what they are about in either format.

An operator's trial ran the server with plain logs: ``store health changed`` said
nothing of which way (its ``extra=`` fields were dropped)."""

from __future__ import annotations

import json
import logging
import sys

from senet.service.logs import JsonFormatter, PlainFormatter


def _record(exc: bool = False) -> logging.LogRecord:
    info = None
    if exc:
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            info = sys.exc_info()
    record = logging.getLogger("senet.test").makeRecord(
        "senet.test", logging.WARNING, __file__, 1, "store %s", ("down",), info,
        extra={"serving": False, "match_id": "m1"},
    )  # fmt: skip
    return record


def test_plain_lines_end_with_the_fields() -> None:
    line = PlainFormatter().format(_record())
    assert line.endswith("WARNING senet.test store down serving=False match_id=m1"), line


def test_a_traceback_stays_below_the_fields() -> None:
    head, *rest = PlainFormatter().format(_record(exc=True)).splitlines()
    assert head.endswith("store down serving=False match_id=m1")
    assert rest[0].startswith("Traceback") and rest[-1] == "RuntimeError: boom"


def test_json_lines_hold_the_fields_and_nothing_formatting_added() -> None:
    record = _record()
    PlainFormatter().format(record)  # another handler's formatter ran first
    entry = json.loads(JsonFormatter().format(record))
    assert entry["serving"] is False and entry["match_id"] == "m1"
    assert "asctime" not in entry and "message" not in entry and entry["msg"] == "store down"
