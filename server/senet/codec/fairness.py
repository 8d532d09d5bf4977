"""The fairness of a deal, as both sides of the protocol work it out.

The server commits to its seed when a match is created (``MatchSummary.
seed_commitment``), each seat adds its own entropy when it joins, and a fair match
is dealt from the combination of both when it starts. ``ExportMatch`` opens the
commitment once the match is over. The server uses these functions to deal and to
publish; a client (the web client's replay, a third party's checker) uses the same
ones to check an export, so both read the documented formulas from one place
(``JoinMatchRequest.entropy`` and ``ExportMatchResponse`` in the protos).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from senet.codec.options import options_from_proto
from senet.games import get_game
from senet.games.interface import GameState
from senet.v1 import match_service_pb2 as ms


def seed_commitment(salt: str, seed: int) -> str:
    """Hex SHA-256 of ``"<salt>:<seed>"``: published at creation, opened at export.

    The random salt keeps a small, guessable seed (say 7) from being found by
    hashing candidates, which would reveal the hidden deck order.
    """
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def effective_seed(seed: int, entropy: Sequence[str]) -> int:
    """The seed a fair match is dealt with: the first 8 bytes (big-endian) of
    the SHA-256 of ``"<seed>:<entropy of seat 0>:...:<entropy of the last seat>"``.

    The server's seed is committed before any seat joins, and each seat's
    entropy is its own: the server cannot aim the deal without knowing every
    seat's entropy, and no seat can without knowing the server's seed.
    """
    text = ":".join([str(seed), *entropy])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def expected_deal(export: ms.ExportMatchResponse) -> int:
    """The seed an export's own parts say the match must have been dealt with:
    the chosen seed itself, else the server's seed combined with every seat's entropy."""
    if export.seed_chosen:
        return export.seed
    return effective_seed(export.seed, list(export.seat_entropy))


def rules_played(export: ms.ExportMatchResponse) -> list[int]:
    """The versions of the game's rules the match was dealt and played under, in
    order of first use (0: created before rules versions were recorded)."""
    played = [export.rules_version, *(logged.rules_version for logged in export.actions)]
    return list(dict.fromkeys(played))


def rules_mismatch(export: ms.ExportMatchResponse) -> str | None:
    """Why this rules core cannot replay ``export`` (it was played under other
    rules), or None when it can. A match of unrecorded rules (version 0) is
    replayed: its log, or the final scores, tell whether the rules still agree."""
    game = get_game(export.game_id)
    here = game.info.rules_version
    known = [version for version in rules_played(export) if version]
    if all(version == here for version in known):
        return None
    versions = " then ".join(str(version) for version in known)
    return (
        f"this match was played under {game.info.name} rules version {versions}, and "
        f"this release of Senet plays version {here}: only a release that plays "
        f"version {versions} replays it"
    )


def refused_log(export: ms.ExportMatchResponse, error: Exception) -> tuple[str, bool]:
    """What it means that the rules refuse an action of ``export``'s log, and
    whether that proves the server's record wrong: it does, unless the match was
    played before rules versions were recorded, under rules that may have changed
    since (then nothing can be told here)."""
    if any(rules_played(export)):
        return f"✘ the exported log breaks the rules: {error}", True
    name = get_game(export.game_id).info.name
    return (
        f"Not replayed: this match was played before rules versions were recorded, and "
        f"its log does not replay under this release's {name} rules ({error}); they "
        "may have changed since, and only the release that played it replays it.",
        False,
    )


def replay(export: ms.ExportMatchResponse) -> list[GameState]:
    """The match's states from the deal to the end (one more than its actions),
    replayed with the rules core from the seed the export says it was dealt with.
    Check :func:`rules_mismatch` first: another version of the rules may deal
    differently or refuse a logged action."""
    game = get_game(export.game_id)
    state = game.new_match(export.seat_count, options_from_proto(export.options), export.dealt_seed)
    states = [state.clone()]
    for logged in export.actions:
        state.apply(logged.seat, logged.notation)
        states.append(state.clone())
    return states


def export_checks(
    export: ms.ExportMatchResponse, published_commitment: str, final: GameState
) -> list[tuple[str, bool]]:
    """What a player checks of a finished match's export, each with its outcome.

    ``published_commitment`` is the commitment the player saw before the deal
    (its ``MatchSummary``); ``final`` the state :func:`replay` reached.
    """
    opened = seed_commitment(export.seed_salt, export.seed)
    dealt = expected_deal(export)
    deal_source = (
        "the seed was chosen by the match's creator (a practice match)"
        if export.seed_chosen
        else "the deal combines that seed with every seat's entropy"
    )
    name = get_game(export.game_id).info.name
    version = export.rules_version
    rules = (
        f"played under {name} rules version {version}, the version replayed here"
        if version
        else f"played before rules versions were recorded, replayed under {name}'s rules"
    )
    return [
        (rules, rules_mismatch(export) is None),
        (f"SHA-256 of salt:seed is {opened[:16]}…", opened == export.seed_commitment),
        ("it equals the commitment published at creation", opened == published_commitment),
        (deal_source, dealt == export.dealt_seed),
        ("the replay reaches the server's final scores", final.scores() == list(export.scores)),
    ]
