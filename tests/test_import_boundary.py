"""The layers hold, and the import-linter contracts that guard them (pyproject.toml) bite.

``make lint`` runs ``lint-imports``; these tests show that it passes on the code as
it is and fails, naming the contract, when a rules core imports grpc or the service
imports a client. Each breach is made in a copy of the package trees, never here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
#: The folders whose ``senet`` portions make up the namespace package.
PORTIONS = ("server", "clients", "proto")
CORES_CONTRACT = "Rules cores import only the standard library"
SERVICE_CONTRACT = "The store and the service never import a client"
CLIENTS_CONTRACT = "Clients never import the service or the store"


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _contract(name: str) -> dict[str, Any]:
    contracts = _pyproject()["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == name)


@pytest.fixture
def tree_copy(tmp_path: Path) -> Path:
    """The package trees and pyproject.toml, copied to a scratch folder."""
    for portion in PORTIONS:
        shutil.copytree(
            ROOT / portion / "senet",
            tmp_path / portion / "senet",
            ignore=shutil.ignore_patterns("__pycache__", "*.proto"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over the trees under ``root``, which shadow the installed ones."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(root / p) for p in PORTIONS))
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def add_import(module: Path, statement: str) -> None:
    module.write_text(module.read_text() + f"\n{statement}  # noqa\n")


def test_the_layers_hold_on_a_clean_copy(tree_copy: Path) -> None:
    result = lint_imports(tree_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


@pytest.mark.parametrize(
    ("module", "statement", "contract", "edge"),
    [
        ("server/senet/games/__init__.py", "import grpc", CORES_CONTRACT, "senet.games -> grpc"),
        (
            "server/senet/service/__init__.py",
            "import senet.bots",
            SERVICE_CONTRACT,
            "senet.service -> senet.bots",
        ),
        ("clients/senet/arena/__init__.py", "import senet.service.server", CLIENTS_CONTRACT, ""),
    ],
    ids=["core imports grpc", "service imports a client", "client imports the service"],
)
def test_an_import_across_a_layer_breaks_its_contract(
    tree_copy: Path, module: str, statement: str, contract: str, edge: str
) -> None:
    add_import(tree_copy / module, statement)
    result = lint_imports(tree_copy)
    assert result.returncode != 0
    assert f"{contract} BROKEN" in result.stdout
    assert edge in result.stdout


def test_the_cores_contract_forbids_every_dependency() -> None:
    """A new dependency cannot slip into the cores unnoticed: its import roots are forbidden."""
    project = _pyproject()["project"]
    declared = [*project["dependencies"]]
    for extra in ("bench", "plot"):  # what the packages may import, lazily or not
        declared += project["optional-dependencies"][extra]
    wanted = {canonicalize_name(Requirement(text).name) for text in declared}
    roots_of: dict[str, set[str]] = {}
    for root, dists in packages_distributions().items():
        for dist in dists:
            roots_of.setdefault(canonicalize_name(dist), set()).add(root)
    forbidden = set(_contract(CORES_CONTRACT)["forbidden_modules"])
    missing = {
        (dist, root)
        for dist in wanted
        for root in roots_of.get(dist, ())
        # Private helpers (``_cffi_backend``, mypyc's ``<hash>__mypyc``) are not imported.
        if root not in forbidden and root.isidentifier() and not root.startswith("_")
    }
    assert missing == set()


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


GRPC_CONTRACT = "Only the gRPC face and the server set-up import grpc"


def test_the_grpc_contract_names_every_module_of_the_service() -> None:
    """A new module of senet.service is either gRPC-free (a source of the contract)
    or part of the gRPC face and the server set-up (forbidden to the others)."""
    contract = _contract(GRPC_CONTRACT)
    named = {m for m in contract["source_modules"] + contract["forbidden_modules"]}
    folder = ROOT / "server" / "senet" / "service"
    modules = {f"senet.service.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__"}
    assert modules <= named
    assert not set(contract["source_modules"]) & set(contract["forbidden_modules"])
