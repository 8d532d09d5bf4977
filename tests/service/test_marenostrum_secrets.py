"""Mare Nostrum through the server: no seat ever receives another seat's hand cards or
pending trade offer, by any RPC or stream, and every seat always sees its own (issue 18).

One four-seat match: seats 0 and 3 are persons (the test holds their tokens), seats 1
and 2 bots, played by a bot worker that also records what each bot seat's token is
shown. The trade of turn 1 is played step by step, the hidden offers growing while the
checks run:

1. the Director (seat 3) sets the size; nobody has offered yet;
2. seat 3, not the lowest deciding seat, offers a first card through PlayMatch;
3. the bots' worker starts and seat 0 completes its offer; the bots offer theirs;
   seat 3 is left to finish;
4. seat 3 finishes and every offer is revealed at once.

At steps 1 to 3 every viewer (the spectator, both persons, and each bot seat through
the token its last decision was handed) is compared with a *twin* match, equal but
for what that viewer cannot see (the other hands and pending offers, dealt afresh):
GetMatch's view and summary, ListLegalActions, the errors of the usual mistakes
(offering a card one does not hold, a card another seat holds or offered; taking
during the offers; acting when not deciding; acting without a token) and
ExportMatch's refusal must be the same bytes, code and message for both. The lobby
(ListMatches) shows the match the same way throughout. After the reveal every viewer
sees the same offers, equal to what each seat offered. The match is then played to
the end (turn limit 2), and everything each viewer received (unary replies,
WatchMatch and PlayMatch streams: snapshots, updates, events, prompts, errors) is
checked structurally, with the typed messages, and as bytes: no other seat's hand or
offer, no other seat's ``offer <card>`` notation. The export, after the end, has the
offers whole.
"""

from __future__ import annotations

import asyncio
import random
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import grpc
import pytest
from google.protobuf.message import Message

from senet.bots.worker import BotWorker
from senet.client.client import SenetClient
from senet.codec import codec_for
from senet.games import get_game
from senet.games.marenostrum.commodities import CARD_NAMES, CARD_TYPES
from senet.service.records import HeadDocument
from senet.service.server import RunningServer
from senet.store import ClaimWrite as StoredClaim
from senet.store import NewMatch
from senet.v1 import bot_service_pb2, games_pb2, match_pb2
from senet.v1 import mare_nostrum_pb2 as mn
from senet.v1 import match_service_pb2 as ms
from tests.service.conftest import (
    WORKER_KEY,
    Client,
    Code,
    Deployment,
    Failure,
    failure_of,
    messages_in,
    submit_request,
)

GAME = "marenostrum"
#: Turn 1 of this seed: seat 3 is the Director of Commerce, and every seat can offer
#: two cards, so all four decide at once (checked before the trade is played).
SEED = 1
PERSONS = (0, 3)
BOTS = {1: "random", 2: "greedy"}
DIRECTOR = 3
SIZE = 2
OPTIONS = {"turn_limit": games_pb2.OptionValue(int_value=2)}
#: The events that name a hand's cards: they must reach their own seat only.
PRIVATE = (
    mn.MARE_NOSTRUM_EVENT_KIND_REVENUE_CARDS,
    mn.MARE_NOSTRUM_EVENT_KIND_CARD_OFFERED_PRIVATE,
    mn.MARE_NOSTRUM_EVENT_KIND_CARD_DRAWN_PRIVATE,
)
#: Notations that name a secret card; others receive only the verb.
SECRET_VERBS = ("offer", "give")
STREAM_SILENCE_S = 60.0
Viewer = int | None  # a seat, or None for the spectator


def counts_of(cards: mn.MareNostrumCards) -> list[int]:
    out = [0] * CARD_TYPES
    for entry in cards.cards:
        out[entry.card - 1] += entry.count
    return out


