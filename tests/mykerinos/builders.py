"""Build Mykerinos positions for scenario tests.

Scenario tests describe a position the way the rulebook does (who stands where,
which plots, which rooms) and then drive it with ordinary actions. The few private
pokes needed to lay out such a position live here, in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from senet.games.interface import Event
from senet.games.mykerinos import MYKERINOS, MykerinosState
from senet.games.mykerinos import state as st
from senet.games.mykerinos.museum import parse_room
from senet.games.mykerinos.nile import NILE_CARDS
from senet.games.mykerinos.patrons import CODE_TO_PATRON, Patron
from senet.games.mykerinos.plots import PLOT_CARDS
from senet.games.mykerinos.region import parse_space, region_shape

BLUE, RED, GREEN, WHITE = 0, 1, 2, 3


def card_id(patron: str | None, points: int, pyramids: int | None = None) -> int:
    """The first plot card with that patron code (None: the 5-point card) and points."""
    for card in PLOT_CARDS:
        wanted = None if patron is None else CODE_TO_PATRON[patron]
        pyramids_ok = pyramids is None or sum(card.pyramids) == pyramids
        if card.patron == wanted and card.points == points and pyramids_ok:
            return card.id
    raise LookupError((patron, points, pyramids))


def fill(cards: Sequence[int], count: int) -> list[int]:
    """``cards`` followed by other patron cards, ``count`` ids in all, no repeats."""
    rest = [c.id for c in PLOT_CARDS if c.id not in cards and c.patron is not None]
    return [*cards, *rest[: count - len(cards)]]


def new_state(seats: int, seed: int = 0, **options: bool) -> MykerinosState:
    """A new match; keyword options switch variants on (``nile=True``, ...)."""
    state = MYKERINOS.new_match(seats, options, seed=seed)
    assert isinstance(state, MykerinosState)
    return state


def lay_region(
    state: MykerinosState,
    cards: Sequence[int] | None = None,
    rotated: Sequence[bool] | None = None,
    pyramids: Sequence[str] | None = None,
) -> None:
    """Replace the region by ``cards`` (slot order) and clear it.

    ``pyramids`` (when given, even empty) overrides the cards' pyramid layout with
    exactly these spaces, which keeps scenario boards readable.
    """
    count = len(state.slots) if cards is None else len(cards)
    ids = list(cards) if cards is not None else [s[0] for s in state.slots]
    turns = list(rotated) if rotated is not None else [False] * count
    state.slots = list(zip(ids, turns, strict=True))
    state.shape = region_shape(count // 4)
    state.lay_terrain()
    if pyramids is not None:
        state.pyramid = [False] * state.shape.size
        for name in pyramids:
            state.pyramid[parse_space(name)] = True
    state.board = [st.EMPTY] * state.shape.size
    state.blocked = [st.EMPTY] * state.shape.size


def put(state: MykerinosState, colour: int, *spaces: str) -> None:
    """Stand archaeologists of ``colour`` on ``spaces``, taken from the general reserve."""
    for name in spaces:
        index = parse_space(name)
        assert state.board[index] == st.EMPTY, name
        state.board[index] = colour
        state.general[colour] -= 1


def set_reserve(state: MykerinosState, seat: int, colour: int, count: int) -> None:
    """Set a personal reserve count, balancing against the general reserve."""
    delta = count - state.personal[seat][colour]
    state.personal[seat][colour] = count
    state.general[colour] -= delta


def give_cards(state: MykerinosState, seat: int, **counts: int) -> None:
    """Give patron cards by code: ``give_cards(s, 0, exp=3, hei=2)``.

    The cards come out of the deck (those not in play), as if won earlier.
    """
    for code, n in counts.items():
        patron = CODE_TO_PATRON[code]
        if patron == Patron.GOVERNOR:
            _give_governors(state, seat, n)
            continue
        held = [c for c in state.won[seat] if PLOT_CARDS[c].patron == patron]
        for card in held[n:]:
            state.won[seat].remove(card)
            state.deck.append(card)
        for _ in range(n - len(held)):
            card = next(c for c in state.deck if PLOT_CARDS[c].patron == patron)
            state.deck.remove(card)
            state.won[seat].append(card)
        state.cards[seat][patron] = n


def _give_governors(state: MykerinosState, seat: int, n: int) -> None:
    """Governor Nile cards come out of the Governor deck (The Nile must be on)."""
    held = [c for c in state.nile_won[seat] if NILE_CARDS[c].governor]
    for card in held[n:]:
        state.nile_won[seat].remove(card)
        state.nile_governor_deck.append(card)
    for _ in range(n - len(held)):
        state.nile_won[seat].append(state.nile_governor_deck.pop())
    state.cards[seat][Patron.GOVERNOR] = n


def set_museum(
    state: MykerinosState, wings: Sequence[str], occupants: Mapping[str, int] | None = None
) -> None:
    """Order the wings (ring order) and place archaeologists in rooms."""
    state.wing_order = [CODE_TO_PATRON[w] for w in wings]
    state.index_museum()
    state.museum = [st.EMPTY] * len(state.museum)
    for room, colour in (occupants or {}).items():
        state.museum[parse_room(room)] = colour
        state.general[colour] -= 1


def set_turn(state: MykerinosState, seat: int, campaign: int | None = None) -> None:
    state.turn = seat
    state.phase = st.EXCAVATION
    if campaign is not None:
        state.campaign = campaign


def start_delimitation(state: MykerinosState, tiebreak: Mapping[int, int]) -> list[Event]:
    """Everybody has passed with these tiebreak spaces; begin phase 3."""
    for colour, space in tiebreak.items():
        state.tiebreak[colour] = space
    state.active = [False] * state.seat_count
    events: list[Event] = []
    state._events = events
    try:
        state._start_delimitation()
    finally:
        state._events = None
    return events


def notations(state: MykerinosState) -> set[str]:
    return {a.notation() for a in state.legal_actions()}


def lay_nile(
    state: MykerinosState, cards: Sequence[int], rotated: Sequence[bool] | None = None
) -> None:
    """Lay these Nile cards, one per row of areas (top row first), over the region,
    as printed unless ``rotated`` says otherwise.

    The cards come out of their decks; the cards laid before go back to them.
    """
    for card in state.nile_rows:
        deck = state.nile_governor_deck if NILE_CARDS[card].governor else state.nile_neutral_deck
        deck.insert(0, card)
    for card in cards:
        deck = state.nile_governor_deck if NILE_CARDS[card].governor else state.nile_neutral_deck
        deck.remove(card)
    state.nile_rows = list(cards)
    state.nile_rotated = list(rotated) if rotated is not None else [False] * len(cards)
    state.lay_terrain()


def nile_card(effect: str, points: int | None = None) -> int:
    """The first Nile card with that effect (and points, when given)."""
    return next(c.id for c in NILE_CARDS if c.effect == effect and points in (None, c.points))
