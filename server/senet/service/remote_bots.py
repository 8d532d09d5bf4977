"""Registered bots that play from anywhere: identities, keys and their own queue.

A bot author with an identity registers a bot (a name and the games it plays)
and is handed a *bot key*, shown once and stored only as its SHA-256 hash. The
bot's seats are bot seats whose strategy is ``remote:<bot id>``
(:mod:`senet.service.bot_names`), so the match service posts their decisions to
a queue of that name; a worker, in any language, sends the key as
``x-senet-bot-key`` metadata on ``BotService`` and leases from that queue alone.
Nothing else changes for the match: the lease, the fresh seat token, the clocks
and the timeout policy are the bot-decision queue's (:mod:`senet.service.bots_api`),
so a worker that dies leaves its decisions to time out and the match goes on.

Who may register is the operator's choice (:class:`RegistrationPolicy`, from
``Settings.bot_registration``): a registered bot joins the ladders of its games
and the ladder schedules new bots most, so on a server open to the internet a
flood of throwaway guest bots would crowd out everyone else's. Registering
always needs an identity (the bot is rated under its owner's subject); with an
admin key set, guests may not register by default, and an owner may hold at most
``bot_max_per_owner`` bots.

A bot is rated as ``bot:<owner>/<name>``, its owner's subject and its name,
like any player (:mod:`senet.service.ratings`). Registering the same name again
replaces the key (the old one stops working at once) and makes the bot active
again after the ladder benched it for timing out.

A benched bot also comes back by itself (:mod:`senet.service.ladder`): its bench
is a rest, doubled for each bench in a row (:func:`rest_s`), after which the ladder
seats it again once its worker calls. A worker that died and was restarted with the
same key so plays again without a new key, and one that keeps calling but times
out is tried ever more rarely.

Its owner (or the admin key, or its own key) retires a bot
(:meth:`RemoteBots.retire`): its key is refused and it leaves the listings, the
ladders and its owner's count, but its record stays, so that the matches already
planned with it (a ladder slot claimed, a tournament round, a test) are still
created and played, its decisions played by their clocks, and its ratings and
matches stay under its subject. Registering the name again brings it back.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import cast

from senet.games import get_game
from senet.service import errors
from senet.service.bot_names import REMOTE_PREFIX, remote_strategy
from senet.service.bots_api import BotDecisions
from senet.service.documents import known_fields
from senet.service.identity import Identity
from senet.service.matches import MatchService
from senet.service.records import dumps, loads
from senet.service.settings import Settings
from senet.store.base import BotQueue
from senet.store.ladder import LadderStore
from senet.store.players import PlayerStore

BOTS = "bots"
#: Retired bots, kept apart so that what every ladder pass reads (:meth:`RemoteBots.bots`)
#: does not grow with them.
RETIRED = "bots_retired"
KEYS = "bot_keys"
#: When a worker holding each bot's key last called BotService (Unix seconds).
SEEN = "bot_seen"
#: A replica records a bot's worker as seen at most this often (seconds): every
#: call of BotService by a bot key would otherwise be a write.
SEEN_EVERY_S = 5.0
#: The longest rest of a bot benched many times in a row (seconds).
MAX_REST_S = 86_400.0
_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")
_MAX_GAMES = 16


#: The values of ``Settings.bot_registration`` (see :class:`RegistrationPolicy`).
REGISTRATION_POLICIES = ("guests", "players", "listed", "admin")


@dataclass(frozen=True)
class RegistrationPolicy:
    """Who may register bots on this server.

    Attributes:
        who: ``guests`` (any identity), ``players`` (no guests), ``listed``
            (only ``owners``) or ``admin`` (only the admin key).
        owners: The subjects ``listed`` lets in.
        max_per_owner: The most bots one owner may hold (0: no limit).
        admin_key_set: Whether the server has an admin key: only then does
            holding it (``Caller.is_admin``) bypass the policy, since on a
            server without one every caller counts as the admin.
    """

    who: str = "guests"
    owners: frozenset[str] = frozenset()
    max_per_owner: int = 0
    admin_key_set: bool = False

    @classmethod
    def of(cls, settings: Settings) -> RegistrationPolicy:
        """The policy the settings ask for.

        Raises:
            ValueError: an unknown ``bot_registration`` (the server does not start).
        """
        who = settings.bot_registration or ("players" if settings.admin_key else "guests")
        if who not in REGISTRATION_POLICIES:
            raise ValueError(
                f"SENET_BOT_REGISTRATION={settings.bot_registration!r} is not one of "
                + ", ".join(REGISTRATION_POLICIES)
            )
        owners = frozenset(o.strip() for o in settings.bot_owners.split(",") if o.strip())
        return cls(who, owners, max(0, settings.bot_max_per_owner), bool(settings.admin_key))

    def check(self, owner: Identity, is_admin: bool) -> None:
        """Let ``owner`` register a bot, or say why not.

        Raises:
            BotRegistrationRefused: the policy does not let this identity in.
        """
        if is_admin and self.admin_key_set:
            return
        facts = {"policy": self.who}
        if self.who == "admin":
            raise errors.BotRegistrationRefused(
                "this server registers bots only with its admin key (x-senet-admin-key)", facts
            )
        if self.who == "listed" and owner.subject not in self.owners:
            raise errors.BotRegistrationRefused(
                f"this server registers bots only for the owners its operator lists "
                f"(SENET_BOT_OWNERS); {owner.subject} is not one of them",
                facts,
            )
        if self.who == "players" and owner.guest:
            raise errors.BotRegistrationRefused(
                "this server registers bots for signed-in players only, not guests: "
                "use an identity token from the operator's provider",
                facts,
            )


def bot_id_of(owner: str, name: str) -> str:
    """A bot's id: fixed by its owner and name, so registering again finds it."""
    return hashlib.sha256(f"{owner}/{name}".encode()).hexdigest()[:20]


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _seen_at(doc: str | None) -> float | None:
    """A stored "worker seen" time; None for none, or for what is not a time (as if
    never seen)."""
    try:
        return None if doc is None else float(doc)
    except ValueError:
        return None