# ------------------------------------------------------------------ the truth
async def hidden(server: RunningServer, match_id: str) -> tuple[list[list[int]], list[list[int]]]:
    """Every seat's hand and pending offer, as counts by card, from the store."""
    stored = await server.store.load(match_id)
    state = HeadDocument.from_json(stored.snapshot_json).state
    return state["hands"], state["offers"]


async def twin_for(
    server: RunningServer, match_id: str, viewer: Viewer, name: str
) -> tuple[str, bool]:
    """A copy of the match (same meta, seats and tokens) with everything ``viewer``
    cannot see dealt afresh: the other seats' hands and pending offers. Returns its
    id, and whether some other seat's pending offer differs in it."""
    stored = await server.store.load(match_id)
    snapshot = HeadDocument.from_json(stored.snapshot_json)
    state = get_game(GAME).state_from_data(snapshot.state)
    twin = state.determinize(viewer, zlib.crc32(name.encode()))
    secret = ("hands", "offers")
    assert [twin.to_data()[k] for k in secret] != [snapshot.state[k] for k in secret], name
    assert twin.view(viewer) == state.view(viewer)
    twin_snapshot = replace(snapshot, state=twin.to_data(), updated_at=time.time())
    await server.store.create(NewMatch(name, stored.meta_json, twin_snapshot.to_json()))
    for seat, claim in stored.seats.items():
        assert await server.store.claim_seat(name, StoredClaim(seat, claim))
    offers, twin_offers = snapshot.state["offers"], twin.to_data()["offers"]
    return name, any(twin_offers[s] != offers[s] for s in range(len(offers)) if s != viewer)


# ------------------------------------------------------------------ viewers


class Progress:
    """The versions and deciding seats a spectator's WatchMatch stream has delivered."""

    def __init__(self) -> None:
        self.version = -1
        self.deciding: tuple[int, ...] = ()
        self.finished = False
        self._changed = asyncio.Condition()

    async def note(self, message: ms.WatchMatchResponse) -> None:
        async with self._changed:
            if message.HasField("snapshot"):
                summary = message.snapshot.match
                self.version, self.deciding = summary.version, tuple(summary.deciding_seats)
            elif message.HasField("update"):
                update = message.update
                self.version, self.deciding = update.version, tuple(update.deciding_seats)
                self.finished = update.status == match_pb2.MATCH_STATUS_FINISHED
            self._changed.notify_all()

    async def wait_past(self, version: int) -> None:
        """Until the stream has delivered a version after ``version``."""
        await self.wait_for(lambda: self.version > version, f"a version after {version}")

    async def wait_for(self, condition: Callable[[], bool], what: str) -> None:
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(condition), STREAM_SILENCE_S)
            except TimeoutError:
                pytest.fail(f"the match never reached {what} (at version {self.version})")


async def drain(client: Client, call: Any, progress: Progress | None = None) -> None:
    """Record every message of a stream until it ends."""
    while (message := await client.read(call, timeout=STREAM_SILENCE_S)) is not None:
        if progress is not None:
            await progress.note(message)


class RecordingWorker(BotWorker):
    """A bot worker whose every decision first shows the bot seat's view and legal
    actions, through the token the decision was handed, to the test's recorder."""

    def __init__(self, target: str, channel: grpc.aio.Channel) -> None:
        super().__init__(target, worker_key=WORKER_KEY, capacity=2, lease_ms=3000)
        self.channel = channel
        self.received: dict[int, list[Message]] = {seat: [] for seat in BOTS}

    def viewer(self, match_id: str, seat: int) -> Client | None:
        """A client holding the latest token of bot ``seat`` (None before its first
        decision)."""
        token = self.tokens.get((match_id, seat))
        return None if token is None else Client(self.channel, token, None, self.received[seat])

    async def decide(
        self, client: SenetClient, decision: bot_service_pb2.BotDecision
    ) -> str | match_pb2.Action | None:
        seat_view = Client(self.channel, decision.token, None, self.received[decision.seat])
        try:
            await seat_view.get(decision.match_id)
            await seat_view.legal(decision.match_id)
        except grpc.aio.AioRpcError:
            pass  # a token already replaced: the decision is retried with the new one
        return await super().decide(client, decision)


