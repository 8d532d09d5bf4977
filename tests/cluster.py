"""A real three-master Redis Cluster on loopback ports, started and stopped by tests.

Each master is a ``redis-server --cluster-enabled yes`` in its own directory, with
its client port and cluster-bus port picked free; ``redis-cli --cluster create``
assigns the 16384 slots over the three, and the cluster is ready once every node
reports ``cluster_state:ok``. No persistence and no replicas: tests need the
routing, not the durability.
"""

from __future__ import annotations

import functools
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import redis

_START_TIMEOUT_S = 20.0


def _free_ports(count: int) -> list[int]:
    """Ports free a moment ago, all distinct (sockets held open until all are chosen)."""
    with ExitStack() as stack:
        ports = []
        for _ in range(count):
            s = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            s.bind(("127.0.0.1", 0))
            ports.append(int(s.getsockname()[1]))
        return ports


class LocalCluster:
    """Three cluster-enabled ``redis-server`` processes joined into one cluster.

    Attributes:
        ports: The masters' client ports.
        url: A ``redis+cluster://`` URL naming every master as a startup node.
    """

    def __init__(self, executable: str, cli: str, workdir: Path, masters: int = 3) -> None:
        self.executable = executable
        self.cli = cli
        self.workdir = workdir
        ports = _free_ports(2 * masters)
        self.ports = ports[:masters]
        self._bus_ports = ports[masters:]
        self._procs: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> None:
        """Start the nodes, create the cluster, wait until every node says it is ok."""
        for port, bus in zip(self.ports, self._bus_ports, strict=True):
            node_dir = self.workdir / str(port)
            node_dir.mkdir(parents=True, exist_ok=True)
            self._procs.append(
                subprocess.Popen(
                    [
                        self.executable,
                        "--port", str(port), "--cluster-port", str(bus),
                        "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes",
                        "--cluster-config-file", str(node_dir / "nodes.conf"),
                        "--cluster-node-timeout", "2000",
                        "--save", "", "--appendonly", "no",
                        "--dir", str(node_dir), "--logfile", str(node_dir / "redis.log"),
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        for port in self.ports:
            self._wait(functools.partial(_ping, port), f"node {port} did not answer PING")
        create = subprocess.run(
            [
                self.cli, "--cluster", "create",
                *(f"127.0.0.1:{p}" for p in self.ports),
                "--cluster-replicas", "0", "--cluster-yes",
            ],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=_START_TIMEOUT_S,
            check=False,
        )  # fmt: skip
        if create.returncode != 0:
            raise RuntimeError(
                f"redis-cli --cluster create failed:\n{create.stdout}{create.stderr}"
            )
        for port in self.ports:
            self._wait(
                functools.partial(_cluster_ok, port), f"node {port} never reported cluster_state:ok"
            )

    def stop(self) -> None:
        """Kill every node (no data is kept)."""
        for proc in self._procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        self._procs.clear()

    def flushall(self) -> None:
        """Empty every master (FLUSHALL is per node)."""
        for port in self.ports:
            with redis.Redis(port=port, socket_timeout=2) as client:
                client.flushall()

    def masters_holding(self, keys: list[str]) -> set[int]:
        """The ports of the masters that own the slots of ``keys``."""
        owners: set[int] = set()
        with redis.Redis(port=self.ports[0], socket_timeout=2) as client:
            for key in keys:
                slot = int(client.execute_command("CLUSTER", "KEYSLOT", key))
                owners.add(self.owner_of(slot))
        return owners

    def owner_of(self, slot: int) -> int:
        """The port of the master serving ``slot`` (from CLUSTER SLOTS)."""
        with redis.Redis(port=self.ports[0], socket_timeout=2) as client:
            for start, end, master, *_replicas in client.execute_command("CLUSTER", "SLOTS"):
                if int(start) <= slot <= int(end):
                    return int(master[1])
        raise LookupError(f"slot {slot} is not served")

    def keys_per_master(self) -> dict[int, int]:
        """How many keys each master holds (DBSIZE of each node)."""
        counts = {}
        for port in self.ports:
            with redis.Redis(port=port, socket_timeout=2) as client:
                counts[port] = int(client.dbsize())
        return counts

    def _wait(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + _START_TIMEOUT_S
        while not ready():
            if any(p.poll() is not None for p in self._procs) or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(what)
            time.sleep(0.05)


def _ping(port: int) -> bool:
    try:
        with redis.Redis(port=port, socket_timeout=0.5) as client:
            return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
        return False


def _cluster_ok(port: int) -> bool:
    with redis.Redis(port=port, socket_timeout=0.5, decode_responses=True) as client:
        info = client.execute_command("CLUSTER", "INFO")
    text = info if isinstance(info, str) else info.decode()
    return "cluster_state:ok" in text


@contextmanager
def local_cluster(executable: str, workdir: Path) -> Iterator[LocalCluster]:
    """A started :class:`LocalCluster`, stopped on exit (a port race is retried)."""
    cli = shutil.which("redis-cli")
    if cli is None:
        raise RuntimeError("redis-cli is not installed (it creates the cluster)")
    error: RuntimeError | None = None
    for attempt in range(3):  # a free port may be taken before redis binds it
        cluster = LocalCluster(executable, cli, workdir / f"try{attempt}")
        try:
            cluster.start()
        except RuntimeError as e:
            cluster.stop()
            error = e
            continue
        try:
            yield cluster
        finally:
            cluster.stop()
        return
    raise RuntimeError(f"could not start a local Redis Cluster: {error}")
