"""The Mykerinos state machine: campaigns, excavation, delimitation and final scoring.

One :class:`MykerinosState` is a whole match. Colours are indexed like seats (seat
``s`` plays colour ``s``); in the two-player game the neutral player uses the first
unused colour. Per-colour counts are kept for every archaeologist so that the
invariant *general + personal reserves + region + museum = 25* holds per colour at
every step (the conformance tests check it).

Variants are match options: ``quick`` (three campaigns after a patron draft),
``team`` (four players in two teams), ``classic`` (the 2006 rules) and ``nile``
(The Nile expansion: river spaces, the Governor and its blocking tokens, Nile
cards). Their differences live in the hooks grouped under "variant hooks" and in
small, named branches; ``docs/rules/mykerinos.md`` lists every ruling.

Beside this module: ``constants`` (colours, phases), ``labels`` (what an
action does and why one is refused) and ``snapshot`` (the declaration of every
attribute, from which clone and snapshots are built, and rebuilding a state).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from senet.games.errors import MalformedActionError
from senet.games.interface import Event, Game, GameState, JsonDict
from senet.games.mykerinos import actions as act
from senet.games.mykerinos import labels, nile, placements, snapshot
from senet.games.mykerinos.actions import MykerinosAction
from senet.games.mykerinos.constants import (
    ARCHAEOLOGISTS_PER_COLOUR,
    AWAIT_DISCARD,
    AWAIT_REWARD,
    AWAIT_TIE,
    BLOCKING,
    BLOCKING_TOKENS,
    COLOUR_NAMES,
    COLOURS,
    DELIMITATION,
    DIGGING,
    DRAFT,
    DRAFT_ROW,
    EMPTY,
    EXCAVATION,
    NEUTRAL_TURN,
    OVER,
    PATRON_OF_KIND,
    PHASES,
    SIDE_NAMES,
    TEAM_MATE,
    TEAM_OWN,
)
from senet.games.mykerinos.museum import (
    ROOM_IDS,
    five_room_entries,
    ring_rooms,
    room_name,
    room_patrons,
    room_value,
)
from senet.games.mykerinos.patrons import (
    ALL_PATRONS,
    PATRON_CODES,
    PATRONS,
    Patron,
    patron_names,
)
from senet.games.mykerinos.plots import PLOT_CARDS
from senet.games.mykerinos.region import SPACE_NAMES, RegionShape, region_shape, space_name
from senet.games.mykerinos.scoring import exhibition
from senet.games.mykerinos.snapshot import FIELDS, neutral_deck_order
from senet.games.rng import Rng
from senet.games.view_parts import ABSENT, PartBuilder, build_view, requested

__all__ = [
    "ARCHAEOLOGISTS_PER_COLOUR",
    "AWAIT_DISCARD",
    "AWAIT_REWARD",
    "AWAIT_TIE",
    "BLOCKING",
    "BLOCKING_TOKENS",
    "COLOURS",
    "COLOUR_NAMES",
    "DELIMITATION",
    "DIGGING",
    "DRAFT",
    "DRAFT_ROW",
    "EMPTY",
    "EXCAVATION",
    "NEUTRAL_TURN",
    "OVER",
    "PHASES",
    "TEAM_MATE",
    "TEAM_OWN",
    "MykerinosState",
]

_CURATOR, _COLONEL, _EXPLORER, _HEIRESS, _DIRECTOR, _GOVERNOR = map(int, ALL_PATRONS)
# What views spell over and over, spelled once: each patron's index (a plain int
# indexes faster than the enum) and code; each room's name, value and patron codes;
# each plot card's patron code and points.
_PATRON_KEYS = tuple((int(p), PATRON_CODES[p]) for p in ALL_PATRONS)
_ROOM_FACTS = tuple(
    (room_name(r), room_value(r), tuple(PATRON_CODES[p] for p in room_patrons(r)))
    for r in range(ROOM_IDS)
)
#: A plot's view by slot, card and rotation, copied into each view (built on first use:
#: a region changes once a campaign, its view on every call).
_PLOT_VIEWS: dict[tuple[int, int, bool, type], JsonDict] = {}
_PLOT_FACTS = tuple(
    (None if card.patron is None else PATRON_CODES[card.patron], card.points) for card in PLOT_CARDS
)
_RIVER_CELL = nile.RIVER


class MykerinosState(GameState):
    """A Mykerinos match in progress (or finished)."""

    state_fields = FIELDS
    #: What each part of the view is built from (:attr:`GameState.view_sources`):
    #: the terrain (shape, pyramids, river) is laid from ``slots`` and the Nile cards,
    #: the museum's rooms from ``wing_order``, held patron cards from the plots won.
    view_sources = {
        ("game",): (),
        ("viewer",): (),
        ("seats",): (),
        ("options",): (),
        ("campaigns",): (),
        ("patron_names",): (),
        ("teams",): (),
        ("neutral_colour",): (),
        ("phase",): ("phase",),
        ("campaign",): ("campaign",),
        ("current_seat",): ("phase", "turn"),
        ("start_seat",): ("start_seat",),
        ("final_action_seat",): ("final_seat", "phase"),
        ("region",): ("slots", "nile_rows", "nile_rotated"),
        ("occupied",): ("board",),
        ("museum",): ("wing_order", "museum"),
        ("general_reserve",): ("general",),
        ("tiebreak",): ("tiebreak",),
        ("players", "seat"): (),
        ("players", "colour"): (),
        ("players", "prestige"): ("prestige",),
        ("players", "reserve"): ("personal",),
        ("players", "patrons"): ("cards", "used"),
        ("players", "plots_won"): ("won",),
        ("players", "nile_cards"): ("nile_won",),
        ("players", "tokens"): ("tokens",),
        ("players", "active"): ("active", "phase"),
        ("players", "tiebreak_space"): ("tiebreak",),
        ("deck_size",): ("deck",),
        ("box",): ("box",),
        ("scores",): ("final", "prestige"),
        ("individual_scores",): ("final", "prestige"),
        ("draft",): ("phase", "draft_row", "start_seat", "draft_index"),
        ("nile",): (
            "nile_governor_deck", "nile_neutral_deck", "nile_box", "blocked", "blocked_rooms"
        ),
        ("delimitation",): (
            "phase", "area", "on_river", "ranks", "rank_index", "plots_left", "awaiting",
            "area_museum", "tie_asked",
        ),
        ("final",): ("final",),
        ("ranking",): ("final", "prestige", "personal"),
    }  # fmt: skip

    # ------------------------------------------------------------------ setup
    def __init__(self, game: Game, seat_count: int, options: JsonDict) -> None:
        self.game = game
        self.seat_count = seat_count
        self.options = dict(options)
        self.quick = bool(options.get("quick", False))
        self.team = bool(options.get("team", False))
        self.classic = bool(options.get("classic", False))
        self.with_nile = bool(options.get("nile", False))
        self.names = patron_names(self.classic)
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
        self.cards = [[0] * len(ALL_PATRONS) for _ in range(seat_count)]
        self.used = [[0] * len(ALL_PATRONS) for _ in range(seat_count)]
        self.prestige = [0] * seat_count
        self.museum = [EMPTY] * ROOM_IDS
        self.tiebreak = [0] * COLOURS
        self.active = [True] * seat_count
        self.campaign = 0
        self.slots: list[tuple[int, bool]] = []
        self.board: list[int] = []
        self.pyramid: list[bool] = []
        self.shape: RegionShape = region_shape(0)  # no region before campaign 1
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
        self.on_river = False
        self.area_museum = 0
        self.tie_asked = False
        # quick game: the revealed plots and who drafts when
        self.draft_row: list[int] = []
        self.draft_index = 0
        # The Nile: the two hidden decks, the cards on the region by area row and
        # whether each lies rotated, the cards kept (Governors, the tie card),
        # blocking tokens by space and room
        self.nile_governor_deck: list[int] = []
        self.nile_neutral_deck: list[int] = []
        self.nile_rows: list[int] = []
        self.nile_rotated: list[bool] = []
        self.nile_won: list[list[int]] = [[] for _ in range(seat_count)]
        self.nile_box: list[int] = []
        self.tokens = [BLOCKING_TOKENS if self.with_nile else 0] * seat_count
        self.blocked: list[int] = []
        self.blocked_rooms = [EMPTY] * ROOM_IDS
        self.river: list[bool] = []
        self.final: list[dict[str, Any]] | None = None
        self._events: list[Event] | None = None
        self._museum_rooms: tuple[int, ...] = ()
        self._five_entries: dict[int, tuple[int, ...]] = {}

    def setup(self, seed: int) -> None:
        """Lay out a new game from ``seed`` and start the first campaign."""
        self.rng = Rng(seed)
        self.rng.shuffle(self.wing_order)
        self.index_museum()
        self.start_seat = self.rng.below(self.seat_count)
        self.deck = [card.id for card in PLOT_CARDS]
        self.rng.shuffle(self.deck)
        if self.neutral is not None:
            self.tiebreak[self.neutral] = 2
        if self.with_nile:
            self.nile_governor_deck = list(nile.GOVERNOR_DECK)
            self.rng.shuffle(self.nile_governor_deck)
            others = [c for c in nile.NEUTRAL_DECK if c != nile.SPECIAL_CARD]
            self.rng.shuffle(others)
            self.nile_neutral_deck = [*others, nile.SPECIAL_CARD]  # special at the bottom
        if self.quick:
            self._start_draft()
        else:
            self._start_campaign()

    def _start_draft(self) -> None:
        """Quick game: reveal 8 plots (never the 5-point one) for the patron draft.

        The 5-point plot, if it comes up, is replaced by the next plot and shuffled
        back into the deck (ruling Q-1): every remaining plot is dealt later anyway.
        """
        row: list[int] = []
        set_aside: list[int] = []
        while len(row) < DRAFT_ROW:
            card = self.deck.pop(0)
            (set_aside if PLOT_CARDS[card].patron is None else row).append(card)
        for card in set_aside:
            self.deck.insert(self.rng.below(len(self.deck) + 1), card)
        self.draft_row = row
        self.shape = region_shape(0)  # no region is laid before the first campaign
        self.draft_index = 0
        self.phase = DRAFT
        self.turn = self.draft_order[0]
        self._emit(
            "draft_started",
            plots=list(row),
            patrons=[PATRON_CODES[self._patron_of_plot(c)] for c in row],
            order=list(self.draft_order),
        )

    @property
    def draft_order(self) -> list[int]:
        """Who drafts when: clockwise from the start player, then back (Q-2)."""
        clockwise = [(self.start_seat + i) % self.seat_count for i in range(self.seat_count)]
        return clockwise + clockwise[::-1]

    @staticmethod
    def _patron_of_plot(card_id: int) -> Patron:
        patron = PLOT_CARDS[card_id].patron
        assert patron is not None
        return patron

    def index_museum(self) -> None:
        """Work out the museum's room tables from ``wing_order``; call after it changes."""
        self._museum_rooms = ring_rooms(self.wing_order)
        self._five_entries = five_room_entries(self.wing_order)

    def has_room(self, room: int) -> bool:
        """Whether this match's museum has ``room`` (its two wings are neighbours)."""
        return room in self._museum_rooms

    # ------------------------------------------------------------ variant hooks
    def campaign_plot_counts(self) -> tuple[int, ...]:
        """Plots dealt per campaign (8 plots = 2 rows of areas, 12 = 3 rows)."""
        return (8, 8, 12) if self.quick else (8, 8, 8, 12)

    def allotment(self) -> int:
        """Archaeologists of your colour taken from the general reserve each campaign."""
        if self.team:
            return TEAM_OWN
        return 8 if self.seat_count == 4 else 11

    def mate(self, seat: int) -> int | None:
        """Team game: the seat's teammate (seated opposite: teams 0+2 and 1+3)."""
        return (seat + 2) % 4 if self.team else None

    def mates_of(self, seat: int) -> tuple[int, ...]:
        """The seat's team: itself, and its teammate in the team game."""
        mate = self.mate(seat)
        return (seat,) if mate is None else (seat, mate)

    def sides(self) -> list[tuple[int, ...]]:
        return [self.mates_of(seat) for seat in range(self.seat_count)]

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
        # Special Edition plots are rotated half a turn at random; 2006 plots are not.
        self.slots = [
            (self.deck.pop(0), False if self.classic else self.rng.chance()) for _ in range(count)
        ]
        if self.with_nile:
            self._deal_nile_cards()
        self.lay_terrain()
        self.board = [EMPTY] * self.shape.size
        self.blocked = [EMPTY] * self.shape.size
        for offset in range(self.seat_count):
            seat = (self.start_seat + offset) % self.seat_count
            self._draw_from_general(seat, seat, self.allotment())
            mate = self.mate(seat)
            if mate is not None:
                self._draw_from_general(seat, mate, TEAM_MATE)
            if self.neutral is not None:
                self._draw_from_general(seat, self.neutral, self.neutral_allotment())
        self.active = [True] * self.seat_count
        for colour in range(COLOURS):
            if colour != self.neutral:
                self.tiebreak[colour] = 0
        self.used = [[0] * len(ALL_PATRONS) for _ in range(self.seat_count)]
        self.phase = EXCAVATION
        self.final_seat = -1
        self.turn = self.start_seat
        self._emit(
            "campaign_started",
            campaign=self.campaign,
            start_seat=self.start_seat,
            region=self._region_view(),
        )

    def _deal_nile_cards(self) -> None:
        """One card from each Nile deck (the final campaign: the last three), one per row.

        Which row gets which card is drawn at random, and each card is rotated half
        a turn or not, at random, as plots are (ruling N-2; classic rules: never,
        C-4). In the quick game the final campaign also takes two Governor cards and
        the special card; the other two cards stay unused (ruling N-10).
        """
        if self.shape.area_rows == 3:
            cards = [*self.nile_governor_deck[:2], self.nile_neutral_deck[-1]]
            del self.nile_governor_deck[:2]
            del self.nile_neutral_deck[-1]
        else:
            cards = [self.nile_governor_deck.pop(0), self.nile_neutral_deck.pop(0)]
        self.rng.shuffle(cards)
        self.nile_rows = cards
        self.nile_rotated = [False if self.classic else self.rng.chance() for _ in cards]

    def lay_terrain(self) -> None:
        """Work out pyramids and river spaces as laid: plots, with the Nile cards on top.

        Call after ``slots`` or the Nile cards change (a restored snapshot, a new region).
        """
        shape = self.shape
        self.pyramid = [
            PLOT_CARDS[self.slots[shape.slot_of[i]][0]].pyramid_at(
                *shape.cell_of[i], self.slots[shape.slot_of[i]][1]
            )
            for i in range(shape.size)
        ]
        self.river = [False] * shape.size
        for row, (card, rotated) in enumerate(zip(self.nile_rows, self.nile_rotated, strict=True)):
            for space, cell in nile.terrain(card, row, rotated).items():
                self.pyramid[space] = cell == nile.PYRAMID
                self.river[space] = cell == _RIVER_CELL

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
        """Rooms where ``colour`` may place an archaeologist now (museum rules).

        A room under another player's blocking token (The Nile) is closed to them.
        """
        museum, blocked, five_entries = self.museum, self.blocked_rooms, self._five_entries
        rooms = []
        for room in self._museum_rooms:
            if museum[room] != EMPTY or blocked[room] not in (EMPTY, colour):
                continue
            entries = five_entries.get(room)  # only 5-rooms have entries
            if entries is not None and colour not in [museum[entry] for entry in entries]:
                continue
            rooms.append(room)
        return rooms

    def _open_spaces(self, actor: int) -> tuple[bytes, int, int]:
        """The board as bytes, then masks of the free spaces and of the open
        pyramids for whatever ``actor`` places (see ``placements``).

        Empty spaces, minus those under another player's blocking token (The Nile).
        River spaces are normal spaces.
        """
        board_cells = placements.cells(self.board)
        empty = placements.mask(board_cells, EMPTY)
        blocked = self.blocked
        if blocked.count(EMPTY) != len(blocked):  # blocking tokens are down (The Nile)
            tokens = placements.cells(blocked)
            empty &= placements.mask(tokens, EMPTY) | placements.mask(tokens, actor)
        pyramid = placements.flag_mask(self.pyramid)
        return board_cells, empty & ~pyramid, empty & pyramid

    def legal_actions(self) -> list[MykerinosAction]:  # type: ignore[override]
        if self.phase == EXCAVATION:
            return self._excavation_actions(self.turn)
        if self.phase == NEUTRAL_TURN:
            return self._neutral_actions(self.turn)
        if self.phase == BLOCKING:
            return [act.BLOCK_ACTIONS[t] for t in self._block_targets()]
        if self.phase == DELIMITATION:
            if self.awaiting == AWAIT_DISCARD:
                return list(map(act.SIDE_ACTIONS[act.DISCARD].__getitem__, self.plots_left))
            if self.awaiting == AWAIT_TIE:
                return [act.USE_TIE_ACTION, act.KEEP_TIE_ACTION]
            return self._reward_options(self.turn, self.rank_index)
        if self.phase == DRAFT:
            offered = sorted({self._patron_of_plot(card) for card in self.draft_row})
            return [act.DRAFT_ACTIONS[p] for p in offered]
        return []

    def _block_targets(self) -> list[int]:
        """Where a Governor's blocking token may go: any empty space or museum room."""
        targets = [
            i for i in range(self.shape.size) if self.board[i] == EMPTY and self.blocked[i] == EMPTY
        ]
        targets += [
            act.ROOM_TARGET + room
            for room in self._museum_rooms
            if self.museum[room] == EMPTY and self.blocked_rooms[room] == EMPTY
        ]
        return targets

    def _excavation_actions(self, seat: int) -> list[MykerinosAction]:
        colour = seat
        own = self.personal[seat][colour]
        size = self.shape.size
        board_cells, free, pyramids = self._open_spaces(seat)
        free_selectors = placements.selectors(free, size)
        near_own = placements.adjacent(placements.mask(board_cells, colour))
        own_frontier = near_own & free
        out: list[MykerinosAction] = []
        expand_pairs: bytearray | None = None
        if own >= 1:
            out += act.singles_of(act.START, free_selectors)
        if own >= 2:
            expand_pairs = placements.shape_selectors(
                placements.pair_masks(free, free, own_frontier), size
            )
            out += act.pairs_of(act.EXPAND, expand_pairs)
        # Patron cards won in a campaign are usable from the next one (M-16); only
        # the quick game's drafted patrons are held in the first campaign.
        cards = self.cards[seat]
        if any(cards):
            # has_patron() inlined, with plain ints: this runs on every decision.
            used = self.used[seat]
            if own >= 2 and cards[_CURATOR] > used[_CURATOR]:
                anywhere = placements.pair_masks(free, free, -1)
                out += act.pairs_of(act.CURATOR, placements.shape_selectors(anywhere, size))
            if own >= 3 and cards[_COLONEL] > used[_COLONEL]:
                triples = placements.triple_masks(free, own_frontier)
                out += act.triples_of(act.COLONEL, placements.shape_selectors(triples, size))
            if own >= 1 and cards[_EXPLORER] > used[_EXPLORER]:
                out += act.singles_of(act.EXPLORER, placements.selectors(pyramids, size))
                if own >= 2:
                    # Two chained spaces, exactly one a pyramid, the first next to
                    # your archaeologists: an adjacent free/pyramid pair with
                    # either space next to them.
                    right, down = placements.pair_masks(free, pyramids, near_own)
                    right_2, down_2 = placements.pair_masks(pyramids, free, near_own)
                    out += act.pairs_of(
                        act.EXPLORER,
                        placements.shape_selectors((right | right_2, down | down_2), size),
                    )
            if self.general[colour] >= 1 and cards[_HEIRESS] > used[_HEIRESS]:
                out += act.singles_of(act.HEIRESS, free_selectors)
                if own + 1 >= 2:
                    if expand_pairs is None:
                        expand_pairs = placements.shape_selectors(
                            placements.pair_masks(free, free, own_frontier), size
                        )
                    out += act.pairs_of(act.HEIRESS, expand_pairs)
            if own >= 1 and cards[_DIRECTOR] > used[_DIRECTOR]:
                rooms = self.museum_rooms_open_to(colour)
                out += map(act.ROOM_ACTIONS[act.DIRECTOR].__getitem__, rooms)
            if cards[_GOVERNOR] > used[_GOVERNOR]:
                out += self._governor_actions(seat, own, free, own_frontier)
        if self.team:
            mate = self.mate(seat)
            assert mate is not None
            out += self._placements_with(
                seat, mate, act.TEAM_START, act.TEAM_EXPAND, board_cells, free
            )
        out.append(act.PASS_ACTION)
        return out

    def _governor_actions(
        self, seat: int, own: int, free: int, own_frontier: int
    ) -> list[MykerinosAction]:
        """The Governor's starts and expansions (``free`` and ``own_frontier`` as in
        :meth:`_excavation_actions`), when a blocking token can follow them.

        With a token in hand, every start and expansion. With all three on the board,
        only those that cover one of your own blocked spaces: that token comes back
        to your play area before the Governor's token goes down (ruling N-7).
        """
        size = self.shape.size
        singles, pairs = free, placements.pair_masks(free, free, own_frontier)
        if self.tokens[seat] < 1:
            returning = free & placements.mask(placements.cells(self.blocked), seat)
            if not returning:
                return []
            singles &= returning
            pairs = placements.pairs_covering(pairs, returning)
        out: list[MykerinosAction] = []
        if own >= 1:
            out += act.singles_of(act.GOVERNOR, placements.selectors(singles, size))
        if own >= 2:
            out += act.pairs_of(act.GOVERNOR, placements.shape_selectors(pairs, size))
        return out

    def _placements_with(
        self, seat: int, colour: int, start: str, expand: str, board_cells: bytes, free: int
    ) -> list[MykerinosAction]:
        """Plain A and B with another colour from ``seat``'s personal reserve.

        The neutral player's archaeologists (two-player game) and a teammate's (team
        game): an expansion chains from an archaeologist of that colour (ruling T-2).
        ``board_cells`` and ``free`` come from :meth:`_open_spaces`.
        """
        count = self.personal[seat][colour]
        size = self.shape.size
        out: list[MykerinosAction] = []
        if count >= 1:
            out += act.singles_of(start, placements.selectors(free, size))
        if count >= 2:
            starts = placements.adjacent(placements.mask(board_cells, colour)) & free
            pairs = placements.pair_masks(free, free, starts)
            out += act.pairs_of(expand, placements.shape_selectors(pairs, size))
        return out

    def _neutral_actions(self, seat: int) -> list[MykerinosAction]:
        neutral = self.neutral
        assert neutral is not None  # only reachable in the two-player game
        board_cells, free, _ = self._open_spaces(seat)
        out = self._placements_with(
            seat, neutral, act.NEUTRAL_START, act.NEUTRAL_EXPAND, board_cells, free
        )
        out.append(act.NEUTRAL_SKIP_ACTION)
        return out

    def _reward_options(self, colour: int, rank_index: int) -> list[MykerinosAction]:
        """What the ``rank_index``-th ranked colour may claim in the area being scored.

        First and second place: a plot or a museum room. Third and fourth: a plot
        left over (classic rules: only when no player in first or second place
        claimed one, rulings C-3 and C-6). The river (The Nile): first and second
        claim a Nile card, nobody goes to the museum, third and fourth get nothing.
        """
        if rank_index >= 2 and (self.on_river or (self.classic and self.top_two_claimed_a_plot())):
            return []
        out = list(map(act.SIDE_ACTIONS[act.TAKE].__getitem__, self.plots_left))
        if rank_index < 2 and not self.on_river:
            if self.classic and self.general[colour] < 1:
                return out  # the 2006 museum reward comes from the general reserve
            rooms = self.museum_rooms_open_to(colour)
            out += map(act.ROOM_ACTIONS[act.MUSEUM].__getitem__, rooms)
        elif (
            rank_index >= 2 and len(out) == 1 and self.mate(colour) in self.ranks[rank_index + 1 :]
        ):
            # Team game: the last plot may be left to a teammate placed behind (M-10).
            out.append(act.LEAVE_ACTION)
        return out

    def top_two_claimed_a_plot(self) -> bool:
        """Classic rules: whether a player in first or second place of the area being
        scored claimed a plot, which closes the leftover to third and fourth (C-3).

        The neutral player's forced claim-and-discard (two players) is not a player
        claiming a plot (ruling C-6): its place counts like a museum reward.
        """
        neutral_ahead = sum(1 for colour in self.ranks[:2] if colour == self.neutral)
        return self.area_museum + neutral_ahead < 2

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
                # apply() coerces again what the service has just coerced: remember
                # the answer for exact types (subclasses take the long way).
                if type(kind) is str and type(spaces) is tuple:
                    parsed = act.canonical_action(kind, spaces, arg)
                else:
                    parsed = act.canonical_action.__wrapped__(kind, spaces, arg)
                if parsed is not None:
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
            if self.awaiting == AWAIT_TIE:
                self._decide_tie(kind == act.USE_TIE)
            else:
                self._apply_reward(action)
            self._continue_area()
            return
        if self.phase == DRAFT:
            self._draft(seat, Patron(action.arg))
            return
        if self.phase == BLOCKING:
            self._block(seat, action.arg)
            self._after_own_action(seat)
            return
        if kind == act.PASS:
            self._pass(seat)
            return
        if self.phase == NEUTRAL_TURN:
            if kind != act.NEUTRAL_SKIP:
                assert self.neutral is not None
                self._place(seat, self.neutral, action.spaces, kind)
            if self.active[seat]:
                self._end_turn(seat)
            else:  # the neutral action followed a pass
                self._advance(seat)
            return
        patron = PATRON_OF_KIND.get(kind)
        if patron is not None:
            self.used[seat][patron] += 1
        if kind == act.DIRECTOR:
            self.personal[seat][seat] -= 1
            self.museum[action.arg] = seat
            self._emit("museum_placed", seat=seat, room=room_name(action.arg), via="dir")
            if self.blocked_rooms[action.arg] == seat:
                self._token_back(seat, None, action.arg)
        elif kind in (act.TEAM_START, act.TEAM_EXPAND):
            mate = self.mate(seat)
            assert mate is not None
            self._place(seat, mate, action.spaces, kind)
        else:
            if kind == act.HEIRESS:
                self.general[seat] -= 1
                self.personal[seat][seat] += 1
            self._place(seat, seat, action.spaces, kind)
            if kind == act.GOVERNOR:
                if self._block_targets():
                    self.phase = BLOCKING
                    return
                self._emit("nothing_to_block", seat=seat)
        self._after_own_action(seat)

    def _after_own_action(self, seat: int) -> None:
        """The two-player game offers a neutral action; otherwise the turn ends."""
        if self._offers_neutral_action(seat):
            self.phase = NEUTRAL_TURN
            return
        self._end_turn(seat)

    def _offers_neutral_action(self, seat: int) -> bool:
        """Two-player game: whether ``seat`` can act for the neutral player now."""
        return self.neutral is not None and len(self._neutral_actions(seat)) > 1

    def _draft(self, seat: int, patron: Patron) -> None:
        card = next(c for c in self.draft_row if self._patron_of_plot(c) == patron)
        self.draft_row.remove(card)
        self.won[seat].append(card)
        self.cards[seat][patron] += 1
        self._emit("drafted", seat=seat, card=card, patron=PATRON_CODES[patron])
        self.draft_index += 1
        order = self.draft_order
        if self.draft_index < len(order):
            self.turn = order[self.draft_index]
            return
        for left in self.draft_row:
            self.box.append(left)
            self._emit(
                "draft_discarded", card=left, patron=PATRON_CODES[self._patron_of_plot(left)]
            )
        self.draft_row = []
        self.draft_index = 0
        self._start_campaign()

    def _block(self, seat: int, target: int) -> None:
        """A Governor's blocking token goes on an empty space or museum room."""
        self.tokens[seat] -= 1
        if target >= act.ROOM_TARGET:
            self.blocked_rooms[target - act.ROOM_TARGET] = seat
        else:
            self.blocked[target] = seat
        self._emit("blocked", seat=seat, target=act.block_target_name(target))

    def _token_back(self, seat: int, space: int | None, room: int | None) -> None:
        """You placed on your own blocked space or room: the token returns to you."""
        if space is not None:
            self.blocked[space] = EMPTY
            where = space_name(space)
        else:
            assert room is not None
            self.blocked_rooms[room] = EMPTY
            where = room_name(room)
        self.tokens[seat] += 1
        self._emit("token_returned", seat=seat, target=where)

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
        for space in spaces:
            if self.blocked[space] == seat:
                self._token_back(seat, space, None)

    def _pass(self, seat: int, automatic: bool = False) -> None:
        taken = {self.tiebreak[c] for c in range(COLOURS) if self.tiebreak[c]}
        space = 1
        while space in taken:
            space += 1
        self.tiebreak[seat] = space
        self.active[seat] = False
        self._emit("passed", seat=seat, tiebreak_space=space, automatic=automatic)
        if not automatic and self._offers_neutral_action(seat):
            # Pass is a normal action: a neutral action may follow it (ruling M-7).
            self.phase = NEUTRAL_TURN
            return
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
        if self.with_nile:
            self._retrieve_tokens()
            self._rank(self._river_spaces(), on_river=True)
        else:
            self._next_area()

    def _retrieve_tokens(self) -> None:
        if any(t != EMPTY for t in (*self.blocked, *self.blocked_rooms)):
            self._emit("tokens_retrieved")
        self.blocked = [EMPTY] * self.shape.size
        self.blocked_rooms = [EMPTY] * ROOM_IDS
        self.tokens = [BLOCKING_TOKENS] * self.seat_count

    def nile_on_table(self) -> list[int]:
        """Nile cards laid and not yet claimed or discarded (claimed ones stay in
        ``nile_rows`` until the river is done: their river spaces still count)."""
        if self.phase == DELIMITATION and self.on_river:
            return [self.nile_rows[side - act.NILE_SIDE] for side in self.plots_left]
        return list(self.nile_rows)

    def _river_spaces(self) -> tuple[int, ...]:
        return tuple(i for i, river in enumerate(self.river) if river)

    def _next_area(self) -> None:
        self.area += 1
        if self.area >= self.shape.areas:
            self._end_campaign()
            return
        self._rank(self.shape.area_spaces[self.area], on_river=False)

    def _counts(self, spaces: tuple[int, ...]) -> list[int]:
        counts = [0] * COLOURS
        for space in spaces:
            occupant = self.board[space]
            if occupant != EMPTY:
                counts[occupant] += 1
        return counts

    def _rank(self, spaces: tuple[int, ...], on_river: bool) -> None:
        """Rank the colours present on ``spaces`` (an area, or the river) and reward."""
        counts = self._counts(spaces)
        self.on_river = on_river
        self.ranks = sorted(
            (c for c in range(COLOURS) if counts[c] > 0),
            key=lambda c: (-counts[c], self.tiebreak[c]),
        )
        self.rank_index = 0
        self.area_museum = 0
        self.tie_asked = False
        if on_river:
            self.plots_left = [act.NILE_SIDE + row for row in range(len(self.nile_rows))]
        else:
            self.plots_left = [0, 1]
        self._emit(
            "river_ranked" if on_river else "area_ranked",
            area=self.area,
            order=[
                {"colour": COLOUR_NAMES[c], "seat": self._seat_of(c), "count": counts[c]}
                for c in self.ranks
            ],
        )
        if self.neutral is not None and self.ranks == [self.neutral]:
            # Only neutral archaeologists here: every card is discarded.
            for side in list(self.plots_left):
                self._discard(side, None)
        self._continue_area()

    def _seat_of(self, colour: int) -> int | None:
        return None if colour == self.neutral else colour

    def _continue_area(self) -> None:
        """Hand out the area's rewards in rank order until a seat must choose."""
        if not self.tie_asked:
            self.tie_asked = True
            holder = self._tie_card_holder()
            if holder is not None and self._loses_a_tie(holder):
                self.awaiting = AWAIT_TIE
                self.turn = holder
                return
        while self.rank_index < len(self.ranks):
            colour = self.ranks[self.rank_index]
            if colour == self.neutral:
                if not self.plots_left or (self.on_river and self.rank_index >= 2):
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

    def _tie_card_holder(self) -> int | None:
        for seat, kept in enumerate(self.nile_won):
            if any(nile.NILE_CARDS[c].effect == nile.TIE_WINNER for c in kept):
                return seat
        return None

    def _loses_a_tie(self, colour: int) -> bool:
        """Whether ``colour`` ranks behind a colour with as many archaeologists here."""
        if colour not in self.ranks:
            return False
        counts = self._counts(self._scored_spaces())
        place = self.ranks.index(colour)
        return place > 0 and counts[self.ranks[place - 1]] == counts[colour]

    def _scored_spaces(self) -> tuple[int, ...]:
        return self._river_spaces() if self.on_river else self.shape.area_spaces[self.area]

    def _decide_tie(self, use: bool) -> None:
        """The tie card's holder wins its tie (the card leaves the game) or keeps it."""
        seat = self.turn
        self.awaiting = ""
        if not use:
            self._emit("tie_card_kept", seat=seat)
            return
        card = next(c for c in self.nile_won[seat] if nile.NILE_CARDS[c].effect == nile.TIE_WINNER)
        self.nile_won[seat].remove(card)
        self.nile_box.append(card)
        counts = self._counts(self._scored_spaces())
        self.ranks.remove(seat)
        place = next(i for i, c in enumerate(self.ranks) if counts[c] == counts[seat])
        self.ranks.insert(place, seat)
        self._emit(
            "tie_card_used",
            seat=seat,
            order=[COLOUR_NAMES[c] for c in self.ranks],
        )

    def _neutral_discard_chooser(self) -> int | None:
        """Who picks the card the neutral player discards when two or more remain.

        Neutral first: the player in third place (ruling M-6: with only one player
        present, the other player). Neutral second: the player in first place.
        None when the choice changes nothing, because no colour ranked behind the
        neutral player may claim a card it leaves: all of them leave the game either
        way, so nobody is asked (M-6, N-4). That is the case when nobody is ranked
        behind it, and on the river whenever it is second (third place gets nothing
        there).
        """
        behind = len(self.ranks) - self.rank_index - 1
        if behind == 0 or (self.on_river and self.rank_index >= 1):
            return None
        if self.rank_index == 0:
            if len(self.ranks) >= 3:
                return self.ranks[2]
            second = self.ranks[1]
            return next(s for s in range(self.seat_count) if s != second)
        return self.ranks[0]

    def _apply_reward(self, action: MykerinosAction, automatic: bool = False) -> None:
        seat = self.turn
        if action.kind == act.DISCARD:
            self._discard(action.arg, seat)
        elif action.kind == act.TAKE:
            self._take(seat, action.arg, automatic)
        elif action.kind == act.LEAVE:
            self._emit("plot_left", seat=seat, area=self.area)
        else:
            self._museum_from_area(seat, action.arg)
            self.area_museum += 1
        self.rank_index += 1
        self.awaiting = ""

    def _take(self, seat: int, side: int, automatic: bool) -> None:
        if side >= act.NILE_SIDE:
            self._take_nile(seat, side, automatic)
            return
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
            side=SIDE_NAMES[side],
            card=card.id,
            patron=None if card.patron is None else PATRON_CODES[card.patron],
            points=card.points,
            automatic=automatic,
        )

    def _take_nile(self, seat: int, side: int, automatic: bool) -> None:
        """Claim a Nile card: a Governor is kept; a neutral back's effect applies now."""
        self.plots_left.remove(side)
        card = nile.NILE_CARDS[self.nile_rows[side - act.NILE_SIDE]]
        self.prestige[seat] += card.points
        drawn = 0
        if card.governor:
            self.nile_won[seat].append(card.id)
            self.cards[seat][Patron.GOVERNOR] += 1
        elif card.effect == nile.TIE_WINNER:
            self.nile_won[seat].append(card.id)
        else:
            wanted = {nile.POINT_AND_ARCHAEOLOGIST: 1, nile.TWO_ARCHAEOLOGISTS: 2}
            before = self.personal[seat][seat]
            self._draw_from_general(seat, seat, wanted.get(card.effect, 0))
            drawn = self.personal[seat][seat] - before
            self.nile_box.append(card.id)
        self._emit(
            "nile_card_taken",
            seat=seat,
            row=side - act.NILE_SIDE,
            card=card.id,
            effect=card.effect,
            points=card.points,
            archaeologists=drawn,
            automatic=automatic,
        )

    def _discard(self, side: int, chosen_by: int | None) -> None:
        self.plots_left.remove(side)
        if side >= act.NILE_SIDE:
            nile_card = self.nile_rows[side - act.NILE_SIDE]
            self.nile_box.append(nile_card)
            self._emit(
                "nile_card_discarded",
                row=side - act.NILE_SIDE,
                card=nile_card,
                chosen_by=chosen_by,
            )
            return
        card_id = self.slots[2 * self.area + side][0]
        self.box.append(card_id)
        self._emit(
            "plot_discarded",
            area=self.area,
            side=SIDE_NAMES[side],
            card=card_id,
            chosen_by=chosen_by,
        )

    def _museum_from_area(self, seat: int, room: int) -> None:
        if self.classic:
            self.general[seat] -= 1  # 2006 rules: a cube from the general reserve
        else:
            for space in self.shape.area_spaces[self.area]:
                if self.board[space] == seat:
                    self.board[space] = EMPTY
                    break
        self.museum[room] = seat
        self._emit("museum_placed", seat=seat, room=room_name(room), via="reward", area=self.area)

    def _finish_area(self) -> None:
        for side in list(self.plots_left):
            self._discard(side, None)  # unclaimed: back to the box
        if self.on_river:
            self._finish_river()
            return
        for space in self.shape.area_spaces[self.area]:
            occupant = self.board[space]
            if occupant != EMPTY:
                self.general[occupant] += 1
                self.board[space] = EMPTY
        self._emit("area_done", area=self.area)
        self._next_area()

    def _finish_river(self) -> None:
        """River archaeologists go home; bank ones drop onto the plot beneath.

        A bank space lies exactly over the covered space of its own area (N-1), so
        bank archaeologists keep their index; only the terrain changes back.
        """
        for space in self._river_spaces():
            occupant = self.board[space]
            if occupant != EMPTY:
                self.general[occupant] += 1
                self.board[space] = EMPTY
        self.nile_rows = []
        self.nile_rotated = []
        self.on_river = False
        self.lay_terrain()
        self._emit("river_done")
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
            breakdown["reserve"] = sum(self.personal[seat])
            self.final.append(breakdown)
        self._emit("game_over", scores=self.scores(), ranking=self.ranking())

    # ---------------------------------------------------------------- results
    def individual_scores(self) -> list[int]:
        """Each player's own prestige (final totals once the game is over)."""
        if self.final is not None:
            return [int(entry["total"]) for entry in self.final]
        return list(self.prestige)

    def scores(self) -> list[int]:
        """Each seat's score; in the team game, its team's: the lower member's."""
        own = self.individual_scores()
        if not self.team:
            return own
        return [min(own[m] for m in self.mates_of(s)) for s in range(self.seat_count)]

    def ranking(self) -> list[int]:
        """Places by score, then by archaeologists left in your personal reserve.

        Every archaeologist in the reserve counts, whatever its colour: the neutral
        ones a player holds in the two-player game (ruling M-12), the teammate's in
        the team game, where a team's reserve is both members' together (T-4). This
        is the ``reserve`` the view shows.
        """
        scores = self.scores()
        keys = [
            (scores[s], sum(sum(self.personal[m]) for m in self.mates_of(s)))
            for s in range(self.seat_count)
        ]
        leaders = {min(self.mates_of(s)) for s in range(self.seat_count)}  # one per team
        return [1 + sum(1 for t in leaders if keys[t] > key) for key in keys]

    # ----------------------------------------------------------------- labels
    def describe(self, action: Any) -> str:
        return labels.describe(self, action)

    def explain_illegal(self, action: Any) -> str:
        return labels.explain_illegal(self, action)

    # ------------------------------------------------------------------ views
    def _region_view(self) -> JsonDict:
        plots = []
        for slot, (card_id, rotated) in enumerate(self.slots):
            key = (slot, card_id, rotated, type(rotated))
            plot = _PLOT_VIEWS.get(key)
            if plot is None:
                patron, points = _PLOT_FACTS[card_id]
                plot = _PLOT_VIEWS[key] = {
                    "slot": slot,
                    "area": slot // 2,
                    "side": SIDE_NAMES[slot % 2],
                    "card": card_id,
                    "patron": patron,
                    "points": points,
                    "rotated": rotated,
                }
            plots.append(plot.copy())  # its values are immutable: a copy is a fresh plot
        region: JsonDict = {
            "columns": 8,
            "rows": self.shape.rows,
            "plots": plots,
            "pyramids": [SPACE_NAMES[i] for i, on in enumerate(self.pyramid) if on],
        }
        if self.with_nile:
            region["river"] = [space_name(i) for i in self._river_spaces()]
            region["nile"] = [
                {
                    "row": row,
                    "card": card,
                    "effect": nile.NILE_CARDS[card].effect,
                    "points": nile.NILE_CARDS[card].points,
                    "rotated": rotated,
                    "cells": nile.laid_cells(card, rotated),
                }
                for row, (card, rotated) in enumerate(
                    zip(self.nile_rows, self.nile_rotated, strict=True)
                )
            ]
        return region

    def view(self, seat: int | None) -> JsonDict:
        """Everything but the plot deck (its order and which plots come later)."""
        return build_view(self, seat, _VIEW_PARTS)

    def view_parts(self, seat: int | None, parts: Iterable[tuple[str, ...]]) -> JsonDict:
        return build_view(self, seat, _VIEW_PARTS, requested(parts))

    def _museum_view(self) -> JsonDict:
        museum = self.museum
        return {
            "wings": [PATRON_CODES[p] for p in self.wing_order],
            "rooms": [
                {
                    "room": _ROOM_FACTS[r][0],
                    "value": _ROOM_FACTS[r][1],
                    "patrons": list(_ROOM_FACTS[r][2]),
                    "occupant": None if museum[r] == EMPTY else COLOUR_NAMES[museum[r]],
                }
                for r in self._museum_rooms
            ],
        }

    def _draft_view(self) -> Any:
        if self.phase != DRAFT:
            return ABSENT
        return {
            "plots": list(self.draft_row),
            "patrons": [PATRON_CODES[self._patron_of_plot(c)] for c in self.draft_row],
            "order": list(self.draft_order),
            "index": self.draft_index,
        }

    def _nile_view(self) -> Any:
        if not self.with_nile:
            return ABSENT
        return {
            "governor_deck": len(self.nile_governor_deck),
            "neutral_deck": len(self.nile_neutral_deck),
            "box": sorted(self.nile_box),
            "blocked": {
                space_name(i): COLOUR_NAMES[c] for i, c in enumerate(self.blocked) if c != EMPTY
            },
            "blocked_rooms": {
                room_name(r): COLOUR_NAMES[c]
                for r, c in enumerate(self.blocked_rooms)
                if c != EMPTY
            },
        }

    def _delimitation_view(self) -> Any:
        if self.phase != DELIMITATION:
            return ABSENT
        return {
            "area": self.area,
            "river": self.on_river,
            "order": [COLOUR_NAMES[c] for c in self.ranks],
            "rank_index": self.rank_index,
            "plots_left": [act.SIDES[s] for s in self.plots_left],
            "awaiting": self.awaiting,
            "museum_rewards": self.area_museum,
            "tie_asked": self.tie_asked,
        }

    def determinize(self, seat: int | None, seed: int) -> MykerinosState:
        """Resample the hidden part: the order of the plot deck and of the Nile decks
        (the special card stays at the bottom), and how future plots and Nile cards
        are rotated."""
        twin = self.clone()
        sampler = Rng(seed)
        sampler.shuffle(twin.deck)
        sampler.shuffle(twin.nile_governor_deck)
        twin.nile_neutral_deck = neutral_deck_order(twin.nile_neutral_deck, sampler)
        twin.rng = Rng(sampler.next_u64())
        return twin

    # ---------------------------------------------------------- serialization
    @classmethod
    def from_data(cls, game: Game, data: Mapping[str, Any]) -> MykerinosState:
        """Rebuild a state from :meth:`to_data` output, checking every field.

        Raises:
            CorruptStateError: a field is missing, mistyped, out of range or
                inconsistent with the others.
        """
        return snapshot.state_from_data(cls, game, data)

    @classmethod
    def from_view(cls, game: Game, view: Mapping[str, Any], seed: int) -> MykerinosState:
        """A state whose view equals ``view``; the deck's order is sampled from ``seed``.

        The deck holds exactly the plots no view shows (not in the region, the box
        or anybody's won plots), in a random order.

        Raises:
            CorruptStateError: the view is not one this class produced.
        """
        return snapshot.state_from_view(cls, game, view, seed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MykerinosState) and self.to_data() == other.to_data()

    __hash__ = None  # type: ignore[assignment]


