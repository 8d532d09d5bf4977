"""Mare Nostrum: Mythology in the browser: the map of both boards, the players, the
viewer's hand, the trade, the gods, the heroes and wonders on offer, and whatever the
military phase has under way.

Provinces and seas, hand cards, face-up trade cards, gods, cards on offer and the
players' swatches are board targets (see :mod:`.targets`): a build is a click on its
province, a sail or a move a click on each end, an offering a click on the god, a
payment a click on the card in the hand. The labelled list offers every action too.
"""

from __future__ import annotations

from senet.text.marenostrum.names import Seats
from senet.text.marenostrum.trade import trade_under_way
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2
from senet.web.marenostrum import panels
from senet.web.marenostrum.layout import MAIN, WEST
from senet.web.marenostrum.legend import legend_html
from senet.web.marenostrum.mapview import joins_html, map_html
from senet.web.marenostrum.targets import action_targets

#: Phases whose decisions are paid with the hand's cards (offerings, buildings).
_PAYING_PHASES = frozenset({pb.MARE_NOSTRUM_PHASE_OFFERINGS, pb.MARE_NOSTRUM_PHASE_CONSTRUCTION})


def _pays_now(game: pb.MareNostrumView, viewer: int) -> bool:
    """Whether the viewer decides now in a phase paid with cards: the hand (and the
    trade, the players' doings) then come before the map, in the first screen, as
    they do while a trade or a payment is under way; the map follows them there."""
    return game.phase in _PAYING_PHASES and viewer in game.deciding_seats


class MareNostrumBoard:
    """Draws a Mare Nostrum view; spaces, cards, gods and players choose actions."""

    game_id = "marenostrum"

    def draw(
        self, view: match_pb2.View, summary: match_pb2.MatchSummary, viewer: int | None
    ) -> str:
        game = view.marenostrum
        seats = Seats(game, summary, viewer)
        cards = (
            f"{panels.rule_html(game, viewer)}<div class='board-row mn-cards-row'>"
            f"{panels.own_cards_html(game, viewer)}{panels.trade_html(game, seats)}"
            f"{panels.doings_html(game, seats)}"
            "</div>"
        )
        cards_first = viewer is not None and (
            trade_under_way(game) or game.HasField("purchase") or _pays_now(game, viewer)
        )
        return (
            "<div class='mn-board'>"
            f"{panels.status_html(game, seats)}"
            f"{cards if cards_first else ''}"
            f"{map_html(MAIN, game)}"
            f"<div class='mn-west-row'>{map_html(WEST, game)}"
            f"<div class='mn-key'>{joins_html()}{legend_html()}</div></div>"
            f"{panels.players_html(game, seats, panels.victory_target(summary))}"
            f"{'' if cards_first else cards}"
            f"{panels.gods_html(game, seats)}{panels.market_html(game)}"
            f"{panels.supply_html(game, seats)}"
            "</div>"
        )

    def targets(self, action: match_pb2.LegalAction, view: match_pb2.View) -> list[str]:
        return action_targets(action.action.marenostrum, view.marenostrum)


#: The entry point of ``senet.web_boards`` for Mare Nostrum.
MARENOSTRUM_BOARD = MareNostrumBoard()
