"""``senet play`` full screen: a Textual UI over :mod:`senet.client` for every game.

:mod:`~.app` is the play screen, :mod:`~.panes` its panes, :mod:`~.picker` the
filter of the action list, :mod:`~.lobby` the screen that lists matches, and
:mod:`~.run` starts it all from the ``senet play`` arguments. The board is each
game's text drawing (``senet.text.<game>``, found through the renderer registry),
so a game with a text renderer has a full-screen UI with nothing more.
"""
