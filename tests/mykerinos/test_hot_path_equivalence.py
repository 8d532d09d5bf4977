"""The fast move generator, parser and snapshot behave exactly as before.

The per-action hot path (``legal_actions``, ``apply``, ``to_data``) was rewritten
for speed: bitboard masks instead of loops over the region, shared action
values, cached parsing. Two guards:

* seeded random matches of every variant, recorded decision by decision in
  ``tests/playthroughs/`` (legal counts, actions, labels, events, refusals, final
  snapshots), plus the messages of a table of odd actions below;
* the straightforward move generation itself (sets and loops over the region,
  as it read before), compared with the fast one on random positions that the
  recorded matches may not reach (blocking tokens, crowded boards, every patron).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import orjson
import pytest

from senet.games.errors import GameError, IllegalActionError, MalformedActionError
from senet.games.mykerinos import MYKERINOS, MykerinosAction, MykerinosState
from senet.games.mykerinos import actions as act
from senet.games.mykerinos.patrons import ALL_PATRONS, Patron
from senet.games.mykerinos.region import region_shape
from senet.games.mykerinos.state import COLOURS, EMPTY, EXCAVATION
from senet.games.rng import Rng

VARIANTS = ("nile", "team", "quick", "classic")
CASES = [
    (seats, {name: bool(mask >> i & 1) for i, name in enumerate(VARIANTS)})
    for seats in (2, 3, 4)
    for mask in range(1 << len(VARIANTS))
    if seats == 4 or not mask & 2
]
#: Notation and values the seat to move tries at the start of a 2-player game with
#: The Nile, and how each is refused (the cached parser and the fast generator must
#: refuse exactly as the straightforward ones did).
REFUSED: list[tuple[object, type[GameError], str]] = [
    ("", MalformedActionError, "empty action"),
    (
        "zz",
        MalformedActionError,
        "unknown action 'zz'; actions now: a, pass",
    ),
    ("a", MalformedActionError, "'a' takes 1 space(s), got 0"),
    ("a z9", MalformedActionError, "'z9' is not a space: use a column a-h and a row 1-9, like c2"),
    ("b c3 c3", MalformedActionError, "'b c3 c3' names the same space twice"),
    (
        "mus xyz5",
        MalformedActionError,
        "'xyz5' is not a museum room: use exp3, exp5 or a 2-room like col/exp (patrons cur, col, exp, hei, dir)",  # noqa: E501
    ),
    (
        "take q",
        MalformedActionError,
        "'take' takes l or r (the left or right plot), or n1-n3 (a Nile card)",
    ),
    ("draft zzz", MalformedActionError, "'draft' takes a patron code: cur, col, exp, hei, dir"),
    ("pass 1", MalformedActionError, "'pass' takes no arguments"),
    ("col c3 d3", MalformedActionError, "'col' takes 3 space(s), got 2"),
    (
        "dir exp5",
        IllegalActionError,
        "'dir exp5' is not legal: nobody has patrons during the first campaign",
    ),
    (
        "take n1",
        IllegalActionError,
        "'take n1' is not legal: rewards are chosen during delimitation, after everybody has passed",  # noqa: E501
    ),
    (
        "usetie",
        IllegalActionError,
        "'usetie' is not legal: the tie card is played when a tie arises during delimitation",
    ),
    (
        "na c2",
        IllegalActionError,
        "'na c2' is not legal: the neutral player acts only after your own action, in the two-player game",  # noqa: E501
    ),
    (
        "ta c2",
        IllegalActionError,
        "'ta c2' is not legal: only the team game places a teammate's archaeologists",
    ),
    (
        "block exp5",
        IllegalActionError,
        "'block exp5' is not legal: a blocking token goes down right after a Governor action",
    ),
    (
        "b  d3,c3",
        IllegalActionError,
        "'b c3 d3' is not legal: an expansion starts next to one of your archaeologists and each next archaeologist goes next to the one placed before it",  # noqa: E501
    ),
    (42, MalformedActionError, "not a Mykerinos action: 42"),
    (
        ("b", (11, 3), -1),
        IllegalActionError,
        "'b d1 d2' is not legal: an expansion starts next to one of your archaeologists and each next archaeologist goes next to the one placed before it",  # noqa: E501
    ),
    (("a", (True,), -1), MalformedActionError, "not a Mykerinos action: ('a', (True,), -1)"),
    (
        ("zz", (), -1),
        MalformedActionError,
        "unknown action 'zz'; actions now: a, pass",
    ),
    (("mus", (), 99), MalformedActionError, "not a Mykerinos action: ('mus', (), 99)"),
    (("take", (), 7), MalformedActionError, "not a Mykerinos action: ('take', (), 7)"),
    ((1, 2, 3), MalformedActionError, "not a Mykerinos action: (1, 2, 3)"),
]


@pytest.mark.parametrize(("action", "error", "message"), REFUSED, ids=repr)
def test_odd_actions_are_refused_with_their_messages(
    action: object, error: type[GameError], message: str
) -> None:
    state = MYKERINOS.new_match(2, {"nile": True}, 9002)
    with pytest.raises(error) as refused:
        state.apply(0, action)
    assert str(refused.value) == message


def test_case_and_spacing_of_notation_do_not_matter() -> None:
    state = MYKERINOS.new_match(2, {"nile": True}, 9002)
    assert state.coerce_action("A C2") == state.coerce_action("a c2")
    assert state.coerce_action(("a", (3,), -1)) in state.legal_actions()


# --------------------------------------------------------- reference generator
def _reference_free_spaces(state: MykerinosState, actor: int) -> tuple[set[int], set[int]]:
    free: set[int] = set()
    pyramids: set[int] = set()
    for i in range(state.shape.size):
        if state.board[i] == EMPTY and state.blocked[i] in (EMPTY, actor):
            (pyramids if state.pyramid[i] else free).add(i)
    return free, pyramids


def _frontier(state: MykerinosState, colour: int, targets: set[int]) -> set[int]:
    neighbours = state.shape.neighbours
    return {
        n
        for index, occupant in enumerate(state.board)
        if occupant == colour
        for n in neighbours[index]
        if n in targets
    }


def _chains(
    state: MykerinosState, starts: set[int], free: set[int], length: int
) -> list[tuple[int, ...]]:
    neighbours = state.shape.neighbours
    found: set[tuple[int, ...]] = set()
    for first in starts:
        for second in neighbours[first]:
            if second not in free:
                continue
            if length == 2:
                found.add(tuple(sorted((first, second))))
                continue
            for third in neighbours[second]:
                if third != first and third in free:
                    found.add(tuple(sorted((first, second, third))))
    return sorted(found)


def _of(kind: str, placements: Sequence[tuple[int, ...]]) -> list[MykerinosAction]:
    return [MykerinosAction(kind, spaces) for spaces in placements]


def _with_colour(
    state: MykerinosState, seat: int, colour: int, kinds: tuple[str, str], free: set[int]
) -> list[MykerinosAction]:
    count = state.personal[seat][colour]
    out = _of(kinds[0], [(i,) for i in sorted(free)]) if count >= 1 else []
    if count >= 2:
        out += _of(kinds[1], _chains(state, _frontier(state, colour, free), free, 2))
    return out


def reference_excavation_actions(state: MykerinosState, seat: int) -> list[MykerinosAction]:
    """The excavation move generator as it read before bitboards, rule by rule."""
    own = state.personal[seat][seat]
    free, pyramids = _reference_free_spaces(state, seat)
    frontier = _frontier(state, seat, free)
    out = _with_colour(state, seat, seat, (act.START, act.EXPAND), free)
    pairs = _chains(state, frontier, free, 2)
    if any(state.cards[seat]):
        if own >= 2 and state.has_patron(seat, Patron.CURATOR):
            neighbours = state.shape.neighbours
            anywhere = [(i, n) for i in sorted(free) for n in neighbours[i] if n > i and n in free]
            out += _of(act.CURATOR, anywhere)
        if own >= 3 and state.has_patron(seat, Patron.COLONEL):
            out += _of(act.COLONEL, _chains(state, frontier, free, 3))
        if own >= 1 and state.has_patron(seat, Patron.EXPLORER):
            out += _of(act.EXPLORER, [(i,) for i in sorted(pyramids)])
            if own >= 2:
                mixed = {
                    tuple(sorted((f, s)))
                    for first, targets in (
                        (frontier, pyramids),
                        (_frontier(state, seat, pyramids), free),
                    )
                    for f in first
                    for s in state.shape.neighbours[f]
                    if s in targets
                }
                out += _of(act.EXPLORER, sorted(mixed))
        if state.general[seat] >= 1 and state.has_patron(seat, Patron.HEIRESS):
            out += _of(act.HEIRESS, [(i,) for i in sorted(free)])
            if own + 1 >= 2:
                out += _of(act.HEIRESS, pairs)
        if own >= 1 and state.has_patron(seat, Patron.DIRECTOR):
            out += [MykerinosAction(act.DIRECTOR, (), r) for r in state.museum_rooms_open_to(seat)]
        if state.has_patron(seat, Patron.GOVERNOR):
            # With no token in hand, the placement must free one of your own (N-7).
            def frees_a_token(spaces: tuple[int, ...]) -> bool:
                return state.tokens[seat] >= 1 or any(state.blocked[s] == seat for s in spaces)

            if own >= 1:
                out += _of(act.GOVERNOR, [(i,) for i in sorted(free) if frees_a_token((i,))])
            if own >= 2:
                out += _of(act.GOVERNOR, [p for p in pairs if frees_a_token(p)])
    mate = state.mate(seat)
    if mate is not None:
        out += _with_colour(state, seat, mate, (act.TEAM_START, act.TEAM_EXPAND), free)
    return [*out, MykerinosAction(act.PASS)]


def _random_position(rng: random.Random, seats: int, area_rows: int) -> MykerinosState:
    """An excavation position with a random board, terrain, tokens, reserves and cards."""
    options = {"nile": True, "team": seats == 4 and rng.random() < 0.5}
    state = MYKERINOS.new_match(seats, options, rng.randrange(1 << 30))
    assert isinstance(state, MykerinosState)
    state.shape = region_shape(area_rows)
    size = state.shape.size
    crowd = rng.random()
    state.board = [rng.randrange(COLOURS) if rng.random() < crowd else EMPTY for _ in range(size)]
    state.pyramid = [rng.random() < 0.25 for _ in range(size)]
    tokens = rng.random() < 0.5
    state.blocked = [
        rng.randrange(seats) if tokens and rng.random() < 0.15 else EMPTY for _ in range(size)
    ]
    state.phase = EXCAVATION
    state.turn = rng.randrange(seats)
    for seat in range(seats):
        state.personal[seat] = [rng.choice((0, 1, 2, 3, 8)) for _ in range(COLOURS)]
        state.cards[seat] = [rng.randrange(3) for _ in ALL_PATRONS]
        state.used[seat] = [rng.randrange(2) for _ in ALL_PATRONS]
    state.general = [rng.randrange(2) for _ in range(COLOURS)]
    state.tokens = [rng.randrange(4) for _ in range(seats)]
    state.museum = [rng.choice((EMPTY, EMPTY, 0, 1)) for _ in state.museum]
    return state


@pytest.mark.parametrize("area_rows", [2, 3])
def test_bitboard_generation_matches_the_reference_on_random_positions(area_rows: int) -> None:
    rng = random.Random(area_rows)
    for _ in range(400):
        state = _random_position(rng, rng.choice((2, 3, 4)), area_rows)
        assert state.legal_actions() == reference_excavation_actions(state, state.turn)


def test_neutral_placements_match_the_reference_on_random_positions() -> None:
    rng = random.Random(7)
    for _ in range(200):
        state = _random_position(rng, 2, rng.choice((2, 3)))
        free, _ = _reference_free_spaces(state, state.turn)
        assert state.neutral is not None
        expected = _with_colour(
            state, state.turn, state.neutral, (act.NEUTRAL_START, act.NEUTRAL_EXPAND), free
        )
        assert state._neutral_actions(state.turn) == [*expected, act.NEUTRAL_SKIP_ACTION]


def test_coerce_action_gives_the_same_answer_from_its_cache() -> None:
    state = MYKERINOS.new_match(2, {}, 1)
    for value in [("b", (11, 3), -1), ("a", (3,), -1), "b d2 c2", "B C2 D2"]:
        first = state.coerce_action(value)
        assert state.coerce_action(value) == first == state.coerce_action(first)
    for odd in [("a", (True,), -1), ("a", (3.0,), -1), ("a", (3,), True), ("zz", (), -1)]:
        with pytest.raises(GameError):
            state.coerce_action(odd)


def test_snapshot_data_encodes_exactly_like_to_data() -> None:
    """The service encodes ``snapshot_data()`` (shared lists, no copies) on every
    commit: its JSON must be ``to_data()``'s byte for byte, in every variant and
    at every step."""
    for game_index, (seats, options) in enumerate(CASES):
        state = MYKERINOS.new_match(seats, options, 7000 + game_index)
        chooser = Rng(game_index)
        while True:
            assert orjson.dumps(state.snapshot_data()) == orjson.dumps(state.to_data())
            if state.is_over():
                break
            state.apply_unchecked(chooser.choice(state.legal_actions()))
