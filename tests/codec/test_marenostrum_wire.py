"""The Mare Nostrum codec: everything a match sends converts, and nothing hidden leaks.

* Seeded random matches at 3 to 6 players, with the printed and the free set-up:
  every legal action of every seat deciding goes to its typed form and back to the
  same notation; every event encodes and decodes back to the core's data; every
  seat's view and the spectator's encode and decode back to the core's dict, and a
  state rebuilt from the decoded view offers the same legal actions.
* Hidden information: a view's bytes do not change when the hands and pending offers
  the viewer cannot see are dealt afresh; a pending offer's cards, and the card the
  Director gives, change nothing another seat receives; no set-aside hero or wonder
  is ever named; the events that name a hand's cards are private to that hand.
* Every action kind and event kind has a hand-written sample (random play seldom
  reaches the blockade or Midas), so the tables cannot fall behind the core; so do
  the steps and fields of the card powers (Ulysses's barter, a declared crossing,
  the Sphinx's and the Hydra's marks).
* Client input: malformed typed actions, arbitrary typed actions and arbitrary wire
  bytes decode to notation the core accepts or are ``MalformedActionError``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import DecodeError, Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.codec import codec_for
from senet.codec import marenostrum as mn
from senet.games import Event, MalformedActionError, get_game
from senet.games.marenostrum import MareAction, MareState
from senet.games.marenostrum import actions as act
from senet.games.marenostrum.actions import ALL_KINDS, parse_action
from senet.games.marenostrum.board import space_index
from senet.games.marenostrum.cards import OWNABLE_IDS
from senet.games.marenostrum.civilizations import CIVS, EGYPT, GREECE, ROME
from senet.games.marenostrum.constants import (
    BARTER,
    BLOCKADE,
    COMMERCE_ROLE,
    COMPENSATE,
    DECLARE,
    GROUND,
    MILITARY,
    OFFER,
)
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2, mykerinos_pb2

GAME = get_game("marenostrum")
CODEC = codec_for("marenostrum")
#: Turns per random match: enough for every phase, trades and battles to come up.
TURNS = 3
SEEDS = 2
SET_UPS = [pytest.param(False, id="printed"), pytest.param(True, id="free")]
#: Events whose data names cards of a hand: each must reach that hand's seat only.
PRIVATE_KINDS = {"revenue_cards", "card_offered_private", "card_drawn_private"}


def _wire(message: Message) -> bytes:
    return bytes(message.SerializeToString(deterministic=True))


def _strings(value: Any) -> Iterator[str]:
    """Every string in a message's JSON form (field values, not field names)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _set_aside(state: MareState) -> set[str]:
    return {OWNABLE_IDS[card] for card in state.set_aside}


def _shows_none_of(hidden: set[str], message: Message, wire: bytes) -> bool:
    """No string in ``message``'s JSON form is one of ``hidden``.

    A string field travels as its UTF-8 bytes, so a name absent from ``wire`` (the
    message's encoding) is in no field: only when one occurs there, perhaps inside a
    longer string, is the message walked (MessageToDict was a third of the test's time).
    """
    if not any(name.encode() in wire for name in hidden):
        return True
    return hidden.isdisjoint(_strings(MessageToDict(message)))


def _play(seats: int, free_setup: bool, seed: int) -> Iterator[tuple[MareState, int, MareAction]]:
    """The positions of a seeded random match, each with the seat and action played."""
    state = GAME.new_match(
        seats, options={"free_setup": free_setup, "turn_limit": TURNS}, seed=seed
    )
    assert isinstance(state, MareState)
    rng = random.Random(seed)
    while not state.is_over():
        seat = rng.choice(state.deciding_seats())
        action = rng.choice(state.legal_actions_for(seat))
        assert isinstance(action, MareAction)
        yield state, seat, action
        state.apply(seat, action)
    yield state, -1, MareAction(act.DONE)


