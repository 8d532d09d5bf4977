"""Tournaments: rounds of hosted matches among bots and players, run by every replica.

A tournament is a game, a seat count, entrants (registered bots, and players
with identities) and a format: a round robin or a Swiss
(:mod:`senet.service.tournament_rounds` decides the groups, rotates the seats
and ranks). Each replica's pass moves every running tournament on: the current
round's groups are claimed once (:class:`senet.service.slots.Slots`: the first
replica's pairing stands), each game is created once, keyed by its slot, and
when every game of the round has ended the round's end is claimed once and the
next round is paired from the results. A player's seat is joined for them at
once with a key kept secret in the tournament, so the match never waits for a
join; the player gets the seat token from GetTournament (the same keyed join
made again) and plays, or the clock plays for them.
"""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
import time
from dataclasses import asdict, dataclass, replace
from typing import Literal

from senet.games import get_game
from senet.games.errors import GameError
from senet.service import errors
from senet.service.access import Caller
from senet.service.bot_names import remote_strategy
from senet.service.documents import known_fields
from senet.service.identity import Identity, check_display_name
from senet.service.matches import MatchService
from senet.service.records import SeatPlan, dumps, loads
from senet.service.remote_bots import RemoteBots
from senet.service.slots import Slots
from senet.service.tournament_rounds import (
    Game,
    Standing,
    round_robin,
    standings,
    swiss_round,
    swiss_rounds,
)
from senet.store.ladder import LadderStore

log = logging.getLogger("senet.tournaments")
TOURNAMENTS = "tournaments"
Format = Literal["round_robin", "swiss"]
MAX_ENTRANTS = 256
MAX_ROUNDS = 50
#: A round robin plays every group once: past this many games, a Swiss is the format.
MAX_ROUND_ROBIN_GAMES = 2000


@dataclass(frozen=True)
class Entrant:
    """A registered bot (``bot_id`` set) or a player (its subject)."""

    subject: str
    name: str
    bot_id: str = ""


@dataclass(frozen=True)
class Tournament:
    tournament_id: str
    name: str
    game_id: str
    seat_count: int
    format: Format
    rounds: int
    entrants: tuple[Entrant, ...]
    decision_ms: int
    created_at: float
    #: Players' seats are joined with keys minted from it (never shown).
    secret: str
    status: str = "running"

    @property
    def subjects(self) -> list[str]:
        return [e.subject for e in self.entrants]

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Tournament:
        data = loads(text)
        data["entrants"] = tuple(Entrant(**e) for e in data["entrants"])
        return cls(**known_fields(cls, data))


@dataclass(frozen=True)
class TournamentGame:
    round: int
    index: int
    match_id: str
    entrants: tuple[str, ...]
    places: tuple[int, ...]
    status: str

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> TournamentGame:
        data = loads(text)
        return cls(
            int(data["round"]),
            int(data["index"]),
            data["match_id"],
            tuple(data["entrants"]),
            tuple(data["places"]),
            data["status"],
        )


