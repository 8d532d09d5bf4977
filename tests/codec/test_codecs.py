"""The codecs between the rules cores and ``senet.v1`` protobuf messages.

Strategy: play seeded random matches with the core and push everything the service
will ever send through the codec: every legal action (and back to notation), every
view (each seat and the spectator) and every event. Views and events are then
*decoded again by this file's own small decoder*, written from the protobuf enum
names rather than from the codec's tables, and compared with the core's dicts. That
checks every field, not a sample, and it fails as soon as the core grows a key that
the protocol does not carry (the few deliberate omissions are listed below).

Client input is attacked separately with hypothesis: arbitrary typed actions and
arbitrary wire bytes must decode to notation the core accepts, or be refused with
``MalformedActionError``, never anything else.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from google.protobuf.message import DecodeError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.codec import (
    GameCodec,
    all_codecs,
    codec_for,
    game_info_to_proto,
    option_value_from_proto,
    option_value_to_proto,
    options_from_proto,
    options_to_proto,
    require_game_message,
)
from senet.codec.mykerinos import EVENT_CONVERTERS
from senet.games import (
    Event,
    GameInfo,
    GameState,
    InvalidOptionsError,
    MalformedActionError,
    OptionSpec,
    UnknownGameError,
    all_games,
    get_game,
)
from senet.games.mykerinos import actions as act
from senet.games.mykerinos.museum import room_patrons, room_value
from senet.games.mykerinos.patrons import PATRON_CODES, PATRON_NAMES
from senet.v1 import games_pb2, match_pb2, match_service_pb2
from senet.v1 import mykerinos_pb2 as pb

GAME = get_game("mykerinos")
CODEC = codec_for("mykerinos")
SEEDS_PER_SEAT_COUNT = 8
#: Seeds per seat count of random Nile matches: enough for the tie card to come up.
NILE_SEEDS = 2
#: Seeds per variant combination.
VARIANT_SEEDS = 2

#: View keys the protocol leaves to MatchSummary (game id, seats, options, scores)
#: or that only echo the request (viewer).
VIEW_KEYS_NOT_CARRIED = {"game", "viewer", "seats", "options", "scores"}
#: Event data the protocol does not carry, and why that loses nothing.
EVENT_KEYS_NOT_CARRIED = {
    # The area being scored, already announced by the preceding area_ranked.
    "museum_placed": {"area"},
    # Always -1: the river is ranked before any area of the campaign.
    "river_ranked": {"area"},
}

#: Protobuf kind name -> core notation keyword (independent of the codec's table).
KIND_WORDS = {
    "START": "a",
    "EXPAND": "b",
    "CURATOR": "cur",
    "COLONEL": "col",
    "EXPLORER": "exp",
    "HEIRESS": "hei",
    "DIRECTOR": "dir",
    "PASS": "pass",
    "NEUTRAL_START": "na",
    "NEUTRAL_EXPAND": "nb",
    "NEUTRAL_SKIP": "nskip",
    "TAKE_PLOT": "take",
    "MUSEUM": "mus",
    "DISCARD_PLOT": "discard",
    "TEAM_START": "ta",
    "TEAM_EXPAND": "tb",
    "DRAFT": "draft",
    "GOVERNOR": "gov",
    "BLOCK": "block",
    "USE_TIE": "usetie",
    "KEEP_TIE": "keeptie",
    "LEAVE_PLOT": "leave",
}
NEUTRAL_KINDS = {"na", "nb", "nskip", "discard"}
#: Action kinds that only a variant offers.
VARIANT_KINDS = {
    "team": {"ta", "tb", "leave"},
    "quick": {"draft"},
    "nile": {"gov", "block", "usetie", "keeptie"},
}
EVENT_KINDS = {
    "campaign_started",
    "placed",
    "passed",
    "final_action",
    "museum_placed",
    "area_ranked",
    "plot_taken",
    "plot_discarded",
    "area_done",
    "campaign_ended",
    "game_over",
}
VARIANT_EVENTS = {
    "team": {"plot_left"},
    "quick": {"draft_started", "drafted", "draft_discarded"},
    "nile": {
        "blocked",
        "token_returned",
        "nothing_to_block",
        "tokens_retrieved",
        "river_ranked",
        "nile_card_taken",
        "nile_card_discarded",
        "river_done",
        "tie_card_used",
        "tie_card_kept",
    },
}
ALL_EVENT_KINDS = EVENT_KINDS.union(*VARIANT_EVENTS.values())
OPTION_NAMES = ("nile", "team", "quick", "classic")


def _variant_cases() -> list[Any]:
    """(seats, options) of every variant and valid combination (team: 4 seats only)."""
    out = []
    for seats in (2, 3, 4):
        for mask in range(1 << len(OPTION_NAMES)):
            options = {name: bool(mask >> i & 1) for i, name in enumerate(OPTION_NAMES)}
            if options["team"] and seats != 4:
                continue
            on = "+".join(n for n in OPTION_NAMES if options[n]) or "base"
            out.append(pytest.param(seats, options, id=f"{seats}p-{on}"))
    return out


VARIANT_CASES = _variant_cases()


# ------------------------------------------------------- independent decoder
@cache  # called for every enum field of every converted view: ~0.5 M times a run
def _word(enum: Any, value: int, prefix: str) -> str | None:
    """``MYKERINOS_COLOUR_BLUE`` -> ``"blue"``; unspecified -> ``None``."""
    return None if value == 0 else enum.Name(value).removeprefix(prefix).lower()


def _colour(value: int) -> str | None:
    return _word(pb.MykerinosColour, value, "MYKERINOS_COLOUR_")


@cache
def _patron(value: int) -> str | None:
    name = _word(pb.MykerinosPatron, value, "MYKERINOS_PATRON_")
    return None if name is None else PATRON_CODES[PATRON_NAMES.index(name.title())]


def _side(value: int) -> str | None:
    return _word(pb.MykerinosSide, value, "MYKERINOS_SIDE_")


def _side_code(value: int) -> str:
    """Delimitation sides as the core's views write them: l, r, n1-n3."""
    name = _word(pb.MykerinosSide, value, "MYKERINOS_SIDE_")
    assert name is not None
    return name[0] if name in ("left", "right") else "n" + name.removeprefix("nile_row_")


