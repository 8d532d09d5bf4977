"""``quit`` in the line-mode client asks: leave for good, or pause and keep the seat."""

from __future__ import annotations

import io

import pexpect
import pytest

from tests.text.test_text_client import _group, _spawn

QUESTION = r"Leave for good \(l\) or pause, keeping your seat \(p\)\? > "


@pytest.mark.slow
def test_quit_pauses_or_leaves_for_good(server_address: str) -> None:
    log = io.StringIO()
    child = _spawn(
        "--server", server_address, "--new", "mykerinos", "--seats", "3", "--name", "Ada",
        log=log,
    )  # fmt: skip
    child.expect(r"--join ([0-9a-f]+)")
    match_id = _group(child)
    child.expect(r"your token: (\S+)")
    token = _group(child)
    child.expect("Waiting for")

    child.sendline("quit")
    child.expect(QUESTION)
    child.sendline("what")  # neither: carry on
    child.expect("Carrying on.")
    child.sendline("quit")
    child.expect(QUESTION)
    child.sendline("p")
    child.expect("Paused: your seat is kept.")
    child.expect("Resume later with:")
    child.expect(r"--token=\S+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, log.getvalue()

    again = _spawn(
        "--server", server_address, "--resume", match_id, "--seat", "0", f"--token={token}",
        log=log,
    )  # fmt: skip
    again.expect("Resumed seat 0")
    again.sendline("q")
    again.expect(QUESTION)
    again.sendline("leave")
    again.expect("You left; your seat is open for someone else.")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0, log.getvalue()

    # The token no longer holds the seat.
    gone = _spawn(
        "--server", server_address, "--resume", match_id, "--seat", "0", f"--token={token}",
        log=log,
    )  # fmt: skip
    gone.expect("BAD_TOKEN")
    gone.expect(pexpect.EOF)
    gone.close()
    assert gone.exitstatus != 0
