"""Service errors and the one mapping from every error to a gRPC status.

The rules core raises :class:`senet.games.errors.GameError` subclasses; the
application layer raises :class:`ServiceError` subclasses; the store raises
:class:`senet.store.StoreError`. :func:`status_for` turns any of them into a
gRPC code and a stable ``reason`` for ``google.rpc.ErrorInfo``. Stored data that
cannot be read (:class:`senet.store.CorruptMatch` from the store, a
:class:`~senet.games.errors.CorruptStateError` from parsing a document) is INTERNAL
with reason CORRUPT_STATE. Anything else is a server bug and becomes INTERNAL.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc

from senet.games import errors as game_errors
from senet.store import CorruptMatch, MatchNotFound, StoreUnavailable

ERROR_DOMAIN = "senet.dev"


class ServiceError(Exception):
    """An error the service reports to the client, with its code and reason.

    Attributes:
        facts: What a client can act on without parsing the message (the
            current version, a limit), forwarded as ``google.rpc.ErrorInfo``
            metadata with lowerCamelCase keys.
        retry_after_s: When set, how long to wait before retrying (sent as
            ``google.rpc.RetryInfo``).
    """

    code = grpc.StatusCode.FAILED_PRECONDITION
    reason = "FAILED_PRECONDITION"

    def __init__(
        self,
        message: str = "",
        facts: Mapping[str, object] | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message)
        self.facts = {key: str(value) for key, value in (facts or {}).items()}
        self.retry_after_s = retry_after_s


class MalformedRequest(ServiceError):
    code = grpc.StatusCode.INVALID_ARGUMENT
    reason = "MALFORMED_REQUEST"


class VersionAhead(ServiceError):
    """A stream asked to resume after a version the match has not reached."""

    code = grpc.StatusCode.OUT_OF_RANGE
    reason = "VERSION_AHEAD"


class InvalidPageToken(ServiceError):
    code = grpc.StatusCode.INVALID_ARGUMENT
    reason = "INVALID_PAGE_TOKEN"


class MatchNotFoundError(ServiceError):
    code = grpc.StatusCode.NOT_FOUND
    reason = "MATCH_NOT_FOUND"


class TokenRequired(ServiceError):
    code = grpc.StatusCode.UNAUTHENTICATED
    reason = "TOKEN_REQUIRED"


class BadToken(ServiceError):
    code = grpc.StatusCode.UNAUTHENTICATED
    reason = "BAD_TOKEN"


class AdminKeyRequired(ServiceError):
    code = grpc.StatusCode.PERMISSION_DENIED
    reason = "ADMIN_KEY_REQUIRED"


class WorkerKeyRequired(ServiceError):
    """A BotService call without the worker key (or the admin key)."""

    code = grpc.StatusCode.PERMISSION_DENIED
    reason = "WORKER_KEY_REQUIRED"


class SeatTaken(ServiceError):
    reason = "SEAT_TAKEN"


class NoOpenSeat(ServiceError):
    reason = "NO_OPEN_SEAT"


class BotSeat(ServiceError):
    """JoinMatch named a bot seat: those are played by bot workers only."""

    reason = "BOT_SEAT"


class MatchNotFinished(ServiceError):
    reason = "MATCH_NOT_FINISHED"


class MatchNotStarted(ServiceError):
    """An action before every open seat is claimed: the deal is not made yet (a fair
    match is dealt from every seat's entropy), so nobody may move."""

    reason = "MATCH_NOT_STARTED"


class StaleVersion(ServiceError):
    code = grpc.StatusCode.ABORTED
    reason = "STALE_VERSION"


class RequestIdReused(ServiceError):
    code = grpc.StatusCode.ALREADY_EXISTS
    reason = "REQUEST_ID_REUSED"


class RateLimited(ServiceError):
    code = grpc.StatusCode.RESOURCE_EXHAUSTED
    reason = "RATE_LIMITED"


class QuotaExceeded(ServiceError):
    """A client (or seat) used up one of its quotas (see senet.service.quotas)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED
    reason = "QUOTA_EXCEEDED"


class Draining(ServiceError):
    code = grpc.StatusCode.UNAVAILABLE
    reason = "DRAINING"


_GAME_CODES: dict[type[game_errors.GameError], grpc.StatusCode] = {
    game_errors.UnknownGameError: grpc.StatusCode.INVALID_ARGUMENT,
    game_errors.InvalidOptionsError: grpc.StatusCode.INVALID_ARGUMENT,
    game_errors.MalformedActionError: grpc.StatusCode.INVALID_ARGUMENT,
    game_errors.IllegalActionError: grpc.StatusCode.FAILED_PRECONDITION,
    game_errors.NotYourTurnError: grpc.StatusCode.FAILED_PRECONDITION,
    game_errors.GameOverError: grpc.StatusCode.FAILED_PRECONDITION,
}


def facts_of(exc: BaseException) -> dict[str, str]:
    """The ErrorInfo metadata of an error a client caused (none for server faults)."""
    if isinstance(exc, ServiceError | game_errors.GameError) and not isinstance(
        exc, game_errors.CorruptStateError
    ):
        return exc.facts
    return {}


def status_for(exc: BaseException) -> tuple[grpc.StatusCode, str, str]:
    """Map any exception to (code, ErrorInfo reason, message)."""
    if isinstance(exc, ServiceError):
        return exc.code, exc.reason, str(exc)
    if isinstance(exc, game_errors.CorruptStateError | CorruptMatch):
        return grpc.StatusCode.INTERNAL, "CORRUPT_STATE", "stored match data is corrupt"
    if isinstance(exc, game_errors.GameError):
        for cls in type(exc).__mro__:
            if cls in _GAME_CODES:
                return _GAME_CODES[cls], exc.reason, str(exc)
        return grpc.StatusCode.FAILED_PRECONDITION, exc.reason, str(exc)
    if isinstance(exc, MatchNotFound):
        return grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND", "no such match (or it expired)"
    if isinstance(exc, StoreUnavailable):
        return (
            grpc.StatusCode.UNAVAILABLE,
            "STORE_UNAVAILABLE",
            "match storage is unreachable; retry shortly",
        )
    return grpc.StatusCode.INTERNAL, "INTERNAL", "internal error"
