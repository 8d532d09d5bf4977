"""``senet web``: serve the web client (uvicorn) in front of a match server."""

from __future__ import annotations

import argparse
import os

from senet.web.settings import DEFAULT_HOST, DEFAULT_PORT, WebSettings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``senet web`` options to ``parser``."""
    parser.add_argument("--server", default="127.0.0.1:50051", help="match server host:port")
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to listen on")
    parser.add_argument(
        "--secure-cookies", action="store_true", help="mark cookies Secure (behind HTTPS)"
    )
    parser.add_argument("--tls-ca", help="CA certificate (PEM) of a TLS match server")
    parser.add_argument(
        "--admin-key",
        default=os.environ.get("SENET_ADMIN_KEY", ""),
        help="admin key, where the server needs one (env SENET_ADMIN_KEY: a key on the "
        "command line shows in the process list)",
    )
    parser.add_argument(
        "--grpc-web-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let pages of this origin (e.g. https://app.example; * for any) call the "
        "gRPC-Web gateway; repeat for more (default: only this app's pages)",
    )


def settings_from(args: argparse.Namespace) -> WebSettings:
    return WebSettings(
        server=args.server,
        host=args.host,
        port=args.port,
        secure_cookies=args.secure_cookies,
        tls_ca=args.tls_ca,
        admin_key=args.admin_key,
        grpc_web_origins=tuple(args.grpc_web_origin),
    )


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from senet.web.app import create_app

    settings = settings_from(args)
    print(
        f"Senet web is serving on http://{settings.host}:{settings.port} "
        f"(match server {settings.server})",
        flush=True,
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level="warning",
        access_log=False,
    )
    return 0
