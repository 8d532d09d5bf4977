"""Mykerinos (Special Edition): rules core. Pure Python; safe to import anywhere."""

from senet.games.mykerinos.actions import MykerinosAction, parse_action
from senet.games.mykerinos.game import MYKERINOS, Mykerinos
from senet.games.mykerinos.state import MykerinosState
from senet.games.registry import register

register(MYKERINOS)

__all__ = ["MYKERINOS", "Mykerinos", "MykerinosAction", "MykerinosState", "parse_action"]