def _effect(value: int) -> str | None:
    return _word(pb.MykerinosNileEffect, value, "MYKERINOS_NILE_EFFECT_")


TERRAIN_CELLS = {"river": "~", "land": ".", "pyramid": "P"}


def _cells(cells: Any) -> str:
    return "".join(
        TERRAIN_CELLS[_word(pb.MykerinosTerrain, c, "MYKERINOS_TERRAIN_") or "?"] for c in cells
    )


def _kind(value: pb.MykerinosActionKind.ValueType) -> str:
    return KIND_WORDS[pb.MykerinosActionKind.Name(value).removeprefix("MYKERINOS_ACTION_KIND_")]


def _space(space: pb.MykerinosSpace) -> str:
    return f"{'abcdefgh'[space.column]}{space.row + 1}"


def _room(room: pb.MykerinosRoom) -> str:
    if room.value == 2:
        return f"{_patron(room.patron)}/{_patron(room.second_patron)}"
    assert room.second_patron == pb.MYKERINOS_PATRON_UNSPECIFIED
    return f"{_patron(room.patron)}{room.value}"


def _counts(entries: Any) -> dict[str | None, int]:
    return {_colour(e.colour): e.count for e in entries}


def _region(region: pb.MykerinosRegion) -> dict[str, Any]:
    out = {
        "columns": region.columns,
        "rows": region.rows,
        "plots": [
            {
                "slot": p.slot,
                "area": p.area,
                "side": _side(p.side),
                "card": p.card,
                "patron": _patron(p.patron),
                "points": p.points,
                "rotated": p.rotated,
            }
            for p in region.plots
        ],
        "pyramids": [_space(s) for s in region.pyramids],
    }
    if region.HasField("nile"):
        out["river"] = [_space(s) for s in region.nile.river]
        out["nile"] = [
            {
                "row": c.row,
                "card": c.card,
                "effect": _effect(c.effect),
                "points": c.points,
                "rotated": c.rotated,
                "cells": _cells(c.cells),
            }
            for c in region.nile.cards
        ]
    return out


def _target(event: Any) -> str:
    """A token event's target oneof, as the core names it."""
    which = event.WhichOneof("target")
    return _space(event.space) if which == "space" else _room(event.room)


def _view(view: pb.MykerinosView) -> dict[str, Any]:
    """The core's view dict, rebuilt from the message (minus VIEW_KEYS_NOT_CARRIED)."""
    rooms = []
    for entry in view.museum.rooms:
        assert entry.name == _room(entry.room)
        patrons = [_patron(entry.room.patron)]
        if entry.room.value == 2:
            patrons.append(_patron(entry.room.second_patron))
        rooms.append(
            {
                "room": entry.name,
                "value": entry.room.value,
                "patrons": patrons,
                "occupant": _colour(entry.occupant),
            }
        )
    out: dict[str, Any] = {
        "phase": _word(pb.MykerinosPhase, view.phase, "MYKERINOS_PHASE_"),
        "campaign": view.campaign,
        "campaigns": view.campaigns,
        "current_seat": view.current_seat if view.HasField("current_seat") else None,
        "start_seat": view.start_seat,
        "final_action_seat": (
            view.final_action_seat if view.HasField("final_action_seat") else None
        ),
        "neutral_colour": _colour(view.neutral_colour),
        "region": _region(view.region),
        "occupied": {_space(o.space): _colour(o.colour) for o in view.occupied},
        "museum": {"wings": [_patron(w) for w in view.museum.wings], "rooms": rooms},
        "general_reserve": _counts(view.general_reserve),
        "tiebreak": {_colour(t.colour): t.space for t in view.tiebreak},
        "players": [
            {
                "seat": p.seat,
                "colour": _colour(p.colour),
                "prestige": p.prestige,
                "reserve": _counts(p.reserve),
                "patrons": {
                    _patron(c.patron): {"cards": c.cards, "used": c.used} for c in p.patrons
                },
                "active": p.active,
                "tiebreak_space": p.tiebreak_space or None,
                "plots_won": list(p.plots_won),
                "nile_cards": list(p.nile_cards),
                "tokens": p.tokens,
            }
            for p in view.players
        ],
        "deck_size": view.deck_size,
        "box": list(view.box),
        "patron_names": {_patron(n.patron): n.name for n in view.patron_names},
        "teams": [list(t.seats) for t in view.teams] or None,
    }
    if view.teams:
        out["individual_scores"] = list(view.individual_scores)
    if view.HasField("draft"):
        out["draft"] = {
            "plots": list(view.draft.plots),
            "patrons": [_patron(p) for p in view.draft.patrons],
            "order": list(view.draft.order),
            "index": view.draft.index,
        }
    if view.HasField("nile"):
        n = view.nile
        out["nile"] = {
            "governor_deck": n.governor_deck,
            "neutral_deck": n.neutral_deck,
            "box": list(n.box),
            "blocked": {_space(b.space): _colour(b.owner) for b in n.blocked},
            "blocked_rooms": {_room(b.room): _colour(b.owner) for b in n.blocked_rooms},
        }
        assert all(b.name == _room(b.room) for b in n.blocked_rooms)
    if view.HasField("delimitation"):
        d = view.delimitation
        out["delimitation"] = {
            "area": -1 if d.river else d.area,
            "river": d.river,
            "order": [_colour(c) for c in d.order],
            "rank_index": d.rank_index,
            "plots_left": [_side_code(s) for s in d.plots_left],
            "awaiting": _word(pb.MykerinosAwaiting, d.awaiting, "MYKERINOS_AWAITING_") or "",
            "museum_rewards": d.museum_rewards,
            "tie_asked": d.tie_asked,
        }
    if view.final_scores:
        assert [f.seat for f in view.final_scores] == list(range(len(view.players)))
        out["final"] = [
            {
                "patrons": {
                    _patron(p.patron): {
                        "cards": p.cards,
                        "room_value": p.room_value,
                        "points": p.points,
                    }
                    for p in f.patrons
                },
                "sets": f.sets,
                "set_points": f.set_points,
                "total": f.total,
                "plot_points": f.plot_points,
                "reserve": f.reserve,
                "governors": f.governors,
            }
            for f in view.final_scores
        ]
        out["ranking"] = list(view.places)
    return out


