"""Draw a Mare Nostrum: Mythology match from the protocol's messages, for 80 columns.

The match comes from ``senet.v1`` messages only (``MareNostrumView``, ``MatchSummary``,
``MareNostrumEvent``, ``LegalAction``); the map's static data (province names, city
sites, commodity icons) comes from the game's board module, which the view does not
repeat. Colour only decorates: owners are civilization letters and buildings are
letters and counts, so everything reads the same with ``--no-color``.

Modules: :mod:`~.names` (civilizations, seats, cards, steps), :mod:`~.board` (the map
overview and the province details), :mod:`~.table` (the whole table), :mod:`~.scores`,
:mod:`~.actions` (help, kind titles), :mod:`~.events` (the log) and :mod:`~.renderer`,
the ``senet.text_renderers`` plug-in.
"""

from senet.text.marenostrum.renderer import MARENOSTRUM_RENDERER

__all__ = ["MARENOSTRUM_RENDERER"]
