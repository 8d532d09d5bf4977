"""The rules cores must stay pure: no grpc, no redis, no generated protobuf code."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES_DIR = ROOT / "server" / "senet" / "games"
FORBIDDEN = ("grpc", "redis", "google.protobuf", "proto", "senet.v1", "senet.service")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_forbidden_import_statements() -> None:
    offenders = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        for name in _imported_modules(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                offenders.append(f"{path.relative_to(GAMES_DIR)} imports {name}")
    assert offenders == []


def test_loading_every_game_pulls_in_no_forbidden_module() -> None:
    code = (
        "import sys\n"
        "from senet.games import all_games\n"
        "for g in all_games():\n"
        "    g.new_match(g.info.min_seats, seed=1).legal_actions()\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {['grpc', 'redis', 'google']!r}]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == ""
