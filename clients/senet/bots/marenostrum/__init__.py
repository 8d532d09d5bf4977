"""The bots' knowledge of Mare Nostrum: its evaluator (a ``senet.bot_heuristics`` plug-in)."""

from senet.bots.marenostrum.heuristics import MARENOSTRUM_HEURISTICS

__all__ = ["MARENOSTRUM_HEURISTICS"]
