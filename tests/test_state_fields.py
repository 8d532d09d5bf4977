"""Every attribute of every game state is declared once, and clones share nothing mutable.

A state's :class:`~senet.games.fields.StateFields` builds its clone, to_data and
snapshot_data. These tests play seeded matches of every installed game and variant
and check, at every step, that the state holds exactly the declared attributes (a new
list that nobody declared would otherwise be shared by search copies, or lost on
reload), that a clone holds no mutable object of the original's, that snapshots
carry every saved field and that ``from_data`` reads each of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import orjson
import pytest

from senet.games import all_games
from senet.games.errors import CorruptStateError, InvalidOptionsError
from senet.games.fields import LIST, SCALAR, SHARED, TABLE, StateFields, snapshot_header
from senet.games.interface import Action, Event, Game, GameInfo, GameState, JsonDict
from senet.games.rng import Rng

#: Values a clone may share with its original: nothing can change them in place.
IMMUTABLE = (int, float, str, bytes, bool, type(None), frozenset)


def _cases() -> list[Any]:
    """Each game at each seat count, then each variant option alone where allowed;
    all under the game's bounded-match options, so every playout ends."""
    out = []
    for game in all_games():
        info = game.info
        bounded = dict(info.bounded_match_options)
        for seats in range(info.min_seats, info.max_seats + 1):
            out.append(pytest.param(game, seats, bounded, id=f"{info.id}-{seats}p"))
        for spec in info.options:
            if spec.kind != "bool" or not spec.variant:
                continue
            for seats in range(info.max_seats, info.min_seats - 1, -1):
                try:
                    game.normalize_options(seats, {spec.name: True})
                except InvalidOptionsError:
                    continue
                out.append(
                    pytest.param(
                        game,
                        seats,
                        {**bounded, spec.name: True},
                        id=f"{info.id}-{seats}p-{spec.name}",
                    )
                )
                break
    return out


CASES = _cases()


def _playout(game: Game, seats: int, options: JsonDict, seed: int = 3) -> Iterator[GameState]:
    """Every state of one seeded random match, the first and the last included."""
    state = game.new_match(seats, options, seed)
    chooser = Rng(seed)
    yield state
    while not state.is_over():
        state.apply_unchecked(chooser.choice(state.legal_actions()))
        yield state


def _declaration(state: GameState) -> StateFields[Any]:
    """The state's declaration; a state without one must keep the deep-copying clone."""
    cls = type(state)
    if cls.state_fields is None:
        assert cls.clone is GameState.clone, (
            f"{cls.__name__} copies itself by hand but declares no state_fields"
        )
        pytest.skip(f"{cls.__name__} deep-copies itself: no list of fields to keep true")
    return cls.state_fields


def undeclared_attributes(state: GameState) -> list[str]:
    """What ``state`` holds that its declaration does not name, and the reverse."""
    declared = _declaration(state).names()
    held = set(vars(state))
    return [f"undeclared: {n}" for n in sorted(held - declared)] + [
        f"declared but missing: {n}" for n in sorted(declared - held)
    ]


def shared_mutables(original: GameState, twin: GameState) -> list[str]:
    """Paths of the clone's mutable objects that are also the original's.

    Walks every attribute of a kind that clones copy (not the scalars, and not
    what is declared SHARED: immutable or only ever replaced as a whole), down
    through lists, tuples, dicts and objects.
    """
    fields = _declaration(original)
    owned: set[int] = set()

    def collect(value: Any) -> None:
        if isinstance(value, IMMUTABLE):
            return
        if not isinstance(value, tuple):
            if id(value) in owned:
                return
            owned.add(id(value))
        for child in _children(value):
            collect(child)

    found: list[str] = []

    def check(value: Any, path: str) -> None:
        if isinstance(value, IMMUTABLE):
            return
        if not isinstance(value, tuple) and id(value) in owned:
            found.append(path)
            return
        for index, child in enumerate(_children(value)):
            check(child, f"{path}[{index}]")

    walked = [f for f in fields.fields if f.kind.copied]
    for field in walked:
        collect(getattr(original, field.name))
    for field in walked:
        check(getattr(twin, field.name), field.name)
    return found


