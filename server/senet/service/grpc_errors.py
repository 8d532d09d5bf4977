"""The one mapping from every error to a gRPC status.

:func:`status_for` turns any exception into a gRPC code and a stable ``reason``
for ``google.rpc.ErrorInfo``: the service's own errors
(:mod:`senet.service.errors`), the rules core's
(:class:`senet.games.errors.GameError`) and the store's
(:class:`senet.store.StoreError`). Stored data that cannot be read
(:class:`senet.store.CorruptMatch` from the store, a
:class:`~senet.games.errors.CorruptStateError` from parsing a document) is
INTERNAL with reason CORRUPT_STATE. Anything else is a server bug and becomes
INTERNAL. Only the gRPC face (:mod:`senet.service.grpc_api`) and the server
set-up use it: the rest of the service knows nothing of gRPC.
"""

from __future__ import annotations

import grpc

from senet.games import errors as game_errors
from senet.service import errors
from senet.store import CorruptMatch, MatchNotFound, StoreUnavailable

ERROR_DOMAIN = "senet.dev"

#: The code of each service error (the nearest class in its MRO decides;
#: FAILED_PRECONDITION for the others).
_SERVICE_CODES: dict[type[Exception], grpc.StatusCode] = {
    errors.MalformedRequest: grpc.StatusCode.INVALID_ARGUMENT,
    errors.VersionAhead: grpc.StatusCode.OUT_OF_RANGE,
    errors.InvalidPageToken: grpc.StatusCode.INVALID_ARGUMENT,
    errors.TokenRequired: grpc.StatusCode.UNAUTHENTICATED,
    errors.BadToken: grpc.StatusCode.UNAUTHENTICATED,
    errors.AdminKeyRequired: grpc.StatusCode.PERMISSION_DENIED,
    errors.WorkerKeyRequired: grpc.StatusCode.PERMISSION_DENIED,
    errors.StaleVersion: grpc.StatusCode.ABORTED,
    errors.RequestIdReused: grpc.StatusCode.ALREADY_EXISTS,
    errors.RateLimited: grpc.StatusCode.RESOURCE_EXHAUSTED,
    errors.QuotaExceeded: grpc.StatusCode.RESOURCE_EXHAUSTED,
    errors.Draining: grpc.StatusCode.UNAVAILABLE,
}

_GAME_CODES: dict[type[Exception], grpc.StatusCode] = {
    game_errors.UnknownGameError: grpc.StatusCode.INVALID_ARGUMENT,
    game_errors.InvalidOptionsError: grpc.StatusCode.INVALID_ARGUMENT,
    game_errors.MalformedActionError: grpc.StatusCode.INVALID_ARGUMENT,
    game_errors.IllegalActionError: grpc.StatusCode.FAILED_PRECONDITION,
    game_errors.NotYourTurnError: grpc.StatusCode.FAILED_PRECONDITION,
    game_errors.GameOverError: grpc.StatusCode.FAILED_PRECONDITION,
}


def facts_of(exc: BaseException) -> dict[str, str]:
    """The ErrorInfo metadata of an error a client caused (none for server faults)."""
    if isinstance(exc, errors.ServiceError | game_errors.GameError) and not isinstance(
        exc, game_errors.CorruptStateError
    ):
        return exc.facts
    return {}


def status_for(exc: BaseException) -> tuple[grpc.StatusCode, str, str]:
    """Map any exception to (code, ErrorInfo reason, message)."""
    if isinstance(exc, errors.ServiceError):
        return _code_in(_SERVICE_CODES, exc), exc.reason, str(exc)
    if isinstance(exc, game_errors.CorruptStateError | CorruptMatch):
        return grpc.StatusCode.INTERNAL, "CORRUPT_STATE", "stored match data is corrupt"
    if isinstance(exc, game_errors.GameError):
        return _code_in(_GAME_CODES, exc), exc.reason, str(exc)
    if isinstance(exc, MatchNotFound):
        return grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND", "no such match (or it expired)"
    if isinstance(exc, StoreUnavailable):
        return (
            grpc.StatusCode.UNAVAILABLE,
            "STORE_UNAVAILABLE",
            "match storage is unreachable; retry shortly",
        )
    return grpc.StatusCode.INTERNAL, "INTERNAL", "internal error"


def _code_in(codes: dict[type[Exception], grpc.StatusCode], exc: Exception) -> grpc.StatusCode:
    """The code of the nearest class of ``exc`` in ``codes``; FAILED_PRECONDITION
    when none is there."""
    for cls in type(exc).__mro__:
        if cls in codes:
            return codes[cls]
    return grpc.StatusCode.FAILED_PRECONDITION
