"""Property-based conformance suite: every registered game, every seat count.

Each test plays whole seeded random matches (seeds drawn by hypothesis, derandomized
so CI is reproducible) and checks the contract of :mod:`senet.games.interface`:

* legal actions apply (checked) and round-trip through their notation;
* matches end, and ``current_seat``/``legal_actions``/``scores``/``ranking`` agree;
* wrong seats, garbage, wrong types and well-formed illegal actions are rejected with
  the right :class:`GameError` subclass, and leave the state untouched;
* snapshots round-trip through JSON and continue identically; replays reproduce;
  clones are independent;
* views are JSON, contain no ``deck``/``rng`` key and do not depend on hidden parts
  (they equal the views of a determinized copy);
* events are :class:`Event` values with JSON data; bad options are refused.

Nothing here knows a game's rules. The one game-specific piece is an optional
*notation fuzzer* per game id (grammatical action texts, mostly illegal), used on top
of the generic pool of notations that were legal somewhere in other matches. Both are
also sent with an ASCII digit swapped for another script's (``size ²``, ``a c٣``):
notation numbers are ASCII, so such a text is malformed, never a crash nor a second
spelling of an action.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from senet.games import (
    Event,
    Game,
    GameError,
    GameOverError,
    GameState,
    IllegalActionError,
    InvalidOptionsError,
    MalformedActionError,
    NotYourTurnError,
    Rng,
    all_games,
)
from senet.games.errors import CorruptStateError
from senet.games.interface import JsonDict

MAX_DECISIONS = 5000
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def _settings(examples: int, *, shrink: bool = True) -> settings:
    phases = (Phase.explicit, Phase.reuse, Phase.generate)
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(*phases, Phase.shrink) if shrink else phases,
        suppress_health_check=[HealthCheck.too_slow],
    )


# --------------------------------------------------------------------- cases
class Variant(Game):
    """A game with some options switched on: the suite's view of one variant.

    It delegates everything to ``base`` and only fills ``options`` into new
    matches, so every test below runs unchanged over the variants.
    """

    def __init__(self, base: Game, options: dict[str, Any]) -> None:
        self.base = base
        self.options = options
        self.info = base.info  # type: ignore[misc]

    def new_match(
        self, seats: int, options: Mapping[str, object] | None = None, seed: int = 0
    ) -> GameState:
        return self.base.new_match(seats, {**self.options, **(options or {})}, seed)

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> GameState:
        raise AssertionError("unused: new_match delegates to the base game")

    def parse_action(self, text: str) -> Any:
        return self.base.parse_action(text)

    def public_notation(self, notation: str) -> str:
        return self.base.public_notation(notation)

    def state_from_view(self, view: Mapping[str, Any], seed: int) -> GameState:
        return self.base.state_from_view(view, seed)

    def state_from_data(self, data: Mapping[str, Any]) -> GameState:
        return self.base.state_from_data(data)


#: Variant cases run one example in this many (the base game runs them all).
VARIANT_SHARE = 4
#: Seat counts strictly between a game's least and greatest run one example in this
#: many: the extremes, where seat-count rules bite, run them all.
MIDDLE_SEATS_SHARE = 2


class Shortened(Variant):
    """A game with the options that keep its random matches short filled in
    (``GameInfo.short_match_options``): the base case, never thinned."""


def _thinned(test: Callable[..., None]) -> Callable[..., None]:
    """Skip most examples of variant cases and some of middle seat counts, keeping
    the suite's time bounded."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        game = kwargs["game"] if "game" in kwargs else args[0]
        seats = kwargs["seats"] if "seats" in kwargs else args[1]
        share = 1
        if isinstance(game, Variant) and not isinstance(game, Shortened):
            share *= VARIANT_SHARE
        if game.info.min_seats < seats < game.info.max_seats:
            share *= MIDDLE_SEATS_SHARE
        if kwargs["seed"] % share:
            return
        test(*args, **kwargs)

    return run


def _variants(game: Game, seats: int) -> list[dict[str, Any]]:
    """Each variant option alone, then as many together as the rules allow.

    (Every combination of Mykerinos variants is covered by its own invariant test;
    this suite takes the singles and the widest combination to bound its time.)
    """

    def allowed(options: dict[str, Any]) -> bool:
        try:
            game.normalize_options(seats, options)
        except InvalidOptionsError:
            return False
        return True

    flags = [spec.name for spec in game.info.options if spec.kind == "bool" and spec.variant]
    valid = [{name: True} for name in flags if allowed({name: True})]
    widest: dict[str, Any] = {}
    for name in flags:
        if allowed({**widest, name: True}):
            widest[name] = True
    if len(widest) > 1:
        valid.append(widest)
    return valid


def _cases() -> list[Any]:
    """One param per (game, seat count), then per variant (boolean options) of each."""
    out = []
    for game in all_games():
        short = dict(game.info.short_match_options)
        base: Game = Shortened(game, short) if short else game
        for seats in range(game.info.min_seats, game.info.max_seats + 1):
            out.append(pytest.param(base, seats, id=f"{game.info.id}-{seats}p"))
            for options in _variants(game, seats):
                name = "+".join(sorted(options))
                variant = Variant(game, {**short, **options})
                out.append(pytest.param(variant, seats, id=f"{game.info.id}-{seats}p-{name}"))
    return out


