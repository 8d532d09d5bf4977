"""One position of a Pebbles match."""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from senet.games.errors import CorruptStateError, InvalidOptionsError, MalformedActionError
from senet.games.fields import LIST, SCALAR, TABLE, StateFields
from senet.games.interface import Action, Event, Game, GameState, JsonDict, coerce_text_or
from senet.games.rng import Rng
from senet.games.validate import field, int_list, integer
from tests.pebbles.core.rules import PEBBLES_IN_PLAY, VALUES, Play

_DATA_KEYS = frozenset(
    {"game", "seats", "options", "hands", "bag", "pile", "top", "points", "turn"}
)
_VIEW_KEYS = frozenset(
    {"game", "viewer", "seats", "options", "hand", "hand_sizes", "bag_size", "pile", "top",
     "scores", "turn"}
)  # fmt: skip
_MAX_SCORE = 10**6


#: Every attribute of a position, declared once: clone, to_data and snapshot_data are
#: built from it (``senet.games.fields``), and ``tests/test_state_fields.py`` checks
#: that nothing else is kept.
FIELDS: StateFields[PebblesState] = StateFields(
    "pebbles",
    saved=(*TABLE("hands"), *LIST("bag", "pile"), *SCALAR("top"), *LIST("points"), *SCALAR("turn")),
)


