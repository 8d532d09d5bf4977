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


async def serve(host: str, port: int) -> None:
    """Serve until SIGTERM or SIGINT."""
    server = grpc.aio.server(options=SERVER_OPTIONS)
    server.add_generic_rpc_handlers((echo_handler(),))
    bound = server.add_insecure_port(f"{host}:{port}")
    await server.start()
    print(f"Echo is serving on {host}:{bound}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.echo_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    asyncio.run(serve(args.host, args.port))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