def _check_view(state: MareState, viewer: int | None, rebuild: bool) -> None:
    view = state.view(viewer)
    wire = _wire(CODEC.view_to_proto(view))
    message = match_pb2.View.FromString(wire)
    assert message.WhichOneof("game") == "marenostrum"
    decoded = CODEC.view_from_proto(message, viewer=viewer, options=state.options)
    assert decoded == view
    assert _shows_none_of(_set_aside(state), message, wire)
    players = message.marenostrum.players
    for player in players:
        own = player.seat == viewer
        assert player.HasField("hand") == own and player.HasField("offer") == own
    if rebuild and not state.is_over():
        rebuilt = GAME.state_from_view(decoded, seed=7)
        assert rebuilt.view(viewer) == view
        if viewer is not None and viewer in state.deciding_seats():
            assert rebuilt.legal_actions_for(viewer) == state.legal_actions_for(viewer)


@pytest.mark.parametrize("free_setup", SET_UPS)
@pytest.mark.parametrize("seats", range(3, 7))
@pytest.mark.slow
def test_random_matches_convert_both_ways(seats: int, free_setup: bool) -> None:
    for seed in range(SEEDS):
        for step, (state, seat, action) in enumerate(_play(seats, free_setup, 100 * seats + seed)):
            # Views every other position (rebuilt every tenth); actions and events at all.
            if step % 2 == 0 or seat < 0:
                for viewer in [None, *range(seats)]:
                    _check_view(state, viewer, rebuild=step % 10 == 0)
            if seat < 0:
                break
            for decider in state.deciding_seats():
                for legal in state.legal_actions_for(decider):
                    assert isinstance(legal, MareAction)
                    typed = match_pb2.Action.FromString(_wire(CODEC.action_to_proto(legal)))
                    assert CODEC.action_from_proto(typed) == legal.notation()
                    listed = CODEC.legal_action_to_proto(state, legal)
                    assert listed.notation == legal.notation() and listed.label
            for event in state.clone().apply(seat, action):
                _check_event(state, event)


def _check_event(state: MareState, event: Event) -> None:
    wire = _wire(CODEC.event_to_proto(event))
    message = match_pb2.GameEvent.FromString(wire)
    assert message.WhichOneof("game") == "marenostrum"
    back = mn.event_from_proto(message.marenostrum)
    assert (back.kind, dict(back.data)) == (event.kind, dict(event.data))
    assert _shows_none_of(_set_aside(state), message, wire)
    if event.kind in PRIVATE_KINDS:
        assert event.audience == frozenset({event.data["seat"]})


def _positions_of_card_powers() -> Iterator[MareState]:
    """Steps and fields random play seldom reaches: Ulysses's barter, a crossing
    being declared and then waiting on Greece, the Sphinx's and the Hydra's marks."""
    barter = GAME.new_match(6, seed=1)
    assert isinstance(barter, MareState)
    seat = barter.seat_of[EGYPT]
    barter.owned[seat] = sorted([*barter.owned[seat], OWNABLE_IDS.index("ulysses")])
    barter.apply(barter.roles[COMMERCE_ROLE], "size 0")
    assert barter.step == BARTER
    yield barter
    crossing = GAME.new_match(6, seed=1)
    assert isinstance(crossing, MareState)
    rome = crossing.seat_of[ROME]
    crossing.triremes[GREECE][space_index("aeg")] = 0
    crossing.triremes[GREECE][space_index("ion")] = 1
    crossing.triremes[ROME][space_index("ion")] = 1
    crossing.legions[ROME][space_index("magn")] = 3
    crossing.phase, crossing.step = MILITARY, GROUND
    crossing.queue, crossing.actor = [rome], rome
    crossing.apply(rome, "move l magn pelo")
    assert crossing.step == DECLARE
    yield crossing
    crossing.cursed = [space_index("theb"), space_index("aegy")]
    crossing.regrown = [CIVS - 1, 0]
    yield crossing
    crossing.apply(rome, "move l magn pelo")
    crossing.apply(rome, "done")
    assert crossing.step == BLOCKADE
    yield crossing


