"""The ``senet`` command's output: line by line into a pipe, and a quiet stop when
the pipe's reader leaves (``senet ladder status | head``)."""

from __future__ import annotations

import subprocess
import sys

# A command whose output outgrows its reader: ``head -1`` after the first line.
_MANY_LINES = """
import sys
import senet.cli as cli

def many_lines(args):
    for i in range(100_000):
        print(f"line {i}")
    return 0

cli._run = many_lines
sys.exit(cli.main(["matches"]))
"""


def test_a_reader_that_leaves_early_ends_the_command_quietly() -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", _MANY_LINES], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert writer.stdout is not None and writer.stderr is not None
    first = writer.stdout.readline()
    writer.stdout.close()  # the reader leaves
    assert writer.wait(60) == 1 and first == b"line 0\n"
    assert writer.stderr.read() == b""  # no traceback, no "Exception ignored"
