"""Archeos Society in the web client: its board (``senet.web_boards`` entry point)."""

from senet.web.archeos.board import ARCHEOS_BOARD

__all__ = ["ARCHEOS_BOARD"]
