"""The web client: watch, play and replay Senet matches in a browser (``senet web``).

A small Starlette app that talks gRPC to a match server like any other client;
boards are per-game plug-ins (``senet.web_boards``, :mod:`senet.web.boards`).
"""
