"""Server settings: one frozen dataclass, read from the environment and flags.

Every setting has an environment variable (``SENET_*``) and a ``senet serve``
flag; flags win. Defaults run a single embedded server with no Redis.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Settings:
    """How one server process runs.

    Attributes:
        host: Interface to listen on.
        port: gRPC port (0 picks a free one; the factory returns the bound port).
        redis_url: Redis URL; empty runs on the embedded in-memory store.
        key_prefix: Prefix of every Redis key.
        redis_max_connections: Pool limit; on standalone Redis watchers hold one
            per 1,000 watched matches, on Redis Cluster one per watched match.
        store_timeout_s: Time budget of one Redis operation, retries included;
            a hung or unreachable Redis fails the call with UNAVAILABLE
            (STORE_UNAVAILABLE) after this long instead of waiting it out.
        metrics_port: Prometheus HTTP port; 0 disables the endpoint.
        admin_key: When set, CreateMatch and the BotService calls need it.
        worker_key: Credential of bot workers (metadata ``x-senet-worker-key``):
            BotService calls need it or the admin key, so that nobody else can
            lease bot seats' tokens. Empty: no outside worker is let in; workers
            of ``embedded_bot_workers`` get a key drawn at start, in-process.
        finished_ttl_s: How long a finished match stays exportable.
        idle_ttl_s: How long a match without any action is kept (on Redis up to
            1/64 longer: a commit renews the expiry only once less than this is left).
        waiting_ttl_s: How long a match waiting for players is kept when nobody
            joins (it gets the idle TTL once every open seat is claimed).
        lobby_sweep_s: How often each replica checks the lobby entries whose
            match may have expired, dropping those whose match is gone (so the
            index stays bounded even when nobody lists matches).
        heartbeat_s: Idle streams get a heartbeat this often.
        max_message_bytes: Largest request accepted (bigger: RESOURCE_EXHAUSTED).
        seat_rate_per_s: Sustained requests per second one seat may make.
        seat_burst: Requests one seat may make in a burst.
        client_creates_per_min: Matches one client may create per minute, per
            replica (0: no limit). A client is its address without the port, or
            the client_header value behind a trusted proxy.
        client_calls_per_s: Sustained unary calls per second one client may
            make, per replica (0: no limit).
        client_calls_burst: Unary calls one client may make in a burst.
        client_streams: WatchMatch and PlayMatch streams one client may hold
            open at once, per replica (0: no limit).
        seat_streams: Streams one seat token may hold open at once, per
            replica (0: no limit).
        client_header: Request header naming the client when a trusted proxy
            sets it (e.g. x-forwarded-for); empty: the peer address.
        drain_notice_s: On SIGTERM, how long health says NOT_SERVING while
            calls are still served, before new calls are refused.
        drain_grace_s: On SIGTERM, how long in-flight calls may finish.
        log_level: Python logging level name.
        log_json: Structured JSON logs (one object per line).
        tls_cert: PEM certificate chain file; with tls_key, serve TLS.
        tls_key: PEM private key file.
        processes: Server processes sharing the port (SO_REUSEPORT), to use
            several cores; more than one needs Redis (redis_url).
        embedded_bot_workers: Bot workers to run inside this process. Negative (the
            default): one when neither a worker key nor an admin key is set, as no
            worker from outside could then play bot seats, and none otherwise (the
            workers outside use the key).
        identity_secret: Shared secret (HS256) of the identity provider's
            tokens; also signs guest tokens. Empty: guests are signed by the key
            file under data_dir.
        identity_jwks: The provider's public keys (RS256/ES256): a JWKS file
            path or an http(s) URL. Empty: no provider keys.
        identity_issuer: The issuer (iss) provider tokens must name.
        identity_audience: The audience (aud) every identity token must name.
        guest_ttl_s: How long a guest identity token is valid.
        data_dir: Folder of the server's own files (the guest signing key,
            made on first start); empty, without an identity secret: a key drawn
            at start, so guest tokens last until the server restarts and other
            replicas refuse them.
        match_interval_s: How often each replica groups the queued tickets.
        ticket_ttl_s: A queued ticket whose FindMatch stream is gone this long
            expires (a client may resume it until then).
        no_show_s: A matched seat whose player has not picked up the seat
            token after this long leaves (the match's leave policy applies).
        settle_interval_s: How often each replica settles the queued matches
            that ended (ratings, queue locks).
        bot_fill_strategy: The bot strategy that fills a queued match's empty seats.
        queue_decision_s: Each decision's clock in a queued match: past it the
            server plays the seat's move (a seeded random one), so a player who
            walks away never stalls the others (0: no clock).
        queue_handover_after: Timeouts in a row after which a queued match's
            seat is handed to the bot-fill strategy for good (0: never).
        ladder_interval_s: How often each replica schedules and settles the
            ladders, head-to-head tests and tournaments.
        ladder_max_in_flight: The most matches one ladder may have in flight
            (a ladder's own setting is capped to it).
        ladder_presence_s: A ladder seats only bots one of whose workers called
            BotService within this many seconds, so a bot registered before its
            worker runs, or whose worker stopped, is not benched by timeouts
            nobody could answer (0: seat every active bot).
        ladder_bench_rest_s: How long a bot benched for timing out rests, in
            seconds, doubled for each bench in a row (at most a day): after it,
            the ladder seats the bot again once its worker calls (0: only
            registering again brings it back).
        bot_registration: Who may register remote bots (which then join the
            ladders of their games): ``guests`` (any identity, guests
            included), ``players`` (identities from the operator's provider,
            not guests), ``listed`` (only the subjects in ``bot_owners``) or
            ``admin`` (only with the admin key); empty: ``guests`` on a server
            without an admin key, ``players`` on one with it. The admin key
            always may.
        bot_owners: The subjects that may register bots under ``listed``,
            separated by commas.
        bot_max_per_owner: The most bots one owner may register (0: no limit).
    """

    host: str = "127.0.0.1"
    port: int = 50051
    redis_url: str = ""
    key_prefix: str = "senet"
    redis_max_connections: int = 10_000
    store_timeout_s: float = 2.0
    metrics_port: int = 0
    admin_key: str = ""
    worker_key: str = ""
    finished_ttl_s: int = 24 * 3600
    idle_ttl_s: int = 7 * 24 * 3600
    waiting_ttl_s: int = 3600
    lobby_sweep_s: float = 30.0
    heartbeat_s: float = 10.0
    max_message_bytes: int = 64 * 1024
    seat_rate_per_s: float = 200.0
    seat_burst: int = 400
    client_creates_per_min: int = 600
    client_calls_per_s: float = 2000.0
    client_calls_burst: int = 4000
    client_streams: int = 1000
    seat_streams: int = 8
    client_header: str = ""
    drain_notice_s: float = 1.0
    drain_grace_s: float = 10.0
    log_level: str = "INFO"
    log_json: bool = True
    tls_cert: str = ""
    tls_key: str = ""
    processes: int = 1
    embedded_bot_workers: int = -1
    identity_secret: str = ""
    identity_jwks: str = ""
    identity_issuer: str = ""
    identity_audience: str = "senet"
    guest_ttl_s: int = 30 * 24 * 3600
    data_dir: str = ""
    match_interval_s: float = 0.25
    ticket_ttl_s: float = 60.0
    no_show_s: float = 30.0
    settle_interval_s: float = 1.0
    bot_fill_strategy: str = "greedy"
    queue_decision_s: float = 120.0
    queue_handover_after: int = 3
    ladder_interval_s: float = 0.5
    ladder_max_in_flight: int = 8
    ladder_presence_s: float = 60.0
    ladder_bench_rest_s: float = 60.0
    bot_registration: str = ""
    bot_owners: str = ""
    bot_max_per_owner: int = 16

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read ``SENET_<FIELD>`` variables (e.g. ``SENET_REDIS_URL``)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"SENET_{f.name.upper()}")
            if raw is not None:
                values[f.name] = _convert(f.name, raw, f.type)
        return cls(**values)

    @property
    def lets_workers_in(self) -> bool:
        """Whether a bot worker from outside can be let in: one holding the worker
        key or the admin key, when either is set."""
        return bool(self.worker_key or self.admin_key)

    def bot_workers_here(self) -> int:
        """How many bot workers run inside this process (see ``embedded_bot_workers``)."""
        if self.embedded_bot_workers >= 0:
            return self.embedded_bot_workers
        return 0 if self.lets_workers_in else 1

    def with_embedded_worker_key(self) -> Settings:
        """These settings with the embedded bot workers counted, and a worker key
        drawn for them when they need one and none is set (the key never leaves the
        process and its child processes). The count is settled first: the key drawn
        must not make a default count read as "workers come from outside"."""
        count = self.bot_workers_here()
        settled = replace(self, embedded_bot_workers=count)
        if count <= 0 or self.worker_key:
            return settled
        return replace(settled, worker_key=secrets.token_urlsafe(32))

    def with_guest_key(self) -> Settings:
        """These settings, with an identity secret drawn to sign guest tokens when
        neither a secret nor a data folder gives one, so that every process of
        this server (``processes``) accepts the guests of the others. (Replicas
        on other hosts share a secret or a data folder to do the same.)"""
        if self.identity_secret or self.data_dir:
            return self
        return replace(self, identity_secret=secrets.token_urlsafe(32))

    def with_args(self, args: argparse.Namespace) -> Settings:
        """Override with the flags that were given on the command line."""
        given = {
            f.name: getattr(args, f.name)
            for f in fields(self)
            if getattr(args, f.name, None) is not None
        }
        return replace(self, **given)

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        """Add one ``--flag`` per setting (default: from the environment), each
        explained by the class docstring's entry, with its default and variable."""
        explained = setting_help()
        for f in fields(Settings):
            flag = "--" + f.name.replace("_", "-")
            kind = str(f.type)
            default = _shown(f.default)
            what = explained[f.name].rstrip(".").replace("``", "'")
            text = f"{what} (default: {default}; env SENET_{f.name.upper()})"
            text = text.replace("%", "%%")  # argparse formats help text with %
            if kind == "bool":
                parser.add_argument(
                    flag, dest=f.name, action=argparse.BooleanOptionalAction, help=text
                )
            else:
                converter = {"int": int, "float": float}.get(kind, str)
                metavar = {"int": "N", "float": "X"}.get(kind, "TEXT")
                parser.add_argument(
                    flag, dest=f.name, type=converter, default=None, metavar=metavar, help=text
                )


def setting_help() -> dict[str, str]:
    """Each setting's entry in the ``Attributes:`` section of :class:`Settings`'s
    docstring, on one line: the docstring is the one place settings are explained."""
    entries: dict[str, str] = {}
    doc = Settings.__doc__ or ""
    section = doc.split("Attributes:", 1)[1]
    name = ""
    for line in section.splitlines():
        match = _ENTRY.match(line)
        if match:
            name = match["name"]
            entries[name] = match["text"].strip()
        elif name and line.strip():
            entries[name] += " " + line.strip()
    return entries


def _shown(default: object) -> str:
    if isinstance(default, bool):
        return "on" if default else "off"
    return "none" if default == "" else str(default)


_ENTRY = re.compile(r"^ {8}(?P<name>[a-z_]+): (?P<text>.*)$")


def _convert(name: str, raw: str, kind: Any) -> Any:
    kind = str(kind)
    try:
        if kind == "int":
            return int(raw)
        if kind == "float":
            return float(raw)
        if kind == "bool":
            return raw.strip().lower() in ("1", "true", "yes", "on")
    except ValueError:
        raise ValueError(f"SENET_{name.upper()}={raw!r} is not a valid {kind}") from None
    return raw
