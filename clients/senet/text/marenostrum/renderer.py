"""Mare Nostrum's text renderer: the ``marenostrum`` plug-in of ``senet.text_renderers``.

Seats are named by letter and name, as on the board and in the log; ``zoom <what>``
(see :func:`senet.text.renderer.detail_lines`) draws provinces and seas in full, by
id, region, civilization, ``seas`` or ``all``.
"""

from __future__ import annotations

from senet.text.choose import PLAIN_INPUT
from senet.text.game_renderer import ZoomingRenderer
from senet.text.marenostrum import actions, board, events, scores, table
from senet.text.marenostrum.names import Seats
from senet.v1 import mare_nostrum_pb2 as pb

MARENOSTRUM_RENDERER: ZoomingRenderer[pb.MareNostrumView, Seats] = ZoomingRenderer(
    game_id="marenostrum",
    help_text=actions.HELP,
    input_hints=PLAIN_INPUT,
    view_of=lambda view: view.marenostrum,
    seats_of=Seats,
    table=table.match_lines,
    scores=scores.final_score_lines,
    events=events.update_lines,
    actions=actions.action_lines,
    zoom=board.zoom_lines,
)
