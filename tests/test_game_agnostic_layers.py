"""The layers that serve every game name none: games are found through plug-ins only.

Scans the service, the store, the shared codec modules, the command line, the bots,
the text client, the full-screen client, the web client, the arena and the client
library (but each game's own plug-in package, named by its id) for a string literal
that is an installed game's id and for imports of one game's modules. Docstrings are
documentation and may name games.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from senet.games import all_games

ROOT = Path(__file__).resolve().parents[1]
AGNOSTIC = [
    "server/senet/service",
    "server/senet/store",
    "server/senet/codec/__init__.py",
    "server/senet/codec/base.py",
    "server/senet/codec/generic.py",
    "server/senet/codec/options.py",
    "server/senet/cli",
    "clients/senet/bots",
    "clients/senet/arena",
    "clients/senet/client",
    "clients/senet/text",
    "clients/senet/tui",
    "clients/senet/web",
]
#: Defaults a person sees, not branches: ``senet arena`` plays the flagship game unless
#: told otherwise.
ALLOWED = {("clients/senet/arena/cli.py", "mykerinos")}


def _files() -> Iterator[Path]:
    """Every module of those layers but a game's own plug-in package (named by its id)."""
    game_ids = {game.info.id for game in all_games()}
    for name in AGNOSTIC:
        path = ROOT / name
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            if not game_ids & set(file.relative_to(path).parts[:-1]):
                yield file


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
    layers = ("games", "codec", "text", "bots")
    modules = {f"senet.{layer}.{g}" for layer in layers for g in game_ids}
    modules |= {f"senet.v1.{g}_pb2" for g in game_ids}
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
