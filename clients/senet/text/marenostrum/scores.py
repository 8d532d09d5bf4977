"""The final ranking of a Mare Nostrum match.

A winner (the Pyramids, or enough heroes and wonders) comes first; after the turn
limit the players are ranked by heroes and wonders, then provinces, roles and cities
(the rulings' R11), so those columns are shown: the view gives every one of them.
"""

from __future__ import annotations

from rich.text import Text

from senet.text.drawing import UNICODE, WIDTH, Charset, fit, hanging, ordinal
from senet.text.marenostrum.names import Seats, title
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2


def final_score_lines(
    view: pb.MareNostrumView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """Places, heroes and wonders, provinces, roles and cities per seat, then the winner."""
    seats = Seats(view, summary, viewer)
    if not view.places:
        return [Text("No final scores yet.")]
    places = list(view.places)
    lines = [
        Text("FINAL SCORES", style="bold reverse"),
        Text(f"{'':>4} {'player':<30} {'h&w':>3} {'prov':>4} {'roles':>5} {'cities':>6}"),
    ]
    roles = [h.seat for h in view.roles if h.HasField("seat")]
    for player in sorted(view.players, key=lambda p: places[p.seat] if p.seat < len(places) else 9):
        civ = player.civilization
        place = ordinal(places[player.seat]) if player.seat < len(places) else "?"
        provinces = sum(1 for p in view.provinces if p.influence == civ)
        cities = sum(p.cities for p in view.provinces if p.influence == civ)
        lines.append(
            fit(
                Text(
                    f"{place:>4} {seats.label(player.seat):<30} {player.score:>3} "
                    f"{provinces:>4} {roles.count(player.seat):>5} {cities:>6}"
                ),
                WIDTH,
            )
        )
        owned = " ".join(title(c) for c in player.owned) or "none"
        lines += hanging(Text("       owns "), owned, WIDTH)
    if view.HasField("winner"):
        lines.append(Text(f"{seats.label(view.winner)} wins!", style="bold"))
    else:
        firsts = [seats.label(s) for s, p in enumerate(places) if p == 1]
        verb = "share the victory" if len(firsts) > 1 else "wins on the ranking"
        lines.append(Text(f"Turn limit reached: {' and '.join(firsts)} {verb}.", style="bold"))
    return lines
