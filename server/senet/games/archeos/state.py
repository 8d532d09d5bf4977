"""The Archeos Society state machine: seasons, turns, expeditions and scoring.

One :class:`ArcheosState` is a whole match. The flow of one expedition is a fixed
sequence of stages (advance, role effect, Cartographer's extra expedition, the rest of
the hand, Patron draws, end of turn); a stage that needs a choice sets ``step`` and
stops, and the decision's handler continues with the next stage. Which stage comes
next follows from ``step`` alone, so a snapshot needs no continuation pointer.

The third monkey ends the season at once, wherever the turn is: drawing raises
:class:`_SeasonEnds`, which unwinds the turn, and the dispatcher starts the season end.

Hidden information: every hand, the order of the deck, and the cards a Physician is
keeping. Everything else is public and is in every view.

Beside this module: ``constants`` (the steps and seasons), ``labels`` (what an
action does and why one is refused) and ``snapshot`` (the declaration of every
attribute, from which clone and snapshots are built, and rebuilding a state).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from senet.games.archeos import actions as act
from senet.games.archeos import labels, snapshot
from senet.games.archeos import view as view_builders
from senet.games.archeos.actions import (
    BASIS_NAMES,
    BY_COLOUR,
    BY_ROLE,
    SECOND_VEHICLE,
    TARGETS,
    ArcheosAction,
    is_well_formed,
    site_of_target,
    target_name,
)
from senet.games.archeos.cards import (
    COLOUR_NAMES,
    COLOURS,
    HAND_LIMIT,
    MONKEY,
    MONKEYS,
    ROLE_NAMES,
    ROLES,
    ROLES_PER_GAME,
    Role,
    card_name,
    colour_of,
    cut_bounds,
    deck_for,
    role_of,
)
from senet.games.archeos.constants import (
    BUILD,
    CHICHEN,
    CHOOSE_ADVANCE,
    EXTRA,
    KEEP,
    LINGUIST,
    NO_SEAT,
    OVER,
    PATRON,
    PROFESSOR,
    PROFESSOR_MOVE,
    STEPS,
    TURN,
    ULURU,
    UR,
    seasons_for,
)
from senet.games.archeos.scoring import (
    expedition_size_for_points,
    place_by_score_then_expeditions,
    tiebreak_sizes,
)
from senet.games.archeos.sites import (
    BOTANIST_POINTS,
    LINGUIST_BONUS,
    LINGUIST_END,
    PROFESSOR_TOKENS,
    RAPA_NUI_BONUS,
    SITE_IDS,
    Special,
    Track,
    expedition_points,
    linguist_artifacts_between,
    relic_points,
    track_of,
)
from senet.games.archeos.snapshot import FIELDS, deal_deck
from senet.games.errors import MalformedActionError
from senet.games.interface import Event, Game, GameState, JsonDict
from senet.games.rng import Rng
from senet.games.view_parts import build_view, requested

__all__ = [
    "BUILD",
    "CHICHEN",
    "CHOOSE_ADVANCE",
    "EXTRA",
    "KEEP",
    "LINGUIST",
    "NO_SEAT",
    "OVER",
    "PATRON",
    "PROFESSOR",
    "PROFESSOR_MOVE",
    "STEPS",
    "TURN",
    "ULURU",
    "UR",
    "ArcheosState",
    "seasons_for",
]


class _SeasonEnds(Exception):
    """Raised when the third monkey is drawn: the season ends at once."""


class ArcheosState(GameState):
    """An Archeos Society match in progress (or finished)."""

    state_fields = FIELDS
    #: What each part of the view is built from (:attr:`GameState.view_sources`).
    view_sources = {
        ("game",): (),
        ("viewer",): (),
        ("seats",): (),
        ("options",): (),
        ("seasons",): (),
        ("roles",): ("roles",),
        ("advanced_site",): ("advanced",),
        ("season",): ("season",),
        ("step",): ("step",),
        ("current_seat",): ("step", "turn"),
        ("first_seat",): ("first_seat",),
        ("last_monkey_seat",): ("last_monkey",),
        ("deck_size",): ("deck",),
        ("deck_monkey_free_top",): ("monkey_free_top",),
        ("monkeys_drawn",): ("monkeys",),
        ("display",): ("display",),
        ("professor_supply",): ("supply",),
        ("botanist_frame",): ("frame",),
        ("expedition",): ("exp_cards", "exp_basis", "exp_limit", "exp_advanced"),
        ("pending",): (
            "in_ur", "linguist_left", "keep_limit", "chichen_draws", "ur_queue", "prof_queue"
        ),
        ("players", "seat"): (),
        ("players", "score"): ("score",),
        ("players", "hand_size"): ("hands",),
        ("players", "known_hand"): ("known",),
        ("players", "sites"): ("positions",),
        ("players", "linguist"): ("linguist",),
        ("players", "relics"): ("relics",),
        ("players", "professor_tokens"): ("tokens",),
        ("players", "expeditions"): ("expeditions",),
        ("players", "hand"): ("hands",),
        ("players", "kept"): ("kept", "turn"),
        ("scores",): ("score",),
        ("final",): ("final",),
        ("ranking",): ("final", "score", "expeditions"),
    }  # fmt: skip

    # ------------------------------------------------------------------ setup
    def __init__(self, game: Game, seat_count: int, options: JsonDict) -> None:
        self.game = game
        self.seat_count = seat_count
        self.options = dict(options)
        self.rng = Rng(0)
        self.roles: list[int] = []
        self.advanced = 0
        self.season = 1
        # The deck's top card is the *last* element (drawing pops it).
        self.deck: list[int] = []
        # How many cards at the top of the deck are known to hold no monkey (public):
        # a lower bound, since the season's cut point is hidden.
        self.monkey_free_top = 0
        self.monkeys = 0
        self.display: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(seat_count)]
        # Cards everybody knows a hand holds (taken face up from the display), sorted.
        self.known: list[list[int]] = [[] for _ in range(seat_count)]
        self.expeditions: list[list[list[int]]] = [[] for _ in range(seat_count)]
        self.score: list[int] = [0] * seat_count
        self.positions: list[list[int]] = [[0] * TARGETS for _ in range(seat_count)]
        self.linguist: list[int] = [0] * seat_count
        self.relics: list[list[bool]] = [[False] * COLOURS for _ in range(seat_count)]
        self.tokens: list[list[int]] = [[] for _ in range(seat_count)]
        self.supply = list(PROFESSOR_TOKENS)
        # Botanist frame: [seat, expedition index, size]; seat -1 when in the centre.
        self.frame = [NO_SEAT, -1, 0]
        self.first_seat = 0
        self.turn = 0
        self.step = TURN
        self.last_monkey = NO_SEAT
        # The expedition being built or resolved (leader first).
        self.exp_cards: list[int] = []
        self.exp_basis = BY_COLOUR
        self.exp_limit = HAND_LIMIT
        self.exp_advanced = False
        self.in_ur = False
        self.linguist_left = 0
        self.kept: list[int] = []
        self.keep_limit = 0
        self.chichen_draws = 0
        self.ur_queue: list[int] = []
        # Season-end professor moves still to make: [seat, +1 or -1] pairs.
        self.prof_queue: list[list[int]] = []
        self.final: list[dict[str, Any]] | None = None
        self._events: list[Event] | None = None

    def setup(self, seed: int) -> None:
        """Lay out a new game from ``seed`` and start the first season."""
        self.rng = Rng(seed)
        self.roles = self._choose_roles()
        chosen_site = str(self.options.get("advanced_site", "random"))
        if chosen_site == "random":
            self.advanced = self.rng.below(COLOURS)
        else:
            self.advanced = SITE_IDS.index(chosen_site)
        self.deck = deck_for(self.roles)
        self.first_seat = self.rng.below(self.seat_count)
        self._start_season()

    def _choose_roles(self) -> list[int]:
        fixed = [r for r in range(ROLES) if self.options.get(f"role_{ROLE_NAMES[r]}")]
        others = [r for r in range(ROLES) if r not in fixed]
        self.rng.shuffle(others)
        return sorted(fixed + others[: ROLES_PER_GAME - len(fixed)])

    # ------------------------------------------------------------- helpers
    def _emit(self, kind: str, audience: frozenset[int] | None = None, **data: Any) -> None:
        if self._events is not None:
            self._events.append(Event(kind, data, audience))

    def track(self, colour: int) -> Track:
        """The side of the ``colour`` site board in play."""
        return track_of(colour, self.advanced)

    def is_advanced(self, special: Special) -> bool:
        """Whether ``special`` is the site board on its advanced side."""
        return self.advanced == int(special)

    def seasons(self) -> int:
        """Seasons in this match."""
        return seasons_for(self.seat_count)

    def uses(self, role: Role) -> bool:
        """Whether ``role``'s cards are in the deck this game."""
        return int(role) in self.roles

    def _order_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.seat_count for i in range(self.seat_count)]

    def _vehicle_targets(self, seat: int) -> list[int]:
        """Targets (sites, plus Ta-Sekhet-Ma'at's second vehicle when in play).

        Two vehicles on the same Ta-Sekhet-Ma'at space are one target (the first):
        moving either has the same result.
        """
        targets = list(range(COLOURS))
        if self.is_advanced(Special.TA_SEKHET_MAAT):
            pos = self.positions[seat]
            if pos[SECOND_VEHICLE] != pos[Special.TA_SEKHET_MAAT]:
                targets.append(SECOND_VEHICLE)
        return targets

    def _advance_options(self, seat: int, sites: list[int], size: int | None) -> list[int]:
        """Targets at ``sites`` that can move on (past a threshold of ``size`` if given)."""
        out = []
        for target in self._vehicle_targets(seat):
            site = site_of_target(target)
            if site not in sites:
                continue
            track, space = self.track(site), self.positions[seat][target]
            if space < track.last and (size is None or track.can_leave(space, size)):
                out.append(target)
        return out

    def _back_options(self, seat: int) -> list[int]:
        return [t for t in self._vehicle_targets(seat) if self.positions[seat][t] > 0]

    def _move(self, seat: int, target: int, delta: int, reason: str) -> None:
        before = self.positions[seat][target]
        self.positions[seat][target] = before + delta
        self._emit(
            "vehicle_moved",
            seat=seat,
            site=target_name(target),
            start=before,
            end=before + delta,
            reason=reason,
        )

    # ------------------------------------------------------------- seasons
    def _start_season(self) -> None:
        if self.season > 1:
            self.first_seat = self.last_monkey
        self.monkeys = 0
        self.last_monkey = NO_SEAT
        order = list(self.deck)
        self.rng.shuffle(order)
        for seat in range(self.seat_count):
            self.hands[seat] = [order.pop()]
        self.display = sorted(order.pop() for _ in range(self.seat_count + 2))
        # A half-ish cut: where it falls is hidden in the deck's order; only the
        # least number of cards it can leave above the monkeys is public.
        low, high = cut_bounds(len(order))
        top = low + self.rng.below(high - low + 1)
        bottom = order[top:] + [MONKEY] * MONKEYS
        self.rng.shuffle(bottom)
        # order[0] is drawn first; the stored deck has its top card last.
        self.deck = list(reversed(order[:top] + bottom))
        self.monkey_free_top = low
        self.turn = self.first_seat
        self.step = TURN
        self._emit(
            "season_started",
            season=self.season,
            first_seat=self.first_seat,
            display=[card_name(c) for c in self.display],
            deck_size=len(self.deck),
        )
        for seat in range(self.seat_count):
            self._emit(
                "dealt", frozenset({seat}), seat=seat, cards=[card_name(self.hands[seat][0])]
            )
        self._begin_turn()

    def _begin_turn(self) -> None:
        """Start the turn of ``self.turn``: ten Mercenaries are discarded at once."""
        for _ in range(self.seat_count):
            hand = self.hands[self.turn]
            mercenaries = [c for c in hand if role_of(c) == Role.MERCENARY]
            if len(mercenaries) < HAND_LIMIT:
                self.step = TURN
                return
            self.hands[self.turn] = [c for c in hand if role_of(c) != Role.MERCENARY]
            self.known[self.turn] = [
                c for c in self.known[self.turn] if role_of(c) != Role.MERCENARY
            ]
            self.display = sorted(self.display + mercenaries)
            self._emit(
                "mercenaries_discarded",
                seat=self.turn,
                cards=[card_name(c) for c in mercenaries],
            )
            self.turn = (self.turn + 1) % self.seat_count
        self.step = TURN

    def _next_turn(self) -> None:
        self.exp_cards = []
        self.exp_advanced = False
        self.chichen_draws = 0
        self.turn = (self.turn + 1) % self.seat_count
        self._begin_turn()

    def _draw(self, seat: int, wanted: int, reason: str) -> None:
        """Draw up to ``wanted`` cards (the hand limit caps it); monkeys are set aside.

        Raises:
            _SeasonEnds: the third monkey was drawn.
        """
        hand = self.hands[seat]
        wanted = min(wanted, HAND_LIMIT - len(hand))
        drawn: list[int] = []
        while len(drawn) < wanted and self.deck:
            card = self.deck.pop()
            self.monkey_free_top = max(0, self.monkey_free_top - 1)
            if card != MONKEY:
                drawn.append(card)
                continue
            self.monkeys += 1
            self.last_monkey = seat
            self._emit("monkey_drawn", seat=seat, monkeys=self.monkeys)
            if self.monkeys == MONKEYS:
                self._add_drawn(seat, drawn, reason)
                raise _SeasonEnds
        self._add_drawn(seat, drawn, reason)

    def _add_drawn(self, seat: int, drawn: list[int], reason: str) -> None:
        if not drawn:
            return
        self.hands[seat] = sorted(self.hands[seat] + drawn)
        self._emit("cards_drawn", seat=seat, count=len(drawn), reason=reason)
        self._emit(
            "cards_drawn_private",
            frozenset({seat}),
            seat=seat,
            cards=[card_name(c) for c in drawn],
        )

    # --------------------------------------------------------- expeditions
    def _start_expedition(self, seat: int, leader: int, basis: int) -> None:
        self._leave_hand(seat, leader)
        self.exp_cards = [leader]
        self.exp_basis = basis
        self.exp_advanced = False
        self.step = BUILD
        self._emit(
            "expedition_started",
            seat=seat,
            leader=card_name(leader),
            basis=BASIS_NAMES[basis],
            limit=self.exp_limit,
        )

    def _leave_hand(self, seat: int, card: int) -> None:
        """``card`` goes face up from ``seat``'s hand into an expedition."""
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)

    def fits_expedition(self, card: int) -> bool:
        """Whether ``card`` may join the expedition being built: a Mercenary, or a card
        of the leader's colour or role, as the expedition goes."""
        if role_of(card) == Role.MERCENARY:
            return True
        leader = self.exp_cards[0]
        if self.exp_basis == BY_COLOUR:
            return colour_of(card) == colour_of(leader)
        return role_of(card) == role_of(leader)

    def _addable(self, seat: int) -> list[int]:
        if len(self.exp_cards) >= self.exp_limit:
            return []
        lowest = self.exp_cards[-1] if len(self.exp_cards) > 1 else 0
        return sorted({c for c in self.hands[seat] if c >= lowest and self.fits_expedition(c)})

    def _leader_role(self) -> int:
        return role_of(self.exp_cards[0])

    def _resolve(self) -> None:
        """The expedition is complete: record it, then run its stages."""
        seat = self.turn
        cards = self.exp_cards
        self.expeditions[seat].append(list(cards))
        self._emit(
            "expedition_played",
            seat=seat,
            cards=[card_name(c) for c in cards],
            basis=BASIS_NAMES[self.exp_basis],
        )
        role = self._leader_role()
        size = len(cards) + (1 if role == Role.GUIDE else 0)
        options: list[int] = []
        if role != Role.STUDENT:
            sites = list(range(COLOURS)) if role == Role.PILOT else [colour_of(cards[0])]
            options = self._advance_options(seat, sites, size)
        if self._is_choice(seat, options):
            self.step = CHOOSE_ADVANCE
            return
        if options and self._expedition_advance(seat, options[0]):
            return
        self._after_advance()

    def _can_hurt(self, target: int) -> bool:
        """Whether advancing ``target`` may cost its player points (A-9)."""
        return self.track(site_of_target(target)).advancing_can_hurt

    def _is_choice(self, seat: int, options: list[int]) -> bool:
        """Whether a "may advance" needs the player: several vehicles, or one whose
        advance may hurt (then ``skip`` is offered too)."""
        return len(options) > 1 or any(self._can_hurt(t) for t in options)

    def _advance_choices(self, options: list[int]) -> list[ArcheosAction]:
        out = [ArcheosAction(act.ADVANCE, -1, t) for t in options]
        if any(self._can_hurt(t) for t in options):
            out.append(ArcheosAction(act.SKIP))
        return out

    def _expedition_advance(self, seat: int, target: int) -> bool:
        """Move the expedition's vehicle; True when Uluru now asks a question."""
        self.exp_advanced = True
        return self._advance(seat, target, "expedition")

    def _advance(self, seat: int, target: int, reason: str) -> bool:
        """Move a vehicle on one space and apply its site's "vehicle advances" effect,
        whatever moved it (A-10); True when Uluru now asks whether to cash in.

        Chichén Itzá's cards come at the end of the turn, so a season-end (Professor)
        advance there draws nothing: the season's cards are already back in the deck.
        """
        site = site_of_target(target)
        before = self.positions[seat][target]
        self._move(seat, target, 1, reason)
        chichen = self.is_advanced(Special.CHICHEN_ITZA) and site == Special.CHICHEN_ITZA
        if chichen and reason != "professor":
            self.chichen_draws += self.track(site).draws[before]
        if (
            self.is_advanced(Special.ULURU)
            and site == Special.ULURU
            and self.track(site).points[before + 1] > 0
        ):
            self.step = ULURU
            return True
        return False

    def _after_advance(self) -> None:
        """Stage 2: the leader's role effect, then the rest."""
        seat = self.turn
        role = self._leader_role()
        leader = self.exp_cards[0]
        size = len(self.exp_cards)
        if role == Role.BOTANIST:
            if self.frame[0] == NO_SEAT or size >= self.frame[2]:
                self.score[seat] += BOTANIST_POINTS
                self.frame = [seat, len(self.expeditions[seat]) - 1, size]
                self._emit("botanist_framed", seat=seat, size=size, points=BOTANIST_POINTS)
        elif role == Role.CURATOR:
            colour = colour_of(leader)
            if not self.relics[seat][colour]:
                self.relics[seat][colour] = True
                self._emit("relic_placed", seat=seat, colour=COLOUR_NAMES[colour])
        elif role == Role.LINGUIST:
            before = self.linguist[seat]
            after = min(LINGUIST_END, before + size)
            self.linguist[seat] = after
            self.linguist_left = linguist_artifacts_between(before, after)
            self._emit(
                "linguist_moved",
                seat=seat,
                start=before,
                end=after,
                artifacts=self.linguist_left,
            )
            if self._linguist_next():
                return
        elif role == Role.PROFESSOR:
            tokens = [t for t in self.supply if t <= size]
            if len(tokens) > 1:
                self.step = PROFESSOR
                return
            if tokens:
                self._take_token(seat, tokens[0])
        self._after_role()

    def _linguist_next(self) -> bool:
        """Make the linguist's free advances; True when a choice is needed.

        ``linguist_left`` still counts an advance while Uluru asks about it, which is
        how the Uluru step knows to come back here.
        """
        seat = self.turn
        while self.linguist_left > 0:
            options = self._advance_options(seat, list(range(COLOURS)), None)
            if not options:
                self.linguist_left = 0
                break
            if self._is_choice(seat, options):
                self.step = LINGUIST
                return True
            if self._linguist_advance(seat, options[0]):
                return True
        return False

    def _linguist_advance(self, seat: int, target: int) -> bool:
        """One artifact's advance; True when Uluru asks (the count drops after)."""
        if self._advance(seat, target, "linguist"):
            return True
        self.linguist_left -= 1
        return False

    def _take_token(self, seat: int, token: int) -> None:
        self.supply.remove(token)
        self.tokens[seat].append(token)
        self._emit("professor_token_taken", seat=seat, token=token)

    def _after_role(self) -> None:
        """Stage 3: the Cartographer's extra expedition.

        Ur's season-end round grants each player "a single expedition" (A-14), so
        there the round moves on instead; the rest of the hand returns to the deck
        with the season, so no keep or draw is asked either.
        """
        if self.in_ur:
            self._ur_next()
            return
        seat = self.turn
        if self._leader_role() == Role.CARTOGRAPHER and self.exp_advanced and self._leads(seat):
            self.step = EXTRA
            return
        self._return_hand()

    def _leads(self, seat: int) -> list[ArcheosAction]:
        leaders = sorted({c for c in self.hands[seat] if role_of(c) != Role.MERCENARY})
        return [
            ArcheosAction(act.LEAD, c, basis) for c in leaders for basis in (BY_COLOUR, BY_ROLE)
        ]

    def _return_hand(self) -> None:
        """Stage 4: the rest of the hand goes to the display (Physician: keep some)."""
        seat = self.turn
        if self._leader_role() == Role.PHYSICIAN and self.hands[seat]:
            self.kept = []
            self.keep_limit = min(len(self.exp_cards), len(self.hands[seat]))
            self.step = KEEP
            return
        self._finish_return(seat, [])

    def _finish_return(self, seat: int, kept: list[int]) -> None:
        rest = list(self.hands[seat])
        for card in kept:
            rest.remove(card)
        # Known cards not among those shown going to the display are still in hand.
        known = list(self.known[seat])
        for card in rest:
            if card in known:
                known.remove(card)
        self.known[seat] = known
        self.hands[seat] = sorted(kept)
        self.kept = []
        self.keep_limit = 0
        self.display = sorted(self.display + rest)
        self._emit("cards_to_display", seat=seat, cards=[card_name(c) for c in rest])
        if kept:
            self._emit("cards_kept", seat=seat, count=len(kept))
        self._end_of_turn(seat)

    def _end_of_turn(self, seat: int) -> None:
        """Stage 5: the Patron's draw, which its player may decline (A-9).

        Asked whenever a card could come, even from the monkey-free top: a full hand
        cannot gain cards, so more cards are not always better.
        """
        if self._leader_role() == Role.PATRON and self._drawable(seat, len(self.exp_cards)):
            self.step = PATRON
            return
        self._chichen_next(seat)

    def _drawable(self, seat: int, wanted: int) -> int:
        """How many of ``wanted`` cards a draw would bring (hand limit, deck size)."""
        return max(0, min(wanted, HAND_LIMIT - len(self.hands[seat]), len(self.deck)))

    def draw_may_reach_monkey(self, wanted: int) -> bool:
        """Whether drawing ``wanted`` cards may draw a monkey (public knowledge only)."""
        return self.monkeys < MONKEYS and wanted > self.monkey_free_top

    def _chichen_next(self, seat: int) -> None:
        """Stage 6: Chichén Itzá's "up to" draws, then the next player.

        Before each card the player chooses to draw it or stop (A-9), so any number up
        to the line's count (and the hand limit) can be drawn.
        """
        if self.chichen_draws and self._drawable(seat, self.chichen_draws):
            self.step = CHICHEN
            return
        self.chichen_draws = 0
        self._next_turn()

    # ------------------------------------------------------------ season end
    def _end_season(self) -> None:
        self.exp_cards = []
        self.exp_advanced = False
        self.chichen_draws = 0
        self.linguist_left = 0
        self.kept = []
        self.keep_limit = 0
        self.exp_limit = HAND_LIMIT
        self._emit("season_ending", season=self.season, seat=self.last_monkey)
        if self.is_advanced(Special.UR):
            self.ur_queue = self._order_from(self.last_monkey)
            self._ur_next()
            return
        self._season_effects()

    def _ur_next(self) -> None:
        """Offer the next player in Ur's round a season-end expedition."""
        self.exp_cards = []
        self.exp_advanced = False
        self.chichen_draws = 0
        track = self.track(Special.UR)
        while self.ur_queue:
            seat = self.ur_queue.pop(0)
            limit = track.ur_limits[self.positions[seat][Special.UR]]
            if limit >= 1 and self._leads(seat):
                self.turn = seat
                self.in_ur = True
                self.exp_limit = limit
                self.step = UR
                return
        self.in_ur = False
        self.exp_limit = HAND_LIMIT
        self._season_effects()

    def _season_effects(self) -> None:
        """Season end steps 1 and 2: cards back to the deck, role effects."""
        for seat in range(self.seat_count):
            self.deck.extend(self.hands[seat])
            self.hands[seat] = []
            self.known[seat] = []
        self.deck.extend(self.display)
        self.display = []
        self.deck = [c for c in self.deck if c != MONKEY]
        self.monkey_free_top = 0
        if self.frame[0] != NO_SEAT:
            seat = self.frame[0]
            self.score[seat] += BOTANIST_POINTS
            self._emit("season_bonus", seat=seat, bonus="botanist", points=BOTANIST_POINTS)
            self.frame = [NO_SEAT, -1, 0]
        furthest = max(self.linguist)
        if self.uses(Role.LINGUIST) and furthest > 0:
            for seat in range(self.seat_count):
                if self.linguist[seat] == furthest:
                    self.score[seat] += LINGUIST_BONUS
                    self._emit("season_bonus", seat=seat, bonus="linguist", points=LINGUIST_BONUS)
        self.prof_queue = []
        if self.uses(Role.PROFESSOR):
            totals = [sum(t) for t in self.tokens]
            high, low = max(totals), min(totals)
            if high != low:
                order = self._order_from(self.last_monkey)
                self.prof_queue = [[s, 1] for s in order if totals[s] == high]
                self.prof_queue += [[s, -1] for s in order if totals[s] == low]
            self.supply = list(PROFESSOR_TOKENS)
            self.tokens = [[] for _ in range(self.seat_count)]
        self._prof_next()

    def _prof_options(self, seat: int, delta: int) -> list[int]:
        if delta > 0:
            return self._advance_options(seat, list(range(COLOURS)), None)
        return self._back_options(seat)

    def _prof_next(self) -> None:
        while self.prof_queue:
            seat, delta = self.prof_queue[0]
            options = self._prof_options(seat, delta)
            if len(options) > 1:
                self.turn = seat
                self.step = PROFESSOR_MOVE
                return
            self.prof_queue.pop(0)
            if options and self._prof_move(seat, options[0], delta):
                return
        self._score_season()

    def _prof_move(self, seat: int, target: int, delta: int) -> bool:
        """One season-end Professor move; True when Uluru asks about it (A-10)."""
        if delta > 0:
            self.turn = seat
            return self._advance(seat, target, "professor")
        self._move(seat, target, delta, "professor")
        return False

    def _score_season(self) -> None:
        """Season end steps 3 to 6: sites, expeditions, next season or game end."""
        site_points = [self._site_points(seat) for seat in range(self.seat_count)]
        for seat in range(self.seat_count):
            self.score[seat] += sum(site_points[seat])
        rapa_nui: list[int] = []
        if self.is_advanced(Special.RAPA_NUI):
            spaces = [p[Special.RAPA_NUI] for p in self.positions]
            if max(spaces) > 0:
                rapa_nui = [s for s in range(self.seat_count) if spaces[s] == max(spaces)]
            for seat in rapa_nui:
                self.score[seat] += RAPA_NUI_BONUS
                self._move(
                    seat, int(Special.RAPA_NUI), -self.positions[seat][Special.RAPA_NUI], "rapa_nui"
                )
        removed: list[int] = []
        expedition_scores = []
        for seat in range(self.seat_count):
            kept_expeditions = []
            for cards in self.expeditions[seat]:
                removed += [c for c in cards if role_of(c) == Role.MERCENARY]
                kept_expeditions.append([c for c in cards if role_of(c) != Role.MERCENARY])
            self.expeditions[seat] = kept_expeditions
            points = sum(expedition_points(expedition_size_for_points(e)) for e in kept_expeditions)
            expedition_scores.append(points)
            self.score[seat] += points
        self.deck.extend(removed)
        self._emit(
            "season_scored",
            season=self.season,
            sites=site_points,
            rapa_nui=rapa_nui,
            expeditions=expedition_scores,
            scores=list(self.score),
        )
        if self.season < self.seasons():
            for seat in range(self.seat_count):
                for cards in self.expeditions[seat]:
                    self.deck.extend(cards)
                self.expeditions[seat] = []
            self.season += 1
            self._start_season()
            return
        self._finish_game()

    def _site_points(self, seat: int) -> list[int]:
        out = []
        pos = self.positions[seat]
        for site in range(COLOURS):
            track = self.track(site)
            space = pos[site]
            if self.is_advanced(Special.ULURU) and site == Special.ULURU:
                out.append(0)
            elif self.is_advanced(Special.TA_SEKHET_MAAT) and site == Special.TA_SEKHET_MAAT:
                out.append(track.points[min(space, pos[SECOND_VEHICLE])])
            elif self.is_advanced(Special.TANTALLON_CASTLE) and site == Special.TANTALLON_CASTLE:
                shared = any(
                    self.positions[o][site] == space for o in range(self.seat_count) if o != seat
                )
                out.append(track.shared_points[space] if shared else track.points[space])
            else:
                out.append(track.points[space])
        return out

    def _finish_game(self) -> None:
        final = []
        for seat in range(self.seat_count):
            relics = sum(self.relics[seat])
            points = relic_points(relics) if self.uses(Role.CURATOR) else 0
            self.score[seat] += points
            final.append(
                {
                    "seat": seat,
                    "relics": relics,
                    "relic_points": points,
                    "total": self.score[seat],
                    "expedition_sizes": tiebreak_sizes(self.expeditions[seat]),
                }
            )
        self.final = final
        self.step = OVER
        self._emit("game_over", scores=list(self.score), ranking=self.ranking())

    # ---------------------------------------------------------------- queries
    def current_seat(self) -> int | None:
        return None if self.step == OVER else self.turn

    def is_over(self) -> bool:
        return self.step == OVER

    def legal_actions(self) -> list[ArcheosAction]:  # type: ignore[override]
        step = self.step
        seat = self.turn
        A = ArcheosAction
        if step == TURN:
            out: list[ArcheosAction] = []
            if len(self.hands[seat]) < HAND_LIMIT:
                out += [A(act.TAKE, c) for c in sorted(set(self.display))]
                if self.deck:
                    out.append(A(act.DRAW))
            return out + self._leads(seat)
        if step == BUILD:
            return [A(act.ADD, c) for c in self._addable(seat)] + [A(act.GO)]
        if step == CHOOSE_ADVANCE:
            return self._advance_choices(self._choose_advance_options())
        if step == ULURU:
            return [A(act.CASH), A(act.STAY)]
        if step == LINGUIST:
            return self._advance_choices(self._advance_options(seat, list(range(COLOURS)), None))
        if step in (PATRON, CHICHEN):
            return [A(act.DRAW), A(act.SKIP)]
        if step == PROFESSOR:
            size = len(self.exp_cards)
            return [A(act.PROFESSOR, -1, t) for t in self.supply if t <= size]
        if step == EXTRA:
            return [*self._leads(seat), A(act.DONE)]
        if step == KEEP:
            return [A(act.KEEP, c) for c in self._keepable(seat)] + [A(act.DONE)]
        if step == UR:
            return [*self._leads(seat), A(act.PASS)]
        if step == PROFESSOR_MOVE:
            _, delta = self.prof_queue[0]
            kind = act.ADVANCE if delta > 0 else act.BACK
            return [A(kind, -1, t) for t in self._prof_options(seat, delta)]
        return []

    def _choose_advance_options(self) -> list[int]:
        seat = self.turn
        role = self._leader_role()
        size = len(self.exp_cards) + (1 if role == Role.GUIDE else 0)
        sites = list(range(COLOURS)) if role == Role.PILOT else [colour_of(self.exp_cards[0])]
        return self._advance_options(seat, sites, size)

    def _keepable(self, seat: int) -> list[int]:
        if len(self.kept) >= self.keep_limit:
            return []
        remaining = list(self.hands[seat])
        for card in self.kept:
            remaining.remove(card)
        lowest = self.kept[-1] if self.kept else 0
        return sorted({c for c in remaining if c >= lowest})

    # ------------------------------------------------------------ transitions
    def coerce_action(self, action: object) -> ArcheosAction:
        if isinstance(action, str):
            return act.parse_action(action)
        if isinstance(action, ArcheosAction) and is_well_formed(action):
            return action
        raise MalformedActionError(f"not an Archeos Society action: {action!r}")

    def _apply(self, action: Any, events: list[Event] | None) -> None:
        self._events = events
        try:
            self._dispatch(action)
        except _SeasonEnds:
            self._end_season()
        finally:
            self._events = None

    def _dispatch(self, action: ArcheosAction) -> None:
        kind = action.kind
        seat = self.turn
        step = self.step
        if step == TURN:
            if kind == act.TAKE:
                self.display.remove(action.card)
                self.hands[seat] = sorted([*self.hands[seat], action.card])
                self.known[seat] = sorted([*self.known[seat], action.card])
                self._emit("card_taken", seat=seat, card=card_name(action.card))
                self._next_turn()
            elif kind == act.DRAW:
                self._draw(seat, 1 if self.display else 2, "deck")
                self._next_turn()
            else:
                self.exp_limit = HAND_LIMIT
                self._start_expedition(seat, action.card, action.arg)
        elif step in (EXTRA, UR):
            if kind == act.LEAD:
                self._start_expedition(seat, action.card, action.arg)
            elif step == EXTRA:
                self._return_hand()
            else:
                self._emit("ur_passed", seat=seat)
                self._ur_next()
        elif step == BUILD:
            if kind == act.ADD:
                self._leave_hand(seat, action.card)
                self.exp_cards.append(action.card)
            else:
                self._resolve()
        elif step == CHOOSE_ADVANCE:
            if kind == act.SKIP or not self._expedition_advance(seat, action.arg):
                self._after_advance()
        elif step == ULURU:
            if kind == act.CASH:
                target = int(Special.ULURU)
                points = self.track(target).points[self.positions[seat][target]]
                self.score[seat] += points
                self._emit("uluru_cashed", seat=seat, points=points)
                self._move(seat, target, -self.positions[seat][target], "uluru")
            self._after_uluru()
        elif step == LINGUIST:
            if kind == act.SKIP:
                self.linguist_left -= 1
            elif self._linguist_advance(seat, action.arg):
                return
            if not self._linguist_next():
                self._after_role()
        elif step == PATRON:
            if kind == act.DRAW:
                self._draw(seat, len(self.exp_cards), "patron")
            self._chichen_next(seat)
        elif step == CHICHEN:
            if kind == act.DRAW:
                self.chichen_draws -= 1
                self._draw(seat, 1, "chichen_itza")
                self._chichen_next(seat)
            else:
                self.chichen_draws = 0
                self._next_turn()
        elif step == PROFESSOR:
            self._take_token(seat, action.arg)
            self._after_role()
        elif step == KEEP:
            if kind == act.KEEP:
                self.kept.append(action.card)
                if len(self.kept) < self.keep_limit:
                    return
            self._finish_return(seat, list(self.kept))
        elif step == PROFESSOR_MOVE:
            _, delta = self.prof_queue.pop(0)
            if not self._prof_move(seat, action.arg, delta):
                self._prof_next()

    def _after_uluru(self) -> None:
        """Go on from where the Uluru question came: a season-end Professor move (no
        expedition), a linguist artifact (one still counted), or the expedition."""
        if not self.exp_cards:
            self._prof_next()
        elif self.linguist_left:
            self.linguist_left -= 1
            if not self._linguist_next():
                self._after_role()
        else:
            self._after_advance()

    # ------------------------------------------------------------------ results
    def scores(self) -> list[int]:
        return list(self.score)

    def ranking(self) -> list[int]:
        return place_by_score_then_expeditions(
            self.score, [tiebreak_sizes(e) for e in self.expeditions]
        )

    # ------------------------------------------------------------------ labels
    def describe(self, action: Any) -> str:
        return labels.describe(self, action)

    def explain_illegal(self, action: Any) -> str:
        return labels.explain_illegal(self, action)

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> JsonDict:
        """Everything public, plus ``seat``'s own hand (and cards it is keeping)."""
        return build_view(self, seat, view_builders.PARTS)

    def view_parts(self, seat: int | None, parts: Iterable[tuple[str, ...]]) -> JsonDict:
        return build_view(self, seat, view_builders.PARTS, requested(parts))

    def _unseen_by(self, seat: int | None) -> list[int]:
        """Cards ``seat`` cannot see: the deck, other hands but their known cards
        (monkeys excluded)."""
        out = [c for c in self.deck if c != MONKEY]
        for s in range(self.seat_count):
            if s != seat:
                hidden = list(self.hands[s])
                for card in self.known[s]:
                    hidden.remove(card)
                out += hidden
        return out

    def determinize(self, seat: int | None, seed: int) -> ArcheosState:
        """Deal the cards ``seat`` cannot see afresh: other hands and the deck order.

        Monkeys stay below the part of the deck known to be monkey-free.
        """
        twin = self.clone()
        sampler = Rng(seed)
        pool = twin._unseen_by(seat)
        sampler.shuffle(pool)
        for s in range(twin.seat_count):
            if s != seat:
                size = len(twin.hands[s]) - len(twin.known[s])
                twin.hands[s] = sorted(twin.known[s] + pool[:size])
                del pool[:size]
        if seat != twin.turn:
            # Which cards a Physician is keeping is part of that seat's secret hand.
            twin.kept = []
        twin.deck = deal_deck(pool, len(self.deck), self.monkey_free_top, sampler)
        twin.rng = Rng(sampler.next_u64())
        return twin

    # ---------------------------------------------------------- serialization
    @classmethod
    def from_data(cls, game: Game, data: Mapping[str, Any]) -> ArcheosState:
        """Rebuild a state from :meth:`to_data` output, checking every field.

        Raises:
            CorruptStateError: a field is missing, mistyped, out of range or
                inconsistent with the others.
        """
        return snapshot.state_from_data(cls, game, data)

    @classmethod
    def from_view(cls, game: Game, view: Mapping[str, Any], seed: int) -> ArcheosState:
        """A state whose view equals ``view``; what it hides is sampled from ``seed``.

        Raises:
            CorruptStateError: the view is not one this class produced.
        """
        return snapshot.state_from_view(cls, game, view, seed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ArcheosState) and self.to_data() == other.to_data()

    __hash__ = None  # type: ignore[assignment]
