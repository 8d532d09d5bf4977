"""Archeos Society: rules core. Pure Python; safe to import anywhere."""

from senet.games.archeos.actions import ArcheosAction, parse_action
from senet.games.archeos.game import ARCHEOS, Archeos
from senet.games.archeos.state import ArcheosState
from senet.games.registry import register

register(ARCHEOS)

__all__ = ["ARCHEOS", "Archeos", "ArcheosAction", "ArcheosState", "parse_action"]
