"""The text client draws Mare Nostrum from protocol messages only, within 80 columns."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from senet.codec import codec_for
from senet.games import Event, get_game
from senet.games.marenostrum import MareState
from senet.text.drawing import ASCII, WIDTH
from senet.text.marenostrum import MARENOSTRUM_RENDERER
from senet.text.marenostrum.actions import HELP, action_lines
from senet.text.marenostrum.events import describe_event
from senet.text.marenostrum.names import Seats, cards_text
from senet.text.marenostrum.scores import final_score_lines
from senet.text.marenostrum.table import match_lines
from senet.text.renderer import renderer_for
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2

GAME = get_game("marenostrum")
CODEC = codec_for("marenostrum")
SET_UPS = [pytest.param(False, id="printed"), pytest.param(True, id="free")]


def _play(
    seats: int, free_setup: bool, seed: int, turns: int = 3
) -> Iterator[tuple[MareState, int, list[Event]]]:
    """Every position of a seeded random match, with the seat that moved and its events."""
    state = GAME.new_match(
        seats, options={"free_setup": free_setup, "turn_limit": turns}, seed=seed
    )
    assert isinstance(state, MareState)
    rng = random.Random(seed)
    while not state.is_over():
        seat = rng.choice(state.deciding_seats())
        events = state.apply(seat, rng.choice(state.legal_actions_for(seat)))
        yield state, seat, events


def _view(state: MareState, viewer: int | None) -> pb.MareNostrumView:
    return CODEC.view_to_proto(state.view(viewer)).marenostrum


def _plain(view: pb.MareNostrumView, viewer: int | None) -> list[str]:
    return [line.plain for line in match_lines(view, None, viewer, ASCII)]


def _update(
    seat: int, notation: str, events: list[Event], viewer: int | None
) -> match_pb2.MatchUpdate:
    update = match_pb2.MatchUpdate(seat=seat, notation=notation)
    for event in events:
        if event.audience is None or (viewer is not None and viewer in event.audience):
            update.events.append(CODEC.event_to_proto(event))
    return update


def test_the_renderer_is_the_marenostrum_plug_in() -> None:
    assert renderer_for("marenostrum") is MARENOSTRUM_RENDERER
    assert MARENOSTRUM_RENDERER.game_id == "marenostrum"


@pytest.mark.parametrize("free_setup", SET_UPS)
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_every_view_fits_80_columns(seats: int, free_setup: bool) -> None:
    """Every seat's view and the spectator's, at every 10th position of a match: no
    line is wider, and none had to be cut short to fit (the ellipsis of ``fit``)."""
    drawn = 0
    for number, (state, _seat, _events) in enumerate(_play(seats, free_setup, seats)):
        if number % 10 and not state.is_over():
            continue
        for viewer in [None, *range(seats)]:
            view = _view(state, viewer)
            lines = match_lines(view, None, viewer)
            assert all(line.cell_len <= WIDTH for line in lines)
            cut = [line.plain for line in lines if line.plain.endswith("\u2026")]
            assert not cut, cut
            drawn += 1
    assert drawn > (seats + 1) * 5


def test_the_map_lists_every_province_and_sea_with_owners_and_units() -> None:
    state = GAME.new_match(4, seed=3)
    assert isinstance(state, MareState)
    view = _view(state, 0)
    text = "\n".join(_plain(view, 0))
    for province in view.provinces:
        assert province.id in text
    for sea in view.seas:
        assert sea.id in text
    # Rome starts with its capital Latium: a city, a wine caravan, a fortress, two legions.
    assert "lati=R* c1v1f1 R2l" in text
    assert "tyr R1" in text
    for region in ("Italia", "Graecia", "Asia", "Oriens", "Africa", "Hesperia", "Seas"):
        assert any(line.startswith(region) for line in _plain(view, 0))


def test_own_hand_card_by_card_others_by_size_and_no_hidden_card_drawn() -> None:
    """The drawing of a seat's view does not change when every hand and pending offer
    it cannot see is dealt afresh."""
    checked = 0
    for number, (state, _seat, _events) in enumerate(_play(4, False, 7)):
        if number % 15:
            continue
        for viewer in (0, 2):
            mine = _plain(_view(state, viewer), viewer)
            for seed in (1, 2):
                other = state.determinize(viewer, seed)
                assert _plain(_view(other, viewer), viewer) == mine
            assert sum("your hand:" in line for line in mine) == 1
            checked += 1
        spectator = _plain(_view(state, None), None)
        assert not any("your hand" in line or "your offer" in line for line in spectator)
    assert checked > 10


def test_the_trade_shows_offers_face_up_and_taken_cards() -> None:
    seen_offer = seen_take = False
    for state, _seat, _events in _play(4, False, 5):
        if state.step == "offer" and state.trade_size:
            viewer = state.traders[0]
            text = "\n".join(_plain(_view(state, viewer), viewer))
            assert f"TRADE  {state.trade_size} card(s) each" in text
            assert "offered " in text
            seen_offer = True
        if state.step == "take":
            text = "\n".join(_plain(_view(state, None), None))
            assert "face up:" in text and "Taking next:" in text
            seen_take = True
        if seen_offer and seen_take:
            break
    assert seen_offer and seen_take


def _kinds() -> list[pb.MareNostrumEventKind.ValueType]:
    return [v for v in pb.MareNostrumEventKind.values() if v]


def test_every_event_kind_has_a_log_line() -> None:
    seats = Seats(pb.MareNostrumView(), None, 0)
    for kind in _kinds():
        event = pb.MareNostrumEvent(kind=kind, seat=1, other_seat=2)
        line = describe_event(event, seats)
        assert line, pb.MareNostrumEventKind.Name(kind)


def test_a_match_logs_what_happened() -> None:
    """Real events, redacted per viewer: every one read, private ones as ``You``."""
    kinds: set[int] = set()
    text: list[str] = []
    for state, seat, events in _play(4, False, 11):
        view = CODEC.view_to_proto(state.view(0))
        update = _update(seat, "x", events, 0)
        lines = MARENOSTRUM_RENDERER.update_lines(update, view, None, 0)
        assert len(lines) == 1 + len(update.events)
        kinds.update(e.marenostrum.kind for e in update.events)
        text += lines
    joined = "\n".join(text)
    assert "Turn 2 begins." in joined and "Offers revealed" in joined
    assert "You collected" in joined
    assert len(kinds) >= 10


def test_battles_read_with_both_totals_and_losses() -> None:
    event = pb.MareNostrumEvent(
        kind=pb.MARE_NOSTRUM_EVENT_KIND_BATTLE,
        battle=pb.MareNostrumBattle(
            space="etru",
            attacker=pb.MARE_NOSTRUM_CIVILIZATION_ROME,
            defender=pb.MARE_NOSTRUM_CIVILIZATION_GREECE,
            attack=14,
            defence=9,
            attacker_losses=1,
            defender_losses=2,
        ),
    )
    line = describe_event(event, Seats(pb.MareNostrumView()))
    assert line == "Battle in etru: Rome 14 - Greece 9; Rome loses 1, Greece 2."


@pytest.mark.parametrize("free_setup", SET_UPS)
def test_final_scores_rank_every_player(free_setup: bool) -> None:
    positions = [position for position, _seat, _events in _play(3, free_setup, 2, turns=2)]
    state = positions[-1]
    assert state.is_over()
    view = _view(state, 0)
    lines = [line.plain for line in final_score_lines(view, None, 0)]
    assert lines[0] == "FINAL SCORES"
    assert sum(line.startswith((" 1st", " 2nd", " 3rd")) for line in lines) == 3
    assert "wins" in lines[-1] or "share the victory" in lines[-1]
    assert all(len(line) <= WIDTH for line in lines)
    assert "Game over" in "\n".join(_plain(view, 0))


def test_help_and_grouped_action_lists_fit() -> None:
    assert all(len(line) <= WIDTH for line in HELP.splitlines())
    assert "build caravan lati wine" in MARENOSTRUM_RENDERER.help_text
    state = next(
        position
        for position, _seat, _events in _play(4, False, 5)
        if position.step == "build" and len(position.legal_actions()) > 20
    )
    legal = [CODEC.legal_action_to_proto(state, a) for a in state.legal_actions()]
    assert len(legal) > 20
    plain = [line.plain for line in action_lines(legal)]
    assert all(len(line) <= WIDTH for line in plain)
    assert "Build in a province (item, province):" in plain


def test_cards_read_as_notation() -> None:
    cards = pb.MareNostrumCards(
        cards=[
            pb.MareNostrumCardCount(card=pb.MARE_NOSTRUM_CARD_TAX, count=3),
            pb.MareNostrumCardCount(card=pb.MARE_NOSTRUM_CARD_WINE, count=1),
        ]
    )
    assert cards_text(cards) == "tax x3, wine"


def test_zoom_spells_out_provinces_regions_civilizations_and_seas() -> None:
    from senet.text import choose
    from senet.text.generic import GENERIC_RENDERER
    from senet.text.renderer import detail_lines

    state = GAME.new_match(4, seed=3)
    assert isinstance(state, MareState)
    view = CODEC.view_to_proto(state.view(0))

    def zoom(words: str) -> list[str]:
        lines = detail_lines(MARENOSTRUM_RENDERER, words, view, None, 0, ASCII)
        assert all(line.cell_len <= WIDTH for line in lines)
        return [line.plain for line in lines]

    assert zoom("lati")[0].startswith("  lati Latium: Rome capital; cities 1/1")
    italia = zoom("italia")
    assert [line.split()[0] for line in italia if not line.startswith("      ")] == [
        "gcis", "etru", "lati", "camp", "magn", "sici", "sard"
    ]  # fmt: skip
    rome = "\n".join(zoom("rome"))
    assert "Latium" in rome and "Etruria" in rome and "Attica" not in rome
    assert len([line for line in zoom("seas") if not line.startswith("      ")]) == 14
    assert "Mare Tyrrhenum: triremes Rome 1" in "\n".join(zoom("tyr lati"))
    assert "nothing named atlantida" in "\n".join(zoom("atlantida"))
    command = choose.resolve("Zoom  Italia", [])
    assert command == choose.Command("zoom", "italia")
    other = detail_lines(GENERIC_RENDERER, "x", view, None, 0, ASCII)
    assert "board" in other[0].plain


def test_card_powers_are_drawn_and_logged() -> None:
    """A crossing being declared, the Sphinx's and the Hydra's marks, a power used,
    and the log lines of the Centaurs, the Hydra and Medusa."""
    from tests.codec.test_marenostrum_wire import _positions_of_card_powers

    # The positions are drawn as they come: the crossing is one match played on.
    expected = [
        ["Ulysses: bartering"],
        [
            "declaring the chain and the units crossing",
            "a legion crossing magn -> pelo over ion (more",
        ],
        [
            "Sphinx's riddle (occupy only, no sack or conversion) in: theb aegy",
            "Hydra already rolled to regrow in this battle: Atlantis, Rome",
        ],
        ["2 legions crossing magn -> pelo", "used Cleopatra, Medusa"],
    ]
    positions = _positions_of_card_powers()
    for state, wanted in zip(positions, expected, strict=True):
        state.powers_used[0] = 9
        text = "\n".join(_plain(_view(state, 0), 0))
        for line in wanted:
            assert line in text
    seats = Seats(_view(state, None), None, None)
    lines = [
        describe_event(CODEC.event_to_proto(event).marenostrum, seats)
        for event in (
            Event(
                "first_strike",
                {"province": "cyre", "civ": "greece", "victim": "egypt", "legions": 2},
            ),
            Event("regrow", {"province": "etru", "civ": "babylon", "roll": 5, "ok": True}),
            Event("petrified", {"seat": 0, "province": "etru", "civ": "carthage"}),
        )
    ]
    assert lines[0] == "Greece's Centaurs strike first in cyre: Egypt loses 2 legion(s)."
    assert lines[1] == "Babylon's Hydra in etru rolls 5: it regrows and stays."
    assert lines[2] is not None and "Medusa turns a legion of Carthage in etru" in lines[2]
