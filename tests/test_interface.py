"""The generic game interface: options, registry, events, the seeded generator."""

from __future__ import annotations

from typing import Any

import pytest

from senet.games import (
    CorruptStateError,
    Event,
    Game,
    GameInfo,
    InvalidOptionsError,
    OptionSpec,
    Rng,
    UnknownActionError,
    UnknownGameError,
    all_games,
    get_game,
)
from senet.games.interface import GameState, JsonDict


class _Toy(Game):
    """A game with every kind of option, to exercise validation without a real game."""

    info = GameInfo(
        id="toy",
        name="Toy",
        min_seats=2,
        max_seats=3,
        description="test double",
        options=(
            OptionSpec("fast", "bool", False, "play fast"),
            OptionSpec("rounds", "int", 3, "rounds", minimum=1, maximum=5),
            OptionSpec("board", "choice", "small", "board size", choices=("small", "large")),
        ),
    )

    def check_option_combination(self, seats: int, options: Any) -> None:
        if options["fast"] and options["board"] == "large":
            raise InvalidOptionsError("fast play needs the small board")

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> GameState:
        raise NotImplementedError

    def parse_action(self, text: str) -> Any:
        raise NotImplementedError

    def state_from_data(self, data: Any) -> GameState:
        raise NotImplementedError

    def state_from_view(self, view: Any, seed: int) -> GameState:
        raise NotImplementedError


def test_options_are_normalized_with_defaults() -> None:
    toy = _Toy()
    assert toy.normalize_options(2, None) == {"fast": False, "rounds": 3, "board": "small"}
    assert toy.normalize_options(3, {"fast": "yes", "rounds": "5", "board": "SMALL"}) == {
        "fast": True,
        "rounds": 5,
        "board": "small",
    }


@pytest.mark.parametrize(
    ("seats", "options", "fragment"),
    [
        (2, {"speed": 1}, "unknown option 'speed'.*known: fast, rounds, board"),
        (2, {"fast": "maybe"}, "true or false"),
        (2, {"rounds": 9}, "<= 5"),
        (2, {"rounds": "x"}, "integer"),
        (2, {"board": "huge"}, "one of small, large"),
        (2, {"fast": True, "board": "large"}, "small board"),
        (4, None, "2 to 3 players"),
        (True, None, "integer"),
    ],
)
def test_bad_options_are_rejected_clearly(seats: Any, options: Any, fragment: str) -> None:
    with pytest.raises(InvalidOptionsError, match=fragment):
        _Toy().normalize_options(seats, options)


def test_registry_knows_mykerinos_and_rejects_unknown_ids() -> None:
    assert "mykerinos" in [g.info.id for g in all_games()]
    with pytest.raises(UnknownGameError, match=r"known: .*mykerinos"):
        get_game("chess")


def test_mykerinos_rejects_unknown_options_and_seat_counts() -> None:
    game = get_game("mykerinos")
    with pytest.raises(InvalidOptionsError, match="unknown option"):
        game.new_match(3, {"dragons": True})
    with pytest.raises(InvalidOptionsError, match="2 to 4 players"):
        game.new_match(5)


def test_event_audience() -> None:
    public = Event("placed", {"seat": 1})
    private = Event("drew", {"card": 7}, audience=frozenset({2}))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(2) and not private.visible_to(0) and not private.visible_to(None)
    assert private.to_data() == {"kind": "drew", "data": {"card": 7}, "audience": [2]}


def test_rng_is_reference_splitmix64() -> None:
    """Pinned: replays of stored matches depend on these exact outputs."""
    rng = Rng(0)
    assert rng.next_u64() == 0xE220A8397B1DCDAF
    assert rng.next_u64() == 0x6E789E6AA1B965F4
    assert [Rng(1234567).below(10) for _ in range(1)] == [7]
    items = list(range(10))
    Rng(42).shuffle(items)
    assert sorted(items) == list(range(10))
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_public_notation_is_the_notation_unless_a_game_hides_part_of_it() -> None:
    mykerinos = get_game("mykerinos")
    assert mykerinos.public_notation("b c3 d3") == "b c3 d3"
    assert get_game("archeos").public_notation("keep r-stu") == "keep"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.info.id)
def test_a_document_of_another_game_is_refused_by_name(game: Game) -> None:
    state = game.new_match(game.info.min_seats, seed=1)
    data = {**state.to_data(), "game": "chess"}
    view = {**state.view(None), "game": "chess"}
    with pytest.raises(CorruptStateError, match=f"not a state of {game.info.name}"):
        game.state_from_data(data)
    with pytest.raises(CorruptStateError, match=f"not a view of {game.info.name}"):
        game.state_from_view(view, seed=2)
    with pytest.raises(CorruptStateError, match="not a state"):
        game.state_from_data([])  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", ["mykerinos", "archeos", "marenostrum"])
def test_an_unknown_word_is_answered_with_the_words_legal_now(game_id: str) -> None:
    """Issue 34: "`zz9` answers "Not accepted" with action words of all rules variants
    (draft, gov, tb, usetie); list only those this match can use now"."""
    game = get_game(game_id)
    state = game.new_match(game.info.min_seats, {}, 34)
    seat = state.current_seat()
    assert seat is not None
    words = sorted({a.notation().split()[0] for a in state.legal_actions()})
    with pytest.raises(UnknownActionError) as refused:
        state.apply(seat, "zz9")
    assert str(refused.value) == f"unknown action 'zz9'; actions now: {', '.join(words)}"
    assert refused.value.word == "zz9" and refused.value.reason == "MALFORMED_ACTION"
    waiting = next(s for s in range(state.seat_count) if s not in state.deciding_seats())
    with pytest.raises(UnknownActionError, match=r"you have no action to play now$"):
        state.read_action(waiting, "zz9")
    # A parser alone knows no position: the word, and nothing made up.
    with pytest.raises(UnknownActionError, match=r"^unknown action 'zz9'$"):
        game.parse_action("zz9")
