"""Errors as a person should read them: one line, no gRPC text, no reason codes.

The server's message already says what was wrong (``no such match (or it
expired)``, ``c9 is not on the board``); the stable reason (``MATCH_NOT_FOUND``)
is for programs, so a person sees the message alone. A server that cannot be
reached gets a line of its own that says how to start one.
"""

from __future__ import annotations

import grpc

from senet.client.client import SenetClient, split_targets
from senet.client.errors import SenetRpcError

#: How to start a server, as the README tells it.
START_SERVER = "make run (or .venv/bin/senet serve)"
#: How long ``senet play`` waits for a server before saying none runs.
REACH_TIMEOUT_S = 3.0

_NO_SERVER_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


def no_server(server: str) -> str:
    """The line shown when nothing answers at ``server``: how to start one when it
    is this machine (elsewhere, starting one is not the player's to do)."""
    targets = split_targets(server)
    where = " or ".join(targets)
    if all(_is_local(target) for target in targets):
        return f"No Senet server answers at {where}. Start one with: {START_SERVER}"
    return f"No Senet server answers at {where}: is the address right, and is it up?"


def _is_local(target: str) -> bool:
    host = target.rpartition(":")[0].strip("[]") if ":" in target else target
    return host in ("localhost", "::1", "") or host.startswith("127.")


def unreachable(exc: BaseException) -> bool:
    """Whether a call failed because no server answered (rather than refused it)."""
    return (
        isinstance(exc, SenetRpcError)
        and exc.code in _NO_SERVER_CODES
        and exc.reason in (exc.code.name, "DRAINING")
    )


def for_people(exc: BaseException, server: str = "") -> str:
    """One line for a person, from any error of a call."""
    if isinstance(exc, SenetRpcError):
        if unreachable(exc):
            return no_server(server) if server else "The server cannot be reached."
        message = exc.message.strip()
        if not message or message.upper() == exc.reason:
            line = exc.reason.replace("_", " ").capitalize() + "."
        else:
            line = message[0].upper() + message[1:]
        more = _what_to_do(exc)
        return line.rstrip(".") + more if more else line
    text = str(exc).strip()
    return text or type(exc).__name__


#: What a person does about a refusal, beyond the server's message.
_REMEDIES = {
    "ADMIN_KEY_REQUIRED": "give the server's admin key: --admin-key, or SENET_ADMIN_KEY",
    "WORKER_KEY_REQUIRED": "give the server's worker key: --worker-key, or SENET_WORKER_KEY",
}


def _what_to_do(exc: SenetRpcError) -> str:
    """The sentence after a refusal's message: when to try again (the server's
    RetryInfo, and the quota's limit), or the flag that was missing."""
    if exc.retry_after_s is not None:
        limit = exc.facts.get("limit")
        at_most = f" (at most {limit})" if limit else ""
        return f"{at_most}. Try again in {max(1, round(exc.retry_after_s))} s."
    remedy = _REMEDIES.get(exc.reason)
    return f" ({remedy})." if remedy else ""


async def reach(server: str, tls_ca: str | None = None) -> str | None:
    """None when a Senet server answers at ``server`` within a few seconds, else why not."""
    # One try per server of a failover list: the first may be the one that is down.
    tries = len(split_targets(server)) or 1
    async with SenetClient(
        server, tls_ca=tls_ca, timeout_s=REACH_TIMEOUT_S, max_attempts=tries
    ) as client:
        try:
            await client.list_games()
        except SenetRpcError as exc:
            if exc.code in _NO_SERVER_CODES:
                return no_server(server)
            return for_people(exc, server)
    return None


__all__ = ["START_SERVER", "for_people", "no_server", "reach", "unreachable"]
