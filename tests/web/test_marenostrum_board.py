"""Mare Nostrum's web board, drawn for views of random matches at 3 to 6 seats (every
seat's view and the spectator's): well-formed markup, every province and sea on the
map with its owner and units, no other seat's hand or pending offer, and clickable
elements that choose legal actions."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from itertools import combinations

import pytest

from senet.codec import codec_for
from senet.games import get_game
from senet.games.interface import GameState
from senet.games.marenostrum.board import PROVINCE_DATA, SEA_DATA, SPACE_IDS
from senet.text.marenostrum.names import civ_name
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2
from senet.web.boards import board_for
from senet.web.marenostrum import layout
from senet.web.marenostrum.style import civ_colours, civ_letter

SVG = "{http://www.w3.org/2000/svg}"
TARGET = re.compile(r'data-target="([^"]+)"')
PRIVATE = re.compile(r"data-(hand|offer)='([^']*)'")
CODEC = codec_for("marenostrum")
BOARD = board_for("marenostrum")
#: Kinds whose notation names a space, a card, a god, a hero or a seat: a click picks them.
CLICKED_KINDS = {
    pb.MARE_NOSTRUM_ACTION_KIND_BUILD,
    pb.MARE_NOSTRUM_ACTION_KIND_SAIL,
    pb.MARE_NOSTRUM_ACTION_KIND_MOVE,
    pb.MARE_NOSTRUM_ACTION_KIND_FIGHT,
    pb.MARE_NOSTRUM_ACTION_KIND_GOD,
    pb.MARE_NOSTRUM_ACTION_KIND_BUY,
    pb.MARE_NOSTRUM_ACTION_KIND_PAY,
    pb.MARE_NOSTRUM_ACTION_KIND_OFFER,
    pb.MARE_NOSTRUM_ACTION_KIND_TAKE,
    pb.MARE_NOSTRUM_ACTION_KIND_NEXT,
    pb.MARE_NOSTRUM_ACTION_KIND_INVOKE,
    pb.MARE_NOSTRUM_ACTION_KIND_CAPITAL,
}


def _summary(seats: int, name: str = "Ada") -> match_pb2.MatchSummary:
    summary = match_pb2.MatchSummary(match_id="m1", game_id="marenostrum")
    for seat in range(seats):
        summary.seats.add(seat=seat, kind=match_pb2.SEAT_KIND_OPEN, display_name=f"{name}{seat}")
    return summary


def _parse(drawn: str) -> ET.Element:
    """The board's markup as XML (it is written to be well-formed: every value escaped)."""
    return ET.fromstring(f"<board>{drawn}</board>")


def _targets(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get("data-target", ""): el for el in root.iter() if el.get("data-target")}


def _text(element: ET.Element) -> str:
    return " ".join(t.text or "" for t in element.iter(f"{SVG}text"))


def _playout(seats: int, seed: int, every: int) -> Iterator[tuple[GameState, bool]]:
    """Every position of a random match, with whether to check every viewer's drawing
    there (every ``every`` steps, and at the end)."""
    state = get_game("marenostrum").new_match(seats, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over() and step < 1500:
        yield state, step % every == 0
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions()))
        step += 1
    yield state, True


def test_the_layout_places_every_space_once_inside_its_board_and_apart() -> None:
    assert set(layout.PROVINCE_AT) == {p.id for p in PROVINCE_DATA}
    assert set(layout.SEA_AT) == {sea for sea, _ in SEA_DATA}
    boards = {b.key: b for b in layout.BOARDS}
    for space in SPACE_IDS:
        left, top, right, bottom = layout.bounds_of(space)
        board = boards[layout.board_of(space)]
        assert left >= 0 and top >= 0, space
        assert right <= board.width and bottom <= board.height, space
    for a, b in combinations(SPACE_IDS, 2):
        if layout.board_of(a) != layout.board_of(b):
            continue
        la, ta, ra, ba = layout.bounds_of(a)
        lb, tb, rb, bb = layout.bounds_of(b)
        assert ra <= lb or rb <= la or ba <= tb or bb <= ta, f"{a} overlaps {b}"
    regions = [pid for region in layout.REGIONS for pid in region.provinces]
    assert sorted(regions) == sorted(p.id for p in PROVINCE_DATA)


