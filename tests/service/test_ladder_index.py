"""The index of ladders (ListLadders): which ladders a server runs, each with its
settings, whether it schedules, its bots, matches and leaders, by pages.

Issue 37: "A ladder per game (and seat count) runs continuously on the server"; a
client must be able to find the ladders without knowing their ids.
"""

from __future__ import annotations

import pytest

from senet.service import errors
from senet.service.access import Caller
from senet.service.ladder import LadderSpec
from senet.service.ladder_index import (
    LadderState,
    check_request,
    cut_page,
    decode_token,
    encode_token,
    state_of,
)
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc
from tests.service.conftest import GUEST_ADA, Code, Deployment, expect_error, wait_until
from tests.service.test_ladder import ladders_of

GAME = "pebbles"
ADMIN = Caller(is_admin=True)


def test_a_ladder_is_paused_by_its_operator_or_waits_for_enough_bots() -> None:
    spec = LadderSpec(GAME, 3, max_in_flight=2)
    assert state_of(spec, 3) is LadderState.RUNNING
    assert state_of(spec, 2) is LadderState.WAITING_FOR_BOTS
    assert state_of(LadderSpec(GAME, 2, max_in_flight=0), 5) is LadderState.PAUSED


def test_pages_go_on_after_the_last_id_read_so_a_new_ladder_shifts_nothing() -> None:
    specs = [LadderSpec(g, n) for g, n in [("pebbles", 3), ("mykerinos", 2), ("pebbles", 2)]]
    first, token, total = cut_page(specs, "", "", 2)
    assert [s.ladder_id for s in first] == ["mykerinos-2", "pebbles-2"] and total == 3
    # A ladder started before the last id read does not push one into the next page.
    grown = [*specs, LadderSpec("archeos", 2)]
    second, last, total = cut_page(grown, "", decode_token(token, ""), 2)
    assert [s.ladder_id for s in second] == ["pebbles-3"] and last == "" and total == 4
    only, none, total = cut_page(specs, "pebbles", "", 5)
    assert [s.ladder_id for s in only] == ["pebbles-2", "pebbles-3"] and none == "" and total == 2


def test_a_page_token_is_refused_unless_this_server_issued_it_for_the_same_game() -> None:
    token = encode_token("pebbles", "pebbles-2")
    assert decode_token(token, "pebbles") == "pebbles-2" and decode_token("", "x") == ""
    for bad in ("junk!", "bm9wZQ", encode_token("pebbles", "../x"), "WzEsMiwzXQ"):
        with pytest.raises(errors.InvalidPageToken):
            decode_token(bad, "pebbles")
    with pytest.raises(errors.InvalidPageToken, match="another game_id"):
        decode_token(token, "")


def test_sizes_default_and_are_bounded() -> None:
    assert check_request("", 0, 0) == (20, 3)
    assert check_request(GAME, 100, 10) == (100, 10)
    with pytest.raises(errors.MalformedRequest):
        check_request("", 101, 0)
    with pytest.raises(errors.MalformedRequest):
        check_request("", 0, 11)


@pytest.mark.parametrize("store_kind", ["memory"])
async def test_a_server_without_ladders_lists_none(deployment: Deployment) -> None:
    server = await deployment.start()
    stub = ladder_service_pb2_grpc.LadderServiceStub(deployment.channel(server))
    got = await stub.ListLadders(lpb.ListLaddersRequest())
    assert list(got.ladders) == [] and got.next_page_token == "" and got.total == 0


