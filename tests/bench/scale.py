"""Scale benchmark: actions per second of three replicas against one, same run.

Set-up: a private ``redis-server`` on a free loopback port and three Senet
replicas (``python -m senet.cli serve``, each its own process), replica ``i``
pinned to CPU ``i mod n`` of the ``n`` this process may use (``taskset``; with
fewer CPUs than replicas, replicas share). The load comes from
``generators`` separate processes (:mod:`tests.bench.scale_load`), each running
``concurrency`` closed loops of SubmitAction on planned random 4-player matches,
so the client side is not one GIL; they start each window together.

A round is two windows, one replica then three (order alternating by round):
in the one-replica window every loop talks to replica 0; in the three-replica
window loop ``i`` of every generator talks to replica ``i mod 3``. Same loops,
same in-flight count: only the number of serving processes differs.

Figures:

``scale.actions_per_s_3_vs_1``
    Median actions/s of the three-replica windows divided by the median of the
    one-replica windows. Bounded by the cores: the replicas, Redis and the load
    generators all share them, so on a 2-core machine it cannot approach 3.
``scale.cores``
    CPUs available to the benchmark (the bound above).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.bench.service import (
    START_TIMEOUT_S,
    Child,
    Window,
    redis_executable,
    start_redis,
)

REPLICAS = 3
_SERVING = re.compile(r"is serving on (\S+?):(\d+)\b")
_RESULT = re.compile(r"actions (\d+) seconds ([0-9.]+)")


@dataclass(frozen=True)
class Budget:
    """How long to measure.

    Attributes:
        rounds: Rounds, each one window of one replica and one of three.
        seconds: Length of each window.
        generators: Load-generator processes.
        concurrency: Closed loops per generator.
        lead_s: Set-up time granted to the generators before a window starts
            (start-up and match creation); a late generator starts late.
    """

    rounds: int
    seconds: float
    generators: int = 2
    concurrency: int = 24
    lead_s: float = 4.0


DEFAULT_BUDGET = Budget(rounds=3, seconds=5.0)  # about 60 s
QUICK_BUDGET = Budget(rounds=1, seconds=2.0)  # about 15 s
SMOKE_BUDGET = Budget(rounds=1, seconds=0.3, generators=1, concurrency=3, lead_s=1.0)


def cpus() -> list[int]:
    """The CPUs this process may run on."""
    return sorted(os.sched_getaffinity(0))


@contextlib.contextmanager
def replicas(redis_server: str) -> Iterator[list[str]]:
    """Redis and three pinned replicas; yields the replicas' addresses."""
    children: list[Child] = []
    taskset = shutil.which("taskset")
    usable = cpus()
    with tempfile.TemporaryDirectory(prefix="senet-scale-") as tmp:
        workdir = Path(tmp)
        try:
            redis_child, port = start_redis(redis_server, workdir)
            children.append(redis_child)
            serve = [sys.executable, "-m", "senet.cli", "serve", "--host", "127.0.0.1"]
            serve += ["--port", "0", "--redis-url", f"redis://127.0.0.1:{port}/0"]
            serve += ["--key-prefix", "scale", "--log-level", "WARNING", "--no-log-json"]
            serve += ["--embedded-bot-workers", "0"]  # the server's work alone
            # Every load comes from this one host: per-client quotas off (they would
            # measure themselves, not the server).
            serve += ["--client-creates-per-min", "0", "--client-calls-per-s", "0"]
            serve += ["--client-streams", "0"]
            for index in range(REPLICAS):
                pin = ["taskset", "-c", str(usable[index % len(usable)])] if taskset else []
                children.append(Child(f"replica-{index}", [*pin, *serve], workdir))
            yield [
                "{}:{}".format(*child.wait_for_line(_SERVING, START_TIMEOUT_S).groups())
                for child in children[1:]
            ]
        finally:
            for child in reversed(children):
                child.stop()


def window(targets: list[str], budget: Budget, rate_hint: float) -> Window:
    """One window: every generator's loops on ``targets``, started together."""
    start_at = time.time() + budget.lead_s
    argv = [
        sys.executable, "-m", "tests.bench.scale_load", "--targets", ",".join(targets),
        "--concurrency", str(budget.concurrency), "--seconds", str(budget.seconds),
        "--start-at", f"{start_at:.6f}", "--rate", f"{rate_hint / budget.generators:.0f}",
    ]  # fmt: skip
    procs = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(budget.generators)
    ]
    calls, seconds = 0, 0.0
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=budget.lead_s + budget.seconds + 120)
        found = _RESULT.search(stdout)
        if proc.returncode != 0 or found is None:
            raise RuntimeError(f"load generator failed ({proc.returncode}):\n{stderr[-2000:]}")
        calls += int(found.group(1))
        seconds = max(seconds, float(found.group(2)))
    return Window(calls, seconds)


def run(
    *,
    quick: bool = False,
    out: Callable[[str], None] = print,
    budget: Budget | None = None,
) -> dict[str, float]:
    """Measure, print human-readable lines then ``name: value`` lines; return the latter."""
    if budget is None:
        budget = QUICK_BUDGET if quick else DEFAULT_BUDGET
    executable = redis_executable()
    if executable is None:
        out("scale benchmark skipped: redis-server is not installed")
        return {}
    one: list[Window] = []
    three: list[Window] = []
    with replicas(executable) as addresses:
        for round_index in range(budget.rounds):
            order = [(one, addresses[:1]), (three, addresses)]
            for sink, targets in order if round_index % 2 == 0 else reversed(order):
                hint = max((w.rate for w in (*one, *three)), default=3000.0)
                sink.append(window(targets, budget, hint))
    rate_one = statistics.median(w.rate for w in one)
    rate_three = statistics.median(w.rate for w in three)
    ratio = rate_three / rate_one
    cores = len(cpus())
    pinned = "pinned to CPUs round robin" if shutil.which("taskset") else "not pinned (no taskset)"
    out(
        f"scale benchmark: {REPLICAS} replicas (`senet serve`, {pinned}) on a private "
        f"redis-server; {budget.generators} load generator process(es) x {budget.concurrency} "
        f"SubmitAction loops; {budget.rounds} round(s) of {budget.seconds:g} s windows; "
        f"{cores} CPU(s) shared by everything"
    )
    for label, windows in (("1 replica (baseline)", one), (f"{REPLICAS} replicas", three)):
        rates = [w.rate for w in windows]
        out(
            f"  {label}: {statistics.median(rates):,.0f} actions/s "
            f"[{min(rates):,.0f}-{max(rates):,.0f}], {sum(w.calls for w in windows):,} actions"
        )
    out(
        f"    {REPLICAS} replicas / 1 replica: {ratio:.3f} "
        f"(at most {min(REPLICAS, cores)} with {cores} CPU(s), less what Redis and the "
        f"load generators take)"
    )
    figures = {"scale.actions_per_s_3_vs_1": round(ratio, 3), "scale.cores": float(cores)}
    out(f"scale.actions_per_s_3_vs_1: {ratio:.3f}")
    out(f"scale.cores: {cores}")
    return figures