def _check_map(root: ET.Element, view: pb.MareNostrumView) -> None:
    """Every province and sea is a target on the board it belongs to, with its owner's
    name and colour and a chip for each civilization's units there."""
    targets = _targets(root)
    boards = {
        el.get("class", "").split()[-1].removeprefix("mn-"): el
        for el in root.iter("div")
        if "mn-map" in el.get("class", "")
    }
    assert set(boards) == {"main", "west"}
    on_board = {key: set(_targets(el)) for key, el in boards.items()}
    for space in SPACE_IDS:
        assert f"s:{space}" in on_board[layout.board_of(space)], space
    for province in view.provinces:
        tile = targets[f"s:{province.id}"]
        owner = civ_name(province.influence) if province.influence else "nobody"
        assert tile.get("data-owner") == owner
        fills = {rect.get("fill") for rect in tile.iter(f"{SVG}rect")}
        assert civ_colours(province.influence).strong in fills
        words = _text(tile).replace(" ", "")  # a crowded tile's chips drop their spaces
        for force in province.forces:
            if force.legions:
                assert f"{civ_letter(force.civilization)}{force.legions}L" in words, province.id
            elif force.creatures:
                assert f"{civ_letter(force.civilization)}{force.creatures}C" in words
    for sea in view.seas:
        words = _text(targets[f"s:{sea.id}"])
        for force in sea.forces:
            if force.triremes:
                assert f"{civ_letter(force.civilization)} {force.triremes}S" in words, sea.id


def _check_privacy(drawn: str, view: pb.MareNostrumView, viewer: int | None) -> None:
    """Only the viewer's own hand and offer are drawn; a spectator gets neither."""
    sections = PRIVATE.findall(drawn)
    owners = {seat for _, seat in sections}
    assert owners <= ({str(viewer)} if viewer is not None else set())
    hand_keys = {key for key in TARGET.findall(drawn) if key.startswith("h:")}
    if viewer is None:
        assert not sections and not hand_keys
        return
    mine = view.players[viewer]
    assert ("hand", str(viewer)) in sections
    assert len(hand_keys) == len(mine.hand.cards)
    assert (("offer", str(viewer)) in sections) == bool(mine.offer.cards)


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "seed"), [(3, 11), (4, 12), (5, 13), (6, 14)])
def test_random_matches_draw_every_space_owner_and_unit_for_every_viewer(
    seats: int, seed: int
) -> None:
    """Every seat's view and the spectator's, every few steps; the deciding seat's at
    every step with each legal action's clicks checked against the drawn board."""
    summary = _summary(seats)
    clicked = 0
    spaces_clicked = 0
    for state, all_views in _playout(seats, seed, every=25):
        viewers: list[int | None] = [None, *range(seats)] if all_views else []
        seat = state.current_seat()
        if seat is not None and seat not in viewers:
            viewers.append(seat)
        for viewer in viewers:
            view = CODEC.view_to_proto(state.view(viewer))
            drawing = BOARD.draw(view, summary, viewer)
            if all_views:
                _check_map(_parse(drawing), view.marenostrum)
            _check_privacy(drawing, view.marenostrum, viewer)
            if viewer != seat or seat is None:
                continue
            drawn = set(TARGET.findall(drawing))
            for action in state.legal_actions():
                legal = CODEC.legal_action_to_proto(state, action)
                keys = BOARD.targets(legal, view)
                assert set(keys) <= drawn, (action.notation(), keys)
                typed = legal.action.marenostrum
                if typed.kind in CLICKED_KINDS:
                    assert keys, action.notation()
                for space in (typed.space, typed.destination):
                    if space:
                        assert f"s:{space}" in keys
                        spaces_clicked += 1
                clicked += bool(keys)
    assert clicked > 200 and spaces_clicked > 100


def _offer_step_state(seats: int = 4) -> tuple[GameState, int]:
    """A match where the traders pick their hidden offers, and one seat has offered."""
    state = get_game("marenostrum").new_match(seats, seed=5)
    rng = random.Random(5)
    for _step in range(2000):
        view = CODEC.view_to_proto(state.view(None)).marenostrum
        offered = [p.seat for p in view.players if p.offer_size]
        if view.step == pb.MARE_NOSTRUM_STEP_OFFER and offered:
            return state, offered[0]
        seat = state.current_seat()
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions()))
    pytest.fail("no trade offer in 2000 steps")


