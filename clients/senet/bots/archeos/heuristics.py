"""Archeos Society position evaluation for the bots, in points.

The ``archeos`` plug-in of ``senet.bot_heuristics`` (see :mod:`senet.bots.heuristics`):
:func:`archeos_values` is the evaluator.
"""

from __future__ import annotations

from senet.bots.heuristics import GameHeuristics, score_values
from senet.games import GameState
from senet.games.archeos.cards import COLOURS as ARCHEOS_COLOURS
from senet.games.archeos.cards import Role, role_of
from senet.games.archeos.scoring import expedition_size_for_points
from senet.games.archeos.sites import (
    BOTANIST_POINTS,
    RAPA_NUI_BONUS,
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
        for site in range(ARCHEOS_COLOURS):
            value += _site_worth(state, seat, site, scorings)
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


def _site_worth(state: ArcheosState, seat: int, site: int, scorings: int) -> float:
    """What ``seat``'s vehicle on ``site`` will score at the season ends to come.

    Tantallon Castle pays the small star to a vehicle sharing its space; Rapa Nui's
    farthest vehicle takes the bonus once and restarts, so its space counts once.
    These are what make declining an advance worth it (ruling A-9).
    """
    track = state.track(site)
    pos = state.positions[seat]
    space = pos[site]
    if state.is_advanced(Special.TA_SEKHET_MAAT) and site == Special.TA_SEKHET_MAAT:
        space = min(space, pos[ARCHEOS_COLOURS])
    if state.is_advanced(Special.ULURU) and site == Special.ULURU:
        return float(track.points[space])
    points = track.points[space]
    if state.is_advanced(Special.TANTALLON_CASTLE) and site == Special.TANTALLON_CASTLE:
        others = [state.positions[o][site] for o in range(state.seat_count) if o != seat]
        if space in others:
            points = track.shared_points[space]
    rapa_nui = state.is_advanced(Special.RAPA_NUI) and site == Special.RAPA_NUI
    if rapa_nui and 0 < space >= max(p[site] for p in state.positions):
        return float(points + RAPA_NUI_BONUS)
    worth = float(points * scorings)
    if space < track.last:
        gain = track.points[space + 1] - track.points[space]
        worth += ARCHEOS_NEXT_SPACE_SHARE * gain * scorings
    return worth


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


ARCHEOS_HEURISTICS = GameHeuristics("archeos", archeos_values)
