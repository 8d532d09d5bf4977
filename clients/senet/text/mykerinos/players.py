"""The header, the patron draft, the players and teams, and the delimitation."""

from __future__ import annotations

from rich.text import Text

from senet.text.drawing import STATUS_NAME, UNICODE, WIDTH, Charset, fit, match_words, pad
from senet.text.mykerinos.names import Seats, letter, nile_card_text, patron_names
from senet.text.mykerinos.panel import reserve_text
from senet.text.mykerinos.tables import (
    COLOUR_LETTER,
    COLOUR_NAME,
    GOVERNOR,
    GOVERNOR_CARD_IDS,
    NILE_ROW,
    PATRON_CODE,
    PATRONS,
    PHASE_NAME,
    SIDE_NAME,
)
from senet.v1 import match_pb2
from senet.v1 import mykerinos_pb2 as pb


def campaign_text(view: pb.MykerinosView) -> str:
    """``campaign 2 of 4``; during the quick game's patron draft, which comes before
    the first campaign (campaign 0), ``before campaign 1 of 3``."""
    if view.campaign < 1:
        return f"before campaign 1 of {view.campaigns}"
    return f"campaign {view.campaign} of {view.campaigns}"


def header_lines(
    view: pb.MykerinosView, summary: match_pb2.MatchSummary | None, seats: Seats
) -> list[Text]:
    title = Text("MYKERINOS", style="bold")
    if summary is not None and summary.match_id:
        title.append(f"  {match_words(summary)}")
    title.append(f"  {campaign_text(view)}  ")
    title.append(PHASE_NAME.get(view.phase, "?"), style="bold")
    lines = [title]
    turn = Text()
    finished = summary is not None and summary.status in (
        match_pb2.MATCH_STATUS_FINISHED,
        match_pb2.MATCH_STATUS_ABANDONED,
    )
    if view.phase == pb.MYKERINOS_PHASE_OVER:
        turn.append("The game is over.", style="bold")
    elif finished and summary is not None:
        turn.append(f"Match {STATUS_NAME.get(summary.status, '?')}.", style="bold")
    elif view.HasField("current_seat"):
        turn.append("To move: ")
        turn.append_text(seats.styled(view.current_seat))
        if view.current_seat == seats.viewer:
            turn.append(" - your turn", style="bold reverse")
        turn.append(f"   start player: {seats.label(view.start_seat)}")
    lines.append(turn)
    excavating = view.phase in (
        pb.MYKERINOS_PHASE_EXCAVATION,
        pb.MYKERINOS_PHASE_NEUTRAL,
        pb.MYKERINOS_PHASE_BLOCKING,
    )
    if view.HasField("final_action_seat") and excavating:
        lines.append(
            Text(f"Final action: {seats.label(view.final_action_seat)} (the others passed)")
        )
    if view.phase == pb.MYKERINOS_PHASE_BLOCKING:
        lines.append(Text("The Governor was used: now a blocking token goes down (block ...)."))
    return lines


def draft_lines(view: pb.MykerinosView, seats: Seats) -> list[Text]:
    """Quick game: the plots on offer (by patron) and the drafting order."""
    if not view.HasField("draft"):
        return []
    draft = view.draft
    names = patron_names(view)
    lines = [
        Text("PATRON DRAFT ", style="bold").append(
            "each player drafts one patron, then a second in reverse order"
        )
    ]
    line = Text("  on offer: ")
    for index, patron in enumerate(PATRONS):
        count = sum(1 for offered in draft.patrons if offered == patron)
        item = f"{names.get(patron, '?')} ({PATRON_CODE[patron]}) {count}"
        item += "," if index < len(PATRONS) - 1 else ""
        if line.cell_len + 1 + len(item) > WIDTH:  # items are never split
            lines.append(line)
            line = Text(" " * len("  on offer: "))
        elif index:
            line.append(" ")
        line.append(item, style="" if count else "dim")
    lines.append(line)
    order = Text("  order: ")
    for index, seat in enumerate(draft.order):
        if index:
            order.append(" > ")
        mark = COLOUR_LETTER.get(seats.colour_of.get(seat, 0), "?")
        if index == draft.index:
            order.append(f"[{mark}]", style="bold reverse")  # brackets: readable uncoloured
        else:
            order.append(mark)
    lines.append(order)
    return lines


def _patrons_text(player: pb.MykerinosPlayer, nile: bool) -> Text:
    held: dict[int, pb.MykerinosPatronCards] = {int(e.patron): e for e in player.patrons}
    out = Text("patrons ")
    shown = (*PATRONS, GOVERNOR) if nile else PATRONS
    for index, patron in enumerate(shown):
        entry = held.get(patron)
        cards = entry.cards if entry is not None else 0
        used = entry.used if entry is not None else 0
        if index:
            out.append(", ")
        out.append(f"{PATRON_CODE[patron]} {cards}", style="" if cards else "dim")
        if used:
            out.append(f" ({used} used)", style="italic")
    return out


