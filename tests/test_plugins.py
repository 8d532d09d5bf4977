"""The plug-in registry: games are found through entry points, once, lazily, checked."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from senet.games import PluginError, PluginRegistry, UnknownGameError, all_games, get_game


@pytest.fixture
def plugins(tmp_path: Path) -> Iterator[Path]:
    """A folder on ``sys.path`` where a test writes distributions and modules."""
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("senet_plugin_test")]:
        del sys.modules[name]


def declare(folder: Path, dist: str, group: str, entries: dict[str, str]) -> None:
    info = folder / f"{dist}-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0\n")
    lines = "".join(f"{name} = {target}\n" for name, target in entries.items())
    (info / "entry_points.txt").write_text(f"[{group}]\n{lines}")


def registry(group: str) -> PluginRegistry[SimpleNamespace]:
    return PluginRegistry(group, "part", lambda part: str(part.game_id))


def test_senet_games_are_found_by_entry_point() -> None:
    assert {"archeos", "mykerinos"} <= {game.info.id for game in all_games()}
    assert get_game("mykerinos").info.id == "mykerinos"


def test_a_part_is_imported_only_when_its_game_is_asked_for(plugins: Path) -> None:
    (plugins / "senet_plugin_test_lazy.py").write_text(
        "from types import SimpleNamespace\nPART = SimpleNamespace(game_id='lazy')\n"
    )
    declare(plugins, "lazy_game", "senet.test_lazy", {"lazy": "senet_plugin_test_lazy:PART"})
    parts = registry("senet.test_lazy")
    assert parts.game_ids() == ["lazy"]
    assert "senet_plugin_test_lazy" not in sys.modules
    assert parts.get("lazy").game_id == "lazy"
    assert parts.find("lazy") is parts.get("lazy")


def test_an_unknown_game_names_the_known_ones(plugins: Path) -> None:
    declare(plugins, "one_game", "senet.test_unknown", {"one": "senet_plugin_test_x:PART"})
    parts = registry("senet.test_unknown")
    assert parts.find("two") is None
    with pytest.raises(UnknownGameError, match=r"unknown game 'two' \(known: one\)"):
        parts.get("two")


def test_a_part_that_serves_another_game_is_refused(plugins: Path) -> None:
    (plugins / "senet_plugin_test_wrong.py").write_text(
        "from types import SimpleNamespace\nPART = SimpleNamespace(game_id='other')\n"
    )
    declare(plugins, "wrong_game", "senet.test_wrong", {"mine": "senet_plugin_test_wrong:PART"})
    with pytest.raises(PluginError, match="declared as 'mine' but serves 'other'"):
        registry("senet.test_wrong").get("mine")


def test_two_plugins_claiming_one_game_are_refused(plugins: Path) -> None:
    declare(plugins, "first", "senet.test_twice", {"twice": "senet_plugin_test_a:PART"})
    declare(plugins, "second", "senet.test_twice", {"twice": "senet_plugin_test_b:PART"})
    with pytest.raises(PluginError, match="2 different part plug-ins claim 'twice'"):
        registry("senet.test_twice").get("twice")


def test_a_plugin_that_does_not_import_is_a_plugin_error(plugins: Path) -> None:
    declare(plugins, "broken", "senet.test_broken", {"broken": "senet_plugin_test_none:PART"})
    with pytest.raises(PluginError, match="does not load"):
        registry("senet.test_broken").get("broken")