def test_a_pending_offer_shows_to_its_trader_only() -> None:
    state, trader = _offer_step_state()
    summary = _summary(4)
    own = CODEC.view_to_proto(state.view(trader))
    drawn = BOARD.draw(own, summary, trader)
    assert ("offer", str(trader)) in PRIVATE.findall(drawn)
    _check_privacy(drawn, own.marenostrum, trader)
    for viewer in (None, *(s for s in range(4) if s != trader)):
        view = CODEC.view_to_proto(state.view(viewer))
        drawn = BOARD.draw(view, summary, viewer)
        assert "data-offer" not in drawn and "Your offer" not in drawn
        size = view.marenostrum.players[trader].offer_size
        assert f"+{size} offered" in drawn  # the size is public


def test_another_seats_cards_are_never_drawn_even_if_a_view_carried_them() -> None:
    """The board draws hands and offers for the viewer's own seat only: a view that
    (wrongly) carried another seat's cards still shows none of them."""
    state, _ = _offer_step_state()
    summary = _summary(4)
    for viewer in (None, 0, 1, 2, 3):
        view = CODEC.view_to_proto(state.view(viewer))
        for player in view.marenostrum.players:
            if player.seat != viewer:
                player.hand.cards.add(card=pb.MARE_NOSTRUM_CARD_POTTERY, count=4242)
                player.offer.cards.add(card=pb.MARE_NOSTRUM_CARD_POTTERY, count=4343)
        drawn = BOARD.draw(view, summary, viewer)
        assert "4242" not in drawn and "4343" not in drawn
        _check_privacy(drawn, view.marenostrum, viewer)


def test_display_names_are_escaped() -> None:
    state = get_game("marenostrum").new_match(3, seed=1)
    view = CODEC.view_to_proto(state.view(0))
    drawn = BOARD.draw(view, _summary(3, "<script>x"), 0)
    assert "<script>" not in drawn and "&lt;script&gt;x0" in drawn
    _parse(drawn)


def test_clicks_pick_the_natural_elements() -> None:
    """A build is its province, a sail both its ends, an offering its god, a payment
    its card in the hand, a take the trader's face-up card, ``next`` the player."""
    view = match_pb2.View(marenostrum=pb.MareNostrumView(after_battle="juda"))
    cases = {
        "build legion lati": ["s:lati"],
        "sail lati tyr": ["s:lati", "s:tyr"],
        "move l lati etru": ["s:lati", "s:etru"],
        "fight tyr carthage": ["s:tyr"],
        "god mars": ["g:mars"],
        "invoke vulcan etru": ["g:vulcan", "s:etru"],
        "buy hercules": ["c:hercules"],
        "pay grain": ["h:grain"],
        "offer tax": ["h:tax"],
        "take 2 wine": ["t:2-wine"],
        "next 3": ["p:3"],
        "occupy": ["s:juda"],
        "convert": ["s:juda"],
        "convert etru": ["s:etru"],
        "done": [],
        "size 2": [],
        "invoke hermes": ["g:hermes"],
        "invoke mars juda": ["g:mars", "s:juda"],
        "via lib": ["s:lib"],
    }
    for notation, keys in cases.items():
        action = CODEC.action_to_proto(get_game("marenostrum").parse_action(notation))
        legal = match_pb2.LegalAction(notation=notation, action=action)
        assert BOARD.targets(legal, view) == keys, notation


def test_victory_progress_counts_towards_the_long_games_five() -> None:
    state = get_game("marenostrum").new_match(3, seed=2)
    view = CODEC.view_to_proto(state.view(None))
    summary = _summary(3)
    assert "1/4" in BOARD.draw(view, summary, None)
    summary.options["long_game"].bool_value = True
    assert "1/5" in BOARD.draw(view, summary, None)


@pytest.mark.parametrize("civilizations", [4, 6])
def test_a_crowded_province_keeps_its_units_chips_inside_its_tile(civilizations: int) -> None:
    """Four civilizations' legions in one province all show; six armies with their
    creatures still stay on the tile, the last ones counted."""
    state = get_game("marenostrum").new_match(6, seed=3)
    view = CODEC.view_to_proto(state.view(None))
    lati = next(p for p in view.marenostrum.provinces if p.id == "lati")
    del lati.forces[:]
    for civ in range(1, civilizations + 1):
        lati.forces.add(civilization=civ, legions=civ, creatures=civ % 2 * (civilizations > 4))
    tile = _targets(_parse(BOARD.draw(view, _summary(6), None)))["s:lati"]
    _, x, _ = layout.PROVINCE_AT["lati"]
    left, right = x - layout.TILE_WIDTH / 2, x + layout.TILE_WIDTH / 2
    for chip in (r for r in tile.iter(f"{SVG}rect") if r.get("rx") == "3"):
        assert left <= float(chip.get("x", 0))
        assert float(chip.get("x", 0)) + float(chip.get("width", 0)) <= right
    words = _text(tile)
    shown = [civ_letter(c) for c in range(1, civilizations + 1) if f"{civ_letter(c)}{c}L" in words]
    if civilizations == 4:
        assert len(shown) == 4
    else:
        assert f"+{civilizations - len(shown)}" in words