def _event(event: pb.MykerinosEvent) -> tuple[str, dict[str, Any]]:
    """(kind, data) rebuilt from the message (minus EVENT_KEYS_NOT_CARRIED)."""
    kind = event.WhichOneof("event")
    assert kind is not None
    if kind == "campaign_started":
        e = event.campaign_started
        return kind, {
            "campaign": e.campaign,
            "start_seat": e.start_seat,
            "region": _region(e.region),
        }
    if kind == "placed":
        p = event.placed
        return kind, {
            "seat": p.seat,
            "colour": _colour(p.colour),
            "action": _kind(p.kind),
            "spaces": [_space(s) for s in p.spaces],
        }
    if kind == "passed":
        s = event.passed
        return kind, {"seat": s.seat, "tiebreak_space": s.tiebreak_space, "automatic": s.automatic}
    if kind == "final_action":
        return kind, {"seat": event.final_action.seat}
    if kind == "museum_placed":
        m = event.museum_placed
        return kind, {
            "seat": m.seat,
            "room": _room(m.room),
            "via": "reward" if m.reward else "dir",
        }
    if kind == "area_ranked":
        a = event.area_ranked
        assert len(a.order) == len(a.counts)
        return kind, {
            "area": a.area,
            "order": [
                {"colour": _colour(c), "count": n} for c, n in zip(a.order, a.counts, strict=True)
            ],
        }
    if kind == "plot_taken":
        t = event.plot_taken
        return kind, {
            "seat": t.seat,
            "area": t.area,
            "side": _side(t.side),
            "card": t.card,
            "patron": _patron(t.patron),
            "points": t.points,
            "automatic": t.automatic,
        }
    if kind == "plot_discarded":
        d = event.plot_discarded
        return kind, {
            "area": d.area,
            "side": _side(d.side),
            "card": d.card,
            "chosen_by": d.chosen_by if d.HasField("chosen_by") else None,
        }
    if kind == "area_done":
        return kind, {"area": event.area_done.area}
    if kind == "campaign_ended":
        c = event.campaign_ended
        return kind, {"campaign": c.campaign, "next_start_seat": c.next_start_seat}
    if kind == "game_over":
        g = event.game_over
        return kind, {"scores": list(g.scores), "ranking": list(g.places)}
    return kind, _variant_event(event, kind)


def _variant_event(event: pb.MykerinosEvent, kind: str) -> dict[str, Any]:
    """The data of the variants' events, rebuilt from the message."""
    if kind == "draft_started":
        e = event.draft_started
        return {
            "plots": list(e.plots),
            "patrons": [_patron(p) for p in e.patrons],
            "order": list(e.order),
        }
    if kind == "drafted":
        return {
            "seat": event.drafted.seat,
            "card": event.drafted.card,
            "patron": _patron(event.drafted.patron),
        }
    if kind == "draft_discarded":
        return {"card": event.draft_discarded.card, "patron": _patron(event.draft_discarded.patron)}
    if kind == "blocked":
        return {"seat": event.blocked.seat, "target": _target(event.blocked)}
    if kind == "token_returned":
        return {"seat": event.token_returned.seat, "target": _target(event.token_returned)}
    if kind == "nothing_to_block":
        return {"seat": event.nothing_to_block.seat}
    if kind in ("tokens_retrieved", "river_done"):
        assert getattr(event, kind).ListFields() == []
        return {}
    if kind == "river_ranked":
        r = event.river_ranked
        return {
            "order": [
                {"colour": _colour(c), "count": n} for c, n in zip(r.order, r.counts, strict=True)
            ]
        }
    if kind == "nile_card_taken":
        t = event.nile_card_taken
        return {
            "seat": t.seat,
            "row": t.row,
            "card": t.card,
            "effect": _effect(t.effect),
            "points": t.points,
            "archaeologists": t.archaeologists,
            "automatic": t.automatic,
        }
    if kind == "nile_card_discarded":
        d = event.nile_card_discarded
        return {
            "row": d.row,
            "card": d.card,
            "chosen_by": d.chosen_by if d.HasField("chosen_by") else None,
        }
    if kind == "tie_card_used":
        u = event.tie_card_used
        return {"seat": u.seat, "order": [_colour(c) for c in u.order]}
    if kind == "plot_left":
        return {"seat": event.plot_left.seat, "area": event.plot_left.area}
    assert kind == "tie_card_kept"
    return {"seat": event.tie_card_kept.seat}


def _expected_event_data(event: Event) -> dict[str, Any]:
    data = {
        k: v for k, v in event.data.items() if k not in EVENT_KEYS_NOT_CARRIED.get(event.kind, ())
    }
    if event.kind in ("area_ranked", "river_ranked"):
        # Each entry's seat follows from its colour: seat = colour index, neutral: none.
        data["order"] = [{"colour": e["colour"], "count": e["count"]} for e in data["order"]]
    return data


