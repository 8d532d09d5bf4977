"""Mare Nostrum: Mythology for learning agents (a ``senet.rl_encodings`` plug-in): its
action space and observation features (:mod:`.encoding`), and the writer of its tensor
from the state's fields (:mod:`.tensor`)."""

from senet.rl.marenostrum.encoding import MARENOSTRUM_RL

__all__ = ["MARENOSTRUM_RL"]
