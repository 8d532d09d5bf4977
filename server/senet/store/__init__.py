"""Match storage: one interface, an in-memory (``memory``) and a Redis (``redis_store``)
implementation."""

from senet.store.base import (
    BotDecisionLease,
    BotDecisionRef,
    ClaimWrite,
    CommitOutcome,
    CommitRequest,
    CorruptMatch,
    Durability,
    EventBatch,
    LogEntry,
    MatchExists,
    MatchNotFound,
    MatchStore,
    NewMatch,
    ReopenOutcome,
    StoredMatch,
    StoreError,
    StoreUnavailable,
)

__all__ = [
    "BotDecisionLease",
    "BotDecisionRef",
    "ClaimWrite",
    "CommitOutcome",
    "CommitRequest",
    "CorruptMatch",
    "Durability",
    "EventBatch",
    "LogEntry",
    "MatchExists",
    "MatchNotFound",
    "MatchStore",
    "NewMatch",
    "ReopenOutcome",
    "StoreError",
    "StoreUnavailable",
    "StoredMatch",
]
