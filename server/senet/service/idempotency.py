"""Client-supplied keys that make CreateMatch and JoinMatch safe to retry.

A reply lost on the way back (a client deadline during a Redis stall, a replica
killed after its write) must not cost the client its match or its seat, and a
retry must not create a second match or claim a second seat. Both calls take a
``request_id`` (1-64 visible ASCII, like SubmitAction's) and a retry with the
same key returns the original result. Nothing extra is stored to remember keys:

* **Creation.** The match id is derived from the key (:func:`match_id_for`), so
  a retry names the same match, and the store's create, which refuses an
  existing id, cannot write a second one. The match remembers a fingerprint of
  the request that created it (:func:`creation_fingerprint`): a retry with the
  same key and the same request gets the existing match back; the same key
  with a different request is an error (``REQUEST_ID_REUSED``), never silently
  someone else's match. Keys are global to the server, so clients should use
  random ones (a UUID).
* **Joining.** The seat token is minted from the key instead of drawn at random:
  an HMAC, under a random secret kept with the match (:func:`new_join_secret`),
  of the match id, the seat and the key (:func:`seat_token`). The server still
  stores only the token's hash. A retry recomputes the token for each seat and
  finds the seat whose stored hash it matches: that seat is the one the key
  claimed, and the recomputed token is the one the lost reply carried.

Why an HMAC and not the alternatives: storing the token encrypted would need a
key too, plus a second field per claim to keep in step; deriving it from the
client's key alone (a plain hash) would let anyone who guesses a weak key
("join-1") compute a seat's token. The per-match secret is drawn by the server,
never leaves the store (exports do not include it), and needs no configuration
shared between replicas: each replica reads it with the match.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Mapping
from typing import Any

from senet.service import errors

__all__ = [
    "check_request_id",
    "creation_fingerprint",
    "match_id_for",
    "new_join_secret",
    "seat_token",
]

_REQUEST_ID_RE = re.compile(r"^[\x21-\x7e]{1,64}$")


def check_request_id(request_id: str, *, required: bool) -> str:
    """``request_id`` if valid (1-64 visible ASCII characters, 0x21-0x7E: no spaces);
    ``""`` passes when not required.

    Raises:
        MalformedRequest: anything else; its facts give the length and its limit
            only when the length is what is wrong.
    """
    if not request_id and not required:
        return ""
    if not isinstance(request_id, str) or not _REQUEST_ID_RE.match(request_id):
        text = str(request_id)
        facts: dict[str, Any] = {"field": "request_id"}
        if not 1 <= len(text) <= 64:
            facts.update(limit=64, size=len(text))
        raise errors.MalformedRequest(
            "request_id must be 1-64 visible ASCII characters (0x21-0x7E: no spaces)", facts
        )
    return request_id


def match_id_for(request_id: str) -> str:
    """The match id a creation with this key gets (16 hex digits, as random ids)."""
    return hashlib.sha256(f"senet.create\0{request_id}".encode()).hexdigest()[:16]


def rematch_id_for(match_id: str) -> str:
    """The id of ``match_id``'s rematch: the same on every replica, so that the first
    player to ask creates it once; never an id a CreateMatch can get (its keyed ids
    hash another prefix)."""
    return hashlib.sha256(f"senet.rematch\0{match_id}".encode()).hexdigest()[:16]


def creation_fingerprint(request: Mapping[str, Any]) -> str:
    """A digest of what a CreateMatch asked for, to tell a retry from a key reused."""
    text = json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def new_join_secret() -> str:
    """A match's secret for minting seat tokens from join keys (256 random bits)."""
    return secrets.token_hex(32)


def seat_token(join_secret: str, match_id: str, seat: int, request_id: str) -> str:
    """The token a JoinMatch with key ``request_id`` gets for ``seat``: the same
    for every retry, unguessable without the match's secret (see the module)."""
    digest = hmac.new(
        bytes.fromhex(join_secret),
        f"senet.join\0{match_id}\0{seat}\0{request_id}".encode(),
        hashlib.sha256,
    ).digest()
    return "st_" + base64.urlsafe_b64encode(digest).decode().rstrip("=")
