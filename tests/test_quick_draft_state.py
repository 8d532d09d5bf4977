"""Regression: a quick game's state must be viewable and storable during the draft.

The patron draft comes before the first campaign, when no region is laid. Views,
snapshots (``to_data``/``from_data``, what the service stores between requests)
and states rebuilt from a seat's view (the bots' forward model) all used to fail
there, so a quick match could not get past its creation. These tests pin the
expected behaviour; the rulings themselves live in ``tests/mykerinos/``.
"""

from __future__ import annotations

import json

import pytest

from senet.games import CorruptStateError, get_game
from senet.games.mykerinos.state import DRAFT, MykerinosState

GAME = get_game("mykerinos")


@pytest.mark.parametrize("options", [{"quick": True}, {"quick": True, "nile": True}])
def test_draft_position_has_an_empty_region_view(options: dict[str, bool]) -> None:
    state = GAME.new_match(3, options=options, seed=4)
    assert isinstance(state, MykerinosState) and state.phase == DRAFT
    view = state.view(None)
    assert view["campaign"] == 0
    assert view["region"]["plots"] == [] and view["region"]["pyramids"] == []
    assert view["occupied"] == {}
    assert len(view["draft"]["plots"]) == 8


@pytest.mark.parametrize("options", [{"quick": True}, {"quick": True, "nile": True}])
def test_draft_position_survives_snapshots_and_views(options: dict[str, bool]) -> None:
    state = GAME.new_match(4, options=options, seed=9)
    for _ in range(3):  # a few drafts in, still drafting
        seat = state.current_seat()
        assert seat is not None
        restored = GAME.state_from_data(json.loads(json.dumps(state.to_data())))
        assert restored == state
        rebuilt = GAME.state_from_view(json.loads(json.dumps(state.view(seat))), 1)
        assert rebuilt.view(seat) == state.view(seat)
        assert rebuilt.legal_actions() == state.legal_actions()
        state.apply(seat, state.legal_actions()[0])
    assert isinstance(state, MykerinosState) and state.phase == DRAFT


def test_snapshot_without_plots_is_refused_outside_the_draft() -> None:
    data = GAME.new_match(3, seed=2).to_data()
    data["slots"] = []
    with pytest.raises(CorruptStateError, match="slots"):
        GAME.state_from_data(data)
