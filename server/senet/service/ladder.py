"""The hosted bot ladder: rated matches among registered bots, on every replica.

A ladder is one game at one seat count. Its matches run in *lanes*, as many as
its ``max_in_flight`` (capped by the operator's ``Settings.ladder_max_in_flight``);
each lane plays one match at a time, slot after slot. Every replica runs
:meth:`Ladders.run`, and each pass moves every lane on through
:class:`senet.service.slots.Slots`: the first replica to claim a slot's seats
decides them (:func:`senet.service.ladder_pairing.choose_seats`, by rating
uncertainty), the match is created once whoever creates it, and the slot's end
is counted once. So any number of replicas may schedule at once: one match per
slot, never two.

A finished match is settled into its bots' ratings by the matchmaking issue's
settlement (:func:`senet.service.ratings.settle`, keyed by the match: once,
whoever settles it), in the ladder's own rating pool: a bot has one rating per
game and seat count (its id, ``mykerinos-4``), not one for the game. A bot
whose decisions time out ``inactive_after`` times in a row in a ladder match is
benched: it rests ``Settings.ladder_bench_rest_s``, doubled for each bench in a row
(:func:`senet.service.remote_bots.rest_s`), and comes back once the rest is over
and its worker calls again (re-registering it brings it back at once).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace

from senet.games import get_game
from senet.games.errors import GameError
from senet.service import errors, metrics, ratings
from senet.service.access import Caller
from senet.service.bot_names import remote_strategy
from senet.service.cancellation import stop_if_cancelled
from senet.service.documents import known_fields
from senet.service.ladder_pairing import Candidate, choose_seats
from senet.service.logs import RateLimitedLog
from senet.service.matches import MatchService
from senet.service.ratings import RatingValue, SeatResult
from senet.service.records import SeatPlan, dumps, loads
from senet.service.remote_bots import RemoteBot, RemoteBots, is_served
from senet.service.settings import Settings
from senet.service.slots import Slots
from senet.store import StoreError
from senet.store.ladder import LadderStore
from senet.store.players import PlayerStore

log = logging.getLogger("senet.ladder")
LADDERS = "ladders"
#: Finished matches kept per ladder for its pages.
RECENT_KEPT = 200
DEFAULT_DECISION_MS = 2000
DEFAULT_INACTIVE_AFTER = 3


@dataclass(frozen=True)
class LadderSpec:
    """A ladder's settings (see LadderSpec in ladder_service.proto)."""

    game_id: str
    seat_count: int
    decision_ms: int = DEFAULT_DECISION_MS
    max_in_flight: int = 2
    inactive_after: int = DEFAULT_INACTIVE_AFTER
    #: The most lanes the ladder ever had: lanes beyond max_in_flight finish
    #: their match and start no other.
    lanes: int = 0
    started_at: float = 0.0

    @property
    def ladder_id(self) -> str:
        return ladder_id_of(self.game_id, self.seat_count)

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> LadderSpec:
        return cls(**known_fields(cls, loads(text)))


@dataclass(frozen=True)
class LadderMatch:
    """A ladder match, in flight or finished."""

    match_id: str
    bot_ids: tuple[str, ...]
    status: str
    created_at: float
    places: tuple[int, ...] = ()
    ended_at: float = 0.0

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> LadderMatch:
        data = loads(text)
        return cls(
            data["match_id"],
            tuple(data["bot_ids"]),
            data["status"],
            float(data["created_at"]),
            tuple(data.get("places", ())),
            float(data.get("ended_at", 0.0)),
        )


@dataclass(frozen=True)
class Standing:
    """One bot's line on a ladder."""

    rank: int
    bot: RemoteBot
    rating: RatingValue

    @property
    def interval(self) -> tuple[float, float]:
        """About 95% of the skill's belief: mu -/+ 2 sigma."""
        return self.rating.mu - 2 * self.rating.sigma, self.rating.mu + 2 * self.rating.sigma


@dataclass
class _Pass:
    """What one pass over a ladder reads once: its bots, their ratings, their lanes,
    and which bots a worker serves now (None: every bot counts as served)."""

    bots: dict[str, RemoteBot]
    ratings: dict[str, RatingValue]
    busy: dict[str, int] = field(default_factory=dict)
    served: Mapping[str, float] | None = None


