"""Position evaluation for the bots, per game, in the game's own score units.

An *evaluator* maps a state to one number per seat: roughly the final score that
seat can expect from here. Greedy compares its seat's number with its rivals';
MCTS turns the numbers into rewards in [0, 1] when it cuts a playout short. Both
call it thousands of times per move, so evaluators read the state's fields directly
and avoid building views or dicts.

Evaluators are looked up by game id (:func:`evaluator_for`); a game without one
gets :func:`score_values`, the scores so far, which is the honest fallback: it
knows nothing about the game but never misleads about what is already won.

Evaluators may read the whole state they are given: strategies only ever hand
them determinized copies (see ``senet.bots.base``), so nothing hidden leaks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence

from senet.games import GameState
from senet.games.archeos.cards import COLOURS as ARCHEOS_COLOURS
from senet.games.archeos.cards import Role, role_of
from senet.games.archeos.scoring import expedition_size_for_points
from senet.games.archeos.sites import (
    BOTANIST_POINTS,
    Special,
    expedition_points,
    relic_points,
)
from senet.games.archeos.state import BUILD as ARCHEOS_BUILD
from senet.games.archeos.state import (
    CHOOSE_ADVANCE,
    EXTRA,
    KEEP,
    LINGUIST,
    PROFESSOR,
    ULURU,
    ArcheosState,
)
from senet.games.archeos.state import OVER as ARCHEOS_OVER
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

Evaluator = Callable[[GameState], list[float]]
#: Per seat, the seats on its side (itself first; its teammates in a team game).
Sides = Sequence[Sequence[int]]

#: Share of a reward in [0, 1] that comes from the place (the rest: the score margin).
RANK_WEIGHT = 0.6


# ------------------------------------------------------------------ generic
def score_values(state: GameState) -> list[float]:
    """The fallback evaluator: each seat's score so far."""
    return [float(score) for score in state.scores()]


def sides_of(state: GameState) -> list[tuple[int, ...]]:
    """Each seat's side: itself, plus its teammates when the game has teams.

    A teammate is no rival: what it wins is won for the team too (Mykerinos team
    game), so :func:`advantage` must not count it among the seats to beat.
    """
    if isinstance(state, MykerinosState):
        return [state.mates_of(seat) for seat in range(state.seat_count)]
    return [(seat,) for seat in range(len(state.scores()))]


def advantage(values: Sequence[float], seat: int, allies: Collection[int] = ()) -> float:
    """How far ``seat`` is ahead of its strongest rival (negative when behind).

    Greedy maximizes this rather than its own value so that it also counts what
    an action takes away from the leader (a block, a plot a rival wanted).
    ``allies`` (teammates) are not rivals.
    """
    rivals = [v for s, v in enumerate(values) if s != seat and s not in allies]
    return values[seat] - max(rivals) if rivals else values[seat]


def _rewards(
    places: Sequence[int], values: Sequence[float], sides: Sides | None = None
) -> list[float]:
    """Blend of place and margin, each in [0, 1], so rewards stay comparable.

    The place part is the share of rivals beaten (ties count half); the margin part
    is the lead over the best rival, divided by the spread of all values, so that a
    narrow win is worth less than a wide one whatever the game's score scale.
    """
    n = len(values)
    if n == 1:
        return [1.0]
    spread = max(max(values) - min(values), 1.0)
    out = []
    for seat in range(n):
        worse = sum(1 for p in places if p > places[seat])
        tied = sum(1 for p in places if p == places[seat]) - 1
        place = (worse + 0.5 * tied) / (n - 1)
        margin = advantage(values, seat, sides[seat] if sides else ()) / spread
        out.append(RANK_WEIGHT * place + (1.0 - RANK_WEIGHT) * (0.5 + 0.5 * margin))
    return out


def rewards_from_values(values: Sequence[float], sides: Sides | None = None) -> list[float]:
    """Per-seat rewards in [0, 1] for a position judged by an evaluator (``sides``:
    see :func:`sides_of`; teammates have equal values, so they share a place)."""
    places = [1 + sum(1 for other in values if other > v) for v in values]
    return _rewards(places, values, sides)


def final_rewards(state: GameState) -> list[float]:
    """Per-seat rewards in [0, 1] of a finished match: its ranking (the game's tie
    rules decide places) blended with the final score margin."""
    scores = [float(score) for score in state.scores()]
    return _rewards(state.ranking(), scores, sides_of(state))


# ---------------------------------------------------------------- Mykerinos
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


