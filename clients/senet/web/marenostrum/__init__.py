"""Mare Nostrum: Mythology in the web client: its board (``senet.web_boards`` entry point).

Modules: :mod:`~.layout` (where every province and sea is drawn: data to replace),
:mod:`~.style` (colours), :mod:`~.glyphs` (building shapes, chips), :mod:`~.mapview`
(the map), :mod:`~.legend`, :mod:`~.panels` (players, hand, trade, gods, market),
:mod:`~.targets` (which clicks choose which action) and :mod:`~.board`, the plug-in.
"""

from senet.web.marenostrum.board import MARENOSTRUM_BOARD

__all__ = ["MARENOSTRUM_BOARD"]
