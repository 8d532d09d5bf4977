"""Client-side errors: every failed call becomes a SenetRpcError with the server's reason."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

#: Codes worth retrying with the same request id (the server makes retries safe).
RETRYABLE = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


class SenetRpcError(Exception):
    """A call failed.

    Attributes:
        code: The gRPC status code.
        reason: The stable ``google.rpc.ErrorInfo`` reason (e.g. ``ILLEGAL_ACTION``),
            or the code's name when the server sent none.
        message: The server's explanation, for people.
    """

    def __init__(self, code: grpc.StatusCode, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message

    @property
    def retryable(self) -> bool:
        return self.code in RETRYABLE

    @classmethod
    def from_rpc_error(cls, exc: grpc.aio.AioRpcError) -> SenetRpcError:
        reason = exc.code().name
        try:
            status = rpc_status.from_call(exc)  # type: ignore[arg-type]
        except ValueError:
            status = None
        if status is not None:
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    reason = info.reason
        return cls(exc.code(), reason, exc.details() or "")
