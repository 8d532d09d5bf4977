"""Reading a match: GetMatch, ListLegalActions and ExportMatch.

Reads change nothing and never take a match out of the cache: a state read off
the cached head (:meth:`MatchAccess.read_state`) is used before the next await.
"""

from __future__ import annotations

from dataclasses import replace

from senet.games import get_game
from senet.service import errors
from senet.service.access import (
    Caller,
    MatchAccess,
    check_id,
    is_started,
    legal_for,
    meta_of,
    places,
    seat_of,
    state_of,
)
from senet.service.records import HeadDocument, seat_entropy
from senet.service.rematches import existing_rematch
from senet.service.views import LegalActions, MatchExport, MatchSnapshot, logged_action


async def get(access: MatchAccess, caller: Caller, match_id: str) -> MatchSnapshot:
    """The match as the caller may see it (a seat's view with its token), and a
    finished match's rematch if a player asked for one."""
    stored = await access.load(match_id)
    meta = meta_of(stored)
    seat = seat_of(stored, caller)
    state = access.read_state(get_game(meta.game_id), stored)
    snapshot = MatchSnapshot(access.summary(stored, meta, state), state.view(seat), seat)
    if stored.status != "finished":
        return snapshot
    return replace(snapshot, rematch_id=await existing_rematch(access, stored))


async def legal_actions(access: MatchAccess, caller: Caller, match_id: str) -> LegalActions:
    """The caller's legal actions now: none unless its seat must decide (and none
    before the match starts: nobody may move until every open seat is claimed)."""
    stored = await access.load(match_id)
    seat = access.acting_seat(stored, caller)
    meta = meta_of(stored)
    if not is_started(meta, stored.seats):
        return LegalActions(meta.game_id, stored.version, seat, [])
    state = access.read_state(get_game(meta.game_id), stored)
    return LegalActions(meta.game_id, stored.version, seat, legal_for(state, seat))


async def game_of(access: MatchAccess, match_id: str) -> str:
    """The game id of a match (from the cached head when this replica holds one)."""
    head = access.cache.peek(check_id(match_id))
    if head is not None:
        return head.meta.game_id
    return meta_of(await access.load(match_id)).game_id


async def export(access: MatchAccess, match_id: str) -> MatchExport:
    """Options, seed, salt and log of a finished match, for anyone to replay."""
    stored = await access.load(match_id)
    if stored.status != "finished":
        raise errors.MatchNotFinished("only finished matches can be exported (the seed is secret)")
    meta = meta_of(stored)
    state = state_of(get_game(meta.game_id), stored)
    log = await access.store.action_log(stored.match_id)
    actions = [logged_action(entry.version, entry.entry_json) for entry in log]
    return MatchExport(
        game_id=meta.game_id,
        options=dict(meta.options),
        seat_count=meta.seat_count,
        seed=meta.seed,
        salt=meta.salt,
        commitment=meta.commitment,
        actions=actions,
        scores=state.scores(),
        places=places(stored.seats, state),
        seed_chosen=meta.seed_chosen,
        entropy=seat_entropy(meta.seat_count, stored.seats),
        dealt_seed=meta.deal_seed(stored.seats),
        rules_version=HeadDocument.from_json(stored.snapshot_json).dealt,
        seats=access.summary(stored, meta, state).seats,
    )
