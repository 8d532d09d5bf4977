"""What every servicer does with a call before and after its body: credentials read
from metadata, the client's quota taken, every failure mapped to a status through
:func:`senet.service.grpc_errors.fail` (the one mapping), metrics counted.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from senet.service import errors, metrics
from senet.service.grpc_errors import fail
from senet.service.matches import Caller
from senet.service.quotas import Quotas
from senet.service.settings import Settings

T = TypeVar("T")


def header(context: grpc.aio.ServicerContext[Any, Any], name: str) -> str | None:
    """The first text value the call sent as metadata ``name``, stripped; None when
    it sent none."""
    for key, value in context.invocation_metadata() or ():
        if key == name and isinstance(value, str):
            return value.strip()
    return None


def caller_of(context: grpc.aio.ServicerContext[Any, Any], settings: Settings) -> Caller:
    token = None
    admin = not settings.admin_key
    admin_matched = worker = False
    for key, value in context.invocation_metadata() or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, credential = value.partition(" ")
            if scheme.lower() != "bearer" or not credential.strip():
                raise errors.BadToken("authorization must be 'Bearer <token>'")
            token = credential.strip()
        elif key == "x-senet-admin-key" and isinstance(value, str) and settings.admin_key:
            admin = admin_matched = secrets.compare_digest(value, settings.admin_key)
        elif key == "x-senet-worker-key" and isinstance(value, str) and settings.worker_key:
            worker = secrets.compare_digest(value, settings.worker_key)
    return Caller(
        token=token,
        is_admin=admin,
        is_worker=worker or admin_matched,
        client=client_of(context, settings),
    )


def client_of(context: grpc.aio.ServicerContext[Any, Any], settings: Settings) -> str:
    """The client a call counts against (see senet.service.quotas): the trusted
    proxy's header when configured and present, else the peer's address
    without its port."""
    if settings.client_header:
        for key, value in context.invocation_metadata() or ():
            if key == settings.client_header and isinstance(value, str) and value:
                return value.split(",")[0].strip()
    peer = context.peer() or ""
    kind, _, address = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return address.rpartition(":")[0] or address
    return peer


async def run_unary(
    method: str,
    context: grpc.aio.ServicerContext[Any, Any],
    settings: Settings,
    body: Callable[[Caller], Awaitable[T]],
    draining: bool = False,
    quotas: Quotas | None = None,
    match_id: str = "",
) -> T:
    """Run one unary RPC body for every servicer: credentials in, quota taken
    (when given), errors mapped, metrics out (``match_id``: the match the
    request names, for the log)."""
    started = time.perf_counter()
    try:
        if draining:
            raise errors.Draining("server is shutting down; retry on another replica")
        caller = caller_of(context, settings)
        if quotas is not None:
            quotas.take_call(caller.client)
        result = await body(caller)
    except Exception as exc:  # every failure goes through the one mapping
        await fail(context, method, exc, match_id)
        raise AssertionError("abort returned") from exc
    ok, latency = _success_metrics(method)
    ok.inc()
    latency.observe(time.perf_counter() - started)
    return result


@functools.cache
def _success_metrics(method: str) -> tuple[Any, Any]:
    """The OK counter and latency histogram children of ``method``, looked up once."""
    return metrics.RPCS.labels(method, "OK"), metrics.LATENCY.labels(method)
