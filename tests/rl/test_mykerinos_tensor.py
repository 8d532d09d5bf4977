"""Mykerinos' direct tensor writer (``senet.rl.mykerinos.tensor``).

``tests/rl/test_encodings.py`` holds it to the view's encoding move after move in
every case; these tests pin what is specific to it: values by feature name, the
sections it keeps between calls (any order of states, viewers and arrays), the one
hidden thing it reads (the deck, for its length), and its guard on the layout.
"""

from __future__ import annotations

from array import array
from typing import Any

import pytest

from senet.games import GameState, Rng, get_game
from senet.games.mykerinos.state import DELIMITATION, EXCAVATION, PHASES, MykerinosState
from senet.rl.encoding import ObservationEncoder, encoding_for, observation_encoder
from senet.rl.features import per_seat
from senet.rl.mykerinos.tensor import MykerinosTensor


def _match(seats: int, options: dict[str, Any], seed: int) -> MykerinosState:
    state = get_game("mykerinos").new_match(seats, options, seed=seed)
    assert isinstance(state, MykerinosState)
    return state


def _playout(state: GameState, seed: int, limit: int = 10_000) -> list[GameState]:
    """Clones of ``state`` after each of a random playout's decisions (first: itself)."""
    rng = Rng(seed)
    found = [state.clone()]
    while not state.is_over() and len(found) < limit:
        actor = state.deciding_seats()[rng.below(len(state.deciding_seats()))]
        choices = state.legal_actions_for(actor)
        state.apply_unchecked(choices[rng.below(len(choices))], actor)
        found.append(state.clone())
    return found


def _written(encoder: ObservationEncoder, state: GameState, viewer: int) -> list[float]:
    out = array("d", bytes(8 * encoder.size))
    MykerinosTensor(state.seat_count, encoder.features)(state, viewer, out)
    return list(out)


def _slice(encoder: ObservationEncoder, tensor: list[float], name: str) -> list[float]:
    at, size = next((at, size) for found, at, size in encoder.layout if found == name)
    return tensor[at : at + size]


def test_a_new_four_seat_match_reads_as_its_rules_say() -> None:
    """Values pinned by feature name: each seat took 8 archaeologists of its colour
    from the general reserve's 25, 8 of the 36 plots were dealt, and seats are
    counted from the viewer."""
    encoder = observation_encoder("mykerinos", 4, {})
    state = _match(4, {}, seed=3)
    viewer = (state.turn + 1) % 4  # the seat after the one to play
    tensor = _written(encoder, state, viewer)
    assert tensor == encoder.encode(state.view(viewer))
    assert _slice(encoder, tensor, "phase") == [float(p == EXCAVATION) for p in PHASES]
    assert _slice(encoder, tensor, "campaign") == [0.25]
    assert _slice(encoder, tensor, "campaigns") == [1.0]
    assert _slice(encoder, tensor, "current seat") == [0.0, 0.0, 0.0, 1.0]
    assert _slice(encoder, tensor, "general reserve") == [17 / 25] * 4
    assert _slice(encoder, tensor, "deck size") == [28 / 40]  # 36 plots, 8 dealt
    assert sum(_slice(encoder, tensor, "plots")[:: 3 + 6]) == 8.0  # each plot's "there"
    players = _slice(encoder, tensor, "players")
    reserve = players[1:5]  # the viewer's entry comes first; its colour is its seat
    assert reserve == [0.8 if colour == viewer else 0.0 for colour in range(4)]
    assert not any(_slice(encoder, tensor, "occupied"))