def test_card_power_steps_and_fields_convert_both_ways() -> None:
    for state in _positions_of_card_powers():
        for viewer in [None, *range(state.seat_count)]:
            _check_view(state, viewer, rebuild=True)
        for decider in state.deciding_seats():
            for legal in state.legal_actions_for(decider):
                assert isinstance(legal, MareAction)
                typed = match_pb2.Action.FromString(_wire(CODEC.action_to_proto(legal)))
                assert CODEC.action_from_proto(typed) == legal.notation()


def test_step_numbers_stay_as_published() -> None:
    """Steps travel by name: one the core inserts before ``over`` takes a new number."""
    assert CODEC.view_to_proto(GAME.new_match(3, seed=1).view(None)).marenostrum.step == (
        pb.MARE_NOSTRUM_STEP_TRADE_SIZE
    )
    state = next(_positions_of_card_powers())
    step = CODEC.view_to_proto(state.view(None)).marenostrum.step
    assert (step, pb.MARE_NOSTRUM_STEP_OVER) == (pb.MARE_NOSTRUM_STEP_BARTER, 17)


# ------------------------------------------------------------ hidden information
@pytest.mark.parametrize("seats", [3, 6])
@pytest.mark.slow
def test_views_do_not_depend_on_what_the_viewer_cannot_see(seats: int) -> None:
    """Other hands and pending offers dealt afresh leave a seat's view bytes as they are."""
    for step, (state, _, _) in enumerate(_play(seats, False, 40 + seats)):
        if step % 3 and state.step != OFFER:
            continue
        for viewer in [None, *range(seats)]:
            sent = _wire(CODEC.view_to_proto(state.view(viewer)))
            for seed in range(2):
                twin = state.determinize(viewer, seed)
                assert _wire(CODEC.view_to_proto(twin.view(viewer))) == sent


def _outgoing(state: MareState, seat: int, notation: str) -> tuple[str, dict[int | None, bytes]]:
    """The step after ``seat`` plays ``notation``, and what every other receiver gets
    then: its events and its view, as bytes."""
    twin = state.clone()
    events = twin.apply(seat, notation)
    out: dict[int | None, bytes] = {}
    for viewer in [None, *range(state.seat_count)]:
        if viewer == seat:
            continue
        parts = [_wire(CODEC.event_to_proto(e)) for e in events if e.visible_to(viewer)]
        parts.append(_wire(CODEC.view_to_proto(twin.view(viewer))))
        out[viewer] = b"|".join(parts)
    return twin.step, out


@pytest.mark.slow
def test_a_pending_offer_and_the_directors_gift_reach_nobody_else() -> None:
    """Two different cards offered (or given by the Director) send the same bytes to
    every other seat and to spectators; only the public form of the notation goes out."""
    offers = gifts = 0
    for seats in (3, 4, 5, 6):
        for seed in range(4):
            for state, _, _ in _play(seats, False, seed):
                if state.step not in (OFFER, COMPENSATE):
                    continue
                for seat in state.deciding_seats():
                    choices = {a.notation() for a in state.legal_actions_for(seat)}
                    if len(choices) < 2:
                        continue
                    first, second = sorted(choices)[:2]
                    (step, sent), (other_step, other) = (
                        _outgoing(state, seat, first),
                        _outgoing(state, seat, second),
                    )
                    if state.step == OFFER and OFFER not in (step, other_step):
                        continue  # the last card offered reveals every offer
                    if state.step == COMPENSATE:
                        # The player one card short receives the card: it may know.
                        sent.pop(state.taker)
                        other.pop(state.taker)
                        gifts += 1
                    else:
                        offers += 1
                    assert sent == other
                    assert GAME.public_notation(first) == GAME.public_notation(second)
    assert offers >= 20 and gifts >= 1