CASES = _cases()
#: Each game at each seat count, without variants.
BASE_CASES = [
    p for p in CASES if not isinstance(p.values[0], Variant) or isinstance(p.values[0], Shortened)
]
GAME_IDS = [pytest.param(g, id=g.info.id) for g in all_games()]


# -------------------------------------------------------------- notation fuzzing
def _mykerinos_notations(rng: Rng, count: int) -> list[str]:
    """Grammatical Mykerinos action texts, almost all of them illegal where used."""
    from senet.games.mykerinos import actions as act
    from senet.games.mykerinos.museum import ROOM_IDS, room_name

    kinds = [*act.PLACEMENT_SIZES, *act.ROOM_KINDS, *act.SIDE_KINDS, *act.BARE_KINDS]
    out = []
    for _ in range(count):
        kind = rng.choice(kinds)
        if kind in act.PLACEMENT_SIZES:
            size = rng.choice(list(act.PLACEMENT_SIZES[kind]))
            # Half the time a chain of orthogonal neighbours (near misses), else anywhere.
            cells = [(rng.below(8), rng.below(9))]
            while len(cells) < size:
                x, y = cells[-1] if rng.chance() else (rng.below(8), rng.below(9))
                dx, dy = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
                cell = (min(7, max(0, x + dx)), min(8, max(0, y + dy)))
                if cell not in cells:
                    cells.append(cell)
            out.append(" ".join([kind, *(f"{'abcdefgh'[x]}{y + 1}" for x, y in cells)]))
        elif kind in act.ROOM_KINDS:
            out.append(f"{kind} {room_name(rng.below(ROOM_IDS))}")
        elif kind in act.SIDE_KINDS:
            out.append(f"{kind} {rng.choice(['l', 'r', 'left', 'right'])}")
        else:
            out.append(kind)
    return out


def _archeos_notations(rng: Rng, count: int) -> list[str]:
    """Grammatical Archeos Society action texts, almost all of them illegal where used."""
    from senet.games.archeos import actions as act
    from senet.games.archeos.cards import CARD_TYPES, card_name

    out = []
    for _ in range(count):
        kind = rng.choice(list(act.ALL_KINDS))
        card = card_name(rng.below(CARD_TYPES))
        if kind in act.CARD_KINDS:
            out.append(f"{kind} {card}")
        elif kind == act.LEAD:
            out.append(f"lead {card} {rng.choice(list(act.BASIS_NAMES))}")
        elif kind in act.TARGET_KINDS:
            out.append(f"{kind} {act.target_name(rng.below(act.TARGETS))}")
        elif kind == act.PROFESSOR:
            out.append(f"prof {1 + rng.below(6)}")
        else:
            out.append(kind)
    return out


def _marenostrum_notations(rng: Rng, count: int) -> list[str]:
    """Grammatical Mare Nostrum texts that name numbers (sizes, seats), mostly illegal."""
    from senet.games.marenostrum import actions as act
    from senet.games.marenostrum.commodities import CARD_NAMES

    out = []
    for _ in range(count):
        kind = rng.choice([act.SIZE, act.TAKE, *act.SEAT_KINDS])
        number = rng.below(act.MAX_SEATS + 2)  # a few past the last seat
        if kind == act.TAKE:
            out.append(f"{kind} {number} {rng.choice(list(CARD_NAMES))}")
        else:
            out.append(f"{kind} {number}")
    return out


#: Optional per-game generators of grammatical (usually illegal) notation.
NOTATION_FUZZERS: dict[str, Callable[[Rng, int], list[str]]] = {
    "archeos": _archeos_notations,
    "marenostrum": _marenostrum_notations,
    "mykerinos": _mykerinos_notations,
}

ASCII_DIGITS = frozenset("0123456789")
#: Characters that ``str.isdigit`` or ``int`` take for digits although no notation may
#: use them: superscripts and a circled digit (``isdigit`` but not ``int``), Arabic-Indic,
#: Extended Arabic-Indic, Devanagari, fullwidth and mathematical digits (both).
FOREIGN_DIGITS = ("²", "³", "¹", "⑤", "٣", "\u06f5", "१", "\uff11", "\uff19", "\U0001d7d9")
#: Any numeric character but ASCII's: the named ones, then every Unicode digit or number.
FOREIGN_DIGIT = st.sampled_from(FOREIGN_DIGITS) | st.characters(
    categories=("Nd", "Nl", "No"), exclude_characters="0123456789"
)


def _has_foreign_digit(text: str) -> bool:
    return any(char.isnumeric() and char not in ASCII_DIGITS for char in text)


def _with_foreign_digits(
    texts: list[str], digits: list[str] | tuple[str, ...], rng: Rng
) -> list[str]:
    """Each of ``texts`` that has an ASCII digit, with one of them (picked by ``rng``)
    swapped for one of ``digits``."""
    out = []
    for text in texts:
        places = [i for i, char in enumerate(text) if char in ASCII_DIGITS]
        if places:
            i = rng.choice(places)
            out.append(f"{text[:i]}{rng.choice(list(digits))}{text[i + 1 :]}")
    return out


