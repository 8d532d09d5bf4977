"""Archeos Society: rules core. Pure Python; safe to import anywhere.

Published to every layer as the ``archeos`` entry point of ``senet.games``."""

from senet.games.archeos.actions import ArcheosAction, parse_action
from senet.games.archeos.game import ARCHEOS, Archeos
from senet.games.archeos.state import ArcheosState

__all__ = ["ARCHEOS", "Archeos", "ArcheosAction", "ArcheosState", "parse_action"]
