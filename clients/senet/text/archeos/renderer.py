"""Archeos Society's text renderer: the ``archeos`` plug-in of ``senet.text_renderers``.

Seats are named by letter and name, as on the board and in the log.
"""

from __future__ import annotations

from senet.text.archeos import actions, events, scores, table
from senet.text.archeos.names import Seats
from senet.text.choose import PLAIN_INPUT
from senet.text.game_renderer import GameTextRenderer
from senet.v1 import archeos_pb2 as pb

ARCHEOS_RENDERER: GameTextRenderer[pb.ArcheosView, Seats] = GameTextRenderer(
    game_id="archeos",
    help_text=actions.HELP,
    input_hints=PLAIN_INPUT,
    view_of=lambda view: view.archeos,
    seats_of=Seats,
    table=table.match_lines,
    scores=scores.final_score_lines,
    events=events.update_lines,
    actions=actions.action_lines,
)
