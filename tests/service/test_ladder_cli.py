"""``senet ladder``: one command starts a ladder on a running server; status and
standings print it.

Issue 37: "``make run`` plus one command starts a ladder".
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

import pytest

from senet.bots.hosted import HostedBotWorker
from senet.cli.bot_calls import BuiltInBot
from senet.service.access import Caller
from senet.service.identity import Identity
from senet.service.ladder import LadderSpec
from senet.service.server import RunningServer
from tests.service.conftest import GUEST_ADA, Deployment, wait_until
from tests.service.test_bot_registration import guest_token
from tests.service.test_ladder import ladders_of

GAME = "pebbles"


def test_a_built_in_bot_is_a_strategy_at_a_budget() -> None:
    assert BuiltInBot.parse("mcts:400") == BuiltInBot("mcts", 400)
    assert BuiltInBot.parse("greedy").name == "greedy"
    assert BuiltInBot.parse("mcts:50").name == "mcts-50"
    assert BuiltInBot.parse("mcts@50i") == BuiltInBot("mcts", 50)  # the arena's form too
    for bad in ("chess", "mcts:0", "mcts:many"):
        with pytest.raises(ValueError):
            BuiltInBot.parse(bad)
    with pytest.raises(ValueError, match="does not depend on the machine"):
        BuiltInBot.parse("mcts@0.2s")


async def _senet(*args: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "senet.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_start_then_status_and_standings(deployment: Deployment) -> None:
    server = await deployment.start()
    where = f"127.0.0.1:{server.port}"
    code, out = await _senet("ladder", "--server", where, "start", "--game", GAME, "--bots", "")
    assert code == 0 and f"ladder {GAME}-2 started" in out, out
    code, out = await _senet("ladder", "--server", where, "status", "--ladder", f"{GAME}-2")
    assert code == 0 and "0 played" in out, out
    code, out = await _senet("ladder", "--server", where, "standings", "--ladder", "nope-2")
    assert code == 1 and "NOT_FOUND" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_list_prints_every_ladder_with_its_state_and_leader(
    deployment: Deployment,
) -> None:
    server = await deployment.start(ladder_interval_s=0.05, ladder_presence_s=0)
    where = f"127.0.0.1:{server.port}"
    code, out = await _senet("ladder", "--server", where, "list")
    assert code == 0 and out.startswith("no ladders on this server yet"), out
    ladders = ladders_of(server)
    for name in ("alpha", "beta"):
        await ladders.remote.register(GUEST_ADA, name, [GAME])
    # No workers: the clock plays every decision, so matches end at once.
    started = ("start", "--game", GAME, "--bots", "", "--decision-ms", "10")
    code, out = await _senet("ladder", "--server", where, *started, "--inactive-after", "10000")
    assert code == 0, out
    paused = ("start", "--game", GAME, "--seats", "3", "--bots", "", "--max-in-flight", "0")
    assert (await _senet("ladder", "--server", where, *paused))[0] == 0

    async def played() -> bool:
        return await ladders.played(f"{GAME}-2") >= 1

    await wait_until(played, 60)
    code, out = await _senet("ladder", "--server", where, "list")
    assert code == 0, out
    head, two, three = out.splitlines()
    assert head.split() == ["ladder", "state", "clock", "in", "flight", "bots", "played", "leader"]
    assert two.startswith(f"{GAME}-2") and "running" in two and " 2/2 " in two, two
    assert "0.01s" in two and ("alpha (" in two or "beta (" in two), two
    assert three.startswith(f"{GAME}-3") and "paused" in three and three.endswith("  -"), three
    code, out = await _senet("ladder", "--server", where, "list", "--game", GAME, "--json")
    listed = json.loads(out)["ladders"]
    assert [s["ladder_id"] for s in listed] == [f"{GAME}-2", f"{GAME}-3"]
    assert listed[0]["state"] == "LADDER_STATE_RUNNING" and len(listed[0]["leaders"]) == 1
    code, out = await _senet("ladder", "--server", where, "list", "--top", "11")
    assert code == 1 and "INVALID_ARGUMENT: top must be at most 10" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_senet_tournament_creates_shows_and_exports(deployment: Deployment) -> None:
    server = await deployment.start()
    where = f"127.0.0.1:{server.port}"
    code, out = await _senet(
        "tournament", "--server", where, "create", "--game", GAME, "--format", "round-robin",
        "--player", "guest:ada=Ada", "--player", "guest:bea=Bea",
    )  # fmt: skip
    assert code == 0 and "created" in out, out
    tournament_id = out.split("tournament ", 1)[1].split()[0]
    code, out = await _senet("tournament", "--server", where, "show", "--id", tournament_id)
    assert code == 0 and "round 1 of 1" in out and "Ada" in out and "Bea" in out, out
    code, out = await _senet("tournament", "--server", where, "export", "--id", tournament_id)
    assert code == 0 and '"standings"' in out, out


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_on_a_server_with_an_admin_key_the_key_lets_the_hosted_bots_in(
    deployment: Deployment,
) -> None:
    server = await deployment.start(admin_key="k")
    where = f"127.0.0.1:{server.port}"
    start = ("ladder", "--server", where, "start", "--game", GAME, "--bots", "random")
    code, out = await _senet(*start)  # a guest owner, and no key: refused
    assert code == 1 and "PERMISSION_DENIED" in out and "not guests" in out, out
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "senet.cli", *start, "--admin-key", "k",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        lines: list[str] = []
        while not lines or not lines[-1].startswith("hosting the bots"):
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            assert line, "".join(lines)
            lines.append(line.decode())
        assert lines[0].startswith("bot random: ") and f"ladder {GAME}-2 started" in lines[1]
        assert "they are retired then" in lines[-1], lines
        assert [b.name for b in await ladders_of(server).remote.bots()] == ["random"]
        proc.terminate()  # as an orchestrator stops it: its bots retire
        out = (await asyncio.wait_for(proc.communicate(), 60))[0].decode()
        assert proc.returncode == 0 and "retired random" in out, out
        assert await ladders_of(server).remote.bots() == []
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


async def _until_line(proc: asyncio.subprocess.Process, start: str) -> list[str]:
    """The lines ``proc`` prints up to the first that starts with ``start``."""
    assert proc.stdout is not None
    lines: list[str] = []
    while not lines or not lines[-1].startswith(start):
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        assert line, "".join(lines)
        lines.append(line.decode())
    return lines


async def _join(where: str, *args: str, cwd: Path | None = None) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "senet.cli", "ladder", "--server", where, "join", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=cwd,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_join_enters_a_strategy_and_its_key_file_brings_it_back_after_a_bench(
    deployment: Deployment, tmp_path: Path
) -> None:
    """A bot author's one command: registered, key kept, played; killed mid-ladder
    it is benched, and run again with its key file it is back after its rest."""
    server = await deployment.start(ladder_interval_s=0.05, ladder_bench_rest_s=0.5)
    where = f"127.0.0.1:{server.port}"
    ladders = ladders_of(server)
    spec = LadderSpec(GAME, 2, decision_ms=300, max_in_flight=1, inactive_after=2)
    await ladders.start(Caller(is_admin=True), spec)
    _, key = await ladders.remote.register(GUEST_ADA, "other", [GAME])
    other = asyncio.create_task(HostedBotWorker(where, key, "random").run())

    async def other_served() -> bool:
        return bool(await ladders.served())

    await wait_until(other_served, 60)
    key_file = tmp_path / "mine.key"
    joined = ("--games", GAME, "--strategy", "greedy", "--name", "mine")
    proc = await _join(where, *joined, "--key-file", str(key_file))
    try:
        lines = await _until_line(proc, "playing its decisions")
        assert lines[0].startswith("bot mine (") and f"ladder {GAME}-2: " in lines[1]
        assert "1 of 2 bots ready" in lines[1], lines  # the other: its worker called
        assert f"its key is in {key_file}" in lines[2], lines
        assert key_file.stat().st_mode & 0o777 == 0o600
        mine = (await ladders.remote.by_key(key_file.read_text().strip())).bot_id

        async def played_by_its_worker() -> bool:
            recent = await ladders.recent(spec.ladder_id, 20)
            return any(m.status == "finished" and mine in m.bot_ids for m in recent)

        await wait_until(played_by_its_worker, 60)
        proc.kill()  # a crash: its seats time out, and the ladder benches it
        await proc.wait()

        async def benched() -> bool:
            return not (await ladders.remote.bot(mine)).active

        await wait_until(benched, 60)
        code, out = await _senet("ladder", "--server", where, "standings", "--ladder", "pebbles-2")
        assert code == 0 and "mine: benched (2 decisions in a row timed out" in out, out
        proc = await _join(where, "--strategy", "greedy", "--key-file", str(key_file))
        lines = await _until_line(proc, "playing its decisions")
        assert lines[0] == f"bot key from {key_file}\n", lines

        async def back() -> bool:
            return (await ladders.remote.bot(mine)).active

        await wait_until(back, 60)
    finally:
        proc.terminate()
        await proc.wait()
        other.cancel()
        await asyncio.gather(other, return_exceptions=True)
    # Its key retires it (the join registered it under a guest nobody kept).
    code, out = await _senet("ladder", "--server", where, "retire", "--key-file", str(key_file))
    assert code == 0 and f"bot mine ({mine}) retired at " in out, out
    proc = await _join(where, "--strategy", "greedy", "--key-file", str(key_file))
    out = (await proc.communicate())[0].decode()
    assert proc.returncode == 2 and "refuses the bot key" in out and "retired" in out, out
    assert f"delete {key_file} to register it again" in out, out
    code, out = await _senet("ladder", "--server", where, "retire", "--key-file", "/nonexistent")
    assert code == 2 and "cannot read the key" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_tournament_bots_retire_with_it_and_ladder_bots_and_retire_list_and_take_one_off(
    deployment: Deployment,
) -> None:
    server = await deployment.start(ladder_interval_s=0.05)
    where = f"127.0.0.1:{server.port}"
    ladders = ladders_of(server)
    spec = await ladders.start(Caller(is_admin=True), LadderSpec(GAME, 2, decision_ms=2000))
    code, out = await _senet(
        "tournament", "--server", where, "create", "--game", GAME, "--format", "round-robin",
        "--bots", "random,greedy", "--decision-ms", "2000",
    )  # fmt: skip
    assert code == 0 and "finished" in out, out
    assert await ladders.remote.bots() == []  # registered for it alone, retired with it
    # ... and kept off the ladder of its game all along (a trial saw them seated there).
    assert await ladders.played(spec.ladder_id) == 0
    assert await ladders.in_flight(spec.ladder_id) == []

    client = deployment.client(server)
    token = await guest_token(client)
    owner = await ladders_identity(server, token)
    kept, _ = await ladders.remote.register(owner, "kept", [GAME])
    code, out = await _senet("ladder", "--server", where, "bots", "--game", GAME)
    _, row, worker = out.splitlines()
    assert code == 0 and row.split() == ["kept", kept.bot_id, GAME], out
    assert worker == "    active; no worker has called yet (ladders seat it once one does)"
    retire = ("ladder", "--server", where, "retire", "--bot", kept.bot_id)
    code, out = await _senet(*retire)
    assert code == 1 and "UNAUTHENTICATED" in out, out
    code, out = await _senet(*retire, "--identity", token)
    assert code == 0 and f"bot kept ({kept.bot_id}) retired at " in out, out
    assert await ladders.remote.bots() == []
    code, out = await _senet("ladder", "--server", where, "bots", "--game", GAME)
    assert code == 0 and out == f"no bots registered for {GAME}\n", out


async def ladders_identity(server: RunningServer, token: str) -> Identity:
    """The identity a token stands for on ``server``."""
    assert server.ladder_servicer is not None
    return await server.ladder_servicer.identities.verify(token)


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_join_without_a_key_file_or_identity_retires_its_throwaway_bot_on_stopping(
    deployment: Deployment,
) -> None:
    """Nobody could ever play it again: a new guest owns it and its key is gone."""
    server = await deployment.start()
    where = f"127.0.0.1:{server.port}"
    ladders = ladders_of(server)
    proc = await _join(where, "--games", GAME, "--strategy", "random", "--name", "once")
    try:
        lines = await _until_line(proc, "playing its decisions")
        assert f"  {GAME}: no ladder yet (the operator starts one)\n" in lines, lines
        assert "it is retired when this stops" in lines[-2], lines
        assert [b.name for b in await ladders.remote.bots()] == ["once"]
        proc.send_signal(signal.SIGINT)
        out = (await asyncio.wait_for(proc.communicate(), 60))[0].decode()
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
    assert proc.returncode == 0 and "bot once retired (its ratings and matches stay)" in out, out
    assert await ladders.remote.bots() == []


AGENT = """
from senet.bots.random_bot import RandomStrategy