def test_province_names_are_whole_and_the_tiles_titles_name_them() -> None:
    info = {p.id: p.name for p in PROVINCE_DATA}
    state = get_game("marenostrum").new_match(3, seed=1)
    drawn = BOARD.draw(CODEC.view_to_proto(state.view(None)), _summary(3), None)
    names = re.findall(r'class="mn-name"[^>]*>([^<]+)<', drawn)
    assert "Gallia Cisalpina" in names and "Magna Graecia" in names
    assert all(name == info[key] for key, name in zip(_tile_ids(drawn), names, strict=True))
    assert "<title>gcis (Gallia Cisalpina): " in drawn
    assert drawn.count("data-zoom-key=") == 2 and "data-zoom='in'" in drawn


def _tile_ids(drawn: str) -> list[str]:
    return re.findall(r'class="mn-id"[^>]*>([^<]+)<', drawn)


def test_the_offer_rule_and_count_show_to_a_trader_before_the_map() -> None:
    state, _trader = _offer_step_state()
    view = CODEC.view_to_proto(state.view(None)).marenostrum
    trader = view.deciding_seats[0]
    own = CODEC.view_to_proto(state.view(trader))
    drawn = BOARD.draw(own, _summary(4), trader)
    offered = sum(e.count for e in own.marenostrum.players[trader].offer.cards)
    size = own.marenostrum.trade.size
    assert f"Offering: {offered} of {size} card(s) chosen" in drawn and "tax first" in drawn
    assert drawn.index("data-hand=") < drawn.index("data-zoom-key=")


def test_a_payment_shows_its_cost_what_is_paid_and_what_is_left() -> None:
    state = get_game("marenostrum").new_match(3, seed=2)
    rng = random.Random(2)
    for _step in range(3000):
        seat = state.current_seat()
        assert seat is not None
        view = CODEC.view_to_proto(state.view(seat))
        if view.marenostrum.HasField("purchase") and view.marenostrum.paid:
            drawn = BOARD.draw(view, _summary(3), seat)
            paid = len(view.marenostrum.paid)
            total = paid + view.marenostrum.pay_left
            assert f"costs {total} card(s); paid {paid} (" in drawn
            assert f"{view.marenostrum.pay_left} left" in drawn and "one set" in drawn
            return
        state.apply(seat, rng.choice(state.legal_actions()))
    pytest.fail("no payment under way in 3000 steps")


def test_the_hand_comes_before_the_map_whenever_the_viewer_pays_with_it() -> None:
    """Issue 34: "A first-time user plays a Mare Nostrum turn ... without scrolling past
    one screen for the hand, the trade and the map": offerings to the gods and the
    construction phase are paid with the hand, so whoever decides there sees it first;
    a seat that waits, and the military phase, get the map first."""
    state = get_game("marenostrum").new_match(3, seed=3)
    rng = random.Random(3)
    seen: set[int] = set()
    for _step in range(3000):
        seat = state.current_seat()
        assert seat is not None
        view = CODEC.view_to_proto(state.view(seat))
        game = view.marenostrum
        phase = game.phase
        if (
            phase
            in (
                pb.MARE_NOSTRUM_PHASE_OFFERINGS,
                pb.MARE_NOSTRUM_PHASE_CONSTRUCTION,
                pb.MARE_NOSTRUM_PHASE_MILITARY,
            )
            and phase not in seen
        ):
            drawn = BOARD.draw(view, _summary(3), seat)
            hand_first = drawn.index("data-hand=") < drawn.index("data-zoom-key=")
            paying = phase != pb.MARE_NOSTRUM_PHASE_MILITARY or game.HasField("purchase")
            assert hand_first == paying, (phase, game.step)
            waiting = next(s for s in range(3) if s not in game.deciding_seats)
            other = BOARD.draw(CODEC.view_to_proto(state.view(waiting)), _summary(3), waiting)
            if not game.HasField("trade") or not game.trade.size:
                assert other.index("data-zoom-key=") < other.index("data-hand="), phase
            seen.add(phase)
            if len(seen) == 3:
                return
        state.apply(seat, rng.choice(state.legal_actions()))
    pytest.fail(f"phases seen in 3000 steps: {seen}")