def _children(value: Any) -> list[Any]:
    if isinstance(value, list | tuple | set):
        return list(value)
    if isinstance(value, dict):
        return [*value.keys(), *value.values()]
    slots = getattr(type(value), "__slots__", ())
    if isinstance(slots, str):
        slots = (slots,)
    return [*getattr(value, "__dict__", {}).values(), *(getattr(value, s) for s in slots)]


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_states_hold_exactly_the_declared_attributes(
    game: Game, seats: int, options: JsonDict
) -> None:
    for step, state in enumerate(_playout(game, seats, options)):
        assert undeclared_attributes(state) == [], f"step {step}"
        assert undeclared_attributes(state.clone()) == [], f"clone at step {step}"
        if step % 20 == 0 or state.is_over():
            restored = game.state_from_data(orjson.loads(orjson.dumps(state.to_data())))
            assert undeclared_attributes(restored) == [], f"from_data at step {step}"
            sampled = game.state_from_view(orjson.loads(orjson.dumps(state.view(0))), step)
            assert undeclared_attributes(sampled) == [], f"from_view at step {step}"
            assert undeclared_attributes(state.determinize(0, step)) == []


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_a_clone_shares_no_mutable_object_and_plays_on_alone(
    game: Game, seats: int, options: JsonDict
) -> None:
    fields = None
    for step, state in enumerate(_playout(game, seats, options)):
        fields = _declaration(state)
        twin = state.clone()
        assert shared_mutables(state, twin) == [], f"step {step}"
        for field in fields.fields:
            if field.kind is SCALAR:
                value = getattr(state, field.name)
                assert isinstance(value, IMMUTABLE), f"{field.name} is not a scalar: {value!r}"
        # A twin played to the end leaves the original alone (every 25th position:
        # each is a whole playout).
        if step % 25 == 0 and not state.is_over():
            before = orjson.dumps(state.to_data())
            while not twin.is_over():
                twin.apply_unchecked(twin.legal_actions()[-1])
            assert orjson.dumps(state.to_data()) == before, f"step {step}"
    assert fields is not None


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_snapshots_carry_every_saved_field_and_from_data_reads_each(
    game: Game, seats: int, options: JsonDict
) -> None:
    for step, state in enumerate(_playout(game, seats, options)):
        data = state.to_data()
        assert tuple(data) == _declaration(state).keys
        assert orjson.dumps(state.snapshot_data()) == orjson.dumps(data), f"step {step}"
        if step % 40 == 0 or state.is_over():
            optional = _declaration(state).filled_when_missing
            for key in data:
                partial = {k: value for k, value in data.items() if k != key}
                older = orjson.loads(orjson.dumps(partial))
                if key in optional:
                    filled = game.state_from_data(older)
                    assert filled.legal_actions() == state.legal_actions(), key
                    continue
                with pytest.raises(CorruptStateError):
                    game.state_from_data(older)


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
def test_data_of_gives_each_key_of_to_data_alone(game: Game, seats: int, options: JsonDict) -> None:
    for step, state in enumerate(_playout(game, seats, options)):
        if step % 10 and not state.is_over():
            continue
        data = state.to_data()
        data_of = _declaration(state).data_of
        assert tuple(data_of) == tuple(data)
        for key, value in data.items():
            assert orjson.dumps(data_of[key](state)) == orjson.dumps(value), (step, key)


def test_the_checks_catch_an_attribute_nobody_declared() -> None:
    """The guard itself: a list added outside the declaration is reported, and a
    list that a hand-made clone forgets to copy is found shared."""
    game = all_games()[0]
    state = game.new_match(game.info.min_seats, {}, 1)
    state.__dict__["new_list"] = [1, 2]
    assert undeclared_attributes(state) == ["undeclared: new_list"]
    del state.__dict__["new_list"]
    twin = state.clone()
    saved_list = next(f for f in _declaration(state).saved if f.kind is LIST)
    setattr(twin, saved_list.name, getattr(state, saved_list.name))
    assert shared_mutables(state, twin) == [saved_list.name]


