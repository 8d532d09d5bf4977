"""The text client: ``senet play`` in a terminal.

* :mod:`senet.text.renderer` is what the client asks of a game's text part (the table,
  the log, the scores, the actions, the help) and finds it by game id among the
  ``senet.text_renderers`` plug-ins: :mod:`senet.text.mykerinos`,
  :mod:`senet.text.archeos`, or :mod:`senet.text.generic` for a game without its own.
* :mod:`senet.text.drawing` and :mod:`senet.text.actions` are the pieces every
  renderer shares: 80 columns, Unicode or ASCII borders, the numbered action list.
* :mod:`senet.text.choose` turns what a person types (a number, notation, a command)
  into a choice among the legal actions.
* :mod:`senet.text.lobby` lists a server's matches (``ListMatches``) and
  :mod:`senet.text.clocks` words the turn clocks; the full screen (``senet.tui``)
  shows both the same way.
* :mod:`senet.text.app` runs the session: create, join, resume or watch a match, follow
  the match stream live and prompt when it is the player's turn.
"""
