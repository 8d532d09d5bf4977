"""Mykerinos' text renderer: the ``mykerinos`` plug-in of ``senet.text_renderers``."""

from __future__ import annotations

from senet.text.game_renderer import GameTextRenderer
from senet.text.mykerinos import actions, events, scores, table
from senet.text.mykerinos.names import Seats
from senet.v1 import mykerinos_pb2 as pb

MYKERINOS_RENDERER: GameTextRenderer[pb.MykerinosView, Seats] = GameTextRenderer(
    game_id="mykerinos",
    help_text=actions.HELP,
    input_hints=actions.INPUT_HINTS,
    view_of=lambda view: view.mykerinos,
    seats_of=Seats,
    table=table.match_lines,
    scores=scores.final_score_lines,
    events=events.update_lines,
    actions=actions.action_lines,
)