def STRATEGY(*, seed, iterations=None, seconds=None):
    return RandomStrategy(seed=seed)
"""


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_join_plays_a_strategy_factory_of_ones_own_without_publishing_it(
    deployment: Deployment, tmp_path: Path
) -> None:
    """A researcher's agent in a module of the current folder enters the ladder."""
    (tmp_path / "my_agent.py").write_text(AGENT)
    server = await deployment.start(ladder_interval_s=0.05)
    where = f"127.0.0.1:{server.port}"
    ladders = ladders_of(server)
    spec = LadderSpec(GAME, 2, decision_ms=2000, max_in_flight=1)
    await ladders.start(Caller(is_admin=True), spec)
    _, key = await ladders.remote.register(GUEST_ADA, "other", [GAME])
    other = asyncio.create_task(HostedBotWorker(where, key, "random").run())
    proc = await _join(where, "--games", GAME, "--factory", "my_agent:STRATEGY", cwd=tmp_path)
    try:
        lines = await _until_line(proc, "playing its decisions")
        assert lines[0].startswith("bot my_agent ("), lines
        (mine,) = [b.bot_id for b in await ladders.remote.bots() if b.name == "my_agent"]

        async def played() -> bool:
            recent = await ladders.recent(spec.ladder_id, 20)
            return any(m.status == "finished" and mine in m.bot_ids for m in recent)

        await wait_until(played, 60)
        assert (await ladders.remote.bot(mine)).active  # its worker answered in time
    finally:
        proc.terminate()
        await proc.wait()
        other.cancel()
        await asyncio.gather(other, return_exceptions=True)
    proc = await _join(where, "--games", GAME, "--factory", "my_agent:MISSING", cwd=tmp_path)
    out = (await proc.communicate())[0].decode()
    assert proc.returncode == 2 and "cannot load my_agent:MISSING" in out, out
    # Where the module was found: a folder of the same name can shadow a package.
    assert f"found at {tmp_path / 'my_agent.py'} has no 'MISSING'" in out, out


def test_server_may_come_after_the_subcommand() -> None:
    """A trial typed `senet ladder start --server X ...` and got argparse's usage:
    --server went only before the subcommand, unlike arena's, bots' and export's."""
    from senet.cli import build_parser

    parser = build_parser()
    after = parser.parse_args(["ladder", "list", "--server", "h:1"])
    before = parser.parse_args(["ladder", "--server", "h:2", "list"])
    assert (after.server, before.server) == ("h:1", "h:2")
    made = parser.parse_args(["tournament", "show", "--id", "t", "--server", "h:3"])
    assert made.server == "h:3"