# ------------------------------------------------------------ every kind, by hand
#: One action of every kind (and of each shape a kind has).
ACTION_SAMPLES = [
    "size 0",
    "size 3",
    "offer grain",
    "take 2 wine",
    "give tax",
    "grant 3",
    "next 0",
    "god mars",
    "pass",
    "build legion lati",
    "build caravan lati wine",
    "buy hercules",
    "buy pyramids",
    "convert etru",
    "convert",
    "pay pottery",
    "capital troa",
    "sail lati tyr",
    "sail tyr ion",
    "fight tyr carthage",
    "move l lati etru",
    "move c lati etru",
    "lose fortress",
    "sack city",
    "sack caravan wine",
    "occupy",
    "done",
    "invoke vulcan etru",
    "invoke poseidon tyr rome",
    "invoke baal etru wine",
    "invoke hermes",
    "invoke isis",
    "invoke mars pelo",
    "invoke ishtar military",
    "hold city",
    "hold caravan wine",
    "hold temple",
    "swap grain tax",
    "swap tax livestock",
    "gild grain",
    "blockade aeg",
    "via lib",
    "barter tax wine",
    "barter grain pottery",
    "gaze etru carthage",
    "enchant etru",
    "gift wine",
]


def test_every_action_kind_round_trips() -> None:
    assert {parse_action(n).kind for n in ACTION_SAMPLES} == set(ALL_KINDS)
    for notation in ACTION_SAMPLES:
        action = parse_action(notation)
        typed = match_pb2.Action.FromString(_wire(CODEC.action_to_proto(action)))
        assert CODEC.action_from_proto(typed) == notation


_BATTLE = {"attacker": "rome", "defender": "greece", "attack": 17, "defence": 6}
_LOSSES = {"attacker_losses": 1, "defender_losses": 3, "attack_dice": [5, 6], "defence_dice": [6]}
#: One event of every kind, with every shape of its data.
EVENT_SAMPLES: list[Event] = [
    Event("roles_assigned", {"roles": [2, 0, 1, 0]}),
    Event("roles_assigned", {"roles": [-1, -1, -1, -1]}),
    Event("turn_started", {"turn": 4}),
    Event("role_changed", {"role": "military", "seat": 2}),
    Event("revenue", {"seat": 1, "cards": 5}),
    Event("revenue_cards", {"seat": 1, "cards": {"tax": 2, "wine": 1, "pottery": 2}}),
    Event("trade_size", {"seat": 0, "size": 0}),
    Event("card_offered", {"seat": 3, "offered": 2}),
    Event("card_offered_private", {"seat": 3, "card": "gems"}),
    Event("offers_revealed", {"offers": {"0": {"grain": 2}, "2": {"tax": 1, "fish": 1}}}),
    Event("card_taken", {"seat": 0, "victim": 2, "card": "fish"}),
    Event("compensated", {"seat": 0, "to": 1}),
    Event("trade_over", {}),
    Event("order", {"phase": "construction", "seats": [2, 0, 1]}),
    Event("offering", {"seat": 1, "god": "isis"}),
    Event("bought", {"seat": 2, "card": "pyramids"}),
    Event("converted", {"seat": 0, "province": "etru", "previous": "atlantis"}),
    Event("built", {"seat": 1, "item": "caravan", "province": "lati", "commodity": "wine"}),
    Event("built", {"seat": 1, "item": "trireme", "province": "lati", "commodity": None}),
    Event("game_over", {"winner": 2, "reason": "pyramids", "ranking": [2, 3, 1]}),
    Event("game_over", {"winner": -1, "reason": "turn_limit", "ranking": [1, 1, 3]}),
    Event("battle", {"province": "etru", **_BATTLE, **_LOSSES}),
    Event("naval_battle", {"sea": "tyr", **_BATTLE, **_LOSSES}),
    Event(
        "blockade_battle",
        {
            "sea": "aeg",
            "greek": 4,
            "invader": 11,
            "greek_losses": 2,
            "invader_losses": 0,
            "greek_dice": [4],
            "invader_dice": [5, 6],
        },
    ),
    Event("sacked", {"seat": 1, "province": "cret"}),
    Event("occupied", {"seat": 1, "province": "cret"}),
    Event("converting", {"seat": 1, "province": "cret"}),
    Event("conversion_lapsed", {"seat": 1, "province": "cret"}),
    Event("moved", {"seat": 0, "unit": "creature", "start": "lati", "end": "etru"}),
    Event("card_power", {"seat": 0, "card": "midas"}),
    Event(
        "blockade_declared",
        {
            "seat": 2,
            "start": "lati",
            "end": "atti",
            "chain": ["ion", "aeg"],
            "legions": 2,
            "creatures": 1,
        },
    ),
    Event(
        "blockade_declared",
        {"seat": 2, "start": "lati", "end": "atti", "chain": ["ion"], "legions": 0, "creatures": 1},
    ),
    Event("blockade_held", {"province": "atti"}),
    Event(
        "crossing_broken",
        {"seat": 2, "sea": "ion", "start": "lati", "end": "atti", "legions": 1, "creatures": 0},
    ),
    Event("capital_founded", {"seat": 4, "province": "troa"}),
    Event("sailed", {"seat": 0, "start": "lati", "end": "tyr"}),
    Event("god_invoked", {"seat": 1, "god": "poseidon"}),
    Event("card_drawn", {"seat": 5}),
    Event("card_drawn_private", {"seat": 5, "card": "tax"}),
    Event("card_power", {"seat": 3, "card": "ulysses"}),
    Event("first_strike", {"province": "cyre", "civ": "greece", "victim": "egypt", "legions": 2}),
    Event("regrow", {"province": "etru", "civ": "babylon", "roll": 5, "ok": True}),
    Event("regrow", {"province": "etru", "civ": "babylon", "roll": 1, "ok": False}),
    Event("petrified", {"seat": 0, "province": "etru", "civ": "carthage"}),
]


