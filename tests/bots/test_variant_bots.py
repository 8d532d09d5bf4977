"""Bots in the Mykerinos variants: they finish every variant and play them sensibly.

Full matches mix the three strategies (small budgets: behaviour, not strength);
the rest checks what the evaluator makes of the variants' own decisions: drafting,
blocking tokens, teammates and the tie card.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from senet.bots import make_strategy
from senet.bots.greedy import GreedyStrategy
from senet.bots.heuristics import (
    advantage,
    final_rewards,
    rewards_from_values,
)
from senet.bots.mykerinos.heuristics import TIE_CARD_WORTH, mykerinos_values
from senet.games import Rng, get_game
from senet.games.mykerinos import MykerinosState, nile
from senet.games.mykerinos import actions as act
from senet.games.mykerinos.patrons import Patron
from senet.games.mykerinos.state import BLOCKING, DRAFT, EMPTY

GAME = get_game("mykerinos")
MCTS_ITERATIONS = 8

VARIANT_MATCHES = [
    pytest.param(3, {"nile": True}, id="3p-nile"),
    pytest.param(2, {"nile": True}, id="2p-nile"),
    pytest.param(4, {"team": True}, id="4p-team"),
    pytest.param(3, {"quick": True}, id="3p-quick"),
    pytest.param(2, {"classic": True}, id="2p-classic"),
    pytest.param(3, {"nile": True, "quick": True}, id="3p-nile+quick"),
    pytest.param(4, {"nile": True, "team": True, "quick": True, "classic": True}, id="4p-all"),
]


def _new(seats: int, seed: int, **options: bool) -> MykerinosState:
    state = GAME.new_match(seats, options=options, seed=seed)
    assert isinstance(state, MykerinosState)
    return state


@pytest.mark.parametrize(("seats", "options"), VARIANT_MATCHES)
@pytest.mark.slow
def test_random_greedy_and_mcts_finish_every_variant(seats: int, options: dict[str, bool]):
    names = ["mcts", "greedy", "random", "greedy"][:seats]
    bots = [make_strategy(n, seed=7 + i, iterations=MCTS_ITERATIONS) for i, n in enumerate(names)]
    state = GAME.new_match(seats, options=options, seed=seats)
    played: dict[str, set[str]] = {name: set() for name in names}
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None
        action = bots[seat].choose(state, seat)
        assert isinstance(action, act.MykerinosAction)
        assert action in state.legal_actions()
        state.apply(seat, action)
        played[names[seat]].add(action.kind)
    assert len(state.ranking()) == seats
    if options.get("quick"):
        assert all("draft" in kinds for kinds in played.values())
    if options.get("team"):
        # Teammates share their place, and the seats that search use their
        # teammate's archaeologists at some point.
        ranking = state.ranking()
        assert ranking[0] == ranking[2] and ranking[1] == ranking[3]
        assert {"ta", "tb"} & (played["greedy"] | played["mcts"])


def _random_positions(seats: int, seed: int, **options: bool) -> Iterator[MykerinosState]:
    state = _new(seats, seed, **options)
    rng = Rng(seed)
    while not state.is_over():
        yield state
        state.apply_unchecked(rng.choice(state.legal_actions()))


def test_greedy_drafts_two_different_patrons() -> None:
    """Two different patrons bring a set of five closer; two of one do not."""
    for seed in range(3):
        state = _new(3, seed, quick=True)
        bot = GreedyStrategy(seed=seed)
        picks: dict[int, list[int]] = {0: [], 1: [], 2: []}
        while state.phase == DRAFT:
            seat = state.current_seat()
            assert seat is not None
            action = bot.choose(state, seat)
            assert isinstance(action, act.MykerinosAction)
            offered = {a.arg for a in state.legal_actions()}
            if picks[seat] and offered - {picks[seat][0]}:
                assert action.arg != picks[seat][0], (seed, seat, picks)
            picks[seat].append(action.arg)
            state.apply(seat, action)
        assert all(len(p) == 2 for p in picks.values())


def _blocking_position() -> MykerinosState:
    for seed in range(40):
        for state in _random_positions(3, seed, nile=True):
            if state.phase == BLOCKING:
                return state.clone()
    raise AssertionError("no Governor action in 40 random Nile matches")


def test_blocking_next_to_a_rival_is_worth_more_than_an_empty_corner() -> None:
    state = _blocking_position()
    seat = state.turn
    neighbours = state.shape.neighbours
    board = state.board
    near, far = [], []
    for action in state.legal_actions():
        if action.arg >= act.ROOM_TARGET:
            continue
        around = {board[n] for n in neighbours[action.arg]} - {EMPTY}
        if around & (set(range(state.seat_count)) - {seat}):
            near.append(action)
        elif not around:
            far.append(action)
    assert near and far

    def worth(action: act.MykerinosAction) -> float:
        after = state.clone()
        after.apply_unchecked(action)
        return advantage(mykerinos_values(after), seat)

    assert min(map(worth, near)) > max(map(worth, far))
    # And greedy, looking one ply ahead, blocks next to a rival or in a room.
    choice = GreedyStrategy(seed=1).choose(state, seat)
    assert isinstance(choice, act.MykerinosAction)
    assert choice.arg >= act.ROOM_TARGET or choice in near


def test_teammates_are_not_rivals() -> None:
    assert advantage([5.0, 9.0, 7.0, 1.0], 0) == 5.0 - 9.0
    assert advantage([5.0, 9.0, 7.0, 1.0], 2, allies=(2, 0)) == 7.0 - 9.0
    state = _new(4, 3, team=True)
    assert state.sides() == [(0, 2), (1, 3), (2, 0), (3, 1)]
    assert _new(4, 3).sides() == [(0,), (1,), (2,), (3,)]
    for position in _random_positions(4, 5, team=True):
        values = mykerinos_values(position)
        assert values[0] == values[2] and values[1] == values[3]
        rewards = rewards_from_values(values, position.sides())
        assert rewards[0] == rewards[2] and rewards[1] == rewards[3]
    final = position  # the generator plays on in place: this is the finished match
    assert final.is_over()
    rewards = final_rewards(final)
    assert rewards[0] == rewards[2] and rewards[1] == rewards[3]


def test_nile_cards_and_the_tie_card_are_valued() -> None:
    """Holding the tie card counts for something; a river majority counts too.

    (The evaluator reads fields only, so the pokes need not keep the decks whole.)
    """
    state = _new(3, 2, nile=True)
    tie = next(c.id for c in nile.NILE_CARDS if c.effect == nile.TIE_WINNER)
    without = mykerinos_values(state)[0]
    state.nile_won[0].append(tie)
    assert mykerinos_values(state)[0] == pytest.approx(without + TIE_CARD_WORTH)
    river = next(i for i, r in enumerate(state.river) if r)
    before = mykerinos_values(state)[1]
    state.board[river] = 1
    state.personal[1][1] -= 1
    assert mykerinos_values(state)[1] > before


def test_governor_cards_are_wild_in_sets() -> None:
    state = _new(3, 2, nile=True)
    state.cards[0] = [1, 1, 1, 1, 0, 0]
    four = mykerinos_values(state)[0]
    state.cards[0][Patron.GOVERNOR] = 1
    assert mykerinos_values(state)[0] >= four + 5