#: The keys of a seat's entry of ``players``.
_PLAYER_KEYS = frozenset(
    {
        "seat", "colour", "prestige", "reserve", "patrons", "plots_won", "nile_cards",
        "tokens", "active", "tiebreak_space",
    }
)  # fmt: skip


def _players(state: MykerinosState, viewer: int | None, keys: set[str] | None = None) -> Any:
    """The ``players`` table: each seat's entry, with only ``keys`` when given (one
    function with a test per key: the server builds the whole table for every view)."""
    want = _PLAYER_KEYS if keys is None else keys
    digging = state.phase in DIGGING
    table = []
    for s in range(state.seat_count):
        entry: JsonDict = {}
        if "seat" in want:
            entry["seat"] = s
        if "colour" in want:
            entry["colour"] = COLOUR_NAMES[s]
        if "prestige" in want:
            entry["prestige"] = state.prestige[s]
        if "reserve" in want:
            entry["reserve"] = {COLOUR_NAMES[c]: n for c, n in enumerate(state.personal[s]) if n}
        if "patrons" in want:
            cards, used = state.cards[s], state.used[s]
            entry["patrons"] = {
                code: {"cards": cards[p], "used": used[p]} for p, code in _PATRON_KEYS
            }
        if "plots_won" in want:
            entry["plots_won"] = sorted(state.won[s])
        if "nile_cards" in want:
            entry["nile_cards"] = sorted(state.nile_won[s])
        if "tokens" in want:
            entry["tokens"] = state.tokens[s]
        if "active" in want:
            entry["active"] = state.active[s] and digging
        if "tiebreak_space" in want:
            entry["tiebreak_space"] = state.tiebreak[s] or None
        table.append(entry)
    return table


