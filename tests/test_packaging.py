"""What ``pip install .`` puts into site-packages: one import root, ``senet``, and nothing else.

The wheel is built from a copy of the sources (so no ``build/`` folder is left in
the checkout to leak stale files into later builds) and installed, without
dependencies, into a scratch folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from configparser import ConfigParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SOURCES = ("server", "clients", "proto", "pyproject.toml", "README.md", "LICENSE")
DIST_INFO = f"senet-{PROJECT['version']}.dist-info"


def _pip(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet", *args],
        check=True,
        capture_output=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    """The project's wheel, built from a copy of its sources."""
    if not list((ROOT / "proto" / "senet" / "v1").glob("*_pb2.py")):
        pytest.fail("no generated code: run `make proto` first")
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy(ROOT / name, source / name)
    _pip(
        "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", str(work / "dist"), str(source)
    )
    (path,) = (work / "dist").glob("senet-*.whl")
    with zipfile.ZipFile(path) as archive:
        yield archive


@pytest.mark.slow
def test_every_file_is_under_senet_or_the_dist_info(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/", 1)[0] for name in wheel.namelist()}
    assert tops == {"senet", DIST_INFO}


def test_senet_is_a_namespace_with_every_portion(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    # No senet/__init__.py: other distributions (a game's plug-in) may add portions.
    assert "senet/__init__.py" not in names
    for package in ("games", "codec", "store", "service", "cli", "client", "bots", "text"):
        assert f"senet/{package}/__init__.py" in names
    assert "senet/arena/__init__.py" in names
    assert "senet/cli/__main__.py" in names
    assert "senet/v1/match_service_pb2.py" in names
    assert not [name for name in names if name.endswith(".proto")]


def test_the_plan_engine_ships_as_source_and_no_built_twin(wheel: zipfile.ZipFile) -> None:
    """``python -m senet.rl.native build`` compiles the C engine where the wheel is
    installed (its source is in the wheel); the checkout's built libraries are not."""
    names = set(wheel.namelist())
    assert {"senet/rl/cells.c", "senet/rl/identity.c", "senet/rl/native.py"} <= names
    assert not [name for name in names if "/_native/" in name or name.endswith(".so")]


def test_the_entry_points_are_those_of_pyproject(wheel: zipfile.ZipFile) -> None:
    parser = ConfigParser(delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(wheel.read(f"{DIST_INFO}/entry_points.txt").decode())
    groups = {group: dict(parser[group]) for group in parser.sections()}
    assert groups["console_scripts"] == PROJECT["scripts"] == {"senet": "senet.cli:main"}
    for group, entries in PROJECT["entry-points"].items():
        assert {name: value.strip() for name, value in groups[group].items()} == entries


def test_metadata_names_the_licence_and_no_build_tool(wheel: zipfile.ZipFile) -> None:
    metadata = wheel.read(f"{DIST_INFO}/METADATA").decode()
    assert "License-Expression: MIT" in metadata
    assert f"{DIST_INFO}/licenses/LICENSE" in wheel.namelist()
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    runtime = [line for line in requires if "extra ==" not in line]
    assert runtime and not [line for line in runtime if "grpcio-tools" in line]
    assert not [line for line in requires if "mypy-protobuf" in line]


@pytest.mark.slow
def test_installing_the_wheel_adds_one_import_root(wheel: zipfile.ZipFile, tmp_path: Path) -> None:
    assert wheel.filename is not None
    site = tmp_path / "site-packages"
    _pip("install", "--no-deps", "--no-index", "--target", str(site), wheel.filename)
    roots = {p.name for p in site.iterdir() if not p.name.endswith(".dist-info")}
    assert roots - {"bin"} == {"senet"}


def _pins(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", path.read_text(), re.MULTILINE))


def test_the_image_generates_code_with_the_runtime_s_protobuf() -> None:
    """The build stage's protoc is pinned beside, and agrees with, the runtime lock."""
    runtime = _pins(ROOT / "deploy" / "requirements.txt")
    build = _pins(ROOT / "deploy" / "requirements-build.txt")
    assert "grpcio-tools" in build and "grpcio-tools" not in runtime
    shared = set(build) & set(runtime)
    assert {"grpcio", "protobuf"} <= shared
    assert {name: build[name] for name in shared} == {name: runtime[name] for name in shared}
