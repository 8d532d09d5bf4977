"""A bare gRPC echo server: the baseline the service benchmark compares against.

``python -m tests.bench.echo_server [--host H] [--port P]`` serves one unary
method, ``/senet.bench.Echo/Echo``, that returns its request bytes unchanged.
There is no .proto: the generic handler API with bytes passthrough (no
serializers) stands in for generated code. It runs the way ``senet serve``
does (its own process, ``asyncio.run`` of a ``grpc.aio`` server with the same
server options), so the only difference from the real server is the work the
real server does per call. Prints ``Echo is serving on HOST:PORT`` once bound
and stops on SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from collections.abc import Callable
from typing import Any

import grpc

SERVICE = "senet.bench.Echo"
METHOD = f"/{SERVICE}/Echo"
# The same options create_server() gives the Senet server.
SERVER_OPTIONS = [
    ("grpc.max_receive_message_length", 64 * 1024),
    ("grpc.so_reuseport", 0),
]


async def _echo(request: bytes, context: Any) -> bytes:
    return request


def echo_handler() -> grpc.GenericRpcHandler[bytes, bytes]:
    """The generic handler of the echo service (requests and replies are raw bytes)."""
    return grpc.method_handlers_generic_handler(
        SERVICE, {"Echo": grpc.unary_unary_rpc_method_handler(_echo)}
    )


async def serve_handler(
    handler: grpc.GenericRpcHandler[Any, Any], name: str, host: str, port: int
) -> None:
    """Serve ``handler`` as ``senet serve`` runs (a ``grpc.aio`` server with its
    options) until SIGTERM or SIGINT; prints ``NAME is serving on HOST:PORT``."""
    server = grpc.aio.server(options=SERVER_OPTIONS)
    server.add_generic_rpc_handlers((handler,))
    bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    print(f"{name} is serving on {host}:{bound}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(0)


def command(
    prog: str, description: str | None, handler: Callable[[], grpc.GenericRpcHandler[Any, Any]],
    name: str, argv: list[str] | None,
) -> int:  # fmt: skip
    """The ``main`` of a benchmark server module: ``--host``, ``--port``, then serve."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    asyncio.run(serve_handler(handler(), name, args.host, args.port))
    return 0


def main(argv: list[str] | None = None) -> int:
    return command("python -m tests.bench.echo_server", __doc__, echo_handler, "Echo", argv)


if __name__ == "__main__":
    raise SystemExit(main())
