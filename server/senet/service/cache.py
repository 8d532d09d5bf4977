"""A per-replica cache of the latest state each match had when this replica saw it.

This is an optimization, never a source of truth: the store's compare-and-swap on
the version decides. A replica that served the previous action of a match (the
usual case behind a sticky or lightly loaded balancer) applies the next action to
its cached state and commits with ``expected_version`` = the cached version in a
single store round trip; if another replica committed meanwhile, the commit
reports a conflict and the caller reloads. A claim that changes (a bot worker's
lease, a takeover) is a new claim, which the commit checks in the store; a token
not found in the cached claims sends the caller back to the store.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from senet.games.interface import Action, GameState
from senet.service.clocks import Clock
from senet.service.records import MatchMeta


@dataclass(slots=True)
class CachedMatch:
    """A match as of ``version``: meta, the seat claims known then, and its state.

    Every commit makes one or two; none is changed once made (slotted, not
    frozen, see docs/performance.md, "Per-call values").

    ``legal`` holds the state's legal actions when this replica already worked
    them out (while committing the action that led here); ``None`` otherwise.
    A submission takes the entry out of the cache before it changes the state
    in place, and puts back only a committed (or untouched) state, so a cached
    list always belongs to its state.
    """

    version: int
    meta: MatchMeta
    seats: dict[int, str]
    state: GameState
    legal: tuple[Action, ...] | None = None
    #: The clocks at ``version`` (None: the match has no clocks).
    clock: Clock | None = None
    #: The version of the game's rules the match was dealt under (0: not recorded).
    dealt: int = 0

    def with_legal(self, legal: tuple[Action, ...]) -> CachedMatch:
        """This entry, with its state's legal actions worked out."""
        return CachedMatch(
            self.version, self.meta, self.seats, self.state, legal, self.clock, self.dealt
        )

    def committed(self, version: int, clock: Clock | None) -> CachedMatch:
        """This entry once its state, changed in place by an action, committed as
        ``version`` with ``clock`` (its legal actions are the next position's, so
        unknown). Built directly, not with ``dataclasses.replace``: every commit
        makes one."""
        return CachedMatch(version, self.meta, self.seats, self.state, None, clock, self.dealt)


class StateCache:
    """A bounded LRU of :class:`CachedMatch` by match id."""

    def __init__(self, capacity: int = 2048) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, CachedMatch] = OrderedDict()

    def get(self, match_id: str) -> CachedMatch | None:
        entry = self._entries.get(match_id)
        if entry is not None:
            self._entries.move_to_end(match_id)
        return entry

    def peek(self, match_id: str) -> CachedMatch | None:
        """The entry, without counting as a use."""
        return self._entries.get(match_id)

    def put(self, match_id: str, entry: CachedMatch) -> None:
        """Remember ``entry`` unless a newer version is already cached."""
        if self.capacity <= 0:
            return
        current = self._entries.get(match_id)
        if current is not None and current.version > entry.version:
            return
        self._entries[match_id] = entry
        self._entries.move_to_end(match_id)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def forget(self, match_id: str) -> None:
        self._entries.pop(match_id, None)
