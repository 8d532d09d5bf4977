"""A registered bot's state in words, for people: whether its worker calls and
whether the ladders bench it (shared by the web pages and ``senet ladder``)."""

from __future__ import annotations

from collections.abc import Mapping

from senet.v1 import ladder_service_pb2 as lpb


def worker_words(bot: lpb.Bot, now_ms: float) -> str:
    """When the bot's worker last called the server, in words: ladders seat only
    bots whose worker calls (see ``Bot.worker_seen_ms``)."""
    if not bot.worker_seen_ms:
        return "no worker has called yet (ladders seat it once one does)"
    return f"its worker last called {_span((now_ms - bot.worker_seen_ms) / 1000)} ago"


def bench_words(bot: lpb.Bot, now_ms: float) -> str:
    """Why a benched bot is out of the ladders and when it comes back, in words
    (empty for an active bot; see ``Bot.benched_until_ms``)."""
    if bot.active:
        return ""
    why = f"benched ({bot.note})" if bot.note else "benched"
    if not bot.benched_until_ms:
        return f"{why} until it registers again"
    left_s = (bot.benched_until_ms - now_ms) / 1000
    if left_s <= 0:
        return f"{why}; its rest is over: back once its worker calls"
    return f"{why}; back once its worker calls after {_span(left_s)} more"


def _span(seconds: float) -> str:
    """A span of time in the unit that reads best (s, min or h)."""
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h"


def match_bots(match: lpb.LadderMatch, names: Mapping[str, str]) -> str:
    """A ladder match's bots by name, in seat order (``names``: by bot id, for a
    server that does not name them in ``bot_names``)."""
    seats = list(match.bot_names) or [names.get(b, b) for b in match.bot_ids]
    return " vs ".join(seats)
