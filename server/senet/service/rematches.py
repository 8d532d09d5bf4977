"""Rematches: the same table again, once a match is finished (RequestRematch).

A rematch is a new match with the finished one's game, options, clocks, leave
policy, bots and place in the lobby (listed or not), and a seed the server draws
(a chosen seed would deal the same game again). Every seat moves on by one, seat
``s`` of the finished match playing seat ``(s + 1) mod n``, so that the players
change colours and turn order; the Mykerinos team game's partners stay partners
(seats ``s`` and ``s + 2``).

Each player of the finished match who still holds their seat has a seat *kept*
for them in the rematch: only they claim it, by asking for the rematch with their
old seat's token (JoinMatch answers SEAT_KEPT to anyone else). A seat whose
player left the match is open to anyone. The rematch's id is derived from the
finished match's (:func:`senet.service.idempotency.rematch_id_for`): the first
player to ask creates it on whatever replica, the others find it, and a player
asking again gets the same seat and token (the claim is keyed by the old seat).
It starts once every seat is claimed, and a rematch whose players never all ask
expires as any match nobody joins.

A player may also decline the rematch (DeclineRematch): their claim on the
finished match says so (``SeatClaim.rematch_declined``, shown as
``SeatInfo.rematch_declined``), nobody may ask for it any more, and a seat the
decliner had already claimed in it opens again. Players already waiting in the
rematch learn of the decline from GetMatch on the finished match.
"""

from __future__ import annotations

from dataclasses import replace

from senet.games import get_game
from senet.service import errors
from senet.service.access import Caller, MatchAccess, control_of, meta_of, seat_of
from senet.service.creation import create_match, join
from senet.service.idempotency import rematch_id_for
from senet.service.records import MatchMeta, SeatClaim, SeatPlan
from senet.service.views import MatchSummary
from senet.store import MatchNotFound, StoredMatch


def rematch_seat(seat: int, seat_count: int) -> int:
    """Where the player of ``seat`` sits in the rematch."""
    return (seat + 1) % seat_count


def rematch_plans(meta: MatchMeta, claims: dict[int, str]) -> list[SeatPlan]:
    """The rematch's seats: each seat's plan moved on by one, a bot as the same
    bot, a person's seat kept for its player unless they left the match."""
    plans = [SeatPlan()] * meta.seat_count
    for seat, plan in enumerate(meta.seats):
        moved = rematch_seat(seat, meta.seat_count)
        if plan.kind == "bot":
            plans[moved] = SeatPlan("bot", plan.bot_strategy)
            continue
        claim_json = claims.get(seat)
        claim = SeatClaim.from_json(claim_json) if claim_json else None
        if claim is not None and not claim.takeover:
            plans[moved] = SeatPlan("open", name=claim.name, kept=True)
    return plans


async def request_rematch(
    access: MatchAccess, caller: Caller, match_id: str, entropy: str = ""
) -> tuple[int, str, MatchSummary]:
    """Create the rematch of a finished match if nobody has yet, and claim the seat
    kept for the caller's player; returns (seat, token, the rematch's summary).

    Raises:
        TokenRequired, BadToken: no seat token, or one that holds no seat of the
            match (its player left it, or never held it).
        BotSeat: the token of a bot seat (bots never ask).
        MatchNotFinished: the match is still being played, or was abandoned.
        RematchDeclined: a player declined the rematch (a player who claimed
            their seat in it before gets it again).
    """
    stored = await access.load(match_id)
    meta = meta_of(stored)
    seat, claim = _asking_seat(stored, meta, caller)
    declined = declined_seats(stored)
    if declined and await _kept_claim(access, stored, seat) is None:
        first = declined[0]
        name = SeatClaim.from_json(stored.seats[first]).name
        raise errors.RematchDeclined(
            f"{name} (seat {first}) declined the rematch", {"seat": first, "name": name}
        )
    snapshot = await create_match(
        access,
        caller,
        meta.game_id,
        meta.options,
        rematch_plans(meta, stored.seats),
        None,
        meta.leave_policy,
        meta.leave_bot_strategy,
        control_of(meta),
        rematch_of=stored.match_id,
        unlisted=meta.unlisted,
    )
    return await join(
        access,
        caller,
        snapshot.summary.match_id,
        rematch_seat(seat, meta.seat_count),
        claim.name,
        request_id=f"rematch-of-seat-{seat}",
        entropy=entropy,
        subject=claim.subject,
        keeper=True,
    )


