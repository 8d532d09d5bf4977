"""The learning writers' compiled twins (senet.rl.native): built from the source as it
is, handed out only then, and writing what the Python writers write, bit for bit.

CI builds the twins (``make install``) and sets ``SENET_RL_NATIVE_REQUIRED=1``, so a
build that silently fell back to Python fails here; elsewhere the twins' tests skip
where none is built (no C compiler), and everything runs as Python.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
from array import array
from types import ModuleType
from typing import Any

import pytest

from senet.games import Rng, get_game
from senet.rl import native
from senet.rl.encoding import encoding_for, observation_encoder

REQUIRED = os.environ.get("SENET_RL_NATIVE_REQUIRED") == "1"
MODULES = native.native_modules()
#: The games' writers (the rest: the engines they run on, :mod:`senet.rl.cells`).
WRITERS = [module for module in MODULES if module.endswith(".tensor")]


def _twin(module: str) -> ModuleType:
    twin = native.current_twin(module)
    if twin is None:
        if REQUIRED:
            pytest.fail(f"{module} has no current compiled twin (make native builds it)")
        pytest.skip("no compiled twin is built here")
    return twin


def test_every_game_with_a_direct_writer_asks_for_its_twin() -> None:
    games = {"archeos", "mykerinos", "marenostrum"}
    assert {f"senet.rl.{g}.tensor" for g in games} <= set(MODULES)
    for game_id in games:
        assert f"senet.rl.{game_id}.tensor" in encoding_for(game_id).native_modules
    assert "senet.rl.cells" in encoding_for("archeos").native_modules


def test_the_c_twin_is_stamped_with_both_sources() -> None:
    """The plan engine's twin is written in C (``cells.c``): an edit of either file
    makes it stale."""
    twin = _twin("senet.rl.cells")
    assert twin.__file__ is not None and not twin.__file__.endswith(".py")
    assert native.source_digest("senet.rl.cells") == twin.SOURCE_DIGEST
    python_only_digest = hashlib.sha256(native._source("senet.rl.cells").read_bytes()).hexdigest()
    assert python_only_digest != twin.SOURCE_DIGEST


def test_a_writer_runs_on_the_current_engine() -> None:
    twin = _twin("senet.rl.cells")
    factory = encoding_for("archeos").direct_tensor(4, {})
    assert factory is not None
    writer: Any = factory()
    writer(get_game("archeos").new_match(4, {}, seed=1), 0, array("d", bytes(8 * 1678)))
    assert type(writer._cells) is twin.Cells
    with native.python_only():
        factory = encoding_for("archeos").direct_tensor(4, {})
    assert factory is not None
    writer = factory()
    writer(get_game("archeos").new_match(4, {}, seed=1), 0, array("d", bytes(8 * 1678)))
    assert type(writer._cells).__module__ == "senet.rl.cells"


@pytest.mark.parametrize("module", WRITERS)
def test_the_encodings_hand_out_the_current_twins_writer(module: str) -> None:
    twin = _twin(module)
    assert twin.__name__ == native.twin_name(module)
    assert native.source_digest(module) == twin.SOURCE_DIGEST
    game_id = module.split(".")[2]
    writer = observation_encoder(game_id, get_game(game_id).info.min_seats, {}).direct
    assert writer is not None
    assert type(writer()).__module__ == twin.__name__


def _positions(game_id: str, seats: int, seed: int) -> list[Any]:
    game = get_game(game_id)
    state = game.new_match(seats, dict(game.info.short_match_options), seed=seed)
    rng = Rng(seed)
    positions: list[Any] = []
    while not state.is_over() and len(positions) < 400:
        positions.append(state.clone())
        seat = state.deciding_seats()[0]
        legal = state.legal_actions_for(seat)
        state.apply_unchecked(legal[rng.below(len(legal))], seat)
    return positions


@pytest.mark.parametrize("module", WRITERS)
def test_a_twin_writes_what_its_module_writes(module: str) -> None:
    """Each seat's writer of both follows the same random matches; every tensor is
    equal to the last bit (the Python writers are held to the features elsewhere)."""
    twin = _twin(module)
    game_id = module.split(".")[2]
    game = get_game(game_id)
    for seats in (game.info.min_seats, game.info.max_seats):
        options = game.normalize_options(seats, dict(game.info.short_match_options))
        encoder = observation_encoder(game_id, seats, options)
        with native.python_only():
            python_writer = encoding_for(game_id).direct_tensor(seats, options)
        compiled_writer = encoding_for(game_id).direct_tensor(seats, options)
        assert python_writer is not None and compiled_writer is not None
        python = [python_writer() for _ in range(seats)]
        compiled = [compiled_writer() for _ in range(seats)]
        assert type(compiled[0]).__module__ == twin.__name__
        assert type(python[0]).__module__ == module
        outs = [(array("d", bytes(8 * encoder.size)), array("d", bytes(8 * encoder.size)))
                for _ in range(seats)]  # fmt: skip
        for state in _positions(game_id, seats, seed=seats):
            for seat in range(seats):
                python[seat](state, seat, outs[seat][0])
                compiled[seat](state, seat, outs[seat][1])
                assert outs[seat][0] == outs[seat][1], (module, seats, seat)


def test_a_twin_built_from_another_source_is_not_used(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An edited writer runs as Python, with one warning naming the rebuild, until
    its twin is built again."""
    module = importlib.import_module(MODULES[0])
    _twin(MODULES[0])
    monkeypatch.setattr(native, "source_digest", lambda name: "an edited source")
    monkeypatch.setattr(native, "_warned", set())
    with caplog.at_level(logging.WARNING, "senet.rl.native"):
        assert native.preferred(module) is module
        assert native.preferred(module) is module
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "python -m senet.rl.native build" in warnings[0]


def test_twins_not_built_are_warned_of_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Where nothing is built (a package installed without the build), the first
    writer made says once how to build the twins; choosing Python says nothing."""
    modules = [importlib.import_module(name) for name in MODULES]
    monkeypatch.setattr(native, "_built_twin", lambda name: None)
    monkeypatch.setattr(native, "_warned", set())
    with caplog.at_level(logging.WARNING, "senet.rl.native"):
        with native.python_only():
            assert native.preferred(modules[0]) is modules[0]
        assert caplog.records == []
        for module in modules:
            assert native.preferred(module) is module
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1
    assert "no compiled twin is built" in warnings[0] and "senet.rl.native build" in warnings[0]


def test_the_switch_turns_the_twins_off(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module(MODULES[0])
    monkeypatch.setenv(native.SWITCH, "0")
    assert native.preferred(module) is module
    monkeypatch.setenv(native.SWITCH, "1")
    with native.python_only():
        assert native.preferred(module) is module
    assert os.environ[native.SWITCH] == "1"  # restored


def test_status_says_what_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert native.main(["status"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == MODULES
    assert all(line.endswith(("compiled, up to date", "runs as Python")) for line in lines)