# ------------------------------------------------------------------ playing
def _positions(
    seats: int, seed: int, options: dict[str, bool] | None = None
) -> Iterator[tuple[GameState, list[Event]]]:
    """Every position of a seeded random match, with the events that led to it."""
    state = GAME.new_match(seats, options=options, seed=seed)
    rng = random.Random(seed * 10 + seats)
    events: list[Event] = []
    while True:
        yield state, events
        if state.is_over():
            return
        seat = state.current_seat()
        assert seat is not None
        events = state.apply(seat, rng.choice(state.legal_actions()))


def _check_actions(state: GameState, kinds: Counter[str]) -> None:
    for action in state.legal_actions():
        notation = action.notation()
        message = CODEC.action_to_proto(action)
        assert message.WhichOneof("game") == "mykerinos"
        assert _kind(message.mykerinos.kind) == notation.split()[0]
        assert CODEC.action_from_proto(message) == notation
        wire = match_pb2.Action.FromString(message.SerializeToString())
        assert wire == message
        assert CODEC.action_from_proto(wire) == notation
        kinds[notation.split()[0]] += 1


def _check_view(state: GameState, seat: int | None) -> None:
    view = state.view(seat)
    message = CODEC.view_to_proto(view)
    assert message.WhichOneof("game") == "mykerinos"
    assert match_pb2.View.FromString(message.SerializeToString()) == message
    m = message.mykerinos
    # The main facts, spelled out...
    assert _word(pb.MykerinosPhase, m.phase, "MYKERINOS_PHASE_") == view["phase"]
    assert m.campaign == view["campaign"]
    assert len(m.occupied) == len(view["occupied"])
    assert len(m.museum.rooms) == 15
    assert len(m.museum.wings) == 5
    assert len(m.players) == state.seat_count
    assert m.HasField("current_seat") == (not state.is_over())
    if state.is_over():
        # Final totals are each seat's own; in the team game scores() are the teams'.
        own = view.get("individual_scores", view["scores"])
        assert [f.total for f in m.final_scores] == own
        assert list(m.places) == state.ranking()
    else:
        assert not m.final_scores and not m.places
    # ...then every field, against the core's dict.
    assert _view(m) == {k: v for k, v in view.items() if k not in VIEW_KEYS_NOT_CARRIED}


def _check_event(event: Event, kinds: Counter[str]) -> None:
    message = CODEC.event_to_proto(event)
    assert message.WhichOneof("game") == "mykerinos"
    assert match_pb2.GameEvent.FromString(message.SerializeToString()) == message
    assert _event(message.mykerinos) == (event.kind, _expected_event_data(event))
    kinds[event.kind] += 1


def _play_and_check(
    seats: int, options: dict[str, bool], seeds: range
) -> tuple[Counter[str], Counter[str]]:
    """Convert every legal action, view and event of seeded random matches; count kinds."""
    action_kinds: Counter[str] = Counter()
    event_kinds: Counter[str] = Counter()
    for seed in seeds:
        for state, events in _positions(seats, seed, options):
            _check_actions(state, action_kinds)
            for seat in [None, *range(seats)]:
                _check_view(state, seat)
            for event in events:
                _check_event(event, event_kinds)
    return action_kinds, event_kinds


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.slow
def test_random_matches_convert_completely(seats: int) -> None:
    """Every legal action, view and event of seeded random matches converts faithfully."""
    action_kinds, event_kinds = _play_and_check(seats, {}, range(SEEDS_PER_SEAT_COUNT))
    expected_kinds = set(KIND_WORDS.values()).difference(*VARIANT_KINDS.values())
    if seats > 2:
        expected_kinds -= NEUTRAL_KINDS
    assert set(action_kinds) == expected_kinds
    assert set(event_kinds) == EVENT_KINDS


@pytest.mark.parametrize(("seats", "options"), VARIANT_CASES)
@pytest.mark.slow
def test_variant_matches_convert_completely(seats: int, options: dict[str, bool]) -> None:
    """The same for every variant and valid combination: only its own kinds appear,
    and its characteristic actions and events do (checked through the codec)."""
    action_kinds, event_kinds = _play_and_check(seats, options, range(VARIANT_SEEDS))
    allowed = set(KIND_WORDS.values()).difference(
        *(kinds for name, kinds in VARIANT_KINDS.items() if not options[name])
    )
    if seats > 2:
        allowed -= NEUTRAL_KINDS
    assert set(action_kinds) <= allowed
    allowed_events = EVENT_KINDS.union(
        *(kinds for name, kinds in VARIANT_EVENTS.items() if options[name])
    )
    assert set(event_kinds) <= allowed_events
    if options["team"]:
        assert {"ta", "tb"} <= set(action_kinds)
    if options["quick"]:
        assert "draft" in action_kinds
        assert event_kinds["drafted"] == 2 * seats * VARIANT_SEEDS
        # draft_started comes with the match's setup, which no apply() reports:
        # convert the one the core would emit, built from the opening view.
        draft = GAME.new_match(seats, options=options, seed=0).view(None)["draft"]
        started = {k: draft[k] for k in ("plots", "patrons", "order")}
        _check_event(Event("draft_started", started), event_kinds)
        # Four players draft all eight revealed plots: none is left to discard.
        leftover = set() if 2 * seats < 8 else {"draft_discarded"}
        assert VARIANT_EVENTS["quick"] - leftover <= set(event_kinds)
    if options["nile"]:
        assert {"river_ranked", "nile_card_taken", "river_done"} <= set(event_kinds)


