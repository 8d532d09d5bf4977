"""The gRPC face of bots, ladders, head-to-head tests and tournaments:
senet.v1.LadderService.

Thin, as the other faces are: identities come from the ``x-senet-identity``
metadata (verified by :mod:`senet.service.identity`), every call runs through
``run_unary`` (credentials, the one error mapping, metrics), and the work is
done by :mod:`senet.service.remote_bots` and :mod:`senet.service.ladder`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from senet.service import errors
from senet.service.access import Caller
from senet.service.grpc_bots import BOT_KEY_HEADER
from senet.service.grpc_calls import header, run_unary
from senet.service.grpc_players import IDENTITY_HEADER, rating_to_proto
from senet.service.headtohead import HeadToHeads
from senet.service.identity import Identities, Identity
from senet.service.ladder import LadderMatch, Ladders, LadderSpec, Standing
from senet.service.ladder_index import LadderState, LadderSummary, ladder_index
from senet.service.matches import MatchService
from senet.service.remote_bots import RegistrationPolicy, RemoteBot, RemoteBots
from senet.service.sequential import Hypotheses
from senet.service.settings import Settings
from senet.service.tournaments import Format, Tournaments
from senet.store import MatchStore
from senet.store.companions import beside
from senet.store.ladder import LadderStore, MemoryLadderStore
from senet.store.players import PlayerStore
from senet.v1 import ladder_service_pb2 as pb
from senet.v1 import ladder_service_pb2_grpc

if TYPE_CHECKING:
    from senet.store.redis_store import RedisStore

T = TypeVar("T")
MAX_RECENT = 100
_FORMATS: dict[int, Format] = {
    pb.TOURNAMENT_FORMAT_UNSPECIFIED: "round_robin",
    pb.TOURNAMENT_FORMAT_ROUND_ROBIN: "round_robin",
    pb.TOURNAMENT_FORMAT_SWISS: "swiss",
}
_FORMAT_ENUMS = {
    "round_robin": pb.TOURNAMENT_FORMAT_ROUND_ROBIN,
    "swiss": pb.TOURNAMENT_FORMAT_SWISS,
}
_LADDER_STATES = {
    LadderState.RUNNING: pb.LADDER_STATE_RUNNING,
    LadderState.PAUSED: pb.LADDER_STATE_PAUSED,
    LadderState.WAITING_FOR_BOTS: pb.LADDER_STATE_WAITING_FOR_BOTS,
}
_VERDICTS = {
    "running": pb.HEAD_TO_HEAD_VERDICT_RUNNING,
    "a_stronger": pb.HEAD_TO_HEAD_VERDICT_A_STRONGER,
    "not_stronger": pb.HEAD_TO_HEAD_VERDICT_NOT_STRONGER,
    "undecided": pb.HEAD_TO_HEAD_VERDICT_UNDECIDED,
}


def build_ladder_store(store: MatchStore) -> LadderStore:
    """The ladder store beside ``store``: in the same Redis, or in memory."""

    def on_redis(redis: RedisStore) -> LadderStore:
        from senet.store.redis_ladder import RedisLadderStore

        return RedisLadderStore(redis)

    return beside(store, on_redis, MemoryLadderStore)


def build_ladder(
    service: MatchService,
    store: MatchStore,
    players: PlayerStore,
    identities: Identities,
    settings: Settings,
) -> LadderServicer:
    """The LadderService of one replica, over the stores beside ``store``
    (``identities``: the replica's one verifier, whose guest key signs guests)."""
    ladder_store = build_ladder_store(store)
    remote = RemoteBots(service, players, ladder_store, RegistrationPolicy.of(settings))
    service.access.remote_bots = remote
    ladders = Ladders(service, players, ladder_store, remote, settings)
    tests = HeadToHeads(ladders.slots, ladder_store, remote, settings)
    tournaments = Tournaments(service, ladders.slots, ladder_store, remote)
    ladders.passes += [tests.pass_once, tournaments.pass_once]
    servicer = LadderServicer(remote, ladders, tests, identities, settings)
    servicer.tournaments = tournaments
    return servicer


def bot_to_proto(bot: RemoteBot, seen: Mapping[str, float]) -> pb.Bot:
    """The bot, with when its worker was last seen (``seen``: by bot id, Unix seconds)."""
    return pb.Bot(
        bot_id=bot.bot_id,
        subject=bot.subject,
        name=bot.name,
        owner=bot.owner,
        game_ids=list(bot.games),
        active=bot.active,
        note=bot.note,
        worker_seen_ms=int(seen.get(bot.bot_id, 0.0) * 1000),
        benched_until_ms=0 if bot.active else int(bot.benched_until * 1000),
        off_ladders=bot.off_ladders,
    )


def spec_to_proto(spec: LadderSpec) -> pb.LadderSpec:
    return pb.LadderSpec(
        game_id=spec.game_id,
        seat_count=spec.seat_count,
        decision_ms=spec.decision_ms,
        max_in_flight=spec.max_in_flight,
        inactive_after=spec.inactive_after,
    )


def standing_to_proto(standing: Standing, seen: Mapping[str, float]) -> pb.LadderStanding:
    return pb.LadderStanding(
        rank=standing.rank,
        bot=bot_to_proto(standing.bot, seen),
        rating=rating_to_proto(standing.rating),
        low=standing.interval[0],
        high=standing.interval[1],
        matches=standing.rating.matches,
    )


def summary_to_proto(summary: LadderSummary, seen: Mapping[str, float]) -> pb.LadderSummary:
    return pb.LadderSummary(
        ladder_id=summary.spec.ladder_id,
        spec=spec_to_proto(summary.spec),
        state=_LADDER_STATES[summary.state],
        in_flight=summary.in_flight,
        active_bots=summary.active_bots,
        bots=summary.bots,
        matches_played=summary.played,
        leaders=[standing_to_proto(s, seen) for s in summary.leaders],
        started_at=summary.spec.started_at,
    )


def ladder_match_to_proto(match: LadderMatch, names: Mapping[str, str]) -> pb.LadderMatch:
    """The match, its bots named (``names``: by bot id; an unknown one by its id)."""
    return pb.LadderMatch(
        match_id=match.match_id,
        bot_ids=list(match.bot_ids),
        places=list(match.places),
        status=match.status,
        created_at=match.created_at,
        ended_at=match.ended_at,
        bot_names=[names.get(b, b) for b in match.bot_ids],
    )


class LadderServicer(ladder_service_pb2_grpc.LadderServiceServicer):
    """Implements senet.v1.LadderService."""

    def __init__(
        self,
        remote: RemoteBots,
        ladders: Ladders,
        tests: HeadToHeads,
        identities: Identities,
        settings: Settings,
    ) -> None:
        self.remote = remote
        self.ladders = ladders
        self.tests = tests
        #: Tournaments (set by build_ladder).
        self.tournaments: Tournaments | None = None
        self.identities = identities
        self.settings = settings
        self.draining = False

    async def _unary(self, method: str, context: Any, body: Callable[[Caller], Awaitable[T]]) -> T:
        return await run_unary(method, context, self.settings, body, self.draining)

    async def maybe_identity(self, context: Any) -> Identity | None:
        """The caller's verified identity, or None without an identity token.

        Raises:
            BadIdentity: one that is not valid.
        """
        token = header(context, IDENTITY_HEADER)
        return None if token is None else await self.identities.verify(token)

    async def identity_of(self, context: Any) -> Identity:
        """The caller's verified identity.

        Raises:
            IdentityRequired: no identity token.
            BadIdentity: one that is not valid.
        """
        identity = await self.maybe_identity(context)
        if identity is None:
            raise errors.IdentityRequired(f"this call needs an identity token ({IDENTITY_HEADER})")
        return identity

    async def RegisterBot(
        self, request: pb.RegisterBotRequest, context: Any
    ) -> pb.RegisterBotResponse:
        async def body(caller: Caller) -> pb.RegisterBotResponse:
            owner = await self.identity_of(context)
            bot, key = await self.remote.register(
                owner,
                request.name,
                list(request.game_ids),
                is_admin=caller.is_admin,
                off_ladders=request.off_ladders,
            )
            seen = await self.remote.worker_seen(bot.bot_id)
            return pb.RegisterBotResponse(bot=bot_to_proto(bot, seen), bot_key=key)

        return await self._unary("RegisterBot", context, body)

    async def ListBots(self, request: pb.ListBotsRequest, context: Any) -> pb.ListBotsResponse:
        async def body(_: Caller) -> pb.ListBotsResponse:
            bots = await self.remote.bots()
            if request.game_id:
                bots = [b for b in bots if request.game_id in b.games]
            seen = await self.remote.workers_seen()
            return pb.ListBotsResponse(bots=[bot_to_proto(b, seen) for b in bots])

        return await self._unary("ListBots", context, body)

    async def GetBot(self, request: pb.GetBotRequest, context: Any) -> pb.GetBotResponse:
        async def body(_: Caller) -> pb.GetBotResponse:
            if not request.bot_id:
                raise errors.MalformedRequest("bot_id is required", {"field": "bot_id"})
            bot = await self.remote.bot(request.bot_id)
            seen = await self.remote.worker_seen(bot.bot_id)
            return pb.GetBotResponse(
                bot=bot_to_proto(bot, seen), retired_ms=int(bot.retired_at * 1000)
            )

        return await self._unary("GetBot", context, body)

    async def RetireBot(self, request: pb.RetireBotRequest, context: Any) -> pb.RetireBotResponse:
        async def body(caller: Caller) -> pb.RetireBotResponse:
            owner = await self.maybe_identity(context)
            key = header(context, BOT_KEY_HEADER) or ""
            bot = await self.remote.retire(request.bot_id, owner, is_admin=caller.is_admin, key=key)
            seen = await self.remote.worker_seen(bot.bot_id)
            return pb.RetireBotResponse(
                bot=bot_to_proto(bot, seen), retired_ms=int(bot.retired_at * 1000)
            )

        return await self._unary("RetireBot", context, body)

    async def StartLadder(
        self, request: pb.StartLadderRequest, context: Any
    ) -> pb.StartLadderResponse:
        async def body(caller: Caller) -> pb.StartLadderResponse:
            s = request.spec
            if not s.game_id:
                raise errors.MalformedRequest("spec.game_id is required", {"field": "spec"})
            spec = await self.ladders.start(
                caller,
                LadderSpec(
                    s.game_id, s.seat_count, s.decision_ms, s.max_in_flight, s.inactive_after
                ),
            )
            return pb.StartLadderResponse(ladder_id=spec.ladder_id, spec=spec_to_proto(spec))

        return await self._unary("StartLadder", context, body)

    async def GetLadder(self, request: pb.GetLadderRequest, context: Any) -> pb.GetLadderResponse:
        async def body(_: Caller) -> pb.GetLadderResponse:
            if request.recent > MAX_RECENT:
                raise errors.MalformedRequest(f"recent must be at most {MAX_RECENT}")
            spec = await self.ladders.spec(request.ladder_id)
            standings = await self.ladders.standings(spec)
            in_flight = await self.ladders.in_flight(spec.ladder_id)
            recent = await self.ladders.recent(spec.ladder_id, request.recent or 20)
            seen = await self.remote.workers_seen()
            names = await self.remote.names(
                {b for m in (*in_flight, *recent) for b in m.bot_ids},
                {s.bot.bot_id: s.bot.name for s in standings},
            )
            return pb.GetLadderResponse(
                ladder_id=spec.ladder_id,
                spec=spec_to_proto(spec),
                standings=[standing_to_proto(s, seen) for s in standings],
                in_flight=[ladder_match_to_proto(m, names) for m in in_flight],
                recent=[ladder_match_to_proto(m, names) for m in recent],
                matches_played=await self.ladders.played(spec.ladder_id),
            )

        return await self._unary("GetLadder", context, body)

    async def ListLadders(
        self, request: pb.ListLaddersRequest, context: Any
    ) -> pb.ListLaddersResponse:
        async def body(_: Caller) -> pb.ListLaddersResponse:
            page = await ladder_index(
                self.ladders, request.game_id, request.page_size, request.page_token, request.top
            )
            seen = await self.remote.workers_seen() if page.ladders else {}
            return pb.ListLaddersResponse(
                ladders=[summary_to_proto(s, seen) for s in page.ladders],
                next_page_token=page.next_page_token,
                total=page.total,
            )

        return await self._unary("ListLadders", context, body)

    async def StartHeadToHead(
        self, request: pb.StartHeadToHeadRequest, context: Any
    ) -> pb.StartHeadToHeadResponse:
        async def body(caller: Caller) -> pb.StartHeadToHeadResponse:
            hypotheses = Hypotheses(
                request.p0 or 0.5, request.p1 or 0.6, request.alpha or 0.05, request.beta or 0.05
            )
            test = await self.tests.start(
                caller,
                await self.maybe_identity(context),
                request.game_id,
                request.bot_a,
                request.bot_b,
                hypotheses,
                request.max_games or 400,
                request.decision_ms or 2000,
                request.parallel or 2,
            )
            return pb.StartHeadToHeadResponse(test_id=test.test_id)

        return await self._unary("StartHeadToHead", context, body)

    async def GetHeadToHead(
        self, request: pb.GetHeadToHeadRequest, context: Any
    ) -> pb.GetHeadToHeadResponse:
        async def body(_: Caller) -> pb.GetHeadToHeadResponse:
            report = await self.tests.report(request.test_id)
            h = report.test.hypotheses
            return pb.GetHeadToHeadResponse(
                test_id=report.test.test_id,
                verdict=_VERDICTS[report.verdict],
                wins=report.score.wins,
                losses=report.score.losses,
                draws=report.score.draws,
                win_share=report.score.share,
                low=report.interval[0],
                high=report.interval[1],
                llr=report.llr,
                llr_lower=h.lower,
                llr_upper=h.upper,
                match_ids=report.match_ids,
                void_games=report.void_games,
                waiting_for_workers=report.waiting_for_workers,
            )

        return await self._unary("GetHeadToHead", context, body)

    def _tournaments(self) -> Tournaments:
        if self.tournaments is None:
            raise errors.TournamentNotFound("this server runs no tournaments")
        return self.tournaments

    async def CreateTournament(
        self, request: pb.CreateTournamentRequest, context: Any
    ) -> pb.CreateTournamentResponse:
        async def body(caller: Caller) -> pb.CreateTournamentResponse:
            if request.format not in _FORMATS:
                raise errors.MalformedRequest("unknown tournament format")
            created = await self._tournaments().create(
                caller,
                request.name,
                request.game_id,
                request.seat_count,
                _FORMATS[request.format],
                request.rounds,
                [(e.bot_id, e.subject, e.display_name) for e in request.entrants],
                request.decision_ms or 5000,
            )
            return pb.CreateTournamentResponse(tournament_id=created.tournament_id)

        return await self._unary("CreateTournament", context, body)

    async def GetTournament(
        self, request: pb.GetTournamentRequest, context: Any
    ) -> pb.GetTournamentResponse:
        async def body(_: Caller) -> pb.GetTournamentResponse:
            tournaments = self._tournaments()
            t = await tournaments.tournament(request.tournament_id)
            names = {e.subject: e.name for e in t.entrants}
            who = await self.maybe_identity(context)
            seats = await tournaments.your_seats(t, who) if who is not None else []
            return pb.GetTournamentResponse(
                tournament_id=t.tournament_id,
                name=t.name,
                game_id=t.game_id,
                format=_FORMAT_ENUMS[t.format],
                status=t.status,
                round=min(await tournaments.round_now(t.tournament_id), t.rounds),
                rounds=t.rounds,
                standings=[
                    pb.TournamentStanding(
                        rank=i + 1,
                        subject=s.entrant,
                        display_name=names[s.entrant],
                        points=s.points,
                        buchholz=s.buchholz,
                        wins=s.wins,
                        played=s.played,
                    )
                    for i, s in enumerate(await tournaments.table(t))
                ],
                games=[
                    pb.TournamentGame(
                        round=g.round,
                        match_id=g.match_id,
                        subjects=list(g.entrants),
                        places=list(g.places),
                        status=g.status,
                    )
                    for g in await tournaments.games(t.tournament_id)
                ],
                your_seats=[
                    pb.TournamentSeat(match_id=m, seat=seat, seat_token=token)
                    for m, seat, token in seats
                ],
            )

        return await self._unary("GetTournament", context, body)

    async def ExportTournament(
        self, request: pb.ExportTournamentRequest, context: Any
    ) -> pb.ExportTournamentResponse:
        async def body(_: Caller) -> pb.ExportTournamentResponse:
            results = await self._tournaments().export(request.tournament_id)
            return pb.ExportTournamentResponse(results_json=results)

        return await self._unary("ExportTournament", context, body)
