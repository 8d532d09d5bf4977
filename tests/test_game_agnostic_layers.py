"""The layers that serve every game name none: games are found through plug-ins only.

Scans every module of Senet's server and clients but the generated protocol code and
each game's own plug-in packages (the modules its entry points name, in every
``senet.*`` group) for a string literal that is an installed game's id and for
imports of one game's modules. The modules to scan are discovered, so a new shared
module is checked and a new game's packages are left out with no edit here.
Docstrings are documentation and may name games.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

from senet.games import all_games

ROOT = Path(__file__).resolve().parents[1]
#: Where Senet's modules live (each folder holds the ``senet`` namespace package).
SOURCES = ("server", "clients")
#: Generated from proto/ (every game's messages, by design).
GENERATED = "senet.v1"
#: Defaults a person sees, not branches: ``senet arena`` plays the flagship game unless
#: told otherwise.
ALLOWED = {("clients/senet/arena/cli.py", "mykerinos")}
#: Modules about one game by design, outside its plug-in packages: the learning
#: example that trains the policy the ``rl_mykerinos`` strategy plays.
ONE_GAME_EXAMPLES = {"senet.rl.examples.train_mykerinos"}


def _plugin_modules() -> set[str]:
    """The modules every game's plug-ins are published from, in every layer's group."""
    return {
        point.module
        for group in entry_points().groups
        if group.startswith("senet.")
        for point in entry_points(group=group)
    }


def _within(module: str, packages: set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _files() -> Iterator[Path]:
    """Every module of Senet but the generated code and the games' plug-in packages."""
    skipped = _plugin_modules() | {GENERATED} | ONE_GAME_EXAMPLES
    for source in SOURCES:
        for file in sorted((ROOT / source / "senet").rglob("*.py")):
            parts = file.relative_to(ROOT / source).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            if not _within(module, skipped):
                yield file


def test_the_scan_covers_the_shared_layers_and_skips_the_games() -> None:
    scanned = {str(f.relative_to(ROOT)) for f in _files()}
    for shared in (
        "server/senet/service/grpc_api.py",
        "server/senet/store/base.py",
        "server/senet/codec/generic.py",
        "server/senet/games/interface.py",
        "clients/senet/bots/mcts.py",
        "clients/senet/text/generic.py",
        "clients/senet/web/app.py",
    ):
        assert shared in scanned
    for game in all_games():
        assert not [
            f for f in scanned if f"/{game.info.id}/" in f or f.endswith(f"/{game.info.id}.py")
        ]


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_no_game_is_named_outside_its_own_packages() -> None:
    game_ids = {game.info.id for game in all_games()}
    modules = _plugin_modules() | {f"senet.v1.{g}_pb2" for g in game_ids}
    offenders = []
    for file in _files():
        where = str(file.relative_to(ROOT))
        tree = ast.parse(file.read_text(), str(file))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in game_ids
                and id(node) not in docstrings
                and (where, node.value) not in ALLOWED
            ):
                offenders.append(f"{where}:{node.lineno} names {node.value!r}")
            elif isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                names += [alias.name for alias in node.names]
                if isinstance(node, ast.ImportFrom):
                    names += [f"{node.module}.{alias.name}" for alias in node.names]
                hits = [n for n in names if any(n == m or n.startswith(m + ".") for m in modules)]
                offenders += [f"{where}:{node.lineno} imports {n}" for n in hits]
    assert offenders == []