@pytest.mark.slow
def test_every_nile_action_and_event_converts() -> None:
    """Rare Nile moments (Governor, blocking, the tie card) occur somewhere in these
    random matches, and all of them go through the codec faithfully."""
    action_kinds: Counter[str] = Counter()
    event_kinds: Counter[str] = Counter()
    for seats in (2, 3, 4):
        acts, events = _play_and_check(seats, {"nile": True}, range(NILE_SEEDS))
        action_kinds += acts
        event_kinds += events
    # A Governor action that leaves no empty space or room at all is too rare for
    # random play: convert the event the core emits then, as it would build it.
    _check_event(Event("nothing_to_block", {"seat": 1}), event_kinds)
    assert VARIANT_KINDS["nile"] <= set(action_kinds)
    assert VARIANT_EVENTS["nile"] <= set(event_kinds)


def test_enums_and_event_messages_match_the_core() -> None:
    """A kind or event added on one side only fails here, not in production."""
    proto_kinds = {
        value.name.removeprefix("MYKERINOS_ACTION_KIND_")
        for value in pb.MykerinosActionKind.DESCRIPTOR.values
        if value.number != 0
    }
    assert proto_kinds == set(KIND_WORDS)
    core_kinds = {
        *act.PLACEMENT_SIZES,
        *act.ROOM_KINDS,
        *act.SIDE_KINDS,
        *act.BARE_KINDS,
        act.DRAFT,
        act.BLOCK,
    }
    assert set(KIND_WORDS.values()) == core_kinds
    event_fields = {f.name for f in pb.MykerinosEvent.DESCRIPTOR.oneofs_by_name["event"].fields}
    assert event_fields == ALL_EVENT_KINDS == set(EVENT_CONVERTERS)


def test_legal_action_listing() -> None:
    state = GAME.new_match(3, seed=5)
    action = state.legal_actions()[0]
    listed = CODEC.legal_action_to_proto(state, action)
    assert listed.notation == action.notation()
    assert listed.label == state.describe(action)
    assert CODEC.action_from_proto(listed.action) == action.notation()


# ------------------------------------------------------------ client input
def _action(**fields: Any) -> match_pb2.Action:
    return match_pb2.Action(mykerinos=pb.MykerinosAction(**fields))


def _sp(name: str) -> pb.MykerinosSpace:
    return pb.MykerinosSpace(column="abcdefgh".index(name[0]), row=int(name[1:]) - 1)


K = pb.MykerinosActionKind
P = pb.MykerinosPatron
LEFT, RIGHT = pb.MYKERINOS_SIDE_LEFT, pb.MYKERINOS_SIDE_RIGHT
NILE_1 = pb.MYKERINOS_SIDE_NILE_ROW_1
#: Core side argument of each side value (0 left, 1 right, 2-4 Nile rows 1-3).
SIDE_ARGS: dict[pb.MykerinosSide.ValueType, int] = {
    LEFT: 0,
    RIGHT: 1,
    NILE_1: 2,
    pb.MYKERINOS_SIDE_NILE_ROW_2: 3,
    pb.MYKERINOS_SIDE_NILE_ROW_3: 4,
}


