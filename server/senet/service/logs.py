"""Structured logs: one JSON object per line, with match id and request id."""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from typing import Any

#: A record's own attributes, and those formatting adds: the rest are ``extra=`` fields.
_RESERVED = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def _extra(record: logging.LogRecord) -> dict[str, Any]:
    """The record's ``extra=`` fields."""
    return {
        key: value
        for key, value in vars(record).items()
        if key not in _RESERVED and not key.startswith("_")
    }


class JsonFormatter(logging.Formatter):
    """Formats a record and its ``extra=`` fields as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **_extra(record),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class PlainFormatter(logging.Formatter):
    """Formats a record for people: time, level, logger and message, then its
    ``extra=`` fields as ``key=value`` (they say what the message is about)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = " ".join(f"{key}={value}" for key, value in _extra(record).items())
        if not fields:
            return line
        head, newline, rest = line.partition("\n")  # a traceback stays below
        return f"{head} {fields}{newline}{rest}"


#: Set in the environment of each of ``senet serve --processes N``'s processes:
#: which one it is (its log lines carry it as ``process_index``).
PROCESS_INDEX = "SENET_PROCESS_INDEX"


class _ProcessIndex(logging.Filter):
    """Adds ``process`` (which of a supervisor's server processes logs) to every record."""

    def __init__(self, index: str) -> None:
        super().__init__()
        self.index = index

    def filter(self, record: logging.LogRecord) -> bool:
        record.process_index = self.index
        return True


def configure(level: str = "INFO", json_lines: bool = True) -> None:
    """Route the root logger to stderr in the chosen format (each line of one of
    ``senet serve --processes N``'s processes names it: ``process_index``)."""
    handler = logging.StreamHandler()
    index = os.environ.get(PROCESS_INDEX)
    if index is not None:
        handler.addFilter(_ProcessIndex(index))
    if json_lines:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(PlainFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.Formatter.converter = time.gmtime


class RateLimitedLog:
    """At most one warning per ``interval_s``, counting the ones left out."""

    def __init__(
        self,
        interval_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        logger: logging.Logger | None = None,
    ) -> None:
        self._logger = logger or logging.getLogger("senet")
        self._interval_s = interval_s
        self._clock = clock
        self._next_at = 0.0
        self._suppressed = 0

    def warn(self, message: str, **extra: Any) -> bool:
        """Log ``message`` unless one was logged less than ``interval_s`` ago."""
        now = self._clock()
        if now < self._next_at:
            self._suppressed += 1
            return False
        self._logger.warning(message, extra={**extra, "suppressed_since_last": self._suppressed})
        self._suppressed = 0
        self._next_at = now + self._interval_s
        return True