def can_seat(bot: RemoteBot, served: Mapping[str, float] | None) -> bool:
    """Whether a ladder may seat ``bot``: active, not kept off ladders, and served
    by a worker now (``served``: :meth:`Ladders.served`; None counts every bot as
    served)."""
    return bot.active and not bot.off_ladders and is_served(bot.bot_id, served)


def ladder_id_of(game_id: str, seat_count: int) -> str:
    """A ladder's id, which is also its rating pool: a ladder rates its own seat count."""
    return ratings.pool_of(game_id, seat_count)


def slot_rng(slot: str) -> random.Random:
    """The generator of a slot's draw: the same on every replica."""
    return random.Random(int(hashlib.sha256(slot.encode()).hexdigest()[:16], 16))


class Ladders:
    """Every ladder of the server: settings, standings, and the scheduler."""

    def __init__(
        self,
        matches: MatchService,
        players: PlayerStore,
        store: LadderStore,
        remote: RemoteBots,
        settings: Settings,
    ) -> None:
        self.matches = matches
        self.players = players
        self.store = store
        self.remote = remote
        self.settings = settings
        self.slots = Slots(matches, store)
        #: Other passes run by the same loop (head-to-head tests, tournaments).
        self.passes: list[Callable[[], Awaitable[None]]] = [self.pass_once]
        #: A store outage fails every pass: said every few seconds, not each time.
        self._failed = RateLimitedLog(logger=log)

    # ------------------------------------------------------------ settings
    async def start(self, caller: Caller, spec: LadderSpec) -> LadderSpec:
        """Start a ladder or change its settings; the settings in force.

        Raises:
            AdminKeyRequired: the server has an admin key and the caller lacks it.
            UnknownGameError, InvalidOptionsError: no such game or seat count.
        """
        if not caller.is_admin:
            raise errors.AdminKeyRequired("starting a ladder needs the admin key")
        info = get_game(spec.game_id).info
        seats = spec.seat_count or info.min_seats
        if not info.min_seats <= seats <= info.max_seats:
            raise errors.MalformedRequest(
                f"{info.name} is played by {info.min_seats} to {info.max_seats}, not {seats}"
            )
        if not 0 <= spec.decision_ms <= 600_000:
            raise errors.MalformedRequest("decision_ms must be at most 600000")
        cap = self.settings.ladder_max_in_flight
        old = await self.store.get(LADDERS, ladder_id_of(spec.game_id, seats))
        before = LadderSpec.from_json(old) if old else None
        in_flight = min(spec.max_in_flight, cap)
        fixed = replace(
            spec,
            seat_count=seats,
            decision_ms=spec.decision_ms or DEFAULT_DECISION_MS,
            max_in_flight=in_flight,
            inactive_after=spec.inactive_after or DEFAULT_INACTIVE_AFTER,
            lanes=max(in_flight, before.lanes if before else 0),
            started_at=before.started_at if before else time.time(),
        )
        await self.store.put(LADDERS, fixed.ladder_id, fixed.to_json())
        return fixed

    async def spec(self, ladder_id: str) -> LadderSpec:
        """Raises: LadderNotFound."""
        if not ladder_id or len(ladder_id) > 80:
            raise errors.MalformedRequest("ladder_id must be 1-80 characters")
        doc = await self.store.get(LADDERS, ladder_id)
        if doc is None:
            raise errors.LadderNotFound(f"no ladder {ladder_id!r}")
        return LadderSpec.from_json(doc)

    async def specs(self) -> list[LadderSpec]:
        return [LadderSpec.from_json(d) for _, d in sorted((await self.store.all(LADDERS)).items())]

    # ------------------------------------------------------------ reading
    async def standings(
        self, spec: LadderSpec, bots: Sequence[RemoteBot] | None = None
    ) -> list[Standing]:
        """The game's registered bots (those kept off ladders aside), best
        conservative rating first (``bots``: the registered bots when the caller
        has read them already)."""
        if bots is None:
            bots = await self.remote.bots()
        bots = [b for b in bots if spec.game_id in b.games and not b.off_ladders]
        docs = await self.players.ratings(spec.ladder_id, [b.subject for b in bots])
        rated = [(b, RatingValue.from_json(d)) for b, d in zip(bots, docs, strict=True)]
        rated.sort(key=lambda pair: (-pair[1].conservative, pair[0].bot_id))
        return [Standing(i + 1, b, r) for i, (b, r) in enumerate(rated)]

    async def in_flight(self, ladder_id: str) -> list[LadderMatch]:
        docs = await self.store.all("inflight:" + ladder_id)
        return sorted((LadderMatch.from_json(d) for d in docs.values()), key=lambda m: m.created_at)

    async def recent(self, ladder_id: str, limit: int) -> list[LadderMatch]:
        return [
            LadderMatch.from_json(d) for d in await self.store.newest("recent:" + ladder_id, limit)
        ]

    async def played(self, ladder_id: str) -> int:
        return int(await self.store.read("played:" + ladder_id) or 0)

    # ------------------------------------------------------------ scheduling
    async def run(self) -> None:
        """Schedule, watch and settle every ladder until cancelled (every replica)."""
        while True:
            for one_pass in self.passes:
                try:
                    await one_pass()
                except (StoreError, errors.ServiceError, GameError) as exc:
                    self._failed.warn("ladder pass failed", error=str(exc))
            stop_if_cancelled()
            await asyncio.sleep(self.settings.ladder_interval_s)

    async def pass_once(self) -> None:
        """One pass over every lane of every ladder (which bots a worker serves is
        read once for them all)."""
        specs = await self.specs()
        served = await self.served() if specs else None
        for spec in specs:
            await self.pass_ladder(spec, served)

    async def pass_ladder(self, spec: LadderSpec, served: Mapping[str, float] | None) -> None:
        """One pass over every lane of ``spec``'s ladder (``served``: :meth:`served`)."""
        bots = {b.bot_id: b for b in await self.remote.bots() if spec.game_id in b.games}
        await self._bring_back(spec, bots, served)
        docs = await self.players.ratings(spec.ladder_id, [b.subject for b in bots.values()])
        ratings_of = {b: RatingValue.from_json(d) for b, d in zip(bots, docs, strict=True)}
        seen = _Pass(bots, ratings_of, served=served)
        for match in await self.in_flight(spec.ladder_id):
            for bot_id in match.bot_ids:
                seen.busy[bot_id] = seen.busy.get(bot_id, 0) + 1
        for lane in range(max(spec.lanes, spec.max_in_flight)):
            await self._lane(spec, lane, seen)

    async def served(self) -> dict[str, float] | None:
        """The bots one of whose workers called within ``ladder_presence_s``, with
        when it last did (None when the setting is 0: every active bot may be
        seated)."""
        return await self.remote.served(self.settings.ladder_presence_s)

    async def _bring_back(
        self, spec: LadderSpec, bots: dict[str, RemoteBot], served: Mapping[str, float] | None
    ) -> None:
        """Schedule again each benched bot of ``bots`` whose rest is over and whose
        worker called since (any, when the server does not ask for workers)."""
        now = time.time()
        for bot in list(bots.values()):
            seen = None if served is None else served.get(bot.bot_id, 0.0)
            if bot.may_come_back(now, seen):
                bots[bot.bot_id], back = await self.remote.bring_back(bot.bot_id)
                if back:
                    metrics.BOTS_BACK.labels(spec.ladder_id).inc()
                    log.info("benched bot back", extra={"bot": bot.bot_id, "benches": bot.benches})

    async def _lane(self, spec: LadderSpec, lane: int, seen: _Pass) -> None:
        pointer = f"lane:{spec.ladder_id}:{lane}"
        inflight = "inflight:" + spec.ladder_id

        def slot_of(seq: int) -> str:
            return f"ladder:{spec.ladder_id}:{lane}:{seq}"

        seq = await self.slots.position(pointer, slot_of, inflight)
        slot = slot_of(seq)
        match_id = await self.slots.match_of(slot)
        if match_id is None:
            plan = await self.slots.planned(slot)
            if plan is None:
                if lane >= spec.max_in_flight:
                    return
                seats = self._choose(spec, slot, seen)
                if seats is None:
                    return
                plan = await self.slots.claim(slot, dumps(seats))
            bot_ids = tuple(str(b) for b in loads(plan))
            match_id = await self.slots.start(
                slot,
                spec.game_id,
                [SeatPlan("bot", remote_strategy(b)) for b in bot_ids],
                spec.decision_ms,
                rated=True,
            )
            record = LadderMatch(match_id, bot_ids, "active", time.time())
            await self.store.put(inflight, slot, record.to_json())
            for bot_id in bot_ids:
                seen.busy[bot_id] = seen.busy.get(bot_id, 0) + 1
            return
        doc = await self.store.get(inflight, slot)
        if doc is None:
            if await self.slots.ended(slot):
                return  # its closer is moving the lane on (or the next pass does)
            # Its creator died before recording it: record it from the claimed seats.
            plan = await self.slots.planned(slot)
            seated = tuple(str(b) for b in loads(plan)) if plan is not None else ()
            doc = LadderMatch(match_id, seated, "active", time.time()).to_json()
            await self.store.put(inflight, slot, doc)
        record = LadderMatch.from_json(doc)
        result = await self.slots.result(match_id)
        if result.status == "active":
            await self._judge_timeouts(spec, record, seen)
            return
        if result.status == "finished":
            await self._judge_timeouts(spec, record, seen, finished=True)
            results = []
            for bot_id, place in zip(record.bot_ids, result.places, strict=True):
                subject, name = await self._rated_as(bot_id, seen)
                results.append(SeatResult(subject, place, name))
            settled = await ratings.settle(
                self.players, match_id, spec.game_id, results, spec.ladder_id
            )
            if settled == "conflict":
                return  # the next pass settles it
        # Listed and counted once, by whichever replica gets here first, before the
        # slot's end is claimed: one that dies in between leaves it to the next pass.
        ended = replace(record, status=result.status, places=result.places, ended_at=time.time())
        await self.store.push_once(
            "listed:" + slot,
            "recent:" + spec.ladder_id,
            ended.to_json(),
            RECENT_KEPT,
            counter="played:" + spec.ladder_id,
        )
        await self.slots.end(slot)
        await self.slots.position(pointer, slot_of, inflight)

    async def _rated_as(self, bot_id: str, seen: _Pass) -> tuple[str, str]:
        """The subject a ladder match's bot is rated under, and its name: a bot
        retired since the match was drawn, or no longer playing the game, too."""
        bot = seen.bots.get(bot_id)
        if bot is None:
            try:
                bot = await self.remote.bot(bot_id)
            except errors.BotNotFound:
                return f"bot:?/{bot_id}", ""
        return bot.subject, bot.name

    def _choose(self, spec: LadderSpec, slot: str, seen: _Pass) -> list[str] | None:
        candidates = [
            Candidate(
                b.bot_id,
                seen.ratings[b.bot_id].mu,
                seen.ratings[b.bot_id].sigma,
                seen.busy.get(b.bot_id, 0),
            )
            for b in seen.bots.values()
            if can_seat(b, seen.served)
        ]
        return choose_seats(candidates, spec.seat_count, slot_rng(slot))

    async def _judge_timeouts(
        self, spec: LadderSpec, record: LadderMatch, seen: _Pass, *, finished: bool = False
    ) -> None:
        """Bench each bot of ``record`` whose seat timed out too often in a row; once
        the match is ``finished``, clear the benches in a row of each bot not benched
        in it. Only matches begun after a bot's last rest ended judge it."""
        timeouts = await self.slots.timeouts_in_a_row(record.match_id)
        for seat, bot_id in enumerate(record.bot_ids):
            bot = seen.bots.get(bot_id)
            in_a_row = timeouts[seat] if seat < len(timeouts) else 0
            if bot is None or not bot.active or record.created_at < bot.benched_until:
                # A match begun before the bot's last rest ended judged it already:
                # its streak then is the one that bench punished.
                continue
            if in_a_row >= spec.inactive_after:
                note = f"{in_a_row} decisions in a row timed out (match {record.match_id})"
                rest = self.settings.ladder_bench_rest_s
                seen.bots[bot_id], benched = await self.remote.bench(bot_id, note, rest)
                if benched:
                    metrics.BOTS_BENCHED.labels(spec.ladder_id).inc()
                    log.info("bot benched", extra={"bot": bot_id, "why": note})
            elif finished and bot.benches:
                seen.bots[bot_id] = await self.remote.clear_benches(bot_id)