def _room_msg(value: int, patron: int, second: int = 0) -> pb.MykerinosRoom:
    return pb.MykerinosRoom(value=value, patron=patron, second_patron=second)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("action", "notation"),
    [
        (_action(kind=K.MYKERINOS_ACTION_KIND_PASS), "pass"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_START, spaces=[_sp("h9")]), "a h9"),
        # Spaces come in any order; notation is canonical (sorted).
        (_action(kind=K.MYKERINOS_ACTION_KIND_EXPAND, spaces=[_sp("d3"), _sp("c3")]), "b c3 d3"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_COLONEL, spaces=[_sp("e3"), _sp("c3"), _sp("d3")]),
            "col c3 d3 e3",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_EXPLORER, spaces=[_sp("c2")]), "exp c2"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_HEIRESS, spaces=[_sp("c2"), _sp("c1")]), "hei c1 c2"),
        (
            _action(
                kind=K.MYKERINOS_ACTION_KIND_DIRECTOR,
                room=_room_msg(5, P.MYKERINOS_PATRON_EXPLORER),
            ),
            "dir exp5",
        ),
        # A 2-room's patrons may come in either order.
        (
            _action(
                kind=K.MYKERINOS_ACTION_KIND_MUSEUM,
                room=_room_msg(2, P.MYKERINOS_PATRON_COLONEL, P.MYKERINOS_PATRON_CURATOR),
            ),
            "mus cur/col",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_TAKE_PLOT, side=LEFT), "take l"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_DISCARD_PLOT, side=RIGHT), "discard r"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_NEUTRAL_SKIP), "nskip"),
        # The variants' actions.
        (_action(kind=K.MYKERINOS_ACTION_KIND_TEAM_START, spaces=[_sp("c2")]), "ta c2"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_TEAM_EXPAND, spaces=[_sp("d3"), _sp("c3")]),
            "tb c3 d3",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_DRAFT, patron=P.MYKERINOS_PATRON_HEIRESS),
            "draft hei",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_GOVERNOR, spaces=[_sp("f5")]), "gov f5"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_GOVERNOR, spaces=[_sp("f5"), _sp("e5")]),
            "gov e5 f5",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_BLOCK, spaces=[_sp("h9")]), "block h9"),
        (
            _action(
                kind=K.MYKERINOS_ACTION_KIND_BLOCK, room=_room_msg(3, P.MYKERINOS_PATRON_DIRECTOR)
            ),
            "block dir3",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_TAKE_PLOT, side=NILE_1), "take n1"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_DISCARD_PLOT, side=pb.MYKERINOS_SIDE_NILE_ROW_3),
            "discard n3",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_USE_TIE), "usetie"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_KEEP_TIE), "keeptie"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_LEAVE_PLOT), "leave"),
    ],
)
def test_typed_actions_decode_to_canonical_notation(action: match_pb2.Action, notation: str):
    assert CODEC.action_from_proto(action) == notation
    assert GAME.parse_action(notation).notation() == notation


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (match_pb2.Action(), "Action.game is empty"),
        (_action(), "kind is unspecified"),
        (_action(kind=99), "not an action kind"),
        (_action(kind=-3), "not an action kind"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_START), "START takes 1 space(s), got 0"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_EXPLORER, spaces=[_sp("a1")] * 3),
            "EXPLORER takes 1 or 2",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_PASS, spaces=[_sp("a1")]), "PASS takes 0"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_START, spaces=[pb.MykerinosSpace(column=8)]),
            "off the region",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_START, spaces=[pb.MykerinosSpace(row=9)]),
            "off the region",
        ),
        (
            _action(
                kind=K.MYKERINOS_ACTION_KIND_START,
                spaces=[pb.MykerinosSpace(column=2**32 - 1, row=2**32 - 1)],
            ),
            "off the region",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_EXPAND, spaces=[_sp("c3"), _sp("c3")]),
            "same space twice",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_DIRECTOR), "needs a museum room"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_DIRECTOR, room=pb.MykerinosRoom()),
            "room.value must be 2, 3 or 5, got 0",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_MUSEUM, room=_room_msg(4, 1)),
            "room.value must be 2, 3 or 5, got 4",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_MUSEUM, room=_room_msg(3, 0)),
            "room.patron is unspecified",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_MUSEUM, room=_room_msg(5, 6)),
            "room.patron is GOVERNOR, which has no museum wing",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_MUSEUM, room=_room_msg(5, 7)),
            "room.patron is 7",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_MUSEUM, room=_room_msg(3, 1, 2)),
            "leave room.second_patron unspecified",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_MUSEUM, room=_room_msg(2, 1)),
            "room.second_patron is unspecified",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_MUSEUM, room=_room_msg(2, 3, 3)),
            "two different patrons",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_START, spaces=[_sp("a1")], room=_room_msg(3, 1)),
            "takes no museum room",
        ),
        # Even an empty room is a room the kind does not take.
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_PASS, room=pb.MykerinosRoom()),
            "takes no museum room",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_TAKE_PLOT), "needs side LEFT or RIGHT"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_DISCARD_PLOT, side=7), "needs side"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_PASS, side=LEFT), "takes no plot side"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_USE_TIE, side=NILE_1), "takes no plot side"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_DRAFT), "patron is unspecified"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_DRAFT, patron=P.MYKERINOS_PATRON_GOVERNOR),
            "never drafted",
        ),
        (
            _action(
                kind=K.MYKERINOS_ACTION_KIND_DRAFT,
                patron=P.MYKERINOS_PATRON_CURATOR,
                spaces=[_sp("a1")],
            ),
            "DRAFT takes 0 space(s)",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_START, spaces=[_sp("a1")], patron=1),
            "takes no patron",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_BLOCK), "exactly one target"),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_BLOCK, spaces=[_sp("a1"), _sp("a2")]),
            "exactly one target",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_BLOCK, spaces=[_sp("a1")], room=_room_msg(3, 1)),
            "exactly one target",
        ),
        (
            _action(kind=K.MYKERINOS_ACTION_KIND_BLOCK, spaces=[pb.MykerinosSpace(row=9)]),
            "off the region",
        ),
        (_action(kind=K.MYKERINOS_ACTION_KIND_GOVERNOR), "GOVERNOR takes 1 or 2"),
        (_action(kind=K.MYKERINOS_ACTION_KIND_TEAM_EXPAND, spaces=[_sp("a1")]), "takes 2"),
    ],
)
def test_malformed_typed_actions_are_refused(action: match_pb2.Action, message: str):
    with pytest.raises(MalformedActionError) as caught:
        CODEC.action_from_proto(action)
    assert message in str(caught.value)


ENUM_INTS = st.one_of(st.integers(0, 16), st.integers(-(2**31), 2**31 - 1))
UINT32 = st.one_of(st.integers(0, 10), st.integers(0, 2**32 - 1))
SPACES = st.builds(pb.MykerinosSpace, column=UINT32, row=UINT32)
ROOMS = st.builds(
    pb.MykerinosRoom,
    patron=ENUM_INTS,
    second_patron=ENUM_INTS,
    value=st.one_of(st.sampled_from([0, 2, 3, 5]), UINT32),
)
TYPED_ACTIONS = st.builds(
    pb.MykerinosAction,
    kind=ENUM_INTS,
    spaces=st.lists(SPACES, max_size=5),
    room=st.none() | ROOMS,
    side=st.one_of(st.integers(0, 6), ENUM_INTS),
    patron=st.one_of(st.integers(0, 7), ENUM_INTS),
)
#: Highest action kind number.
LAST_KIND = max(v.number for v in pb.MykerinosActionKind.DESCRIPTOR.values)


@st.composite
def near_actions(draw: st.DrawFn) -> pb.MykerinosAction:
    """Actions shaped right for their kind most of the time, each part sometimes wrong.

    Uniform random fields almost never make a valid action, so without this the
    accepting path of the decoder would hardly be fuzzed.
    """
    kind = draw(st.integers(1, LAST_KIND))
    word = _kind(kind)  # type: ignore[arg-type]
    wrong = st.integers(0, 9).map(lambda n: n == 0)  # each part is wrong 10% of the time
    block_room = word == act.BLOCK and draw(st.booleans())
    sizes = act.PLACEMENT_SIZES.get(word, (0,) if word != act.BLOCK or block_room else (1,))
    count = draw(st.integers(0, 4) if draw(wrong) else st.sampled_from(sizes))
    columns, rows = (9, 10) if draw(wrong) else (8, 9)
    space = st.builds(
        pb.MykerinosSpace, column=st.integers(0, columns - 1), row=st.integers(0, rows - 1)
    )
    spaces = draw(st.lists(space, min_size=count, max_size=count))
    message = pb.MykerinosAction(kind=kind, spaces=spaces)  # type: ignore[arg-type]
    if (word in act.ROOM_KINDS or block_room) != draw(wrong):
        value = draw(st.sampled_from([2, 3, 5]))
        patrons = draw(st.lists(st.integers(1, 5), min_size=2, max_size=2, unique=not draw(wrong)))
        message.room.CopyFrom(
            _room_msg(value, patrons[0], patrons[1] if (value == 2) != draw(wrong) else 0)
        )
    if (word in act.SIDE_KINDS) != draw(wrong):
        message.side = draw(st.sampled_from(sorted(SIDE_ARGS)))
    if (word == act.DRAFT) != draw(wrong):
        message.patron = draw(st.integers(1, 6))  # type: ignore[assignment]
    return message


