"""Reading stored JSON documents written by another release of Senet.

Replicas of two releases share one store while a deployment rolls over, so a
replica may read a record a newer release wrote, with fields it does not know.
It reads the fields it knows, as it would a record of its own, rather than
refusing the record as corrupt: the newer release's additions are there for the
replicas that know them. (Records of older releases lack the newer fields; each
dataclass gives those a default that reads as the older release meant.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

_FIELDS: dict[type[Any], frozenset[str]] = {}


def known_fields(cls: type[Any], raw: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``raw`` whose keys name a field of the dataclass ``cls``."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in fields(cls))
    return {key: value for key, value in raw.items() if key in names}
