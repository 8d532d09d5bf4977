"""Creating a match and joining it: CreateMatch and JoinMatch.

A creation writes the match's lobby entry first (a match is never unlisted), then
the match at version 0; an all-bot match starts at once, so its first decisions
are posted before it exists (:mod:`senet.service.dues`). A join claims a seat; the
claim that completes the open seats starts the match, and what the start makes
due is posted before the claim. Keyed requests are idempotent
(:mod:`senet.service.idempotency`): a retry finds the match or the seat the first
attempt made, and nothing is created or claimed twice.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

from senet.codec.fairness import seed_commitment
from senet.games import get_game
from senet.games.bots import BOT_STRATEGIES
from senet.service import dues, errors, metrics
from senet.service.access import (
    Caller,
    MatchAccess,
    check_display_name,
    claim_token_hash,
    clock_of,
    is_started,
    meta_of,
    parsed,
    state_of,
)
from senet.service.bot_names import is_remote_strategy
from senet.service.clocks import Clock, TimeControl
from senet.service.idempotency import (
    check_request_id,
    creation_fingerprint,
    match_id_for,
    new_join_secret,
    rematch_id_for,
    seat_token,
)
from senet.service.records import (
    HeadDocument,
    LeavePolicy,
    MatchMeta,
    SeatClaim,
    SeatPlan,
    new_token,
    token_hash,
)
from senet.service.views import MatchSnapshot, MatchSummary
from senet.store import ClaimWrite, EventBatch, MatchExists, MatchNotFound, NewMatch, StoredMatch

#: The longest entropy a seat may send.
ENTROPY_LIMIT = 64
_ENTROPY_RE = re.compile(r"[A-Za-z0-9_-]*")


async def create_match(
    access: MatchAccess,
    caller: Caller,
    game_id: str,
    options: Mapping[str, object],
    seats: Sequence[SeatPlan],
    seed: int | None,
    leave_policy: LeavePolicy = "resign",
    leave_bot_strategy: str = "",
    time_control: TimeControl | None = None,
    request_id: str = "",
    *,
    rematch_of: str = "",
    unlisted: bool = False,
    rated: bool = False,
) -> MatchSnapshot:
    """Create a match at version 0 and return its public snapshot.

    With a ``request_id``, a retry returns the match the first call created
    (its current public snapshot) and never creates a second one; see
    :mod:`senet.service.idempotency`. ``rematch_of`` keys the creation by the
    finished match it follows instead (:mod:`senet.service.rematches`): whoever
    asks first creates it, the others find it. An ``unlisted`` match is left out of
    the lobby: only those given its id find it. A ``rated`` match's result settles
    into ratings (the caller settles it: the queue, a ladder).
    """
    if access.settings.admin_key and not caller.is_admin:
        raise errors.AdminKeyRequired("this server requires the admin key to create matches")
    request_id = check_request_id(request_id, required=False)
    game = get_game(game_id)
    for plan in seats:
        known = plan.bot_strategy in BOT_STRATEGIES or is_remote_strategy(plan.bot_strategy)
        if plan.kind == "bot" and not known:
            raise errors.MalformedRequest(
                f"bot_strategy must be one of {', '.join(BOT_STRATEGIES)} (the strategies "
                "this server has), or remote:<bot id> for a registered bot (Bot.bot_id: "
                "20 lowercase hex digits)",
                {"field": "bot_strategy"},
            )
    if leave_policy == "bot" and leave_bot_strategy not in BOT_STRATEGIES:
        raise errors.MalformedRequest(
            f"leave_bot_strategy must be one of {', '.join(BOT_STRATEGIES)}"
        )
    if leave_policy != "bot" and leave_bot_strategy:
        raise errors.MalformedRequest("leave_bot_strategy goes with LEAVE_POLICY_BOT only")
    if time_control is not None:
        check_time_control(time_control)
    seats = await _named_seats(access, game.info.id, seats, clocked=time_control is not None)
    real_seed = secrets.randbits(64) if seed is None else seed
    salt = secrets.token_hex(16)
    meta = MatchMeta(
        game_id=game.info.id,
        options=dict(options),
        seat_count=len(seats),
        seats=list(seats),
        seed=real_seed,
        salt=salt,
        commitment=seed_commitment(salt, real_seed),
        created_at=time.time(),
        leave_policy=leave_policy,
        leave_bot_strategy=leave_bot_strategy,
        time_control=None if time_control is None else time_control.to_data(),
        join_secret=new_join_secret(),
        seed_chosen=seed is not None,
        fair_deal=seed is None,
        unlisted=unlisted,
        rematch_of=rematch_of,
        rated=rated,
    )
    # With open seats this deal is provisional (see access.state_of): the deal of
    # record waits for every seat's entropy.
    state = game.new_match(len(seats), options, meta.deal_seed({}))
    meta = replace(meta, options=dict(state.options))
    match_id = secrets.token_hex(8)
    keyed = bool(request_id or rematch_of)
    if keyed:
        match_id = rematch_id_for(rematch_of) if rematch_of else match_id_for(request_id)
        fingerprint = creation_fingerprint(
            {
                "game": game.info.id,
                "options": dict(options),
                "seats": [[p.kind, p.bot_strategy] for p in seats],
                "seed": seed,
                "leave": [leave_policy, leave_bot_strategy],
                "clock": meta.time_control,
                "unlisted": unlisted,
            }
        )
        meta = replace(meta, creation=fingerprint)
        existing = await _created_before(access, match_id, fingerprint)
        if existing is not None:
            return existing
    clock = None if time_control is None else Clock.initial(time_control, len(seats))
    head = HeadDocument(
        state.to_data(),
        time.time(),
        None if clock is None else clock.to_data(),
        rules=game.info.rules_version,
        dealt=game.info.rules_version,
    )
    # The lobby entry first: a match is never created unlisted (see senet.service.lobby).
    await access.publish_lobby_entry(match_id, meta, {}, "active", required=True)
    if all(plan.kind == "bot" for plan in seats) and not state.is_over():
        # Started at creation: its first decision (and its clock) is due with it.
        await dues.post_due(access, match_id, meta, {}, 0, state.deciding_seats(), clock)
    waiting = any(plan.kind == "open" for plan in seats)
    try:
        await access.store.create(
            NewMatch(match_id, meta.to_json(), head.to_json(), waiting=waiting)
        )
    except MatchExists:
        # Only keyed ids repeat: an earlier attempt of this creation got there
        # first (its reply lost, or still on its way). Its match is the answer.
        existing = await _created_before(access, match_id, meta.creation) if keyed else None
        if existing is None:
            raise
        await access.refresh_lobby_entry(match_id)  # this attempt rewrote the entry
        return existing
    # Counted where a match comes to exist, once: whichever use case made it (a
    # CreateMatch, a rematch, a ladder's or a tournament's), and never for a retry.
    metrics.MATCHES_CREATED.labels(game.info.id).inc()
    stored = StoredMatch(match_id, meta.to_json(), {}, 0, head.to_json(), "active")
    return MatchSnapshot(access.summary(stored, meta, state), state.view(None), None)


async def _named_seats(
    access: MatchAccess, game_id: str, seats: Sequence[SeatPlan], *, clocked: bool
) -> list[SeatPlan]:
    """The seat plans, each registered bot's seat named after its bot (``clocked``:
    whether the match has a clock, which plays a retired bot's decisions).

    Raises:
        BotNotFound: a seat names a bot nobody registered, or one retired in a
            match without a clock (its decisions would wait for a worker that can
            never come).
        MalformedRequest: a seat names a bot that does not play this game.
    """
    registry = access.remote_bots
    if registry is None:
        return list(seats)
    return [
        replace(plan, name=await registry.seat_name(plan.bot_strategy, game_id, clocked=clocked))
        if plan.kind == "bot" and is_remote_strategy(plan.bot_strategy)
        else plan
        for plan in seats
    ]


async def _created_before(
    access: MatchAccess, match_id: str, fingerprint: str
) -> MatchSnapshot | None:
    """The public snapshot of the match an earlier attempt with the same key
    created; None when there is none.

    Raises:
        RequestIdReused: the key created a match from a different request.
    """
    try:
        stored = await access.load(match_id)
    except MatchNotFound:
        return None
    meta = meta_of(stored)
    if meta.creation != fingerprint:
        raise errors.RequestIdReused(
            "this request_id already created a different match",
            {"matchId": match_id},
        )
    state = state_of(get_game(meta.game_id), stored)
    return MatchSnapshot(access.summary(stored, meta, state), state.view(None), None)


def check_entropy(entropy: str) -> None:
    """Refuse entropy that is not 0-64 characters of ``[A-Za-z0-9_-]``
    (``limit`` and ``size`` only when it is too long).

    Raises:
        MalformedRequest: it is not.
    """
    if len(entropy) > ENTROPY_LIMIT:
        raise errors.MalformedRequest(
            f"entropy must be at most {ENTROPY_LIMIT} characters of [A-Za-z0-9_-], "
            f"not {len(entropy)}",
            {"field": "entropy", "limit": ENTROPY_LIMIT, "size": len(entropy)},
        )
    if not _ENTROPY_RE.fullmatch(entropy):
        raise errors.MalformedRequest(
            "entropy may hold only the characters A-Z, a-z, 0-9, _ and - "
            "(send random bits as hex digits)",
            {"field": "entropy"},
        )


async def join(
    access: MatchAccess,
    caller: Caller,
    match_id: str,
    seat: int | None,
    display_name: str,
    *,
    request_id: str = "",
    entropy: str = "",
    subject: str = "",
    keeper: bool = False,
) -> tuple[int, str, MatchSummary]:
    """Claim a seat; returns (seat, token, summary). The token is shown only here.

    With a ``request_id``, the token is minted from the key (see
    :mod:`senet.service.idempotency`): a retry returns the seat the first
    attempt claimed, with the same token, and never claims a second seat.
    ``entropy`` is the seat's own contribution to the seed of a fair match
    (see senet.service.records.effective_seed); ignored by chosen seeds.
    ``subject`` is the verified identity of the player, recorded in the claim.
    ``keeper``: the caller is the player a kept seat is kept for (only
    :mod:`senet.service.rematches` and the queue say so); anyone else is refused
    kept seats.
    """
    name = check_display_name(display_name)
    request_id = check_request_id(request_id, required=False)
    check_entropy(entropy)
    stored = await access.load(match_id)
    meta = meta_of(stored)
    keyed = bool(request_id and meta.join_secret)
    if keyed:
        earlier = _joined_before(access, stored, meta, seat, request_id)
        if earlier is not None:
            return earlier
    if seat is not None:
        if not 0 <= seat < meta.seat_count:
            raise errors.MalformedRequest(
                f"seat must be 0-{meta.seat_count - 1}",
                {"field": "seat", "limit": meta.seat_count - 1},
            )
        candidates = [seat]
    else:
        candidates = [
            s
            for s, plan in enumerate(meta.seats)
            if plan.kind == "open" and not plan.kept and s not in stored.seats
        ]
        if not candidates:
            raise errors.NoOpenSeat(
                "no seat of this match is open to you: every open seat is taken or kept "
                "for a player"
            )
    if any(meta.seats[c].kind == "bot" for c in candidates):
        raise errors.BotSeat(f"seat {seat} is a bot seat, played by bot workers only")
    kept = [c for c in candidates if meta.seats[c].kept]
    if kept and not keeper:
        how = (
            "who played the match before: they claim it with RequestRematch"
            if meta.rematch_of
            else "whom the queue placed there: they claim it through their FindMatch ticket"
        )
        raise errors.SeatKept(
            f"seat {kept[0]} of this match is kept for {meta.seats[kept[0]].name}, {how}",
            {"seat": kept[0]},
        )
    random_token = new_token()
    tokens = {
        c: seat_token(meta.join_secret, stored.match_id, c, request_id) if keyed else random_token
        for c in candidates
    }
    joined_at = time.time()
    claims = {
        c: SeatClaim(name, token_hash(tokens[c]), joined_at, entropy=entropy, subject=subject)
        for c in candidates
    }
    if stored.status == "active" and len(candidates) == 1 and candidates[0] not in stored.seats:
        # This claim may be the one that starts the match: what the start makes
        # due (a bot's decision, the first decision's clock) is queued first (an
        # early entry waits for the claim). The state is the one this claim
        # makes: a fair match is dealt with every seat's entropy, this one's
        # included, so who acts first may depend on it. (A join that may take
        # any of several open seats leaves another seat open, and a claim of a
        # taken seat fails: neither starts anything.)
        after = {**stored.seats, **{c: claims[c].to_json() for c in candidates}}
        state = state_of(get_game(meta.game_id), replace(stored, seats=after))
        deciding = state.deciding_seats()
        clock = clock_of(stored)
        await dues.post_due(access, stored.match_id, meta, after, stored.version, deciding, clock)
    opens = [s for s, plan in enumerate(meta.seats) if plan.kind == "open"]
    for candidate in candidates:
        if not await access.store.claim_seat(
            stored.match_id, ClaimWrite(candidate, claims[candidate].to_json()), opens
        ):
            if keyed:
                # Taken: by another attempt of this join (a retry sent while
                # the first was on its way)? Then that seat is the answer.
                # Attempts walk the open seats in the same order, so they
                # meet at the first seat either of them gets.
                taken = await access.load(match_id)
                if candidate in _seats_of_key(taken, meta, request_id):
                    return _joined(access, taken, meta, candidate, request_id)
            continue
        fresh = await access.load(match_id)
        if fresh.version == 0 and is_started(meta, fresh.seats):
            # The store wrote the start with the claim that completed the
            # seats (this one, or a racing one): this replica's streams of
            # the match learn it now, the others' from their store reads.
            access.feeds.committed_here(fresh.match_id, EventBatch(0, ""))
        await access.publish_lobby_entry(fresh.match_id, meta, fresh.seats, fresh.status)
        entry = parsed(fresh)
        summary = access.summary(fresh, meta, entry.state)
        # The seat's first action here then needs no load of its own.
        access.cache.put(fresh.match_id, entry)
        return candidate, tokens[candidate], summary
    if seat is not None:
        raise errors.SeatTaken(f"seat {seat} is already taken", {"seat": seat})
    raise errors.NoOpenSeat("every open seat of this match is taken")


def _seats_of_key(stored: StoredMatch, meta: MatchMeta, request_id: str) -> list[int]:
    """The seats whose claims hold the token a join with this key gets (one,
    unless attempts asking for different explicit seats raced), lowest first."""
    held = []
    for seat in sorted(stored.seats):
        token = seat_token(meta.join_secret, stored.match_id, seat, request_id)
        digest = hashlib.sha256(token.encode()).hexdigest()
        if secrets.compare_digest(claim_token_hash(stored.seats[seat]), digest):
            held.append(seat)
    return held


def _joined_before(
    access: MatchAccess, stored: StoredMatch, meta: MatchMeta, seat: int | None, request_id: str
) -> tuple[int, str, MatchSummary] | None:
    """The seat, token and summary of the join with this key, if it claimed a
    seat that it still holds; None otherwise.

    Raises:
        RequestIdReused: the key holds another seat than the one asked for.
    """
    mine = _seats_of_key(stored, meta, request_id)
    if not mine:
        return None
    if seat is not None and seat not in mine:
        raise errors.RequestIdReused(
            f"this request_id already joined seat {mine[0]}", {"seat": mine[0]}
        )
    return _joined(access, stored, meta, mine[0] if seat is None else seat, request_id)


def _joined(
    access: MatchAccess, stored: StoredMatch, meta: MatchMeta, seat: int, request_id: str
) -> tuple[int, str, MatchSummary]:
    """What a keyed join of ``seat`` answers: the seat, its token, the summary."""
    token = seat_token(meta.join_secret, stored.match_id, seat, request_id)
    state = state_of(get_game(meta.game_id), stored)
    return seat, token, access.summary(stored, meta, state)


_MAX_CLOCK_MS = 7 * 24 * 3600 * 1000


def check_time_control(control: TimeControl) -> None:
    """A time control is usable: some limit, nothing absurd, a known bot."""
    if not (control.decision_ms or control.reserve_ms):
        raise errors.MalformedRequest("a time control needs decision_ms or reserve_ms")
    for name in ("decision_ms", "reserve_ms", "increment_ms"):
        if not 0 <= getattr(control, name) <= _MAX_CLOCK_MS:
            raise errors.MalformedRequest(f"{name} must be 0-{_MAX_CLOCK_MS}")
    if control.increment_ms and not control.reserve_ms:
        raise errors.MalformedRequest("increment_ms needs a reserve_ms")
    if control.handover_strategy not in ("", *BOT_STRATEGIES):
        raise errors.MalformedRequest(
            f"handover_strategy must be one of {', '.join(BOT_STRATEGIES)}"
        )
    if control.handover_after and control.timeout_policy != "bot_move":
        raise errors.MalformedRequest("handover_after goes with TIMEOUT_POLICY_BOT_MOVE only")