NEAR_ACTIONS = near_actions()
FUZZ = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _check_decodes_or_is_malformed(action: match_pb2.Action) -> bool:
    """The property: notation the core accepts and means the same, or MalformedActionError."""
    try:
        notation = CODEC.action_from_proto(action)
    except MalformedActionError:
        return False
    parsed = act.parse_action(notation)
    assert GAME.parse_action(notation) == parsed
    assert parsed.notation() == notation
    sent = action.mykerinos
    assert _kind(sent.kind) == notation.split()[0]
    if sent.spaces:
        assert sorted(_space(s) for s in sent.spaces) == sorted(notation.split()[1:])
    if sent.HasField("room"):
        room = parsed.arg - act.ROOM_TARGET if parsed.kind == act.BLOCK else parsed.arg
        patrons = {_patron(sent.room.patron), _patron(sent.room.second_patron)} - {None}
        assert {PATRON_CODES[p] for p in room_patrons(room)} == patrons
        assert room_value(room) == sent.room.value
    if sent.side:
        assert parsed.arg == SIDE_ARGS[sent.side]
    if sent.patron:
        assert PATRON_CODES[parsed.arg] == _patron(sent.patron)
    # And the value goes back to the same notation.
    assert CODEC.action_from_proto(CODEC.action_to_proto(parsed)) == notation
    return True


@pytest.mark.slow
@FUZZ
@given(TYPED_ACTIONS)
def test_arbitrary_typed_actions_decode_or_are_malformed(action: pb.MykerinosAction):
    _check_decodes_or_is_malformed(match_pb2.Action(mykerinos=action))


@pytest.mark.slow
@FUZZ
@given(NEAR_ACTIONS)
def test_near_valid_typed_actions_decode_or_are_malformed(action: pb.MykerinosAction):
    _check_decodes_or_is_malformed(match_pb2.Action(mykerinos=action))


def test_near_valid_actions_are_often_accepted() -> None:
    """Guards the fuzzers above against only ever testing the refusal path."""
    accepted = 0
    examples = []

    @settings(FUZZ, max_examples=300)
    @given(NEAR_ACTIONS)
    def collect(action: pb.MykerinosAction) -> None:
        examples.append(action)

    collect()
    for action in examples:
        accepted += _check_decodes_or_is_malformed(match_pb2.Action(mykerinos=action))
    assert accepted >= len(examples) // 3


@FUZZ
@given(st.binary(max_size=80))
def test_arbitrary_wire_bytes_decode_or_are_malformed(data: bytes):
    try:
        action = match_pb2.Action.FromString(data)
    except DecodeError:
        return  # gRPC refuses these before the service sees them
    _check_decodes_or_is_malformed(action)


# ------------------------------------------------------------ views, decoded
@pytest.mark.parametrize(
    ("seats", "options", "seeds"),
    [
        *(pytest.param(n, {}, range(2), id=f"{n}p-base-2seeds") for n in (2, 3, 4)),
        *(pytest.param(*case.values, range(1), id=case.id) for case in VARIANT_CASES),
    ],
)
@pytest.mark.slow
def test_views_decode_back_to_the_core_dicts(
    seats: int, options: dict[str, bool], seeds: range
) -> None:
    """Bots rebuild their forward model from proto views: the decoder must be exact.

    Every view of seeded random matches (each seat and the spectator) goes to the
    wire and back through ``view_from_proto`` and must equal the core's dict, and the
    state rebuilt from the decoded dict must show that same view and offer the same
    legal actions.
    """
    for seed in seeds:
        for state, _ in _positions(seats, 100 + seed, options):
            for seat in [None, *range(seats)]:
                view = state.view(seat)
                wire = match_pb2.View.FromString(CODEC.view_to_proto(view).SerializeToString())
                decoded = CODEC.view_from_proto(wire, viewer=seat, options=view["options"])
                assert decoded == view
                if seat is None and not options:
                    # Spectators of a match without options need nothing but the message.
                    assert CODEC.view_from_proto(wire) == view
                elif seat == state.current_seat():
                    rebuilt = GAME.state_from_view(decoded, seed)
                    assert rebuilt.view(seat) == view
                    assert rebuilt.legal_actions() == state.legal_actions()


def test_views_that_do_not_decode_are_value_errors() -> None:
    view = CODEC.view_to_proto(GAME.new_match(3, seed=2).view(0))
    with pytest.raises(ValueError, match="not a Mykerinos view"):
        CODEC.view_from_proto(match_pb2.View())
    for corrupt in (
        lambda m: setattr(m.mykerinos, "phase", 42),
        lambda m: setattr(m.mykerinos.players[0], "colour", 9),
        lambda m: setattr(m.mykerinos.players[1], "seat", 0),
        lambda m: setattr(m.mykerinos.occupied.add().space, "row", 12),
        lambda m: setattr(m.mykerinos.museum.rooms[0].room, "value", 4),
        lambda m: setattr(m.mykerinos.museum.rooms[0], "name", "nowhere"),
        lambda m: setattr(m.mykerinos.region.plots[0], "side", 0),
        lambda m: m.mykerinos.general_reserve.add(count=3),
    ):
        message = match_pb2.View()
        message.CopyFrom(view)
        corrupt(message)
        with pytest.raises(ValueError):
            CODEC.view_from_proto(message, viewer=0)


