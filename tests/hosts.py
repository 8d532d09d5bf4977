"""Test hosts: network namespaces joined by veth pairs to one bridge, or loopback.

:class:`NamespaceHosts` builds a small LAN on this machine with ``ip netns``: a
"switch" namespace holding a Linux bridge, and one namespace per host whose
``eth0`` (one end of a veth pair; the other end is a bridge port) has an address
in a private /24 that exists only inside these namespaces. Processes started
with :meth:`Hosts.spawn` run inside their host; :meth:`Hosts.cut` takes a host's
link down at the switch, so its peers see packets vanish (no reset), as when a
machine or its network dies.

Where namespaces are refused (no CAP_NET_ADMIN, no ``ip``), :class:`LoopbackHosts`
gives every host its own 127.0.0.x address on loopback instead: processes are
still separate, but a cut cannot be simulated, and :attr:`Hosts.isolated` says so.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

#: Addresses of namespace hosts: they exist only on the test's own bridge.
_SUBNET = "10.231.0."


class Hosts:
    """Named hosts with an address each; subclasses decide how they are isolated."""

    #: Whether hosts are separate network stacks (a cut can be simulated).
    isolated = False
    #: Why hosts are not isolated, when they are not.
    reason = ""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.address: dict[str, str] = {}

    def command(self, host: str, argv: Sequence[str]) -> list[str]:
        """``argv`` as run inside ``host``."""
        return list(argv)

    def port(self, host: str, usual: int) -> int:
        """The port a service of ``host`` should listen on: its usual one where the
        host has a network stack of its own, else one free on its address."""
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind((self.address[host], 0))
            return int(s.getsockname()[1])

    def spawn(
        self, host: str, argv: Sequence[str], log: Path, stdout: int | IO[bytes] | None = None
    ) -> subprocess.Popen[bytes]:
        """Start ``argv`` in ``host``; stderr (and stdout unless given) go to ``log``."""
        with log.open("ab") as sink:
            return subprocess.Popen(
                self.command(host, argv),
                stdin=subprocess.DEVNULL,
                stdout=sink if stdout is None else stdout,
                stderr=sink,
                cwd=Path(__file__).resolve().parents[1],
                env=os.environ.copy(),
            )

    def cut(self, host: str) -> None:
        """Take ``host``'s link down (only where hosts are isolated)."""
        raise NotImplementedError("hosts on loopback share one link")

    def close(self) -> None:
        """Remove whatever :meth:`open` made."""


class NamespaceHosts(Hosts):
    """One network namespace per host, all on one bridge."""

    isolated = True

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        tag = uuid.uuid4().hex[:6]
        self._ns = {name: f"senet-{tag}-{name}" for name in names}
        self._switch = f"senet-{tag}-sw"
        self._made: list[str] = []
        self.address = {name: f"{_SUBNET}{i + 10}" for i, name in enumerate(names)}
        self._port = {name: f"p{i}" for i, name in enumerate(names)}

    def open(self) -> None:
        """Create the switch and the hosts (raises CalledProcessError when refused)."""
        self._make_namespace(self._switch)
        _ip("-n", self._switch, "link", "add", "br0", "type", "bridge")
        _ip("-n", self._switch, "link", "set", "br0", "up")
        for name in self.names:
            ns, port = self._ns[name], self._port[name]
            self._make_namespace(ns)
            _ip("-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", port,
                "netns", self._switch)  # fmt: skip
            _ip("-n", self._switch, "link", "set", port, "master", "br0", "up")
            _ip("-n", ns, "addr", "add", f"{self.address[name]}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")

    def _make_namespace(self, ns: str) -> None:
        _ip("netns", "add", ns)
        self._made.append(ns)
        _ip("-n", ns, "link", "set", "lo", "up")

    def command(self, host: str, argv: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", self._ns[host], *argv]

    def port(self, host: str, usual: int) -> int:
        return usual

    def cut(self, host: str) -> None:
        _ip("-n", self._switch, "link", "set", self._port[host], "down")

    def close(self) -> None:
        for ns in reversed(self._made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, check=False)
        self._made.clear()


class LoopbackHosts(Hosts):
    """Every host on its own loopback address (127.0.0.x); nothing is isolated."""

    def __init__(self, names: Sequence[str], reason: str) -> None:
        super().__init__(names)
        self.reason = reason
        self.address = {name: f"127.0.0.{i + 10}" for i, name in enumerate(names)}


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


@contextmanager
def make_hosts(names: Sequence[str]) -> Iterator[Hosts]:
    """Namespace hosts where the machine allows them, else loopback hosts (saying why)."""
    hosts: Hosts
    if shutil.which("ip") is None:
        hosts = LoopbackHosts(names, "iproute2 (`ip`) is not installed")
    else:
        namespaces = NamespaceHosts(names)
        try:
            namespaces.open()
            hosts = namespaces
        except subprocess.CalledProcessError as e:
            namespaces.close()
            hosts = LoopbackHosts(names, f"ip netns refused: {(e.stderr or '').strip()}")
    try:
        yield hosts
    finally:
        hosts.close()
