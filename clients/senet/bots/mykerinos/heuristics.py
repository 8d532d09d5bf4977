"""Mykerinos position evaluation for the bots, in prestige points.

The ``mykerinos`` plug-in of ``senet.bot_heuristics`` (see :mod:`senet.bots.heuristics`):
:func:`mykerinos_values` is the evaluator, and a team game's seats share a side.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from senet.bots.heuristics import GameHeuristics, score_values
from senet.games import GameState
from senet.games.mykerinos import nile
from senet.games.mykerinos.actions import NILE_SIDE
from senet.games.mykerinos.museum import room_value
from senet.games.mykerinos.patrons import PATRONS, Patron
from senet.games.mykerinos.plots import PLOT_CARDS
from senet.games.mykerinos.scoring import (
    NO_ROOM_VALUE,
    SET_BONUS,
    best_room_values,
    patron_sets,
)
from senet.games.mykerinos.state import (
    COLOURS,
    DELIMITATION,
    DIGGING,
    EMPTY,
    OVER,
    MykerinosState,
)

# Worths in prestige points. Rough, hand-set estimates of what a thing is worth by
# the end of the game; they only need to rank positions sensibly. Each was checked
# in seeded greedy-versus-greedy 4-player matches (half the seats changed): moving
# it either way did not win more, except the reserve (0.5 and 0.25 lost to 0.1).

#: An archaeologist kept in your personal reserve for a later campaign. Low: an
#: archaeologist on the board now usually earns more than one saved for later.
RESERVE_WORTH = 0.1
#: A neutral archaeologist in your reserve (two players): blocking material.
NEUTRAL_RESERVE_WORTH = 0.1
#: A patron card's ability, per campaign in which it can still be used.
ABILITY_WORTH = 0.5
#: Each room value point above 1 held for a patron, per delimitation still to come
#: (future cards of that patron will score it).
ROOM_POTENTIAL = 0.35
#: Each patron already collected toward the next set of five.
SET_PROGRESS = 0.5
#: Going to the museum instead of taking a plot (first and second places).
MUSEUM_REWARD = 2.0
#: How much of a majority's reward counts while the excavation can still change it.
MAJORITY_CONFIDENCE = 0.8
#: Expected share of the weaker plot for third place (only if someone goes to the museum).
THIRD_PLACE_SHARE = 0.2
#: Tiebreak of the final ranking: archaeologists left in the personal reserve.
TIE_EPSILON = 0.01
#: Stand-in tiebreak space for a colour still digging: it will pass after all who have.
_NOT_PASSED = COLOURS + 2

# The variants' worths, set by the same reasoning (rough end-of-game prestige).
#: An archaeologist a Nile card brings from the general reserve: it will dig.
NILE_ARCHAEOLOGIST = 0.8
#: Holding the tie card (The Nile) while delimitations remain: one tie turned into
#: a better place. ``usetie`` is chosen when the place gained is worth more.
TIE_CARD_WORTH = 1.5
#: A blocking token on a space next to a rival's archaeologists, per rival colour
#: there: it stops that rival's expansion through the space.
BLOCK_FRONTIER = 0.4
#: A blocking token in an empty museum room, per point of the room's value.
BLOCK_ROOM = 0.15
#: Team game: how much the better member's value counts beside the team's (the
#: lower member's). Without it a seat ahead of its teammate would see no gain in
#: improving itself, and greedy would pick among its own moves at random.
TEAM_SLACK = 0.25


@functools.lru_cache(maxsize=1 << 16)
def _set_value(cards: tuple[int, ...]) -> float:
    """Completed sets plus partial credit for the next one.

    ``cards`` is indexed by patron; a sixth entry (The Nile's Governor) is wild:
    it fills gaps in sets and counts as progress toward the next one.
    """
    wings = cards[: len(PATRONS)]
    wild = cards[Patron.GOVERNOR] if len(cards) > Patron.GOVERNOR else 0
    if not wild:  # the common case, kept cheap: this runs in every rollout evaluation
        sets = min(wings)
        return SET_BONUS * sets + SET_PROGRESS * sum(1 for c in wings if c > sets)
    sets = patron_sets(wings, wild)
    spare = wild - sum(max(0, sets - n) for n in wings)
    progress = min(len(wings) - 1, sum(1 for c in wings if c > sets) + spare)
    return SET_BONUS * sets + SET_PROGRESS * progress


def _exhibit(cards: Sequence[int], best: Sequence[int]) -> float:
    """Points the wing patrons' cards score with the rooms held (Governors: none)."""
    return float(sum(cards[p] * (best[p] or NO_ROOM_VALUE) for p in PATRONS))


def _card_worths(state: MykerinosState, best: list[list[int]], later: int) -> list[list[float]]:
    """Per seat and patron (the Governor included): what one more card is worth."""
    return [
        list(_card_worth_row(tuple(state.cards[seat]), tuple(best[seat]), later))
        for seat in range(state.seat_count)
    ]


@functools.lru_cache(maxsize=1 << 16)
def _card_worth_row(cards: tuple[int, ...], best: tuple[int, ...], later: int) -> tuple[float, ...]:
    """One seat's row of :func:`_card_worths` (positions repeat a lot in search)."""
    base = _set_value(cards)
    row = []
    for patron, count in enumerate(cards):
        more = (*cards[:patron], count + 1, *cards[patron + 1 :])
        exhibit = 0 if patron == Patron.GOVERNOR else best[patron] or NO_ROOM_VALUE
        row.append(exhibit + _set_value(more) - base + ABILITY_WORTH * later)
    return tuple(row)


def _nile_worth(card_id: int, seat: int, card_worths: list[list[float]]) -> float:
    """What claiming Nile card ``card_id`` is worth to ``seat``."""
    card = nile.NILE_CARDS[card_id]
    extra = {
        nile.GOVERNOR: card_worths[seat][Patron.GOVERNOR],
        nile.POINT_AND_ARCHAEOLOGIST: NILE_ARCHAEOLOGIST,
        nile.TWO_ARCHAEOLOGISTS: 2 * NILE_ARCHAEOLOGIST,
        nile.TIE_WINNER: TIE_CARD_WORTH,
    }
    return card.points + extra.get(card.effect, 0.0)


def _plot_worth(card_id: int, seat: int, card_worths: list[list[float]]) -> float:
    card = PLOT_CARDS[card_id]
    if card.patron is None:
        return float(card.points)
    return card.points + card_worths[seat][card.patron]


def _place_worth(place: int, high: float, low: float) -> float:
    """What the ``place``-th colour of an area (0 = first) can expect to get there."""
    if place == 0:
        return max(high, MUSEUM_REWARD)
    if place == 1:
        return max(low, MUSEUM_REWARD)
    if place == 2:
        return THIRD_PLACE_SHARE * low
    return 0.0


def _ranked_groups(counts: Sequence[int], tiebreak: Sequence[int]) -> list[list[int]]:
    """Colours present, in reward order, grouped when still tied.

    Ties go to the lower tiebreak space; a colour still digging has no space yet and
    loses ties to those who passed; colours still digging and tied share a group.
    """
    present = [c for c in range(COLOURS) if counts[c]]
    keys = {c: (-counts[c], tiebreak[c] or _NOT_PASSED) for c in present}
    order = sorted(present, key=keys.__getitem__)
    groups: list[list[int]] = []
    for colour in order:
        if groups and keys[groups[-1][0]] == keys[colour]:
            groups[-1].append(colour)
        else:
            groups.append([colour])
    return groups


def _majorities(state: MykerinosState, card_worths: list[list[float]], values: list[float]) -> None:
    """Add each seat's expected rewards from the areas of this campaign still to score.

    Areas rank colours by archaeologists (river spaces of The Nile excluded: they
    belong to no area), ties shared as :func:`_ranked_groups` says.
    """
    n = state.seat_count
    board, shape, slots = state.board, state.shape, state.slots
    river = state.river
    first_area = 0
    confidence = MAJORITY_CONFIDENCE
    if state.phase == DELIMITATION:
        first_area = state.area + 1
        confidence = 1.0
        _current_area(state, card_worths, values)
    elif state.nile_rows:
        _river(state, card_worths, values)
    counts = [0] * COLOURS
    for area in range(first_area, shape.areas):
        for c in range(COLOURS):
            counts[c] = 0
        for space in shape.area_spaces[area]:
            occupant = board[space]
            if occupant != EMPTY and not river[space]:
                counts[occupant] += 1
        left, right = slots[2 * area][0], slots[2 * area + 1][0]
        start = 0
        for group in _ranked_groups(counts, state.tiebreak):
            end = start + len(group)
            for colour in group:
                if colour >= n:
                    continue  # the neutral player
                a = _plot_worth(left, colour, card_worths)
                b = _plot_worth(right, colour, card_worths)
                high, low = (a, b) if a >= b else (b, a)
                total = sum(_place_worth(p, high, low) for p in range(start, end))
                values[colour] += confidence * total / (end - start)
            start = end


def _river(state: MykerinosState, card_worths: list[list[float]], values: list[float]) -> None:
    """The Nile, while digging: what the river majority promises.

    First and second place on the river spaces claim a Nile card each (the first
    the one it prefers); nobody else gets anything there.
    """
    n = state.seat_count
    counts = [0] * COLOURS
    for space, is_river in enumerate(state.river):
        occupant = state.board[space]
        if is_river and occupant != EMPTY:
            counts[occupant] += 1
    start = 0
    for group in _ranked_groups(counts, state.tiebreak):
        end = start + len(group)
        for colour in group:
            if colour >= n:
                continue
            worths = sorted(
                (_nile_worth(card, colour, card_worths) for card in state.nile_rows), reverse=True
            )
            total = sum(worths[p] for p in range(start, min(end, 2, len(worths))))
            values[colour] += MAJORITY_CONFIDENCE * total / (end - start)
        start = end


def _current_area(
    state: MykerinosState, card_worths: list[list[float]], values: list[float]
) -> None:
    """The rewards of the area being handed out: the colours still to choose, in
    rank order, each taking what is worth most to it among what is left."""
    if state.on_river:
        _current_river(state, card_worths, values)
        return
    if not 0 <= state.area < state.shape.areas:
        return
    left = [state.slots[2 * state.area + side][0] for side in state.plots_left]
    for place in range(state.rank_index, len(state.ranks)):
        if not left:
            return
        colour = state.ranks[place]
        if colour >= state.seat_count:
            left.pop()  # the neutral player discards one (which: somebody else's choice)
            continue
        worths = [_plot_worth(card, colour, card_worths) for card in left]
        best = max(range(len(left)), key=worths.__getitem__)
        if place < 2 and worths[best] < MUSEUM_REWARD:
            values[colour] += MUSEUM_REWARD
            continue
        values[colour] += worths[best]
        left.pop(best)


def _current_river(
    state: MykerinosState, card_worths: list[list[float]], values: list[float]
) -> None:
    """The Nile cards being handed out: first and second place, in rank order."""
    left = [state.nile_rows[side - NILE_SIDE] for side in state.plots_left]
    for place in range(state.rank_index, min(2, len(state.ranks))):
        if not left:
            return
        colour = state.ranks[place]
        if colour >= state.seat_count:
            left.pop()  # the neutral player discards one
            continue
        worths = [_nile_worth(card, colour, card_worths) for card in left]
        best = max(range(len(left)), key=worths.__getitem__)
        values[colour] += worths[best]
        left.pop(best)


def _blocking(state: MykerinosState, values: list[float]) -> None:
    """The Nile: what each seat's blocking tokens on the table deny its rivals."""
    neighbours = state.shape.neighbours
    board = state.board
    n = state.seat_count
    for space, owner in enumerate(state.blocked):
        if owner == EMPTY:
            continue
        friends = state.mates_of(owner)
        rivals = {board[m] for m in neighbours[space]} - {EMPTY, *friends}
        values[owner] += BLOCK_FRONTIER * sum(1 for c in rivals if c < n)
    for room, owner in enumerate(state.blocked_rooms):
        if owner != EMPTY:
            values[owner] += BLOCK_ROOM * room_value(room)


def _holds_tie_card(state: MykerinosState, seat: int) -> bool:
    return any(nile.NILE_CARDS[c].effect == nile.TIE_WINNER for c in state.nile_won[seat])


def mykerinos_values(state: GameState) -> list[float]:
    """Expected final prestige per seat of a Mykerinos position.

    Counts what is banked (plot prestige; the exhibition of the cards held given the
    museum rooms held, with completed sets), what is on its way (partial sets, rooms
    that will value future cards, abilities of cards for the campaigns left, the
    rewards the current majorities promise, weighted by the plots' worth to each
    seat) and what is in hand (archaeologists in the personal reserve, worth little
    in the last campaign, where they only break ties).
    """
    if not isinstance(state, MykerinosState):
        return score_values(state)
    n = state.seat_count
    if state.phase == OVER:
        return [
            score + TIE_EPSILON * state.personal[s][s] for s, score in enumerate(state.scores())
        ]
    later = len(state.campaign_plot_counts()) - state.campaign
    digging = state.phase in DIGGING
    best = [best_room_values(state.museum, seat) for seat in range(n)]
    reserve_worth = RESERVE_WORTH if later else TIE_EPSILON
    values = []
    for seat in range(n):
        cards = state.cards[seat]
        value = float(state.prestige[seat])
        value += _exhibit(cards, best[seat])
        value += _set_value(tuple(cards))
        value += ROOM_POTENTIAL * sum(v - 1 for v in best[seat] if v) * (later + 1)
        unused = sum(cards) - sum(state.used[seat]) if digging else 0
        value += ABILITY_WORTH * (sum(cards) * later + unused)
        value += reserve_worth * state.personal[seat][seat]
        if state.neutral is not None:
            value += NEUTRAL_RESERVE_WORTH * state.personal[seat][state.neutral]
        mate = state.mate(seat)
        if mate is not None:
            value += reserve_worth * state.personal[seat][mate]
        if _holds_tie_card(state, seat):
            value += TIE_CARD_WORTH
        values.append(value)
    _majorities(state, _card_worths(state, best, later), values)
    if digging:
        _blocking(state, values)
    if state.team:
        values = [_team_value([values[m] for m in state.mates_of(s)]) for s in range(n)]
    return values


def _team_value(members: Sequence[float]) -> float:
    """A team scores its lower member's score; see :data:`TEAM_SLACK`."""
    low, high = min(members), max(members)
    return low + TEAM_SLACK * (high - low)


MYKERINOS_HEURISTICS = GameHeuristics("mykerinos", mykerinos_values)
