"""Handing a seat over: LeaveMatch, turn timeouts and takeovers.

A player who leaves before the start reopens the seat; after it, the seat is
handed over for good (:func:`take_over`): to the leave policy's bot, or to the
replicas' minimal policy (:func:`zombie_pick`) when the player resigns. A turn
clock's expired decision (:func:`time_out`, called by every replica's
ClockKeeper for due entries) is played by the fallback action, committed as the
seat's own, and after enough timeouts in a row the seat is handed to a bot.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import replace
from typing import Literal

from senet.games import GameState, get_game
from senet.games.errors import GameError, GameOverError
from senet.games.rng import Rng
from senet.service import dues, errors, submissions
from senet.service.access import (
    Caller,
    MatchAccess,
    claim_takeover,
    claim_token_hash,
    clock_of,
    control_of,
    is_started,
    meta_of,
    parsed,
    state_of,
)
from senet.service.clocks import started_ms
from senet.service.records import ZOMBIE, LeaveOutcome, MatchMeta, SeatClaim, new_token, token_hash
from senet.service.submissions import COMMIT_RETRIES, Submission
from senet.service.views import MatchSummary
from senet.store import MatchNotFound, ReopenOutcome, StoredMatch
from senet.store.base import now_ms

#: How long after its post a queued entry's write has surely landed or failed:
#: an older entry ahead of its match is posted again at the match's version.
LANDED_MS = 3000
#: How long a timeout whose commits kept failing waits before it is tried again.
_TIMEOUT_RETRY_MS = 200

#: What time_out did: done, gone, or later (and when to look again).
TimeoutVerdict = tuple[Literal["done", "gone", "later"], int | None]


async def leave(
    access: MatchAccess, caller: Caller, match_id: str
) -> tuple[LeaveOutcome, MatchSummary]:
    """Give up the caller's seat for good (see LeaveMatch in the proto).

    Before the match starts the claim is removed and the seat reopens. After,
    the claim is replaced by one nobody holds the token of, marked with the
    takeover (the leave policy's bot strategy, or ZOMBIE when the player
    resigns), so the old token stops working at once, on every replica: each
    commit re-checks the acting seat's claim, and the claim of the seat it
    hands the turn to. When it is the seat's turn, its decision is posted
    before the claim changes, and again if the match moved meanwhile.
    """
    stored = await access.load(match_id)
    seat = access.acting_seat(stored, caller)
    meta = meta_of(stored)
    claim_json = stored.seats[seat]
    claim = SeatClaim.from_json(claim_json)
    if meta.seats[seat].kind == "bot" or claim.takeover:
        raise errors.BotSeat("a seat played by a bot cannot leave")
    state = state_of(get_game(meta.game_id), stored)
    if stored.status != "active" or state.is_over():
        raise GameOverError("the match is over")
    outcome: LeaveOutcome
    reopen: ReopenOutcome | None = None
    if stored.version == 0 and not is_started(meta, stored.seats):
        # The store reopens the seat only if the match has not started
        # since this load (the last open seat's claim and this are exclusive).
        reopen = await access.store.reopen_seat(stored.match_id, seat, claim_json)
        if reopen == "changed":
            raise errors.BadToken("this token no longer holds the seat")
        if reopen == "started":
            stored = await access.load(match_id)
            if stored.seats.get(seat) != claim_json:
                raise errors.BadToken("this token no longer holds the seat")
    if reopen == "reopened":
        outcome = "reopened"
        access.cache.forget(stored.match_id)
        await access.refresh_lobby_entry(stored.match_id)
    else:
        resign = meta.leave_policy == "resign"
        outcome = "resigned" if resign else "taken_over"
        takeover = ZOMBIE if resign else meta.leave_bot_strategy
        if not await take_over(access, stored, meta, seat, takeover):
            raise errors.BadToken("this token no longer holds the seat")
    fresh = await access.load(match_id)
    return outcome, access.summary(fresh, meta, state_of(get_game(meta.game_id), fresh))


async def time_out(
    access: MatchAccess, match_id: str, seat: int, version: int, posted_ms: int = 0
) -> TimeoutVerdict:
    """Apply the timeout policy if ``seat``'s decision at ``version`` is past
    its deadline (a ClockKeeper calls this for due entries).

    "bot_move": the server plays the decision (the minimal policy's seeded
    legal action, committed as the seat's own with a request id fixed by the
    version, so two replicas timing one decision out commit it once), and
    after ``handover_after`` timeouts in a row a person's seat is taken over
    by a bot for good. "resign": the seat resigns, as LeaveMatch would.

    Returns ("done", None) once applied; ("gone", None) when the decision
    was made meanwhile (or the match ended); ("later", deadline or None)
    when it is not due yet: its deadline is ahead, or the write that starts
    it has not landed (None: no deadline known yet).

    A fallback whose commit does not go through is judged again on fresh
    data, as a submission is: the head may have moved on (the seat acted:
    "gone"), or only a claim the commit checked changed (the other seat was
    just handed to a bot, or a worker to this one), and the decision is
    still due. Should commits keep failing, it is deferred, never dropped:
    nobody else acts for an idle player.

    An entry at another version than the match's, for a seat that must
    decide now, is that seat's only one (a queue keeps one per seat): a
    commit that posted it ahead and failed, or a slow replica's post over a
    newer one. The seat's deadline is posted again at the match's version
    (for an entry ahead, once ``posted_ms`` is LANDED_MS old).
    """
    for _attempt in range(COMMIT_RETRIES):
        verdict = await _time_out_once(access, match_id, seat, version, posted_ms)
        if verdict is not None:
            return verdict
    return "later", now_ms() + _TIMEOUT_RETRY_MS


async def _time_out_once(
    access: MatchAccess, match_id: str, seat: int, version: int, posted_ms: int
) -> TimeoutVerdict | None:
    """:func:`time_out` on one load of the match; None when the fallback's
    commit did not go through."""
    try:
        stored = await access.load(match_id)
    except MatchNotFound:
        return "later", None  # created right after its first timeout was posted
    meta = meta_of(stored)
    control = control_of(meta)
    if control is None or stored.status != "active":
        return "gone", None
    behind = stored.version > version and not await submissions.decision_stands(
        access, stored, seat, version
    )
    ahead = stored.version < version
    if behind or ahead:
        lost = behind or now_ms() - posted_ms > LANDED_MS
        if lost and seat in parsed(stored).state.deciding_seats():
            clock = clock_of(stored)
            due = dues.deadline_post(match_id, meta, stored.seats, stored.version, seat, clock)
            await dues.post(access, [due] if due is not None else [])
            return "gone", None
        # Ahead: the commit that starts this decision is on its way.
        return ("gone", None) if behind else ("later", None)
    entry = parsed(stored)
    clock = entry.clock
    state = entry.state
    if clock is None or seat not in state.deciding_seats():
        return "gone", None
    if not is_started(meta, stored.seats):
        return "later", None  # the join that starts the match is on its way
    deadline = clock.deadline_ms(control, seat, started_ms(meta, stored.seats))
    if now_ms() < deadline:
        return "later", deadline
    person = meta.seats[seat].kind == "open" and not claim_takeover(stored.seats[seat])
    if control.timeout_policy == "resign" and person:
        await take_over(access, stored, meta, seat, ZOMBIE)
        return "done", None
    notation = zombie_pick(meta, stored.version, state, seat)
    claim_json = stored.seats.get(seat)
    if notation is None:
        return "gone", None
    if claim_json is None:  # a bot seat no worker was handed yet
        claim_json = SeatClaim("bot", token_hash(new_token()), time.time()).to_json()
        await access.store.replace_seat_claim(match_id, seat, claim_json)
        entry = replace(entry, seats={**entry.seats, seat: claim_json})
    request = Submission(
        claim_token_hash(claim_json), notation, f"timeout-{seat}-{version}", timed_out=True
    )
    try:
        done = await submissions.submit_fresh(
            access, match_id, entry, request, None, lambda outcome: None
        )
    except (GameError, errors.ServiceError):
        return None  # the match changed under the load: judge again
    if done is None:
        return None
    handover = control.handover_after
    if person and handover and clock.timeouts[seat] + 1 >= handover:
        fresh = await access.load(match_id)
        counted = clock_of(fresh)  # a timed-out choice that goes on counts when it ends
        if (
            fresh.seats.get(seat) == claim_json
            and fresh.status == "active"
            and counted is not None
            and counted.timeouts[seat] >= handover
        ):
            await take_over(access, fresh, meta, seat, control.handover_strategy or "random")
    return "done", None


async def take_over(
    access: MatchAccess, stored: StoredMatch, meta: MatchMeta, seat: int, takeover: str
) -> bool:
    """Hand a person's seat to a bot (or to the minimal policy: ZOMBIE) for
    good, as a leave after the start does; whether the claim was swapped."""
    claim_json = stored.seats[seat]
    claim = SeatClaim.from_json(claim_json)
    nobody = token_hash(new_token())  # a token nobody is given
    new_json = replace(claim, token_hash=nobody, takeover=takeover, left_at=time.time()).to_json()
    after = {**stored.seats, seat: new_json}
    state = state_of(get_game(meta.game_id), stored)
    if seat in state.deciding_seats():
        await _post_bot_turn(access, stored.match_id, meta, after, stored.version, seat)
    if not await access.store.swap_seat_claim(stored.match_id, seat, claim_json, new_json):
        return False
    access.cache.forget(stored.match_id)
    fresh = await access.load(stored.match_id)
    if fresh.version != stored.version and fresh.status == "active":
        # A commit landed between the load and the swap without knowing.
        fresh_state = state_of(get_game(meta.game_id), fresh)
        if seat in fresh_state.deciding_seats():
            await _post_bot_turn(access, fresh.match_id, meta, fresh.seats, fresh.version, seat)
    await access.refresh_lobby_entry(stored.match_id)
    return True


def zombie_pick(meta: MatchMeta, version: int, state: GameState, seat: int) -> str | None:
    """The minimal policy of a resigned seat: a legal action drawn with a
    generator seeded by a hash of the secret seed and salt, the version and
    the seat (reproducible, and revealing nothing of the seed); None when it
    is not the seat's turn."""
    legal = state.legal_actions_for(seat)
    if not legal:
        return None
    digest = hashlib.sha256(f"{meta.salt}:{meta.seed}:zombie:{version}:{seat}".encode()).digest()
    rng = Rng(int.from_bytes(digest[:8], "big"))
    return str(legal[rng.below(len(legal))].notation())


async def _post_bot_turn(
    access: MatchAccess,
    match_id: str,
    meta: MatchMeta,
    seats: dict[int, str],
    version: int,
    seat: int,
) -> None:
    """Post ``seat``'s decision at ``version`` if a bot (or the minimal policy)
    plays it (see senet.service.dues)."""
    due = dues.bot_post(match_id, meta, seats, version, seat)
    await dues.post(access, [due] if due is not None else [])
