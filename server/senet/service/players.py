"""Players as others see them: guest sign-up, a player's ratings and results, and
the leaderboards. Reads only; the writes are the settlements of
:mod:`senet.service.ratings` and the queue of :mod:`senet.service.matchmaking`.
"""

from __future__ import annotations

from dataclasses import dataclass

from senet.games import all_games, get_game
from senet.service import errors
from senet.service.identity import Identities, Identity
from senet.service.ratings import RatingValue, ResultRecord, pool_of
from senet.service.records import dumps, loads
from senet.store.players import PlayerStore

#: Recent results GetPlayer returns.
RECENT = 20
MAX_PAGE = 100
DEFAULT_PAGE = 20


@dataclass(frozen=True)
class GameStanding:
    """A rating of a player's: a game's (matchmaking) or one of its ladders'."""

    game_id: str
    rating: RatingValue
    #: The ladder (the game at one seat count) it belongs to; "": matchmaking.
    ladder_id: str = ""


@dataclass(frozen=True)
class PlayerCard:
    """What GetPlayer answers."""

    subject: str
    name: str
    standings: list[GameStanding]
    recent: list[ResultRecord]


@dataclass(frozen=True)
class BoardRow:
    rank: int
    subject: str
    name: str
    rating: RatingValue


@dataclass(frozen=True)
class BoardPage:
    rows: list[BoardRow]
    next_token: str
    total: int


class PlayerDirectory:
    """Guests, players and leaderboards over the player store."""

    def __init__(self, players: PlayerStore, identities: Identities) -> None:
        self.players = players
        self.identities = identities

    async def register_guest(self, display_name: str) -> tuple[str, Identity, int]:
        """A guest identity token (token, identity, expiry), remembered by name."""
        token, identity, expires = self.identities.issue_guest(display_name)
        await self.players.put_player(identity.subject, dumps({"name": identity.name}))
        return token, identity, expires

    async def player(self, subject: str) -> PlayerCard:
        """A player's ratings in every game played rated (the game's, then one per
        ladder seat count played), and recent results.

        Raises:
            PlayerNotFound: the subject never queued nor was rated.
        """
        if not subject or len(subject) > 160:
            raise errors.MalformedRequest("subject must be 1-160 characters")
        (doc,) = await self.players.players([subject])
        recent = [ResultRecord.from_json(r) for r in await self.players.recent(subject, RECENT)]
        standings = []
        for game in all_games():
            info = game.info
            ladders = [pool_of(info.id, n) for n in range(info.min_seats, info.max_seats + 1)]
            for pool in (info.id, *ladders):
                (rating,) = await self.players.ratings(pool, [subject])
                if rating is not None:
                    ladder_id = "" if pool == info.id else pool
                    standings.append(
                        GameStanding(info.id, RatingValue.from_json(rating), ladder_id)
                    )
        if doc is None and not standings:
            raise errors.PlayerNotFound(f"no player {subject!r}")
        name = str(loads(doc)["name"]) if doc is not None else _bot_name(subject)
        return PlayerCard(subject, name, standings, recent)

    async def leaderboard(
        self, game_id: str, page_size: int, page_token: str, seat_count: int = 0
    ) -> BoardPage:
        """One page of a game's leaderboard, best conservative rating first: its
        matchmaking board, or with ``seat_count`` its ladder's at that many seats.

        Raises:
            UnknownGameError: no such game.
            InvalidPageToken: a token this server did not hand out.
            MalformedRequest: a page size over 100, or a seat count the game
                is not played by.
        """
        info = get_game(game_id).info
        pool = game_id
        if seat_count:
            if not info.min_seats <= seat_count <= info.max_seats:
                raise errors.MalformedRequest(
                    f"{info.name} is played by {info.min_seats} to {info.max_seats}, "
                    f"not {seat_count}",
                    {"field": "seat_count"},
                )
            pool = pool_of(game_id, seat_count)
        if page_size > MAX_PAGE:
            raise errors.MalformedRequest(f"page_size must be at most {MAX_PAGE}")
        size = page_size or DEFAULT_PAGE
        offset = 0
        if page_token:
            if not page_token.isdigit() or len(page_token) > 9:
                raise errors.InvalidPageToken("page_token is not one this server returned")
            offset = int(page_token)
        ranked, total = await self.players.leaderboard(pool, offset, size)
        subjects = [subject for subject, _ in ranked]
        docs = await self.players.players(subjects)
        ratings = await self.players.ratings(pool, subjects)
        rows = [
            BoardRow(
                offset + i + 1,
                subject,
                str(loads(doc)["name"]) if doc is not None else _bot_name(subject),
                RatingValue.from_json(rating),
            )
            for i, (subject, doc, rating) in enumerate(zip(subjects, docs, ratings, strict=True))
        ]
        following = offset + len(rows)
        return BoardPage(rows, str(following) if following < total else "", total)


def _bot_name(subject: str) -> str:
    """A bot's name from its subject (``bot:greedy@0.2.0`` -> ``greedy bot``)."""
    if subject.startswith("bot:"):
        return subject[4:].split("@")[0] + " bot"
    return subject[:32]