def team_lines(view: pb.MykerinosView, seats: Seats) -> list[Text]:
    """Team game: each team with its score, the lower of its members' scores."""
    if not view.teams:
        return []
    own = list(view.individual_scores)
    line = Text("TEAMS ", style="bold")
    for index, team in enumerate(view.teams):
        if index:
            line.append("   ")
        for number, seat in enumerate(team.seats):
            if number:
                line.append("+")
            line.append_text(letter(seats.colour_of.get(seat, 0)))
        members = [own[s] for s in team.seats if s < len(own)]
        score = min(members, default=0)
        line.append(f" score {score}", style="bold")
        line.append(f" (lower of {', '.join(map(str, members))})", style="dim")
    return [line]


def _nile_holdings(player: pb.MykerinosPlayer) -> Text:
    """The Nile: blocking tokens in hand and the tie card, if held."""
    out = Text(f"tokens {player.tokens}")
    if any(card not in GOVERNOR_CARD_IDS for card in player.nile_cards):
        out.append("  tie card", style="bold")
    return out


def player_lines(view: pb.MykerinosView, seats: Seats, cs: Charset = UNICODE) -> list[Text]:
    """Each player: colour, name, score, status; reserve and patron cards (with The
    Nile: Governor cards, blocking tokens in hand, the tie card)."""
    nile = view.HasField("nile")
    lines = [Text("PLAYERS", style="bold")]
    lines += team_lines(view, seats)
    for player in view.players:
        line = Text(
            f"{cs.turn} "
            if view.HasField("current_seat") and view.current_seat == player.seat
            else "  "
        )
        line.append_text(letter(player.colour))
        line.append(f" {COLOUR_NAME.get(player.colour, '?'):<6}")
        you = " (you)" if player.seat == seats.viewer else ""
        line.append_text(pad(Text(seats.name(player.seat) + you), 22))
        line.append(f" score {player.prestige:>3}  ", style="bold")
        if player.tiebreak_space:
            line.append(f"passed, tiebreak {player.tiebreak_space}")
        elif player.active:
            line.append("active")
        line.append(f"  plots won {len(player.plots_won)}")
        lines.append(fit(line, WIDTH))
        detail = Text("    reserve ")
        detail.append_text(reserve_text(player.reserve, cs.times))
        detail.append("  ")
        # Reserve, patrons and (The Nile) holdings, packed onto as few lines as fit.
        parts = [_patrons_text(player, nile)]
        if nile:
            parts.append(_nile_holdings(player))
        line = detail
        for index, part in enumerate(parts):
            gap = Text("  " if index else "")
            if line.cell_len + gap.cell_len + part.cell_len > WIDTH:
                lines.append(fit(line, WIDTH))
                line, gap = Text("    "), Text()
            line = line + gap + part
        lines.append(fit(line, WIDTH))
    if view.neutral_colour and view.neutral_colour not in seats.seat_of:
        line = Text("  ")
        line.append_text(letter(view.neutral_colour))
        line.append(f" {COLOUR_NAME.get(view.neutral_colour, '?'):<6}neutral player")
        line.append(" (its archaeologists travel in the players' reserves)", style="dim")
        lines.append(line)
    return lines


def _plot_text(view: pb.MykerinosView, area: int, side: int) -> str:
    if side in NILE_ROW:
        for card in view.region.nile.cards:
            if card.row == NILE_ROW[side]:
                return f"{SIDE_NAME[side]} ({nile_card_text(card)})"
        return SIDE_NAME[side]
    slot = 2 * area + (0 if side == pb.MYKERINOS_SIDE_LEFT else 1)
    for plot in view.region.plots:
        if plot.slot == slot:
            patron = patron_names(view).get(plot.patron, "no patron")
            return f"{SIDE_NAME.get(side, '?')} ({plot.points} pts, {patron})"
    return SIDE_NAME.get(side, "?")


def delimitation_lines(view: pb.MykerinosView, seats: Seats) -> list[Text]:
    """Which area is being scored, its reward order, who chooses and what is left."""
    if view.phase != pb.MYKERINOS_PHASE_DELIMITATION or not view.HasField("delimitation"):
        return []
    d = view.delimitation
    line = Text("DELIMITATION ", style="bold")
    if d.river:
        line.append("scoring the river (before the areas); order: ")
    else:
        line.append(f"scoring area {d.area + 1} of {len(view.region.plots) // 2}; order: ")
    for index, colour in enumerate(d.order):
        if index:
            line.append(" > ")
        line.append_text(letter(colour))
    lines = [line]
    if d.order and d.rank_index < len(d.order):
        rank = f"  rewarding place {d.rank_index + 1}: {seats.colour_label(d.order[d.rank_index])}"
        lines.append(Text(rank))
        if d.awaiting == pb.MYKERINOS_AWAITING_DISCARD:
            what = "which card the neutral player discards"
        elif d.awaiting == pb.MYKERINOS_AWAITING_TIE:
            what = "whether to use the tie card to win this tie"
        elif d.river:
            what = "a Nile card (no museum from the river)"
        else:
            what = "a reward: a plot or a museum room"
        if view.HasField("current_seat"):
            lines.append(Text(f"  {seats.label(view.current_seat)} chooses {what}"))
    left = ", ".join(_plot_text(view, d.area, side) for side in d.plots_left) or "none"
    lines.append(Text(f"  {'Nile cards' if d.river else 'plots'} left: {left}"))
    return lines