GARBAGE_TEXT = [
    "",
    " ",
    "\t\n",
    "zzz",
    "??",
    "pass pass",
    "0",
    "-1",
    "a",
    "a z9",
    "a c0",
    "a c2 c2",
    "b c3",
    "take",
    "take x",
    "mus",
    "mus nowhere",
    "dir exp7",
    "dir exp/exp",
    "\x00",
    "é",
    "a" * 500,
]

WRONG_TYPES: list[object] = [
    None,
    0,
    42,
    -1,
    3.5,
    True,
    b"pass",
    ["pass"],
    {"kind": "pass"},
    {"pass"},
    (),
    ("pass",),
    (None, None, None),
    object(),
]


@cache
def _notation_pool(game: Game, seats: int) -> tuple[str, ...]:
    """Every notation that was legal at some point of a few other seeded matches."""
    seen: set[str] = set()
    for seed in range(3):
        state = game.new_match(seats, seed=10_000 + seed)
        rng = Rng(seed)
        for _ in range(MAX_DECISIONS):
            if state.is_over():
                break
            legal = state.legal_actions()
            seen.update(a.notation() for a in legal)
            state.apply_unchecked(rng.choice(legal))
    return tuple(sorted(seen))


def _candidate_notations(game: Game, seats: int, rng: Rng, count: int) -> list[str]:
    pool = _notation_pool(game, seats)
    out = [rng.choice(list(pool)) for _ in range(count)] if pool else []
    fuzzer = NOTATION_FUZZERS.get(game.info.id)
    if fuzzer is not None:
        out += fuzzer(rng, count)
    return out + _with_foreign_digits(out, FOREIGN_DIGITS, rng)


# ------------------------------------------------------------------ helpers
def _json(value: Any) -> Any:
    """``value`` through JSON; fails the test when it is not plain JSON data."""
    return json.loads(json.dumps(value, allow_nan=False))


#: Keys no view may have, at any depth.
HIDDEN_KEYS = ("deck", "rng")