# -------------------------------------------------------- server-side misuse
def test_server_bugs_fail_loudly() -> None:
    with pytest.raises(ValueError, match="event kind 'nonsense'"):
        CODEC.event_to_proto(Event("nonsense", {}))
    with pytest.raises(TypeError):
        CODEC.action_to_proto("pass")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a Mykerinos view"):
        CODEC.view_to_proto({"game": "chess"})


# ---------------------------------------------------------------- registry
def test_registry_serves_every_game() -> None:
    oneof = match_pb2.Action.DESCRIPTOR.oneofs_by_name["game"]
    fields = {f.name for f in oneof.fields}
    for game in all_games():
        codec = codec_for(game.info.id)
        assert isinstance(codec, GameCodec)
        assert codec.game_id == game.info.id
        assert codec.oneof_field in fields
    assert [c.game_id for c in all_codecs()] == [g.info.id for g in all_games()]


def test_another_games_message_is_malformed() -> None:
    """Only Mykerinos exists in the oneofs today; the shared check covers the others."""
    with pytest.raises(MalformedActionError, match="set to archeos but this is a mykerinos match"):
        require_game_message("archeos", "mykerinos", "Action")
    with pytest.raises(MalformedActionError, match=r"Action\.game is empty"):
        require_game_message(None, "mykerinos", "Action")
    require_game_message("mykerinos", "mykerinos", "Action")


def test_unknown_game_has_no_codec() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'nope'"):
        codec_for("nope")


# ----------------------------------------------------------------- options
OPTION_VALUES = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1), st.text(max_size=12))


@FUZZ
@given(st.dictionaries(st.text(max_size=10), OPTION_VALUES, max_size=6))
@pytest.mark.slow
def test_options_round_trip(options: dict[str, bool | int | str]):
    request = match_service_pb2.CreateMatchRequest()
    options_to_proto(options, request.options)
    wire = match_service_pb2.CreateMatchRequest.FromString(request.SerializeToString())
    decoded = options_from_proto(wire.options)
    assert decoded == options
    assert {k: type(v) for k, v in decoded.items()} == {k: type(v) for k, v in options.items()}


def test_unset_option_value_is_invalid_options() -> None:
    request = match_service_pb2.CreateMatchRequest()
    request.options["quick"].CopyFrom(games_pb2.OptionValue())
    with pytest.raises(InvalidOptionsError, match="option 'quick' has no value"):
        options_from_proto(request.options)


def test_option_values_follow_the_spec_kind() -> None:
    assert option_value_to_proto(3, "int").WhichOneof("value") == "int_value"
    assert option_value_to_proto(True).WhichOneof("value") == "bool_value"
    assert option_value_to_proto("x", "choice").choice_value == "x"
    assert option_value_from_proto("n", games_pb2.OptionValue(int_value=0)) == 0
    mismatches: list[tuple[bool | int | str, str]] = [
        (1, "bool"),
        (True, "int"),
        (2, "choice"),
        ("x", "int"),
    ]
    for value, kind in mismatches:
        with pytest.raises(ValueError):
            option_value_to_proto(value, kind)


def test_decoded_options_feed_the_core() -> None:
    request = match_service_pb2.CreateMatchRequest()
    options_to_proto({}, request.options)
    defaults = {spec.name: spec.default for spec in GAME.info.options}
    assert GAME.normalize_options(2, options_from_proto(request.options)) == defaults
    options_to_proto({"nile": True, "quick": True}, request.options)
    decoded = GAME.normalize_options(2, options_from_proto(request.options))
    assert decoded == {**defaults, "nile": True, "quick": True}
    request.options["no_such_option"].bool_value = True
    with pytest.raises(InvalidOptionsError):
        GAME.normalize_options(2, options_from_proto(request.options))


def _check_game_info(info: GameInfo, message: games_pb2.GameInfo) -> None:
    assert games_pb2.GameInfo.FromString(message.SerializeToString()) == message
    assert (message.id, message.name, message.description) == (info.id, info.name, info.description)
    assert (message.min_seats, message.max_seats) == (info.min_seats, info.max_seats)
    assert [o.name for o in message.options] == [s.name for s in info.options]
    for spec, option in zip(info.options, message.options, strict=True):
        assert games_pb2.OptionKind.Name(option.kind) == f"OPTION_KIND_{spec.kind.upper()}"
        assert option_value_from_proto(spec.name, option.default_value) == spec.default
        assert option.description == spec.description
        assert tuple(option.choices) == spec.choices
        assert (option.minimum if option.HasField("minimum") else None) == spec.minimum
        assert (option.maximum if option.HasField("maximum") else None) == spec.maximum


def test_game_info_of_every_registered_game() -> None:
    for game in all_games():
        _check_game_info(game.info, game_info_to_proto(game))


def test_game_info_with_every_option_kind() -> None:
    info = GameInfo(
        id="demo",
        name="Demo",
        min_seats=1,
        max_seats=6,
        description="A game with one option of each kind.",
        options=(
            OptionSpec("quick", "bool", False, "Shorter game."),
            OptionSpec("rounds", "int", 4, "Rounds to play.", minimum=0, maximum=9),
            OptionSpec("open", "int", -2, "Unbounded number."),
            OptionSpec("map", "choice", "nile", "Board.", choices=("nile", "delta")),
        ),
    )
    message = game_info_to_proto(info)
    _check_game_info(info, message)
    assert message.options[1].HasField("minimum") and message.options[1].minimum == 0
    assert not message.options[2].HasField("maximum")
