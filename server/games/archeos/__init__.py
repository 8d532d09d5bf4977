"""Archeos Society: rules core. Pure Python; safe to import anywhere."""

from server.games.archeos.actions import ArcheosAction, parse_action
from server.games.archeos.game import ARCHEOS, Archeos
from server.games.archeos.state import ArcheosState
from server.games.registry import register

register(ARCHEOS)

__all__ = ["ARCHEOS", "Archeos", "ArcheosAction", "ArcheosState", "parse_action"]
