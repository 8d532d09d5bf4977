"""docs/learning.md's figures of the encodings are the code's: versions, action-space
and observation sizes, and the Gymnasium ids.

People copy these into their code (a Gymnasium id, a network's input size), and a
trial found them several encoding versions stale; so the table is parsed and held to
:func:`~senet.rl.encoding.action_space` and
:func:`~senet.rl.encoding.observation_encoder` for every game, seat count and variant.
"""

from __future__ import annotations

import re
from pathlib import Path

import gymnasium
import pytest

import senet.rl.gymnasium
from senet.games import get_game
from senet.rl.encoding import action_space, encoding_for, observation_encoder
from tests.rl.cases import GAME_IDS, cases

DOC = Path(__file__).resolve().parents[2] / "docs" / "learning.md"
HEADER = "| game | version | actions | observation |"
#: One figure of a cell: ``1,807`` (every seat count) or ``10,476 (3 seats)``, ``10,492 (4)``.
FIGURE = re.compile(r"^(?P<count>\d{1,3}(?:,\d{3})*)(?: \((?P<seats>\d+)(?: seats)?\))?$")
GAME = re.compile(r"\(`(?P<id>[a-z_]+)`")
ENV_ID = re.compile(r"senet/[a-z_]+-v\d+")


def _table() -> dict[str, list[str]]:
    """The table's rows by game id: the game's cell, then the version, actions and
    observation cells."""
    lines = DOC.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(HEADER))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        named = GAME.search(cells[0])
        assert named, f"no (`game id`) in the table's row {line!r}"
        rows[named["id"]] = cells[:4]
    return rows


def _figures(cell: str) -> dict[int | None, int]:
    """A cell's figures by seat count (``None``: every seat count)."""
    figures: dict[int | None, int] = {}
    for part in cell.split(", "):
        found = FIGURE.match(part)
        assert found, f"cannot read {part!r} of {cell!r} (write 1,234 or 1,234 (3 seats))"
        seats = int(found["seats"]) if found["seats"] else None
        figures[seats] = int(found["count"].replace(",", ""))
    return figures


def _expected(figures: dict[int | None, int], game_id: str, seats: int) -> int:
    assert figures, f"no figure for {game_id}"
    if None in figures:
        return figures[None]
    assert seats in figures, f"{game_id} at {seats} seats has no figure in {figures}"
    return figures[seats]


TABLE = _table()


def test_the_table_names_every_game_with_an_encoding() -> None:
    assert sorted(TABLE) == GAME_IDS


@pytest.mark.parametrize(("game_id", "seats", "options"), cases(), ids=str)
def test_the_table_gives_the_code_s_version_and_sizes(
    game_id: str, seats: int, options: dict[str, object]
) -> None:
    _, version, actions, observation = TABLE[game_id]
    space = action_space(game_id, seats, options)
    where = f"docs/learning.md's table, {game_id} at {seats} seats {options}"
    assert int(version) == encoding_for(game_id).version == space.version, where
    assert _expected(_figures(actions), game_id, seats) == len(space), where
    size = observation_encoder(game_id, seats, options).size
    assert _expected(_figures(observation), game_id, seats) == size, where


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_per_seat_figures_cover_exactly_the_game_s_seat_counts(game_id: str) -> None:
    info = get_game(game_id).info
    for cell in TABLE[game_id][2:]:
        seat_counts = [seats for seats in _figures(cell) if seats is not None]
        if seat_counts:
            assert sorted(seat_counts) == list(range(info.min_seats, info.max_seats + 1)), cell


def test_every_gymnasium_id_in_the_docs_is_registered() -> None:
    named = set(ENV_ID.findall(DOC.read_text()))
    registered = set(gymnasium.registry)
    assert named, "the docs name no Gymnasium id"
    assert named <= registered, f"not registered: {sorted(named - registered)}"


def test_the_docs_list_the_gymnasium_id_of_every_shipped_game() -> None:
    text = DOC.read_text()
    shipped = [game_id for game_id, row in TABLE.items() if "tests only" not in row[0]]
    assert shipped
    for game_id in shipped:
        env_id = f"senet/{game_id}-v{encoding_for(game_id).version}"
        assert env_id in senet.rl.gymnasium.ENV_IDS
        assert f"`{env_id}`" in text, f"docs/learning.md does not list {env_id}"
