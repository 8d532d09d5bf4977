"""Draw a Mykerinos match from the protocol's messages, for an 80-column terminal.

Everything here reads ``senet.v1`` messages only (``MatchSummary``, ``MykerinosView``,
``LegalAction``, ``MatchUpdate``): the text client needs no rules core. The output is
``rich`` :class:`~rich.text.Text`, one object per line, every line at most
:data:`~senet.text.drawing.WIDTH` cells wide. Colour only decorates: archaeologists are
letters (``B``/``R``/``G``/``W``), pyramids ``^`` and empty spaces ``.``, so the board
reads the same with ``NO_COLOR`` or ``--no-color``.

The region is drawn with its plot borders (thin) and area borders (thick), each area
labelled with its number in scoring order, and under each top border a line giving
every plot's points and patron (`` 3 exp``: 3 points, Explorer).

The variants add to the same table: The Nile's river spaces (``~``), blocking tokens
(the owner's letter in lower case, on a space or a museum room), the Nile cards and
decks; the quick game's patron draft; the team game's teams and team scores. Patron
names come from the view (``patron_names``), so the classic rules show the 2006 names.

Modules: :mod:`~.tables` (enum names and styles), :mod:`~.names` (who is who),
:mod:`~.board`, :mod:`~.panel`, :mod:`~.players`, :mod:`~.table` (the whole table),
:mod:`~.scores`, :mod:`~.actions` (help, kind titles), :mod:`~.events` (the log) and
:mod:`~.renderer`, the ``senet.text_renderers`` plug-in.
"""

from senet.text.mykerinos.renderer import MYKERINOS_RENDERER

__all__ = ["MYKERINOS_RENDERER"]