def test_every_event_kind_round_trips() -> None:
    assert {e.kind for e in EVENT_SAMPLES} == set(mn.EVENT_DETAILS)
    for event in EVENT_SAMPLES:
        message = match_pb2.GameEvent.FromString(_wire(CODEC.event_to_proto(event)))
        wrapper = match_pb2.GameEvent()
        CODEC.write_event(wrapper, event)
        assert wrapper == message
        back = mn.event_from_proto(message.marenostrum)
        assert (back.kind, dict(back.data)) == (event.kind, dict(event.data))
    sample = next(e for e in EVENT_SAMPLES if e.kind == "blockade_battle")
    blockade = CODEC.event_to_proto(sample).marenostrum.battle
    assert blockade.attacker == pb.MARE_NOSTRUM_CIVILIZATION_GREECE


def test_spectators_of_default_matches_need_only_the_message() -> None:
    state = GAME.new_match(4, seed=3)
    view = state.view(None)
    message = CODEC.view_to_proto(view)
    assert CODEC.view_from_proto(message) == view
    rome = message.marenostrum.civilizations[0]
    assert (rome.hero, rome.creature) == ("caesar", "pegasus")
    assert CODEC.oneof_field == "marenostrum"
    assert mn.MARENOSTRUM_CODEC is CODEC


# ----------------------------------------------------------------- server bugs
def test_server_bugs_fail_loudly() -> None:
    with pytest.raises(ValueError, match="event 'nonsense'"):
        CODEC.event_to_proto(Event("nonsense", {}))
    with pytest.raises(ValueError, match=r"event sailed\.speed"):
        CODEC.event_to_proto(Event("sailed", {"seat": 0, "speed": 2}))
    with pytest.raises(ValueError, match="'mordor' is not a Mare Nostrum space"):
        CODEC.event_to_proto(Event("sacked", {"seat": 0, "province": "mordor"}))
    with pytest.raises(ValueError, match=r"no protobuf form for Mare Nostrum built\.item"):
        CODEC.event_to_proto(
            Event("built", {"seat": 0, "item": "tower", "province": "lati", "commodity": None})
        )
    view = GAME.new_match(3, seed=1).view(0)
    with pytest.raises(ValueError, match=r"state\.kraken_moves"):
        CODEC.view_to_proto({**view, "state": {**view["state"], "kraken_moves": []}})
    with pytest.raises(ValueError, match="not a Mare Nostrum view"):
        CODEC.view_to_proto({"game": "mykerinos"})
    with pytest.raises(TypeError):
        CODEC.action_to_proto("pass")  # type: ignore[arg-type]


