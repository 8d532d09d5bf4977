"""Mykerinos in the web client: its board (``senet.web_boards`` entry point)."""

from senet.web.mykerinos.board import MYKERINOS_BOARD

__all__ = ["MYKERINOS_BOARD"]
