"""Players, the matchmaking queue and leaderboards: senet.v1.PlayerService.

:class:`PlayerClient` rides on a :class:`~senet.client.client.SenetClient`'s
connection (its targets, TLS and failover) and sends the player's identity token
as ``x-senet-identity``::

    async with SenetClient("127.0.0.1:50051") as senet:
        me = PlayerClient(senet)
        await me.register_guest("Ada")
        async for progress in me.find_match("mykerinos", seats=(2, 2), rated=True):
            print(progress.stage, progress.waited_s)
        seat = me.seat(progress)

A lost connection (a replica gone) does not lose the ticket: :meth:`find_match`
opens the stream again on the next target with the ticket's id and goes on.
Tickets add the player's entropy to the match's seed by default (the server shows
its seed commitment first, then the stream is resumed with 128 random bits drawn
here), as :meth:`~senet.client.client.SenetClient.join` does.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import TypeVar

import grpc

from senet.client.client import SeatClient, SenetClient, _options_to_proto
from senet.client.errors import SenetRpcError
from senet.v1 import player_service_pb2 as pb
from senet.v1 import player_service_pb2_grpc

T = TypeVar("T")
IDENTITY_HEADER = "x-senet-identity"
#: Reconnections of one FindMatch before its error is raised.
_RESUMES = 5
#: The tickets whose entropy a client keeps for :meth:`PlayerClient.seat`, the
#: latest first: a ticket's seat is made right after its MATCHED report, and a
#: long-lived client (a bot queuing match after match) must not keep them all.
ENTROPY_KEPT = 256


class PlayerClient:
    """One player's PlayerService calls."""

    def __init__(self, client: SenetClient, identity_token: str = "") -> None:
        self.client = client
        self.identity_token = identity_token
        #: The subject of the guest identity made by :meth:`register_guest`.
        self.subject = ""
        #: The entropy each of the latest tickets sent (by ticket id, at most
        #: :data:`ENTROPY_KEPT`), to check the deal with.
        self.entropy_sent: dict[str, str] = {}

    def _stub(self) -> player_service_pb2_grpc.PlayerServiceAsyncStub:
        self.client.stub  # noqa: B018 - connects the channel lazily
        channel = self.client._channel
        if channel is None:
            raise RuntimeError("the client has no channel")
        return player_service_pb2_grpc.PlayerServiceStub(channel)

    def metadata(self) -> tuple[tuple[str, str], ...]:
        return ((IDENTITY_HEADER, self.identity_token),) if self.identity_token else ()

    async def _call(
        self, invoke: Callable[[player_service_pb2_grpc.PlayerServiceAsyncStub], Awaitable[T]]
    ) -> T:
        """A unary call that is safe to repeat: retried once on another target."""
        for attempt in range(2):
            try:
                return await invoke(self._stub())
            except grpc.aio.AioRpcError as exc:
                error = SenetRpcError.from_rpc_error(exc)
                if not error.retryable or attempt == 1:
                    raise error from None
                await self.client._failover()
        raise AssertionError("unreachable")

    async def register_guest(self, display_name: str) -> pb.RegisterGuestResponse:
        """Get a guest identity from the server and use it from now on."""
        request = pb.RegisterGuestRequest(display_name=display_name)
        timeout = self.client.timeout_s
        response = await self._call(lambda s: s.RegisterGuest(request, timeout=timeout))
        self.identity_token, self.subject = response.identity_token, response.subject
        return response

    async def find_match(
        self,
        game_id: str,
        *,
        seats: tuple[int, int] = (0, 0),
        options: Mapping[str, bool | int | str] | None = None,
        rated: bool = False,
        bot_fill_after_s: float | None = None,
        ticket_id: str = "",
        add_entropy: bool = True,
    ) -> AsyncIterator[pb.FindMatchResponse]:
        """Queue a ticket (or resume ``ticket_id``) and yield its progress until the
        MATCHED report, which carries the match id, the seat and its token
        (:meth:`seat` makes its handle).

        Leaving the loop early (``break``, cancellation) closes the stream, which
        cancels the ticket. ``bot_fill_after_s`` None: never play with bots.
        ``add_entropy``: the seat adds 128 random bits drawn here to the match's
        seed, sent once the AWAITING_ENTROPY report has shown the seed's
        commitment (that report is yielded too); False takes the seat at once.
        """
        spec = pb.TicketSpec(
            game_id=game_id,
            min_seats=seats[0],
            max_seats=seats[1],
            options=_options_to_proto(dict(options or {})),
            mode=pb.MATCH_MODE_RATED if rated else pb.MATCH_MODE_CASUAL,
            bot_fill_after_s=round(bot_fill_after_s or 0),
            bot_fill_never=bot_fill_after_s is None,
            add_entropy=add_entropy,
        )
        resumes = 0
        entropy = ""
        while True:
            request = pb.FindMatchRequest(ticket=spec, ticket_id=ticket_id, entropy=entropy)
            call = self._stub().FindMatch(request, metadata=self.metadata())
            awaiting = False
            try:
                async for progress in call:
                    ticket_id = progress.ticket_id
                    yield progress
                    if progress.stage == pb.TICKET_STAGE_MATCHED:
                        return
                    awaiting = progress.stage == pb.TICKET_STAGE_AWAITING_ENTROPY
                if not (awaiting and add_entropy and not entropy):
                    return
                entropy = self._entropy_for(ticket_id)
                continue
            except grpc.aio.AioRpcError as exc:
                error = SenetRpcError.from_rpc_error(exc)
                queued_before = error.reason == "ALREADY_QUEUED" and not ticket_id
                if queued_before and resumes < _RESUMES:
                    # A stream lost before its first report had queued the ticket.
                    ticket_id = error.facts.get("ticketId", "")
                    resumes += 1
                    continue
                if not (error.retryable and ticket_id) or resumes == _RESUMES:
                    raise error from None
            finally:
                call.cancel()
            resumes += 1
            await self.client._failover()
            await asyncio.sleep(0.1 * resumes)

    def _entropy_for(self, ticket_id: str) -> str:
        """The entropy ``ticket_id`` sends: drawn once (a retry sends the same, as
        the first stands), the oldest ticket's forgotten past :data:`ENTROPY_KEPT`."""
        sent = self.entropy_sent
        entropy = sent.get(ticket_id)
        if entropy is None:
            entropy = sent[ticket_id] = secrets.token_hex(16)
            while len(sent) > ENTROPY_KEPT:
                del sent[next(iter(sent))]
        return entropy

    def seat(self, matched: pb.FindMatchResponse) -> SeatClient:
        """The handle of the seat a MATCHED report names, with the commitment it
        showed and the entropy this client sent for it (for ``senet verify``)."""
        return self.client.seat(
            matched.match_id,
            matched.seat,
            matched.seat_token,
            commitment=matched.seed_commitment,
            entropy=self.entropy_sent.get(matched.ticket_id, ""),
        )

    async def get_player(self, subject: str = "") -> pb.GetPlayerResponse:
        """A player's ratings and recent results (empty subject: this player)."""
        request = pb.GetPlayerRequest(subject=subject)
        md, timeout = self.metadata(), self.client.timeout_s
        return await self._call(lambda s: s.GetPlayer(request, metadata=md, timeout=timeout))

    async def _page(self, request: pb.ListLeaderboardRequest) -> pb.ListLeaderboardResponse:
        timeout = self.client.timeout_s
        return await self._call(lambda s: s.ListLeaderboard(request, timeout=timeout))

    async def leaderboard(
        self, game_id: str, limit: int | None = 20, seat_count: int = 0
    ) -> AsyncIterator[pb.LeaderboardEntry]:
        """A game's leaderboard, best first: ``limit`` entries, or all with None;
        with ``seat_count``, the board of the game's ladder at that many seats."""
        token, given = "", 0
        while limit is None or given < limit:
            size = 100 if limit is None else min(100, limit - given)
            request = pb.ListLeaderboardRequest(
                game_id=game_id, page_size=size, page_token=token, seat_count=seat_count
            )
            page = await self._page(request)
            for entry in page.entries:
                yield entry
                given += 1
            token = page.next_page_token
            if not token:
                return
