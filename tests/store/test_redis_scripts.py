"""The Redis store's Lua scripts as files: what is sent, and that it stays put.

Redis caches a script under the SHA1 of its text and the store calls it by that
SHA (EVALSHA). The pinned SHAs below keep the scripts byte-identical across
refactorings; a change to a script's code must update its pin here on purpose
(replicas of the old and the new build then load and run both versions side by
side, which is fine, but should be a decision).
"""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest

from senet.store.redis_scripts import SCRIPT_NAMES, script_text

PINNED_SHAS = {
    "bot_acquire": "f9fb5b09666408d265640ced06a92eca8b09f4f4",
    "bot_defer": "35e124122f77350fb2facb52523ac7cc713239a3",
    "bot_post": "36967a7822ab70ec395222738bf39d0e761b8adb",
    "bot_release": "314a75c6eb4839449b467cb91f2fe5fd2394f58b",
    "bot_renew": "7b5cf0f31e5288e412c46e2efd97a7e3afa33ac0",
    "claim": "a08ccfb3d0961e96ed0e36c168b994537a7377ad",
    "commit": "2c93afe1424c09d61666c310905368f3162dba40",
    "create": "349c4a34a9e350aca18b931d99802ed7916bda03",
    "events": "b8757fbbe410c1beb14fb6b68249bc343c3a1ed5",
    "load": "cc36c7a7069beec6c16f0e0e6ff22cce81422b19",
    "log": "e837e8af0fff3d5ed85993662e9436cd1a4bc341",
    "replace_claim": "55af3e927b6273e2a55b15f03555ae06edf623dc",
    "request": "6ff128a6521421b07b2f6a603d5e71333edd095a",
    "swap_claim": "c36a43450adca4693dd603128785c4ac143752da",
    # -- lobby --
    "lobby_drop": "269a19fa4544ff70aaf5b17a2da0ec94b5f8535f",
    "lobby_peek": "e61af9427862b440788c4d2810b459d4f9a2f626",
    "lobby_put": "c12bdad8e1a0c7541db3509e1ec4c44667430ba0",
    "lobby_due": "3efa6d73a63ce1517703da2db3597febe7df6603",
    "lobby_defer": "57d26176f072b79085c8e09441eb4264df6eaeed",
    "lobby_scan": "876928ec129b88224f42b5e569920f2d07e24da1",
    # -- players, ratings and tickets --
    "players_settle": "f320fd0cbf740f127221064a6d1eb0984fde5b9c",
    "players_release": "25940a85286a184860ecda889040729c301bf672",
    "tickets_enqueue": "380c783725498032f64b843b8178595345dc9222",
    "tickets_scan": "62ef9d77aa85e0547dde9b6be3676561af997827",
    "tickets_claim": "8b7667250ac3db05d66e22dc90dc6785f683fa33",
    "tickets_drop": "721d17bb29c6ba986ba75d0ed3416a0bb494f208",
    "tickets_touch": "b462eeb70c1d8b65f32305ea011afc774311d0db",
}


def _lua_files() -> set[str]:
    folder = resources.files("senet.store").joinpath("lua")
    return {f.name.removesuffix(".lua") for f in folder.iterdir() if f.name.endswith(".lua")}


def test_every_script_file_is_known_and_pinned() -> None:
    assert _lua_files() == set(SCRIPT_NAMES) == set(PINNED_SHAS)


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_script_sha_is_pinned(name: str) -> None:
    assert hashlib.sha1(script_text(name).encode()).hexdigest() == PINNED_SHAS[name]


@pytest.mark.parametrize("name", SCRIPT_NAMES)
def test_header_documents_the_script_but_is_not_sent(name: str) -> None:
    whole = resources.files("senet.store").joinpath("lua", f"{name}.lua").read_text("utf-8")
    sent = script_text(name)
    assert whole.startswith("-- ")
    assert "KEYS" in whole.removesuffix(sent) or "ARGV" in whole.removesuffix(sent)
    assert whole.endswith(sent)
    assert not any(line.startswith("--") for line in sent.splitlines())


def test_unknown_script_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no Redis script named 'nope'"):
        script_text("nope")
