"""Senet: a stateless game server for turn-based board games.

The rules cores live in :mod:`server.games`; they are pure Python and are safe for
clients and bots to import as a forward model.
"""
