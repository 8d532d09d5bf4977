"""``senet health``: ask a server's standard gRPC health service whether it serves.

Exit status 0 when the answer is SERVING, 1 otherwise: NOT_SERVING (Redis
unreachable, the server draining), UNKNOWN (``senet.durability`` on a Redis that
will not say), NO SUCH SERVICE (a service name the server does not have) or NO
ANSWER (no server, or a TLS mismatch), printed with why. Container engines run it
as their health check (the Dockerfile's HEALTHCHECK), so the image needs no extra
probe binary; Kubernetes asks the same health service with its built-in gRPC
probes instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def check(
    address: str,
    service: str = "",
    *,
    tls_ca: str | None = None,
    server_name: str | None = None,
    timeout_s: float = 3.0,
) -> bool:
    """Whether ``address`` reports SERVING for ``service`` ("" is the whole server)
    (the arguments are :func:`probe`'s)."""
    return probe(
        address, service, tls_ca=tls_ca, server_name=server_name, timeout_s=timeout_s
    ).serving


@dataclass(frozen=True)
class Verdict:
    """What a health check found.

    Attributes:
        status: The status the server gave (``SERVING``, ``NOT_SERVING``,
            ``UNKNOWN``), or what stood in for one: ``NO_SUCH_SERVICE`` (the server
            answers but has no health service of that name), ``NO_ANSWER`` (no
            server answered: down, unreachable, or a TLS mismatch).
        detail: Why, where there is more to say (the call's error).
    """

    status: str
    detail: str = ""

    @property
    def serving(self) -> bool:
        return self.status == "SERVING"

    def __str__(self) -> str:
        words = self.status.replace("_", " ")
        return f"{words}: {self.detail}" if self.detail else words


def probe(
    address: str,
    service: str = "",
    *,
    tls_ca: str | None = None,
    server_name: str | None = None,
    timeout_s: float = 3.0,
) -> Verdict:
    """What ``address`` reports for ``service`` ("" is the whole server).

    Args:
        address: ``host:port`` of the server.
        service: Service name to ask about; empty asks about the server as a whole.
        tls_ca: PEM file of the CA of the server's certificate; enables TLS.
        server_name: Name to check the certificate against, when it differs from
            the host in ``address`` (e.g. probing ``127.0.0.1`` inside a pod).
        timeout_s: Deadline of the check.
    """
    options = [("grpc.ssl_target_name_override", server_name)] if server_name else []
    if tls_ca:
        credentials = grpc.ssl_channel_credentials(Path(tls_ca).read_bytes())
        channel = grpc.secure_channel(address, credentials, options=options)
    else:
        channel = grpc.insecure_channel(address)
    with channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout_s)
        except grpc.RpcError as exc:
            failed: Any = exc  # a unary call's error is its grpc.Call as well
            code: grpc.StatusCode = failed.code()
            if code == grpc.StatusCode.NOT_FOUND:
                return Verdict("NO_SUCH_SERVICE", f"the server has no health service {service!r}")
            return Verdict("NO_ANSWER", f"{code.name}: {failed.details()}")
    name = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    return Verdict(name)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags of ``senet health`` (defaults from the server's own SENET_* settings)."""
    env = os.environ
    parser.add_argument(
        "--address",
        default=f"127.0.0.1:{env.get('SENET_PORT', '50051')}",
        help="host:port of the server (default: this host, port SENET_PORT)",
    )
    parser.add_argument("--service", default="", help="service name ('' = whole server)")
    parser.add_argument(
        "--tls-ca", default=env.get("SENET_TLS_CA") or None, help="PEM file of the server's CA"
    )
    parser.add_argument(
        "--tls-server-name",
        default=env.get("SENET_TLS_SERVER_NAME") or None,
        help="name in the server certificate, when not the host of --address",
    )
    parser.add_argument("--timeout-s", type=float, default=3.0, help="deadline of the check")


def run(args: argparse.Namespace) -> int:
    """Print the verdict (``SERVING``, ``NOT SERVING``, ``UNKNOWN``, ``NO SUCH
    SERVICE`` or ``NO ANSWER``, with why); exit status 0 when serving, else 1."""
    verdict = probe(
        args.address,
        args.service,
        tls_ca=args.tls_ca,
        server_name=args.tls_server_name,
        timeout_s=args.timeout_s,
    )
    print(verdict, file=sys.stdout if verdict.serving else sys.stderr)
    return 0 if verdict.serving else 1


def main(argv: list[str] | None = None) -> int:
    """``python -m senet.service.probe``: ``senet health`` without loading the rest
    of the command line (clients, arena), which exec probes run every few seconds."""
    parser = argparse.ArgumentParser(prog="python -m senet.service.probe", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
