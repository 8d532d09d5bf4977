"""Head-to-head tests: two bots play until a sequential test says which is stronger.

An author asks for bot A (a new version, say) against bot B; every replica plays
the test's games in ``parallel`` lanes, slot after slot, as the ladder does
(:mod:`senet.service.slots`: one match per slot whoever schedules it), with A's
seat alternating so that neither bot keeps the first move. Each finished game
adds A's score (1, 1/2 or 0 by places) to the test's results, counted once; the
test stops starting games once :func:`senet.service.sequential.verdict` decides,
or at ``max_games``. Head-to-head games are not rated: the ladder's ratings stay
a record of ladder play.

A verdict must come from the bots' play, not from a worker that stopped: a game
starts only while both bots' workers call (``Settings.ladder_presence_s``, as the
ladders seat bots), and a game that ends with a seat's last :data:`VOID_AFTER`
decisions or more timed out in a row is void: not counted (the clock, not the
bot, played them). Void games still count toward ``max_games``, so a test ends.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace

from senet.games import get_game
from senet.service import errors
from senet.service.access import Caller
from senet.service.bot_names import remote_strategy
from senet.service.documents import known_fields
from senet.service.identity import Identity
from senet.service.records import SeatPlan, dumps, loads
from senet.service.remote_bots import RemoteBots, is_served
from senet.service.sequential import Hypotheses, Score, Verdict, llr, verdict, wilson
from senet.service.settings import Settings
from senet.service.slots import Slots
from senet.store.ladder import LadderStore

TESTS = "h2h"
MAX_GAMES = 10_000
#: A game that ends with a seat's decisions timed out this many times in a row is void.
VOID_AFTER = 3


@dataclass(frozen=True)
class HeadToHead:
    """A test's settings and, once decided, its frozen verdict."""

    test_id: str
    game_id: str
    bot_a: str
    bot_b: str
    hypotheses: Hypotheses
    max_games: int
    decision_ms: int
    parallel: int
    created_at: float
    decided: Verdict = "running"

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> HeadToHead:
        data = loads(text)
        data["hypotheses"] = Hypotheses(**data["hypotheses"])
        return cls(**known_fields(cls, data))


@dataclass(frozen=True)
class TestReport:
    """Where a test stands: its verdict, score, interval and games."""

    test: HeadToHead
    verdict: Verdict
    score: Score
    interval: tuple[float, float]
    llr: float
    match_ids: list[str]
    void_games: int = 0
    waiting_for_workers: bool = False


def score_of_a(places: tuple[int, ...], a_seat: int) -> float:
    """A's score in a two-seat game from the places: 1 ahead, 1/2 level, 0 behind."""
    mine, theirs = places[a_seat], places[1 - a_seat]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _both_served(test: HeadToHead, served: Mapping[str, float] | None) -> bool:
    """Whether both bots' workers call (``served``: :meth:`RemoteBots.served`)."""
    return is_served(test.bot_a, served) and is_served(test.bot_b, served)


