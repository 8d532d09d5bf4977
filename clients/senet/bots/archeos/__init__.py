"""The bots' knowledge of Archeos Society: its evaluator (a ``senet.bot_heuristics`` plug-in)."""

from senet.bots.archeos.heuristics import ARCHEOS_HEURISTICS

__all__ = ["ARCHEOS_HEURISTICS"]
