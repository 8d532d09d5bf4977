"""Prometheus metrics of one server process.

Defined once per process on the default registry; ``senet serve --metrics-port``
exposes them over HTTP for scraping.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

RPCS = Counter("senet_rpcs_total", "RPCs handled, by method and status code", ["method", "code"])
ERRORS = Counter("senet_errors_total", "RPC errors by ErrorInfo reason", ["method", "reason"])
ACTIONS = Counter("senet_actions_total", "Actions committed, by game", ["game"])
MATCHES_CREATED = Counter(
    "senet_matches_created_total",
    "Matches created, by game: by CreateMatch, rematches, ladders, tournaments and the queue "
    "(a retry that finds its match counts nothing)",
    ["game"],
)
BOTS_BENCHED = Counter(
    "senet_ladder_bots_benched_total",
    "Registered bots a ladder benched for timing out, by ladder",
    ["ladder"],
)
BOTS_BACK = Counter(
    "senet_ladder_bots_back_total",
    "Benched bots a ladder seats again after their rest, by ladder",
    ["ladder"],
)
LOBBY_UNREADABLE = Counter(
    "senet_lobby_unreadable_total",
    "Matches ListMatches skipped because their stored values could not be read",
)
LATENCY = Histogram(
    "senet_rpc_latency_seconds",
    "Unary RPC latency by method",
    ["method"],
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
# Gauges say how to add up over the processes of `senet serve --processes N`
# (ignored when one process serves its own metrics).
OPEN_STREAMS = Gauge(
    "senet_open_streams",
    "Open WatchMatch/PlayMatch streams",
    ["method"],
    multiprocess_mode="livesum",
)
ACTIVE_MATCHES = Gauge(
    "senet_active_matches",
    "Distinct matches with an open stream on this replica",
    multiprocess_mode="livesum",
)
STORE_REACHABLE = Gauge(
    "senet_store_reachable",
    "Whether the last health probe reached the match store: 1 yes, 0 no",
    multiprocess_mode="livemin",
)
STORE_PERSISTENT = Gauge(
    "senet_store_persistent",
    "Whether the match store keeps matches on disk: 1 yes, 0 no, -1 unknown",
    multiprocess_mode="livemin",
)