class HeadToHeads:
    """Every head-to-head test of the server, and the passes that play them."""

    def __init__(
        self, slots: Slots, store: LadderStore, remote: RemoteBots, settings: Settings
    ) -> None:
        self.slots = slots
        self.store = store
        self.remote = remote
        self.settings = settings

    async def start(
        self,
        caller: Caller,
        who: Identity | None,
        game_id: str,
        bot_a: str,
        bot_b: str,
        hypotheses: Hypotheses,
        max_games: int = 400,
        decision_ms: int = 2000,
        parallel: int = 2,
    ) -> HeadToHead:
        """Start a test of ``bot_a`` against ``bot_b``.

        Raises:
            MalformedRequest: bad settings, the same bot twice, a game not played
                two-handed or not registered for both bots.
            IdentityRequired: on a server with an admin key, a caller without
                it must show the identity that owns ``bot_a``.
            BotNotFound: either bot.
        """
        try:
            hypotheses.check()
        except ValueError as exc:
            raise errors.MalformedRequest(str(exc)) from None
        if not 1 <= max_games <= MAX_GAMES:
            raise errors.MalformedRequest(f"max_games must be 1-{MAX_GAMES}")
        if not 1 <= decision_ms <= 600_000:
            raise errors.MalformedRequest("decision_ms must be 1-600000")
        if bot_a == bot_b:
            raise errors.MalformedRequest("a bot is not tested against itself")
        info = get_game(game_id).info
        if not info.min_seats <= 2 <= info.max_seats:
            raise errors.MalformedRequest(f"{info.name} is not played by two")
        a, b = await self.remote.serving(bot_a), await self.remote.serving(bot_b)
        if game_id not in a.games or game_id not in b.games:
            raise errors.MalformedRequest(f"both bots must be registered for {game_id}")
        if not caller.is_admin:
            if who is None:
                raise errors.IdentityRequired("a head-to-head test needs the owner of bot_a")
            if who.subject != a.owner:
                raise errors.AdminKeyRequired("only bot_a's owner (or the admin) may test it")
        lanes = max(1, min(parallel, self.settings.ladder_max_in_flight))
        test = HeadToHead(
            secrets.token_hex(8),
            game_id,
            bot_a,
            bot_b,
            hypotheses,
            max_games,
            decision_ms,
            lanes,
            time.time(),
        )
        await self.store.put(TESTS, test.test_id, test.to_json())
        return test

    async def test(self, test_id: str) -> HeadToHead:
        """Raises: TestNotFound."""
        if not test_id or len(test_id) > 40:
            raise errors.MalformedRequest("test_id must be 1-40 characters")
        doc = await self.store.get(TESTS, test_id)
        if doc is None:
            raise errors.TestNotFound(f"no head-to-head test {test_id!r}")
        return HeadToHead.from_json(doc)

    async def _results(self, test_id: str) -> list[tuple[str, float]]:
        docs = await self.store.newest(f"h2h-results:{test_id}", MAX_GAMES + 100)
        return [(str(d["match_id"]), float(d["score"])) for d in map(loads, reversed(docs))]

    async def _voids(self, test_id: str) -> int:
        return len(await self.store.newest(f"h2h-void:{test_id}", MAX_GAMES + 100))

    async def report(self, test_id: str) -> TestReport:
        """The test's verdict (fixed once decided), score and interval, its void
        games, and whether it waits for a bot's worker."""
        test = await self.test(test_id)
        return await self._report(test, await self.remote.served(self.settings.ladder_presence_s))

    async def _report(self, test: HeadToHead, served: Mapping[str, float] | None) -> TestReport:
        """:meth:`report`, with which bots' workers call (``served``:
        :meth:`RemoteBots.served <senet.service.remote_bots.RemoteBots.served>`)."""
        test_id = test.test_id
        results = await self._results(test_id)
        voids = await self._voids(test_id)
        budget = test.max_games - voids  # void games use up the test's games
        score = Score()
        # Before any counted game, the voids alone may have used the whole budget.
        now: Verdict = verdict(score, test.hypotheses, budget)
        for _, points in results:
            score = score.add(points)
            if now == "running":
                # Decided by the first games (in the order they were counted) that
                # cross a bound: the games in flight then still count in the
                # score, but cannot undo the verdict.
                now = verdict(score, test.hypotheses, budget)
        return TestReport(
            test,
            now,
            score,
            wilson(score.points, score.games),
            llr(score, test.hypotheses),
            [m for m, _ in results],
            voids,
            now == "running" and not _both_served(test, served),
        )

    async def pass_once(self) -> None:
        """Move every running test on by one step per lane."""
        docs = await self.store.all(TESTS)
        served = await self.remote.served(self.settings.ladder_presence_s) if docs else None
        for doc in docs.values():
            test = HeadToHead.from_json(doc)
            report = await self._report(test, served)
            if report.verdict != "running" and test.decided == "running":
                test = replace(test, decided=report.verdict)
                await self.store.put(TESTS, test.test_id, test.to_json())
            flight = await self.store.all(f"h2h-flight:{test.test_id}")
            if test.decided != "running" and not flight:
                continue
            started = report.score.games + report.void_games + len(flight)
            for lane in range(test.parallel):
                await self._lane(test, lane, started, not report.waiting_for_workers)

    async def _lane(self, test: HeadToHead, lane: int, started: int, served: bool) -> None:
        """One step of a lane: start its next game (``served``: both bots' workers
        call), or record the game it plays once over."""
        pointer = f"h2h-lane:{test.test_id}:{lane}"
        flight = f"h2h-flight:{test.test_id}"

        def slot_of(seq: int) -> str:
            return f"h2h:{test.test_id}:{lane}:{seq}"

        seq = await self.slots.position(pointer, slot_of, flight)
        slot = slot_of(seq)
        match_id = await self.slots.match_of(slot)
        a_seat = (lane + seq) % 2
        if match_id is None:
            if test.decided != "running" or started >= test.max_games or not served:
                return
            seats = [test.bot_a, test.bot_b] if a_seat == 0 else [test.bot_b, test.bot_a]
            plans = [SeatPlan("bot", remote_strategy(b)) for b in seats]
            match_id = await self.slots.start(slot, test.game_id, plans, test.decision_ms)
            await self.store.put(flight, slot, match_id)
            return
        result = await self.slots.result(match_id)
        if result.status == "active":
            return
        # Recorded once, by whichever replica gets here first, before the slot's end
        # is claimed: one that dies in between leaves it to the next pass.
        if result.status == "finished":
            doc = dumps({"match_id": match_id, "score": score_of_a(result.places, a_seat)})
            void = max(await self.slots.timeouts_in_a_row(match_id), default=0) >= VOID_AFTER
            results = f"h2h-{'void' if void else 'results'}:{test.test_id}"
            await self.store.push_once("h2h-recorded:" + slot, results, doc, MAX_GAMES + 100)
        await self.slots.end(slot)
        await self.slots.position(pointer, slot_of, flight)
