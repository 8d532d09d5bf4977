"""The values the service hands to the API layer: a match, an update, a prompt,
an outcome, an export, each as one caller may see it.

They are built from the stored documents of :mod:`senet.service.records` and carry
nothing a viewer may not know; :mod:`senet.service.messages` turns them into
protobuf messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from senet.games.interface import Event, JsonDict
from senet.service.records import (
    ZOMBIE,
    ActionOrigin,
    LeavePolicy,
    MatchMeta,
    SeatClaim,
    SeatKind,
    Status,
    loads,
)


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    kind: SeatKind
    display_name: str
    claimed: bool
    bot_strategy: str
    resigned: bool = False
    takeover_strategy: str = ""
    #: Kept for the previous match's player (a rematch: SeatPlan.kept).
    kept: bool = False
    #: The seat's player declined this finished match's rematch.
    rematch_declined: bool = False


def seat_summaries(meta: MatchMeta, claims: Mapping[int, str]) -> list[SeatSummary]:
    """What anyone may know of each seat, from the seat plan and the stored claims
    (a seat taken over by a bot or resigned says so; a registered bot's seat
    shows its bot's name before its workers claim it, and a rematch's kept seat
    the name of the player it is kept for)."""
    seats = []
    for seat, plan in enumerate(meta.seats):
        claim_json = claims.get(seat)
        claim = SeatClaim.from_json(claim_json) if claim_json else None
        takeover = claim.takeover if claim else ""
        seats.append(
            SeatSummary(
                seat=seat,
                kind=plan.kind,
                display_name=claim.name if claim else plan.name,
                claimed=claim is not None,
                bot_strategy=plan.bot_strategy,
                resigned=takeover == ZOMBIE,
                takeover_strategy="" if takeover == ZOMBIE else takeover,
                kept=plan.kept,
                rematch_declined=claim.rematch_declined if claim else False,
            )
        )
    return seats


@dataclass(frozen=True)
class MatchSummary:
    match_id: str
    game_id: str
    options: JsonDict
    seats: list[SeatSummary]
    status: Status
    version: int
    current_seat: int | None
    commitment: str
    scores: list[int]
    places: list[int]
    leave_policy: LeavePolicy = "resign"
    leave_bot_strategy: str = ""
    time_control: JsonDict | None = None
    #: ClockView data at this version; None without clocks.
    clock: JsonDict | None = None
    #: The creator chose the seed (see MatchMeta.seed_chosen).
    seed_chosen: bool = False
    #: Every seat that must decide now, in seat order (GameState.deciding_seats).
    deciding: tuple[int, ...] = ()
    #: Every open seat is claimed: the match is dealt and seats may act.
    started: bool = True
    #: Left out of the lobby (MatchMeta.unlisted).
    unlisted: bool = False
    #: A rematch's finished match (MatchMeta.rematch_of).
    rematch_of: str = ""
    #: The result settles into ratings (MatchMeta.rated).
    rated: bool = False


@dataclass(frozen=True)
class MatchSnapshot:
    """A match at one version as one viewer may see it."""

    summary: MatchSummary
    view: JsonDict
    viewer_seat: int | None
    #: The finished match's rematch once a player asked for one (GetMatch only).
    rematch_id: str = ""


@dataclass(frozen=True)
class MatchUpdate:
    """One committed version as one audience sees it.

    Streams whose viewers see the same things (the same events, the same
    notation) share one object, and with it ``wire``: the API layer keeps each
    message it builds from the update there, so it is built once per audience,
    not once per stream.
    """

    version: int
    seat: int
    notation: str
    events: list[Event]
    status: Status
    current_seat: int | None
    clock: JsonDict | None = None
    #: Every seat that must decide after this version (UpdateRecord.deciding_seats).
    deciding: tuple[int, ...] = ()
    #: The request id that made this version, in the acting seat's own audience
    #: only (empty in every other).
    request_id: str = ""
    #: Who chose the action, and with which strategy (UpdateRecord.origin).
    origin: ActionOrigin = "seat"
    origin_strategy: str = ""
    wire: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Heartbeat:
    version: int


class LegalAction(NamedTuple):
    """One entry of a prompt (a tuple: a prompt makes dozens of them)."""

    action: Any
    notation: str
    label: str


@dataclass(frozen=True)
class LegalActions:
    game_id: str
    version: int
    seat: int
    actions: list[LegalAction]


@dataclass(slots=True)
class SubmitOutcome:
    """What a submission did, as the caller is answered (a per-call value:
    slotted, not frozen, see docs/performance.md)."""

    game_id: str
    version: int
    events: list[Event]
    status: Status
    duplicate: bool
    request_id: str
    current_seat: int | None


@dataclass(frozen=True)
class LoggedAction:
    version: int
    seat: int
    notation: str
    #: Who chose it (UpdateRecord.origin).
    origin: ActionOrigin = "seat"
    origin_strategy: str = ""
    #: The version of the game's rules that applied it (0: not recorded).
    rules_version: int = 0


def logged_action(version: int, entry_json: str) -> LoggedAction:
    """One entry of the action log (:meth:`UpdateRecord.log_entry_json`); entries
    written before origins were recorded read as the seat's own, and before rules
    versions were, as version 0."""
    raw = loads(entry_json)
    return LoggedAction(
        version,
        raw["seat"],
        raw["notation"],
        raw.get("origin", "seat"),
        raw.get("origin_strategy", ""),
        raw.get("rules", 0),
    )


@dataclass(frozen=True)
class MatchExport:
    game_id: str
    options: JsonDict
    seat_count: int
    seed: int
    salt: str
    commitment: str
    actions: list[LoggedAction] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    seed_chosen: bool = False
    #: Each seat's JoinMatch entropy, in seat order.
    entropy: list[str] = field(default_factory=list)
    #: The seed the match was dealt with (see MatchMeta.deal_seed).
    dealt_seed: int = 0
    #: The version of the game's rules it was dealt under (HeadDocument.dealt).
    rules_version: int = 0
    #: The seats at its end (who played each), as its summary shows them.
    seats: list[SeatSummary] = field(default_factory=list)