class PebblesState(GameState):
    """Hands (hidden, kept sorted), the bag (hidden, drawn from its end), the public pile."""

    state_fields = FIELDS

    def __init__(
        self,
        game: Game,
        seats: int,
        options: JsonDict,
        hands: list[list[int]],
        bag: list[int],
        pile: list[int],
        top: int,
        scores: list[int],
        turn: int | None,
    ) -> None:
        self.game = game
        self.seat_count = seats
        self.options = options
        self.hands = hands
        self.bag = bag
        self.pile = pile
        self.top = top
        self.points = scores
        self.turn = turn

    @classmethod
    def deal(cls, game: Game, seats: int, options: JsonDict, seed: int) -> PebblesState:
        """The first position: a bag shuffled from ``seed``, ``hand_size`` pebbles each."""
        bag = list(PEBBLES_IN_PLAY)
        Rng(seed).shuffle(bag)
        size = int(options["hand_size"])
        hands = [sorted(bag.pop() for _ in range(size)) for _ in range(seats)]
        return cls(game, seats, options, hands, bag, [], 0, [0] * seats, 0)

    # --- queries ----------------------------------------------------------------
    def current_seat(self) -> int | None:
        return self.turn

    def legal_actions(self) -> list[Action]:
        if self.turn is None:
            return []
        return [Play(tile) for tile in sorted(set(self.hands[self.turn]))]

    def describe(self, action: Action) -> str:
        play = self._play(action)
        if self.turn is None or play.tile not in self.hands[self.turn]:
            return f"Play a {play.tile}"
        points, _ = self._outcome(play.tile)
        return f"Play a {play.tile} (scores {points})"

    def explain_illegal(self, action: Action) -> str:
        play = self._play(action)
        if self.turn is None:
            return "the match is over"
        hand = self.hands[self.turn]
        if play.tile not in hand:
            held = ", ".join(map(str, hand))
            return f"seat {self.turn} holds no {play.tile} (its hand: {held})"
        return f"playing a {play.tile} is legal"

    def scores(self) -> list[int]:
        return list(self.points)

    def ranking(self) -> list[int]:
        return [1 + sum(other > mine for other in self.points) for mine in self.points]

    def view(self, seat: int | None) -> JsonDict:
        return {
            "game": self.game.info.id,
            "viewer": seat,
            "seats": self.seat_count,
            "options": dict(self.options),
            "hand": None if seat is None else list(self.hands[seat]),
            "hand_sizes": [len(hand) for hand in self.hands],
            "bag_size": len(self.bag),
            "pile": list(self.pile),
            "top": self.top,
            "scores": list(self.points),
            "turn": self.turn,
        }

    def determinize(self, seat: int | None, seed: int) -> PebblesState:
        twin = self.clone()
        others = [s for s in range(self.seat_count) if s != seat]
        pool = [*self.bag, *(tile for s in others for tile in self.hands[s])]
        twin.hands, twin.bag = _redeal(self.hands, others, sorted(pool), Rng(seed))
        return twin

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PebblesState) and self.to_data() == other.to_data()

    __hash__ = None  # type: ignore[assignment]

    # --- transitions ------------------------------------------------------------
    def coerce_action(self, action: object) -> Action:
        play = coerce_text_or(self.game, action, Play)
        self._play(play)
        return play

    def _apply(self, action: Action, events: list[Event] | None) -> None:
        seat = self.turn
        assert seat is not None, "apply on a finished match"  # callers check first
        tile = self._play(action).tile
        points, self.top = self._outcome(tile)
        self.hands[seat].remove(tile)
        self.pile.append(tile)
        self.points[seat] += points
        drawn = self.bag.pop() if self.bag else None
        if drawn is not None:
            insort(self.hands[seat], drawn)
        self.turn = self._next_seat(seat)
        if events is None:
            return
        events.append(Event("played", {"seat": seat, "tile": tile, "points": points}))
        if drawn is not None:
            events.append(Event("drew", {"seat": seat, "bag_size": len(self.bag)}))
            events.append(
                Event("drew_tile", {"seat": seat, "tile": drawn}, audience=frozenset({seat}))
            )
        if self.turn is None:
            events.append(Event("finished", {"scores": self.scores(), "places": self.ranking()}))

    def _outcome(self, tile: int) -> tuple[int, int]:
        """(points scored, new top) for playing ``tile`` now."""
        if tile > self.top:
            return tile, tile
        if tile == self.top and self.options["doubles"]:
            return 2 * tile, tile
        return 0, 0

    def _next_seat(self, seat: int) -> int | None:
        for step in range(1, self.seat_count + 1):
            candidate = (seat + step) % self.seat_count
            if self.hands[candidate]:
                return candidate
        return None

    @staticmethod
    def _play(action: object) -> Play:
        if (
            not isinstance(action, Play)
            or type(action.tile) is not int
            or action.tile not in VALUES
        ):
            raise MalformedActionError(f"not a Pebbles action: {action!r}")
        return action

    # --- rebuilding -------------------------------------------------------------
    @classmethod
    def from_data(cls, game: Game, data: Mapping[str, Any]) -> PebblesState:
        """Rebuild from :meth:`to_data` output, refusing anything inconsistent."""
        _exact_keys(data, _DATA_KEYS, "state data")
        seats = integer(field(data, "seats"), "seats", game.info.min_seats, game.info.max_seats)
        options = _options(game, seats, field(data, "options"))
        size = int(options["hand_size"])
        hands = field(data, "hands")
        if not isinstance(hands, list) or len(hands) != seats:
            raise CorruptStateError(f"hands must be a list of {seats} hands")
        hands = [_sorted_tiles(hand, f"hands[{i}]", size) for i, hand in enumerate(hands)]
        bag = int_list(field(data, "bag"), "bag", 1, 8)
        pile = int_list(field(data, "pile"), "pile", 1, 8)
        top = _top(field(data, "top"), pile)
        scores = int_list(field(data, "points"), "points", 0, _MAX_SCORE, seats)
        turn = _turn(field(data, "turn"), [len(hand) for hand in hands])
        if Counter(tile for hand in hands for tile in hand) + Counter(bag) + Counter(
            pile
        ) != Counter(PEBBLES_IN_PLAY):
            raise CorruptStateError("hands, bag and pile do not hold every pebble once")
        return cls(game, seats, options, hands, bag, pile, top, scores, turn)

    @classmethod
    def from_view(cls, game: Game, view: Mapping[str, Any], seed: int) -> PebblesState:
        """A full state consistent with ``view``; hidden pebbles dealt from ``seed``."""
        _exact_keys(view, _VIEW_KEYS, "view")
        seats = integer(field(view, "seats"), "seats", game.info.min_seats, game.info.max_seats)
        options = _options(game, seats, field(view, "options"))
        raw_viewer = field(view, "viewer")
        viewer = None if raw_viewer is None else integer(raw_viewer, "viewer", 0, seats - 1)
        sizes = int_list(
            field(view, "hand_sizes"), "hand_sizes", 0, int(options["hand_size"]), seats
        )
        raw_hand = field(view, "hand")
        if (raw_hand is None) != (viewer is None):
            raise CorruptStateError("a seat's view shows its hand, a spectator's none")
        hand = [] if viewer is None else _sorted_tiles(raw_hand, "hand", sizes[viewer])
        if viewer is not None and len(hand) != sizes[viewer]:
            raise CorruptStateError("the hand does not match its size")
        pile = int_list(field(view, "pile"), "pile", 1, 8)
        bag_size = integer(field(view, "bag_size"), "bag_size", 0, len(PEBBLES_IN_PLAY))
        unseen = Counter(PEBBLES_IN_PLAY)
        unseen.subtract(Counter(pile) + Counter(hand))
        others = [s for s in range(seats) if s != viewer]
        if min(unseen.values()) < 0 or sum(unseen.values()) != bag_size + sum(
            sizes[s] for s in others
        ):
            raise CorruptStateError("the view's pebbles do not add up")
        known = [hand if s == viewer else [0] * sizes[s] for s in range(seats)]
        hands, bag = _redeal(known, others, sorted(unseen.elements()), Rng(seed))
        data = {
            "game": game.info.id,
            "seats": seats,
            "options": options,
            "hands": hands,
            "bag": bag,
            "pile": pile,
            "top": field(view, "top"),
            "points": field(view, "scores"),
            "turn": field(view, "turn"),
        }
        return cls.from_data(game, data)


