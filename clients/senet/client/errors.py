"""Client-side errors: every failed call becomes a SenetRpcError with the server's reason."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

#: Codes worth retrying with the same request id (the server makes retries safe).
RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
#: Codes of a credential missing, wrong or revoked: the same caller fails the same
#: way until it is given another.
REFUSED = frozenset({grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED})


class SenetRpcError(Exception):
    """A call failed.

    Attributes:
        code: The gRPC status code.
        reason: The stable ``google.rpc.ErrorInfo`` reason (e.g. ``ILLEGAL_ACTION``),
            or the code's name when the server sent none.
        message: The server's explanation, for people.
        facts: The ErrorInfo metadata: facts to act on, e.g. ``currentVersion``
            of STALE_VERSION or ``seatToAct`` of NOT_YOUR_TURN.
        retry_after_s: The server's ``google.rpc.RetryInfo`` delay, if it sent one.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        facts: dict[str, str] | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(f"{reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.facts = facts or {}
        self.retry_after_s = retry_after_s

    @property
    def retryable(self) -> bool:
        return self.code in RETRYABLE

    @property
    def refused(self) -> bool:
        """Whether the server refuses the caller's credential (see ``REFUSED``)."""
        return self.code in REFUSED

    @classmethod
    def from_rpc_error(cls, exc: grpc.aio.AioRpcError) -> SenetRpcError:
        reason = exc.code().name
        facts: dict[str, str] = {}
        retry_after_s = None
        try:
            status = rpc_status.from_call(exc)  # type: ignore[arg-type]
        except ValueError:
            status = None
        if status is not None:
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                retry = error_details_pb2.RetryInfo()
                if detail.Unpack(info):
                    reason = info.reason
                    facts = dict(info.metadata)
                elif detail.Unpack(retry):
                    retry_after_s = retry.retry_delay.ToNanoseconds() / 1e9
        return cls(exc.code(), reason, exc.details() or "", facts, retry_after_s)
