"""The Archeos Society codec: core actions, views and events <-> ``senet.v1`` messages.

The core names cards ``"r-bot"``, colours ``"red"``, sites by id (``"uluru"``) or
target (``"y2"``) and steps by name; the protocol uses enums whose values are the
core's indexes plus one (zero is always ``UNSPECIFIED``). Every translation goes
through the core's own tables, and decoded actions are re-parsed by the core's
notation parser before they are returned.

Decoding client actions is strict: a field the action kind does not use is refused
rather than ignored, as in the Mykerinos codec.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from senet.codec.base import OneofCodec, action_kind_of
from senet.games.archeos import actions as act
from senet.games.archeos.actions import (
    BASIS_NAMES,
    SECOND_VEHICLE,
    ArcheosAction,
    parse_action,
    parse_target,
    target_name,
)
from senet.games.archeos.cards import (
    CARD_TYPES,
    COLOUR_NAMES,
    COLOURS,
    ROLE_NAMES,
    ROLES,
    card,
    card_name,
    colour_of,
    parse_card,
    role_of,
)
from senet.games.archeos.game import ARCHEOS
from senet.games.archeos.sites import PROFESSOR_TOKENS, SITE_IDS, Special
from senet.games.archeos.state import STEPS
from senet.games.errors import GameError, MalformedActionError
from senet.games.interface import Event, JsonDict, OptionValue
from senet.v1 import archeos_pb2 as pb

_KINDS: dict[str, pb.ArcheosActionKind.ValueType] = {
    act.TAKE: pb.ARCHEOS_ACTION_KIND_TAKE,
    act.DRAW: pb.ARCHEOS_ACTION_KIND_DRAW,
    act.LEAD: pb.ARCHEOS_ACTION_KIND_LEAD,
    act.ADD: pb.ARCHEOS_ACTION_KIND_ADD,
    act.GO: pb.ARCHEOS_ACTION_KIND_GO,
    act.ADVANCE: pb.ARCHEOS_ACTION_KIND_ADVANCE,
    act.BACK: pb.ARCHEOS_ACTION_KIND_BACK,
    act.CASH: pb.ARCHEOS_ACTION_KIND_CASH,
    act.STAY: pb.ARCHEOS_ACTION_KIND_STAY,
    act.PROFESSOR: pb.ARCHEOS_ACTION_KIND_PROFESSOR,
    act.KEEP: pb.ARCHEOS_ACTION_KIND_KEEP,
    act.DONE: pb.ARCHEOS_ACTION_KIND_DONE,
    act.PASS: pb.ARCHEOS_ACTION_KIND_PASS,
    act.SKIP: pb.ARCHEOS_ACTION_KIND_SKIP,
}
_KIND_OF: dict[int, str] = {value: kind for kind, value in _KINDS.items()}

_EVENT_KINDS: dict[str, pb.ArcheosEventKind.ValueType] = {
    "season_started": pb.ARCHEOS_EVENT_KIND_SEASON_STARTED,
    "dealt": pb.ARCHEOS_EVENT_KIND_DEALT,
    "mercenaries_discarded": pb.ARCHEOS_EVENT_KIND_MERCENARIES_DISCARDED,
    "monkey_drawn": pb.ARCHEOS_EVENT_KIND_MONKEY_DRAWN,
    "cards_drawn": pb.ARCHEOS_EVENT_KIND_CARDS_DRAWN,
    "cards_drawn_private": pb.ARCHEOS_EVENT_KIND_CARDS_DRAWN_PRIVATE,
    "card_taken": pb.ARCHEOS_EVENT_KIND_CARD_TAKEN,
    "expedition_started": pb.ARCHEOS_EVENT_KIND_EXPEDITION_STARTED,
    "expedition_played": pb.ARCHEOS_EVENT_KIND_EXPEDITION_PLAYED,
    "vehicle_moved": pb.ARCHEOS_EVENT_KIND_VEHICLE_MOVED,
    "botanist_framed": pb.ARCHEOS_EVENT_KIND_BOTANIST_FRAMED,
    "relic_placed": pb.ARCHEOS_EVENT_KIND_RELIC_PLACED,
    "linguist_moved": pb.ARCHEOS_EVENT_KIND_LINGUIST_MOVED,
    "professor_token_taken": pb.ARCHEOS_EVENT_KIND_PROFESSOR_TOKEN_TAKEN,
    "cards_to_display": pb.ARCHEOS_EVENT_KIND_CARDS_TO_DISPLAY,
    "cards_kept": pb.ARCHEOS_EVENT_KIND_CARDS_KEPT,
    "ur_passed": pb.ARCHEOS_EVENT_KIND_UR_PASSED,
    "uluru_cashed": pb.ARCHEOS_EVENT_KIND_ULURU_CASHED,
    "season_ending": pb.ARCHEOS_EVENT_KIND_SEASON_ENDING,
    "season_bonus": pb.ARCHEOS_EVENT_KIND_SEASON_BONUS,
    "season_scored": pb.ARCHEOS_EVENT_KIND_SEASON_SCORED,
    "game_over": pb.ARCHEOS_EVENT_KIND_GAME_OVER,
}


# ----------------------------------------------------------------- small values
def colour_to_proto(colour: int) -> pb.ArcheosColour.ValueType:
    """Core colour index -> enum."""
    if not 0 <= colour < COLOURS:
        raise ValueError(f"no Archeos colour {colour!r}")
    return pb.ArcheosColour.ValueType(colour + 1)


def _colour_from_proto(value: int, field: str) -> int:
    if not 1 <= value <= COLOURS:
        raise ValueError(f"{field}: {value} is not an Archeos colour")
    return value - 1


def card_to_proto(name: str) -> pb.ArcheosCard:
    """Card notation (``"r-bot"``) -> message."""
    card_type = parse_card(name)
    return pb.ArcheosCard(
        colour=colour_to_proto(colour_of(card_type)),
        role=pb.ArcheosRole.ValueType(role_of(card_type) + 1),
    )


def _card_type(message: pb.ArcheosCard) -> int:
    """Card message -> card type; MalformedActionError when it names no card."""
    if not 1 <= message.colour <= COLOURS or not 1 <= message.role <= ROLES:
        raise MalformedActionError(
            f"ArcheosCard needs a colour and a role, got colour {message.colour} "
            f"and role {message.role}"
        )
    return card(message.role - 1, message.colour - 1)


def card_from_proto(message: pb.ArcheosCard) -> str:
    """Card message -> notation (ValueError when it names no card)."""
    try:
        return card_name(_card_type(message))
    except MalformedActionError as exc:
        raise ValueError(str(exc)) from None


def _cards(names: list[str]) -> list[pb.ArcheosCard]:
    return [card_to_proto(n) for n in names]


def _names(cards: Any) -> list[str]:
    return [card_from_proto(c) for c in cards]


def _basis(name: str) -> pb.ArcheosBasis.ValueType:
    return pb.ArcheosBasis.ValueType(BASIS_NAMES.index(name) + 1)


def _basis_name(value: int) -> str:
    if not 1 <= value <= len(BASIS_NAMES):
        raise ValueError(f"{value} is not an Archeos basis")
    return BASIS_NAMES[value - 1]


def _target_fields(target: int) -> dict[str, Any]:
    site = int(Special.TA_SEKHET_MAAT) if target == SECOND_VEHICLE else target
    return {"site": colour_to_proto(site), "second_vehicle": target == SECOND_VEHICLE}


# ------------------------------------------------------------------- actions
def action_to_proto(action: ArcheosAction) -> pb.ArcheosAction:
    """A core action value -> message."""
    out = pb.ArcheosAction(kind=_KINDS[action.kind])
    if action.kind in (*act.CARD_KINDS, act.LEAD):
        out.card.CopyFrom(card_to_proto(card_name(action.card)))
    if action.kind == act.LEAD:
        out.basis = _basis(BASIS_NAMES[action.arg])
    if action.kind in act.TARGET_KINDS:
        fields = _target_fields(action.arg)
        out.site, out.second_vehicle = fields["site"], fields["second_vehicle"]
    if action.kind == act.PROFESSOR:
        out.token = action.arg
    return out


def action_from_proto(action: pb.ArcheosAction) -> str:
    """``ArcheosAction`` from a client -> canonical notation.

    Raises:
        MalformedActionError: see :meth:`GameCodec.action_from_proto`.
    """
    kind = action_kind_of(_KIND_OF, action.kind, "ArcheosAction")
    words = [kind]
    uses_card = kind in (*act.CARD_KINDS, act.LEAD)
    if uses_card:
        if not action.HasField("card"):
            raise MalformedActionError(f"{kind!r} needs a card (ArcheosAction.card)")
        card_type = _card_type(action.card)
        if not 0 <= card_type < CARD_TYPES:
            raise MalformedActionError("ArcheosAction.card names no card")
        words.append(card_name(card_type))
    elif action.HasField("card"):
        raise MalformedActionError(f"{kind!r} takes no card: leave card unset")
    if kind == act.LEAD:
        if action.basis not in (pb.ARCHEOS_BASIS_COLOUR, pb.ARCHEOS_BASIS_ROLE):
            raise MalformedActionError("'lead' needs basis COLOUR or ROLE")
        words.append(BASIS_NAMES[action.basis - 1])
    elif action.basis != pb.ARCHEOS_BASIS_UNSPECIFIED:
        raise MalformedActionError(f"{kind!r} takes no basis: leave it unspecified")
    if kind in act.TARGET_KINDS:
        if not 1 <= action.site <= COLOURS:
            raise MalformedActionError(f"{kind!r} needs a site colour")
        if action.second_vehicle and action.site - 1 != Special.TA_SEKHET_MAAT:
            raise MalformedActionError("only Ta-Sekhet-Ma'at (yellow) has a second vehicle")
        target = SECOND_VEHICLE if action.second_vehicle else action.site - 1
        words.append(target_name(target))
    elif action.site != pb.ARCHEOS_COLOUR_UNSPECIFIED or action.second_vehicle:
        raise MalformedActionError(f"{kind!r} takes no site: leave site unset")
    if kind == act.PROFESSOR:
        if action.token not in PROFESSOR_TOKENS:
            raise MalformedActionError(
                f"'prof' needs a token {PROFESSOR_TOKENS[0]}-{PROFESSOR_TOKENS[-1]}"
            )
        words.append(str(action.token))
    elif action.token:
        raise MalformedActionError(f"{kind!r} takes no token: leave token 0")
    return parse_action(" ".join(words)).notation()


# --------------------------------------------------------------------- views
def _player_to_proto(player: Mapping[str, Any]) -> pb.ArcheosPlayer:
    sites = list(player["sites"])
    return pb.ArcheosPlayer(
        seat=player["seat"],
        score=player["score"],
        hand_size=player["hand_size"],
        hand=_cards(player.get("hand", [])),
        vehicles=pb.ArcheosVehicles(sites=sites[:COLOURS], second_vehicle=sites[COLOURS]),
        linguist=player["linguist"],
        relics=[colour_to_proto(COLOUR_NAMES.index(c)) for c in player["relics"]],
        professor_tokens=player["professor_tokens"],
        expeditions=[pb.ArcheosExpedition(cards=_cards(e)) for e in player["expeditions"]],
        kept=_cards(player.get("kept", [])),
        known_hand=_cards(player["known_hand"]),
    )


def _player_from_proto(player: pb.ArcheosPlayer, own: bool) -> JsonDict:
    if len(player.vehicles.sites) != COLOURS:
        raise ValueError(f"a player has {COLOURS} site vehicles")
    out: JsonDict = {
        "seat": player.seat,
        "score": player.score,
        "hand_size": player.hand_size,
        "known_hand": _names(player.known_hand),
        "sites": [*player.vehicles.sites, player.vehicles.second_vehicle],
        "linguist": player.linguist,
        "relics": [COLOUR_NAMES[_colour_from_proto(c, "relics")] for c in player.relics],
        "professor_tokens": list(player.professor_tokens),
        "expeditions": [_names(e.cards) for e in player.expeditions],
    }
    if own:
        out["hand"] = _names(player.hand)
        out["kept"] = _names(player.kept)
    elif player.hand or player.kept:
        raise ValueError("only the viewer's own player carries a hand")
    return out


def view_to_proto(view: Mapping[str, Any]) -> pb.ArcheosView:
    """``ArcheosState.view(seat)`` -> message."""
    expedition = view["expedition"]
    pending = view["pending"]
    out = pb.ArcheosView(
        roles=[pb.ArcheosRole.ValueType(ROLE_NAMES.index(r) + 1) for r in view["roles"]],
        advanced_site=pb.ArcheosSite.ValueType(SITE_IDS.index(view["advanced_site"]) + 1),
        season=view["season"],
        seasons=view["seasons"],
        step=pb.ArcheosStep.ValueType(STEPS.index(view["step"]) + 1),
        first_seat=view["first_seat"],
        deck_size=view["deck_size"],
        deck_monkey_free_top=view["deck_monkey_free_top"],
        monkeys_drawn=view["monkeys_drawn"],
        display=_cards(view["display"]),
        professor_supply=view["professor_supply"],
        expedition=pb.ArcheosCurrentExpedition(
            cards=_cards(expedition["cards"]),
            basis=_basis(expedition["basis"]),
            limit=expedition["limit"],
            advanced=expedition["advanced"],
        ),
        pending=pb.ArcheosPending(
            in_ur=pending["in_ur"],
            linguist_advances=pending["linguist_advances"],
            keep_limit=pending["keep_limit"],
            chichen_draws=pending["chichen_draws"],
            ur_queue=pending["ur_queue"],
            professor_moves=[
                pb.ArcheosProfessorMove(seat=s, delta=d) for s, d in pending["professor_moves"]
            ],
        ),
        players=[_player_to_proto(p) for p in view["players"]],
        scores=view["scores"],
        places=view.get("ranking", []),
    )
    if view["current_seat"] is not None:
        out.current_seat = view["current_seat"]
    if view["last_monkey_seat"] is not None:
        out.last_monkey_seat = view["last_monkey_seat"]
    frame = view["botanist_frame"]
    if frame is not None:
        out.botanist_frame.CopyFrom(
            pb.ArcheosBotanistFrame(
                seat=frame["seat"], expedition=frame["expedition"], size=frame["size"]
            )
        )
    for entry in view.get("final") or []:
        out.final_scores.append(
            pb.ArcheosFinalScore(
                seat=entry["seat"],
                relics=entry["relics"],
                relic_points=entry["relic_points"],
                total=entry["total"],
                expedition_sizes=entry["expedition_sizes"],
            )
        )
    return out


def view_from_proto(
    view: pb.ArcheosView,
    *,
    viewer: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> JsonDict:
    """An ``ArcheosView`` -> the ``ArcheosState.view(viewer)`` dict it was made from.

    Raises:
        ValueError: a field has no core meaning (see :meth:`GameCodec.view_from_proto`).
    """
    seats = len(view.players)
    if [p.seat for p in view.players] != list(range(seats)):
        raise ValueError("view players must be listed by seat, from 0")
    if options is None:
        try:
            normalized: JsonDict = ARCHEOS.normalize_options(seats, {})
        except GameError as exc:
            raise ValueError(f"a view of {seats} players: {exc}") from None
    else:
        normalized = dict(options)
    if not 1 <= view.step <= len(STEPS) or not 1 <= view.advanced_site <= len(SITE_IDS):
        raise ValueError("unknown Archeos step or site")
    if any(not 1 <= r <= ROLES for r in view.roles):
        raise ValueError("unknown Archeos role")
    expedition = view.expedition
    pending = view.pending
    out: JsonDict = {
        "game": ARCHEOS.info.id,
        "viewer": viewer,
        "seats": seats,
        "options": normalized,
        "roles": [ROLE_NAMES[r - 1] for r in view.roles],
        "advanced_site": SITE_IDS[view.advanced_site - 1],
        "season": view.season,
        "seasons": view.seasons,
        "step": STEPS[view.step - 1],
        "current_seat": view.current_seat if view.HasField("current_seat") else None,
        "first_seat": view.first_seat,
        "last_monkey_seat": view.last_monkey_seat if view.HasField("last_monkey_seat") else None,
        "deck_size": view.deck_size,
        "deck_monkey_free_top": view.deck_monkey_free_top,
        "monkeys_drawn": view.monkeys_drawn,
        "display": _names(view.display),
        "professor_supply": list(view.professor_supply),
        "botanist_frame": {
            "seat": view.botanist_frame.seat,
            "expedition": view.botanist_frame.expedition,
            "size": view.botanist_frame.size,
        }
        if view.HasField("botanist_frame")
        else None,
        "expedition": {
            "cards": _names(expedition.cards),
            "basis": _basis_name(expedition.basis),
            "limit": expedition.limit,
            "advanced": expedition.advanced,
        },
        "pending": {
            "in_ur": pending.in_ur,
            "linguist_advances": pending.linguist_advances,
            "keep_limit": pending.keep_limit,
            "chichen_draws": pending.chichen_draws,
            "ur_queue": list(pending.ur_queue),
            "professor_moves": [[m.seat, m.delta] for m in pending.professor_moves],
        },
        "players": [_player_from_proto(p, p.seat == viewer) for p in view.players],
        "scores": list(view.scores),
    }
    if view.final_scores:
        out["final"] = [
            {
                "seat": f.seat,
                "relics": f.relics,
                "relic_points": f.relic_points,
                "total": f.total,
                "expedition_sizes": list(f.expedition_sizes),
            }
            for f in view.final_scores
        ]
        out["ranking"] = list(view.places)
    return out


# -------------------------------------------------------------------- events
def _site_and_vehicle(target: str) -> dict[str, Any]:
    return _target_fields(parse_target(target))


_FIELD_CONVERTERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "seat": lambda v: {"seat": v},
    "season": lambda v: {"season": v},
    "cards": lambda v: {"cards": _cards(v)},
    "display": lambda v: {"cards": _cards(v)},
    "card": lambda v: {"cards": _cards([v])},
    "leader": lambda v: {"cards": _cards([v])},
    "basis": lambda v: {"basis": _basis(v)},
    "limit": lambda v: {"count": v},
    "count": lambda v: {"count": v},
    "monkeys": lambda v: {"count": v},
    "artifacts": lambda v: {"count": v},
    "size": lambda v: {"count": v},
    "token": lambda v: {"count": v},
    "deck_size": lambda v: {"count": v},
    "first_seat": lambda v: {"seat": v},
    "points": lambda v: {"points": v},
    "site": _site_and_vehicle,
    "colour": lambda v: {"site": colour_to_proto(COLOUR_NAMES.index(v))},
    "start": lambda v: {"start": v},
    "end": lambda v: {"end": v},
    "reason": lambda v: {"reason": v},
    "bonus": lambda v: {"reason": v},
    "sites": lambda v: {"site_points": [pb.ArcheosSitePoints(points=row) for row in v]},
    "rapa_nui": lambda v: {"seats": v},
    "expeditions": lambda v: {"expedition_points": v},
    "scores": lambda v: {"scores": v},
    "ranking": lambda v: {"places": v},
}


def event_to_proto(event: Event) -> pb.ArcheosEvent:
    """One core event -> message (ValueError for a kind or detail it cannot carry)."""
    kind = _EVENT_KINDS.get(event.kind)
    if kind is None:
        raise ValueError(f"no protobuf form for Archeos event {event.kind!r}")
    fields: dict[str, Any] = {"kind": kind}
    for name, value in event.data.items():
        converter = _FIELD_CONVERTERS.get(name)
        if converter is None:
            raise ValueError(f"no protobuf field for {event.kind}.{name}")
        fields.update(converter(value))
    return pb.ArcheosEvent(**fields)


# ------------------------------------------------------------------- codec
#: Published as the ``archeos`` entry point of ``senet.codecs``.
ARCHEOS_CODEC = OneofCodec(
    "archeos",
    "an Archeos",
    ArcheosAction,
    action_from_proto,
    action_to_proto,
    view_to_proto,
    view_from_proto,
    event_to_proto,
)