def test_the_neutral_colour_has_the_last_owner_channel() -> None:
    """In the two-player game the neutral archaeologists (a colour no seat plays)
    are written on the last channel of a space, as the view's features count them."""
    encoder = observation_encoder("mykerinos", 2, {})
    for state in _playout(_match(2, {}, seed=8), seed=8, limit=60):
        assert isinstance(state, MykerinosState)
        if state.neutral is not None and state.neutral in state.board:
            break
    else:
        pytest.fail("no neutral archaeologist was placed")
    space = state.board.index(state.neutral)
    occupied = _slice(encoder, _written(encoder, state, 1), "occupied")
    assert occupied[space * 5 : space * 5 + 5] == [0.0, 0.0, 0.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("seats", "options"),
    [(4, {}), (2, {"quick": True, "nile": True}), (4, {"team": True}), (3, {"classic": True})],
)
def test_one_writer_follows_states_in_any_order(seats: int, options: dict[str, Any]) -> None:
    """A writer keeps what it wrote between calls: fed states of two matches (as an
    environment's reset gives), afterstates, finished games then earlier positions,
    all shuffled, for one viewer, each call still gives a fresh encoding, to the bit."""
    encoder = observation_encoder("mykerinos", seats, options)
    states = _playout(_match(seats, options, seed=21), seed=21)
    states += _playout(_match(seats, options, seed=22), seed=22)
    assert states[-1].is_over()
    assert any(isinstance(s, MykerinosState) and s.phase == DELIMITATION for s in states)
    order = list(range(len(states)))
    Rng(5).shuffle(order)
    order = [*order[:200], len(states) - 1, 0, *order[200:400]]
    for viewer in range(seats):
        writer = encoder.writer()
        for index in order:
            fresh = array("f", encoder.encode(states[index].view(viewer)))
            assert writer.encode(states[index], viewer).tobytes() == fresh.tobytes(), index


def test_a_writer_given_another_viewer_or_array_writes_everything_again() -> None:
    """The writer is one seat's, but called with another viewer or another array it
    starts over instead of keeping sections counted from the last viewer."""
    encoder = observation_encoder("mykerinos", 3, {})
    writer = MykerinosTensor(3, encoder.features)
    arrays = [array("d", bytes(8 * encoder.size)) for _ in range(2)]
    states = _playout(_match(3, {}, seed=4), seed=4, limit=40)
    for step, state in enumerate(states):
        viewer, out = step % 3, arrays[step % 2]
        writer(state, viewer, out)
        assert list(out) == encoder.encode(state.view(viewer)), step


def test_the_deck_is_read_for_its_length_only() -> None:
    """Reordering the deck changes nothing; a card less changes the deck size only."""
    encoder = observation_encoder("mykerinos", 4, {})
    state = _match(4, {}, seed=6)
    tensor = _written(encoder, state, 0)
    reordered = state.clone()
    reordered.deck.reverse()
    assert _written(encoder, reordered, 0) == tensor
    shorter = state.clone()
    shorter.deck.pop()
    changed = [
        name
        for name, at, size in encoder.layout
        if _written(encoder, shorter, 0)[at : at + size] != tensor[at : at + size]
    ]
    assert changed == ["deck size"]


def test_a_players_entry_laid_out_otherwise_is_refused() -> None:
    """The writer reads the players' entry offsets from the features it is given; an
    entry in another order is not one it can write, and it says so."""
    features = list(encoding_for("mykerinos").features(2, {}))
    players = next(i for i, f in enumerate(features) if f.name == "players")
    inner = features[players].inner or ()
    features[players] = per_seat("players", "players", max_seats=4, inner=inner[::-1])
    with pytest.raises(ValueError, match="players' entry"):
        MykerinosTensor(2, features)


def test_the_scores_are_the_final_totals_only_while_there_are_some() -> None:
    """Scores come from the final totals once the game is over, from the prestige
    before: a writer that saw a finished game and then a position with the same
    prestige and no totals writes the prestige again."""
    encoder = observation_encoder("mykerinos", 4, {"team": True})
    over = _playout(_match(4, {"team": True}, seed=9), seed=9)[-1]
    assert isinstance(over, MykerinosState) and over.final is not None
    untallied = over.clone()
    untallied.final = None
    writer = encoder.writer()
    for state in (over, untallied, over):
        fresh = encoder.encode(state.view(2))
        assert writer.encode(state, 2) == array("f", fresh)
    assert _slice(encoder, fresh, "scores") != _slice(
        encoder, encoder.encode(untallied.view(2)), "scores"
    )
