"""Mykerinos (Special Edition): rules core. Pure Python; safe to import anywhere."""

from server.games.mykerinos.actions import MykerinosAction, parse_action
from server.games.mykerinos.game import MYKERINOS, Mykerinos
from server.games.mykerinos.state import MykerinosState
from server.games.registry import register

register(MYKERINOS)

__all__ = ["MYKERINOS", "Mykerinos", "MykerinosAction", "MykerinosState", "parse_action"]
