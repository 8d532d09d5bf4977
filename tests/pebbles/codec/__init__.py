"""The Pebbles codec: the generic one, since Pebbles brings no ``.proto`` file."""

from senet.codec.generic import GenericCodec
from tests.pebbles.core import Play

PEBBLES_CODEC = GenericCodec("pebbles", Play)

__all__ = ["PEBBLES_CODEC"]