#: The view's parts in their order, one builder each (see :mod:`senet.games.view_parts`):
#: each key is a path of ``MykerinosState.view_sources``.
_VIEW_PARTS: dict[str, PartBuilder] = {
    "game": lambda state, viewer: "mykerinos",
    "viewer": lambda state, viewer: viewer,
    "seats": lambda state, viewer: state.seat_count,
    "options": lambda state, viewer: dict(state.options),
    "phase": lambda state, viewer: state.phase,
    "campaign": lambda state, viewer: state.campaign,
    "campaigns": lambda state, viewer: len(state.campaign_plot_counts()),
    "current_seat": lambda state, viewer: state.current_seat(),
    "start_seat": lambda state, viewer: state.start_seat,
    "final_action_seat": lambda state, viewer: (
        state.final_seat if state.final_seat >= 0 and state.phase in DIGGING else None
    ),
    "patron_names": lambda state, viewer: {PATRON_CODES[p]: state.names[p] for p in ALL_PATRONS},
    "teams": lambda state, viewer: [[0, 2], [1, 3]] if state.team else None,
    "neutral_colour": lambda state, viewer: (
        None if state.neutral is None else COLOUR_NAMES[state.neutral]
    ),
    "region": lambda state, viewer: state._region_view(),
    "occupied": lambda state, viewer: {
        SPACE_NAMES[i]: COLOUR_NAMES[c] for i, c in enumerate(state.board) if c != EMPTY
    },
    "museum": lambda state, viewer: state._museum_view(),
    "general_reserve": lambda state, viewer: {
        COLOUR_NAMES[c]: n for c, n in enumerate(state.general)
    },
    "tiebreak": lambda state, viewer: {
        COLOUR_NAMES[c]: state.tiebreak[c] for c in range(COLOURS) if state.tiebreak[c]
    },
    "players": _players,
    "deck_size": lambda state, viewer: len(state.deck),
    "box": lambda state, viewer: sorted(state.box),
    "scores": lambda state, viewer: state.scores(),
    "individual_scores": lambda state, viewer: state.individual_scores() if state.team else ABSENT,
    "draft": lambda state, viewer: state._draft_view(),
    "nile": lambda state, viewer: state._nile_view(),
    "delimitation": lambda state, viewer: state._delimitation_view(),
    "final": lambda state, viewer: ABSENT if state.final is None else copy.deepcopy(state.final),
    "ranking": lambda state, viewer: ABSENT if state.final is None else state.ranking(),
}
