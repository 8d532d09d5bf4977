"""The matchmaking queue: tickets in, matches out, on any replica.

Tickets live in the player store (:mod:`senet.store.players`), so any replica
accepts, serves and matches them, and a replica's death loses none. Every
replica runs :meth:`Matchmaker.run`: a pass groups the queued tickets
(:func:`senet.service.tickets.group_tickets`), then for each group creates the
match (keyed by the group, so two replicas placing the same group make one
match) and claims the tickets, writing the match's record, in one atomic step;
a group of which any ticket was placed meanwhile is given up, and its match,
which nobody joins, expires.
Each player's seat is kept for them (nobody else may join it), and joined with
the ticket's secret key, so each player's stream gets the same seat token again
from that key (:meth:`Matchmaker.follow`). A ticket that adds entropy to the seed
(``add_entropy``) has its seat joined when the player sends it, after the stream
has shown the match's seed commitment; every other seat is joined at once, and the
match starts when the last is.

The same pass settles the queued matches that ended (ratings, once; see
:mod:`senet.service.ratings`), frees the players' queue locks, expires tickets
nobody follows any more, and gives up the seats of matched players who never
came for their seat token (no-shows): the match's leave policy plays those seats,
so the other players are not kept waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import asdict, dataclass, replace

from senet.games import get_game
from senet.games.errors import GameError, InvalidOptionsError
from senet.service import errors, ratings
from senet.service.cancellation import stop_if_cancelled
from senet.service.clocks import TimeControl
from senet.service.creation import check_entropy
from senet.service.identity import Identity, bot_subject
from senet.service.logs import RateLimitedLog
from senet.service.matches import Caller, MatchService
from senet.service.ratings import RatingValue, SeatResult
from senet.service.records import SeatPlan, dumps, loads
from senet.service.settings import Settings
from senet.service.tickets import Group, Ticket, compatible_counts, group_tickets
from senet.store import MatchNotFound, StoreError
from senet.store.base import now_ms
from senet.store.players import Claim, PlayerStore, TicketWrite

log = logging.getLogger("senet.matchmaking")

#: Queued tickets one pass reads (the oldest first).
SCAN_LIMIT = 5000
#: Tickets and queued matches one sweep handles.
SWEEP_LIMIT = 500
#: How long matched tickets are kept for their players to collect the seat.
MATCHED_RETAIN_S = 3600
#: How often a following stream reports the wait when nothing else changed.
REPORT_EVERY_S = 1.0
#: How long after its no-show deadline a queued match's seats are checked (each
#: sweep reads their tickets; later, every player has come or been given up).
NO_SHOW_WINDOW_MS = 60_000
#: Groups one pass places at once (each a few store round trips).
PLACING_AT_ONCE = 16


@dataclass(frozen=True)
class TicketRequest:
    """What a player asks to be matched for (FindMatch's ticket)."""

    game_id: str
    min_seats: int = 0
    max_seats: int = 0
    options: Mapping[str, object] | None = None
    rated: bool = False
    #: Seconds before bots fill empty seats; None: never.
    bot_fill_after_s: float | None = None
    #: The player adds entropy to the seed (TicketSpec.add_entropy).
    add_entropy: bool = False


@dataclass(frozen=True)
class Progress:
    """One report of a followed ticket."""

    ticket_id: str
    stage: str  # "queued", "players_found", "awaiting_entropy" or "matched"
    waited_s: float
    players_found: int
    rated: bool
    match_id: str = ""
    seat: int = -1
    seat_token: str = ""
    seed_commitment: str = ""


@dataclass(frozen=True)
class QueuedSeat:
    """A seat of a queued match: its player (or bot) and, for players, the ticket."""

    subject: str
    ticket_id: str = ""
    lock: str = ""


@dataclass(frozen=True)
class QueuedMatch:
    """A match made from tickets, remembered until it ends and is settled."""

    game_id: str
    rated: bool
    seats: tuple[QueuedSeat, ...]
    #: When it was made (Unix ms; 0: unknown): no-shows are looked for a while after.
    created_ms: int = 0

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> QueuedMatch:
        data = loads(text)
        seats = tuple(QueuedSeat(**s) for s in data["seats"])
        return cls(data["game_id"], bool(data["rated"]), seats, int(data.get("created_ms", 0)))


def seat_counts(request: TicketRequest) -> tuple[tuple[int, ...], dict[str, object]]:
    """The seat counts a ticket accepts that its options allow, and the options
    normalized.

    Raises:
        UnknownGameError, InvalidOptionsError: no such game, or no accepted
            seat count with these options.
    """
    game = get_game(request.game_id)
    info = game.info
    low = request.min_seats or info.min_seats
    high = request.max_seats or info.max_seats
    if low > high:
        raise InvalidOptionsError(f"min_seats {low} is more than max_seats {high}")
    counts: list[int] = []
    normalized: dict[str, object] = {}
    last_error: GameError | None = None
    for count in range(max(low, info.min_seats), min(high, info.max_seats) + 1):
        try:
            normalized = dict(game.normalize_options(count, request.options))
        except InvalidOptionsError as exc:
            last_error = exc
            continue
        counts.append(count)
    if not counts:
        if last_error is not None:
            raise last_error
        raise InvalidOptionsError(
            f"{info.name} is played by {info.min_seats} to {info.max_seats} players, "
            f"not {low}-{high}"
        )
    return tuple(counts), normalized


class Matchmaker:
    """The queue of one replica over the shared player store."""

    def __init__(self, service: MatchService, players: PlayerStore, settings: Settings) -> None:
        self.service = service
        self.players = players
        self.settings = settings
        #: A store outage fails every pass: said every few seconds, not each time.
        self._failed = RateLimitedLog(logger=log)
        #: Queued tickets per bucket at this replica's last pass.
        self._found: dict[str, int] = {}
        #: The tickets this replica's last pass found queued (and did not place).
        self._queued_ids: frozenset[str] = frozenset()
        #: The bell of each ticket a stream follows on this replica: rung after
        #: every pass, and at once for the tickets a pass places.
        self._bells: dict[str, asyncio.Event] = {}
        #: Set when the replica drains: streams end with DRAINING and their tickets
        #: stay queued, for the players to resume on another replica.
        self.draining = False

    # ------------------------------------------------------------- tickets
    async def enqueue(self, who: Identity, request: TicketRequest) -> Ticket:
        """Queue a new ticket.

        Raises:
            AlreadyQueued: the player has a ticket or a queued match of this game.
            UnknownGameError, InvalidOptionsError: see :func:`seat_counts`.
        """
        counts, options = seat_counts(request)
        (rating_doc,) = await self.players.ratings(request.game_id, [who.subject])
        fill = request.bot_fill_after_s
        now = now_ms()
        ticket = Ticket(
            ticket_id="tk_" + secrets.token_urlsafe(18),
            subject=who.subject,
            name=who.name or who.subject[:32],
            game_id=request.game_id,
            seat_counts=counts,
            options=options,
            rated=request.rated,
            bot_fill_after_ms=None if fill is None else int(fill * 1000),
            rating=RatingValue.from_json(rating_doc).mu,
            created_ms=now,
            secret=secrets.token_urlsafe(24),
            add_entropy=request.add_entropy,
        )
        await self.players.put_player(who.subject, dumps({"name": ticket.name}))
        holder = await self.players.enqueue(
            TicketWrite(
                ticket.ticket_id,
                ticket.lock,
                ticket.to_json(),
                ticket.rating,
                now,
                now + int(self.settings.ticket_ttl_s * 1000),
            )
        )
        if holder != ticket.ticket_id:
            raise errors.AlreadyQueued(
                f"you already have a ticket or a queued match of {request.game_id}",
                {"ticketId": holder},
            )
        return ticket

    async def resume(self, who: Identity, ticket_id: str) -> Ticket:
        """The caller's ticket ``ticket_id``.

        Raises:
            TicketNotFound: unknown, expired or cancelled.
            NotYourTicket: another player's ticket.
        """
        doc = await self.players.ticket(ticket_id) if len(ticket_id) <= 64 else None
        if doc is None:
            raise errors.TicketNotFound("no such ticket (it expired or was cancelled)")
        ticket = Ticket.from_json(doc)
        if not secrets.compare_digest(ticket.subject, who.subject):
            raise errors.NotYourTicket("that ticket belongs to another player")
        return ticket

    async def follow(self, ticket: Ticket, entropy: str = "") -> AsyncIterator[Progress]:
        """Report a ticket's progress until it is matched (the last report carries
        the seat token). Closing the iterator before then cancels the ticket.

        A ticket that adds entropy ends instead with an ``awaiting_entropy`` report
        (the match and its seed commitment) until its seat is taken: ``entropy``,
        given when the player resumes it after that report, takes it.

        The stream reads its ticket from the store only when this replica's last
        pass over the queue no longer found it queued (so a thousand waiting
        streams cost the store nothing between passes), and pushes back its expiry
        a few times per TTL.

        Raises:
            MalformedRequest: ``entropy`` for a ticket that does not add it, or
                before its match is made (the server must commit to its seed
                before it learns the player's entropy); or entropy that is not
                0-64 characters of ``[A-Za-z0-9_-]``.
            SeatGivenUp: the ticket's seat was given up (its player a no-show).
        """
        ticket_id = ticket.ticket_id
        last: tuple[str, int] | None = None
        reported = touched = 0.0
        touch_every = self.settings.ticket_ttl_s / 4
        done = False
        bell = self._bells.setdefault(ticket_id, asyncio.Event())
        try:
            while True:
                bell.clear()
                if self.draining:
                    raise errors.Draining("server is shutting down; resume the ticket elsewhere")
                if ticket_id not in self._queued_ids:
                    doc = await self.players.ticket(ticket_id)
                    if doc is None:
                        raise errors.TicketNotFound("the ticket expired")
                    ticket = Ticket.from_json(doc)
                now = now_ms()
                _check_entropy(ticket, entropy)
                if ticket.left:
                    raise errors.SeatGivenUp(
                        "this ticket's seat was given up: its player did not collect it, "
                        "or send the entropy, within the no-show time, and the match went "
                        "on without them",
                        {"matchId": ticket.match_id, "seat": ticket.seat},
                    )
                if ticket.state == "matched":
                    if ticket.add_entropy and not entropy:
                        commitment = await self._waiting_for_entropy(ticket)
                        if commitment is not None:
                            done = True
                            yield self._progress(
                                ticket, now, "awaiting_entropy", commitment=commitment
                            )
                            return
                    token, commitment = await self._seat_token(ticket, entropy)
                    if not ticket.delivered:
                        await self.players.update_ticket(
                            ticket_id, replace(ticket, delivered=True).to_json()
                        )
                    done = True
                    yield self._progress(ticket, now, "matched", token, commitment=commitment)
                    return
                if time.monotonic() - touched >= touch_every:
                    touched = time.monotonic()
                    await self.players.touch(
                        ticket_id, now + int(self.settings.ticket_ttl_s * 1000)
                    )
                found = self._found.get(ticket.bucket, 1)
                stage = "players_found" if found > 1 else "queued"
                if (stage, found) != last or time.monotonic() - reported >= REPORT_EVERY_S:
                    last, reported = (stage, found), time.monotonic()
                    yield self._progress(ticket, now, stage, "", found)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bell.wait(), self.settings.match_interval_s * 2)
        except (asyncio.CancelledError, GeneratorExit):
            # The player closed the stream: that cancels the ticket. (An error of
            # this replica or its store does not: the player resumes the ticket.)
            if not done and not self.draining:
                await asyncio.shield(self._cancel_quietly(ticket_id))
            raise
        finally:
            if self._bells.get(ticket_id) is bell:
                del self._bells[ticket_id]

    def wake(self, ticket_ids: Iterable[str] | None = None) -> None:
        """Wake the streams following these tickets on this replica (None: all of
        them, after a pass or to see a drain)."""
        if ticket_ids is None:
            bells: Iterable[asyncio.Event] = list(self._bells.values())
        else:
            bells = [b for b in map(self._bells.get, ticket_ids) if b is not None]
        for bell in bells:
            bell.set()

    async def _cancel_quietly(self, ticket_id: str) -> None:
        try:
            await self.players.cancel(ticket_id)
        except StoreError:
            log.warning("could not cancel a ticket; it will expire", extra={"ticket": ticket_id})

    def _progress(
        self,
        ticket: Ticket,
        now: int,
        stage: str,
        token: str = "",
        found: int = 0,
        *,
        commitment: str = "",
    ) -> Progress:
        return Progress(
            ticket.ticket_id,
            stage,
            ticket.waited_ms(now) / 1000,
            found,
            ticket.rated,
            ticket.match_id,
            ticket.seat,
            token,
            commitment,
        )

    async def _seat_token(self, ticket: Ticket, entropy: str = "") -> tuple[str, str]:
        """The seat token of a matched ticket (its keyed join, made again: the first
        join's entropy stands) and the match's seed commitment."""
        _, token, summary = await self.service.join(
            Caller(is_admin=True),
            ticket.match_id,
            ticket.seat,
            ticket.name,
            request_id=_join_key(ticket),
            entropy=entropy,
            subject=ticket.subject,
            keeper=True,
        )
        return token, summary.commitment

    async def _waiting_for_entropy(self, ticket: Ticket) -> str | None:
        """The seed commitment of a matched ticket's match while its seat waits for
        the player's entropy; None once the seat is taken (the player sent it, or
        the seat was given up as a no-show's)."""
        summary = (await self.service.get(Caller(), ticket.match_id)).summary
        return None if summary.seats[ticket.seat].claimed else summary.commitment

    # ------------------------------------------------------------ matching
    async def run(self) -> None:
        """Match, settle and sweep until cancelled (every replica runs this)."""
        settled_at = 0.0
        while True:
            try:
                await self.match_once()
                if time.monotonic() - settled_at >= self.settings.settle_interval_s:
                    settled_at = time.monotonic()
                    await self.sweep_once()
            except StoreError as exc:
                self._failed.warn("matchmaking pass failed", error=str(exc))
            except Exception:  # a bug must not stop this replica's queue for good
                log.exception("matchmaking pass failed")
            stop_if_cancelled()
            await asyncio.sleep(self.settings.match_interval_s)

    async def match_once(self) -> int:
        """One pass over the queue; the number of matches made."""
        tickets = [Ticket.from_json(doc) for doc in await self.players.queued(SCAN_LIMIT)]
        groups = group_tickets(tickets, now_ms())
        # Replicas grouping the same queue place its groups in different orders, so
        # that they mostly make different matches instead of racing for the same.
        random.shuffle(groups)
        limit = asyncio.Semaphore(PLACING_AT_ONCE)

        async def placed(group: Group) -> bool:
            async with limit:
                return await self.place(group)

        outcomes = await asyncio.gather(*(placed(g) for g in groups))
        made = sum(outcomes)
        placed_ids = {
            t.ticket_id for g, ok in zip(groups, outcomes, strict=True) if ok for t in g.tickets
        }
        self._queued_ids = frozenset(t.ticket_id for t in tickets) - placed_ids
        self._found = compatible_counts(tickets)
        self.wake()
        return made

    def time_control(self) -> TimeControl | None:
        """A queued match's clock: its players chose no opponent and may not wait
        for one who walked away, so every decision has a deadline (the server
        plays the seat's move past it, and after a few in a row hands the seat
        to a bot); None when the operator turned it off."""
        decision_ms = round(self.settings.queue_decision_s * 1000)
        if decision_ms <= 0:
            return None
        return TimeControl(
            decision_ms=decision_ms,
            timeout_policy="bot_move",
            handover_after=self.settings.queue_handover_after,
            handover_strategy=self.settings.bot_fill_strategy,
        )

    async def place(self, group: Group) -> bool:
        """Make the group's match and claim its tickets; False when another pass
        placed one of them first (the match made here then expires unjoined)."""
        first = group.tickets[0]
        strategy = self.settings.bot_fill_strategy
        plans = [SeatPlan("open", name=t.name, kept=True) for t in group.tickets]
        plans += [SeatPlan("bot", strategy)] * group.bots
        digest = hashlib.sha256(group.key.encode()).hexdigest()[:32]
        snapshot = await self.service.create_match(
            Caller(is_admin=True),
            first.game_id,
            first.options,
            plans,
            None,
            time_control=self.time_control(),
            request_id=f"queue-{digest}",
            rated=first.rated,
        )
        match_id = snapshot.summary.match_id
        bot = bot_subject(strategy, ratings.strategy_version(strategy))
        seats = tuple(QueuedSeat(t.subject, t.ticket_id, t.lock) for t in group.tickets) + tuple(
            QueuedSeat(bot) for _ in range(group.bots)
        )
        now = now_ms()
        record = QueuedMatch(first.game_id, first.rated, seats, now)
        matched = tuple(t.matched(match_id, seat, now) for seat, t in enumerate(group.tickets))
        claimed = await self.players.claim(
            Claim(
                tuple(t.ticket_id for t in matched),
                tuple(t.to_json() for t in matched),
                now + MATCHED_RETAIN_S * 1000,
                match_id,
                record.to_json(),
            )
        )
        if not claimed:
            # Another pass placed one of the tickets first. If it placed this same
            # group, it made this same match and wrote its record; otherwise the
            # match made here is nobody's, and expires unjoined.
            return False
        for ticket in matched:
            if ticket.add_entropy:
                continue  # joined when the player sends the entropy
            try:
                await self._seat_token(ticket)
            except (errors.ServiceError, GameError, StoreError) as exc:
                # The player's stream joins the seat with the same key later.
                log.warning("could not join a matched seat", extra={"error": str(exc)})
        # The players' streams on this replica hand their seats over now, not
        # when the whole pass is done.
        self._queued_ids = self._queued_ids - {t.ticket_id for t in matched}
        self.wake(t.ticket_id for t in matched)
        return True

    # ------------------------------------------------------------ sweeping
    async def sweep_once(self) -> None:
        """Expire abandoned tickets, then settle, release or check every queued match."""
        await self.players.expire(now_ms(), SWEEP_LIMIT)
        for match_id, doc in await self.players.queued_matches(SWEEP_LIMIT):
            try:
                await self.check_match(match_id, QueuedMatch.from_json(doc))
            except StoreError:
                raise  # the store is out: the next sweep tries them all again
            except Exception:  # one unreadable match must not hold up the others
                log.exception("a queued match could not be checked", extra={"match_id": match_id})

    async def check_match(self, match_id: str, record: QueuedMatch) -> None:
        """Settle and release a queued match that ended; give up no-shows' seats."""
        locks = [(s.lock, s.ticket_id) for s in record.seats if s.ticket_id]
        try:
            snapshot = await self.service.get(Caller(), match_id)
        except MatchNotFound:
            await self.players.release(match_id, locks)
            return
        summary = snapshot.summary
        if summary.status == "active":
            due = record.created_ms + int(self.settings.no_show_s * 1000)
            if record.created_ms == 0 or due <= now_ms() <= due + NO_SHOW_WINDOW_MS:
                await self._give_up_no_shows(match_id, record)
            return
        if summary.status == "finished" and record.rated:
            seats = [
                SeatResult(seat.subject, summary.places[i], summary.seats[i].display_name)
                for i, seat in enumerate(record.seats)
            ]
            outcome = await ratings.settle(self.players, match_id, record.game_id, seats)
            if outcome == "conflict":
                return  # the next sweep tries again
        await self.players.release(match_id, locks)

    async def _give_up_no_shows(self, match_id: str, record: QueuedMatch) -> None:
        deadline = now_ms() - int(self.settings.no_show_s * 1000)
        for seat in record.seats:
            if not seat.ticket_id:
                continue
            doc = await self.players.ticket(seat.ticket_id)
            if doc is None:
                continue
            ticket = Ticket.from_json(doc)
            if ticket.delivered or ticket.left or ticket.matched_ms > deadline:
                continue
            try:
                token, _ = await self._seat_token(ticket)
                await self.service.leave(Caller(token=token), match_id)
            except (errors.ServiceError, GameError) as exc:
                log.info("no-show seat not left", extra={"error": str(exc)})
            await self.players.update_ticket(ticket.ticket_id, replace(ticket, left=True).to_json())


def _check_entropy(ticket: Ticket, entropy: str) -> None:
    """Refuse entropy a ticket cannot use (see :meth:`Matchmaker.follow`)."""
    if not entropy:
        return
    check_entropy(entropy)
    if not ticket.add_entropy:
        raise errors.MalformedRequest(
            "this ticket did not ask to add entropy (TicketSpec.add_entropy): its seat "
            "is taken without it",
            {"field": "entropy"},
        )
    if ticket.state != "matched":
        raise errors.MalformedRequest(
            "entropy is sent once the stream reports AWAITING_ENTROPY, after the "
            "match's seed is committed; this ticket is still queued",
            {"field": "entropy"},
        )


def _join_key(ticket: Ticket) -> str:
    """The request id of a ticket's seat join (its secret: the token is minted from it)."""
    return "q" + hashlib.sha256(ticket.secret.encode()).hexdigest()[:40]
