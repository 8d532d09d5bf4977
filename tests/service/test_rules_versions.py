"""Rules versions: a match records the version of its game's rules it was dealt
under, and each action the version that applied it, so that a finished match is
replayed only with those rules; a replica of older rules never serves a match a
newer one took over (it would misplay it).

Two in-process replicas share one store and one game registry, so "upgrading" a
replica is raising the game's ``rules_version`` while it serves, and an "older"
replica is one whose cache still holds the match from before."""

from __future__ import annotations

import dataclasses
import json
import random

import grpc
import pytest

from senet.codec import fairness
from senet.games import get_game
from senet.service.records import HeadDocument, MatchMeta, SeatClaim, UpdateRecord
from senet.service.views import logged_action
from senet.store import StoredMatch
from tests.conftest import play_rules_version
from tests.service.conftest import (
    Deployment,
    current_seat,
    expect_error,
    on,
    play_random,
    replay_export,
    seated_match,
)

GAME = "mykerinos"


def set_rules(monkeypatch: pytest.MonkeyPatch, version: int) -> None:
    """This process's rules of the game, at ``version``."""
    play_rules_version(monkeypatch, GAME, version)


async def test_a_match_and_its_actions_name_the_rules_they_were_played_under(
    deployment: Deployment,
) -> None:
    server = await deployment.start()
    client = deployment.client(server)
    games = {info.id: info for info in (await client.list_games()).games}
    version = get_game(GAME).info.rules_version
    assert games[GAME].rules_version == version >= 1

    match = await seated_match(client, seats=2, game_id=GAME)
    await play_random([match], random.Random(1))
    export = await client.export(match.match_id)
    assert export.rules_version == version
    assert {logged.rules_version for logged in export.actions} == {version}
    assert fairness.rules_mismatch(export) is None
    replay_export(export)
    stored: StoredMatch = await deployment.store().load(match.match_id)
    head = HeadDocument.from_json(stored.snapshot_json)
    assert (head.rules, head.dealt) == (version, version)
    # A replica of an older release reads the meta as it always did: no new key.
    assert "rules" not in stored.meta_json


async def test_an_upgrade_midway_is_recorded_and_an_older_replica_stands_aside(
    deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_server, new_server = await deployment.start(), await deployment.start()
    old = deployment.client(old_server)
    match = await seated_match(old, seats=2, game_id=GAME)
    played = await play_random([match], random.Random(2), count=3)

    set_rules(monkeypatch, 2)  # the other replica is upgraded and plays on
    upgraded = on(deployment.client(new_server), match)
    await play_random([upgraded], random.Random(3), count=2, played=played)
    before = await upgraded.spectator.get(match.match_id)

    set_rules(monkeypatch, 1)  # the replica that still runs the old release
    mover = current_seat(before.match)
    assert mover is not None
    legal = (await upgraded.seats[mover].legal(match.match_id)).actions
    for call in (
        match.spectator.get(match.match_id),
        match.seats[mover].legal(match.match_id),
        match.seats[mover].submit(match.match_id, legal[0].notation),
    ):
        failure = await expect_error(call, grpc.StatusCode.UNAVAILABLE, "RULES_NEWER_THAN_REPLICA")
        assert failure.facts == {"rulesVersion": "2", "serverRulesVersion": "1"}
        assert failure.retry_after_s is not None
        assert "Mykerinos rules version 2" in failure.message
    set_rules(monkeypatch, 2)
    assert (await upgraded.spectator.get(match.match_id)).match.version == before.match.version

    await play_random([upgraded], random.Random(4), played=played)
    export = await upgraded.spectator.export(match.match_id)
    assert export.rules_version == 1
    assert [logged.rules_version for logged in export.actions] == [1] * 3 + [2] * (
        len(export.actions) - 3
    )
    assert fairness.rules_played(export) == [1, 2]
    for version in (1, 2):
        set_rules(monkeypatch, version)
        mismatch = fairness.rules_mismatch(export)
        assert mismatch is not None and "Mykerinos rules version 1 then 2" in mismatch


async def test_a_match_created_before_rules_versions_is_replayed_as_before(
    deployment: Deployment,
) -> None:
    """Version 0: the match was created before versions were recorded (its meta,
    head and log entries name none). Its export says so, and a checker still
    replays it: the final scores tell whether the rules still agree."""
    server = await deployment.start()
    client = deployment.client(server)
    match = await seated_match(client, seats=2, game_id=GAME)
    await play_random([match], random.Random(5))
    export = await client.export(match.match_id)
    stored: StoredMatch = await deployment.store().load(match.match_id)
    head = HeadDocument.from_json(stored.snapshot_json)
    old_head = json.loads(dataclasses.replace(head, rules=0, dealt=0).to_json())
    assert "rules" not in old_head and "dealt" not in old_head
    assert HeadDocument.from_json(json.dumps(old_head)).dealt == 0
    entry = '{"seat":1,"notation":"pass","request_id":"r","at":1.0}'
    assert logged_action(3, entry).rules_version == 0

    export.rules_version = 0
    for logged in export.actions:
        logged.rules_version = 0
    assert fairness.rules_mismatch(export) is None
    final = fairness.replay(export)[-1]
    checks = dict(fairness.export_checks(export, match.commitment, final))
    assert checks["played before rules versions were recorded, replayed under Mykerinos's rules"]
    assert all(checks.values())


async def test_records_of_a_newer_release_read_as_what_this_one_knows(
    deployment: Deployment,
) -> None:
    """During a rolling upgrade a replica reads records a newer release wrote: the
    fields it does not know are left, never a reason to call the match corrupt."""
    server = await deployment.start()
    client = deployment.client(server)
    match = await seated_match(client, seats=2, game_id=GAME)
    await play_random([match], random.Random(6), count=1)
    store = deployment.store()
    stored: StoredMatch = await store.load(match.match_id)

    def newer(text: str) -> str:
        return json.dumps({**json.loads(text), "a_field_of_a_newer_release": [1, 2]})

    meta = json.loads(stored.meta_json)
    meta["seats"] = [{**plan, "another": True} for plan in meta["seats"]]
    assert MatchMeta.from_json(newer(json.dumps(meta))) == MatchMeta.from_json(stored.meta_json)
    claim = stored.seats[0]
    assert SeatClaim.from_json(newer(claim)) == SeatClaim.from_json(claim)
    head = stored.snapshot_json
    assert HeadDocument.from_json(newer(head)) == HeadDocument.from_json(head)
    (batch,) = await store.events_after(match.match_id, 0)
    assert UpdateRecord.from_json(newer(batch.events_json)) == UpdateRecord.from_json(
        batch.events_json
    )
