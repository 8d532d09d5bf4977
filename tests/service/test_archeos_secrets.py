"""Archeos Society through the server: what only this game can say about its secrets.

``tests/service/test_secrecy.py`` checks every game the same way (twins, the core's
view of each viewer, planted values). What it cannot know is which of Archeos'
messages name a hand's cards; here, with the typed messages:

* every ``ArcheosView`` a caller receives (responses, stream snapshots) carries a hand
  and kept cards only for the caller's own seat, none for spectators;
* every private event (the card dealt, the cards drawn) reaches only its own seat;
* a Physician's ``keep <card>`` reaches the other seats as ``keep`` (the notation of
  each update is redacted by ``Game.public_notation``).

Each seat and the spectator use their own client so that what each received can be
checked separately.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from google.protobuf.message import Message

from senet.v1 import archeos_pb2 as pb
from senet.v1 import games_pb2, match_pb2
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import Client, Seated, current_seat, messages_in, play_random

PRIVATE = (pb.ARCHEOS_EVENT_KIND_DEALT, pb.ARCHEOS_EVENT_KIND_CARDS_DRAWN_PRIVATE)


def check_received(received: list[Message], seat: int | None) -> tuple[int, int, int]:
    """Assert nothing in ``received`` shows a hand but ``seat``'s; count what was checked
    (views, private events, redacted Physician keeps)."""
    views = privates = keeps = 0
    for message in received:
        for inner in messages_in(message):
            if (
                isinstance(inner, match_pb2.MatchUpdate)
                and inner.notation.startswith("keep")
                and inner.seat != seat
            ):
                assert inner.notation == "keep", (seat, inner.notation)
                keeps += 1
            if isinstance(inner, pb.ArcheosView):
                views += 1
                for player in inner.players:
                    if player.seat != seat:
                        assert not player.hand and not player.kept, (seat, player.seat)
            elif isinstance(inner, pb.ArcheosEvent) and inner.kind in PRIVATE:
                privates += 1
                assert seat is not None and inner.seat == seat, (seat, inner)
    return views, privates, keeps


async def archeos_match(client: Client, seats: int, seed: int) -> Seated:
    # The Physician is in the deck: its kept cards must not leak through notations.
    physician = {"role_physician": games_pb2.OptionValue(bool_value=True)}
    created = await client.create(seats, seed=seed, game_id="archeos", options=physician)
    tokens = []
    for seat in range(seats):
        tokens.append((await client.join(created.match_id, seat, f"p{seat}")).token)
    return Seated(
        created.match_id,
        seed,
        created.match.seed_commitment,
        tokens,
        [Client(client.channel, t, None, []) for t in tokens],
        Client(client.channel, None, None, []),
    )


async def drain(client: Client, call: Any) -> None:
    while True:
        message = await client.read(call, timeout=60)
        if message is None:
            return


@pytest.mark.slow
async def test_no_seat_receives_another_hand(client: Client) -> None:
    seats = 4
    match = await archeos_match(client, seats, seed=77)
    mid = match.match_id
    viewers: list[tuple[int | None, Client]] = [(None, match.spectator)]
    viewers += list(enumerate(match.seats))
    streams = [asyncio.create_task(drain(c, c.watch(mid))) for _, c in viewers]
    for seat_client in match.seats:
        for compact in (False, True):  # classic and compact streams alike
            call = seat_client.play()
            hello = ms.PlayHello(match_id=mid, compact=compact)
            await call.write(ms.PlayMatchRequest(hello=hello))
            streams.append(asyncio.create_task(drain(seat_client, call)))

    rng = random.Random(3)
    for _checkpoint in range(5):
        for seat, viewer in viewers:
            await viewer.get(mid)
            if seat is not None:
                await viewer.legal(mid)
        await play_random([match], rng, count=60)
    await play_random([match], rng)
    await asyncio.wait_for(asyncio.gather(*streams), 60)
    final = await match.spectator.get(mid)
    assert current_seat(final.match) is None

    totals = [check_received(c.received, seat) for seat, c in viewers]
    assert all(views >= 5 for views, _, _ in totals), totals
    assert all(privates > 0 for _, privates, _ in totals[1:]), totals
    assert all(keeps > 0 for _, _, keeps in totals), totals
