"""Tournaments on a server: an 8-entrant Swiss of built-in bots runs to its
standings; a player entrant is seated and handed the seat token.

Issue 37: "a Swiss tournament of 8 entrants runs to its standings" and "entrants
(bots and players with identities) [...] rounds created when the previous one
ends, seats rotated, standings with tie-breaks, and an export of all results".
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from senet.bots.hosted import HostedBotWorker
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc, player_service_pb2_grpc
from senet.v1 import player_service_pb2 as ppb
from tests.service.conftest import GUEST_ADA, Code, Deployment, expect_error, wait_until

GAME = "pebbles"


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_an_eight_entrant_swiss_of_built_in_bots_runs_to_its_standings(
    deployment: Deployment,
) -> None:
    server, ladder = await deployment.start_ladder()
    remote = ladder.remote
    target = f"127.0.0.1:{server.port}"
    strategies = ["random", "greedy", "mcts", "random", "greedy", "mcts", "random", "greedy"]
    bots, workers = [], []
    for i, strategy in enumerate(strategies):
        bot, key = await remote.register(GUEST_ADA, f"{strategy}{i}", [GAME])
        bots.append(bot)
        workers.append(HostedBotWorker(target, key, strategy, iterations=8))
    tasks = [asyncio.create_task(w.run()) for w in workers]
    stub = ladder_service_pb2_grpc.LadderServiceStub(deployment.client(server).channel)
    try:
        created = await stub.CreateTournament(
            lpb.CreateTournamentRequest(
                name="eight",
                game_id=GAME,
                format=lpb.TOURNAMENT_FORMAT_SWISS,
                entrants=[lpb.TournamentEntrant(bot_id=b.bot_id) for b in bots],
                decision_ms=5000,
            )
        )
        ask = lpb.GetTournamentRequest(tournament_id=created.tournament_id)

        async def finished() -> bool:
            return (await stub.GetTournament(ask)).status == "finished"

        await wait_until(finished, 180)
        got = await stub.GetTournament(ask)
        assert got.rounds == 3 and got.format == lpb.TOURNAMENT_FORMAT_SWISS
        assert len(got.games) == 12 and all(g.status == "finished" for g in got.games)
        assert Counter(g.round for g in got.games) == {1: 4, 2: 4, 3: 4}
        assert [s.rank for s in got.standings] == list(range(1, 9))
        assert all(s.played == 3 for s in got.standings)
        assert sum(s.points for s in got.standings) == pytest.approx(12.0)
        keys = [(-s.points, -s.buchholz, -s.wins) for s in got.standings]
        assert keys == sorted(keys)
        pairs = [frozenset(g.subjects) for g in got.games]
        assert len(set(pairs)) == len(pairs)  # nobody met twice
        export = json.loads(
            (
                await stub.ExportTournament(
                    lpb.ExportTournamentRequest(tournament_id=ask.tournament_id)
                )
            ).results_json
        )
        assert len(export["games"]) == 12 and "secret" not in export["tournament"]
        assert [s["entrant"] for s in export["standings"]] == [s.subject for s in got.standings]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory"])
async def test_a_player_entrant_is_seated_and_handed_the_token(deployment: Deployment) -> None:
    server, ladder = await deployment.start_ladder()
    client = deployment.client(server)
    players = player_service_pb2_grpc.PlayerServiceStub(client.channel)
    guest = await players.RegisterGuest(ppb.RegisterGuestRequest(display_name="bea"))
    me = (("x-senet-identity", guest.identity_token),)
    remote = ladder.remote
    (one, _), (two, _) = [await remote.register(GUEST_ADA, n, [GAME]) for n in ("one", "two")]
    stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    created = await stub.CreateTournament(
        lpb.CreateTournamentRequest(
            game_id=GAME,
            format=lpb.TOURNAMENT_FORMAT_ROUND_ROBIN,
            entrants=[
                lpb.TournamentEntrant(bot_id=one.bot_id),
                lpb.TournamentEntrant(bot_id=two.bot_id),
                lpb.TournamentEntrant(subject=guest.subject, display_name="bea"),
            ],
            decision_ms=60_000,
        )
    )
    ask = lpb.GetTournamentRequest(tournament_id=created.tournament_id)

    async def seated() -> bool:
        return bool((await stub.GetTournament(ask, metadata=me)).your_seats)

    await wait_until(seated, 30)
    got = await stub.GetTournament(ask, metadata=me)
    assert got.rounds == 3  # three entrants: one rests each round
    (seat,) = got.your_seats
    again = (await stub.GetTournament(ask, metadata=me)).your_seats[0]
    assert again.seat_token == seat.seat_token  # the same keyed join
    view = await client.as_seat(seat.seat_token).get(seat.match_id)
    assert view.match.match_id == seat.match_id
    await expect_error(
        stub.GetTournament(lpb.GetTournamentRequest(tournament_id="nope")),
        Code.NOT_FOUND,
        "TOURNAMENT_NOT_FOUND",
    )
    bad = lpb.CreateTournamentRequest(
        game_id=GAME, entrants=[lpb.TournamentEntrant(bot_id=one.bot_id)]
    )
    await expect_error(stub.CreateTournament(bad), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST")


async def test_a_round_robin_too_large_to_play_is_refused(deployment: Deployment) -> None:
    server = await deployment.start()
    stub = ladder_service_pb2_grpc.LadderServiceStub(deployment.client(server).channel)
    players = [
        lpb.TournamentEntrant(subject=f"guest:p{i}", display_name=f"p{i}") for i in range(60)
    ]
    request = lpb.CreateTournamentRequest(
        game_id=GAME, seat_count=3, format=lpb.TOURNAMENT_FORMAT_ROUND_ROBIN, entrants=players
    )
    failure = await expect_error(
        stub.CreateTournament(request), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
    )
    assert "Swiss" in failure.message
