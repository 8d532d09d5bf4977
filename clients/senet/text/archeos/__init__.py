"""Draw an Archeos Society match from the protocol's messages, for an 80-column terminal.

The match comes from ``senet.v1`` messages only (``ArcheosView``, ``MatchSummary``,
``ArcheosEvent``); the site boards' static numbers come from the game's data module.
Colour only decorates: everything reads the same with ``--no-color``.

Modules: :mod:`~.names` (seats, cards), :mod:`~.table` (the whole table),
:mod:`~.scores`, :mod:`~.actions` (help, kind titles), :mod:`~.events` (the log) and
:mod:`~.renderer`, the ``senet.text_renderers`` plug-in.
"""

from senet.text.archeos.renderer import ARCHEOS_RENDERER

__all__ = ["ARCHEOS_RENDERER"]