async def decline_rematch(access: MatchAccess, caller: Caller, match_id: str) -> MatchSummary:
    """Decline the rematch of a finished match for the caller's player: mark their
    claim, and open again the seat they claimed in the rematch if they asked
    before; returns the finished match's summary. Declining again changes nothing.

    Raises:
        TokenRequired, BadToken, BotSeat, MatchNotFinished: as RequestRematch.
        RematchStarted: the caller's player claimed their seat in the rematch and
            it has started (they leave it with LeaveMatch).
    """
    while True:
        stored = await access.load(match_id)
        meta = meta_of(stored)
        seat, claim = _asking_seat(stored, meta, caller)
        if claim.rematch_declined:
            return _summary(access, stored)
        kept = await _kept_claim(access, stored, seat)
        if kept is not None:
            moved = rematch_seat(seat, meta.seat_count)
            outcome = await access.store.reopen_seat(rematch_id_for(match_id), moved, kept)
            if outcome == "started":
                raise errors.RematchStarted(
                    "the rematch has started: play it, or leave it (LeaveMatch)"
                )
            if outcome == "changed":
                continue
        declined = replace(claim, rematch_declined=True).to_json()
        if await access.store.swap_seat_claim(match_id, seat, stored.seats[seat], declined):
            return _summary(access, await access.load(match_id))


def _summary(access: MatchAccess, stored: StoredMatch) -> MatchSummary:
    meta = meta_of(stored)
    return access.summary(stored, meta, access.read_state(get_game(meta.game_id), stored))


def declined_seats(stored: StoredMatch) -> list[int]:
    """The seats of a match whose players declined its rematch, in seat order."""
    return sorted(s for s, c in stored.seats.items() if SeatClaim.from_json(c).rematch_declined)


async def _kept_claim(access: MatchAccess, stored: StoredMatch, seat: int) -> str | None:
    """The claim the player of ``seat`` holds on the seat kept for them in the
    finished match's rematch (only they claim it); None when there is none."""
    try:
        rematch = await access.store.load(rematch_id_for(stored.match_id))
    except MatchNotFound:
        return None
    return rematch.seats.get(rematch_seat(seat, meta_of(stored).seat_count))


def _asking_seat(stored: StoredMatch, meta: MatchMeta, caller: Caller) -> tuple[int, SeatClaim]:
    """The seat of the player asking for a rematch of ``stored``, and its claim."""
    if caller.token is None:
        raise errors.TokenRequired("a rematch is asked for with a seat token of the match")
    if stored.status != "finished":
        raise errors.MatchNotFinished("a rematch follows a finished match")
    seat = seat_of(stored, caller)
    assert seat is not None  # a token was sent: it holds a seat, or seat_of raised
    if meta.seats[seat].kind == "bot":
        raise errors.BotSeat("a bot seat does not ask for rematches")
    claim = SeatClaim.from_json(stored.seats[seat])
    if claim.takeover:
        raise errors.BadToken("this seat's player left the match: its token holds it no more")
    return seat, claim


async def existing_rematch(access: MatchAccess, stored: StoredMatch) -> str:
    """The id of the finished match's rematch once a player asked for one; ""
    otherwise (and for a match not finished)."""
    if stored.status != "finished":
        return ""
    rematch_id = rematch_id_for(stored.match_id)
    try:
        await access.store.load(rematch_id)
    except MatchNotFound:
        return ""
    return rematch_id
