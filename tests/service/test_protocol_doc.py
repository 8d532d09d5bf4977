"""docs/protocol.md agrees with the server: every error reason a client can get is
in its table with the code the server maps it to, and nothing else is."""

from __future__ import annotations

import re
from pathlib import Path

import grpc

from senet.games import errors as game_errors
from senet.service import errors, grpc_errors
from senet.store import MatchNotFound, StoreUnavailable

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_ROW = re.compile(
    r"^\| `(?P<reason>[A-Z_]+)` \| (?P<code>[A-Z_]+) \|(?P<when>[^|]+)\|(?P<facts>[^|]*)\|$"
)


def _documented() -> dict[str, tuple[str, str]]:
    rows = {}
    for line in GUIDE.read_text().splitlines():
        match = _ROW.match(line)
        if match:
            rows[match["reason"]] = (match["code"], match["facts"])
    return rows


def _subclasses(base: type[Exception]) -> list[type[Exception]]:
    found: list[type[Exception]] = []
    subclass: type[Exception]
    for subclass in base.__subclasses__():
        found += [subclass, *_subclasses(subclass)]
    return found


def _served() -> dict[str, str]:
    """Every reason the one mapping (grpc_errors.status_for) can produce, with its code."""
    served: dict[str, str] = {}
    classes = _subclasses(errors.ServiceError) + _subclasses(game_errors.GameError)
    examples: list[BaseException] = [cls("x") for cls in classes]
    examples += [MatchNotFound("x"), StoreUnavailable("x"), RuntimeError("a bug")]
    for exc in examples:
        code, reason, _ = grpc_errors.status_for(exc)
        served[reason] = code.name
    return served


def test_every_reason_is_documented_with_its_code() -> None:
    documented = {reason: code for reason, (code, _) in _documented().items()}
    assert documented == _served()


def test_the_documented_facts_are_those_the_tests_check() -> None:
    """The metadata keys of the table; each is asserted on a real call in
    test_rpcs / test_client_errors."""
    facts = {
        reason: set(re.findall(r"`([a-z][A-Za-z]+)`", cell))
        for reason, (_, cell) in _documented().items()
    }
    assert facts["STALE_VERSION"] == {"currentVersion"}
    assert facts["NOT_YOUR_TURN"] == {"seatToAct"}
    assert facts["RATE_LIMITED"] == {"ratePerSecond", "burst"}
    assert facts["MALFORMED_REQUEST"] == {"field", "limit", "size"}
    assert facts["SEAT_TAKEN"] == {"seat"}
    assert facts["REQUEST_ID_REUSED"] == {"committedVersion", "matchId", "seat"}
    assert facts["QUOTA_EXCEEDED"] == {"quota", "limit"}  # test_quotas
    assert facts["MATCH_NOT_STARTED"] == {"openSeats"}  # test_not_started
    assert facts["VERSION_AHEAD"] == {"currentVersion"}
    assert facts["ALREADY_QUEUED"] == {"ticketId"}  # test_matchmaking
    assert facts["BOT_REGISTRATION_REFUSED"] == {"policy"}  # test_bot_registration
    assert facts["SEAT_KEPT"] == {"seat"}  # test_rematch
    assert facts["SEAT_GIVEN_UP"] == {"matchId", "seat"}  # test_matchmaking
    assert facts["REMATCH_DECLINED"] == {"seat", "name"}  # test_rematch
    # test_rules_versions
    assert facts["RULES_NEWER_THAN_REPLICA"] == {"rulesVersion", "serverRulesVersion"}
    assert {r for r, keys in facts.items() if keys} == {
        "STALE_VERSION", "NOT_YOUR_TURN", "RATE_LIMITED", "MALFORMED_REQUEST", "SEAT_TAKEN",
        "REQUEST_ID_REUSED", "QUOTA_EXCEEDED", "MATCH_NOT_STARTED", "VERSION_AHEAD",
        "ALREADY_QUEUED", "BOT_REGISTRATION_REFUSED", "SEAT_KEPT", "RULES_NEWER_THAN_REPLICA",
        "REMATCH_DECLINED", "SEAT_GIVEN_UP",
    }  # fmt: skip


def test_the_proto_lists_the_same_reasons() -> None:
    """Between them, the comments on MatchService and PlayerService name every reason."""
    folder = GUIDE.parents[1] / "proto" / "senet" / "v1"
    header = ""
    for file, service_name in (
        ("match_service.proto", "MatchService"),
        ("player_service.proto", "PlayerService"),
    ):
        text = (folder / file).read_text()
        header += text[: text.index(f"service {service_name}")]
    named = set(re.findall(r"\b[A-Z][A-Z_]{3,}\b", header)) - {
        code.name for code in grpc.StatusCode
    }
    assert named - {"ErrorInfo"} >= set(_served()) - {"INTERNAL", "CORRUPT_STATE"}


def test_the_error_section_names_oversized_messages_as_the_one_exception() -> None:
    """Every error carries an ErrorInfo except an oversized message, which gRPC
    refuses before the server reads it (pinned in test_oversized)."""
    errors_section = GUIDE.read_text().split("## Errors", 1)[1].split("\n## ", 1)[0]
    assert "One exception has no `ErrorInfo`" in errors_section
    assert "`SENET_MAX_MESSAGE_BYTES`" in errors_section
    assert "`RESOURCE_EXHAUSTED`" in errors_section
