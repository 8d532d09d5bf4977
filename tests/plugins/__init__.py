"""Plug-ins that exist only in the test suite, registered the way real games are.

This folder holds ``*.dist-info`` directories (metadata and ``entry_points.txt``)
that are never installed: :func:`enable` puts the folder on ``sys.path``, where
``importlib.metadata`` finds them, and on ``PYTHONPATH``, which every process the
tests start inherits. So a server or bot process started by a test hosts the test
games too, while ``make run`` and an installed Senet never see them.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
#: The repository root, where the ``tests`` package the entry points name lives.
ROOT = FOLDER.parents[1]


def enable() -> None:
    """Make the test plug-ins visible to this process and to every child it starts.

    Must run before any plug-in registry first reads its entry-point group (each
    reads it once per process).
    """
    paths = [str(FOLDER), str(ROOT)]
    for path in reversed(paths):
        if path not in sys.path:
            sys.path.insert(0, path)
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join([*paths, *(p for p in inherited if p not in paths)])


@contextlib.contextmanager
def visible_to_children() -> Iterator[None]:
    """:func:`enable`, for the processes started inside only: ``PYTHONPATH`` is put
    back on the way out, so later children do not inherit the test games."""
    before = os.environ.get("PYTHONPATH")
    enable()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before
