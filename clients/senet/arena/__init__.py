"""The arena: bot tournaments played through a Senet server (``senet arena``).

Matches are created with every seat a bot seat and played by bot workers, exactly
as hosted bot matches are, so a tournament also exercises the service. Modules:
:mod:`~senet.arena.players` (strategy specs and how a seat is played),
:mod:`~senet.arena.runner` (server, workers, matches), :mod:`~senet.arena.stats`
(win rates, confidence intervals, ratings) and :mod:`~senet.arena.report`
(table, JSON, chart).
"""