# ------------------------------------------------------------------ comparisons
def public(summary: match_pb2.MatchSummary) -> match_pb2.MatchSummary:
    """A summary without what tells a match from its twin (id and version)."""
    out = match_pb2.MatchSummary()
    out.CopyFrom(summary)
    out.match_id, out.version = "", 0
    return out


def wire(message: Message) -> bytes:
    return message.SerializeToString(deterministic=True)


async def failure(call: Awaitable[Any]) -> Failure:
    try:
        result = await call
    except grpc.aio.AioRpcError as error:
        return failure_of(error)
    pytest.fail(f"expected a refusal, got {type(result).__name__}: {result}")


def typed_offer(card: int) -> match_pb2.Action:
    action = get_game(GAME).parse_action(f"offer {CARD_NAMES[card]}")
    return codec_for(GAME).action_to_proto(action)


def mistakes(
    viewer: Viewer, hands: list[list[int]], offers: list[list[int]]
) -> list[tuple[str | None, match_pb2.Action | None]]:
    """Submissions that must be refused, built to tempt a leak: offering a card the
    viewer does not hold but another seat holds or has offered (as notation and
    typed), taking another seat's such card before the reveal, the Director's give."""
    seat = 0 if viewer is None else viewer
    others = [s for s in range(len(hands)) if s != seat]
    elsewhere = [
        c
        for c in range(CARD_TYPES)
        if not hands[seat][c] and any(hands[o][c] or offers[o][c] for o in others)
    ]
    offered = [c for c in elsewhere if any(offers[o][c] for o in others)]
    card = (offered or elsewhere or [CARD_TYPES - 1])[0]
    absent = (elsewhere or [CARD_TYPES - 1])[0]
    victim = next((o for o in others if offers[o][card]), others[0])
    return [
        (f"offer {CARD_NAMES[absent]}", None),
        (None, typed_offer(absent)),
        (f"offer {CARD_NAMES[card]}", None),
        (f"take {victim} {CARD_NAMES[card]}", None),
        (f"give {CARD_NAMES[card]}", None),
    ]


async def lobby_listing(client: Client, match_id: str) -> ms.MatchListing | None:
    request = ms.ListMatchesRequest(game_id=GAME, page_size=200)
    response = await client.stub.ListMatches(request, timeout=15)
    client.received.append(response)
    return next((m for m in response.matches if m.match_id == match_id), None)


async def compare_with_twins(
    server: RunningServer,
    match_id: str,
    viewers: dict[Viewer, Client],
    tag: str,
) -> dict[Viewer, list[Failure]]:
    """Each viewer sees the match and its own twin the same way, refusals included;
    returns the refusals each viewer got from the real match."""
    hands, offers = await hidden(server, match_id)
    refusals: dict[Viewer, list[Failure]] = {}
    for viewer, client in viewers.items():
        twin, offers_differ = await twin_for(server, match_id, viewer, f"twin-{tag}-{viewer}")
        if any(sum(offers[s]) for s in range(len(offers)) if s != viewer):
            assert offers_differ, (tag, viewer)  # else the twin tests no pending offer
        real, other = await client.get(match_id), await client.get(twin)
        assert wire(other.view) == wire(real.view), (tag, viewer)
        assert wire(public(other.match)) == wire(public(real.match)), (tag, viewer)
        assert other.viewer_seat == real.viewer_seat
        if viewer is not None:
            real_legal, twin_legal = await client.legal(match_id), await client.legal(twin)
            assert [wire(a) for a in twin_legal.actions] == [wire(a) for a in real_legal.actions]
        got = []
        for notation, typed in mistakes(viewer, hands, offers):
            on_real = await failure(client.submit(match_id, notation, typed=typed))
            on_twin = await failure(client.submit(twin, notation, typed=typed))
            assert on_twin == on_real, (tag, viewer, notation)
            got.append(on_real)
        if viewer in BOTS:  # a bot's seat cannot be left, on either match
            leave = [
                client.stub.LeaveMatch(
                    ms.LeaveMatchRequest(match_id=m), metadata=client.metadata, timeout=15
                )
                for m in (match_id, twin)
            ]
            on_real = await failure(leave[0])
            assert on_real == await failure(leave[1])
            assert on_real.reason == "BOT_SEAT"
        on_real = await failure(client.export(match_id))
        assert on_real == await failure(client.export(twin))
        assert (on_real.code, on_real.reason) == (Code.FAILED_PRECONDITION, "MATCH_NOT_FINISHED")
        refusals[viewer] = got
    return refusals


