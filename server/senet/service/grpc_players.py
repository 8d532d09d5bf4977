"""The gRPC face of players, the queue and ratings: senet.v1.PlayerService.

Thin, as :mod:`senet.service.grpc_api` is: the identity token is read from the
``x-senet-identity`` metadata and verified (:mod:`senet.service.identity`), the
call goes to :class:`~senet.service.players.PlayerDirectory` or
:class:`~senet.service.matchmaking.Matchmaker`, and every error goes out through
the one mapping (:mod:`senet.service.grpc_errors`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from senet.codec.options import options_from_proto
from senet.service import errors, metrics
from senet.service.access import Caller
from senet.service.grpc_calls import client_of, header, run_unary
from senet.service.grpc_errors import fail
from senet.service.identity import Identity
from senet.service.matchmaking import Matchmaker, Progress, TicketRequest
from senet.service.players import PlayerDirectory
from senet.service.quotas import Quotas
from senet.service.ratings import RatingValue
from senet.service.settings import Settings
from senet.v1 import player_service_pb2 as pb
from senet.v1 import player_service_pb2_grpc

T = TypeVar("T")
IDENTITY_HEADER = "x-senet-identity"
_STAGES = {
    "queued": pb.TICKET_STAGE_QUEUED,
    "players_found": pb.TICKET_STAGE_PLAYERS_FOUND,
    "matched": pb.TICKET_STAGE_MATCHED,
    "awaiting_entropy": pb.TICKET_STAGE_AWAITING_ENTROPY,
}


def rating_to_proto(rating: RatingValue) -> pb.Rating:
    return pb.Rating(mu=rating.mu, sigma=rating.sigma, conservative=rating.conservative)


def ticket_request_from_proto(spec: pb.TicketSpec) -> TicketRequest:
    if not spec.game_id:
        raise errors.MalformedRequest("ticket.game_id is required", {"field": "ticket.game_id"})
    return TicketRequest(
        game_id=spec.game_id,
        min_seats=spec.min_seats,
        max_seats=spec.max_seats,
        options=options_from_proto(spec.options),
        rated=spec.mode == pb.MATCH_MODE_RATED,
        bot_fill_after_s=None if spec.bot_fill_never else float(spec.bot_fill_after_s),
        add_entropy=spec.add_entropy,
    )


def progress_to_proto(progress: Progress) -> pb.FindMatchResponse:
    return pb.FindMatchResponse(
        ticket_id=progress.ticket_id,
        stage=_STAGES[progress.stage],
        waited_s=progress.waited_s,
        players_found=progress.players_found,
        match_id=progress.match_id,
        seat=max(progress.seat, 0),
        seat_token=progress.seat_token,
        mode=pb.MATCH_MODE_RATED if progress.rated else pb.MATCH_MODE_CASUAL,
        seed_commitment=progress.seed_commitment,
    )


class PlayerServicer(player_service_pb2_grpc.PlayerServiceServicer):
    """Implements senet.v1.PlayerService."""

    def __init__(
        self,
        directory: PlayerDirectory,
        matchmaker: Matchmaker,
        settings: Settings,
        quotas: Quotas | None = None,
    ) -> None:
        self.directory = directory
        self.matchmaker = matchmaker
        self.settings = settings
        self.draining = False
        #: The replica's per-client quotas (shared with MatchService's calls).
        self.quotas = quotas if quotas is not None else Quotas(settings)

    async def _unary(self, method: str, context: Any, body: Callable[[Caller], Awaitable[T]]) -> T:
        return await run_unary(method, context, self.settings, body, self.draining, self.quotas)

    async def identity_of(self, context: Any) -> Identity:
        """The caller's verified identity.

        Raises:
            IdentityRequired: no identity token.
            BadIdentity: one that is not valid.
        """
        token = header(context, IDENTITY_HEADER)
        if token is None:
            raise errors.IdentityRequired(f"this call needs an identity token ({IDENTITY_HEADER})")
        return await self.directory.identities.verify(token)

    async def RegisterGuest(
        self, request: pb.RegisterGuestRequest, context: Any
    ) -> pb.RegisterGuestResponse:
        async def body(_: Caller) -> pb.RegisterGuestResponse:
            token, identity, expires = await self.directory.register_guest(request.display_name)
            return pb.RegisterGuestResponse(
                identity_token=token, subject=identity.subject, expires_at=expires
            )

        return await self._unary("RegisterGuest", context, body)

    async def GetPlayer(self, request: pb.GetPlayerRequest, context: Any) -> pb.GetPlayerResponse:
        async def body(_: Caller) -> pb.GetPlayerResponse:
            subject = request.subject
            if not subject:
                subject = (await self.identity_of(context)).subject
            card = await self.directory.player(subject)
            return pb.GetPlayerResponse(
                subject=card.subject,
                display_name=card.name,
                ratings=[
                    pb.GameRating(
                        game_id=s.game_id,
                        rating=rating_to_proto(s.rating),
                        matches=s.rating.matches,
                        ladder_id=s.ladder_id,
                    )
                    for s in card.standings
                ],
                recent=[
                    pb.PlayerResult(
                        match_id=r.match_id,
                        game_id=r.game_id,
                        place=r.place,
                        seat_count=r.seat_count,
                        rating=rating_to_proto(RatingValue(r.mu, r.sigma)),
                        delta=r.delta,
                        settled_at=r.settled_at,
                        ladder_id=r.ladder_id,
                        seats=[
                            pb.ResultSeat(subject=s.subject, display_name=s.name, place=s.place)
                            for s in r.seats
                        ],
                    )
                    for r in card.recent
                ],
            )

        return await self._unary("GetPlayer", context, body)

    async def ListLeaderboard(
        self, request: pb.ListLeaderboardRequest, context: Any
    ) -> pb.ListLeaderboardResponse:
        async def body(_: Caller) -> pb.ListLeaderboardResponse:
            page = await self.directory.leaderboard(
                request.game_id, request.page_size, request.page_token, request.seat_count
            )
            return pb.ListLeaderboardResponse(
                entries=[
                    pb.LeaderboardEntry(
                        rank=row.rank,
                        subject=row.subject,
                        display_name=row.name,
                        rating=rating_to_proto(row.rating),
                        matches=row.rating.matches,
                    )
                    for row in page.rows
                ],
                next_page_token=page.next_token,
                total=page.total,
            )

        return await self._unary("ListLeaderboard", context, body)

    async def FindMatch(
        self, request: pb.FindMatchRequest, context: Any
    ) -> AsyncIterator[pb.FindMatchResponse]:
        try:
            if self.draining:
                raise errors.Draining("server is shutting down; resume the ticket elsewhere")
            client = client_of(context, self.settings)
            self.quotas.take_call(client)
            identity = await self.identity_of(context)
            if request.entropy and not request.ticket_id:
                raise errors.MalformedRequest(
                    "entropy goes with ticket_id: resume the ticket with it after the "
                    "AWAITING_ENTROPY report",
                    {"field": "entropy"},
                )
            with self.quotas.stream(client, None):
                if request.ticket_id:
                    ticket = await self.matchmaker.resume(identity, request.ticket_id)
                else:
                    ticket = await self.matchmaker.enqueue(
                        identity, ticket_request_from_proto(request.ticket)
                    )
                async for progress in self.matchmaker.follow(ticket, request.entropy):
                    yield progress_to_proto(progress)
        except Exception as exc:
            await fail(context, "FindMatch", exc)
        metrics.RPCS.labels("FindMatch", "OK").inc()