# ------------------------------------------------------------------ archeos
#: What a card in hand is worth: it will join an expedition (size points, a step on a
#: site) or feed a rival through the display. Tuned by arena runs, not derived.
ARCHEOS_CARD_WORTH = 0.3
#: Share of the best expedition in hand counted now (it may still grow or be lost).
ARCHEOS_BEST_GROUP_SHARE = 0.8
#: A vehicle's next space pays off in later seasons too; worth a share of the gain.
ARCHEOS_NEXT_SPACE_SHARE = 0.25
#: Steps after "go" during which the seat's leftover hand will go to the display.
ARCHEOS_RESOLVING = (CHOOSE_ADVANCE, ULURU, LINGUIST, PROFESSOR, EXTRA, KEEP)


def archeos_values(state: GameState) -> list[float]:
    """Expected final points per seat of an Archeos Society position.

    Counts the score track, what the vehicles will score at every season end still
    to come (Uluru: what cashing in would pay), the expeditions of this season at
    their season-end value, the relics, the Botanist frame, and the cards in hand.
    """
    if not isinstance(state, ArcheosState):
        return score_values(state)
    if state.step == ARCHEOS_OVER:
        return [float(s) for s in state.scores()]
    scorings = state.seasons() - state.season + 1
    values = []
    for seat in range(state.seat_count):
        value = float(state.score[seat])
        pos = state.positions[seat]
        for site in range(ARCHEOS_COLOURS):
            track = state.track(site)
            space = pos[site]
            if state.is_advanced(Special.TA_SEKHET_MAAT) and site == Special.TA_SEKHET_MAAT:
                space = min(space, pos[ARCHEOS_COLOURS])
            if state.is_advanced(Special.ULURU) and site == Special.ULURU:
                value += track.points[space]
                continue
            value += track.points[space] * scorings
            if space < track.last:
                gain = track.points[space + 1] - track.points[space]
                value += ARCHEOS_NEXT_SPACE_SHARE * gain * scorings
        value += sum(
            expedition_points(
                expedition_size_for_points([c for c in e if role_of(c) != Role.MERCENARY])
            )
            for e in state.expeditions[seat]
        )
        if state.uses(Role.CURATOR):
            value += relic_points(sum(state.relics[seat]))
        if state.frame[0] == seat:
            value += BOTANIST_POINTS
        if seat == state.turn and state.step == ARCHEOS_BUILD:
            value += _archeos_building_worth(state, scorings)
        elif seat == state.turn and state.step in ARCHEOS_RESOLVING:
            # The rest of the hand is about to go to the display.
            value += ARCHEOS_CARD_WORTH * min(state.keep_limit, len(state.hands[seat]))
        else:
            value += _archeos_hand_worth(state.hands[seat])
        values.append(value)
    return values


def _archeos_building_worth(state: ArcheosState, scorings: int) -> float:
    """The expedition being built, as if played now: its size points and the space
    it would win; the rest of the hand goes to the display (a Physician keeps some).
    """
    cards = state.exp_cards
    leader = role_of(cards[0])
    # Cards that may still join count as joined: adding is free, so a one-ply search
    # must see the expedition it can still become when choosing the leader.
    by_colour = state.exp_basis == 0
    colour = cards[0] % ARCHEOS_COLOURS
    fitting = sum(
        1
        for c in state.hands[state.turn]
        if role_of(c) == Role.MERCENARY
        or (c % ARCHEOS_COLOURS == colour if by_colour else role_of(c) == leader)
    )
    potential = min(state.exp_limit, len(cards) + fitting)
    worth = float(expedition_points(potential))
    if leader != Role.STUDENT:
        size = potential + (1 if leader == Role.GUIDE else 0)
        track = state.track(cards[0] % ARCHEOS_COLOURS)
        space = state.positions[state.turn][cards[0] % ARCHEOS_COLOURS]
        if track.can_leave(space, size):
            worth += (track.points[space + 1] - track.points[space]) * scorings
    if leader == Role.PHYSICIAN:
        worth += ARCHEOS_CARD_WORTH * min(potential, len(state.hands[state.turn]) - fitting)
    return worth


def _archeos_hand_worth(hand: list[int]) -> float:
    """Cards in hand: the best expedition they make now, plus a little per card."""
    if not hand:
        return 0.0
    wild = sum(1 for c in hand if role_of(c) == Role.MERCENARY)
    groups: dict[tuple[str, int], int] = {}
    for c in hand:
        if role_of(c) != Role.MERCENARY:
            for key in (("colour", c % ARCHEOS_COLOURS), ("role", role_of(c))):
                groups[key] = groups.get(key, 0) + 1
    best = max(groups.values(), default=0) + wild
    return ARCHEOS_BEST_GROUP_SHARE * expedition_points(best) + ARCHEOS_CARD_WORTH * len(hand)


_EVALUATORS: dict[str, Evaluator] = {"archeos": archeos_values, "mykerinos": mykerinos_values}


def evaluator_for(game_id: str) -> Evaluator:
    """The evaluator of ``game_id``, or :func:`score_values` for a game without one."""
    return _EVALUATORS.get(game_id, score_values)
