"""Mare Nostrum on the wire through the generic arm (notation, plain-data views)."""

from senet.codec.generic import GenericCodec
from senet.games.marenostrum.actions import MareAction

MARENOSTRUM_CODEC = GenericCodec("marenostrum", MareAction)
