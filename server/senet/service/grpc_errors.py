"""The one mapping from every error to a gRPC status.

:func:`status_for` turns any exception into a gRPC code and a stable ``reason``
for ``google.rpc.ErrorInfo``: the service's own errors
(:mod:`senet.service.errors`), the rules core's
(:class:`senet.games.errors.GameError`) and the store's
(:class:`senet.store.StoreError`). Stored data that cannot be read
(:class:`senet.store.CorruptMatch` from the store, a
:class:`~senet.games.errors.CorruptStateError` from parsing a document) is
INTERNAL with reason CORRUPT_STATE. Anything else is a server bug and becomes
INTERNAL. :func:`reported` passes every error a call answers through it, once;
:func:`fail` ends a call with the result, :func:`play_error` puts it in a
PlayMatch stream. Only the gRPC face (:mod:`senet.service.grpc_api`,
:mod:`senet.service.grpc_bots`) and the server set-up use it: the rest of the
service knows nothing of gRPC.
"""

from __future__ import annotations

import logging
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from senet.games import errors as game_errors
from senet.service import errors, metrics
from senet.store import CorruptMatch, MatchNotFound, StoreUnavailable
from senet.v1 import match_service_pb2

ERROR_DOMAIN = "senet.dev"
log = logging.getLogger("senet.rpc")

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
    errors.RulesNewerThanReplica: grpc.StatusCode.UNAVAILABLE,
    errors.IdentityRequired: grpc.StatusCode.UNAUTHENTICATED,
    errors.BadIdentity: grpc.StatusCode.UNAUTHENTICATED,
    errors.IdentityProviderUnavailable: grpc.StatusCode.UNAVAILABLE,
    errors.TicketNotFound: grpc.StatusCode.NOT_FOUND,
    errors.PlayerNotFound: grpc.StatusCode.NOT_FOUND,
    errors.NotYourTicket: grpc.StatusCode.PERMISSION_DENIED,
    errors.BadBotKey: grpc.StatusCode.UNAUTHENTICATED,
    errors.BotRegistrationRefused: grpc.StatusCode.PERMISSION_DENIED,
    errors.BotNotFound: grpc.StatusCode.NOT_FOUND,
    errors.NotYourBot: grpc.StatusCode.PERMISSION_DENIED,
    errors.LadderNotFound: grpc.StatusCode.NOT_FOUND,
    errors.TestNotFound: grpc.StatusCode.NOT_FOUND,
    errors.TournamentNotFound: grpc.StatusCode.NOT_FOUND,
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


# ---------------------------------------------------------------- reporting
def reported(
    method: str, exc: BaseException, match_id: str = ""
) -> tuple[grpc.StatusCode, str, str]:
    """Map ``exc`` through the one mapping, count it, and log it when it is INTERNAL.

    Every error a call answers passes here exactly once, whether it ends the call
    (:func:`fail`) or travels inside a stream (a PlayMatch ``PlayError``), so an
    INTERNAL leaves one log line with its traceback and the match id, whatever
    the RPC.
    """
    code, reason, message = status_for(exc)
    metrics.ERRORS.labels(method, reason).inc()
    if code == grpc.StatusCode.INTERNAL:
        log.error(
            "internal error",
            exc_info=exc,
            extra={"method": method, "match_id": match_id, "reason": reason},
        )
    return code, reason, message


def _rich_status(
    exc: BaseException, code: grpc.StatusCode, reason: str, message: str
) -> grpc.Status:
    info = error_details_pb2.ErrorInfo(reason=reason, domain=ERROR_DOMAIN, metadata=facts_of(exc))
    details = [any_pb2.Any()]
    details[0].Pack(info)
    retry_after_s = getattr(exc, "retry_after_s", None)
    if retry_after_s is not None:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromNanoseconds(max(1, int(retry_after_s * 1e9)))
        details.append(any_pb2.Any())
        details[1].Pack(retry)
    status = status_pb2.Status(code=code.value[0], message=message, details=details)
    return rpc_status.to_status(status)


async def fail(
    context: grpc.aio.ServicerContext[Any, Any], method: str, exc: Exception, match_id: str = ""
) -> None:
    """End the call with ``exc``'s status and ErrorInfo (see :func:`reported`)."""
    code, reason, message = reported(method, exc, match_id)
    status = _rich_status(exc, code, reason, message)
    metrics.RPCS.labels(method, code.name).inc()
    await context.abort(status.code, status.details, status.trailing_metadata)


def play_error(
    exc: BaseException, request_id: str, match_id: str
) -> match_service_pb2.PlayMatchResponse:
    """A refused PlayMatch submission, as the message that tells the stream why."""
    code, reason, message = reported("PlayMatch", exc, match_id)
    return match_service_pb2.PlayMatchResponse(
        error=match_service_pb2.PlayError(
            code=code.value[0],
            reason=reason,
            message=message,
            request_id=request_id,
            metadata=facts_of(exc),
        )
    )