class Tournaments:
    """Every tournament of the server, and the passes that run them."""

    def __init__(
        self, matches: MatchService, slots: Slots, store: LadderStore, remote: RemoteBots
    ) -> None:
        self.matches = matches
        self.slots = slots
        self.store = store
        self.remote = remote

    async def create(
        self,
        caller: Caller,
        name: str,
        game_id: str,
        seat_count: int,
        fmt: Format,
        rounds: int,
        entrants: list[tuple[str, str, str]],
        decision_ms: int = 5000,
    ) -> Tournament:
        """Create a tournament; ``entrants`` are (bot id, subject, display name),
        each a bot (its id) or a player (subject and name).

        Raises:
            AdminKeyRequired: the server has an admin key and the caller lacks it.
            MalformedRequest: bad settings or entrants. BotNotFound: a bot.
            UnknownGameError: no such game.
        """
        if not caller.is_admin:
            raise errors.AdminKeyRequired("creating a tournament needs the admin key")
        info = get_game(game_id).info
        seats = seat_count or max(2, info.min_seats)
        if not info.min_seats <= seats <= info.max_seats:
            raise errors.MalformedRequest(f"{info.name} is not played by {seats}")
        if len(name) > 64:
            raise errors.MalformedRequest("name must be at most 64 characters")
        if not seats <= len(entrants) <= MAX_ENTRANTS:
            raise errors.MalformedRequest(f"a tournament needs {seats}-{MAX_ENTRANTS} entrants")
        if not 1 <= decision_ms <= 600_000:
            raise errors.MalformedRequest("decision_ms must be 1-600000")
        field: list[Entrant] = []
        for bot_id, subject, display_name in entrants:
            if bot_id:
                bot = await self.remote.serving(bot_id)
                if game_id not in bot.games:
                    raise errors.MalformedRequest(f"bot {bot.name} is not registered for {game_id}")
                field.append(Entrant(bot.subject, bot.name, bot.bot_id))
            elif subject and len(subject) <= 160 and not subject.startswith("bot:"):
                field.append(Entrant(subject, check_display_name(display_name or subject[:32])))
            else:
                raise errors.MalformedRequest("each entrant is a bot_id, or a player's subject")
        if len({e.subject for e in field}) != len(field):
            raise errors.MalformedRequest("an entrant is named twice")
        subjects = [e.subject for e in field]
        if fmt == "round_robin" and math.comb(len(field), seats) > MAX_ROUND_ROBIN_GAMES:
            raise errors.MalformedRequest(
                f"a round robin of {len(field)} entrants at {seats} seats is over "
                f"{MAX_ROUND_ROBIN_GAMES} games: make it a Swiss"
            )
        if fmt == "round_robin":
            rounds = len(round_robin(subjects, seats))
        elif not rounds:
            rounds = swiss_rounds(len(field), seats)
        if not 1 <= rounds <= MAX_ROUNDS:
            raise errors.MalformedRequest(f"rounds must be 1-{MAX_ROUNDS}")
        tournament = Tournament(
            secrets.token_hex(8),
            name or f"{info.name} tournament",
            game_id,
            seats,
            fmt,
            rounds,
            tuple(field),
            decision_ms,
            time.time(),
            secrets.token_hex(16),
        )
        await self.store.put(TOURNAMENTS, tournament.tournament_id, tournament.to_json())
        return tournament

    async def tournament(self, tournament_id: str) -> Tournament:
        """Raises: TournamentNotFound."""
        if not tournament_id or len(tournament_id) > 40:
            raise errors.MalformedRequest("tournament_id must be 1-40 characters")
        doc = await self.store.get(TOURNAMENTS, tournament_id)
        if doc is None:
            raise errors.TournamentNotFound(f"no tournament {tournament_id!r}")
        return Tournament.from_json(doc)

    async def games(self, tournament_id: str) -> list[TournamentGame]:
        docs = await self.store.all(f"tour-games:{tournament_id}")
        return sorted(
            (TournamentGame.from_json(d) for d in docs.values()), key=lambda g: (g.round, g.index)
        )

    async def byes(self, tournament_id: str) -> list[str]:
        docs = await self.store.all(f"tour-byes:{tournament_id}")
        return [str(s) for _, doc in sorted(docs.items()) for s in loads(doc)]

    async def round_now(self, tournament_id: str) -> int:
        """The round being played (1-based; past the last once finished)."""
        return await self._rounds_ended(tournament_id) + 1

    async def _rounds_ended(self, tournament_id: str) -> int:
        """How many rounds have ended: the first round whose slot has not ended,
        counted from the stored hint, which this moves on past those that have."""
        return await self.slots.position(
            f"tour-round:{tournament_id}", lambda seq: f"tour:{tournament_id}:{seq + 1}"
        )

    async def table(self, tournament: Tournament) -> list[Standing]:
        finished = [
            Game(g.entrants, g.places)
            for g in await self.games(tournament.tournament_id)
            if g.status == "finished"
        ]
        return standings(tournament.subjects, finished, await self.byes(tournament.tournament_id))

    async def your_seats(self, tournament: Tournament, who: Identity) -> list[tuple[str, int, str]]:
        """The caller's seats in games in flight: (match id, seat, seat token)."""
        found = []
        for game in await self.games(tournament.tournament_id):
            if game.status != "active" or who.subject not in game.entrants:
                continue
            seat = game.entrants.index(who.subject)
            token = await self._join(tournament, game.match_id, seat, who.subject)
            if token:
                found.append((game.match_id, seat, token))
        return found

    async def export(self, tournament_id: str) -> str:
        """Every game, bye and standing of the tournament as one JSON document."""
        tournament = await self.tournament(tournament_id)
        public = asdict(tournament)
        del public["secret"]
        return dumps(
            {
                "tournament": public,
                "games": [asdict(g) for g in await self.games(tournament_id)],
                "byes": await self.byes(tournament_id),
                "standings": [asdict(s) for s in await self.table(tournament)],
            }
        )

    # ------------------------------------------------------------ running
    async def pass_once(self) -> None:
        """Move every running tournament on."""
        for doc in (await self.store.all(TOURNAMENTS)).values():
            tournament = Tournament.from_json(doc)
            if tournament.status == "running":
                await self._step(tournament)

    async def _step(self, t: Tournament) -> None:
        r = await self.round_now(t.tournament_id)
        if r > t.rounds:
            finished = replace(t, status="finished")
            await self.store.put(TOURNAMENTS, t.tournament_id, finished.to_json())
            return
        round_slot = f"tour:{t.tournament_id}:{r}"
        plan = await self.slots.planned(round_slot)
        if plan is None:
            groups, resting = await self._pair(t, r)
            plan = await self.slots.claim(round_slot, dumps({"groups": groups, "byes": resting}))
        planned = loads(plan)
        games = f"tour-games:{t.tournament_id}"
        done = True
        for index, group in enumerate(planned["groups"]):
            key = f"{r:03d}:{index:03d}"
            old = await self.store.get(games, key)
            if old is not None and TournamentGame.from_json(old).status != "active":
                continue
            entrants = tuple(str(s) for s in group)
            match_id = await self._start(t, f"{round_slot}:{index}", entrants)
            result = await self.slots.result(match_id)
            game = TournamentGame(r, index, match_id, entrants, result.places, result.status)
            if old is None or TournamentGame.from_json(old) != game:
                await self.store.put(games, key, game.to_json())
            done = done and result.status != "active"
        if done:
            # The byes first: a round that has ended has them, whoever ended it.
            await self.store.put(f"tour-byes:{t.tournament_id}", f"{r:03d}", dumps(planned["byes"]))
            await self.slots.end(round_slot)
            await self._rounds_ended(t.tournament_id)  # moves the stored round on

    async def _pair(self, t: Tournament, r: int) -> tuple[list[list[str]], list[str]]:
        if t.format == "round_robin":
            groups = round_robin(t.subjects, t.seat_count)[r - 1]
            seated = {s for g in groups for s in g}
            return [list(g) for g in groups], [s for s in t.subjects if s not in seated]
        finished = [
            Game(g.entrants, g.places)
            for g in await self.games(t.tournament_id)
            if g.status == "finished"
        ]
        groups, resting = swiss_round(
            t.subjects, finished, await self.byes(t.tournament_id), t.seat_count
        )
        return [list(g) for g in groups], resting

    async def _start(self, t: Tournament, slot: str, entrants: tuple[str, ...]) -> str:
        by_subject = {e.subject: e for e in t.entrants}
        plans = [
            SeatPlan("bot", remote_strategy(by_subject[s].bot_id))
            if by_subject[s].bot_id
            else SeatPlan("open")
            for s in entrants
        ]
        match_id = await self.slots.start(slot, t.game_id, plans, t.decision_ms)
        for seat, subject in enumerate(entrants):
            if not by_subject[subject].bot_id:
                await self._join(t, match_id, seat, subject)
        return match_id

    async def _join(self, t: Tournament, match_id: str, seat: int, subject: str) -> str:
        """``subject``'s seat joined with its secret key (the same token each time);
        "" once the match no longer takes it."""
        key = hashlib.sha256(f"{t.secret}:{match_id}:{seat}".encode()).hexdigest()[:40]
        name = next((e.name for e in t.entrants if e.subject == subject), "player")
        try:
            _, token, _ = await self.matches.join(
                Caller(is_admin=True), match_id, seat, name, request_id="t" + key, subject=subject
            )
        except (errors.ServiceError, GameError) as exc:
            log.info("tournament seat not joined", extra={"error": str(exc)})
            return ""
        return token