def is_served(bot_id: str, served: Mapping[str, float] | None) -> bool:
    """Whether a worker of ``bot_id`` calls now (``served``: :meth:`RemoteBots.served`;
    None when the server does not ask for workers, so every bot counts)."""
    return served is None or bot_id in served


def rest_s(first_rest_s: float, benches: int) -> float:
    """How long the ``benches``-th bench in a row rests a bot: ``first_rest_s``,
    doubled for each bench before it, at most :data:`MAX_REST_S` (0: the bench
    lasts until the bot registers again)."""
    if first_rest_s <= 0:
        return 0.0
    return min(first_rest_s * 2.0 ** min(max(benches, 1) - 1, 32), max(MAX_REST_S, first_rest_s))


@dataclass(frozen=True)
class RemoteBot:
    """A registered bot.

    Attributes:
        bot_id: Stable id (see :func:`bot_id_of`).
        owner: The author's subject.
        name: The bot's name (1-32 of [A-Za-z0-9_.-]).
        games: The games it plays.
        key_hash: SHA-256 of its current key.
        created_at: When it was first registered (Unix seconds).
        active: Whether the ladder schedules it.
        note: Why it is inactive.
        benches: How many times in a row the ladder benched it (a ladder match it
            plays after its last bench without being benched again clears it).
        benched_until: When its rest ends (Unix seconds): its worker calling after
            that brings it back. 0: not benched, or benched until it registers
            again.
        retired_at: When its owner retired it (Unix seconds); 0: it is not.
        off_ladders: Kept off every ladder (entered in tournaments, tests and
            matches only).
    """

    bot_id: str
    owner: str
    name: str
    games: tuple[str, ...]
    key_hash: str
    created_at: float
    active: bool = True
    note: str = ""
    benches: int = 0
    benched_until: float = 0.0
    retired_at: float = 0.0
    off_ladders: bool = False

    def may_come_back(self, now: float, worker_seen: float | None) -> bool:
        """Whether a benched bot's rest is over at ``now`` and its worker called
        since (``worker_seen``: when it last did, Unix seconds; None: the server
        does not ask for a worker)."""
        if self.active or not self.benched_until or now < self.benched_until:
            return False
        return worker_seen is None or worker_seen >= self.benched_until

    @property
    def subject(self) -> str:
        """The identity its ratings are kept under."""
        return f"bot:{self.owner}/{self.name}"

    @property
    def strategy(self) -> str:
        """What its seats name as their strategy (and its queue)."""
        return remote_strategy(self.bot_id)

    def to_json(self) -> str:
        return dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> RemoteBot:
        data = loads(text)
        data["games"] = tuple(data["games"])
        return cls(**known_fields(cls, data))


