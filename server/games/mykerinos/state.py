"""The Mykerinos state machine: campaigns, excavation, delimitation and final scoring.

One :class:`MykerinosState` is a whole match. Colours are indexed like seats (seat
``s`` plays colour ``s``); in the two-player game the neutral player uses the first
unused colour. Per-colour counts are kept for every archaeologist so that the
invariant *general + personal reserves + region + museum = 25* holds per colour at
every step (the conformance tests check it).

Variants (issue: The Nile, team, quick, classic) are meant to override the hooks
grouped under "variant hooks" below rather than to add branches everywhere.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import partial
from typing import Any

from server.games import validate as v
from server.games.errors import CorruptStateError, GameError, MalformedActionError
from server.games.interface import Event, Game, GameState, JsonDict
from server.games.mykerinos import actions as act
from server.games.mykerinos import placements
from server.games.mykerinos.actions import MykerinosAction
from server.games.mykerinos.museum import (
    ROOM_IDS,
    WINGS,
    five_room_entries,
    parse_room,
    ring_rooms,
    room_label,
    room_name,
    room_patrons,
    room_value,
)
from server.games.mykerinos.patrons import (
    CODE_TO_PATRON,
    PATRON_CODES,
    PATRON_NAMES,
    PATRONS,
    Patron,
)
from server.games.mykerinos.plots import PLOT_CARDS
from server.games.mykerinos.region import RegionShape, parse_space, region_shape, space_name
from server.games.mykerinos.scoring import exhibition
from server.games.rng import Rng

COLOUR_NAMES: tuple[str, ...] = ("blue", "red", "green", "white")
COLOURS = len(COLOUR_NAMES)
ARCHAEOLOGISTS_PER_COLOUR = 25
EMPTY = -1

EXCAVATION = "excavation"
NEUTRAL_TURN = "neutral"
DELIMITATION = "delimitation"
OVER = "over"

AWAIT_REWARD = "reward"
AWAIT_DISCARD = "discard"

_PATRON_OF_KIND: dict[str, Patron] = {
    act.CURATOR: Patron.CURATOR,
    act.COLONEL: Patron.COLONEL,
    act.EXPLORER: Patron.EXPLORER,
    act.HEIRESS: Patron.HEIRESS,
    act.DIRECTOR: Patron.DIRECTOR,
}
_SIDE_NAMES = ("left", "right")


class MykerinosState(GameState):
    """A Mykerinos match in progress (or finished)."""

    # ------------------------------------------------------------------ setup
    def __init__(self, game: Game, seat_count: int, options: JsonDict) -> None:
        self.game = game
        self.seat_count = seat_count
        self.options = dict(options)
        self.rng = Rng(0)
        self.neutral: int | None = 2 if seat_count == 2 else None
        self.wing_order: list[int] = [int(p) for p in PATRONS]
        self.deck: list[int] = []
        self.box: list[int] = []
        self.general = [ARCHAEOLOGISTS_PER_COLOUR] * COLOURS
        self.personal = [[0] * COLOURS for _ in range(seat_count)]
        # Plot cards won, by id (public: everybody saw them taken); ``cards`` is the
        # per-patron count derived from them, kept because move generation reads it.
        self.won: list[list[int]] = [[] for _ in range(seat_count)]
        self.cards = [[0] * len(PATRONS) for _ in range(seat_count)]
        self.used = [[0] * len(PATRONS) for _ in range(seat_count)]
        self.prestige = [0] * seat_count
        self.museum = [EMPTY] * ROOM_IDS
        self.tiebreak = [0] * COLOURS
        self.active = [True] * seat_count
        self.campaign = 0
        self.slots: list[tuple[int, bool]] = []
        self.board: list[int] = []
        self.pyramid: list[bool] = []
        self.shape: RegionShape = region_shape(2)
        self.start_seat = 0
        self.turn = 0
        self.phase = EXCAVATION
        self.final_seat = -1
        # delimitation bookkeeping
        self.area = -1
        self.ranks: list[int] = []
        self.rank_index = 0
        self.plots_left: list[int] = []
        self.awaiting = ""
        self.final: list[dict[str, Any]] | None = None
        self._events: list[Event] | None = None
        self._museum_rooms: tuple[int, ...] = ()
        self._five_entries: dict[int, tuple[int, ...]] = {}

    def setup(self, seed: int) -> None:
        """Lay out a new game from ``seed`` and start the first campaign."""
        self.rng = Rng(seed)
        self.rng.shuffle(self.wing_order)
        self._index_museum()
        self.start_seat = self.rng.below(self.seat_count)
        self.deck = [card.id for card in PLOT_CARDS]
        self.rng.shuffle(self.deck)
        if self.neutral is not None:
            self.tiebreak[self.neutral] = 2
        self._start_campaign()

    def _index_museum(self) -> None:
        self._museum_rooms = ring_rooms(self.wing_order)
        self._five_entries = five_room_entries(self.wing_order)

    # ------------------------------------------------------------ variant hooks
    def campaign_plot_counts(self) -> tuple[int, ...]:
        """Plots dealt per campaign (8 plots = 2 rows of areas, 12 = 3 rows)."""
        return (8, 8, 8, 12)

    def allotment(self) -> int:
        """Archaeologists of your colour taken from the general reserve each campaign."""
        return 8 if self.seat_count == 4 else 11

    def neutral_allotment(self) -> int:
        """Neutral archaeologists each player takes per campaign (two-player game)."""
        return 4

    # ------------------------------------------------------------- campaigns
    def _emit(self, kind: str, **data: Any) -> None:
        if self._events is not None:
            self._events.append(Event(kind, data))

    def _start_campaign(self) -> None:
        self.campaign += 1
        count = self.campaign_plot_counts()[self.campaign - 1]
        self.shape = region_shape(count // 4)
        self.slots = [(self.deck.pop(0), self.rng.chance()) for _ in range(count)]
        self._lay_region()
        self.board = [EMPTY] * self.shape.size
        for offset in range(self.seat_count):
            seat = (self.start_seat + offset) % self.seat_count
            self._draw_from_general(seat, seat, self.allotment())
            if self.neutral is not None:
                self._draw_from_general(seat, self.neutral, self.neutral_allotment())
        self.active = [True] * self.seat_count
        for colour in range(COLOURS):
            if colour != self.neutral:
                self.tiebreak[colour] = 0
        self.used = [[0] * len(PATRONS) for _ in range(self.seat_count)]
        self.phase = EXCAVATION
        self.final_seat = -1
        self.turn = self.start_seat
        self._emit(
            "campaign_started",
            campaign=self.campaign,
            start_seat=self.start_seat,
            region=self._region_view(),
        )

    def _lay_region(self) -> None:
        shape = self.shape
        self.pyramid = [
            PLOT_CARDS[self.slots[shape.slot_of[i]][0]].pyramid_at(
                *shape.cell_of[i], self.slots[shape.slot_of[i]][1]
            )
            for i in range(shape.size)
        ]

    def _draw_from_general(self, seat: int, colour: int, wanted: int) -> None:
        taken = min(wanted, self.general[colour])
        self.general[colour] -= taken
        self.personal[seat][colour] += taken

    # ---------------------------------------------------------------- queries
    def current_seat(self) -> int | None:
        return None if self.phase == OVER else self.turn

    def is_over(self) -> bool:
        return self.phase == OVER

    def has_patron(self, seat: int, patron: int) -> bool:
        """Whether ``seat`` holds an unused card of ``patron`` this campaign."""
        return self.cards[seat][patron] > self.used[seat][patron]

    def museum_rooms_open_to(self, colour: int) -> list[int]:
        """Rooms where ``colour`` may place an archaeologist now (museum rules)."""
        museum = self.museum
        rooms = []
        for room in self._museum_rooms:
            if museum[room] != EMPTY:
                continue
            if room_value(room) == 5 and not any(
                museum[entry] == colour for entry in self._five_entries[room]
            ):
                continue
            rooms.append(room)
        return rooms

    def _free_spaces(self, colour: int) -> tuple[set[int], set[int]]:
        """(free normal spaces, open pyramids) for ``colour``."""
        board, pyramid = self.board, self.pyramid
        free: set[int] = set()
        pyramids: set[int] = set()
        for i in range(self.shape.size):
            if board[i] == EMPTY:
                (pyramids if pyramid[i] else free).add(i)
        return free, pyramids

    def legal_actions(self) -> list[MykerinosAction]:  # type: ignore[override]
        if self.phase == EXCAVATION:
            return self._excavation_actions(self.turn)
        if self.phase == NEUTRAL_TURN:
            return self._neutral_actions(self.turn)
        if self.phase == DELIMITATION:
            if self.awaiting == AWAIT_DISCARD:
                return [MykerinosAction(act.DISCARD, (), side) for side in self.plots_left]
            return self._reward_options(self.turn, self.rank_index)
        return []

    def _excavation_actions(self, seat: int) -> list[MykerinosAction]:
        colour = seat
        own = self.personal[seat][colour]
        neighbours = self.shape.neighbours
        free, pyramids = self._free_spaces(colour)
        out: list[MykerinosAction] = []
        expand_pairs: list[tuple[int, ...]] | None = None
        own_frontier = placements.frontier(self.board, colour, neighbours, free)
        if own >= 1:
            out += [MykerinosAction(act.START, s) for s in placements.singles(free)]
        if own >= 2:
            expand_pairs = placements.expansions(own_frontier, free, neighbours, 2)
            out += [MykerinosAction(act.EXPAND, s) for s in expand_pairs]
        if self.campaign >= 2:
            if own >= 2 and self.has_patron(seat, Patron.CURATOR):
                pairs = placements.adjacent_pairs(free, neighbours)
                out += [MykerinosAction(act.CURATOR, s) for s in pairs]
            if own >= 3 and self.has_patron(seat, Patron.COLONEL):
                triples = placements.expansions(own_frontier, free, neighbours, 3)
                out += [MykerinosAction(act.COLONEL, s) for s in triples]
            if own >= 1 and self.has_patron(seat, Patron.EXPLORER):
                out += [MykerinosAction(act.EXPLORER, s) for s in placements.singles(pyramids)]
                if own >= 2:
                    pyramid_frontier = placements.frontier(self.board, colour, neighbours, pyramids)
                    out += [
                        MykerinosAction(act.EXPLORER, s)
                        for s in placements.explorer_expansions(
                            own_frontier, pyramid_frontier, free, pyramids, neighbours
                        )
                    ]
            if self.general[colour] >= 1 and self.has_patron(seat, Patron.HEIRESS):
                out += [MykerinosAction(act.HEIRESS, s) for s in placements.singles(free)]
                if own + 1 >= 2:
                    if expand_pairs is None:
                        expand_pairs = placements.expansions(own_frontier, free, neighbours, 2)
                    out += [MykerinosAction(act.HEIRESS, s) for s in expand_pairs]
            if own >= 1 and self.has_patron(seat, Patron.DIRECTOR):
                out += [
                    MykerinosAction(act.DIRECTOR, (), room)
                    for room in self.museum_rooms_open_to(colour)
                ]
        out.append(MykerinosAction(act.PASS))
        return out

    def _neutral_actions(self, seat: int) -> list[MykerinosAction]:
        neutral = self.neutral
        assert neutral is not None  # only reachable in the two-player game
        count = self.personal[seat][neutral]
        free, _ = self._free_spaces(neutral)
        out: list[MykerinosAction] = []
        if count >= 1:
            out += [MykerinosAction(act.NEUTRAL_START, s) for s in placements.singles(free)]
        if count >= 2:
            starts = placements.frontier(self.board, neutral, self.shape.neighbours, free)
            pairs = placements.expansions(starts, free, self.shape.neighbours, 2)
            out += [MykerinosAction(act.NEUTRAL_EXPAND, s) for s in pairs]
        out.append(MykerinosAction(act.NEUTRAL_SKIP))
        return out

    def _reward_options(self, colour: int, rank_index: int) -> list[MykerinosAction]:
        out = [MykerinosAction(act.TAKE, (), side) for side in self.plots_left]
        if rank_index < 2:
            out += [
                MykerinosAction(act.MUSEUM, (), room) for room in self.museum_rooms_open_to(colour)
            ]
        return out

    # ------------------------------------------------------------ transitions
    def coerce_action(self, action: object) -> MykerinosAction:
        """Accept notation, or a (kind, spaces, arg) value, and return it canonical.

        Values are normalized through their notation, so a hand-built value with
        unsorted spaces, an unknown kind or out-of-range numbers is treated exactly
        like the text a client could have typed.
        """
        if isinstance(action, str):
            return act.parse_action(action)
        if isinstance(action, tuple) and len(action) == 3:
            kind, spaces, arg = action
            if (
                isinstance(kind, str)
                and isinstance(spaces, tuple)
                and all(type(s) is int for s in spaces)
                and type(arg) is int
            ):
                try:
                    text = MykerinosAction(kind, spaces, arg).notation()
                except (IndexError, ValueError):
                    text = ""
                if text:
                    parsed: MykerinosAction = act.parse_action(text)
                    if tuple(parsed) == (kind, tuple(sorted(spaces)), arg):
                        return parsed
        raise MalformedActionError(f"not a Mykerinos action: {action!r}")

    def _apply(self, action: Any, events: list[Event] | None) -> None:
        self._events = events
        try:
            self._dispatch(action)
        finally:
            self._events = None

    def _dispatch(self, action: MykerinosAction) -> None:
        kind = action.kind
        seat = self.turn
        if self.phase == DELIMITATION:
            self._apply_reward(action)
            self._continue_area()
            return
        if kind == act.PASS:
            self._pass(seat)
            return
        if self.phase == NEUTRAL_TURN:
            if kind != act.NEUTRAL_SKIP:
                assert self.neutral is not None
                self._place(seat, self.neutral, action.spaces, kind)
            self._end_turn(seat)
            return
        patron = _PATRON_OF_KIND.get(kind)
        if patron is not None:
            self.used[seat][patron] += 1
        if kind == act.DIRECTOR:
            self.personal[seat][seat] -= 1
            self.museum[action.arg] = seat
            self._emit("museum_placed", seat=seat, room=room_name(action.arg), via="dir")
        else:
            if kind == act.HEIRESS:
                self.general[seat] -= 1
                self.personal[seat][seat] += 1
            self._place(seat, seat, action.spaces, kind)
        if self.neutral is not None and len(self._neutral_actions(seat)) > 1:
            self.phase = NEUTRAL_TURN
            return
        self._end_turn(seat)

    def _place(self, seat: int, colour: int, spaces: tuple[int, ...], kind: str) -> None:
        self.personal[seat][colour] -= len(spaces)
        for space in spaces:
            self.board[space] = colour
        self._emit(
            "placed",
            seat=seat,
            colour=COLOUR_NAMES[colour],
            action=kind,
            spaces=[space_name(s) for s in spaces],
        )

    def _pass(self, seat: int, automatic: bool = False) -> None:
        taken = {self.tiebreak[c] for c in range(COLOURS) if self.tiebreak[c]}
        space = 1
        while space in taken:
            space += 1
        self.tiebreak[seat] = space
        self.active[seat] = False
        self._emit("passed", seat=seat, tiebreak_space=space, automatic=automatic)
        self._advance(seat)

    def _end_turn(self, seat: int) -> None:
        if self.final_seat == seat:
            # The last active player had exactly one more action; now they must pass.
            self._pass(seat, automatic=True)
        else:
            self._advance(seat)

    def _advance(self, seat: int) -> None:
        self.phase = EXCAVATION
        remaining = sum(self.active)
        if remaining == 0:
            self._start_delimitation()
            return
        nxt = (seat + 1) % self.seat_count
        while not self.active[nxt]:
            nxt = (nxt + 1) % self.seat_count
        if remaining == 1 and self.final_seat != nxt:
            self.final_seat = nxt
            self._emit("final_action", seat=nxt)
        self.turn = nxt

    # ----------------------------------------------------------- delimitation
    def _start_delimitation(self) -> None:
        self.phase = DELIMITATION
        self.area = -1
        self._next_area()

    def _next_area(self) -> None:
        self.area += 1
        if self.area >= self.shape.areas:
            self._end_campaign()
            return
        counts = [0] * COLOURS
        for space in self.shape.area_spaces[self.area]:
            occupant = self.board[space]
            if occupant != EMPTY:
                counts[occupant] += 1
        self.ranks = sorted(
            (c for c in range(COLOURS) if counts[c] > 0),
            key=lambda c: (-counts[c], self.tiebreak[c]),
        )
        self.rank_index = 0
        self.plots_left = [0, 1]
        self._emit(
            "area_ranked",
            area=self.area,
            order=[
                {"colour": COLOUR_NAMES[c], "seat": self._seat_of(c), "count": counts[c]}
                for c in self.ranks
            ],
        )
        if self.neutral is not None and self.ranks == [self.neutral]:
            # Only neutral archaeologists here: both plots are discarded.
            for side in list(self.plots_left):
                self._discard(side, None)
        self._continue_area()

    def _seat_of(self, colour: int) -> int | None:
        return None if colour == self.neutral else colour

    def _continue_area(self) -> None:
        """Hand out the area's rewards in rank order until a seat must choose."""
        while self.rank_index < len(self.ranks):
            colour = self.ranks[self.rank_index]
            if colour == self.neutral:
                if not self.plots_left:
                    self.rank_index += 1
                    continue
                chooser = self._neutral_discard_chooser()
                if len(self.plots_left) == 1 or chooser is None:
                    self._discard(self.plots_left[0], None)
                    self.rank_index += 1
                    continue
                self.awaiting = AWAIT_DISCARD
                self.turn = chooser
                return
            options = self._reward_options(colour, self.rank_index)
            if not options:
                self.rank_index += 1
                continue
            self.awaiting = AWAIT_REWARD
            self.turn = colour
            if len(options) == 1:
                # A single possible reward needs no decision: hand it out.
                self._apply_reward(options[0], automatic=True)
                continue
            return
        self._finish_area()

    def _neutral_discard_chooser(self) -> int | None:
        """Who picks the plot the neutral player discards when two remain.

        Neutral first: the player in third place (ruling M-6: with only one player
        present, the other player). Neutral second: the player in first place.
        Neutral third: both players went to the museum and nobody follows, so the
        choice changes nothing (None).
        """
        if self.rank_index == 0:
            if len(self.ranks) >= 3:
                return self.ranks[2]
            second = self.ranks[1]
            return next(s for s in range(self.seat_count) if s != second)
        if self.rank_index == 1:
            return self.ranks[0]
        return None

    def _apply_reward(self, action: MykerinosAction, automatic: bool = False) -> None:
        seat = self.turn
        if action.kind == act.DISCARD:
            self._discard(action.arg, seat)
        elif action.kind == act.TAKE:
            self._take(seat, action.arg, automatic)
        else:
            self._museum_from_area(seat, action.arg)
        self.rank_index += 1
        self.awaiting = ""

    def _take(self, seat: int, side: int, automatic: bool) -> None:
        self.plots_left.remove(side)
        card = PLOT_CARDS[self.slots[2 * self.area + side][0]]
        self.prestige[seat] += card.points
        if card.patron is None:
            self.box.append(card.id)
        else:
            self.cards[seat][card.patron] += 1
            self.won[seat].append(card.id)
        self._emit(
            "plot_taken",
            seat=seat,
            area=self.area,
            side=_SIDE_NAMES[side],
            card=card.id,
            patron=None if card.patron is None else PATRON_CODES[card.patron],
            points=card.points,
            automatic=automatic,
        )

    def _discard(self, side: int, chosen_by: int | None) -> None:
        self.plots_left.remove(side)
        card_id = self.slots[2 * self.area + side][0]
        self.box.append(card_id)
        self._emit(
            "plot_discarded",
            area=self.area,
            side=_SIDE_NAMES[side],
            card=card_id,
            chosen_by=chosen_by,
        )

    def _museum_from_area(self, seat: int, room: int) -> None:
        for space in self.shape.area_spaces[self.area]:
            if self.board[space] == seat:
                self.board[space] = EMPTY
                break
        self.museum[room] = seat
        self._emit("museum_placed", seat=seat, room=room_name(room), via="reward", area=self.area)

    def _finish_area(self) -> None:
        for side in list(self.plots_left):
            self._discard(side, None)  # unclaimed: back to the box
        for space in self.shape.area_spaces[self.area]:
            occupant = self.board[space]
            if occupant != EMPTY:
                self.general[occupant] += 1
                self.board[space] = EMPTY
        self._emit("area_done", area=self.area)
        self._next_area()

    def _end_campaign(self) -> None:
        players = range(self.seat_count)
        self.start_seat = max(players, key=lambda s: self.tiebreak[s])
        self._emit("campaign_ended", campaign=self.campaign, next_start_seat=self.start_seat)
        if self.campaign >= len(self.campaign_plot_counts()):
            self._finish_game()
        else:
            self._start_campaign()

    def _finish_game(self) -> None:
        self.phase = OVER
        self.final = []
        for seat in range(self.seat_count):
            breakdown = exhibition(self.cards[seat], self.museum, seat)
            breakdown["plot_points"] = self.prestige[seat]
            breakdown["total"] = breakdown["total"] + self.prestige[seat]
            breakdown["reserve"] = self.personal[seat][seat]
            self.final.append(breakdown)
        self._emit("game_over", scores=self.scores(), ranking=self.ranking())

    # ---------------------------------------------------------------- results
    def scores(self) -> list[int]:
        if self.final is not None:
            return [int(entry["total"]) for entry in self.final]
        return list(self.prestige)

    def ranking(self) -> list[int]:
        """Places by score, then by archaeologists left in your personal reserve."""
        keys = [(score, self.personal[s][s]) for s, score in enumerate(self.scores())]
        return [1 + sum(1 for other in keys if other > key) for key in keys]

    # ----------------------------------------------------------------- labels
    def describe(self, action: Any) -> str:
        a: MykerinosAction = self.coerce_action(action)
        spaces = ", ".join(space_name(s) for s in a.spaces)
        kind = a.kind
        if kind == act.START:
            return f"Start an excavation at {spaces}"
        if kind == act.EXPAND:
            return f"Expand an excavation onto {spaces}"
        if kind == act.CURATOR:
            return f"Curator: start an excavation with two archaeologists on {spaces}"
        if kind == act.COLONEL:
            return f"Colonel: expand with three archaeologists onto {spaces}"
        if kind == act.EXPLORER:
            verb = "start an excavation on the pyramid" if len(a.spaces) == 1 else "expand onto"
            return f"Explorer: {verb} {spaces}"
        if kind == act.HEIRESS:
            verb = "start an excavation at" if len(a.spaces) == 1 else "expand onto"
            return f"Heiress: take one archaeologist from the general reserve, then {verb} {spaces}"
        if kind == act.DIRECTOR:
            return f"Director: place an archaeologist in the museum, {room_label(a.arg)}"
        if kind == act.PASS:
            return "Pass (out of this campaign)"
        if kind == act.NEUTRAL_START:
            return f"Neutral player: start an excavation at {spaces}"
        if kind == act.NEUTRAL_EXPAND:
            return f"Neutral player: expand onto {spaces}"
        if kind == act.NEUTRAL_SKIP:
            return "No action for the neutral player"
        if kind in (act.TAKE, act.DISCARD) and self.phase == DELIMITATION:
            card = PLOT_CARDS[self.slots[2 * self.area + a.arg][0]]
            patron = "no patron" if card.patron is None else PATRON_NAMES[card.patron]
            what = f"the {_SIDE_NAMES[a.arg]} plot ({patron}, {card.points} points)"
            if kind == act.TAKE:
                return f"Take {what}"
            return f"The neutral player discards {what}"
        if kind == act.TAKE:
            return f"Take the {_SIDE_NAMES[a.arg]} plot of the area being scored"
        if kind == act.DISCARD:
            return f"The neutral player discards the {_SIDE_NAMES[a.arg]} plot"
        if kind == act.MUSEUM:
            return (
                f"Send one of your archaeologists of this area to the museum, {room_label(a.arg)}"
            )
        return a.notation()

    def explain_illegal(self, action: Any) -> str:
        a: MykerinosAction = self.coerce_action(action)
        seat, kind = self.turn, a.kind
        if self.phase == DELIMITATION:
            if self.awaiting == AWAIT_DISCARD:
                return "choose which plot the neutral player discards: discard l or discard r"
            if kind == act.TAKE:
                return "that plot has already been claimed"
            if kind == act.MUSEUM:
                if self.rank_index >= 2:
                    return "third and fourth places may never choose the museum"
                return self._why_not_room(seat, a.arg)
            return "delimitation: choose a reward (take l, take r or mus ROOM)"
        if self.phase == NEUTRAL_TURN:
            if kind not in (act.NEUTRAL_START, act.NEUTRAL_EXPAND, act.NEUTRAL_SKIP):
                return "you may now act for the neutral player (na, nb) or skip (nskip)"
            assert self.neutral is not None
            return self._why_not_placement(seat, self.neutral, a, self.personal[seat][self.neutral])
        if kind in (act.NEUTRAL_START, act.NEUTRAL_EXPAND, act.NEUTRAL_SKIP):
            return "the neutral player acts only after your own action, in the two-player game"
        if kind in (act.TAKE, act.MUSEUM, act.DISCARD):
            return "rewards are chosen during delimitation, after everybody has passed"
        patron = _PATRON_OF_KIND.get(kind)
        if patron is not None:
            if self.campaign < 2:
                return "nobody has patrons during the first campaign"
            if not self.has_patron(seat, patron):
                held = self.cards[seat][patron]
                if held == 0:
                    return f"you have no {PATRON_NAMES[patron]} card"
                return f"your {PATRON_NAMES[patron]} card(s) are already used this campaign"
        own = self.personal[seat][seat]
        if kind == act.DIRECTOR:
            if own < 1:
                return "you have no archaeologist in your personal reserve"
            return self._why_not_room(seat, a.arg)
        if kind == act.HEIRESS:
            if self.general[seat] < 1:
                return "the general reserve has none of your archaeologists left"
            own += 1
        return self._why_not_placement(seat, seat, a, own)

    def _why_not_room(self, colour: int, room: int) -> str:
        if room not in self._museum_rooms:
            return f"this museum has no {room_label(room)} (those wings are not neighbours)"
        if self.museum[room] != EMPTY:
            return f"the {room_label(room)} is occupied"
        if room_value(room) == 5:
            return (
                f"you may enter the {room_label(room)} only from your archaeologist in a "
                "neighbouring 2- or 3-room"
            )
        return "that room is not available"

    def _why_not_placement(self, seat: int, colour: int, a: MykerinosAction, available: int) -> str:
        spaces = a.spaces
        if available < len(spaces):
            return (
                f"this needs {len(spaces)} archaeologist(s) and your personal reserve "
                f"has {available}"
            )
        for space in spaces:
            if space >= self.shape.size:
                return f"{space_name(space)} is outside this campaign's region"
            if self.board[space] != EMPTY:
                return f"{space_name(space)} is occupied"
        on_pyramids = sum(self.pyramid[s] for s in spaces)
        if a.kind == act.EXPLORER:
            if on_pyramids != 1:
                return "the Explorer places exactly one archaeologist on a pyramid"
        elif on_pyramids:
            first = next(s for s in spaces if self.pyramid[s])
            return f"{space_name(first)} is a pyramid (only the Explorer may dig there)"
        if a.kind in (act.START, act.NEUTRAL_START, act.CURATOR) or len(spaces) == 1:
            return "those spaces must be adjacent to each other"
        return (
            "an expansion starts next to one of your archaeologists and each next "
            "archaeologist goes next to the one placed before it"
        )

    # ------------------------------------------------------------------ views
    def _region_view(self) -> JsonDict:
        plots = []
        for slot, (card_id, rotated) in enumerate(self.slots):
            card = PLOT_CARDS[card_id]
            plots.append(
                {
                    "slot": slot,
                    "area": slot // 2,
                    "side": _SIDE_NAMES[slot % 2],
                    "card": card_id,
                    "patron": None if card.patron is None else PATRON_CODES[card.patron],
                    "points": card.points,
                    "rotated": rotated,
                }
            )
        return {
            "columns": 8,
            "rows": self.shape.rows,
            "plots": plots,
            "pyramids": [space_name(i) for i in range(self.shape.size) if self.pyramid[i]],
        }

    def view(self, seat: int | None) -> JsonDict:
        """Everything but the plot deck (its order and which plots come later)."""
        occupied = {space_name(i): COLOUR_NAMES[c] for i, c in enumerate(self.board) if c != EMPTY}
        players = []
        for s in range(self.seat_count):
            players.append(
                {
                    "seat": s,
                    "colour": COLOUR_NAMES[s],
                    "prestige": self.prestige[s],
                    "reserve": {COLOUR_NAMES[c]: n for c, n in enumerate(self.personal[s]) if n},
                    "patrons": {
                        PATRON_CODES[p]: {"cards": self.cards[s][p], "used": self.used[s][p]}
                        for p in PATRONS
                    },
                    "plots_won": sorted(self.won[s]),
                    "active": self.active[s] and self.phase in (EXCAVATION, NEUTRAL_TURN),
                    "tiebreak_space": self.tiebreak[s] or None,
                }
            )
        view: JsonDict = {
            "game": "mykerinos",
            "viewer": seat,
            "seats": self.seat_count,
            "options": dict(self.options),
            "phase": self.phase,
            "campaign": self.campaign,
            "campaigns": len(self.campaign_plot_counts()),
            "current_seat": self.current_seat(),
            "start_seat": self.start_seat,
            "final_action_seat": self.final_seat
            if self.final_seat >= 0 and self.phase in (EXCAVATION, NEUTRAL_TURN)
            else None,
            "neutral_colour": None if self.neutral is None else COLOUR_NAMES[self.neutral],
            "region": self._region_view(),
            "occupied": occupied,
            "museum": {
                "wings": [PATRON_CODES[p] for p in self.wing_order],
                "rooms": [
                    {
                        "room": room_name(r),
                        "value": room_value(r),
                        "patrons": [PATRON_CODES[p] for p in room_patrons(r)],
                        "occupant": None
                        if self.museum[r] == EMPTY
                        else COLOUR_NAMES[self.museum[r]],
                    }
                    for r in self._museum_rooms
                ],
            },
            "general_reserve": {COLOUR_NAMES[c]: n for c, n in enumerate(self.general)},
            "tiebreak": {
                COLOUR_NAMES[c]: self.tiebreak[c] for c in range(COLOURS) if self.tiebreak[c]
            },
            "players": players,
            "deck_size": len(self.deck),
            "box": sorted(self.box),
            "scores": self.scores(),
        }
        if self.phase == DELIMITATION:
            view["delimitation"] = {
                "area": self.area,
                "order": [COLOUR_NAMES[c] for c in self.ranks],
                "rank_index": self.rank_index,
                "plots_left": [_SIDE_NAMES[s] for s in self.plots_left],
                "awaiting": self.awaiting,
            }
        if self.final is not None:
            view["final"] = copy.deepcopy(self.final)
            view["ranking"] = self.ranking()
        return view

    def determinize(self, seat: int | None, seed: int) -> MykerinosState:
        """Resample the hidden part (the deck order and future plot rotations)."""
        twin = self.clone()
        sampler = Rng(seed)
        sampler.shuffle(twin.deck)
        twin.rng = Rng(sampler.next_u64())
        return twin

    # ---------------------------------------------------------- serialization
    #: Per-seat tables (lists of lists) and flat lists: what to_data and clone copy.
    _TABLE_FIELDS = ("personal", "used", "won")
    _FLAT_FIELDS = (
        "wing_order",
        "deck",
        "box",
        "general",
        "prestige",
        "museum",
        "tiebreak",
        "active",
        "board",
        "ranks",
        "plots_left",
    )
    _SCALAR_FIELDS = (
        "campaign",
        "start_seat",
        "turn",
        "phase",
        "final_seat",
        "area",
        "rank_index",
        "awaiting",
    )

    def to_data(self) -> JsonDict:
        data: JsonDict = {
            "game": "mykerinos",
            "seats": self.seat_count,
            "options": dict(self.options),
            "rng": self.rng.state,
            "slots": [[card, rotated] for card, rotated in self.slots],
            "final": copy.deepcopy(self.final),
        }
        for name in self._FLAT_FIELDS:
            data[name] = list(getattr(self, name))
        for name in self._TABLE_FIELDS:
            data[name] = [list(row) for row in getattr(self, name)]
        for name in self._SCALAR_FIELDS:
            data[name] = getattr(self, name)
        return data

    @classmethod
    def from_data(cls, game: Game, data: Mapping[str, Any]) -> MykerinosState:
        """Rebuild a state from :meth:`to_data` output, checking every field.

        Raises:
            CorruptStateError: a field is missing, mistyped, out of range or
                inconsistent with the others.
        """
        f = partial(v.field, data)
        info = game.info
        seats = v.integer(f("seats"), "seats", info.min_seats, info.max_seats)
        options = f("options")
        try:
            if not isinstance(options, dict) or game.normalize_options(seats, options) != options:
                raise CorruptStateError(f"options {options!r} are not normalized options")
        except GameError as exc:
            raise CorruptStateError(f"bad options: {exc}") from exc
        state = cls(game, seats, options)
        state.rng = Rng(v.integer(f("rng"), "rng", 0, (1 << 64) - 1))
        cards = len(PLOT_CARDS)
        raw_slots = f("slots")
        if not isinstance(raw_slots, list) or len(raw_slots) not in state.campaign_plot_counts():
            raise CorruptStateError("slots must list the plots of one campaign")
        state.slots = []
        for i, slot in enumerate(raw_slots):
            if not isinstance(slot, list) or len(slot) != 2:
                raise CorruptStateError(f"slots[{i}] must be [card, rotated]")
            state.slots.append(
                (v.integer(slot[0], "slot card", 0, cards - 1), v.boolean(slot[1], "rotated"))
            )
        state.shape = region_shape(len(state.slots) // 4)
        state.wing_order = v.int_list(f("wing_order"), "wing_order", 0, WINGS - 1, WINGS, True)
        state.deck = v.int_list(f("deck"), "deck", 0, cards - 1, unique=True)
        state.box = v.int_list(f("box"), "box", 0, cards - 1, unique=True)
        dealt = [card for card, _ in state.slots]
        won = [card for row in state.won for card in row]
        if (
            len(set(dealt)) != len(dealt)
            or len(set(won)) != len(won)
            or set(state.deck) & {*state.box, *dealt, *won}
            or set(state.box) & set(won)
        ):
            raise CorruptStateError("a plot card is in two places at once")
        total = ARCHAEOLOGISTS_PER_COLOUR
        state.general = v.int_list(f("general"), "general", 0, total, COLOURS)
        state.personal = v.int_table(f("personal"), "personal", seats, COLOURS, 0, total)
        state.won = _won_from(f("won"), seats)
        state.cards = _count_patrons(state.won)
        state.used = v.int_table(f("used"), "used", seats, len(PATRONS), 0, cards)
        state.prestige = v.int_list(f("prestige"), "prestige", 0, 10 * cards, seats)
        state.museum = v.int_list(f("museum"), "museum", EMPTY, COLOURS - 1, ROOM_IDS)
        state.tiebreak = v.int_list(f("tiebreak"), "tiebreak", 0, COLOURS + 1, COLOURS)
        state.active = v.bool_list(f("active"), "active", seats)
        state.board = v.int_list(f("board"), "board", EMPTY, COLOURS - 1, state.shape.size)
        state.ranks = v.int_list(f("ranks"), "ranks", 0, COLOURS - 1, unique=True)
        state.plots_left = v.int_list(f("plots_left"), "plots_left", 0, 1, unique=True)
        state.campaign = v.integer(f("campaign"), "campaign", 1, len(state.campaign_plot_counts()))
        state.start_seat = v.integer(f("start_seat"), "start_seat", 0, seats - 1)
        state.turn = v.integer(f("turn"), "turn", 0, seats - 1)
        state.phase = v.choice(f("phase"), "phase", (EXCAVATION, NEUTRAL_TURN, DELIMITATION, OVER))
        state.final_seat = v.integer(f("final_seat"), "final_seat", -1, seats - 1)
        state.area = v.integer(f("area"), "area", -1, state.shape.areas)
        state.rank_index = v.integer(f("rank_index"), "rank_index", 0, COLOURS)
        state.awaiting = v.choice(f("awaiting"), "awaiting", ("", AWAIT_REWARD, AWAIT_DISCARD))
        final = f("final")
        if final is not None and (
            state.phase != OVER
            or not isinstance(final, list)
            or len(final) != seats
            or not all(isinstance(e, dict) and type(e.get("total")) is int for e in final)
        ):
            raise CorruptStateError("final scores must be a list of breakdowns, once over")
        if state.phase == OVER and final is None:
            raise CorruptStateError("a finished match must carry its final scores")
        state.final = copy.deepcopy(final)
        if sorted(state.wing_order) != list(range(WINGS)):
            raise CorruptStateError("wing order is not a permutation of the five patrons")
        if any(
            u > c
            for row_u, row_c in zip(state.used, state.cards, strict=True)
            for u, c in zip(row_u, row_c, strict=True)
        ):
            raise CorruptStateError("a patron is used more often than it is held")
        for colour in range(COLOURS):
            held = sum(row[colour] for row in state.personal)
            placed = state.board.count(colour) + state.museum.count(colour)
            if state.general[colour] + held + placed != total:
                raise CorruptStateError(f"{COLOUR_NAMES[colour]} archaeologists do not add up")
        state._index_museum()
        state._lay_region()
        return state

    @classmethod
    def from_view(cls, game: Game, view: Mapping[str, Any], seed: int) -> MykerinosState:
        """A state whose view equals ``view``; the deck's order is sampled from ``seed``.

        The deck holds exactly the plots no view shows (not in the region, the box
        or anybody's won plots), in a random order.

        Raises:
            CorruptStateError: the view is not one this class produced.
        """
        try:
            return cls._from_view(game, view, seed)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise CorruptStateError(f"not a Mykerinos view: {exc}") from exc

    @classmethod
    def _from_view(cls, game: Game, view: Mapping[str, Any], seed: int) -> MykerinosState:
        colour = {name: i for i, name in enumerate(COLOUR_NAMES)}
        side = {name: i for i, name in enumerate(_SIDE_NAMES)}
        seats = int(view["seats"])
        data: JsonDict = {
            "game": "mykerinos",
            "seats": seats,
            "options": dict(view["options"]),
            "slots": [[p["card"], p["rotated"]] for p in view["region"]["plots"]],
            "wing_order": [int(CODE_TO_PATRON[code]) for code in view["museum"]["wings"]],
            "box": list(view["box"]),
            "general": [view["general_reserve"][name] for name in COLOUR_NAMES],
            "personal": [
                [p["reserve"].get(name, 0) for name in COLOUR_NAMES] for p in view["players"]
            ],
            "used": [
                [p["patrons"][PATRON_CODES[q]]["used"] for q in PATRONS] for p in view["players"]
            ],
            "won": [list(p["plots_won"]) for p in view["players"]],
            "prestige": [p["prestige"] for p in view["players"]],
            "museum": [EMPTY] * ROOM_IDS,
            "tiebreak": [view["tiebreak"].get(name, 0) for name in COLOUR_NAMES],
            "active": [bool(p["active"]) for p in view["players"]],
            "campaign": view["campaign"],
            "start_seat": view["start_seat"],
            "turn": view["current_seat"] if view["current_seat"] is not None else 0,
            "phase": view["phase"],
            "final_seat": -1 if view["final_action_seat"] is None else view["final_action_seat"],
            "area": -1,
            "ranks": [],
            "rank_index": 0,
            "plots_left": [],
            "awaiting": "",
            "final": view.get("final"),
        }
        for room in view["museum"]["rooms"]:
            if room["occupant"] is not None:
                data["museum"][parse_room(room["room"])] = colour[room["occupant"]]
        size = view["region"]["rows"] * 8
        board = [EMPTY] * size
        for name, who in view["occupied"].items():
            board[parse_space(name)] = colour[who]
        data["board"] = board
        if "delimitation" in view:
            d = view["delimitation"]
            data["area"] = d["area"]
            data["ranks"] = [colour[c] for c in d["order"]]
            data["rank_index"] = d["rank_index"]
            data["plots_left"] = [side[x] for x in d["plots_left"]]
            data["awaiting"] = d["awaiting"]
        shown = {
            *data["box"],
            *(c for row in data["won"] for c in row),
            *(s[0] for s in data["slots"]),
        }
        deck = [card.id for card in PLOT_CARDS if card.id not in shown]
        if len(deck) != view["deck_size"]:
            raise ValueError(f"{len(deck)} unseen plots but the deck holds {view['deck_size']}")
        sampler = Rng(seed)
        sampler.shuffle(deck)
        data["deck"] = deck
        data["rng"] = sampler.next_u64()
        return cls.from_data(game, data)

    def clone(self) -> MykerinosState:
        twin = object.__new__(MykerinosState)
        twin.__dict__.update(self.__dict__)
        twin.rng = Rng(self.rng.state)
        twin.options = dict(self.options)
        for name in self._FLAT_FIELDS:
            setattr(twin, name, list(getattr(self, name)))
        for name in self._TABLE_FIELDS:
            setattr(twin, name, [list(row) for row in getattr(self, name)])
        twin.slots = list(self.slots)
        twin.cards = [list(row) for row in self.cards]
        return twin

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MykerinosState) and self.to_data() == other.to_data()

    __hash__ = None  # type: ignore[assignment]


def _won_from(value: Any, seats: int) -> list[list[int]]:
    if not isinstance(value, list) or len(value) != seats:
        raise CorruptStateError(f"won must list the plots of {seats} seats")
    rows = [
        v.int_list(row, f"won[{i}]", 0, len(PLOT_CARDS) - 1, unique=True)
        for i, row in enumerate(value)
    ]
    for row in rows:
        if any(PLOT_CARDS[card].patron is None for card in row):
            raise CorruptStateError("the plot without a patron is never kept")
    return rows


def _count_patrons(won: list[list[int]]) -> list[list[int]]:
    counts = [[0] * len(PATRONS) for _ in won]
    for seat, row in enumerate(won):
        for card in row:
            patron = PLOT_CARDS[card].patron
            assert patron is not None
            counts[seat][patron] += 1
    return counts
