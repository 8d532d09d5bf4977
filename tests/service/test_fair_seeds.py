"""Fair seeds: the server alone draws a match's seed and commits to it at
creation, each seat adds its own entropy at JoinMatch, and the match is dealt
when it starts from both; the export lets anyone check all of it. A seed the
creator chooses is for practice and tests, and says so.
"""

from __future__ import annotations

import hashlib
import random

from senet.codec import codec_for
from senet.codec.fairness import effective_seed
from senet.games import get_game
from senet.service.matches import Caller, MatchService
from senet.service.records import MatchMeta, SeatPlan
from senet.service.settings import Settings
from senet.store.memory import MemoryStore
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    Client,
    Code,
    Seated,
    check_export,
    dealt_seed,
    expect_error,
    play_random,
)


async def _join(client: Client, match_id: str, seat: int, entropy: str) -> ms.JoinMatchResponse:
    request = ms.JoinMatchRequest(
        match_id=match_id, seat=seat, display_name=f"p{seat}", entropy=entropy
    )
    return await client.stub.JoinMatch(request)


async def test_a_match_without_a_chosen_seed_is_dealt_from_the_server_seed_and_every_seat(
    client: Client,
) -> None:
    created = await client.create(2, game_id="archeos")
    assert not created.match.seed_chosen
    entropy = ["a" * 32, "0123456789abcdef0123456789abcdef"]
    tokens = [(await _join(client, created.match_id, s, entropy[s])).token for s in (0, 1)]
    seated = Seated(
        created.match_id,
        0,
        created.match.seed_commitment,
        tokens,
        [client.as_seat(t) for t in tokens],
        client.as_seat(None),
    )
    await play_random([seated], random.Random(5))
    export = await client.export(created.match_id)
    assert not export.seed_chosen
    assert list(export.seat_entropy) == entropy
    text = f"{export.seed}:{entropy[0]}:{entropy[1]}"
    expected = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    assert export.dealt_seed == expected == dealt_seed(export)
    # Opens the commitment made at creation and replays to the final match.
    check_export(export, await client.get(created.match_id), created.match.seed_commitment)


async def test_a_chosen_seed_deals_alone_and_is_marked_as_chosen(client: Client) -> None:
    created = await client.create(2, seed=12345, game_id="archeos")
    assert created.match.seed_chosen
    for seat in (0, 1):
        await _join(client, created.match_id, seat, "ignored-by-chosen-seeds")
    state = get_game("archeos").new_match(2, {}, 12345)
    seated_view = (await client.get(created.match_id)).view
    assert codec_for("archeos").view_to_proto(state.view(None)) == seated_view


async def test_entropy_is_checked(client: Client) -> None:
    match_id = (await client.create(2)).match_id
    for bad, facts in (
        ("x" * 65, {"field": "entropy", "limit": "64", "size": "65"}),
        # Length facts only where the length is what is wrong (a trial's client
        # read "size 12, limit 64" as "too long").
        ("no spaces", {"field": "entropy"}),
        ("é", {"field": "entropy"}),
        ("abc\n", {"field": "entropy"}),
    ):
        failure = await expect_error(
            _join(client, match_id, 0, bad), Code.INVALID_ARGUMENT, "MALFORMED_REQUEST"
        )
        assert failure.facts == facts, bad


async def test_the_deal_of_record_waits_for_the_last_seat_s_entropy() -> None:
    """Nobody alone aims the deal: the same server seed with another entropy of
    the last seat to join deals another game, and until the start the deal
    shown is only provisional."""
    service = MatchService(MemoryStore(), Settings())
    game = get_game("archeos")
    created = await service.create_match(Caller(), "archeos", {}, [SeatPlan()] * 2, None)
    match_id = created.summary.match_id
    _seat, ann, _summary = await service.join(Caller(), match_id, 0, "Ann", entropy="first")
    stored = await service.store.load(match_id)
    meta = MatchMeta.from_json(stored.meta_json)
    assert meta.fair_deal and not meta.seed_chosen
    _seat, bob, _summary = await service.join(Caller(), match_id, 1, "Bob", entropy="last")
    dealt = game.new_match(2, meta.options, effective_seed(meta.seed, ["first", "last"]))
    other = game.new_match(2, meta.options, effective_seed(meta.seed, ["first", "other"]))
    view = (await service.get(Caller(bob), match_id)).view
    assert view == dealt.view(1)
    assert dealt.to_data() != other.to_data()
    # The first commit stores the deal of record, as any replica loads it.
    service.cache.forget(match_id)
    first = dealt.current_seat()
    assert first is not None
    action = dealt.legal_actions()[0]
    caller = Caller([ann, bob][first])
    notation = str(action.notation())
    await service.submit(caller, match_id, notation, 0, "first", None, lambda o: o)
    dealt.apply(first, action)
    service.cache.forget(match_id)
    stored = await service.store.load(match_id)
    assert service.state_of(meta, stored).to_data() == dealt.to_data()
