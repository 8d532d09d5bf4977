"""Mare Nostrum: Mythology: rules core. Pure Python; safe to import anywhere.

Published to every layer as the ``marenostrum`` entry point of ``senet.games``."""

from senet.games.marenostrum.actions import MareAction, parse_action
from senet.games.marenostrum.game import MARENOSTRUM, MareNostrum
from senet.games.marenostrum.state import MareState

__all__ = ["MARENOSTRUM", "MareAction", "MareNostrum", "MareState", "parse_action"]
