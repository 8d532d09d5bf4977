"""The Mykerinos variants end to end over gRPC: created with options, played through.

Each match is created with ``CreateMatch`` options (the generic options machinery),
every seat claimed, and played to the end with random legal actions, some sent
typed (so the variants' typed actions travel the wire); the final view must match
a local replay of the export. Invalid combinations are refused at creation.
"""

from __future__ import annotations

import random

from senet.codec import codec_for, options_from_proto
from senet.games import GameState, get_game
from senet.v1 import games_pb2, match_pb2, mykerinos_pb2
from tests.service.conftest import (
    Client,
    Code,
    Seated,
    check_export,
    expect_error,
    play_random,
    seated_match,
)

GAME = get_game("mykerinos")
CODEC = codec_for("mykerinos")


def _on(*names: str) -> dict[str, games_pb2.OptionValue]:
    return {name: games_pb2.OptionValue(bool_value=True) for name in names}


async def _play_through(match: Seated, seats: int, *names: str) -> GameState:
    """Check the opening view against a local mirror, play the match out, check the
    export replays to the final view; return the replayed final state."""
    got = await match.spectator.get(match.match_id)
    options = options_from_proto(got.match.options)
    assert {k for k, v in options.items() if v} == set(names)
    mirror = GAME.new_match(seats, options=options, seed=match.seed)
    assert got.view == CODEC.view_to_proto(mirror.view(None))
    await play_random([match], random.Random(match.seed), typed_every=3)
    final = await match.spectator.get(match.match_id)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    export = await match.spectator.export(match.match_id)
    return check_export(export, final, match.commitment)


async def test_nile_quick_match_is_created_and_played_through(client: Client) -> None:
    seed = 1234
    match = await seated_match(client, 3, seed=seed, options=_on("nile", "quick"))
    view = (await match.spectator.get(match.match_id)).view.mykerinos
    # The quick game opens with the patron draft; The Nile's decks are shown.
    assert view.phase == mykerinos_pb2.MYKERINOS_PHASE_DRAFT
    assert view.HasField("draft") and len(view.draft.plots) == 8
    assert view.HasField("nile") and view.nile.governor_deck == 5
    assert view.campaigns == 3
    final = await _play_through(match, 3, "nile", "quick")
    assert final.view(None)["campaign"] == 3


async def test_team_match_is_created_and_played_through(client: Client) -> None:
    seed = 77
    match = await seated_match(client, 4, seed=seed, options=_on("team"))
    view = (await match.spectator.get(match.match_id)).view.mykerinos
    assert [list(t.seats) for t in view.teams] == [[0, 2], [1, 3]]
    assert list(view.individual_scores) == [0, 0, 0, 0]
    final = await _play_through(match, 4, "team")
    # Teammates share their team's score (the lower member's) and place.
    summary = (await match.spectator.get(match.match_id)).match
    scores, places = list(summary.scores), list(summary.places)
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert places[0] == places[2] and places[1] == places[3]
    own = final.view(None)["individual_scores"]
    assert scores == [min(own[s], own[(s + 2) % 4]) for s in range(4)]


async def test_team_game_needs_four_players(client: Client) -> None:
    for seats in (2, 3):
        failure = await expect_error(
            client.create(seats, options=_on("team")), Code.INVALID_ARGUMENT, "INVALID_OPTIONS"
        )
        assert "exactly 4 players" in failure.message, failure
    created = await client.create(4, options=_on("team", "nile", "quick", "classic"))
    assert created.match.status == match_pb2.MATCH_STATUS_ACTIVE