# ------------------------------------------------------------------ final checks
def check_received(received: list[Message], viewer: Viewer) -> Counter[str]:
    """Assert that nothing ``viewer`` received shows another seat's hand or pending
    offer, and that every view of a seat shows its own; counts what was checked."""
    checked: Counter[str] = Counter()
    for message in received:
        for inner in messages_in(message):
            if isinstance(inner, mn.MareNostrumView):
                checked["views"] += 1
                for player in inner.players:
                    if player.seat == viewer:
                        assert player.HasField("hand") and player.HasField("offer")
                        assert sum(counts_of(player.hand)) == player.hand_size
                        assert sum(counts_of(player.offer)) == player.offer_size
                        checked["own hands"] += 1
                    else:
                        assert not player.HasField("hand"), (viewer, player.seat)
                        assert not player.HasField("offer"), (viewer, player.seat)
            elif isinstance(inner, mn.MareNostrumEvent):
                if inner.kind in PRIVATE:
                    assert viewer is not None and inner.seat == viewer, (viewer, inner)
                    checked["private events"] += 1
                elif inner.kind == mn.MARE_NOSTRUM_EVENT_KIND_CARD_OFFERED:
                    assert inner.card == mn.MARE_NOSTRUM_CARD_UNSPECIFIED, inner
                    checked["offers counted"] += 1
            elif isinstance(inner, match_pb2.MatchUpdate):
                verb = inner.notation.split(" ")[0]
                if verb in SECRET_VERBS and inner.seat != viewer:
                    assert inner.notation == verb, (viewer, inner.notation)
                    checked["public forms"] += 1
            elif isinstance(inner, ms.YourTurn | ms.ListLegalActionsResponse):
                assert inner.seat == viewer, (viewer, inner.seat)
                checked["prompts"] += 1
            elif isinstance(inner, ms.GetMatchResponse):
                if viewer is None:
                    assert not inner.HasField("viewer_seat")
                else:
                    assert inner.viewer_seat == viewer
    return checked


def secret_notations() -> list[bytes]:
    return [f"{verb} {name}".encode() for verb in SECRET_VERBS for name in CARD_NAMES]


def public_bytes(message: Message, viewer: Viewer) -> bytes:
    """What ``message`` tells ``viewer`` about others: the viewer's own prompts, its
    own updates' notations and its own refused submissions echoed back are left out
    (they name its own cards, checked above)."""
    copy = type(message)()
    copy.CopyFrom(message)
    if isinstance(copy, ms.ListLegalActionsResponse):
        return b""
    for inner in messages_in(copy):
        if isinstance(inner, ms.PlayMatchResponse) and inner.HasField("your_turn"):
            inner.ClearField("your_turn")
        elif isinstance(inner, ms.PlayMatchResponse) and inner.HasField("error"):
            inner.ClearField("error")
        elif isinstance(inner, match_pb2.MatchUpdate) and inner.seat == viewer:
            inner.notation = ""
    return copy.SerializeToString()


