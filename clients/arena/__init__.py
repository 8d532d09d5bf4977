"""The arena: bot tournaments played through a Senet server (``senet arena``).

Matches are created with every seat a bot seat and played by bot workers, exactly
as hosted bot matches are, so a tournament also exercises the service. Modules:
:mod:`~clients.arena.players` (strategy specs and how a seat is played),
:mod:`~clients.arena.runner` (server, workers, matches), :mod:`~clients.arena.stats`
(win rates, confidence intervals, ratings) and :mod:`~clients.arena.report`
(table, JSON, chart).
"""
