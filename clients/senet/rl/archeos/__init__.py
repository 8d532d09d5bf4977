"""Archeos Society for learning agents (a ``senet.rl_encodings`` plug-in): its action
space and observation features (:mod:`.encoding`), and the writer of its tensor from
the state's fields (:mod:`.tensor`)."""

from senet.rl.archeos.encoding import ARCHEOS_RL

__all__ = ["ARCHEOS_RL"]
