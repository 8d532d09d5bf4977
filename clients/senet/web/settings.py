"""The web client's settings: which match server it talks to, and where it listens."""

from __future__ import annotations

from dataclasses import dataclass

#: The port `senet web` listens on by default (the README and `make run` name it).
DEFAULT_PORT = 8080
#: Localhost only, unless told otherwise: seat tokens pass through this app.
DEFAULT_HOST = "127.0.0.1"


@dataclass(frozen=True)
class WebSettings:
    """Everything :func:`senet.web.app.create_app` needs.

    Attributes:
        server: ``host:port`` of the Senet match server (gRPC).
        host: Address the web app binds to.
        port: Port the web app listens on.
        secure_cookies: Mark cookies ``Secure`` (set it when a TLS proxy serves the app).
        tls_ca: PEM file of the CA that signed the match server's certificate, for TLS.
        admin_key: Sent to the match server where it requires one (creating matches).
        grpc_web_origins: Origins of other sites whose pages may call the gRPC-Web
            gateway (``*``: any); empty: only this app's own pages
            (:mod:`senet.web.grpc_web`).
    """

    server: str = "127.0.0.1:50051"
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    secure_cookies: bool = False
    tls_ca: str | None = None
    admin_key: str = ""
    grpc_web_origins: tuple[str, ...] = ()
