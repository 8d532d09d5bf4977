"""A typed action written for another game than the match's is refused as such.

A typed action is decoded by its own game's codec before the match is read: one
that game's codec cannot read (a Mykerinos START without its space, sent to a
Mare Nostrum match) must not answer with that game's complaint, and one it can
read must not reach the match's rules. Both say the action belongs to another
game, for every pair of hosted games.
"""

from __future__ import annotations

import itertools

import pytest

from senet.codec import codec_for
from senet.games import all_games, get_game
from senet.games.wording import a_or_an
from senet.v1 import match_pb2
from tests.service.conftest import Client, Code, expect_error, mover_of, seated_match

GAMES = [game.info.id for game in all_games()]
PAIRS = list(itertools.permutations(GAMES, 2))


def _legal_action(game_id: str) -> match_pb2.Action:
    """A well-formed typed action of ``game_id``: its first legal action when dealt."""
    game = get_game(game_id)
    state = game.new_match(game.info.min_seats, seed=1)
    return codec_for(game_id).action_to_proto(state.legal_actions()[0])


def _unreadable_action(game_id: str) -> match_pb2.Action:
    """A typed action of ``game_id`` its codec cannot read: its arm, empty."""
    action = match_pb2.Action()
    arm = match_pb2.Action.DESCRIPTOR.oneofs_by_name["game"]
    names = {field.name for field in arm.fields}
    if game_id in names:
        getattr(action, game_id).SetInParent()
    else:  # a game without messages of its own: the generic arm, naming it
        action.generic.game_id = game_id
    return action


@pytest.mark.parametrize(("sent", "match_game"), PAIRS)
async def test_a_typed_action_of_another_game_says_so(
    client: Client, sent: str, match_game: str
) -> None:
    game = get_game(match_game)
    match = await seated_match(client, game.info.min_seats, game_id=match_game)
    _, mover = await mover_of(match)
    for action in (_legal_action(sent), _unreadable_action(sent)):
        failure = await expect_error(
            mover.submit(match.match_id, typed=action), Code.INVALID_ARGUMENT, "MALFORMED_ACTION"
        )
        assert failure.message.startswith("this action belongs to another game"), failure.message
        said = f"{a_or_an(sent)} action was sent to {a_or_an(match_game)} match"
        assert said in failure.message
    assert (await match.spectator.get(match.match_id)).match.version == 0


async def test_an_unreadable_action_of_the_matchs_own_game_says_what_is_wrong(
    client: Client,
) -> None:
    match = await seated_match(client, 2)
    _, mover = await mover_of(match)
    failure = await expect_error(
        mover.submit(match.match_id, typed=_unreadable_action("mykerinos")),
        Code.INVALID_ARGUMENT,
        "MALFORMED_ACTION",
    )
    assert "another game" not in failure.message
