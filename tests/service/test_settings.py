"""Settings: each comes from a flag or a SENET_* variable, and `senet serve --help`
explains every flag with its default and its variable."""

from __future__ import annotations

import argparse
from dataclasses import fields

import pytest

from senet.service.settings import Settings, setting_help


def _serve_help() -> str:
    parser = argparse.ArgumentParser(prog="senet serve")
    Settings.add_arguments(parser)
    return " ".join(parser.format_help().split())


def test_every_setting_is_explained_in_the_docstring() -> None:
    explained = setting_help()
    assert sorted(explained) == sorted(f.name for f in fields(Settings))
    assert all(len(text) > 10 for text in explained.values())


@pytest.mark.parametrize("setting", [f.name for f in fields(Settings)])
def test_the_help_names_each_flag_default_and_variable(setting: str) -> None:
    text = _serve_help()
    flag = "--" + setting.replace("_", "-")
    assert flag in text
    variable = f"env SENET_{setting.upper()})"
    assert variable in text
    entry = text[text.index(flag) : text.index(variable)]
    assert "(default: " in entry


def test_defaults_are_shown_for_people() -> None:
    text = _serve_help()
    assert "(default: 50051; env SENET_PORT)" in text
    assert "(default: none; env SENET_REDIS_URL)" in text
    assert "(default: on; env SENET_LOG_JSON)" in text
    assert "(default: 0; env SENET_METRICS_PORT)" in text


def test_flags_win_over_the_environment() -> None:
    parser = argparse.ArgumentParser()
    Settings.add_arguments(parser)
    env = Settings.from_env({"SENET_PORT": "7000", "SENET_HOST": "0.0.0.0"})
    settings = env.with_args(parser.parse_args(["--port", "7001"]))
    assert (settings.port, settings.host) == (7001, "0.0.0.0")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, 1),  # nothing could let a worker in: one runs here
        ({"worker_key": "k"}, 0),  # workers outside use the key
        ({"admin_key": "a"}, 0),
        ({"embedded_bot_workers": 0}, 0),
        ({"embedded_bot_workers": 3, "worker_key": "k"}, 3),
    ],
)
def test_the_default_runs_a_bot_worker_only_where_none_could_come_from_outside(
    given: dict[str, object], expected: int
) -> None:
    settings = Settings(**given)  # type: ignore[arg-type]
    assert settings.bot_workers_here() == expected
    settled = settings.with_embedded_worker_key()
    assert settled.embedded_bot_workers == expected
    # The key drawn for the embedded workers does not turn the default into "none":
    # settling again (create_server does) keeps the count.
    assert settled.with_embedded_worker_key().embedded_bot_workers == expected
    if expected and "worker_key" not in given:
        assert len(settled.worker_key) >= 32
    if not expected:
        assert settled.worker_key == given.get("worker_key", "")
