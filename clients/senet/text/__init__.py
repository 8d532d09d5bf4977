"""The text client: ``senet play`` in a terminal.

* :mod:`senet.text.render` draws a match from the protocol's messages (``MatchSummary``
  and ``MykerinosView``) as ``rich`` text that fits 80 columns and reads without colour.
* :mod:`senet.text.choose` turns what a person types (a number, notation, a command)
  into a choice among the legal actions.
* :mod:`senet.text.app` runs the session: create, join, resume or watch a match, follow
  the match stream live and prompt when it is the player's turn.
"""