def revealed_in(received: list[Message]) -> list[dict[int, list[int]]]:
    """Every OFFERS_REVEALED event received, as offers by seat (counts by card)."""
    found = []
    for message in received:
        for inner in messages_in(message):
            if (
                isinstance(inner, mn.MareNostrumEvent)
                and inner.kind == mn.MARE_NOSTRUM_EVENT_KIND_OFFERS_REVEALED
            ):
                found.append({o.seat: counts_of(o.cards) for o in inner.offers})
    return found


def deduplicated(reveals: list[dict[int, list[int]]]) -> list[dict[int, list[int]]]:
    out: list[dict[int, list[int]]] = []
    for reveal in reveals:
        if reveal not in out:
            out.append(reveal)
    return out


# ------------------------------------------------------------------ the test
@pytest.mark.slow
async def test_no_seat_sees_another_seats_hand_or_pending_offer(
    deployment: Deployment, server: RunningServer, client: Client
) -> None:
    channel = client.channel
    # The streams go through a second replica, which learns of commits from the store
    # (the first one hands its own commits to its watchers directly).
    streams_channel = deployment.channel(await deployment.start())
    plans = [
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN),
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy=BOTS[1]),
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy=BOTS[2]),
        match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN),
    ]
    created = await client.create(plans, seed=SEED, game_id=GAME, options=OPTIONS)
    mid = created.match_id
    persons: dict[int, Client] = {}
    for seat in PERSONS:
        joined = await client.join(mid, seat, f"person {seat}")
        persons[seat] = Client(channel, joined.token, None, [])
    spectator = Client(channel, None, None, [])

    # The bots' worker starts only once the checkpoints that need a still match are
    # done (steps 1 and 2), whenever the server would hand the bots their offers.
    worker = RecordingWorker(f"127.0.0.1:{server.port}", channel)
    stop = asyncio.Event()
    worker_task: asyncio.Task[None] | None = None
    progress = Progress()
    streams = []
    # Every stream delivers its snapshot before anybody moves: they see the whole trade.
    for unary_client, notes in [(spectator, progress), *((p, None) for p in persons.values())]:
        viewer_client = Client(streams_channel, unary_client.token, None, unary_client.received)
        call = viewer_client.watch(mid)
        first = await viewer_client.read(call)
        assert first is not None and first.HasField("snapshot")
        if notes is not None:
            await notes.note(first)
        streams.append(asyncio.create_task(drain(viewer_client, call, notes)))
    plays = {}
    for seat, person in persons.items():
        player = Client(streams_channel, person.token, None, person.received)
        play = player.play()
        await play.write(ms.PlayMatchRequest(hello=ms.PlayHello(match_id=mid)))
        opened = await player.read(play)
        assert opened is not None and opened.HasField("snapshot")
        plays[seat] = play
        streams.append(asyncio.create_task(drain(player, play)))

    def viewers() -> dict[Viewer, Client]:
        out: dict[Viewer, Client] = {None: spectator}
        for seat, person in persons.items():
            out[seat] = person
        for seat in BOTS:
            bot = worker.viewer(mid, seat)
            if bot is not None:
                out[seat] = bot
        return out

    async def played_through_play_match(seat: int, request: ms.SubmitActionRequest) -> Message:
        """Submit through the seat's PlayMatch stream; its reply or error there."""
        before = len(persons[seat].received)
        await plays[seat].write(ms.PlayMatchRequest(submit=request))
        deadline = asyncio.get_running_loop().time() + STREAM_SILENCE_S
        while asyncio.get_running_loop().time() < deadline:
            for message in persons[seat].received[before:]:
                if isinstance(message, ms.PlayMatchResponse):
                    answer = message.submitted if message.HasField("submitted") else message.error
                    if answer.request_id == request.request_id:
                        return answer
            await asyncio.sleep(0.01)
        pytest.fail(f"PlayMatch never answered {request.request_id}")

    try:
        # 1. The Director sets the size: all four seats offer at once.
        start = await spectator.get(mid)
        view = start.view.marenostrum
        assert view.step == mn.MARE_NOSTRUM_STEP_TRADE_SIZE and view.actor == DIRECTOR
        await persons[DIRECTOR].submit(mid, f"size {SIZE}", expected_version=0)
        now = await spectator.get(mid)
        assert list(now.match.deciding_seats) == [0, 1, 2, 3]
        listed_before = await lobby_listing(spectator, mid)
        await compare_with_twins(server, mid, viewers(), "open")

        # 2. Seat 3 (not the current seat: that is seat 0) offers a first card, by
        # PlayMatch; a card it does not hold is refused there as by the unary call.
        # The last card listed: a twin offers the lowest cards of a hand dealt afresh
        # (mostly tax), so a twin's pending offer differs from this one.
        legal = await persons[3].legal(mid)
        first_card = legal.actions[-1].notation
        request = submit_request(mid, first_card, request_id="first-offer")
        answer = await played_through_play_match(3, request)
        assert isinstance(answer, ms.SubmitActionResponse), answer
        hands, offers = await hidden(server, mid)
        notation, _typed = mistakes(3, hands, offers)[0]
        assert notation is not None
        refused = await played_through_play_match(3, submit_request(mid, notation))
        assert isinstance(refused, ms.PlayError)
        unary = await failure(persons[3].submit(mid, notation))
        assert (refused.code, refused.reason, refused.message) == (
            unary.code.value[0],
            unary.reason,
            unary.message,
        )
        assert unary.reason == "ILLEGAL_ACTION"
        # The retried request answers the original reply.
        again = await persons[3].submit(mid, first_card, request_id="first-offer")
        assert again.duplicate and list(again.events) == list(answer.events)
        await compare_with_twins(server, mid, viewers(), "one-offered")

        # 3. The bots' worker starts and seat 0 completes its offer; the bots offer
        # theirs; seat 3 is left with one card to offer.
        worker_task = asyncio.create_task(worker.run(stop))
        for _ in range(SIZE):
            legal = await persons[0].legal(mid)
            await persons[0].submit(mid, legal.actions[-1].notation)
        await progress.wait_for(lambda: progress.deciding == (3,), "the bots' offers")
        assert set(viewers()) == {None, 0, 1, 2, 3}  # both bots decided: their tokens too
        refusals = await compare_with_twins(server, mid, viewers(), "bots-offered")
        # Seats done offering may not act; seat 3 may, but not with a card it lacks.
        for seat in (0, 1, 2):
            assert {f.reason for f in refusals[seat]} == {"NOT_YOUR_TURN"}, refusals[seat]
        assert refusals[3][0].reason == "ILLEGAL_ACTION"
        assert {f.reason for f in refusals[None]} == {"TOKEN_REQUIRED"}
        listed_after = await lobby_listing(spectator, mid)
        assert listed_before is not None and listed_after is not None
        # The lobby shows nothing new but the version and that the bots have played
        # (a bot seat is listed as claimed once a worker was handed a decision).
        for listing in (listed_before, listed_after):
            listing.version = 0
            for listed in listing.seats:
                if listed.kind == match_pb2.SEAT_KIND_BOT:
                    listed.claimed, listed.display_name = False, ""
        assert wire(listed_after) == wire(listed_before)
        for secret in secret_notations():
            assert secret not in wire(listed_after)

        # 4. Seat 3 completes its offer: every offer is revealed, to everybody.
        hands, offers = await hidden(server, mid)
        assert [sum(o) for o in offers] == [SIZE, SIZE, SIZE, 1]
        legal = await persons[3].legal(mid)
        last = legal.actions[0]
        expected = {seat: list(offers[seat]) for seat in range(4)}
        last_card = CARD_NAMES.index(last.notation.split()[1])
        expected[3][last_card] += 1
        reply = await persons[3].submit(mid, last.notation, expected_version=legal.version)
        assert revealed_in([reply]) == [expected]
        seen = {}
        for viewer, viewer_client in viewers().items():
            after = (await viewer_client.get(mid)).view.marenostrum
            seen[viewer] = [counts_of(p.face_up) for p in after.players]
            assert all(p.offer_size == 0 for p in after.players)
        assert all(faces == [expected[s] for s in range(4)] for faces in seen.values()), seen

        # Then on to the end: the persons play random legal actions, the bots theirs.
        rng = random.Random(SEED)
        while not progress.finished:
            now = await spectator.get(mid)
            if now.match.status == match_pb2.MATCH_STATUS_FINISHED:
                break
            mine = [s for s in now.match.deciding_seats if s in PERSONS]
            if not mine:
                await progress.wait_past(now.match.version)
                continue
            seat = rng.choice(mine)
            await persons[seat].get(mid)  # a person looks at the board before moving
            legal = await persons[seat].legal(mid)
            if legal.actions:
                choice = rng.choice(legal.actions).notation
                await persons[seat].submit(mid, choice, expected_version=legal.version)
        await asyncio.wait_for(asyncio.gather(*streams), STREAM_SILENCE_S)
    finally:
        stop.set()
        if worker_task is not None:
            await asyncio.wait_for(worker_task, 10)
        for task in streams:
            task.cancel()

    final = await spectator.get(mid)
    assert final.match.status == match_pb2.MATCH_STATUS_FINISHED
    # Replayed from the store: every update again, rebuilt from the stored records
    # (WatchMatch and PlayMatch resumed from version 0), and the leave refused.
    for unary_client in [spectator, *persons.values()]:
        await drain(unary_client, unary_client.watch(mid, from_version=0))
    for person in persons.values():
        play = person.play()
        hello = ms.PlayHello(match_id=mid, from_version=0)
        await play.write(ms.PlayMatchRequest(hello=hello))
        await drain(person, play)
        gone = await failure(
            person.stub.LeaveMatch(
                ms.LeaveMatchRequest(match_id=mid), metadata=person.metadata, timeout=15
            )
        )
        assert gone.reason == "GAME_OVER"

    # What everybody received, from the first snapshot to the last update.
    received: dict[Viewer, list[Message]] = {None: spectator.received}
    for seat, person in persons.items():
        received[seat] = person.received
    for seat, recorded in worker.received.items():
        received[seat] = recorded
    for viewer, messages in received.items():
        checked = check_received(messages, viewer)
        assert checked["views"] > 10, (viewer, checked)
        if viewer is not None:
            assert checked["own hands"] == checked["views"], (viewer, checked)
            assert checked["prompts"] > 0, (viewer, checked)
        if viewer is None or viewer in PERSONS:  # the streams' viewers
            assert checked["public forms"] >= 3 * SIZE, (viewer, checked)
            assert checked["offers counted"] >= 3 * SIZE, (viewer, checked)
            # The reveal of turn 1 reached them, the same for all.
            assert deduplicated(revealed_in(messages))[0] == expected, viewer
        if viewer in PERSONS:
            assert checked["private events"] > 0, (viewer, checked)
        for message in messages:
            data = public_bytes(message, viewer)
            leaked = [s for s in secret_notations() if s in data]
            assert not leaked, (viewer, type(message).__name__, leaked)

    # After the end the export has every notation whole: the offers of turn 1 are
    # the cards revealed.
    export = await spectator.export(mid)
    by_seat: dict[int, list[int]] = {s: [0] * CARD_TYPES for s in range(4)}
    for logged in export.actions:
        if logged.version > reply.version:
            break
        words = logged.notation.split()
        if words[0] == "offer":
            by_seat[logged.seat][CARD_NAMES.index(words[1])] += 1
    assert by_seat == expected
