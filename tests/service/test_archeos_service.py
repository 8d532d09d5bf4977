"""A whole Archeos Society match through the service, on both stores: actions sent as
notation and typed, the export opens the seed commitment and replays to the end."""

from __future__ import annotations

import random

import pytest

from senet.service.server import RunningServer
from senet.v1 import match_pb2
from tests.service.conftest import Client, check_export, play_random
from tests.service.test_archeos_secrets import archeos_match


@pytest.mark.slow
async def test_a_whole_match_with_typed_actions_exports_and_replays(
    server: RunningServer, client: Client
) -> None:
    match = await archeos_match(client, 5, seed=1234)
    played = await play_random([match], random.Random(8), typed_every=2)
    assert played.version > 100
    final = await match.spectator.get(match.match_id)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    assert final.view.WhichOneof("game") == "archeos"
    export = await match.spectator.export(match.match_id)
    state = check_export(export, final, match.commitment)
    assert state.game.info.id == "archeos" and len(state.scores()) == 5