# ------------------------------------------------- the mechanism on a small game
class _CounterGame(Game):
    info = GameInfo("counter", "Counter", 1, 2, "Add to a shared total.")

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> GameState:
        return _CounterState(self, seats, options)

    def parse_action(self, text: str) -> Action:
        raise NotImplementedError

    def state_from_view(self, view: Any, seed: int) -> GameState:
        raise NotImplementedError

    def state_from_data(self, data: Any) -> GameState:
        raise NotImplementedError


class _CounterState(GameState):
    """A minimal state that builds its clone and snapshots from a declaration."""

    state_fields: ClassVar[StateFields[Any]] = StateFields(
        "counter",
        saved=(*SCALAR("total"), *LIST("history"), *TABLE("per_seat")),
        derived=SHARED("label"),
    )

    def __init__(self, game: Game, seats: int, options: JsonDict) -> None:
        self.game = game
        self.seat_count = seats
        self.options = dict(options)
        self.total = 0
        self.history: list[int] = []
        self.per_seat = [[0] for _ in range(seats)]
        self.label = "counter"

    def clone(self) -> _CounterState:
        return self.state_fields.clone(self)  # type: ignore[no-any-return]

    def to_data(self) -> JsonDict:
        return self.state_fields.to_data(self)

    def current_seat(self) -> int | None:
        return None if self.total >= 3 else len(self.history) % self.seat_count

    def legal_actions(self) -> list[Action]:
        return []

    def describe(self, action: Action) -> str:
        return ""

    def explain_illegal(self, action: Action) -> str:
        return ""

    def scores(self) -> list[int]:
        return [row[0] for row in self.per_seat]

    def ranking(self) -> list[int]:
        return [1] * self.seat_count

    def view(self, seat: int | None) -> JsonDict:
        return self.to_data()

    def determinize(self, seat: int | None, seed: int) -> GameState:
        return self.clone()

    def coerce_action(self, action: object) -> Action:
        raise NotImplementedError

    def _apply(self, action: Action, events: list[Event] | None) -> None:
        raise NotImplementedError


def test_a_new_game_gets_clone_and_snapshots_from_its_declaration() -> None:
    state = _CounterGame().new_match(2)
    assert isinstance(state, _CounterState)
    state.history.append(4)
    state.per_seat[1][0] = 5
    twin = state.clone()
    twin.history.append(1)
    twin.per_seat[1][0] = 9
    assert state.to_data() == {
        "game": "counter",
        "seats": 2,
        "options": {},
        "total": 0,
        "history": [4],
        "per_seat": [[0], [5]],
    }
    assert twin.to_data()["history"] == [4, 1]
    assert state.snapshot_data() == state.to_data()  # the interface's default
    assert twin.label is state.label


def test_a_field_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice: deck"):
        StateFields("x", saved=(*LIST("deck"), *SCALAR("deck")))
    with pytest.raises(ValueError, match="declared twice: options"):
        StateFields("x", saved=SCALAR("options"))


def _scramble(value: Any) -> None:
    """Change every list and dict nested in ``value`` in place."""
    if isinstance(value, dict):
        for item in value.values():
            _scramble(item)
        value["scrambled"] = True
    elif isinstance(value, list):
        for item in value:
            _scramble(item)
        value.append("scrambled")


@pytest.mark.parametrize("game", [pytest.param(g, id=g.info.id) for g in all_games()])
def test_a_state_rebuilt_from_data_shares_nothing_with_it(game: Game) -> None:
    """Whoever hands ``from_data`` a document may change it afterwards (a cache, a
    caller's own copy): the state keeps none of its lists or dicts, options included."""
    for step, state in enumerate(_playout(game, game.info.max_seats, {})):
        if step % 25 and not state.is_over():
            continue
        data = state.to_data()
        rebuilt = game.state_from_data(data)
        before = orjson.dumps(rebuilt.to_data())
        _scramble(data)
        assert orjson.dumps(rebuilt.to_data()) == before, f"step {step}"


def test_the_snapshot_header_hands_back_its_own_options() -> None:
    game = next(iter(all_games()))
    data = game.new_match(game.info.min_seats, seed=5).to_data()
    seats, options, _rng = snapshot_header(game, data)
    assert (seats, options) == (game.info.min_seats, data["options"])
    assert options is not data["options"]
