"""A stream's snapshot, written as bytes in place: the bytes protobuf writes for
the same snapshot, for every seat and a spectator (hidden information stays per
seat: each seat's view is its own)."""

from __future__ import annotations

import pytest

from senet.games import get_game
from senet.service.access import meta_of
from senet.service.clocks import TimeControl
from senet.service.matches import Caller, MatchService
from senet.service.messages import snapshot_to_proto, stream_message
from senet.service.records import SeatPlan
from senet.service.settings import Settings
from senet.service.views import MatchSnapshot
from senet.store.memory import MemoryStore
from senet.v1 import match_service_pb2

ADMIN = Caller(is_admin=True)
GAMES = pytest.mark.parametrize("game_id", ["pebbles", "archeos", "marenostrum", "mykerinos"])


async def _started(
    game_id: str, time_control: TimeControl | None = None
) -> tuple[MatchService, str]:
    """A started match of ``game_id``, every seat played by a bot."""
    service = MatchService(MemoryStore(), Settings())
    seats = get_game(game_id).info.min_seats
    plans = [SeatPlan("bot", "random")] * seats
    created = await service.create_match(
        ADMIN, game_id, {}, plans, seed=3, time_control=time_control
    )
    return service, created.summary.match_id


@GAMES
async def test_a_stream_snapshot_s_bytes_are_the_message_protobuf_writes(game_id: str) -> None:
    control = TimeControl(decision_ms=30_000, reserve_ms=60_000)
    service, match_id = await _started(game_id, control)
    access = service.access
    stored = await access.load(match_id)
    meta = meta_of(stored)
    state = access.read_state(get_game(game_id), stored)
    for seat in [None, *range(meta.seat_count)]:
        snapshot = MatchSnapshot(access.summary(stored, meta, state), state.view(seat), seat)
        play = stream_message(match_service_pb2.PlayMatchResponse, game_id, snapshot)
        watch = stream_message(match_service_pb2.WatchMatchResponse, game_id, snapshot)
        play_bytes = play if isinstance(play, bytes) else play.SerializeToString()
        watch_bytes = watch if isinstance(watch, bytes) else watch.SerializeToString()
        built = match_service_pb2.PlayMatchResponse(snapshot=snapshot_to_proto(snapshot))
        assert match_service_pb2.PlayMatchResponse.FromString(play_bytes) == built
        watched = match_service_pb2.WatchMatchResponse.FromString(watch_bytes)
        assert watched.snapshot == built.snapshot
        assert built.snapshot.match.HasField("clock")
        assert built.snapshot.match.HasField("time_control")
