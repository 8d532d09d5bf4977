"""Mykerinos (Special Edition): rules core. Pure Python; safe to import anywhere.

Published to every layer as the ``mykerinos`` entry point of ``senet.games``."""

from senet.games.mykerinos.actions import MykerinosAction, parse_action
from senet.games.mykerinos.game import MYKERINOS, Mykerinos
from senet.games.mykerinos.state import MykerinosState

__all__ = ["MYKERINOS", "Mykerinos", "MykerinosAction", "MykerinosState", "parse_action"]