@pytest.mark.slow
@pytest.mark.parametrize("store_kind", ["memory", "redis"])
async def test_a_running_ladder_is_listed_with_its_counts_and_leaders(
    deployment: Deployment,
) -> None:
    server = await deployment.start(ladder_interval_s=0.05, ladder_presence_s=0)
    ladders = ladders_of(server)
    for name in ("a", "b", "c"):
        await ladders.remote.register(GUEST_ADA, name, [GAME])
    # No workers: the clock plays every decision, so matches end at once.
    await ladders.start(
        ADMIN, LadderSpec(GAME, 2, decision_ms=10, max_in_flight=1, inactive_after=10_000)
    )
    await ladders.start(ADMIN, LadderSpec(GAME, 3, max_in_flight=0))  # paused
    await ladders.start(ADMIN, LadderSpec(GAME, 4, max_in_flight=2))  # 3 bots for 4 seats

    async def played_two() -> bool:
        return await ladders.played(f"{GAME}-2") >= 2

    await wait_until(played_two, 60)
    stub = ladder_service_pb2_grpc.LadderServiceStub(deployment.channel(server))
    got = await stub.ListLadders(lpb.ListLaddersRequest(game_id=GAME, top=2))
    assert [s.ladder_id for s in got.ladders] == [f"{GAME}-2", f"{GAME}-3", f"{GAME}-4"]
    running, paused, waiting = got.ladders
    assert running.state == lpb.LADDER_STATE_RUNNING
    assert running.spec.game_id == GAME and running.spec.seat_count == 2
    assert running.spec.decision_ms == 10 and running.spec.max_in_flight == 1
    assert running.in_flight <= 1 and running.matches_played >= 2 and running.started_at > 0
    assert (running.active_bots, running.bots) == (3, 3)
    assert [s.rank for s in running.leaders] == [1, 2]  # top 2 of 3
    assert sum(s.matches for s in running.leaders) >= 1
    assert running.leaders[0].rating.conservative >= running.leaders[1].rating.conservative
    assert paused.state == lpb.LADDER_STATE_PAUSED and paused.matches_played == 0
    assert waiting.state == lpb.LADDER_STATE_WAITING_FOR_BOTS and waiting.in_flight == 0
    # The listed id is GetLadder's.
    one = await stub.GetLadder(lpb.GetLadderRequest(ladder_id=running.ladder_id))
    assert one.spec == running.spec


@pytest.mark.parametrize("store_kind", ["memory"])
async def test_ladders_come_in_pages_by_id(deployment: Deployment) -> None:
    server = await deployment.start(ladder_interval_s=3600)  # no scheduling needed
    ladders = ladders_of(server)
    for game, seats in [(GAME, 2), (GAME, 3), (GAME, 4), ("mykerinos", 2)]:
        await ladders.start(ADMIN, LadderSpec(game, seats, max_in_flight=0))
    stub = ladder_service_pb2_grpc.LadderServiceStub(deployment.channel(server))
    seen: list[str] = []
    token = ""
    for _ in range(3):
        page = await stub.ListLadders(lpb.ListLaddersRequest(page_size=3, page_token=token))
        assert page.total == 4
        seen += [s.ladder_id for s in page.ladders]
        token = page.next_page_token
        if not token:
            break
    assert seen == ["mykerinos-2", f"{GAME}-2", f"{GAME}-3", f"{GAME}-4"] and token == ""
    first = await stub.ListLadders(lpb.ListLaddersRequest(game_id=GAME, page_size=1))
    assert [s.ladder_id for s in first.ladders] == [f"{GAME}-2"] and first.total == 3
    # The same token with another game filter is refused.
    await expect_error(
        stub.ListLadders(lpb.ListLaddersRequest(page_token=first.next_page_token)),
        Code.INVALID_ARGUMENT,
        "INVALID_PAGE_TOKEN",
    )


@pytest.mark.parametrize("store_kind", ["memory"])
async def test_a_malformed_request_is_invalid_argument(deployment: Deployment) -> None:
    server = await deployment.start()
    stub = ladder_service_pb2_grpc.LadderServiceStub(deployment.channel(server))
    for request, reason in [
        (lpb.ListLaddersRequest(page_size=101), "MALFORMED_REQUEST"),
        (lpb.ListLaddersRequest(top=11), "MALFORMED_REQUEST"),
        (lpb.ListLaddersRequest(page_token="not-ours"), "INVALID_PAGE_TOKEN"),
        (lpb.ListLaddersRequest(game_id="chess"), "UNKNOWN_GAME"),
    ]:
        await expect_error(stub.ListLadders(request), Code.INVALID_ARGUMENT, reason)
