"""Mykerinos invariants over hundreds of seeded random matches (2, 3 and 4 players),
in the base game and in every variant and valid combination of variants.

Every decision of every match is checked against the conservation laws and the
rules that no single scenario test can cover exhaustively:

* 25 archaeologists per colour: general + personal reserves + region + museum;
* museum rooms are never overwritten, exist in this museum's ring, and a 5-room is
  held only by a colour that also holds one of its entry rooms;
* the deck never grows; the 36 plot cards are all somewhere, exactly once (deck,
  unresolved slots of the current campaign, box, or held as patron cards);
* pyramids are dug only by the Explorer (exactly one per Explorer action);
* prestige, held cards and the box never decrease; prestige and cards equal what the
  ``plot_taken`` events gave;
* in the two-player game the neutral colour never enters the museum; unused colours
  never leave the general reserve;
* the event stream describes the board (a shadow board rebuilt from events agrees
  with the state) and delimitation follows the rank order (count, then tiebreak);
* the last active player gets exactly one more action per campaign;
* final score = plot points + exhibition, and the ranking follows (score, reserve);
  in the team game both teammates score the lower of their two totals;
* variants: drafted patrons come from the revealed row; Nile cards are conserved and
  rewarded only from the river; nobody places on another player's blocking token,
  and every player's three tokens are in hand or on the board; in the classic rules
  the museum reward comes from the general reserve.

A second test checks that the explanations given for illegal actions state only true
facts about the position ("c3 is occupied", "you have no Curator card", ...).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from senet.games import Event, Rng
from senet.games.mykerinos import MYKERINOS, MykerinosState
from senet.games.mykerinos import actions as act
from senet.games.mykerinos.museum import WINGS, five_room, five_room_entries, ring_rooms
from senet.games.mykerinos.nile import NILE_CARDS
from senet.games.mykerinos.patrons import ALL_PATRONS, PATRON_CODES, PATRON_NAMES, PATRONS
from senet.games.mykerinos.plots import PLOT_CARDS, SPECIAL_PLOT_ID
from senet.games.mykerinos.region import parse_space
from senet.games.mykerinos.scoring import exhibition
from senet.games.mykerinos.state import (
    ARCHAEOLOGISTS_PER_COLOUR,
    AWAIT_DISCARD,
    AWAIT_REWARD,
    AWAIT_TIE,
    BLOCKING_TOKENS,
    COLOUR_NAMES,
    COLOURS,
    DELIMITATION,
    DIGGING,
    DRAFT,
    EMPTY,
    EXCAVATION,
    NEUTRAL_TURN,
    OVER,
)

CARDS_PER_PATRON = 7
DECK_SIZE = 36
COLOUR_OF_NAME = {name: i for i, name in enumerate(COLOUR_NAMES)}
FIVE_ROOMS = frozenset(five_room(p) for p in range(WINGS))


def _area_of(space: int) -> int:
    """Area of a space: 3 rows by 4 columns per area, two areas per row (any region size)."""
    row, column = divmod(space, 8)
    return row // 3 * 2 + column // 4


def _unresolved_slots(state: MykerinosState) -> list[int]:
    """Slots of this campaign whose plot has not yet been taken, discarded or boxed."""
    if state.phase in DIGGING:
        return list(range(len(state.slots)))
    if state.phase == DELIMITATION:
        if state.on_river:
            return list(range(len(state.slots)))
        later = range(2 * (state.area + 1), len(state.slots))
        return [2 * state.area + side for side in state.plots_left] + list(later)
    assert state.phase in (OVER, DRAFT)
    return []


#: (seats, options) of every variant and valid combination, with an id.
VARIANTS = ("nile", "team", "quick", "classic")


def _variant_cases() -> list[Any]:
    out = []
    for seats in (2, 3, 4):
        for mask in range(1 << len(VARIANTS)):
            options = {name: bool(mask >> i & 1) for i, name in enumerate(VARIANTS)}
            if options["team"] and seats != 4:
                continue
            on = "+".join(n for n in VARIANTS if options[n]) or "base"
            out.append(pytest.param(seats, options, id=f"{seats}p-{on}"))
    return out


VARIANT_CASES = _variant_cases()


class Watcher:
    """Checks one match decision by decision; ``observe`` after every change."""

    def __init__(self, state: MykerinosState) -> None:
        self.seats = state.seat_count
        self.neutral = state.neutral
        self.team = state.team
        self.classic = state.classic
        self.campaigns = len(state.campaign_plot_counts())
        self.drafted = 0
        self.river: set[int] = {i for i, r in enumerate(state.river) if r}
        self.in_play = {*range(self.seats)} | (
            {self.neutral} if self.neutral is not None else set()
        )
        self.rooms = set(ring_rooms(state.wing_order))
        self.entries = five_room_entries(state.wing_order)
        self.campaign = state.campaign
        self.deck_len = len(state.deck)
        self.museum = list(state.museum)
        self.prestige = list(state.prestige)
        self.cards = [list(c) for c in state.cards]
        self.box: set[int] = set(state.box)
        self.explored: set[int] = set()  # pyramid spaces dug by the Explorer this campaign
        self.final_actions: Counter[int] = Counter()
        # What the events told us.
        self.points_taken = [0] * self.seats
        self.patrons_taken = [[0] * len(ALL_PATRONS) for _ in range(self.seats)]
        self.shadow = list(state.board)
        self.tiebreaks: dict[int, int] = {} if self.neutral is None else {self.neutral: 2}
        self.order: list[int] = []
        self.area = -1
        self.plots_given = 0
        self.observe(state)

    # ------------------------------------------------------------ state laws
    def observe(self, state: MykerinosState) -> None:
        self._archaeologists(state)
        self._museum(state)
        self._plots(state)
        self._pyramids(state)
        self._monotone(state)
        self._nile(state)
        if state.phase == EXCAVATION:
            assert self.shadow == state.board, "events do not describe the board"
            if sum(state.active) == 1:
                assert state.final_seat == state.turn
                self.final_actions[state.campaign] += 1
        if state.phase == DELIMITATION:
            self._delimitation_decision(state)

    def _archaeologists(self, state: MykerinosState) -> None:
        for c in range(COLOURS):
            held = sum(state.personal[s][c] for s in range(self.seats))
            on_board, in_museum = state.board.count(c), state.museum.count(c)
            assert state.general[c] >= 0 and all(p[c] >= 0 for p in state.personal)
            total = state.general[c] + held + on_board + in_museum
            assert total == ARCHAEOLOGISTS_PER_COLOUR, (c, state.general[c], held, on_board)
            if c not in self.in_play:
                assert state.general[c] == ARCHAEOLOGISTS_PER_COLOUR, f"unused colour {c} moved"
        assert set(state.board) <= {EMPTY} | self.in_play

    def _museum(self, state: MykerinosState) -> None:
        museum = state.museum
        for room, occupant in enumerate(museum):
            before = self.museum[room]
            assert before in (EMPTY, occupant), f"room {room} overwritten: {before} -> {occupant}"
            if occupant == EMPTY:
                continue
            assert room in self.rooms, f"room {room} does not exist in this museum"
            assert 0 <= occupant < self.seats, f"colour {occupant} in the museum"
            if room in FIVE_ROOMS:
                assert any(museum[e] == occupant for e in self.entries[room]), (
                    f"5-room {room} held by colour {occupant} without an entry room"
                )
        self.museum = list(museum)

    def _plots(self, state: MykerinosState) -> None:
        assert len(state.deck) <= self.deck_len, "the deck grew"
        self.deck_len = len(state.deck)
        dealt = sum(state.campaign_plot_counts()[: state.campaign])
        revealed = 8 if state.quick else 0
        assert len(state.deck) == DECK_SIZE - dealt - revealed
        loose = [
            *state.deck,
            *(state.slots[i][0] for i in _unresolved_slots(state)),
            *state.box,
            *state.draft_row,
        ]
        assert len(loose) == len(set(loose)), f"a plot is in two places: {sorted(loose)}"
        held = sum(sum(c[p] for p in PATRONS) for c in state.cards)
        assert len(loose) + held == DECK_SIZE, (len(loose), held)
        assert loose.count(SPECIAL_PLOT_ID) == 1
        for patron in PATRONS:
            free = sum(1 for i in loose if PLOT_CARDS[i].patron == patron)
            assert free + sum(c[patron] for c in state.cards) == CARDS_PER_PATRON, patron

    def _pyramids(self, state: MykerinosState) -> None:
        if state.campaign != self.campaign:
            self.campaign = state.campaign
            self.explored = set()
        if state.phase not in DIGGING:
            return  # bank archaeologists may drop onto a covered pyramid in phase 3
        for space, occupant in enumerate(state.board):
            if occupant != EMPTY and state.pyramid[space]:
                assert space in self.explored, f"pyramid {space} occupied without the Explorer"

    def _monotone(self, state: MykerinosState) -> None:
        for s in range(self.seats):
            assert state.prestige[s] >= self.prestige[s], "prestige decreased"
            assert all(n >= o for n, o in zip(state.cards[s], self.cards[s], strict=True))
            assert state.prestige[s] == self.points_taken[s], "prestige without a plot_taken"
            assert state.cards[s] == self.patrons_taken[s], "cards without a plot_taken"
        assert self.box <= set(state.box), "a plot left the box"
        self.prestige = list(state.prestige)
        self.cards = [list(c) for c in state.cards]
        self.box = set(state.box)

    def _nile(self, state: MykerinosState) -> None:
        """Nile cards are conserved; blocking tokens are in hand or on the board."""
        if not state.with_nile:
            assert not state.nile_rows and not any(state.tokens)
            return
        places = [
            *state.nile_governor_deck,
            *state.nile_neutral_deck,
            *state.nile_on_table(),
            *state.nile_box,
            *(c for row in state.nile_won for c in row),
        ]
        assert sorted(places) == list(range(len(NILE_CARDS))), places
        for seat in range(self.seats):
            down = state.blocked.count(seat) + state.blocked_rooms.count(seat)
            assert state.tokens[seat] + down == BLOCKING_TOKENS
        for space, owner in enumerate(state.blocked):
            assert owner == EMPTY or state.board[space] == EMPTY, "a token under an archaeologist"

    def _delimitation_decision(self, state: MykerinosState) -> None:
        seat, legal = state.turn, state.legal_actions()
        assert state.area == self.area and state.ranks == self.order
        if state.awaiting == AWAIT_TIE:
            assert {a.kind for a in legal} == {act.USE_TIE, act.KEEP_TIE}
            return
        if state.awaiting == AWAIT_DISCARD:
            assert self.neutral is not None and state.ranks[state.rank_index] == self.neutral
            assert {a.kind for a in legal} == {act.DISCARD} and len(legal) >= 2
            return
        assert state.awaiting == AWAIT_REWARD
        assert state.ranks[state.rank_index] == seat != self.neutral
        scored = state._scored_spaces()
        assert any(state.board[i] == seat for i in scored)
        kinds = {a.kind for a in legal}
        assert kinds <= {act.TAKE, act.MUSEUM, act.LEAVE} and len(legal) >= 2
        if act.LEAVE in kinds:  # third place, one plot left, a teammate behind (M-10)
            assert self.team and state.rank_index == 2 and len(state.plots_left) == 1
            assert state.mate(seat) in state.ranks[3:]
        if state.rank_index >= 2 or state.on_river:
            never_museum = "third and fourth place never choose the museum"
            assert kinds - {act.LEAVE} == {act.TAKE}, never_museum
        if state.on_river:
            assert state.rank_index < 2 and all(a.arg >= act.NILE_SIDE for a in legal)

    # ----------------------------------------------------------- transitions
    def before(self, state: MykerinosState, action: act.MykerinosAction) -> None:
        """Check a placement against the pyramids and the blocking tokens; remember
        what the Explorer dug."""
        if not action.spaces:
            return
        for space in action.spaces:
            assert state.blocked[space] in (EMPTY, state.turn), "placed on another's token"
        on_pyramids = [s for s in action.spaces if state.pyramid[s]]
        if action.kind == act.EXPLORER:
            assert len(on_pyramids) == 1, action.notation()
            self.explored.update(on_pyramids)
        else:
            assert not on_pyramids, action.notation()

    def events(self, events: list[Event]) -> None:
        """Replay the events on a shadow board; check rewards against the rank order."""
        for event in events:
            data = event.data
            kind = event.kind
            if kind == "campaign_started":
                self.shadow = [EMPTY] * (8 * int(data["region"]["rows"]))
                self.tiebreaks = {} if self.neutral is None else {self.neutral: 2}
                self.area = -1
                self.river = {parse_space(n) for n in data["region"].get("river", [])}
            elif kind == "placed":
                colour = COLOUR_OF_NAME[data["colour"]]
                expected = {"na": self.neutral, "nb": self.neutral}.get(
                    data["action"], data["seat"]
                )
                if data["action"] in ("ta", "tb"):
                    expected = (data["seat"] + 2) % 4
                assert colour == expected, data
                for name in data["spaces"]:
                    space = parse_space(name)
                    assert self.shadow[space] == EMPTY, f"{name} placed twice"
                    self.shadow[space] = colour
            elif kind == "passed":
                space = data["tiebreak_space"]
                lowest = min(set(range(1, COLOURS + 2)) - set(self.tiebreaks.values()))
                assert space == lowest, (space, self.tiebreaks)
                self.tiebreaks[data["seat"]] = space
            elif kind == "area_ranked":
                self._ranked(data, river=False)
            elif kind == "river_ranked":
                self._ranked(data, river=True)
            elif kind == "tie_card_used":
                order = [COLOUR_OF_NAME[c] for c in data["order"]]
                assert sorted(order) == sorted(self.order) and order != self.order
                self.order = order
            elif kind == "drafted":
                self.drafted += 1
                self.patrons_taken[data["seat"]][PATRON_CODES.index(data["patron"])] += 1
            elif kind in ("nile_card_taken", "nile_card_discarded"):
                self.plots_given += 1
                assert self.area == -1 and self.plots_given <= 3
                if kind == "nile_card_taken":
                    seat = data["seat"]
                    assert seat in self.order[:2], "only first and second place claim Nile cards"
                    self.points_taken[seat] += data["points"]
                    if NILE_CARDS[data["card"]].governor:
                        self.patrons_taken[seat][PATRON_CODES.index("gov")] += 1
            elif kind == "river_done":
                for i in self.river:
                    self.shadow[i] = EMPTY
                self.river = set()
            elif kind in ("plot_taken", "plot_discarded"):
                self.plots_given += 1
                assert self.plots_given <= 2 and data["area"] == self.area
                if kind == "plot_taken":
                    seat = data["seat"]
                    assert seat in self.order, "a reward for a colour absent from the area"
                    self.points_taken[seat] += data["points"]
                    if data["patron"] is not None:
                        self.patrons_taken[seat][PATRON_CODES.index(data["patron"])] += 1
            elif kind == "museum_placed" and data["via"] == "reward":
                seat = data["seat"]
                assert seat in self.order[:2], "only first and second place go to the museum"
                assert data["area"] == self.area
                if self.classic:
                    continue  # 2006 rules: from the general reserve, not from the area
                mine = [
                    i for i, c in enumerate(self.shadow) if c == seat and _area_of(i) == self.area
                ]
                assert mine, "museum reward without an archaeologist in the area"
                self.shadow[mine[0]] = EMPTY
            elif kind == "area_done":
                assert data["area"] == self.area
                for i in range(len(self.shadow)):
                    if _area_of(i) == self.area:
                        self.shadow[i] = EMPTY

    def _ranked(self, data: Any, river: bool) -> None:
        self.area = data["area"]
        self.plots_given = 0
        counts: dict[int, int] = {}
        for i, colour in enumerate(self.shadow):
            inside = i in self.river if river else _area_of(i) == self.area
            if colour != EMPTY and inside:
                counts[colour] = counts.get(colour, 0) + 1
        order = [COLOUR_OF_NAME[entry["colour"]] for entry in data["order"]]
        assert {c: e["count"] for c, e in zip(order, data["order"], strict=True)} == counts
        expected = sorted(counts, key=lambda c: (-counts[c], self.tiebreaks[c]))
        assert order == expected, (order, counts, self.tiebreaks)
        self.order = order

    # ----------------------------------------------------------------- end
    def finish(self, state: MykerinosState) -> None:
        assert state.is_over()
        assert state.campaign == self.campaigns
        assert dict(self.final_actions) == {c: 1 for c in range(1, self.campaigns + 1)}
        assert self.drafted == (2 * self.seats if state.quick else 0)
        assert state.board == [EMPTY] * len(state.board)
        own = [
            state.prestige[s] + exhibition(state.cards[s], state.museum, s)["total"]
            for s in range(self.seats)
        ]
        assert state.individual_scores() == own, "score is not plot points + exhibition"
        if self.team:
            team = [min(own[s], own[(s + 2) % 4]) for s in range(4)]
            assert state.scores() == team, "a team scores its lower member's total"
            reserve = [sum(state.personal[s]) + sum(state.personal[(s + 2) % 4]) for s in range(4)]
            keys = [(team[s], reserve[s]) for s in range(4)]
            assert state.ranking() == [1 + sum(keys[t] > key for t in (0, 1)) for key in keys]
            return
        assert state.scores() == own
        # Every archaeologist in the personal reserve counts, neutral ones too (M-12).
        keys = [(own[s], sum(state.personal[s])) for s in range(self.seats)]
        assert state.ranking() == [1 + sum(k > key for k in keys) for key in keys]


@pytest.mark.parametrize(("seats", "options"), VARIANT_CASES)
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**63 - 1), chooser=st.integers(0, 2**63 - 1))
@pytest.mark.slow
def test_invariants_hold_at_every_step(
    seats: int, options: dict[str, bool], seed: int, chooser: int
) -> None:
    state = MYKERINOS.new_match(seats, options, seed=seed)
    assert isinstance(state, MykerinosState)
    watcher = Watcher(state)
    rng = Rng(chooser)
    for _ in range(5000):
        if state.is_over():
            break
        seat = state.current_seat()
        assert seat is not None
        action = rng.choice(state.legal_actions())
        watcher.before(state, action)
        watcher.events(state.apply(seat, action))
        watcher.observe(state)
    watcher.finish(state)


# ------------------------------------------------------------ explanations
def _random_action(rng: Rng) -> act.MykerinosAction:
    kinds = [*act.PLACEMENT_SIZES, *act.ROOM_KINDS, *act.SIDE_KINDS, *act.BARE_KINDS]
    kind = rng.choice(kinds)
    if kind in act.PLACEMENT_SIZES:
        size = rng.choice(list(act.PLACEMENT_SIZES[kind]))
        spaces = [rng.below(72)]
        while len(spaces) < size:
            nxt = rng.below(72) if rng.below(4) == 0 else spaces[-1] + rng.choice([-8, -1, 1, 8])
            if 0 <= nxt < 72 and nxt not in spaces:
                spaces.append(nxt)
        return act.placement(kind, *spaces)
    if kind in act.ROOM_KINDS:
        return act.MykerinosAction(kind, (), rng.below(20))
    if kind in act.SIDE_KINDS:
        return act.MykerinosAction(kind, (), rng.below(2))
    return act.MykerinosAction(kind)


def _check_explanation(state: MykerinosState, action: act.MykerinosAction, why: str) -> None:
    """Facts an explanation states about the position must be true."""
    seat, board = state.turn, state.board
    space = re.match(r"^([a-h][1-9]) (is occupied|is outside|is a pyramid)", why)
    if space:
        index = parse_space(space.group(1))
        assert index in action.spaces, why
        if space.group(2) == "is occupied":
            assert board[index] != EMPTY, why
        elif space.group(2) == "is outside":
            assert index >= len(board), why
        else:
            assert state.pyramid[index] and board[index] == EMPTY, why
    reserve = re.match(
        r"^this needs (\d) archaeologist\(s\) and your personal reserve has (\d+)", why
    )
    if reserve:
        needed, has = int(reserve.group(1)), int(reserve.group(2))
        colour = state.neutral if state.phase == NEUTRAL_TURN else seat
        assert colour is not None
        bonus = 1 if action.kind == act.HEIRESS else 0
        assert needed == len(action.spaces) > has == state.personal[seat][colour] + bonus, why
    card = re.match(r"^you have no (\w+) card$", why)
    if card:
        assert state.cards[seat][PATRON_NAMES.index(card.group(1))] == 0, why
    used = re.match(r"^your (\w+) card\(s\) are already used", why)
    if used:
        patron = PATRON_NAMES.index(used.group(1))
        assert 0 < state.cards[seat][patron] <= state.used[seat][patron], why
    if action.kind in act.ROOM_KINDS:
        room = action.arg
        if why.endswith("-room is occupied"):
            assert state.museum[room] != EMPTY, why
        if why.startswith("this museum has no"):
            assert room not in ring_rooms(state.wing_order), why
        if why.startswith("you may enter the"):
            entries = five_room_entries(state.wing_order)[room]
            assert state.museum[room] == EMPTY, why
            assert all(state.museum[e] != seat for e in entries), why
    if why.startswith("the general reserve has none"):
        assert state.general[seat] == 0, why
    if why == "nobody has patrons during the first campaign":
        assert state.campaign == 1, why
    if why.startswith("third and fourth places"):
        assert state.rank_index >= 2, why
    if why == "that plot has already been claimed":
        assert action.arg not in state.plots_left, why


@pytest.mark.parametrize("seats", [2, 3, 4])
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**63 - 1), chooser=st.integers(0, 2**63 - 1))
def test_explanations_of_illegal_actions_are_true(seats: int, seed: int, chooser: int) -> None:
    state = MYKERINOS.new_match(seats, seed=seed)
    assert isinstance(state, MykerinosState)
    rng = Rng(chooser)
    while not state.is_over():
        legal = state.legal_actions()
        allowed = set(legal)
        for _ in range(6):
            action = _random_action(rng)
            if action not in allowed:
                why = state.explain_illegal(action)
                assert why and why != action.notation()
                _check_explanation(state, action, why)
        state.apply_unchecked(rng.choice(legal))
