"""The board of a game without a web board of its own: its view's fields as they are.

It knows no game: the view's arm is read field by field (the text client's
:func:`senet.text.generic.arm_fields`, which also unwraps the generic protocol arm)
and shown as indented JSON. Every action is chosen from the page's labelled list,
so a newly installed game is playable in a browser before anyone draws its board.
"""

from __future__ import annotations

import json
from html import escape

from senet.text.generic import arm_fields
from senet.v1 import match_pb2


class GenericBoard:
    """Draws any view as JSON; no board element chooses an action."""

    game_id = "generic"

    def draw(
        self, view: match_pb2.View, summary: match_pb2.MatchSummary, viewer: int | None
    ) -> str:
        arm, fields = arm_fields(view)
        body = json.dumps(fields, indent=2, ensure_ascii=False, default=str)
        title = f"{summary.game_id or arm or 'game'}: the view's fields"
        return (
            f'<section class="generic-view" aria-label="{escape(title, quote=True)}">'
            f"<h3>{escape(title)}</h3><pre>{escape(body)}</pre></section>"
        )

    def targets(self, action: match_pb2.LegalAction, view: match_pb2.View) -> list[str]:
        return []


#: The board drawn for games without their own (``senet.web_boards``).
GENERIC_BOARD = GenericBoard()
