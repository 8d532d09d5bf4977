"""PlayMatch resumed from a version: the seat that must decide there is prompted.

A client whose stream died resumes with ``from_version`` = the last version it
saw. When nothing was committed since and it is that seat's turn, no update will
come to trigger a prompt (every other seat waits on this one), so the server
must prompt at once; found by the scale test, where such matches hung forever.
"""

from __future__ import annotations

import random

from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, current_seat, play_random, seated_match


async def test_resuming_on_your_turn_prompts_at_once(client: Client) -> None:
    match = await seated_match(client, 2, seed=5)
    played = await play_random([match], random.Random(5), count=3)
    mover = current_seat(played.responses[played.version])
    assert mover is not None
    player = match.seats[mover]
    call = player.play()
    hello = ms.PlayHello(match_id=match.match_id, from_version=played.version)
    await call.write(ms.PlayMatchRequest(hello=hello))
    first = await player.read(call)
    assert first is not None and first.WhichOneof("message") == "your_turn", first
    assert (first.your_turn.version, first.your_turn.seat) == (played.version, mover)
    legal = await player.legal(match.match_id)
    assert list(first.your_turn.actions) == list(legal.actions)
    call.cancel()