class RemoteBots:
    """The registry of remote bots, and the decisions each key may lease."""

    def __init__(
        self,
        matches: MatchService,
        players: PlayerStore,
        store: LadderStore,
        policy: RegistrationPolicy | None = None,
    ) -> None:
        self.matches = matches
        self.players = players
        self.store = store
        self.policy = policy or RegistrationPolicy()
        #: When this replica last recorded each bot's worker as seen.
        self._recorded: dict[str, float] = {}

    async def register(
        self,
        owner: Identity,
        name: str,
        games: Sequence[str],
        *,
        is_admin: bool = True,
        off_ladders: bool = False,
    ) -> tuple[RemoteBot, str]:
        """Register (or re-register) ``owner``'s bot ``name``; (bot, its new key).

        ``is_admin``: whether the caller holds the admin key (in-process callers do).
        ``off_ladders``: keep the bot off every ladder (a tournament's own bot).

        Raises:
            BotRegistrationRefused: the server's policy does not let ``owner`` in.
            QuotaExceeded: ``owner`` holds as many bots as the policy allows.
            MalformedRequest: a bad name, no games or too many.
            UnknownGameError: a game this server does not host.
        """
        self.policy.check(owner, is_admin)
        if not _NAME_RE.match(name):
            raise errors.MalformedRequest("name must be 1-32 characters of [A-Za-z0-9_.-]")
        wanted = tuple(dict.fromkeys(games))
        if not wanted or len(wanted) > _MAX_GAMES:
            raise errors.MalformedRequest(f"a bot plays 1-{_MAX_GAMES} games")
        for game_id in wanted:
            get_game(game_id)
        key = "sbk_" + secrets.token_urlsafe(32)
        bot_id = bot_id_of(owner.subject, name)
        old = await self._find(bot_id)
        limit = self.policy.max_per_owner
        held_already = old is not None and not old.retired_at
        if not held_already and limit and not (is_admin and self.policy.admin_key_set):
            held = sum(1 for b in await self.bots() if b.owner == owner.subject)
            if held >= limit:
                raise errors.QuotaExceeded(
                    f"{owner.subject} already has {held} bots, the most this server allows "
                    "(register one of them again to replace its key)",
                    {"quota": "bots_per_owner", "limit": limit},
                )
        created = old.created_at if old is not None else time.time()
        bot = RemoteBot(
            bot_id, owner.subject, name, wanted, key_hash(key), created, off_ladders=off_ladders
        )
        if old is not None:
            await self.store.delete(KEYS, old.key_hash)
        await self.store.put(BOTS, bot_id, bot.to_json())
        await self.store.delete(RETIRED, bot_id)
        await self.store.put(KEYS, bot.key_hash, bot_id)
        await self.players.put_player(bot.subject, dumps({"name": name}))
        return bot, key

    async def bot(self, bot_id: str) -> RemoteBot:
        """The bot ``bot_id``, registered or retired.

        Raises: BotNotFound."""
        found = await self._find(bot_id)
        if found is None:
            raise errors.BotNotFound(f"no bot {bot_id!r}")
        return found

    async def names(self, bot_ids: Iterable[str], known: Mapping[str, str]) -> dict[str, str]:
        """The names of ``bot_ids`` (retired bots' too), by id: from ``known`` where
        the caller has them, else from the registry; a bot never registered is
        left out."""
        names = dict(known)
        for bot_id in set(bot_ids) - set(known):
            found = await self._find(bot_id)
            if found is not None:
                names[bot_id] = found.name
        return names

    async def _find(self, bot_id: str) -> RemoteBot | None:
        """The bot ``bot_id``, registered or retired; None when there is none. (A
        retirement writes the retired record before it drops the registered one, so
        a bot found registered is not retired yet.)"""
        doc = await self.store.get(BOTS, bot_id)
        if doc is None:
            doc = await self.store.get(RETIRED, bot_id)
        return None if doc is None else RemoteBot.from_json(doc)

    async def serving(self, bot_id: str) -> RemoteBot:
        """A bot that may enter new tournaments and tests: registered, not retired.

        Raises: BotNotFound."""
        bot = await self.bot(bot_id)
        if bot.retired_at:
            raise errors.BotNotFound(f"bot {bot.name!r} ({bot_id}) was retired by its owner")
        return bot

    async def seat_name(self, strategy: str, game_id: str, *, clocked: bool) -> str:
        """The name a seat of the bot ``strategy`` (``remote:<bot id>``) shows in
        a ``game_id`` match (see :class:`senet.service.bot_names.RemoteBotNames`).

        Raises:
            BotNotFound: no bot is registered under that id, or it was retired and
                the match has no clock.
            MalformedRequest: the bot does not play ``game_id``.
        """
        bot = await self.bot(strategy.removeprefix(REMOTE_PREFIX))
        if bot.retired_at and not clocked:
            raise errors.BotNotFound(
                f"bot {bot.name!r} ({bot.bot_id}) was retired by its owner: nothing "
                "would play its seats in a match without a clock"
            )
        if game_id not in bot.games:
            raise errors.MalformedRequest(
                f"bot {bot.name!r} ({bot.bot_id}) plays {', '.join(bot.games)}, not {game_id}",
                {"field": "bot_strategy"},
            )
        return bot.name

    async def bots(self) -> list[RemoteBot]:
        """Every registered bot (retired ones are not), oldest first."""
        found = [RemoteBot.from_json(doc) for doc in (await self.store.all(BOTS)).values()]
        return sorted(found, key=lambda b: (b.created_at, b.bot_id))

    async def retire(
        self, bot_id: str, by: Identity | None, *, is_admin: bool, key: str = ""
    ) -> RemoteBot:
        """Retire a bot: leave it out of the listings and ladders, and refuse its
        key. Who may: its owner ``by``, the admin key, or the bot's own ``key``
        (``bot_id`` may then be empty). Retiring it again answers the bot as first
        retired, so a retry is safe: the key still names its retired bot here.

        Raises:
            BotNotFound: no such bot.
            BadBotKey: a key no bot holds.
            IdentityRequired: no identity, key or admin key.
            NotYourBot: the identity, or the key, is not the bot's.
        """
        if len(bot_id) > 80 or not (bot_id or key):
            raise errors.MalformedRequest(
                "bot_id must be 1-80 characters (or empty, with the bot's key)", {"field": "bot_id"}
            )
        if key:
            bot = await self._holder(key)
            if bot_id and bot_id != bot.bot_id:
                raise errors.NotYourBot(f"this bot key is {bot.name!r}'s, not {bot_id!r}'s")
        else:
            bot = await self.bot(bot_id)
            if not (is_admin and self.policy.admin_key_set):
                if by is None:
                    raise errors.IdentityRequired(
                        "retiring a bot needs its owner's identity token (x-senet-identity) "
                        "or its key (x-senet-bot-key)"
                    )
                if by.subject != bot.owner:
                    raise errors.NotYourBot(f"bot {bot.name!r} ({bot_id}) is not {by.subject}'s")
        if bot.retired_at:
            return bot
        retired = replace(bot, active=False, note="retired by its owner", retired_at=time.time())
        await self._put(retired)
        await self.store.delete(BOTS, bot.bot_id)
        return retired

    async def by_key(self, key: str) -> RemoteBot:
        """The bot holding ``key``, which its workers lease with.

        Raises:
            BadBotKey: no bot holds it (never registered, or replaced since), or
                its bot was retired.
        """
        found = await self._holder(key)
        if found.retired_at:
            raise errors.BadBotKey("the bot holding this key was retired by its owner")
        return found

    async def _holder(self, key: str) -> RemoteBot:
        """The bot ``key`` was last issued to, retired or not.

        Raises:
            BadBotKey: no bot holds it (never registered, or replaced since).
        """
        if not key or len(key) > 200:
            raise errors.BadBotKey("the bot key is malformed")
        hashed = key_hash(key)
        bot_id = await self.store.get(KEYS, hashed)
        found = None if bot_id is None else await self._find(bot_id)
        if found is None or not secrets.compare_digest(found.key_hash, hashed):
            raise errors.BadBotKey("no bot holds this key (it may have been replaced)")
        return found

    async def bench(self, bot_id: str, note: str, first_rest_s: float) -> tuple[RemoteBot, bool]:
        """Stop scheduling a bot, for a rest of :func:`rest_s` (``note``: why); the
        bot, and whether this call benched it. A bot already benched (by another
        replica's pass over the same streak) is left as it is: one streak, one
        bench."""
        bot = await self.bot(bot_id)
        if not bot.active:
            return bot, False
        benches = bot.benches + 1
        rest = rest_s(first_rest_s, benches)
        until = time.time() + rest if rest else 0.0
        benched = replace(bot, active=False, note=note, benches=benches, benched_until=until)
        return await self._put(benched), True

    async def bring_back(self, bot_id: str) -> tuple[RemoteBot, bool]:
        """Schedule a benched bot again (its count of benches in a row is kept); the
        bot, and whether this call brought it back (a retired one stays retired)."""
        bot = await self.bot(bot_id)
        if bot.active or bot.retired_at:
            return bot, False
        return await self._put(replace(bot, active=True, note="")), True

    async def clear_benches(self, bot_id: str) -> RemoteBot:
        """Forget a bot's benches in a row: it played a match since without one."""
        return await self._put(replace(await self.bot(bot_id), benches=0))

    async def _put(self, bot: RemoteBot) -> RemoteBot:
        """Store ``bot`` in its collection (a change to a retired bot stays retired)."""
        await self.store.put(RETIRED if bot.retired_at else BOTS, bot.bot_id, bot.to_json())
        return bot

    async def saw_worker(self, bot: RemoteBot) -> None:
        """Record that a worker holding ``bot``'s key is calling (written at most
        every :data:`SEEN_EVERY_S` by this replica)."""
        now = time.time()
        if now - self._recorded.get(bot.bot_id, 0.0) < SEEN_EVERY_S:
            return
        await self.store.put(SEEN, bot.bot_id, f"{now:.3f}")
        self._recorded[bot.bot_id] = now  # once written: a failed write is tried again

    async def workers_seen(self) -> dict[str, float]:
        """When a worker of each bot last called BotService, by bot id (Unix
        seconds, to within :data:`SEEN_EVERY_S`); a bot never served is missing."""
        found = ((bot_id, _seen_at(doc)) for bot_id, doc in (await self.store.all(SEEN)).items())
        return {bot_id: at for bot_id, at in found if at is not None}

    async def worker_seen(self, bot_id: str) -> dict[str, float]:
        """:meth:`workers_seen` of one bot alone (one read, not the collection)."""
        at = _seen_at(await self.store.get(SEEN, bot_id))
        return {} if at is None else {bot_id: at}

    async def served(self, window_s: float) -> dict[str, float] | None:
        """The bots one of whose workers called within ``window_s``, with when it
        last did (None when ``window_s`` is 0: the server does not ask for workers)."""
        if window_s <= 0:
            return None
        now = time.time()
        return {b: at for b, at in (await self.workers_seen()).items() if now - at <= window_s}

    def decisions_for(self, bot: RemoteBot) -> BotDecisions:
        """The decision queue of ``bot`` alone: its key's workers lease only these."""
        return BotDecisions(self.matches, cast(BotQueue, bot.strategy))