def test_views_that_do_not_decode_are_value_errors() -> None:
    view = CODEC.view_to_proto(GAME.new_match(3, seed=2).view(0))
    with pytest.raises(ValueError, match="not a Mare Nostrum view"):
        CODEC.view_from_proto(match_pb2.View())
    for corrupt in (
        lambda m: setattr(m.marenostrum, "step", 42),
        lambda m: setattr(m.marenostrum.players[1], "seat", 0),
        lambda m: setattr(m.marenostrum.provinces[0], "id", "nowhere"),
        lambda m: setattr(m.marenostrum.provinces[2], "influence", 9),
        lambda m: m.marenostrum.provinces[2].caravans.append(pb.MARE_NOSTRUM_CARD_GEMS),
        lambda m: m.marenostrum.seas[0].forces.add(civilization=1, legions=1),
        lambda m: m.marenostrum.provinces[0].forces.add(legions=1),
        lambda m: m.marenostrum.players[1].hand.cards.add(card=1, count=1),
        lambda m: m.marenostrum.bank.cards.add(card=1, count=1),
        lambda m: m.marenostrum.available.append("gandalf"),
        lambda m: m.marenostrum.gods.pop(),
        lambda m: m.marenostrum.purchase.CopyFrom(
            pb.MareNostrumAction(kind=pb.MARE_NOSTRUM_ACTION_KIND_PASS)
        ),
        lambda m: m.marenostrum.pending.append("mordor"),
    ):
        message = match_pb2.View()
        message.CopyFrom(view)
        corrupt(message)
        with pytest.raises(ValueError):
            CODEC.view_from_proto(message, viewer=0)


# ------------------------------------------------------------------ client input
K = pb.MareNostrumActionKind


def _action(**fields: Any) -> match_pb2.Action:
    return match_pb2.Action(marenostrum=pb.MareNostrumAction(**fields))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (match_pb2.Action(), "Action.game is empty"),
        (_action(), "kind is unspecified"),
        (_action(kind=99), "99 is not an action kind"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_SIZE), "needs MareNostrumAction.size"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_SIZE, size=1000), "not a number of cards"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_OFFER, card=15), "15 is not a card"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_OFFER, card=2, seat=1), "takes no seat"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_TAKE, card=2), "needs MareNostrumAction.seat"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_GRANT, seat=6), "not a seat number"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_GOD, god="zeus"), "'zeus' is not a god"),
        (
            _action(kind=K.MARE_NOSTRUM_ACTION_KIND_BUILD, item=3, space="lati"),
            "a caravan names its commodity",
        ),
        (
            _action(kind=K.MARE_NOSTRUM_ACTION_KIND_BUILD, item=7, space="lati tyr"),
            "not a province or sea id",
        ),
        (
            _action(kind=K.MARE_NOSTRUM_ACTION_KIND_BUILD, item=7, space="LATI"),
            "not a province or sea id",
        ),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_BUILD, item=7, space="tyr"), "is a sea"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_BUY, card_id="gandalf"), "not a hero or wonder"),
        (
            _action(kind=K.MARE_NOSTRUM_ACTION_KIND_MOVE, unit=3, space="lati", destination="etru"),
            "not a moving unit",
        ),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_FIGHT, space="lati", civilization=1), "at sea"),
        (
            _action(kind=K.MARE_NOSTRUM_ACTION_KIND_INVOKE, god="baal", space="etru"),
            "Baal the commodity",
        ),
        (
            _action(
                kind=K.MARE_NOSTRUM_ACTION_KIND_INVOKE,
                god="poseidon",
                space="tyr",
                civilization=1,
                commodity=2,
            ),
            "invoke",
        ),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_SWAP, card=2, bank_card=3), "swap trades"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_SACK, building=1), "names its commodity"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_DONE, space="lati"), "takes no space"),
        (_action(kind=K.MARE_NOSTRUM_ACTION_KIND_PASS, size=0), "takes no size"),
    ],
)
def test_malformed_typed_actions_are_refused(action: match_pb2.Action, message: str) -> None:
    with pytest.raises(MalformedActionError) as caught:
        CODEC.action_from_proto(action)
    assert message in str(caught.value)


