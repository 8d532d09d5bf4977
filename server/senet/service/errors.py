"""The service's own errors: what a client did wrong, or why it must wait.

The rules core raises :class:`senet.games.errors.GameError` subclasses; the
application layer raises :class:`ServiceError` subclasses; the store raises
:class:`senet.store.StoreError`. Each service error carries a stable ``reason``
(``google.rpc.ErrorInfo``) and the facts a client can act on; which status code
each one becomes is the gRPC face's business, in one place:
:mod:`senet.service.grpc_errors`. This module knows nothing of gRPC.
"""

from __future__ import annotations

from collections.abc import Mapping


class ServiceError(Exception):
    """An error the service reports to the client, with its reason.

    Attributes:
        facts: What a client can act on without parsing the message (the
            current version, a limit), forwarded as ``google.rpc.ErrorInfo``
            metadata with lowerCamelCase keys.
        retry_after_s: When set, how long to wait before retrying (sent as
            ``google.rpc.RetryInfo``).
    """

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
    reason = "MALFORMED_REQUEST"


class VersionAhead(ServiceError):
    """A stream asked to resume after a version the match has not reached."""

    reason = "VERSION_AHEAD"


class InvalidPageToken(ServiceError):
    reason = "INVALID_PAGE_TOKEN"


class TokenRequired(ServiceError):
    reason = "TOKEN_REQUIRED"


class BadToken(ServiceError):
    reason = "BAD_TOKEN"


class AdminKeyRequired(ServiceError):
    reason = "ADMIN_KEY_REQUIRED"


class WorkerKeyRequired(ServiceError):
    """A BotService call without the worker key (or the admin key)."""

    reason = "WORKER_KEY_REQUIRED"


class SeatTaken(ServiceError):
    reason = "SEAT_TAKEN"


class NoOpenSeat(ServiceError):
    reason = "NO_OPEN_SEAT"


class BotSeat(ServiceError):
    """JoinMatch named a bot seat: those are played by bot workers only."""

    reason = "BOT_SEAT"


class SeatKept(ServiceError):
    """JoinMatch named a seat kept for one player: a rematch's, for its player of the
    match before (claimed through RequestRematch), or a queued match's, for the
    ticket's player (claimed through FindMatch)."""

    reason = "SEAT_KEPT"


class MatchNotFinished(ServiceError):
    reason = "MATCH_NOT_FINISHED"


class RematchDeclined(ServiceError):
    """RequestRematch after a player of the finished match declined its rematch."""

    reason = "REMATCH_DECLINED"


class RematchStarted(ServiceError):
    """DeclineRematch from a player whose rematch has started: they play it, or
    leave it (LeaveMatch)."""

    reason = "REMATCH_STARTED"


class MatchNotStarted(ServiceError):
    """An action before every open seat is claimed: the deal is not made yet (a fair
    match is dealt from every seat's entropy), so nobody may move."""

    reason = "MATCH_NOT_STARTED"


class StaleVersion(ServiceError):
    reason = "STALE_VERSION"


class RequestIdReused(ServiceError):
    reason = "REQUEST_ID_REUSED"


class RateLimited(ServiceError):
    reason = "RATE_LIMITED"


class QuotaExceeded(ServiceError):
    """A client (or seat) used up one of its quotas (see senet.service.quotas)."""

    reason = "QUOTA_EXCEEDED"


class Draining(ServiceError):
    reason = "DRAINING"


class RulesNewerThanReplica(ServiceError):
    """The match is played under a newer version of its game's rules than this
    replica knows (a newer replica took it over during a rolling upgrade): this
    one would misplay it, so it leaves the match to the replicas that know them."""

    reason = "RULES_NEWER_THAN_REPLICA"


class IdentityRequired(ServiceError):
    """A call that acts for a player came without an identity token."""

    reason = "IDENTITY_REQUIRED"


class BadIdentity(ServiceError):
    """An identity token that is malformed, expired, or not signed by a trusted key;
    the message says which."""

    reason = "BAD_IDENTITY"


class AlreadyQueued(ServiceError):
    """The player already has a ticket, or a queued match in progress, for this game."""

    reason = "ALREADY_QUEUED"


class TicketNotFound(ServiceError):
    reason = "TICKET_NOT_FOUND"


class SeatGivenUp(ServiceError):
    """A ticket resumed after its seat was given up: its player did not collect the
    seat (or send its entropy) within the no-show time, and the match went on."""

    reason = "SEAT_GIVEN_UP"


class NotYourTicket(ServiceError):
    """A ticket id resumed under another player's identity."""

    reason = "NOT_YOUR_TICKET"


class PlayerNotFound(ServiceError):
    reason = "PLAYER_NOT_FOUND"


class IdentityProviderUnavailable(ServiceError):
    """The identity provider's keys (a JWKS URL) could not be fetched: the token may
    be good, so the client retries rather than asks for another."""

    reason = "IDENTITY_PROVIDER_UNAVAILABLE"


# -- the ladder (issue 37) --------------------------------------------------
class BadBotKey(ServiceError):
    """A bot key that no registered bot holds (or one replaced by a new key)."""

    reason = "BAD_BOT_KEY"


class BotRegistrationRefused(ServiceError):
    """The server's policy (``Settings.bot_registration``) does not let this
    identity register bots."""

    reason = "BOT_REGISTRATION_REFUSED"


class BotNotFound(ServiceError):
    reason = "BOT_NOT_FOUND"


class NotYourBot(ServiceError):
    """A bot retired by someone other than its owner (without the admin key)."""

    reason = "NOT_YOUR_BOT"


class LadderNotFound(ServiceError):
    reason = "LADDER_NOT_FOUND"


class TestNotFound(ServiceError):
    """No head-to-head test with that id."""

    reason = "TEST_NOT_FOUND"


class TournamentNotFound(ServiceError):
    reason = "TOURNAMENT_NOT_FOUND"
