"""The bots' knowledge of Mykerinos: its evaluator (a ``senet.bot_heuristics`` plug-in)."""

from senet.bots.mykerinos.heuristics import MYKERINOS_HEURISTICS

__all__ = ["MYKERINOS_HEURISTICS"]