def test_another_games_action_is_malformed() -> None:
    with pytest.raises(MalformedActionError, match="set to mykerinos but this is a marenostrum"):
        CODEC.action_from_proto(match_pb2.Action(mykerinos=mykerinos_pb2.MykerinosAction()))


FUZZ = settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SMALL = st.integers(0, 30)
ENUMS = st.one_of(SMALL, st.integers(-(2**31), 2**31 - 1))
SPACE_TEXT = st.one_of(
    st.sampled_from(["", "lati", "tyr", "aeg", "etru", "x"]), st.text(max_size=6)
)


def _typed(**fields: Any) -> pb.MareNostrumAction:
    """A message with the given fields; ``None`` leaves an optional field unset."""
    return pb.MareNostrumAction(**{k: v for k, v in fields.items() if v is not None})


TYPED_ACTIONS = st.builds(
    _typed,
    kind=st.integers(0, 29),
    card=ENUMS,
    bank_card=ENUMS,
    seat=st.none() | st.integers(0, 2**32 - 1),
    size=st.none() | st.integers(0, 2**32 - 1),
    god=st.one_of(st.sampled_from(["", "mars", "baal", "poseidon"]), st.text(max_size=5)),
    space=SPACE_TEXT,
    destination=SPACE_TEXT,
    item=ENUMS,
    commodity=ENUMS,
    civilization=ENUMS,
    card_id=st.one_of(st.sampled_from(["", "hercules", "pyramids"]), st.text(max_size=5)),
    unit=ENUMS,
    building=ENUMS,
)


@st.composite
def near_actions(draw: st.DrawFn) -> pb.MareNostrumAction:
    """A legal-looking action (a sample's typed form) with one field sometimes changed.

    Uniform random fields almost never make a valid action, so without this the
    accepting path of the decoder would hardly be fuzzed.
    """
    message = CODEC.action_to_proto(parse_action(draw(st.sampled_from(ACTION_SAMPLES))))
    typed = message.marenostrum
    if draw(st.booleans()):
        field = draw(st.sampled_from([f.name for f in pb.MareNostrumAction.DESCRIPTOR.fields]))
        if field in ("god", "space", "destination", "card_id"):
            setattr(typed, field, draw(SPACE_TEXT))
        else:
            setattr(typed, field, draw(st.integers(0, 16)))
    return typed


def _check_decodes_or_is_malformed(action: match_pb2.Action) -> bool:
    try:
        notation = CODEC.action_from_proto(action)
    except MalformedActionError:
        return False
    parsed = parse_action(notation)
    assert parsed.notation() == notation
    assert GAME.parse_action(notation) == parsed
    assert CODEC.action_from_proto(CODEC.action_to_proto(parsed)) == notation
    return True


@pytest.mark.slow
@FUZZ
@given(TYPED_ACTIONS)
def test_arbitrary_typed_actions_decode_or_are_malformed(action: pb.MareNostrumAction) -> None:
    _check_decodes_or_is_malformed(match_pb2.Action(marenostrum=action))


@pytest.mark.slow
@FUZZ
@given(near_actions())
def test_near_valid_typed_actions_decode_or_are_malformed(action: pb.MareNostrumAction) -> None:
    _check_decodes_or_is_malformed(match_pb2.Action(marenostrum=action))


@FUZZ
@given(st.binary(max_size=60))
def test_arbitrary_wire_bytes_decode_or_are_malformed(data: bytes) -> None:
    try:
        action = match_pb2.Action.FromString(data)
    except DecodeError:
        return  # gRPC refuses these before the service sees them
    _check_decodes_or_is_malformed(action)


@pytest.mark.slow
def test_near_valid_actions_are_often_accepted() -> None:
    """Guards the fuzzer above against only ever testing the refusal path."""
    examples: list[pb.MareNostrumAction] = []

    @settings(FUZZ, max_examples=300)
    @given(near_actions())
    def collect(action: pb.MareNostrumAction) -> None:
        examples.append(action)

    collect()
    accepted = sum(
        _check_decodes_or_is_malformed(match_pb2.Action(marenostrum=a)) for a in examples
    )
    assert accepted >= len(examples) // 5