def _keys(value: Any, path: str = "$") -> Iterator[tuple[str, str]]:
    """Every (path, key) of every mapping nested in ``value``."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, str(key)
            yield from _keys(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _keys(item, f"{path}[{i}]")


def _check_position(state: GameState) -> None:
    """Queries that must agree in every position."""
    seats = state.seat_count
    seat = state.current_seat()
    assert state.is_over() == (seat is None)
    scores, ranking = state.scores(), state.ranking()
    assert len(scores) == seats and all(isinstance(s, int) for s in scores)
    assert len(ranking) == seats and all(1 <= p <= seats for p in ranking), ranking
    assert min(ranking) == 1
    if seat is None:
        assert state.legal_actions() == []
        assert all(state.legal_actions_for(s) == [] for s in range(seats))
        return
    assert 0 <= seat < seats
    legal = state.legal_actions()
    assert legal, "no legal action while the match is not over"
    notations = [a.notation() for a in legal]
    assert len(set(notations)) == len(notations), "duplicate legal actions"
    assert len(set(legal)) == len(legal), "duplicate legal action values"
    assert state.legal_actions_for(seat) == legal
    deciding = state.deciding_seats()
    assert list(deciding) == sorted(set(deciding)), deciding
    assert deciding[0] == seat, "current_seat is the lowest-numbered deciding seat"
    assert all(0 <= s < seats and state.legal_actions_for(s) for s in deciding)
    assert all(state.legal_actions_for(s) == [] for s in range(seats) if s not in deciding)


def _check_events(events: object, seats: int) -> None:
    assert isinstance(events, list)
    for event in events:
        assert isinstance(event, Event), event
        assert isinstance(event.kind, str) and event.kind
        data = event.to_data()
        assert _json(data) == data, data
        if event.audience is not None:
            assert all(0 <= s < seats for s in event.audience)


def _check_action_labels(game: Game, state: GameState, legal: list[Any]) -> None:
    for action in legal:
        text = action.notation()
        assert isinstance(text, str) and text.strip() == text and text
        assert game.parse_action(text) == action, text
        assert state.coerce_action(text) == action
        assert state.coerce_action(action) == action
        label = state.describe(action)
        assert isinstance(label, str) and label.strip(), text


def _playout(
    game: Game,
    seats: int,
    seed: int,
    chooser: int,
    hook: Callable[[GameState, int, Rng], None] | None = None,
) -> tuple[GameState, list[str]]:
    """Play a random match to the end; call ``hook(state, step, rng)`` before each decision."""
    state = game.new_match(seats, seed=seed)
    rng = Rng(chooser)
    log: list[str] = []
    for step in range(MAX_DECISIONS):
        if state.is_over():
            break
        if hook is not None:
            hook(state, step, rng)
        action = rng.choice(state.legal_actions())
        log.append(action.notation())
        state.apply_unchecked(action)
    assert state.is_over(), f"no end after {MAX_DECISIONS} decisions"
    return state, log


# ------------------------------------------------------------ playouts
@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(30)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
@pytest.mark.slow
def test_random_playouts_follow_the_interface(game: Game, seats: int, seed: int, chooser: int):
    """Legal actions apply (checked), round-trip, are labelled; the match ends."""
    state = game.new_match(seats, seed=seed)
    rng = Rng(chooser)
    decisions = 0
    last: tuple[int, str] | None = None
    while not state.is_over():
        assert decisions < MAX_DECISIONS, "the match does not end"
        _check_position(state)
        seat = state.current_seat()
        assert seat is not None
        legal = state.legal_actions()
        _check_action_labels(game, state, legal)
        sample = rng.below(8) == 0
        if sample:
            before = state.to_data()
            for i, action in enumerate(legal):
                # Every listed action is accepted by the checked entry point, as a
                # value and as text, and does what the unchecked one does.
                checked = state.clone()
                events = checked.apply(seat, action if i % 2 else action.notation())
                _check_events(events, seats)
                unchecked = state.clone()
                unchecked.apply_unchecked(action)
                assert checked.to_data() == unchecked.to_data(), action.notation()
            assert state.to_data() == before, "applying to clones changed the original"
        action = rng.choice(legal)
        if sample or rng.below(2):
            _check_events(state.apply(seat, action), seats)
        else:
            state.apply_unchecked(action)
        last = (seat, action.notation())
        decisions += 1
    _check_position(state)
    assert state.current_seat() is None and last is not None
    with pytest.raises(GameOverError):
        state.apply(*last)


# ------------------------------------------------------------ rejections
class _Attempts:
    """Rejected attempts at one position, and the position's data before them.

    That they left the state unchanged is checked once, by :meth:`check`, rather than
    after each attempt (a ``to_data`` per attempt was half the rejection test's time);
    when the state did change, each attempt is replayed on a copy rebuilt from that
    data, to name the one that changed it.
    """

    def __init__(self, game: Game, state: GameState) -> None:
        self.game = game
        self.state = state
        self.before = state.to_data()
        self.tried: list[tuple[object, object]] = []

    def check(self) -> None:
        if self.state.to_data() == self.before:
            return
        for seat, action in self.tried:
            replayed = self.game.state_from_data(copy.deepcopy(self.before))
            with contextlib.suppress(GameError):
                replayed.apply(seat, action)  # type: ignore[arg-type]
            assert replayed.to_data() == self.before, (
                f"{action!r} was rejected but changed the state"
            )
        raise AssertionError(f"rejecting {self.tried!r} changed the state")


def _expect(
    state: GameState,
    seat: object,
    action: object,
    error: type[GameError],
    before: JsonDict | _Attempts | None = None,
) -> GameError:
    """Apply and expect exactly ``error``; the state must not change (from ``before``,
    its data, when the caller already has it; or, when ``before`` collects the
    position's attempts, as its ``check`` finds)."""
    if before is None:
        before = state.to_data()
    try:
        state.apply(seat, action)  # type: ignore[arg-type]
    except GameError as exc:
        assert isinstance(exc, error), f"{action!r}: {type(exc).__name__}: {exc}"
        if isinstance(before, _Attempts):
            before.tried.append((seat, action))
        else:
            assert state.to_data() == before, f"{action!r} was rejected but changed the state"
        assert isinstance(exc.reason, str) and exc.reason
        return exc
    raise AssertionError(f"{action!r} by seat {seat!r} was accepted; expected {error.__name__}")


def _check_text(
    game: Game,
    state: GameState,
    seat: int,
    text: str,
    legal: set[Any],
    before: JsonDict | _Attempts,
) -> None:
    """Text must be refused as malformed, or parse; parsed, it is legal (in ``legal``)
    or refused as illegal. ``before`` is as :func:`_expect` takes it. A text with a
    digit that is not ASCII is malformed: no notation has one, and reading it as ASCII
    would give an action a second spelling."""
    if _has_foreign_digit(text):
        with pytest.raises(MalformedActionError):
            game.parse_action(text)
        _expect(state, seat, text, MalformedActionError, before)
        return
    try:
        parsed = game.parse_action(text)
    except MalformedActionError:
        _expect(state, seat, text, MalformedActionError, before)
        return
    if parsed in legal:
        return
    notation = parsed.notation()
    for given_as in (text, parsed):
        exc = _expect(state, seat, given_as, IllegalActionError, before)
        message = str(exc).strip()
        assert message and message != notation and len(message) > len(notation) + 3, message
    why = state.explain_illegal(parsed)
    assert isinstance(why, str) and why.strip() and why.strip() != notation, why


@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(25)
@given(
    seed=SEEDS,
    chooser=SEEDS,
    garbage=st.lists(
        st.text(max_size=12)
        | st.text(
            alphabet=f"abcdefghijklmnopqrstuvwxyz0123456789/ ,{''.join(FOREIGN_DIGITS)}",
            max_size=16,
        ),
        max_size=12,
    ),
)
@_thinned
@pytest.mark.slow
def test_bad_actions_are_rejected_and_change_nothing(
    game: Game, seats: int, seed: int, chooser: int, garbage: list[str]
):
    """Wrong seat, garbage, wrong types and illegal notation: right error, same state."""
    texts = [*GARBAGE_TEXT, *garbage]

    def probe(state: GameState, step: int, rng: Rng) -> None:
        if rng.below(4):
            return
        seat = state.current_seat()
        assert seat is not None
        legal = state.legal_actions()
        action = rng.choice(legal)
        attempts = _Attempts(game, state)
        deciding = state.deciding_seats()
        for other in [*range(seats), -1, seats, 10**6]:
            if other not in deciding:
                _expect(state, other, action, NotYourTurnError, attempts)
                _expect(state, other, action.notation(), NotYourTurnError, attempts)
        _expect(state, seat, rng.choice(WRONG_TYPES), MalformedActionError, attempts)
        legal_set = set(legal)
        for _ in range(3):
            _check_text(game, state, seat, rng.choice(texts), legal_set, attempts)
        for text in _candidate_notations(game, seats, rng, 6):
            _check_text(game, state, seat, text, legal_set, attempts)
        attempts.check()

    state, log = _playout(game, seats, seed, chooser, probe)
    for seat in range(seats):
        for action in [*log[-3:], *GARBAGE_TEXT[:4], *WRONG_TYPES[:4]]:
            _expect(state, seat, action, GameOverError)
    assert state.legal_actions() == []


@pytest.mark.parametrize(("game", "seats"), BASE_CASES)
@_settings(25)
@given(seed=SEEDS, digits=st.lists(FOREIGN_DIGIT, min_size=1, max_size=3))
def test_notations_with_foreign_digits_are_malformed(
    game: Game, seats: int, seed: int, digits: list[str]
):
    """Every notation with a digit (legal somewhere, or fuzzed), with one digit swapped
    for another script's: refused as malformed by the parser and by ``apply``, which
    leaves the state unchanged; never a ValueError, never read as the ASCII digit."""
    rng = Rng(seed)
    fuzzer = NOTATION_FUZZERS.get(game.info.id)
    texts = [*_notation_pool(game, seats), *(fuzzer(rng, 100) if fuzzer else [])]
    swapped = _with_foreign_digits(texts, digits, rng)
    assert swapped, f"no notation of {game.info.id} has a digit to swap"
    for text in swapped:
        with pytest.raises(MalformedActionError):
            game.parse_action(text)
    state = game.new_match(seats, seed=seed)
    seat = state.current_seat()
    before = state.to_data()
    for _ in range(10):
        _expect(state, seat, rng.choice(swapped), MalformedActionError, before)


# --------------------------------------------------------- serialization
@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(20)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
@pytest.mark.slow
def test_snapshots_round_trip_and_continue_identically(
    game: Game, seats: int, seed: int, chooser: int
):
    """to_data -> JSON -> state_from_data gives an equal state that plays on identically."""

    def round_trip(state: GameState, step: int, rng: Rng) -> None:
        if rng.below(10):
            return
        data = state.to_data()
        restored = game.state_from_data(_json(data))
        assert restored == state
        assert restored.to_data() == data
        assert restored.current_seat() == state.current_seat()
        # Both copies continue with the same actions and stay equal, step by step.
        ahead, lane = state.clone(), Rng(rng.next_u64())
        for _ in range(12):
            if ahead.is_over():
                break
            legal = ahead.legal_actions()
            assert [a.notation() for a in restored.legal_actions()] == [a.notation() for a in legal]
            action = lane.choice(legal)
            seat = ahead.current_seat()
            assert seat is not None
            events = ahead.apply(seat, action)
            assert [e.to_data() for e in restored.apply(seat, action.notation())] == [
                e.to_data() for e in events
            ]
            assert restored.to_data() == ahead.to_data()
            assert restored.view(seat) == ahead.view(seat)

    state, _ = _playout(game, seats, seed, chooser, round_trip)
    assert game.state_from_data(_json(state.to_data())) == state


@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(20)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
@pytest.mark.slow
def test_replay_is_deterministic_and_clones_are_independent(
    game: Game, seats: int, seed: int, chooser: int
):
    """Same seed + same notations = same final data; clones never write through."""

    def clones(state: GameState, step: int, rng: Rng) -> None:
        if rng.below(10):
            return
        before = state.to_data()
        twin = state.clone()
        assert twin == state and twin is not state
        lane = Rng(rng.next_u64())
        for _ in range(20):
            if twin.is_over():
                break
            twin.apply_unchecked(lane.choice(twin.legal_actions()))
        assert state.to_data() == before, "playing a clone changed the original"
        # And the other way round: the original moving on leaves an old clone alone.
        frozen = state.clone()
        snapshot = frozen.to_data()
        probe = state.clone()
        probe.apply_unchecked(lane.choice(probe.legal_actions()))
        assert frozen.to_data() == snapshot

    final, log = _playout(game, seats, seed, chooser, clones)
    again = game.new_match(seats, options=dict(final.options), seed=seed)
    _check_events(again.replay(log), seats)
    assert again.to_data() == final.to_data()
    third = game.new_match(seats, seed=seed)
    for text in log:
        third.apply_unchecked(game.parse_action(text))
    assert third.to_data() == final.to_data()
    assert third.scores() == final.scores() and third.ranking() == final.ranking()


# ------------------------------------------------- several seats deciding at once
def _submission(state: GameState, seat: int, rng: Rng) -> list[Any]:
    """One random complete submission of ``seat``: its actions until it stops deciding
    (played on ``state``, a clone the caller gives up)."""
    out = []
    while seat in state.deciding_seats():
        action = rng.choice(state.legal_actions_for(seat))
        out.append(action)
        state.apply(seat, action)
    return out


def _seen_by_others(state: GameState, seat: int, events: list[Event]) -> list[Any]:
    """What every seat but ``seat`` (and spectators) sees: views and events."""
    others: list[int | None] = [None, *(s for s in range(state.seat_count) if s != seat)]
    return [(state.view(o), [e.to_data() for e in events if e.visible_to(o)]) for o in others]


@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(15)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
@pytest.mark.slow
def test_simultaneous_choices_stay_hidden_and_commute(
    game: Game, seats: int, seed: int, chooser: int
):
    """Where several seats decide at once: no seat's pending choice shows in another
    seat's view, events or the action's public notation, and any order of the seats'
    submissions ends the same."""

    def check(state: GameState, step: int, rng: Rng) -> None:
        deciding = state.deciding_seats()
        if len(deciding) < 2 or rng.below(3):
            return
        for seat in deciding:
            seen = set()
            for action in state.legal_actions_for(seat)[:6]:
                trial = state.clone()
                events = trial.apply(seat, action)
                public = game.public_notation(action.notation())
                seen.add(json.dumps([public, _seen_by_others(trial, seat, events)], sort_keys=True))
            assert len(seen) == 1, f"seat {seat}'s pending choice shows to other seats"
        # Each seat's submission is drawn as if it went first (it ends when the seat
        # stops deciding, before any reveal), then replayed in several orders.
        lane = Rng(rng.next_u64())
        plan = {seat: _submission(state.clone(), seat, lane) for seat in deciding}
        ends = []
        for order in (list(deciding), list(reversed(deciding)), [*deciding[1:], deciding[0]]):
            other = state.clone()
            for seat in order:
                for action in plan[seat]:
                    other.apply(seat, action.notation())
            ends.append(other.to_data())
        assert all(end == ends[0] for end in ends), "the order of submissions matters"

    _playout(game, seats, seed, chooser, check)


# ------------------------------------------------------------------ views
@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(20)
@given(seed=SEEDS, chooser=SEEDS, other_seed=SEEDS)
@_thinned
@pytest.mark.slow
def test_views_are_json_and_do_not_depend_on_hidden_parts(
    game: Game, seats: int, seed: int, chooser: int, other_seed: int
):
    """view() is JSON, has no deck/rng key and equals the view of a determinized copy."""
    viewers: list[int | None] = [None, *range(seats)]

    def check_views(state: GameState, step: int, rng: Rng) -> None:
        if rng.below(6) and not state.is_over():
            return
        before = state.to_data()
        public = state.view(None)
        for viewer in viewers:
            view = state.view(viewer)
            assert isinstance(view, dict)
            text = json.dumps(view, allow_nan=False)
            assert json.loads(text) == view, "view is not plain JSON data"
            if any(f'"{key}"' in text for key in HIDDEN_KEYS):
                # Rare: the words may be values; walk the view only to name a leak.
                leaks = [f"{p}.{k}" for p, k in _keys(view) if k in HIDDEN_KEYS]
                assert not leaks, leaks
            other = state.determinize(viewer, other_seed ^ rng.next_u64())
            assert other.view(viewer) == view, f"view({viewer}) depends on hidden parts"
            assert other.view(None) == public
            assert other.current_seat() == state.current_seat()
            if viewer is not None and viewer in state.deciding_seats():
                # A seat knows its own options: they cannot depend on hidden parts.
                assert [a.notation() for a in other.legal_actions_for(viewer)] == [
                    a.notation() for a in state.legal_actions_for(viewer)
                ]
        assert state.to_data() == before, "view() or determinize() changed the state"

    final, _ = _playout(game, seats, seed, chooser, check_views)
    check_views(final, -1, Rng(chooser))


_NO_PART = object()


def _part(view: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = view
    for key in path:
        if isinstance(value, list):
            # A per-seat table: the key of every seat's entry.
            return [_part(entry, (key,)) for entry in value]
        if not isinstance(value, dict) or key not in value:
            return _NO_PART
        value = value[key]
    return value


@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(10)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
def test_view_parts_change_only_with_their_fields(game: Game, seats: int, seed: int, chooser: int):
    """Where a game declares ``view_sources``, they cover every key of every view, and
    each seat's view part whose fields did not change since that seat last looked
    (``changed_view_parts``) equals the part it saw then: an observer that rebuilds
    only the changed parts sees the whole view. ``view_parts`` builds each part (and
    each key of a per-seat table) as ``view`` does."""
    viewers: list[int | None] = [None, *range(seats)]
    marks: dict[int | None, dict[str, Any]] = {viewer: {} for viewer in viewers}
    seen: dict[int | None, JsonDict] = {}

    def check(state: GameState, step: int, rng: Rng) -> None:
        sources = state.view_sources
        if sources is None:
            return
        looking = [v for v in viewers if rng.below(3) == 0 or state.is_over()]
        for viewer in looking:
            changed = state.changed_view_parts(marks[viewer])
            assert changed is not None
            view = state.view(viewer)
            for key, value in view.items():
                if (key,) in sources:
                    continue
                if isinstance(value, list) and all(isinstance(e, dict) for e in value):
                    subs = {sub for entry in value for sub in entry}  # a per-seat table
                else:
                    assert isinstance(value, dict), f"view key {key!r} has no declared fields"
                    subs = set(value)
                missing = sorted(sub for sub in subs if (key, sub) not in sources)
                assert not missing, f"view parts {key}.{missing} have no declared fields"
            assert state.view_parts(viewer, list(sources)) == view
            for path in sources:
                part = _part(state.view_parts(viewer, [path]), path)
                assert part == _part(view, path), f"view_parts({viewer}, [{path}]) differs"
            last = seen.get(viewer)
            if last is not None:
                for path in sources:
                    if path not in changed:
                        assert _part(view, path) == _part(last, path), (
                            f"view({viewer}) part {path} changed, but none of its fields "
                            f"{sources[path]} did"
                        )
            seen[viewer] = view

    final, _ = _playout(game, seats, seed, chooser, check)
    check(final, -1, Rng(0))


@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(10)
@given(seed=SEEDS, chooser=SEEDS, sample_seed=SEEDS)
@_thinned
@pytest.mark.slow
def test_state_from_view_reproduces_the_view_and_the_choices(
    game: Game, seats: int, seed: int, chooser: int, sample_seed: int
):
    """A bot that only sees views can rebuild a forward model consistent with them."""

    def check(state: GameState, step: int, rng: Rng) -> None:
        if rng.below(4):
            return
        for viewer in [None, *range(seats)]:
            view = state.view(viewer)
            rebuilt = game.state_from_view(_json(view), sample_seed)
            assert rebuilt.view(viewer) == view
            assert rebuilt.current_seat() == state.current_seat()
            if viewer == state.current_seat() or game.info.public_choices:
                # The seat to move knows its own options; in games without hidden
                # hands, so does everybody else.
                assert [a.notation() for a in rebuilt.legal_actions()] == [
                    a.notation() for a in state.legal_actions()
                ]

    final, _ = _playout(game, seats, seed, chooser, check)
    check(final, -1, Rng(0))


@pytest.mark.parametrize("game", GAME_IDS)
def test_state_from_view_refuses_what_is_not_a_view(game: Game):
    view = game.new_match(game.info.min_seats, seed=3).view(None)
    for bad in ({}, {"game": game.info.id}, {**view, "players": "x"}, {**view, "deck_size": -1}):
        with pytest.raises(CorruptStateError):
            game.state_from_view(bad, 1)


# ---------------------------------------------------------------- options
@pytest.mark.parametrize("game", GAME_IDS)
@_settings(30)
@given(name=st.text(min_size=1, max_size=20), value=st.integers() | st.text() | st.booleans())
def test_unknown_options_are_refused(game: Game, name: str, value: object):
    known = {spec.name for spec in game.info.options}
    if name in known:
        return
    with pytest.raises(InvalidOptionsError):
        game.new_match(game.info.min_seats, options={name: value}, seed=1)


@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_seat_counts_are_refused(game: Game):
    info = game.info
    for seats in (info.min_seats - 1, info.max_seats + 1, 0, -1, 99, True, "3", 2.0, None):
        with pytest.raises(InvalidOptionsError):
            game.new_match(seats, seed=1)  # type: ignore[arg-type]
    for seats in range(info.min_seats, info.max_seats + 1):
        state = game.new_match(seats, seed=1)
        assert state.seat_count == seats
        assert set(state.options) == {spec.name for spec in info.options}


@pytest.mark.parametrize("game", GAME_IDS)
def test_bounded_and_short_match_options_are_valid(game: Game):
    """The options tools use to make matches end (arena, benchmarks, learning
    environments: ``bounded_match_options``; this suite: ``short_match_options``) are
    options the game accepts at every seat count."""
    info = game.info
    for pairs in (info.bounded_match_options, info.short_match_options):
        for seats in range(info.min_seats, info.max_seats + 1):
            normalized = game.normalize_options(seats, dict(pairs))
            assert all(normalized[name] == value for name, value in pairs)


@pytest.mark.parametrize("game", GAME_IDS)
def test_bad_option_values_are_refused(game: Game):
    for spec in game.info.options:
        bad: list[object] = {
            "bool": ["maybe", 2, None],
            "int": ["x", 1.5, None, True],
            "choice": ["no-such-choice", 7],
        }[spec.kind]
        if spec.kind == "int" and spec.minimum is not None:
            bad.append(spec.minimum - 1)
        if spec.kind == "int" and spec.maximum is not None:
            bad.append(spec.maximum + 1)
        for value in bad:
            with pytest.raises(InvalidOptionsError):
                game.new_match(game.info.min_seats, options={spec.name: value}, seed=1)


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_corrupt_snapshots_are_refused(game: Game, seats: int):
    state = game.new_match(seats, seed=3)
    data = state.to_data()
    broken: list[object] = [None, [], "x", 7, {}, {**data, "game": "no-such-game"}]
    # A field an older release did not save is filled, not refused.
    declared = type(state).state_fields
    filled = declared.filled_when_missing if declared is not None else frozenset()
    broken += [
        {k: v for k, v in data.items() if k != key}
        for key in data
        if key != "game" and key not in filled
    ]
    for item in broken:
        with pytest.raises(CorruptStateError):
            game.state_from_data(item)  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_corrupt_field_values_are_refused(game: Game, seats: int):
    """A snapshot field replaced by a value of the wrong kind is refused on load.

    Assumes no snapshot field legitimately holds the string "x" or the dict {"?": 1}.
    Checked at load time only: a state built from such data cannot be trusted to fail
    cleanly later (it may raise anything, or loop).
    """
    rng = Rng(seats)
    state = game.new_match(seats, seed=11)
    for _ in range(40):
        if state.is_over():
            break
        state.apply_unchecked(rng.choice(state.legal_actions()))
    data = state.to_data()
    accepted = []
    for key in data:
        if key == "game":
            continue
        for bad in ("x", {"?": 1}):
            try:
                game.state_from_data({**copy.deepcopy(data), key: bad})
            except CorruptStateError:
                continue
            accepted.append(f"{key}={bad!r}")
    assert not accepted, f"corrupt snapshots accepted: {accepted}"


# ------------------------------------------------------- robustness
# Beyond the happy path: a label for *any* well-formed action (clients label what
# users type), hand-built action values that are not quite right, and snapshots that
# do not alias the state. Each must end in a string or a GameError, never in another
# exception.
@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(10, shrink=False)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
@pytest.mark.slow
def test_any_well_formed_action_can_be_described(game: Game, seats: int, seed: int, chooser: int):
    def describe_all(state: GameState, step: int, rng: Rng) -> None:
        for text in _candidate_notations(game, seats, rng, 4):
            try:
                action = game.parse_action(text)
            except MalformedActionError:
                continue
            try:
                label = state.describe(action)
            except GameError:
                continue
            assert isinstance(label, str) and label.strip(), text

    state, _ = _playout(game, seats, seed, chooser, describe_all)
    describe_all(state, -1, Rng(chooser))


def _perturbed(action: Any, rng: Rng) -> Iterator[object]:
    """Plain tuples (and lists) like an action value with one field replaced."""
    if not isinstance(action, tuple):
        return
    odd: list[object] = [-1, 99, 10**9, -(10**9), "", "x", None, (), (99,), ("a",), True, 2.5]
    fields = list(action)
    for index in range(len(fields)):
        changed = list(fields)
        changed[index] = rng.choice(odd)
        yield tuple(changed)
        yield changed
    yield tuple(fields)


@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(6, shrink=False)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
@pytest.mark.slow
def test_hand_built_action_values_end_in_a_game_error(
    game: Game, seats: int, seed: int, chooser: int
):
    def perturb(state: GameState, step: int, rng: Rng) -> None:
        seat = state.current_seat()
        assert seat is not None
        legal = state.legal_actions()
        for action in {legal[0], legal[-1], rng.choice(legal)}:
            for value in _perturbed(action, rng):
                trial = state.clone()
                try:
                    _check_events(trial.apply(seat, value), seats)
                except GameError:
                    assert trial.to_data() == state.to_data()

    _playout(game, seats, seed, chooser, perturb)


def _scribble(value: Any) -> None:
    """Mutate every container nested in ``value`` in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["__scribbled__"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("__scribbled__")


@pytest.mark.parametrize(("game", "seats"), CASES)
@_settings(5, shrink=False)
@given(seed=SEEDS, chooser=SEEDS)
@_thinned
@pytest.mark.slow
def test_data_and_views_are_snapshots(game: Game, seats: int, seed: int, chooser: int):
    """Mutating what to_data()/view() returned (or the data a state was built from)
    must not change the state."""
    viewers: list[int | None] = [None, *range(seats)]

    def check(state: GameState, step: int, rng: Rng) -> None:
        if rng.below(10) and not state.is_over():
            return
        before = copy.deepcopy(state.to_data())
        shared = []
        fresh = game.state_from_data(copy.deepcopy(before))
        _scribble(fresh.to_data())
        if fresh.to_data() != before:
            shared.append("to_data()")
        for viewer in viewers:
            fresh = game.state_from_data(copy.deepcopy(before))
            _scribble(fresh.view(viewer))
            if fresh.to_data() != before:
                shared.append(f"view({viewer})")
        data = copy.deepcopy(before)
        restored = game.state_from_data(data)
        _scribble(data)
        if restored.to_data() != before:
            shared.append("state_from_data(data)")
        assert not shared, f"these share containers with the state: {shared}"

    state, _ = _playout(game, seats, seed, chooser, check)
    check(state, -1, Rng(chooser))