def _redeal(
    hands: Sequence[Sequence[int]], seats: list[int], pool: list[int], rng: Rng
) -> tuple[list[list[int]], list[int]]:
    """Shuffle ``pool`` and deal each of ``seats`` as many pebbles as it holds; the rest
    is the bag. Other seats keep their hands."""
    rng.shuffle(pool)
    out = [list(hand) for hand in hands]
    for seat in seats:
        out[seat] = sorted(pool.pop() for _ in hands[seat])
    return out, pool


def _exact_keys(data: object, keys: frozenset[str], what: str) -> None:
    if not isinstance(data, Mapping):
        raise CorruptStateError(f"{what} must be an object")
    if set(data) != keys:
        odd = sorted(set(data) ^ keys)
        raise CorruptStateError(f"{what} has wrong or missing fields: {', '.join(odd)}")


def _options(game: Game, seats: int, options: object) -> JsonDict:
    if not isinstance(options, Mapping):
        raise CorruptStateError("options must be an object")
    try:
        normalized = game.normalize_options(seats, options)
    except InvalidOptionsError as error:
        raise CorruptStateError(f"bad options: {error}") from error
    if normalized != dict(options) or any(
        type(normalized[name]) is not type(options[name]) for name in options
    ):
        raise CorruptStateError("options are not normalized")
    return normalized


def _sorted_tiles(value: object, name: str, most: int) -> list[int]:
    tiles = int_list(value, name, 1, 8)
    if len(tiles) > most or tiles != sorted(tiles):
        raise CorruptStateError(f"{name} must be a sorted hand of at most {most} pebbles")
    return tiles


def _top(value: object, pile: list[int]) -> int:
    top = integer(value, "top", 0, 8)
    if top and (not pile or pile[-1] != top):
        raise CorruptStateError("top must be 0 or the last pebble played")
    return top


def _turn(value: object, sizes: list[int]) -> int | None:
    if value is None:
        if any(sizes):
            raise CorruptStateError("turn is unset while a seat still holds pebbles")
        return None
    turn = integer(value, "turn", 0, len(sizes) - 1)
    if not sizes[turn]:
        raise CorruptStateError("the seat to move holds no pebble")
    return turn
