"""The Pebbles rules core: standard library and ``senet.games`` only, like a real core.

Each seat holds a hidden hand of numbered pebbles drawn from a shuffled bag. On its
turn a seat plays one pebble on the shared pile: higher than the pile's top scores
its value; anything else knocks the pile down (top back to 0) and scores nothing.
The seat then draws a pebble while the bag has any. The match ends when every hand
is empty; the highest score wins.
"""

from tests.pebbles.core.game import PEBBLES, Pebbles
from tests.pebbles.core.rules import Play, parse_action
from tests.pebbles.core.state import PebblesState

__all__ = ["PEBBLES", "Pebbles", "PebblesState", "Play", "parse_action"]
