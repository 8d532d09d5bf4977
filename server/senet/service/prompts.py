"""A seat's prompt: its legal actions when it must decide at a given version.

A PlayMatch stream prompts its seat with each version at which the seat must
decide. The prompt comes from this replica's cached head when that head is the
version in question (the usual case: this replica committed the action that led
there), with no store read and no rebuild of the state; else from the store.
"""

from __future__ import annotations

from senet.games import get_game
from senet.service.access import (
    Caller,
    MatchAccess,
    is_started,
    legal_for,
    meta_of,
    seat_of,
)
from senet.service.views import LegalAction, LegalActions


def prompt_cached(
    access: MatchAccess, game_id: str, match_id: str, version: int, seat: int, claim: str
) -> LegalActions | None:
    """``seat``'s prompt from the cached head, if it is at ``version`` and
    still knows the seat's claim as the stream opened with it; else None."""
    head = access.cache.peek(match_id)
    if head is None or head.version != version or head.seats.get(seat) != claim:
        return None
    if not is_started(head.meta, head.seats):
        return None  # a provisional deal, or claims cached before the last join
    if seat not in head.state.deciding_seats():
        return LegalActions(game_id, version, seat, [])
    if head.state.current_seat() != seat:  # one of several deciding at once
        return LegalActions(game_id, version, seat, legal_for(head.state, seat))
    legal = head.legal
    if legal is None:
        legal = tuple(head.state.legal_actions())
        # Kept for the submission that follows (it skips working them out again).
        access.cache.put(match_id, head.with_legal(legal))
    state = head.state
    return LegalActions(
        game_id, version, seat, [LegalAction(a, a.notation(), state.describe(a)) for a in legal]
    )


async def seat_prompt(
    access: MatchAccess,
    caller: Caller,
    game_id: str,
    match_id: str,
    version: int,
    seat: int,
    claim: str,
) -> LegalActions | None:
    """``seat``'s prompt if it must decide at exactly ``version``: from the
    cached head when it serves, else from the store."""
    cached = prompt_cached(access, game_id, match_id, version, seat, claim)
    if cached is None:
        return await prompt(access, caller, match_id, version)
    return cached if cached.actions else None


async def prompt(
    access: MatchAccess, caller: Caller, match_id: str, version: int
) -> LegalActions | None:
    """The caller's legal actions if it must decide at exactly ``version``."""
    stored = await access.load(match_id)
    if stored.version != version or not is_started(meta_of(stored), stored.seats):
        return None
    seat = seat_of(stored, caller)
    state = access.read_state(get_game(meta_of(stored).game_id), stored)
    if seat is None or seat not in state.deciding_seats():
        return None
    return LegalActions(meta_of(stored).game_id, stored.version, seat, legal_for(state, seat))
